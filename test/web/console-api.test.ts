/**
 * The reads the console is built on: whoami (what a token may do), the erase preview (exactly what erase will
 * remove, nothing changed), and the review watch (live pending counts, audited once, within the grants).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Ledger, type LedgerSession, MemoryError, openLedger } from '../../src/index.ts';
import type { ReviewPulse } from '../../src/ledger/review-watch.ts';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { TokenStore } from '../../src/auth/token-store.ts';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/app.ts';
import { principal } from '../conformance/helpers.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';

describe('console reads: whoami, erase preview, review watch', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let op: LedgerSession;
  let bot: LedgerSession;
  const as = (p: ReturnType<typeof principal>) => ledger.as(p, { surface: 'library', tool: 'console-test' });
  const reviewer = () =>
    principal('human', 'rita', { roles: ['reader', 'writer', 'reviewer'], grants: ['shared:rw'] });

  before(() => {
    home = tempHome('console-api');
    ledger = openLedger({ home: home.home });
    op = ledger.as(ledger.operator(), { surface: 'library' });
    bot = ledger.as(ledger.principal('agent:bot'), { surface: 'library' });
  });
  after(() => {
    ledger.close();
    home.cleanup();
  });

  const rejects = async (p: Promise<unknown>, cls: string, message: RegExp) => {
    await assert.rejects(
      p,
      (e: unknown) => e instanceof MemoryError && e.class === cls && message.test(e.message),
    );
  };

  test('I7 I8 whoami: verdicts, erasure and the audit are offered to humans with the role only, never to an agent', async () => {
    const cases: [ReturnType<typeof principal>, Record<string, boolean>][] = [
      [
        principal('agent', 'bot', { roles: ['reader', 'writer', 'reviewer', 'admin'] }),
        { review: false, erase: false, audit: false },
      ],
      [
        principal('agent', 'audra', { roles: ['auditor'], grants: [] }),
        { read: false, write: false, review: false, erase: false, audit: true },
      ],
      [
        principal('human', 'rhea', { roles: ['reader'] }),
        { read: true, write: false, review: false, erase: false, audit: false },
      ],
      [reviewer(), { read: true, write: true, review: true, erase: false, audit: false }],
      [
        principal('human', 'ada', { roles: ['admin'] }),
        { read: true, write: true, review: true, erase: true, audit: true },
      ],
    ];
    for (const [p, expected] of cases) {
      const me = await as(p).whoami();
      assert.equal(me.principal, `${p.kind}:${p.id}`);
      assert.equal(me.kind, p.kind);
      for (const [what, may] of Object.entries(expected)) {
        assert.equal(me.may[what as keyof typeof me.may], may, `${me.principal} may ${what}`);
      }
    }
    // What whoami offers is what the ledger enforces: the agent with every role still cannot approve.
    const held = await bot.remember({ body: 'whoami proposal', scope: 'shared' });
    const agentWithRoles = principal('agent', 'bot', { roles: ['reader', 'writer', 'reviewer', 'admin'] });
    await rejects(as(agentWithRoles).approve({ id: held.id }), 'permission', /only a human may approve/);
    // control: the human reviewer whoami says may review does approve it
    assert.equal((await as(reviewer()).approve({ id: held.id })).state, 'active');
  });

  test('I9 erase preview lists exactly what erase then removes, every version, and changes nothing', async () => {
    const first = await op.remember({
      body: 'Dana prefers email',
      scope: 'shared',
      key: 'dana.contact',
      subjects: ['person:dana'],
    });
    // A later version that forgot to name the subject is still about her: erase takes it, so the preview shows it.
    const second = await op.remember({
      body: 'Dana prefers phone calls',
      scope: 'shared',
      key: 'dana.contact',
    });
    const other = await op.remember({
      body: 'Dana lives in Lyon',
      scope: 'user:dana',
      subjects: ['person:dana'],
    });
    const unrelated = await op.remember({
      body: 'Eve prefers chat',
      scope: 'shared',
      subjects: ['person:eve'],
    });
    const admin = as(principal('human', 'ada', { roles: ['admin'], grants: ['*:rw'] }));

    const preview = await admin.erasePreview({ subject: 'person:dana' });
    const previewed = preview.memories.map((m) => m.id).sort();
    assert.deepEqual(previewed, [first.id, second.id, other.id].sort());
    assert.equal(preview.total, 3);
    assert.equal(preview.hidden, 0);
    assert.deepEqual(preview.blockedScopes, []);
    assert.ok(preview.memories.some((m) => m.body === 'Dana prefers phone calls'));
    // Nothing changed: every version keeps its state and content.
    assert.equal((await op.get(second.id)).state, 'active');
    assert.equal((await op.get(other.id)).body, 'Dana lives in Lyon');

    // An admin whose grants miss a scope sees that version counted but not shown, and that erase would be refused.
    const narrow = as(principal('human', 'ned', { roles: ['admin'], grants: ['shared:rw'] }));
    const partial = await narrow.erasePreview({ subject: 'person:dana' });
    assert.equal(partial.total, 3);
    assert.equal(partial.hidden, 1);
    assert.deepEqual(partial.blockedScopes, ['user:dana']);
    assert.ok(!partial.memories.some((m) => m.id === other.id));
    await rejects(narrow.erase({ subject: 'person:dana' }), 'permission', /may not write scope user:dana/);

    const result = await admin.erase({ subject: 'person:dana' });
    assert.equal(result.erased, preview.total);
    for (const id of previewed) assert.equal((await op.get(id)).state, 'erased');
    assert.equal((await op.get(unrelated.id)).state, 'active', 'control: another subject stays');
    assert.equal((await admin.erasePreview({ subject: 'person:dana' })).total, 0);
  });

  test('I7 erase preview is for human admins only', async () => {
    await op.remember({ body: 'Finn likes tea', scope: 'shared', subjects: ['person:finn'] });
    await rejects(
      as(reviewer()).erasePreview({ subject: 'person:finn' }),
      'permission',
      /needs the admin role/,
    );
    await rejects(
      as(principal('agent', 'bot', { roles: ['admin'] })).erasePreview({ subject: 'person:finn' }),
      'permission',
      /only a human may preview an erasure/,
    );
    await rejects(
      op.erasePreview({ subject: 'Finn' }),
      'invalid_input',
      /subject must look like type:identifier/,
    );
    assert.equal((await op.erasePreview({ subject: 'person:finn' })).total, 1, 'control: the operator may');
  });

  test('I4 I8 the review watch counts held writes in the readable scopes, sees new ones, and is audited once', async () => {
    const opened = (await op.audit({ operation: 'review.watch', limit: 1000 })).length;
    const rita = as(reviewer());
    const watch = rita.reviewWatch({ intervalMs: 200, maxMs: 1500 });
    const pending = (await rita.reviewList({ limit: 200 })).length;
    const first = (await watch.next()).value as ReviewPulse;
    assert.equal(first.changed, true);
    assert.equal(first.pending, pending);
    // Held in a scope the reviewer cannot read: not counted (I4).
    await ledger
      .as(ledger.principal('agent:bot'))
      .remember({ body: 'private to the bot', scope: 'project:x' });
    const proposal = await bot.remember({ body: 'a new proposal for the watch', scope: 'shared' });
    assert.equal(proposal.state, 'held');
    let seen: ReviewPulse | undefined;
    let ticks = 0;
    for await (const pulse of { [Symbol.asyncIterator]: () => watch }) {
      ticks++;
      if (pulse.changed) {
        seen = pulse;
        break;
      }
    }
    assert.ok(seen !== undefined, 'a change arrived');
    assert.equal(seen.pending, pending + 1);
    assert.equal(seen.newest, proposal.id);
    assert.equal(
      (await op.audit({ operation: 'review.watch', limit: 1000 })).length - opened,
      1,
      `one record for ${ticks} ticks`,
    );
    // The watch ends by itself after maxMs, so a client reconnects and shows its token again.
    const rest = rita.reviewWatch({ intervalMs: 200, maxMs: 1000 });
    let count = 0;
    for await (const _ of rest) count++;
    assert.ok(count >= 1 && count <= 6, `${count} pulses`);
  });

  test('I7 the review watch refuses a principal without the reviewer role, and audits the refusal', async () => {
    const before = (await op.audit({ operation: 'review.watch', outcome: 'error', limit: 1000 })).length;
    const reader = as(principal('human', 'rhea', { roles: ['reader'], grants: ['shared:r'] }));
    await rejects(reader.reviewWatch().next(), 'permission', /needs the reviewer role/);
    await rejects(bot.reviewWatch({ intervalMs: 5 }).next(), 'invalid_input', /intervalMs/);
    assert.equal(
      (await op.audit({ operation: 'review.watch', outcome: 'error', limit: 1000 })).length - before,
      2,
    );
  });
});

describe('the review events route speaks server-sent events', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let tokens: TokenStore;
  let http: HttpApp;
  let secret: string;

  before(async () => {
    home = tempHome('console-sse');
    secret = (
      await makeTokens(home.home, {
        r: { name: 'rita', kind: 'human', roles: ['reader', 'reviewer'], grants: ['shared:rw'] },
      })
    ).r!.secret;
    ledger = openLedger({ home: home.home });
    tokens = openTokenStore(home.home);
    http = createHttpApp({ ledger, tokens });
  });
  after(async () => {
    await http.close();
    tokens.close();
    ledger.close();
    home.cleanup();
  });

  test('the first frame is a pulse with the pending count; a new proposal arrives as another pulse', async () => {
    const bot = ledger.as(ledger.principal('agent:bot'), { surface: 'library' });
    await bot.remember({ body: 'first proposal', scope: 'shared' });
    const res = await http.app.request('/v1/review/events?intervalMs=200&maxMs=5000', {
      headers: { authorization: `Bearer ${secret}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-cache, no-transform');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const nextFrame = async (): Promise<string> => {
      while (!text.includes('\n\n')) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended: ${text}`);
        text += value;
      }
      const at = text.indexOf('\n\n');
      const frame = text.slice(0, at);
      text = text.slice(at + 2);
      return frame;
    };
    const first = await nextFrame();
    assert.match(first, /^retry: \d+\nevent: pulse\ndata: /);
    const data = JSON.parse(first.slice(first.indexOf('data: ') + 6));
    assert.equal(data.pending, 1);
    assert.equal(data.more, false);
    assert.equal('changed' in data, false);
    const next = await bot.remember({ body: 'second proposal', scope: 'shared' });
    let frame = await nextFrame();
    while (frame === ': keep-alive') frame = await nextFrame();
    assert.deepEqual(JSON.parse(frame.replace(/^event: pulse\ndata: /, '')), {
      pending: 2,
      more: false,
      newest: next.id,
    });
    await reader.cancel();
  });
});
