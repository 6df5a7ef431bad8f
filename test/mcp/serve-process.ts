/**
 * `memledger serve` as a real process for the MCP-over-HTTP tests: started on a port (0 picks one, a restart
 * reuses it), killed with any signal, and a loopback proxy that adds a bearer token and nothing else (the
 * conformance suite's client cannot send one).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN } from '../cli/helpers.ts';

export interface ServeProcess {
  url: string;
  port: number;
  /** Everything the process wrote on stdout and stderr so far (all of it once `kill` resolved). */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `memledger serve` on a home (or a store URL: `postgres://…`) and resolves once it listens. */
export function startServe(
  home: string,
  options: { port?: number; args?: string[]; env?: Record<string, string> } = {},
): Promise<ServeProcess> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MEMLEDGER_')) env[k] = v;
  Object.assign(env, options.env);
  const args = [
    BIN,
    'serve',
    '--port',
    String(options.port ?? 0),
    home.includes('://') ? '--store' : '--home',
    home,
    ...(options.args ?? []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  // 'close' comes after the process exited and its stdout and stderr were read to the end.
  const exited = new Promise<void>((done) => child.once('close', () => done()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving (http:\/\/[^\s]+)/.exec(out);
      if (match === null) return;
      child.stdout?.off('data', onData);
      child.stdout?.on('data', (more: Buffer) => {
        out += more.toString();
      });
      const url = match[1]!;
      resolve({
        url,
        port: Number(new URL(url).port),
        output: () => out,
        kill: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) =>
      reject(new Error(`memledger serve exited ${code} before listening:\n${out}`)),
    );
    child.once('error', reject);
  });
}

/**
 * A loopback HTTP proxy to `target` that adds `Authorization: Bearer <secret>` and passes everything else,
 * Host and Origin included, through unchanged both ways.
 */
export async function bearerProxy(
  target: string,
  secret: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const upstream = request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${secret}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
