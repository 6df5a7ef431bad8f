/** `memledger serve`: the HTTP API and `/mcp` on a port, over one data directory. */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { openLedger, type Ledger } from '../../index.ts';
import { Deliverer, type DelivererOptions } from '../../notify/deliverer.ts';
import { createHttpApp, type HttpAppOptions } from './app.ts';

export interface StartServerOptions {
  home?: string;
  /** Serve this open ledger (its home) instead of opening one; the caller then closes it. */
  ledger?: Ledger;
  /** 0 picks a free port. Default 8787. */
  port?: number;
  /** Default 127.0.0.1: reachable from this machine only unless asked otherwise. */
  host?: string;
  maxBodyBytes?: number;
  mcp?: HttpAppOptions['mcp'];
  /** Hosts and origins allowed besides loopback and the listening address (origin-check.ts). */
  allow?: HttpAppOptions['allow'];
  /** The console's address as people reach it, for links in notifications. Default the listening URL. */
  publicUrl?: string;
  /** The notification deliverer's settings (src/notify), or false for none. */
  notify?: false | Omit<DelivererOptions, 'store' | 'consoleUrl'>;
  slack?: HttpAppOptions['slack'];
}

/**
 * How often a running server moves the audit records dead processes left in the outbox (I8): a replica that died
 * after this one opened, or another machine's row past its lease, is moved without waiting for the next open.
 */
const OUTBOX_RECOVERY_MS = 60_000;

export interface RunningServer {
  url: string;
  ledger: Ledger;
  close(): Promise<void>;
}

/**
 * @example
 * const server = await startServer({ home: '/tmp/mem', port: 0 });
 * console.log(server.url); // http://127.0.0.1:41234
 * await server.close();
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const ownLedger = options.ledger === undefined;
  const ledger = options.ledger ?? openLedger({ home: options.home });
  // A store that opens asynchronously (a database) answers before the server listens, or the start fails.
  await ledger.ready;
  const tokens = await ledger.openTokens();
  const host = options.host ?? '127.0.0.1';
  const http = createHttpApp({
    ledger,
    tokens,
    maxBodyBytes: options.maxBodyBytes,
    mcp: options.mcp,
    listenHost: host,
    allow: options.allow,
    slack: options.slack,
  });
  let server: ReturnType<typeof serve>;
  let address: AddressInfo;
  try {
    ({ server, address } = await new Promise<{ server: ReturnType<typeof serve>; address: AddressInfo }>(
      (resolve, reject) => {
        const s = serve({ fetch: http.app.fetch, port: options.port ?? 8787, hostname: host }, (info) =>
          resolve({ server: s, address: info }),
        );
        s.once('error', reject);
      },
    ));
  } catch (error) {
    await tokens.close();
    if (ownLedger) ledger.close();
    throw error;
  }
  const recovery = setInterval(() => {
    ledger.recoverAuditOutbox().catch((error: unknown) => {
      // The rows stay for the next round; the server itself works.
      process.emitWarning(`memledger: moving the audit outbox failed: ${(error as Error).message}`);
    });
  }, OUTBOX_RECOVERY_MS);
  recovery.unref();
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  // Held writes and the other events queued in the store are sent from here, off the write path.
  const deliverer =
    options.notify === false
      ? undefined
      : new Deliverer({ ...options.notify, store: ledger.store, consoleUrl: options.publicUrl ?? url });
  deliverer?.start();
  let closing: Promise<void> | undefined;
  return {
    url,
    ledger,
    close: () => {
      closing ??= (async () => {
        clearInterval(recovery);
        await deliverer?.stop();
        await http.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
        await tokens.close();
        if (ownLedger) ledger.close();
      })();
      return closing;
    },
  };
}
