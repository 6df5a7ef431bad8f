/** I10 no credentials: secret-shaped text is refused at write and never emitted by reads, even if planted below the guard. */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { CallContext, Ledger, LedgerSession, MemoryEvent, RememberInput } from '../../../src/index.ts';
import { fingerprint } from '../../../src/guard/fingerprint.ts';
import { newId } from '../../../src/model/ids.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import {
  allFiles,
  expectError,
  filesContaining,
  importedMemoryLine,
  linesOf,
  storeCounts,
  uniqueWord,
} from '../helpers.ts';

// Credential-shaped strings are assembled at run time so no literal sits in the repository for scanners to trip on.
const GITHUB = () => `ghp${'_'}${'Tq7vW2xY9zA4bC6dE8fG1hJ3kL5mN0pR2sT4'}`;
const AWS_ID = () => `AK${'IA'}${'Q7WX2YZ4BC6DE8FG'}`;
const STRIPE = () => `sk${'_live_'}${'4eC39HqLyjWDarjtT1zdp7dc'}`;
const HUGGINGFACE = () => `hf${'_'}${'aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH'}`;
const PASSWORD = () => `${'hunter2'}-Blue-77`;

const REFUSED: { field: string; kind: string; input: RememberInput }[] = [
  { field: 'body', kind: 'github-token', input: { body: `CI token is ${GITHUB()}`, scope: 'shared' } },
  {
    field: 'value',
    kind: 'aws-access-key-id',
    input: { body: 'AWS deploy user', scope: 'shared', value: { id: AWS_ID() } },
  },
  { field: 'key', kind: 'github-token', input: { body: 'keyed by a token', scope: 'shared', key: GITHUB() } },
  {
    field: 'subjects',
    kind: 'stripe-key',
    input: { body: 'about a key', scope: 'shared', subjects: [`key:${STRIPE()}`] },
  },
  {
    field: 'body',
    kind: 'url-password',
    input: { body: `DB is postgres://app:${'hunter2hunter2'}@db.internal:5432/app`, scope: 'shared' },
  },
];

/** Appends a memory straight through the Store port, skipping the ledger's write guard (as a bug or an old import might). */
async function plant(
  ledger: Ledger,
  body: string,
  options: { sessionId?: string; state?: 'active' | 'rejected' } = {},
): Promise<string> {
  const id = newId('mem');
  const state = options.state ?? 'active';
  const now = new Date().toISOString();
  await ledger.store.transaction((tx) =>
    tx.insertMemory({
      id,
      scope: 'shared',
      kind: 'fact',
      key: null,
      body,
      value: null,
      subjects: [],
      validFrom: null,
      validTo: null,
      confidence: 1,
      supersedes: null,
      editOf: null,
      fingerprint: fingerprint({ scope: 'shared', body }),
      provenance: {
        principal: 'service:legacy',
        principalKind: 'service',
        surface: 'feed',
        ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
      },
      recordedAt: now,
      state,
      trust: 'accepted',
      activeFrom: state === 'active' ? now : null,
      rule: 'planted',
    }),
  );
  return id;
}

/** Appends an event straight through the Store port, as an old home or a bug below the guard might have. */
async function plantEvent(
  ledger: Ledger,
  memoryId: string,
  fields: Pick<MemoryEvent, 'type' | 'reason' | 'detail'>,
): Promise<void> {
  await ledger.store.transaction((tx) =>
    tx.insertEvent({
      id: newId('evt'),
      memoryId,
      actor: 'human:legacy',
      actorKind: 'human',
      at: new Date().toISOString(),
      ...fields,
    }),
  );
}

/**
 * One free-text field a person or agent writes outside a memory's content: `prepare` builds what the call needs
 * (a held proposal, a memory to retract) and returns the call, run once with a secret and once with a clean value.
 */
interface FreeTextCase {
  what: string;
  field: string;
  kind: string;
  secret: () => string;
  prepare: (ledger: Ledger) => Promise<(value: string) => Promise<unknown>>;
}

/** An agent's proposal to change a key a human holds: held for review under the default policy. A fresh key each time. */
async function heldProposal(ledger: Ledger): Promise<string> {
  const me = ledger.as(ledger.operator());
  const key = `acme.${uniqueWord()}`;
  await me.remember({ body: `Acme is on the Pro plan (${key})`, scope: 'shared', key });
  const agent = ledger.as(ledger.principal('agent:scout'), { surface: 'mcp', sessionId: 'proposal' });
  const proposal = await agent.remember({ body: `Acme plan is Free (${key})`, scope: 'shared', key });
  assert.equal(proposal.state, 'held');
  return proposal.id;
}

