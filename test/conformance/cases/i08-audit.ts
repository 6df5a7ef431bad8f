/** I8 everything is audited: one record per call, allowed or refused, with no memory content in it. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type AuditRecord, type Ledger, openLedger } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import type { Role } from '../../../src/index.ts';
import {
  allFiles,
  buildPolicy,
  expectError,
  filesContaining,
  principal,
  startWriter,
  uniqueWord,
} from '../helpers.ts';

// A GitHub-token-shaped string assembled at run time, so no credential-shaped literal sits in the repository.
const fakeToken = () => `ghp${'_'}${'Tq7vW2xY9zA4bC6dE8fG1hJ3kL5mN0pR2sT4'}`;

export function auditCases(factory: ConformanceFactory): void {
  describe('I8 everything is audited', () => {
    test('I8 audit: every call writes exactly one record, allowed or refused, with principal, operation, outcome, class and hash', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:bot'), {
          surface: 'mcp',
          sessionId: 'sess-8',
          runId: 'run-8',
          client: 'tester/1.0',
        });
        const before = (await me.audit({ limit: 10_000 })).length;
        const ok = await agent.remember({ body: 'Audited write', scope: 'agent:bot' });
        await expectError(agent.remember({ body: 'Not my scope', scope: 'user:zed' }), 'permission');
        await expectError(agent.get('not-an-id'), 'invalid_input');
        await expectError(agent.get(ok.id.replace(/.$/, ok.id.endsWith('a') ? 'b' : 'a')), 'not_found');
        await agent.search({ query: 'audited write' });
        await expectError(agent.approve({ id: ok.id }), 'permission');
        await agent.list({ limit: 5 });
        await agent.list({ limit: 5 });
        const after = (await me.audit({ limit: 10_000 })).length;
        assert.equal(after - before, 8 + 1, 'eight agent calls and the first audit read');

        const records = (await me.audit({ principal: 'agent:bot', limit: 100 })).reverse();
        assert.deepEqual(
          records.map((r) => [r.operation, r.outcome, r.failureClass]),
          [
            ['remember', 'ok', null],
            ['remember', 'error', 'permission'],
            ['get', 'error', 'invalid_input'],
            ['get', 'error', 'not_found'],
            ['search', 'ok', null],
            ['review.approve', 'error', 'permission'],
            ['list', 'ok', null],
            ['list', 'ok', null],
          ],
        );
        for (const r of records) {
          assert.equal(r.principal, 'agent:bot');
          assert.equal(r.principalKind, 'agent');
          assert.equal(r.surface, 'mcp');
          assert.equal(r.sessionId, 'sess-8');
          assert.equal(r.runId, 'run-8');
          assert.equal(r.client, 'tester/1.0');
          assert.match(r.argsHash, /^[0-9a-f]{64}$/);
        }
        assert.deepEqual(records[0]!.changes, [{ id: ok.id, from: null, to: 'active' }]);
        assert.ok(records[0]!.targets.includes(ok.id));
        // The same arguments hash the same; different ones do not.
        assert.equal(records[6]!.argsHash, records[7]!.argsHash);
        assert.notEqual(records[0]!.argsHash, records[1]!.argsHash);
      }));

    test('I8 audit: calls refused for lack of a role are recorded, one record each', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const reader = ledger.as(ledger.principal('service:feed'), { surface: 'http', tokenId: 'tok-feed' });
        const before = (await me.audit({ limit: 10_000 })).length;
        await expectError(
          reader.remember({ body: 'A service may only read', scope: 'shared' }),
          'permission',
        );
        await expectError(reader.audit(), 'permission');
        await expectError(reader.reindex(), 'permission');
        const records = await me.audit({ principal: 'service:feed' });
        assert.deepEqual(
          records.map((r) => [r.operation, r.outcome, r.failureClass, r.tokenId]),
          [
            ['reindex', 'error', 'permission', 'tok-feed'],
            ['audit', 'error', 'permission', 'tok-feed'],
            ['remember', 'error', 'permission', 'tok-feed'],
          ],
        );
        // Three refusals plus the operator's two audit reads before this one.
        assert.equal((await me.audit({ limit: 10_000 })).length - before, 3 + 2);
      }));

    test('I8 audit: a call a surface refused before any session (an unknown principal) is recorded too', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          const me = ledger.as(ledger.operator());
          const error = await expectError(
            (async () => ledger.principal('agent:ghost'))(),
            'permission',
            'resolving a principal the policy does not know',
          );
          await ledger.recordSurfaceCall({
            context: { surface: 'mcp', client: 'ghost/1.0' },
            operation: 'remember',
            args: { body: 'The ghost remembers this', scope: 'shared' },
            error,
            durationMs: 1,
          });
          const [record] = await me.audit({ operation: 'remember' });
          assert.ok(record);
          assert.deepEqual(
            [record.principal, record.surface, record.client, record.outcome, record.failureClass],
            ['service:anonymous', 'mcp', 'ghost/1.0', 'error', 'permission'],
          );
          assert.ok(!JSON.stringify(record).includes('ghost remembers'), 'no body in the record');
        },
        { policy: buildPolicy({ principals: {} }) },
      ));

    test('I8 audit: records never hold a body, a subject or a secret, even of refused calls', async (t) =>
      withHome(factory, async ({ ledger, home, capabilities }) => {
        const me = ledger.as(ledger.operator());
        const body = uniqueWord('body');
        const subject = `person:${uniqueWord('subj')}@example.com`;
        const reason = uniqueWord('why');
        const secret = fakeToken();
        const a = await me.remember({
          body: `Salary of the CFO is ${body}`,
          scope: 'shared',
          subjects: [subject],
        });
        await me.remember({
          body: `Second note with ${body}`,
          scope: 'shared',
          key: 'cfo.salary',
          value: { note: body },
        });
        await me.search({ query: body, subject });
        await me.retract({ id: a.id, reason: `retracted because ${reason}` });
        await expectError(me.remember({ body: `the token is ${secret}`, scope: 'shared' }), 'invalid_input');
        await expectError(me.remember({ body: `bad scope ${body}`, scope: 'nowhere' }), 'invalid_input');
        await me.erase({ subject });

        const records = JSON.stringify(await me.audit({ limit: 10_000 }));
        for (const needle of [body, subject, reason, secret, 'CFO']) {
          assert.ok(!records.includes(needle), `audit read-back holds ${needle}`);
        }
        assert.ok(records.includes('"operation":"remember"'), 'control: the records are there');
        assert.ok(records.includes('"operation":"erase"'));

        if (!capabilities.files) {
          t.skip('the backend keeps no audit files under home to search');
          return;
        }
        const auditFiles = allFiles(home).filter((f) => f.startsWith(join(home, 'audit.db')));
        assert.ok(auditFiles.length > 0, 'audit files exist');
        for (const needle of [body, subject, reason, secret]) {
          assert.deepEqual(
            filesContaining(home, needle).filter((f) => auditFiles.includes(f)),
            [],
            `audit bytes hold ${needle}`,
          );
        }
        for (const operation of ['remember', 'retract', 'erase']) {
          const holders = filesContaining(home, operation).filter((f) => auditFiles.includes(f));
          assert.ok(holders.length > 0, `control: the operation name ${operation} is in the audit bytes`);
        }
      }));

    test('I8 audit readers: a human admin or the auditor role reads the audit; an agent’s or a service’s admin is refused, and audited', () =>
      withHome(factory, async ({ ledger }) => {
        const as = (kind: 'human' | 'agent' | 'service', id: string, roles: Role[], grants: string[] = []) =>
          ledger.as(principal(kind, id, { roles, grants }), { surface: 'library', tokenId: `tok-${id}` });
        const refused = [
          as('agent', 'root-bot', ['reader', 'writer', 'reviewer', 'admin'], ['*:rw']),
          as('service', 'root-svc', ['admin'], ['*:rw']),
          as('human', 'rhea', ['reader', 'writer', 'reviewer'], ['*:rw']),
        ];
        const allowed = [
          as('human', 'ada', ['admin'], ['*:rw']),
          as('agent', 'audit-bot', ['auditor']),
          as('service', 'audit-svc', ['auditor']),
          as('human', 'aud', ['auditor']),
        ];
        await allowed[0]!.remember({ body: 'An audited write', scope: 'shared' });
        for (const s of refused) {
          const e = await expectError(s.audit(), 'permission', `${s.principal.id} audit`);
          assert.match(
            e.message,
            s.principal.kind === 'human' ? /auditor role/ : /human admin or the auditor role/,
          );
          await expectError(s.auditFailures(), 'permission', `${s.principal.id} audit failures`);
        }
        for (const s of allowed) {
          const records = await s.audit({ limit: 10_000 });
          assert.ok(
            records.some((r) => r.operation === 'remember' && r.outcome === 'ok'),
            s.principal.id,
          );
          assert.ok(Array.isArray(await s.auditFailures()));
        }
        const denials = (await allowed[1]!.audit({ operation: 'audit', outcome: 'error', limit: 100 })).map(
          (r) => [r.principal, r.failureClass, r.tokenId],
        );
        for (const s of refused) {
          const label = `${s.principal.kind}:${s.principal.id}`;
          assert.deepEqual(
            denials.filter(([p]) => p === label),
            [[label, 'permission', `tok-${s.principal.id}`]],
            `the refusal of ${label} is recorded`,
          );
        }
      }));

    test('I8 audit readers: the auditor role reads no memory by itself; given reader and a grant, it reads those', () =>
      withHome(factory, async ({ ledger }) => {
        const op = ledger.as(ledger.operator());
        const word = uniqueWord('aud');
        const m = await op.remember({ body: `Ledger entry ${word}`, scope: 'shared' });
        const auditor = ledger.as(principal('agent', 'audit-bot', { roles: ['auditor'], grants: [] }));
        const broad = ledger.as(principal('service', 'wide-audit', { roles: ['auditor'], grants: ['*:rw'] }));
        for (const s of [auditor, broad]) {
          await expectError(s.search({ query: word }), 'permission', 'search');
          await expectError(s.get(m.id), 'permission', 'get');
          await expectError(s.history(m.id), 'permission', 'history');
          await expectError(s.list(), 'permission', 'list');
          await expectError(s.context({ task: word }), 'permission', 'context');
          await expectError(s.reviewList(), 'permission', 'review list');
          await expectError(
            s.remember({ body: 'an auditor writes', scope: 'shared' }),
            'permission',
            'write',
          );
          await expectError(s.stats(), 'permission', 'stats');
          const lines: string[] = [];
          await expectError(
            (async () => {
              for await (const line of s.export()) lines.push(line);
            })(),
            'permission',
            'export',
          );
          assert.deepEqual(lines, []);
          // Control: the audit itself it reads, and it holds the operator's write.
          assert.ok((await s.audit({ limit: 10_000 })).some((r) => r.targets.includes(m.id)));
        }
        const reading = ledger.as(
          principal('service', 'audit-reader', { roles: ['auditor', 'reader'], grants: ['shared:r'] }),
        );
        assert.equal((await reading.get(m.id)).id, m.id, 'control: with reader and a grant it reads shared');
      }));

    test('I8 audit: a writer killed between its commit and its audit write leaves no committed write unaudited', (t) =>
      withHome(factory, async ({ ledger, home, capabilities }) => {
        if (!capabilities.processes) {
          t.skip('other processes cannot open this backend by home yet');
          return;
        }
        const doomed = startWriter(home, 'doomed', 40, { at: 25, action: 'kill' });
        const exit = await doomed.exited;
        assert.equal(exit.signal, 'SIGKILL', `killed at its 25th audit write: ${exit.stderr}`);
        assert.equal(doomed.ids.length, 24, 'the 25th write was never acknowledged');
        const committed = await memoryIds(ledger, 'agent:doomed');
        assert.equal(committed.length, 25, 'the 25th write committed before the process died');
        const lost = committed.find((id) => !doomed.ids.includes(id))!;

        // Reopening the home moves what the dead process left in the outbox.
        const records = await reopened(home, (l) => rememberRecords(l, 'agent:doomed'));
        assert.deepEqual(
          records.flatMap((r) => r.targets).sort(),
          committed,
          'one record per committed write',
        );
        const recovered = records.filter(isRecovered);
        assert.deepEqual(
          recovered.map((r) => [r.targets, r.outcome, r.changes]),
          [[[lost], 'ok', [{ id: lost, from: null, to: 'active' }]]],
          'only the write whose record never reached the audit store is marked recovered',
        );
        assert.equal(recovered[0]!.sessionId, 'writer-doomed', 'the recovered record keeps its context');

        // Many reopen cycles, in fresh connections here and in other processes: still one record per write.
        ledger.close();
        for (let i = 0; i < 4; i++) {
          assert.equal((await reopened(home, (l) => rememberRecords(l, 'agent:doomed'))).length, 25);
          const opener = startWriter(home, `opener${i}`, 0);
          assert.equal((await opener.exited).code, 0);
        }
        const final = await reopened(home, (l) => rememberRecords(l, 'agent:doomed'));
        assert.equal(new Set(final.map((r) => r.id)).size, 25, 'no record doubled');
        assert.deepEqual(final.flatMap((r) => r.targets).sort(), committed);
      }));

    test('I8 audit: a writer killed just after its audit write, its outbox row not yet cleared, is not audited twice', (t) =>
      withHome(factory, async ({ ledger, home, capabilities }) => {
        if (!capabilities.processes) {
          t.skip('other processes cannot open this backend by home yet');
          return;
        }
        const late = startWriter(home, 'late', 40, { at: 25, action: 'kill-after' });
        const exit = await late.exited;
        assert.equal(exit.signal, 'SIGKILL', exit.stderr);
        assert.equal(late.ids.length, 24);
        const committed = await memoryIds(ledger, 'agent:late');
        assert.equal(committed.length, 25);
        for (let i = 0; i < 3; i++) {
          const records = await reopened(home, (l) => rememberRecords(l, 'agent:late'));
          assert.deepEqual(records.flatMap((r) => r.targets).sort(), committed, 'one record per write');
          assert.deepEqual(records.filter(isRecovered), [], 'the record written before the kill stands');
        }
      }));

    test('I8 audit: a normal run has exactly one record per call, none recovered, however often the home reopens', (t) =>
      withHome(factory, async ({ ledger, home, capabilities }) => {
        if (!capabilities.processes) {
          t.skip('other processes cannot open this backend by home yet');
          return;
        }
        const steady = startWriter(home, 'steady', 30);
        assert.equal((await steady.exited).code, 0);
        ledger.close();
        for (let i = 0; i < 5; i++) {
          const opener = startWriter(home, `opener${i}`, 0);
          assert.equal((await opener.exited).code, 0);
        }
        const records = await reopened(home, (l) => rememberRecords(l, 'agent:steady'));
        assert.equal(records.length, 30);
        assert.deepEqual(records.flatMap((r) => r.targets).sort(), [...steady.ids].sort());
        assert.deepEqual(
          records.filter(isRecovered),
          [],
          'nothing was recovered: every record came from its call',
        );
      }));

    test('I8 audit: opening a home leaves a live writer its own record, which then lands once, not as recovered', (t) =>
      withHome(factory, async ({ ledger, home, capabilities }) => {
        if (!capabilities.processes) {
          t.skip('other processes cannot open this backend by home yet');
          return;
        }
        const gate = mkdtempSync(join(tmpdir(), 'memledger-go-'));
        const goFile = join(gate, 'go');
        const slow = startWriter(home, 'slow', 10, { at: 5, action: 'pause', goFile });
        try {
          await slow.said('paused');
          assert.equal(slow.ids.length, 4);
          const committed = await memoryIds(ledger, 'agent:slow');
          assert.equal(
            committed.length,
            5,
            'the fifth write committed; its writer is alive, about to audit it',
          );
          // Another opener of the home while the writer lives: the fifth record is the writer's to write.
          const meanwhile = await reopened(home, (l) => rememberRecords(l, 'agent:slow'));
          assert.deepEqual(meanwhile.flatMap((r) => r.targets).sort(), [...slow.ids].sort());
          writeFileSync(goFile, '');
          assert.equal((await slow.exited).code, 0);
          const records = await reopened(home, (l) => rememberRecords(l, 'agent:slow'));
          assert.equal(records.length, 10);
          assert.deepEqual(records.flatMap((r) => r.targets).sort(), [...slow.ids].sort());
          assert.deepEqual(records.filter(isRecovered), [], 'the live writer wrote its own record');
        } finally {
          slow.kill('SIGKILL'); // a failed assertion must not leave the writer waiting for its go file
          await slow.exited;
          rmSync(gate, { recursive: true, force: true });
        }
      }));
  });
}

/** Every memory of a scope, all states, oldest id first. */
async function memoryIds(ledger: Ledger, scope: string): Promise<string[]> {
  const all = await ledger.as(ledger.operator()).list({ scopes: [scope], limit: 200 });
  return all.map((m) => m.id).sort();
}

/** `remember` records of a principal, read through a ledger opened again on the home, then closed. */
async function rememberRecords(ledger: Ledger, principal: string): Promise<AuditRecord[]> {
  return ledger.as(ledger.operator()).audit({ principal, operation: 'remember', limit: 1000 });
}

/** Opens the store again (another `openLedger`, as a process with the `processes` capability may), runs `fn`, closes. */
async function reopened<T>(home: string, fn: (ledger: Ledger) => Promise<T>): Promise<T> {
  const ledger = openLedger({ store: home });
  try {
    return await fn(ledger);
  } finally {
    ledger.close();
  }
}

const isRecovered = (r: AuditRecord): boolean =>
  (r.argsPreview as { recovered?: unknown } | null)?.recovered === true;
