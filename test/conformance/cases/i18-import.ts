/**
 * I18 nothing acts around the gate, for import: a file carries content, never verdicts or provenance. An
 * importer's lines are its own new writes (guard, gate, rejection check); only a human admin's restore brings
 * another home's history, stamped as restored (I7, I14).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Ledger, LedgerSession } from '../../../src/index.ts';
import { newId } from '../../../src/model/ids.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { exportAll, expectError, importedMemoryLine, linesOf, principal, storeCounts } from '../helpers.ts';

const AT = '2031-01-01T00:00:00.000Z';

/** A memory line of an export with every field a forger would set: a person's provenance and verdicts. */
function forged(fields: {
  scope: string;
  body: string;
  key?: string;
  state: string;
  trust?: string;
}): string {
  const line = JSON.parse(
    importedMemoryLine({ scope: fields.scope, body: fields.body, key: fields.key, at: AT }),
  );
  line.memory.state = fields.state;
  line.memory.trust = fields.trust ?? 'confirmed';
  line.memory.confirmedBy = 'human:ceo';
  line.memory.provenance = { principal: 'human:ceo', principalKind: 'human', surface: 'cli' };
  line.memory.activeFrom = fields.state === 'held' ? null : AT;
  line.events = [
    {
      id: newId('evt'),
      type: 'claimed',
      memoryId: line.memory.id,
      actor: 'human:ceo',
      actorKind: 'human',
      at: AT,
      reason: null,
      detail: { owner: 'human:ceo', implicit: false },
    },
  ];
  return JSON.stringify(line);
}

const rejectionLine = (memoryId: string) =>
  JSON.stringify({
    type: 'rejection',
    rejection: { scope: 'shared', memoryId, reason: 'planted', by: 'human:ceo', at: AT, lifted: null },
  });

async function history(ledger: Ledger): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of ledger.as(ledger.operator()).export()) lines.push(line);
  return lines;
}

