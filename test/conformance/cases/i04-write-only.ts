/**
 * I4 scope for write-only grants (`shared:w`): a write tells its caller nothing about rows it may not read — no
 * existing copy's id, no reviewer's verdict, no key's owner or holder, no race's winner — beside a reading
 * caller (`shared:rw`) that is told each of them, as the control.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Ledger, type LedgerSession, principalLabel } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { buildPolicy, expectError, linesOf, principal, uniqueWord } from '../helpers.ts';

/** agent:w may write shared and project:x but read neither; agent:rw may do both. Agents are held in shared. */
const blindPolicy = (ownership: 'hold' | 'deny' = 'hold') =>
  buildPolicy({
    principals: {
      'agent:w': { roles: ['reader', 'writer'], grants: ['agent:w:rw', 'shared:w', 'project:x:w'] },
      'agent:rw': { roles: ['reader', 'writer'], grants: ['agent:rw:rw', 'shared:rw', 'project:x:rw'] },
    },
    rules: [{ name: 'agents-shared-held', when: { principal: 'agent:*', scope: 'shared' }, action: 'hold' }],
    ownership,
    default: 'allow',
  });

interface Blind {
  ledger: Ledger;
  op: LedgerSession;
  /** The operator's label: the owner of every key it writes. */
  opLabel: string;
  w: LedgerSession;
  rw: LedgerSession;
}

function blindTest(
  factory: ConformanceFactory,
  name: string,
  fn: (b: Blind) => Promise<void>,
  ownership: 'hold' | 'deny' = 'hold',
): void {
  test(`I4 scope: ${name}`, () =>
    withHome(
      factory,
      async ({ ledger }) => {
        const op = ledger.as(ledger.operator());
        await fn({
          ledger,
          op,
          opLabel: principalLabel(op.principal),
          w: ledger.as(ledger.principal('agent:w'), { surface: 'library', sessionId: 'w' }),
          rw: ledger.as(ledger.principal('agent:rw'), { surface: 'library', sessionId: 'rw' }),
        });
      },
      { policy: blindPolicy(ownership) },
    ));
}

const DATE = /\d{4}-\d\d-\d\d/;

