/**
 * I16 a behavior's sources are read-only SQL over views the ledger builds: a source joining events and memories
 * returns the window's rows, sees no memory outside the behavior's read scopes or the caller's grants (I4), and
 * a write in a source is refused with `permission` while the run's window still arrives.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { principal } from '../helpers.ts';
import { definition } from './i17-outstanding.ts';

const admin = principal('human', 'boss');
/** Reads shared and project:y only: project:x is in the behavior's reads but not in this caller's grants. */
const runner = principal('agent', 'runner', {
  roles: ['reader', 'writer'],
  grants: ['shared:rw', 'project:y:rw', 'agent:runner:rw'],
});

export function behaviorSourceCases(factory: ConformanceFactory): void {
  describe('I16 behavior sources', () => {
    test('I16 behavior sources: a join of events and memories returns the window; memories outside the reads or the grants are absent; a write is refused', async () => {
      await withHome(factory, async ({ ledger }) => {
        const boss = ledger.as(admin, { surface: 'library' });
        await boss.behaviors.add(
          definition('sourced', {
            reads: { scopes: ['shared', 'project:x'] },
            sources: [
              {
                name: 'decided',
                sql: `SELECT m.id, m.scope, m.body FROM events e JOIN memories m ON m.id = e.memory_id
                      WHERE e.in_window = 1 ORDER BY m.body`,
              },
              { name: 'visible', sql: 'SELECT scope, id FROM memories' },
              { name: 'wipe', sql: 'DELETE FROM memories' },
            ],
          }),
        );
        const a = await boss.remember({ scope: 'shared', kind: 'decision', body: 'We ship on Fridays.' });
        const b = await boss.remember({ scope: 'shared', kind: 'fact', body: 'The office has a piano.' });
        // Outside the behavior's reads (the runner may read it), and inside them but outside the runner's grants.
        await boss.remember({ scope: 'project:y', kind: 'fact', body: 'Project y uses tabs.' });
        await boss.remember({ scope: 'project:x', kind: 'fact', body: 'Project x is secret.' });

        const w = await ledger.as(runner, { surface: 'library' }).behaviors.next('sourced');
        assert.ok(w !== null, 'the window arrives although one source failed');
        const decided = w.sources.decided;
        assert.ok(decided !== undefined && 'rows' in decided);
        assert.deepEqual(decided.columns, ['id', 'scope', 'body']);
        assert.deepEqual(decided.rows, [[a.id, 'shared', 'We ship on Fridays.']]);
        const visible = w.sources.visible;
        assert.ok(visible !== undefined && 'rows' in visible);
        assert.deepEqual(
          visible.rows.map((r) => r[1]).sort(),
          [a.id, b.id].sort(),
          'the readable control memories are in the views',
        );
        assert.deepEqual(
          [...new Set(visible.rows.map((r) => r[0]))],
          ['shared'],
          'project:y (not in the reads) and project:x (not granted) are absent',
        );
        const all = JSON.stringify(w.sources);
        assert.ok(!all.includes('Project y') && !all.includes('Project x'));
        const wipe = w.sources.wipe;
        assert.ok(wipe !== undefined && 'error' in wipe);
        assert.equal(wipe.error.class, 'permission');
        assert.equal((await boss.get(a.id)).state, 'active', 'nothing was written');
      });
    });
  });
}
