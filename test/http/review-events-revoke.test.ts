/**
 * The review event stream over real HTTP re-checks its token on every tick: revoking the token with the CLI
 * ends an open stream (with an `end` frame and an audit record), while another reviewer's stream keeps pulsing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer } from '../../src/surfaces/http/server.ts';
import { cli } from '../cli/helpers.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';

/** Reads an event stream frame by frame; `null` once the server ended it. */
function frames(res: Response): { next(): Promise<string | null>; cancel(): Promise<void> } {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  return {
    async next() {
      while (!text.includes('\n\n')) {
        const { value, done } = await reader.read();
        if (done) return null;
        text += value;
      }
      const at = text.indexOf('\n\n');
      const frame = text.slice(0, at);
      text = text.slice(at + 2);
      return frame;
    },
    cancel: () => reader.cancel(),
  };
}

// maxMs is far beyond the test's timeout: the revoked stream can only end because of the revocation.
const WATCH = '/v1/review/events?intervalMs=200&maxMs=3600000';

test(
  'I4 I8 a revoked token’s review stream ends with an end frame and an audit record; an unrevoked one keeps pulsing',
  {
    timeout: 60_000,
  },
  async (t) => {
    const home = tempHome('sse-revoke');
    const made = await makeTokens(home.home, {
      rita: { name: 'rita', kind: 'human', roles: ['reader', 'reviewer'], grants: ['shared:rw'] },
      rex: { name: 'rex', kind: 'human', roles: ['reader', 'reviewer'], grants: ['shared:rw'] },
    });
    const server = await startServer({ home: home.home, port: 0 });
    // Should a stream never end, the test times out; closing the server then ends the reads, so nothing hangs.
    t.signal.addEventListener('abort', () => void server.close());
    const open = async (secret: string) => {
      const res = await fetch(`${server.url}${WATCH}`, { headers: { authorization: `Bearer ${secret}` } });
      assert.equal(res.status, 200);
      return frames(res);
    };
    const rita = await open(made.rita!.secret);
    const rex = await open(made.rex!.secret);
    try {
      assert.match((await rita.next()) ?? '', /event: pulse/);
      assert.match((await rex.next()) ?? '', /event: pulse/);
      assert.match(
        (await rita.next()) ?? '',
        /^: keep-alive$/,
        'control: the stream ticks before revocation',
      );

      const revoked = await cli(home.home, ['token', 'revoke', made.rita!.id, '--json']);
      assert.equal(revoked.code, 0, revoked.stderr);

      // Whatever ticks were already on the wire, the stream then ends with the reason, and nothing after it.
      const seen: string[] = [];
      for (let frame = await rita.next(); frame !== null; frame = await rita.next()) seen.push(frame);
      const last = seen.at(-1) ?? '';
      assert.match(last, /^event: end\ndata: /, seen.join(' | '));
      const end = JSON.parse(last.slice(last.indexOf('data: ') + 6));
      assert.equal(end.error.class, 'permission');
      assert.match(end.error.message, /revoked/);
      assert.ok(
        seen.slice(0, -1).every((f) => f === ': keep-alive'),
        'only ticks from before the revocation',
      );

      // Control: the other reviewer's stream is still live and ticking.
      for (let i = 0; i < 3; i++) assert.ok((await rex.next()) !== null, `rex frame ${i}`);

      // Reconnecting with the revoked token is refused outright.
      const again = await fetch(`${server.url}${WATCH}`, {
        headers: { authorization: `Bearer ${made.rita!.secret}` },
      });
      assert.equal(again.status, 401);
      await again.body?.cancel();

      const op = server.ledger.as(server.ledger.operator());
      const watches = await op.audit({ operation: 'review.watch', limit: 100 });
      const ended = watches.filter((r) => r.tokenId === made.rita!.id && r.outcome === 'error');
      assert.equal(ended.length, 1, 'one record of the stream ending');
      assert.equal(ended[0]?.failureClass, 'permission');
      assert.match(ended[0]?.message ?? '', /revoked/);
      assert.equal(ended[0]?.principal, 'human:rita');
      assert.deepEqual(
        watches.filter((r) => r.tokenId === made.rex!.id).map((r) => r.outcome),
        ['ok'],
        'control: the live stream was audited once, when it opened',
      );
    } finally {
      await rex.cancel();
      await rita.cancel().catch(() => undefined);
      await server.close();
      home.cleanup();
    }
  },
);