const asContext = (ledger: Ledger, context: Partial<CallContext>): LedgerSession =>
  ledger.as(ledger.operator(), { surface: 'library', ...context });

const FREE_TEXT: FreeTextCase[] = [
  {
    what: 'a reject reason',
    field: 'reason',
    kind: 'github-token',
    secret: () => `the bot leaked ${GITHUB()}`,
    prepare: async (ledger) => {
      const id = await heldProposal(ledger);
      return (reason) => ledger.as(ledger.operator()).reject({ id, reason });
    },
  },
  {
    what: 'an approve note (a review note)',
    field: 'note',
    kind: 'huggingface-token',
    secret: () => `approved; the model key is ${HUGGINGFACE()}`,
    prepare: async (ledger) => {
      const id = await heldProposal(ledger);
      return (note) => ledger.as(ledger.operator()).approve({ id, note });
    },
  },
  {
    what: 'an approve edit of the body',
    field: 'body',
    kind: 'labelled-secret',
    secret: () => `Acme plan is Free; the billing password is ${PASSWORD()}`,
    prepare: async (ledger) => {
      const id = await heldProposal(ledger);
      return (body) => ledger.as(ledger.operator()).approve({ id, body });
    },
  },
  {
    what: 'a retract reason',
    field: 'reason',
    kind: 'github-token',
    secret: () => `superseded by ${Buffer.from(GITHUB()).toString('base64')}`,
    prepare: async (ledger) => {
      const { id } = await ledger
        .as(ledger.operator())
        .remember({ body: 'Standup at 9:30', scope: 'shared' });
      return (reason) => ledger.as(ledger.operator()).retract({ id, reason });
    },
  },
  {
    what: 'a session id',
    field: 'sessionId',
    kind: 'github-token',
    secret: GITHUB,
    prepare: async (ledger) => (sessionId) =>
      asContext(ledger, { sessionId }).remember({ body: 'Okapi session note', scope: 'shared' }),
  },
  {
    what: 'a run id',
    field: 'runId',
    kind: 'aws-access-key-id',
    secret: () => `${AWS_ID().slice(0, 10)}\u200B${AWS_ID().slice(10)}`,
    prepare: async (ledger) => (runId) =>
      asContext(ledger, { runId }).remember({ body: 'Okapi run note', scope: 'shared' }),
  },
  {
    what: 'an on-behalf-of',
    field: 'onBehalfOf',
    kind: 'stripe-key',
    secret: STRIPE,
    prepare: async (ledger) => (onBehalfOf) =>
      asContext(ledger, { onBehalfOf }).remember({ body: 'Okapi delegated note', scope: 'shared' }),
  },
  {
    what: 'a client name',
    field: 'client',
    kind: 'github-token',
    secret: () => `curl/8.5 ${GITHUB()}`,
    prepare: async (ledger) => (client) =>
      asContext(ledger, { client }).remember({ body: 'Okapi client note', scope: 'shared' }),
  },
  {
    what: 'a source note',
    field: 'source',
    kind: 'labelled-secret',
    secret: () => `imported from the wiki; admin password: ${PASSWORD()}`,
    prepare: async (ledger) => (note) =>
      ledger
        .as(ledger.operator())
        .remember({ body: 'Okapi wiki page', scope: 'shared', source: { connector: 'wiki', note } }),
  },
  {
    what: 'a source url',
    field: 'source',
    kind: 'url-password',
    secret: () => `https://deploy:${PASSWORD()}@wiki.example.com/page`,
    prepare: async (ledger) => (url) =>
      ledger.as(ledger.operator()).remember({ body: 'Okapi wiki link', scope: 'shared', source: { url } }),
  },
  {
    what: 'a project scope id',
    field: 'scope',
    kind: 'github-token',
    secret: () => `project:${GITHUB()}`,
    prepare: async (ledger) => (scope) => ledger.as(ledger.operator()).remember({ body: 'Okapi', scope }),
  },
];

