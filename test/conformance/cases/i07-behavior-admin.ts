/** I7 only humans judge, for behaviors: only a human with the admin role defines or disables a behavior. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError, principal } from '../helpers.ts';
import { definition } from './i17-outstanding.ts';

export function behaviorAdminCases(factory: ConformanceFactory): void {
  describe('I7 behaviors are defined by admins', () => {
    test('I7 only humans judge: an agent (even an admin agent) or a non-admin human cannot define or disable a behavior; a human admin can', () =>
      withHome(factory, async ({ ledger }) => {
        const agentAdmin = ledger.as(principal('agent', 'root', { roles: ['admin'] }));
        const reviewer = ledger.as(principal('human', 'rev', { roles: ['reader', 'writer', 'reviewer'] }));
        const admin = ledger.as(principal('human', 'boss', { roles: ['admin'] }));
        await expectError(agentAdmin.behaviors.add(definition('sneaky')), 'permission');
        await expectError(reviewer.behaviors.add(definition('sneaky')), 'permission');
        const added = await admin.behaviors.add(definition('digest'));
        assert.equal(added.version, 1);
        await expectError(agentAdmin.behaviors.disable('digest'), 'permission');
        await expectError(reviewer.behaviors.disable('digest'), 'permission');
        assert.deepEqual(
          (await reviewer.behaviors.list()).map((b) => [b.name, b.disabledAt]),
          [['digest', null]],
        );
        // An edit is a new version; the same definition again is not.
        assert.equal((await admin.behaviors.add(definition('digest', { prompt: 'Other.' }))).version, 2);
        assert.equal((await admin.behaviors.add(definition('digest', { prompt: 'Other.' }))).changed, false);
        await admin.behaviors.disable('digest');
        await expectError(admin.behaviors.next('digest'), 'conflict');
        const audit = await admin.audit({ operation: 'behaviors.add' });
        assert.equal(audit.filter((r) => r.outcome !== 'ok').length, 2);
      }));
  });
}
