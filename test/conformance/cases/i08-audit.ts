/** I8 everything is audited: one record per call, allowed or refused, with no memory content in it. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { allFiles, buildPolicy, expectError, filesContaining, uniqueWord } from '../helpers.ts';

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
          ledger.recordSurfaceCall({
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
  });
}