const CLEAN: Record<string, string> = {
  sessionId: 'session-2031-03-04',
  runId: 'run-42',
  onBehalfOf: 'user:alice',
  client: 'claude-code/2.1.0',
  scope: 'project:okapi',
};

export function noCredentialCases(factory: ConformanceFactory): void {
  describe('I10 no credentials', () => {
    for (const { field, kind, input } of REFUSED) {
      test(`I10 no credentials: a ${kind} in ${field} is refused with invalid_input naming the kind, and nothing is written`, () =>
        withHome(factory, async ({ ledger }) => {
          const me = ledger.as(ledger.operator());
          const counts = await storeCounts(ledger);
          const e = await expectError(me.remember(input), 'invalid_input');
          assert.equal(e.details.secretKind, kind);
          assert.equal(e.details.field, field);
          assert.match(e.message, new RegExp(kind));
          assert.ok(
            !e.message.includes(GITHUB()) && !e.message.includes(AWS_ID()) && !e.message.includes(STRIPE()),
          );
          assert.deepEqual(await storeCounts(ledger), counts);
        }));
    }

    test('I10 no credentials: git SHAs, UUIDs and sha256 digests are ordinary content and land', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const sha1 = createHash('sha1').update('commit').digest('hex');
        const sha256 = createHash('sha256').update('artifact').digest('hex');
        for (const body of [
          `Fixed in commit ${sha1}`,
          `Request id ${randomUUID()} failed`,
          `Artifact digest sha256:${sha256}`,
          `Short sha ${sha1.slice(0, 7)} and tag v1.2.3`,
        ]) {
          const r = await me.remember({ body, scope: 'shared', value: { ref: body } });
          assert.equal(r.state, 'active', body);
          assert.equal((await me.get(r.id)).body, body);
        }
      }));

    test('I10 no credentials: a secret planted below the guard is never emitted by search, list, get or history', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const token = GITHUB();
        const secret = await plant(ledger, `Okapi deploy token ${token}`);
        const clean = await plant(ledger, 'Okapi deploy runs nightly');
        const hits = (await me.search({ query: 'okapi deploy token' })).hits;
        assert.ok(
          hits.some((h) => h.memory.id === clean),
          'control: the clean planted memory is found',
        );
        assert.ok(!JSON.stringify(hits).includes(token));
        const listed = await me.list();
        assert.ok(listed.some((m) => m.id === clean));
        assert.ok(!JSON.stringify(listed).includes(token));
        assert.ok(!JSON.stringify(await me.get(secret)).includes(token), 'get masks it');
        assert.ok(!JSON.stringify(await me.history(secret)).includes(token), 'history masks it');
        assert.equal((await me.get(clean)).body, 'Okapi deploy runs nightly');
      }));

    test('I10 no credentials: a secret in a reject/approve/retract reason, a review note, a session id, a run id, a client name, a source note is refused and nothing is written', () =>
      withHome(factory, async ({ ledger }) => {
        for (const c of FREE_TEXT) {
          const call = await c.prepare(ledger);
          const secret = c.secret();
          const counts = await storeCounts(ledger);
          const e = await expectError(call(secret), 'invalid_input', c.what);
          assert.equal(e.details.field, c.field, c.what);
          assert.equal(e.details.secretKind, c.kind, c.what);
          assert.match(e.message, new RegExp(`^${c.field} .*\\(${c.kind}\\)`), c.what);
          assert.ok(!e.message.includes(secret), `${c.what}: the message does not echo the secret`);
          assert.deepEqual(await storeCounts(ledger), counts, `${c.what}: nothing is written`);
          // Control: the same call with a clean value succeeds and writes.
          await call(CLEAN[c.field] ?? `checked by hand on ${c.what}`);
          assert.notDeepEqual(await storeCounts(ledger), counts, `${c.what}: the clean call writes`);
        }
      }));

    test('I10 no credentials: a secret-shaped session id refuses reads too, before anything is recorded for it', () =>
      withHome(factory, async ({ ledger }) => {
        await ledger.as(ledger.operator()).remember({ body: 'Okapi reads are fine', scope: 'shared' });
        const leaky = asContext(ledger, { sessionId: GITHUB() });
        // One call at a time: a refusal that settled before its turn to be awaited would be an unhandled rejection.
        for (const call of [
          () => leaky.search({ query: 'okapi' }),
          () => leaky.list(),
          () => leaky.context({ task: 'okapi' }),
        ]) {
          const e = await expectError(call(), 'invalid_input');
          assert.equal(e.details.field, 'sessionId');
        }
        const me = ledger.as(ledger.operator());
        const e = await expectError(me.context({ task: 'okapi', sessionId: GITHUB() }), 'invalid_input');
        assert.equal(e.details.field, 'sessionId');
        // Control: a clean session id reads.
        const hits = (await asContext(ledger, { sessionId: 'clean-session' }).search({ query: 'okapi' }))
          .hits;
        assert.equal(hits.length, 1);
      }));

    test('I10 no credentials: history and export never emit a secret planted in an event reason', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const token = GITHUB();
        const id = await plant(ledger, 'Okapi deploy notes', { sessionId: token });
        await plantEvent(ledger, id, { type: 'approved', reason: `approved, key ${token}`, detail: {} });
        await plantEvent(ledger, id, {
          type: 'corroborated',
          reason: null,
          detail: { principal: 'agent:legacy', principalKind: 'agent', sessionId: token },
        });
        await plantEvent(ledger, id, {
          type: 'confirmed',
          reason: 'checked against the invoice',
          detail: {},
        });
        const rejected = await plant(ledger, 'Okapi plan is Free', { state: 'rejected' });
        await ledger.store.transaction((tx) =>
          tx.insertRejection({
            scope: 'shared',
            fingerprint: fingerprint({ scope: 'shared', body: 'Okapi plan is Free' }),
            memoryId: rejected,
            reason: `wrong, and the bot key ${token} leaked`,
            by: 'human:legacy',
            at: new Date().toISOString(),
            lifted: null,
          }),
        );

        const history = await me.history(id);
        assert.ok(!JSON.stringify(history).includes(token), 'history masks reasons, details and provenance');
        const reasons = history.events.map((e) => e.reason);
        assert.ok(
          reasons.includes('approved, key [secret:github-token]'),
          'the masked reason is still there',
        );
        assert.ok(
          reasons.includes('checked against the invoice'),
          'control: a clean reason is kept as written',
        );
        assert.equal(history.versions[0]?.provenance.sessionId, '[secret:github-token]');
        assert.ok(!JSON.stringify(await me.get(id)).includes(token), 'get masks provenance');
        const listed = await me.list();
        assert.ok(
          listed.some((m) => m.id === id) && !JSON.stringify(listed).includes(token),
          'list masks it',
        );

        const lines: string[] = [];
        for await (const line of me.export()) lines.push(line);
        const exported = lines.join('\n');
        assert.ok(!exported.includes(token), 'export masks reasons, details, provenance and rejections');
        assert.ok(exported.includes(id) && exported.includes('checked against the invoice'), 'control');
        const rejection = lines.map((l) => JSON.parse(l)).find((l) => l.type === 'rejection');
        assert.equal(rejection?.rejection.reason, 'wrong, and the bot key [secret:github-token] leaked');

        // I5 tells a re-proposal why it was rejected: the planted reason reaches it masked.
        const again = await me.remember({ body: 'Okapi plan is Free', scope: 'shared' });
        assert.equal(again.state, 'rejected');
        assert.match(again.reason ?? '', /\[secret:github-token\] leaked/);
        assert.ok(!(again.reason ?? '').includes(token));
      }));

    test('I10 no credentials: a token in an allow-listed audit field (scope) or a refused session id never reaches audit.db', async (t) =>
      withHome(factory, async ({ ledger, home, capabilities }) => {
        const me = ledger.as(ledger.operator());
        const token = GITHUB();
        // zod refuses the scope, and the refusal is audited with its arguments; so is the guard's refusal.
        await expectError(me.remember({ body: 'Okapi scoped', scope: token }), 'invalid_input');
        await expectError(me.search({ query: 'okapi', scopes: [token] }), 'invalid_input');
        await expectError(me.remember({ body: 'Okapi scoped', scope: `project:${token}` }), 'invalid_input');
        await expectError(asContext(ledger, { sessionId: token }).list(), 'invalid_input');
        await me.remember({ body: 'Okapi control', scope: 'project:okapi' });

        const records = await me.audit({ limit: 1000 });
        const text = JSON.stringify(records);
        assert.ok(!text.includes(token), 'the audit read-back never holds the token');
        assert.ok(records.some((r) => r.operation === 'search' && r.failureClass === 'invalid_input'));
        assert.ok(text.includes('"scope":"project:okapi"'), 'control: a vocabulary scope passes as it is');
        const refused = records.find((r) => r.operation === 'list' && r.outcome === 'error');
        assert.equal(refused?.sessionId, '[secret:github-token]', 'the refused session is recorded, masked');
        assert.match(refused?.argsHash ?? '', /^[0-9a-f]{64}$/, 'the args hash stays');

        if (!capabilities.files) {
          t.skip('the backend keeps no audit files under home to search');
          return;
        }
        const auditFiles = allFiles(home).filter((f) => f.startsWith(join(home, 'audit.db')));
        assert.ok(auditFiles.length > 0, 'audit files exist');
        assert.deepEqual(filesContaining(home, token), [], 'no file under home holds the token');
        for (const operation of ['remember', 'search', 'list']) {
          const found = filesContaining(home, operation).filter((f) => auditFiles.includes(f));
          assert.ok(found.length > 0, `control: the operation name ${operation} is in the audit bytes`);
        }
      }));

    test('I10 no credentials: a restored line whose provenance, event reason or rejection reason holds a secret fails alone and writes nothing', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const token = GITHUB();
        const at = new Date().toISOString();
        const line = (body: string) => JSON.parse(importedMemoryLine({ scope: 'shared', body, at }));
        const withSession = line('Okapi imported with a session');
        withSession.memory.provenance.sessionId = token;
        const withSource = line('Okapi imported with a source');
        withSource.memory.provenance.source = { connector: 'wiki', note: `admin password: ${PASSWORD()}` };
        const withReason = line('Okapi imported with an event');
        withReason.events = [
          {
            id: newId('evt'),
            type: 'appended',
            memoryId: withReason.memory.id,
            actor: 'agent:miner',
            actorKind: 'agent',
            at,
            reason: `rotated ${token}`,
            detail: {},
          },
        ];
        const clean = line('Okapi imported clean');
        const rejection = {
          type: 'rejection',
          rejection: {
            scope: 'shared',
            fingerprint: 'f',
            memoryId: clean.memory.id,
            reason: token,
            by: 'human:x',
            at,
          },
        };
        const counts = await storeCounts(ledger);
        const all = [withSession, withSource, withReason, clean, rejection].map((l) => JSON.stringify(l));
        const result = await me.import(linesOf(all), { mode: 'restore' });
        assert.deepEqual(
          result.failed.map((f) => [f.line, f.class]),
          [
            [1, 'invalid_input'],
            [2, 'invalid_input'],
            [3, 'invalid_input'],
            [5, 'invalid_input'],
          ],
        );
        assert.ok(!JSON.stringify(result).includes(token) && !JSON.stringify(result).includes(PASSWORD()));
        assert.equal(result.imported, 1, 'control: the clean line lands');
        const after = await storeCounts(ledger);
        assert.equal(after.memories, counts.memories + 1);
        assert.equal((await me.get(clean.memory.id)).body, 'Okapi imported clean');

        // An ingest keeps no provenance from the file at all: the same lines land as the importer's own writes.
        const ingested = await me.import(linesOf(all.slice(0, 3)));
        assert.deepEqual([ingested.imported, ingested.failed], [3, []]);
        const exported: string[] = [];
        for await (const l of me.export()) exported.push(l);
        assert.ok(!exported.join('\n').includes(token), 'the file’s provenance and events never landed');
      }));

    test('I10 no credentials: a feed config holding a secret is refused; a sync error holding one is kept, masked', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const config = { path: '/srv/wiki', token: GITHUB() };
        const e = await expectError(
          me.feedAdd({ name: 'wiki', connector: 'folder', config }),
          'invalid_input',
        );
        assert.equal(e.details.field, 'config');
        assert.deepEqual(await me.feedList(), [], 'nothing was added');
        await me.feedAdd({ name: 'wiki', connector: 'folder', config: { path: '/srv/wiki' } }); // control
        await me.feedUpdate({ name: 'wiki', lastError: `HTTP 401 with ${GITHUB()} from the wiki` });
        const feed = await me.feedGet('wiki');
        assert.equal(feed.lastError, 'HTTP 401 with [secret:github-token] from the wiki');
        assert.deepEqual(feed.config, { path: '/srv/wiki' });
      }));
  });
}
