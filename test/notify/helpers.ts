/**
 * Test helpers for notifications: a local HTTP receiver (node:http, loopback only, so nothing reaches the
 * internet) that records every request and answers with the status codes it is told, and a Slack request built
 * and signed exactly as Slack signs one, computed here with node:crypto rather than with the code under test.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

export interface Receiver {
  url: string;
  requests: Received[];
  /** The status codes of the next answers, in order; 200 once they run out. */
  answers: number[];
  close(): Promise<void>;
}

export async function startReceiver(answers: number[] = []): Promise<Receiver> {
  const requests: Received[] = [];
  const state = { answers: [...answers] };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        raw: Buffer.concat(chunks).toString('utf8'),
      });
      res.statusCode = state.answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get answers() {
      return state.answers;
    },
    set answers(v: number[]) {
      state.answers = [...v];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** How a receiver verifies a memledger webhook, written from the README's description, not from src/notify. */
export function receiverVerifies(secret: string, r: Received, nowSeconds: number): boolean {
  const ts = String(r.headers['x-memledger-timestamp'] ?? '');
  const given = String(r.headers['x-memledger-signature'] ?? '');
  if (!/^\d+$/.test(ts) || Math.abs(nowSeconds - Number(ts)) > 300) return false;
  const expected = `v1=${createHmac('sha256', secret).update(`${ts}.${r.raw}`).digest('hex')}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** A block_actions button press as Slack posts it: form-encoded `payload`, signed with the app's signing secret. */
export function slackPress(options: {
  signingSecret: string;
  timestamp: number;
  user: string;
  action: 'memledger.approve' | 'memledger.reject';
  memoryId: string;
  responseUrl: string;
}): { headers: Record<string, string>; body: string } {
  const payload = {
    type: 'block_actions',
    user: { id: options.user, username: 'someone', team_id: 'T0TEAM' },
    team: { id: 'T0TEAM', domain: 'example' },
    api_app_id: 'A0APP',
    container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0CHAN' },
    trigger_id: '123.456.abc',
    response_url: options.responseUrl,
    actions: [
      {
        type: 'button',
        action_id: options.action,
        block_id: `memledger:${options.memoryId}`,
        value: options.memoryId,
        action_ts: String(options.timestamp),
      },
    ],
  };
  const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const ts = String(options.timestamp);
  const signature = `v0=${createHmac('sha256', options.signingSecret).update(`v0:${ts}:${body}`).digest('hex')}`;
  return {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': ts,
      'x-slack-signature': signature,
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
    },
    body,
  };
}