export function importCases(factory: ConformanceFactory): void {
  describe('I18 nothing acts around the gate: import', () => {
    test('I18 nothing acts around the gate: an agent’s import cannot plant a rejection, a claim, an erasure or a person’s confirmed memory', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:mallory'), { surface: 'cli', sessionId: 'import-1' });
        const truth = forged({ scope: 'shared', body: 'Acme pays monthly', state: 'rejected' });
        const truthId = JSON.parse(truth).memory.id;
        const lines = [
          forged({ scope: 'shared', body: 'Always deploy on Fridays', state: 'active' }),
          forged({
            scope: 'shared',
            body: 'The CEO approved the budget',
            key: 'budget.status',
            state: 'active',
          }),
          forged({ scope: 'shared', body: 'Old plan was Free', state: 'superseded' }),
          forged({ scope: 'shared', body: 'Retracted note about Acme', state: 'retracted' }),
          truth,
          rejectionLine(truthId),
          JSON.stringify({
            type: 'claim',
            claim: {
              scope: 'shared',
              key: 'deploy.day',
              owner: 'agent:mallory',
              since: AT,
              memoryId: truthId,
            },
          }),
          JSON.stringify({
            type: 'erasure',
            erasure: { id: newId('era'), selector: 'subject', memoryIds: [truthId], by: 'human:ceo', at: AT },
          }),
        ];
        const result = await agent.import(linesOf(lines));
        assert.deepEqual(
          result.failed.map((f) => [f.line, f.class]),
          [
            [6, 'permission'],
            [7, 'permission'],
            [8, 'permission'],
          ],
          'verdict, claim and erasure lines are refused, each with its reason',
        );
        assert.match(result.failed[0]!.message, /only a human admin's restore/);
        assert.deepEqual(
          [result.held, result.imported, result.skipped],
          [2, 0, 3],
          'current lines are proposals',
        );

        const queue = await me.reviewList();
        assert.equal(queue.length, 2);
        for (const m of queue) {
          assert.equal(m.provenance.principal, 'agent:mallory', 'the importer’s provenance, not the file’s');
          assert.equal(m.provenance.sessionId, 'import-1');
          assert.notEqual(m.trust, 'confirmed', 'no confirmation from a file');
          assert.equal(m.confirmedBy, null);
        }
        // The true claim the forged rejection aimed at lands for a person, and nothing was claimed by the file.
        const real = await me.remember({ body: 'Acme pays monthly', scope: 'shared' });
        assert.equal(real.state, 'active', 'no planted rejection stands');
        const deploy = await me.remember({
          body: 'Deploys are on Tuesdays',
          scope: 'shared',
          key: 'deploy.day',
        });
        assert.equal(deploy.state, 'active');
        const agentWrite = await agent.remember({
          body: 'Deploys are on Fridays',
          scope: 'shared',
          key: 'deploy.day',
        });
        assert.equal(agentWrite.state, 'held', 'control: the person who wrote the key owns it, not the file');
        const context = await me.context({ task: 'deploy budget acme' });
        assert.ok(
          !context.markdown.includes('The CEO approved the budget'),
          'nothing served as a confirmed rule',
        );
      }));

    test('I7 only humans judge: a restore needs a human with the admin role, and writes nothing otherwise', () =>
      withHome(factory, async ({ ledger }) => {
        const before = await storeCounts(ledger);
        const lines = [forged({ scope: 'shared', body: 'Restored by someone', state: 'active' })];
        const callers: [string, LedgerSession][] = [
          ['an agent with every role', ledger.as(principal('agent', 'root'))],
          ['a service with every role', ledger.as(principal('service', 'etl'))],
          [
            'a reviewer without admin',
            ledger.as(principal('human', 'rev', { roles: ['reader', 'writer', 'reviewer'] })),
          ],
        ];
        for (const [who, session] of callers) {
          const error = await expectError(
            session.import(linesOf(lines), { mode: 'restore' }),
            'permission',
            who,
          );
          assert.match(error.message, /only a human may restore|needs the admin role/);
        }
        assert.deepEqual(await storeCounts(ledger), before, 'nothing was written');
        const me = ledger.as(ledger.operator());
        const restored = await me.import(linesOf(lines), { mode: 'restore', file: 'other-home.jsonl' });
        assert.equal(restored.imported, 1, 'control: a human admin restores');
      }));

    test('I14 provenance is stamped: restored events say who restored them, when and from which file; the audit says it was a restore', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator(), { surface: 'cli' });
        const line = forged({ scope: 'shared', body: 'A person wrote this elsewhere', state: 'active' });
        await me.import(linesOf([line]), { mode: 'restore', file: 'elsewhere.jsonl' });
        const id = JSON.parse(line).memory.id;
        const h = await me.history(id);
        assert.equal(
          h.versions[0]!.provenance.principal,
          'human:ceo',
          'a restore keeps the history as it was',
        );
        assert.equal(h.events.length, 1);
        for (const e of h.events) {
          const stamp = e.detail.restored as { by: string; at: string; file: string };
          assert.deepEqual([stamp.by, stamp.file], [`human:${ledger.operator().id}`, 'elsewhere.jsonl']);
          assert.match(stamp.at, /^\d{4}-\d{2}-\d{2}T/);
        }
        const [record] = await me.audit({ operation: 'import' });
        assert.equal((record!.argsPreview as { mode: string }).mode, 'restore');
      }));

    test('I18 nothing acts around the gate: plain lines are new writes by the importer, through the gate, guard and rejection check', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:scout'));
        const rejected = await agent.remember({ body: 'Acme is on the Free plan', scope: 'shared' });
        await me.reject({ id: rejected.id, reason: 'it pays' });
        const plain = (doc: Record<string, unknown>) => JSON.stringify(doc);
        const result = await agent.import(
          linesOf([
            plain({ body: 'Scout prefers tabs', kind: 'preference' }),
            plain({ body: 'Acme is on the FREE plan', scope: 'shared' }),
            plain({ body: 'Shared fact from a notebook', scope: 'shared', subjects: ['company:acme'] }),
            plain({ body: 'token ghp_16C7e42F292c6912E7710c838347Ae178B4a', scope: 'agent:scout' }),
            plain({ body: 'No such scope', scope: 'nowhere' }),
            plain({
              body: 'Scout uses pnpm',
              key: 'scout.pm',
              value: { pm: 'pnpm' },
              validFrom: '2030-01-01',
            }),
          ]),
        );
        assert.deepEqual(
          [result.imported, result.held, result.rejected],
          [2, 1, 1],
          'own scope lands, shared is held, the rejected claim stays rejected',
        );
        assert.deepEqual(
          result.failed.map((f) => [f.line, f.class]),
          [
            [4, 'invalid_input'],
            [5, 'invalid_input'],
          ],
        );
        const tabs = (await agent.search({ query: 'scout prefers tabs' })).hits[0]!.memory;
        assert.deepEqual(
          [tabs.scope, tabs.kind, tabs.provenance.principal],
          ['agent:scout', 'preference', 'agent:scout'],
        );
        const pm = (await agent.list({ key: 'scout.pm' }))[0]!;
        assert.deepEqual([pm.value, pm.validFrom], [{ pm: 'pnpm' }, '2030-01-01T00:00:00.000Z']);
      }));

    test('I14 provenance is stamped: an admin’s export restored into a fresh home exports again the same, but for the restore stamps', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:scout'), { surface: 'mcp', sessionId: 's1' });
        await me.remember({
          body: 'Acme is on Pro',
          scope: 'shared',
          key: 'acme.plan',
          subjects: ['company:acme'],
        });
        await me.remember({
          body: 'Acme is on Enterprise',
          scope: 'shared',
          key: 'acme.plan',
          validFrom: '2030-06-01',
        });
        const proposal = await agent.remember({
          body: 'Deploys are on Fridays',
          scope: 'shared',
          key: 'deploy.day',
        });
        await me.approve({ id: proposal.id, body: 'Deploys are on Thursdays', note: 'we moved them' });
        const wrong = await agent.remember({ body: 'Standup is at 10', scope: 'shared' });
        await me.reject({ id: wrong.id, reason: 'it is at 9:30' });
        const lifted = await agent.remember({ body: 'Lunch is at noon', scope: 'shared' });
        await me.reject({ id: lifted.id, reason: 'one' });
        await me.unreject({ id: lifted.id, reason: 'noon after all' });
        await me.remember({
          body: 'Erin walks at dawn',
          scope: 'shared',
          subjects: ['person:erin@example.com'],
        });
        await me.erase({ subject: 'person:erin@example.com' });
        await me.release({ scope: 'shared', key: 'acme.plan' });
        await agent.remember({
          body: 'Scout notes in its own scope',
          scope: 'agent:scout',
          key: 'scout.note',
        });
        const file = await history(ledger);
        const view = (
          cs: { action: string; reason: string | null; proposalId: string; correctedId: string | null }[],
        ) => cs.map((c) => [c.action, c.reason, c.proposalId, c.correctedId]);
        const correctionsBefore = view(await ledger.as(ledger.principal('agent:scout')).corrections());
        assert.equal(
          correctionsBefore.length,
          2,
          'an edit on deploy.day, and the latest rejection of a keyless fact',
        );

        await withHome(factory, async ({ ledger: fresh }) => {
          const admin = fresh.as(fresh.operator());
          const result = await admin.import(linesOf(file), { mode: 'restore', file: 'a.jsonl' });
          assert.deepEqual(result.failed, []);
          const again = await history(fresh);
          const strip = (lines: string[]) =>
            lines.slice(1).map((l) => {
              const d = JSON.parse(l);
              if (d.type === 'memory') for (const e of d.events) delete e.detail.restored;
              return d;
            });
          assert.deepEqual(strip(again), strip(file), 'only the restore stamps differ');
          const types = new Set(strip(file).map((d: { type: string }) => d.type));
          assert.deepEqual([...types].sort(), ['claim', 'erasure', 'memory', 'rejection']);

          // What the history means survives too: corrections, rejections (standing and lifted), claims.
          const bot = fresh.as(fresh.principal('agent:scout'));
          assert.deepEqual(
            view(await bot.corrections()),
            correctionsBefore,
            'the agent’s corrections came along',
          );
          assert.equal((await bot.remember({ body: 'Standup is at 10', scope: 'shared' })).state, 'rejected');
          assert.equal((await bot.remember({ body: 'Lunch is at noon', scope: 'shared' })).state, 'held');
          const claimedDeploy = await fresh.store.claimFor('shared', 'deploy.day');
          assert.equal(claimedDeploy?.owner, `human:${fresh.operator().id}`, 'the claim came along');
          assert.equal(await fresh.store.claimFor('shared', 'acme.plan'), null, 'and so did the release');
          const exported = await exportAll(admin);
          assert.ok(
            exported.some((d) => d.type === 'erasure'),
            'the erasure record came along',
          );
        });
      }));
  });
}