export function writeOnlyCases(factory: ConformanceFactory): void {
  blindTest(
    factory,
    'a write-only grant repeating a live claim gets a fresh write, never the existing id; a reader corroborates',
    async ({ op, w, rw }) => {
      await expectError(w.list({ scopes: ['shared'] }), 'permission', 'agent:w may not read shared');
      const body = `Wombats dig burrows ${uniqueWord()}`;
      const existing = await op.remember({ body, scope: 'shared' });
      assert.equal(existing.state, 'active');

      const blind = await w.remember({ body, scope: 'shared' });
      assert.notEqual(blind.id, existing.id);
      assert.equal(blind.corroborated, undefined);
      assert.equal(blind.state, 'held', 'gated like any fresh write of agent:w in shared');
      assert.ok(!JSON.stringify(blind).includes(existing.id), JSON.stringify(blind));
      // The same shape as a write of a claim nobody made before.
      const fresh = await w.remember({ body: `Never said before ${uniqueWord()}`, scope: 'shared' });
      assert.deepEqual(Object.keys(blind).sort(), Object.keys(fresh).sort());
      assert.equal(blind.reason, fresh.reason);

      // Control: a caller that reads shared corroborates the existing memory and is told its id.
      const seen = await rw.remember({ body, scope: 'shared' });
      assert.equal(seen.corroborated, true);
      assert.equal(seen.id, existing.id);
      assert.match(seen.reason ?? '', new RegExp(existing.id));
      const history = await op.history(existing.id);
      assert.equal(history.corroboration.count, 1, 'only the reader corroborated');
      assert.equal((await op.get(blind.id)).state, 'held', 'the blind write is a real row a reviewer sees');

      // Where agents land (project:x), the blind repeat lands as a memory of its own.
      const den = `Wombat den by the creek ${uniqueWord()}`;
      const landed = await op.remember({ body: den, scope: 'project:x' });
      const again = await w.remember({ body: den, scope: 'project:x' });
      assert.deepEqual(
        { ...again, id: 'ID' },
        { id: 'ID', state: 'active', supersedes: null },
        'a fresh active write, no corroboration',
      );
      assert.notEqual(again.id, landed.id);
      assert.equal((await rw.remember({ body: den, scope: 'project:x' })).id, landed.id, 'control');
    },
  );

  blindTest(
    factory,
    'a write-only grant is told its claim was rejected, never by whom, when or why; a reader is told all three',
    async ({ op, opLabel, w, rw }) => {
      const body = `Wombats hibernate ${uniqueWord()}`;
      const why = uniqueWord('why');
      const claim = await op.remember({ body, scope: 'shared' });
      await op.reject({ id: claim.id, reason: `they do not, see ${why}`, expect: 'active' });

      const blind = await w.remember({ body, scope: 'shared' });
      assert.equal(blind.state, 'rejected');
      assert.equal(blind.reason, 'this claim was rejected in this scope before; it is withheld');
      const text = JSON.stringify(blind);
      for (const leak of [why, opLabel, claim.id]) assert.ok(!text.includes(leak), `${leak} in ${text}`);
      assert.doesNotMatch(text, DATE);

      const seen = await rw.remember({ body, scope: 'shared' });
      assert.equal(seen.state, 'rejected');
      assert.ok(seen.reason?.includes(why) && seen.reason.includes(opLabel), seen.reason);
      assert.match(seen.reason ?? '', DATE);
    },
  );

  for (const ownership of ['hold', 'deny'] as const) {
    blindTest(
      factory,
      `a write-only grant's ${ownership === 'hold' ? 'held' : 'denied'} write to an owned key names no owner or holder, nor does its policy check`,
      async ({ op, opLabel, w, rw }) => {
        const holder = await op.remember({
          body: 'There are 12 wombats',
          scope: 'shared',
          key: 'wombat.count',
        });
        const write = (s: LedgerSession, n: number) =>
          s.remember({ body: `There are ${n} wombats`, scope: 'shared', key: 'wombat.count' });
        const leaks = [opLabel, holder.id];
        if (ownership === 'hold') {
          const blind = await write(w, 13);
          assert.equal(blind.state, 'held');
          assert.equal(blind.supersedes, null);
          assert.match(blind.reason ?? '', /^held for review \(ownership\)/);
          for (const leak of leaks) assert.ok(!JSON.stringify(blind).includes(leak), blind.reason);
          const seen = await write(rw, 14);
          assert.equal(seen.supersedes, holder.id, 'control: a reader is told what it would replace');
          assert.ok(seen.reason?.includes(opLabel), seen.reason);
        } else {
          const blind = await expectError(write(w, 13), 'permission');
          for (const leak of leaks) assert.ok(!blind.message.includes(leak), blind.message);
          assert.match(blind.message, /ownership/);
          const seen = await expectError(write(rw, 14), 'permission');
          assert.ok(seen.message.includes(opLabel), `control: ${seen.message}`);
        }

        const check = { scope: 'shared', kind: 'fact', key: 'wombat.count' } as const;
        const blindCheck = await w.policyCheck(check);
        assert.equal(blindCheck.action, ownership, 'the check says what the write does');
        assert.equal(blindCheck.rule, 'ownership');
        assert.equal(blindCheck.owner, null);
        for (const leak of leaks) assert.ok(!JSON.stringify(blindCheck).includes(leak), leak);
        const seenCheck = await rw.policyCheck(check);
        assert.equal(seenCheck.owner, opLabel, 'control: a reader is told whose key it is');
        assert.ok(JSON.stringify(seenCheck).includes(holder.id));
      },
      ownership,
    );
  }

  blindTest(
    factory,
    'a reviewer with a write-only grant cannot claim or release a key; one who reads the scope can',
    async ({ ledger, op }) => {
      await op.remember({ body: 'The burrow is 3 m deep', scope: 'shared', key: 'burrow.depth' });
      const blind = ledger.as(
        principal('human', 'wren', { roles: ['writer', 'reviewer'], grants: ['shared:w'] }),
      );
      const other = await expectError(blind.claim({ scope: 'shared', key: 'burrow.depth' }), 'permission');
      const none = await expectError(blind.claim({ scope: 'shared', key: 'no.such.key' }), 'permission');
      assert.equal(
        other.message,
        none.message,
        'refused by grants alone, whether the key has a value or not',
      );
      await expectError(blind.release({ scope: 'shared', key: 'burrow.depth' }), 'permission');
      const reader = ledger.as(
        principal('human', 'rue', { roles: ['reader', 'writer', 'reviewer'], grants: ['shared:rw'] }),
      );
      assert.equal((await reader.claim({ scope: 'shared', key: 'burrow.depth' })).owner, 'human:rue');
    },
  );

  blindTest(
    factory,
    'an import by a write-only grant names no key holder; a reader writing the same key is told what it supersedes',
    async ({ w, rw }) => {
      const holder = await rw.remember({ body: 'The den is small', scope: 'project:x', key: 'den.size' });
      assert.equal(holder.state, 'active');
      const line = (body: string) => JSON.stringify({ body, scope: 'project:x', key: 'den.size' });
      const blind = await w.import(linesOf([line('The den is large')]));
      assert.deepEqual(blind.failed, []);
      assert.equal(blind.imported + blind.held, 1);
      assert.ok(!JSON.stringify(blind).includes(holder.id), JSON.stringify(blind));
      const seen = await rw.remember({ body: 'The den is huge', scope: 'project:x', key: 'den.size' });
      assert.match(seen.supersedes ?? '', /^mem_/, 'control: a reader is told what it supersedes');
    },
  );
}
