/** I14 provenance is stamped: who, which session, run and client come from the call context; history answers why. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RememberInput } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError, storeCounts } from '../helpers.ts';

export function provenanceCases(factory: ConformanceFactory): void {
  describe('I14 provenance is stamped', () => {
    test('I14 provenance: a remember input carrying provenance or a principal is invalid_input and writes nothing', () =>
      withHome(factory, async ({ ledger }) => {
        const agent = ledger.as(ledger.principal('agent:bot'), { surface: 'mcp', sessionId: 's' });
        const counts = await storeCounts(ledger);
        const forged = [
          { provenance: { principal: 'human:ceo', principalKind: 'human', surface: 'cli' } },
          { principal: 'human:ceo' },
          { sessionId: 'someone-else' },
          { source: { connector: 'gmail', principal: 'human:ceo' } },
        ];
        for (const extra of forged) {
          const input = { body: 'Forged origin', scope: 'agent:bot', ...extra } as unknown as RememberInput;
          await expectError(agent.remember(input), 'invalid_input', JSON.stringify(extra));
        }
        assert.deepEqual(await storeCounts(ledger), counts);
        const control = await agent.remember({
          body: 'Honest origin',
          scope: 'agent:bot',
          source: { connector: 'gmail', id: 'msg-1' },
        });
        assert.equal(control.state, 'active');
      }));

    test('I14 provenance: history answers who, when, which session, run and client for every version', () =>
      withHome(factory, async ({ ledger }) => {
        const agent = ledger.as(ledger.principal('agent:scribe'), {
          surface: 'mcp',
          sessionId: 'sess-a',
          runId: 'run-a',
          client: 'claude-code/2.1.0',
        });
        const me = ledger.as(ledger.operator(), {
          surface: 'cli',
          sessionId: 'sess-b',
          client: 'memledger/0.1.0',
        });
        const first = await agent.remember({
          body: 'The ocelot eats at noon',
          scope: 'agent:scribe',
          key: 'ocelot.meal',
          source: { connector: 'notes', id: 'n-7' },
        });
        const second = await me.remember({
          body: 'The ocelot eats at one',
          scope: 'agent:scribe',
          key: 'ocelot.meal',
        });

        const h = await me.history(second.id);
        const byId = new Map(h.versions.map((v) => [v.id, v]));
        const a = byId.get(first.id)!;
        assert.deepEqual(
          {
            principal: a.provenance.principal,
            principalKind: a.provenance.principalKind,
            surface: a.provenance.surface,
            sessionId: a.provenance.sessionId,
            runId: a.provenance.runId,
            client: a.provenance.client,
            source: a.provenance.source,
          },
          {
            principal: 'agent:scribe',
            principalKind: 'agent',
            surface: 'mcp',
            sessionId: 'sess-a',
            runId: 'run-a',
            client: 'claude-code/2.1.0',
            source: { connector: 'notes', id: 'n-7' },
          },
        );
        const b = byId.get(second.id)!;
        assert.equal(b.provenance.principal, `human:${ledger.operator().id}`);
        assert.equal(b.provenance.surface, 'cli');
        assert.equal(b.provenance.sessionId, 'sess-b');
        assert.equal(b.provenance.client, 'memledger/0.1.0');
        for (const v of h.versions) {
          assert.match(v.recordedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
          const appended = h.events.find((e) => e.memoryId === v.id && e.type === 'appended');
          assert.ok(appended, `an appended event for ${v.id}`);
          assert.equal(appended.actor, v.provenance.principal);
        }
        const superseded = h.events.find((e) => e.memoryId === first.id && e.type === 'superseded');
        assert.equal(superseded?.actor, `human:${ledger.operator().id}`, 'the event names who superseded it');
      }));
  });
}
