/**
 * The Postgres write path in fewer round trips: a new memory is sent without waiting and COMMIT goes out behind
 * it, the write's lookups go out together, the claim the gate read is the one a human's write claims from, and
 * an import batch's held rows are written before any lookup that starts beside another. Each fast path is
 * checked where it could skip something: a refused insert lands nothing of its call and still names the winner.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Ledger } from '../../src/ledger/ledger.ts';
import { principalLabel } from '../../src/model/principal.ts';
import type { NewMemory } from '../../src/store/port.ts';
import { connect } from '../../src/store/postgres/database.ts';
import type { PostgresStore } from '../../src/store/postgres/store.ts';
import { principal } from '../conformance/helpers.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { openPgLedger, type PgTestDatabase, pgTestDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;
const agent = principal('agent', 'writer', { roles: ['writer'], grants: ['agent:writer:rw'] });

describe('postgres write path', { skip }, () => {
  let db: PgTestDatabase;
  const opened: { close(): Promise<void> }[] = [];
  before(async () => {
    if ('skip' in cluster) return;
    db = await pgTestDatabase(cluster.url);
  });
  after(async () => {
    for (const o of opened) await o.close();
    await db?.drop();
  });
  const open = async (): Promise<{ ledger: Ledger; store: PostgresStore; tenant: string }> => {
    const o = await openPgLedger(db);
    opened.push(o);
    return o;
  };
  /** Rows of a tenant, counted as the superuser (no row-level security in the way). */
  const count = async (tenant: string, table: string, where = 'true', params: string[] = []) => {
    const admin = connect(db.adminUrl, { max: 1 });
    try {
      const [row] = await admin.unsafe(
        `select count(*)::int as n from memledger.${table} where tenant = $1 and ${where}`,
        [tenant, ...params],
      );
      return Number(row?.n);
    } finally {
      await admin.end();
    }
  };

  test('I2 one successor: a second successor sent without waiting lands nothing of its call and names the winner', async () => {
    const { ledger, tenant } = await open();
    const s = ledger.as(ledger.operator(), { surface: 'library' });
    const first = await s.remember({ scope: 'shared', body: 'the launch is in march' });
    const winner = await s.remember({
      scope: 'shared',
      body: 'the launch is in april',
      supersedes: first.id,
    });
    const events = await count(tenant, 'events');
    const memories = await count(tenant, 'memories');
    await assert.rejects(
      s.remember({ scope: 'shared', body: 'the launch is in may', supersedes: first.id }),
      (error: { class?: string; details?: { winner?: string } }) =>
        error.class === 'conflict' && error.details?.winner === winner.id,
    );
    assert.equal(await count(tenant, 'memories'), memories, 'no row of the refused successor');
    assert.equal(await count(tenant, 'events'), events, 'no event of it either');
    assert.equal(
      await count(tenant, 'search_docs', "tsv @@ to_tsquery('simple', 'may')"),
      0,
      'nor a document',
    );
    const hits = await s.search({ query: 'launch', scopes: ['shared'] });
    assert.deepEqual(
      hits.hits.map((h) => h.memory.id),
      [winner.id],
      'control: the winner is the current version',
    );
    const [record] = await s.audit({ operation: 'remember', limit: 1 });
    assert.equal(record?.failureClass, 'conflict', 'the refused call is audited as a conflict');
    const after = await s.remember({ scope: 'shared', body: 'the budget is approved' });
    assert.equal(after.state, 'active', 'control: the next write sent without waiting lands');
  });

  test("I6 gate before write: the lookups sent together still decide: a human's key holds an agent's write, an unowned key lands", async () => {
    const { ledger } = await open();
    const human = ledger.as(ledger.operator(), { surface: 'library' });
    const bot = ledger.as(agent, { surface: 'library' });
    await human.remember({ scope: 'agent:writer', body: 'the plan is pro', key: 'acme.plan' });
    const held = await bot.remember({ scope: 'agent:writer', body: 'the plan is basic', key: 'acme.plan' });
    assert.equal(held.state, 'held', "an agent's write to a human's key is held, even in its own scope");
    assert.match(held.reason ?? '', /ownership/);
    const fresh = await bot.remember({ scope: 'agent:writer', body: 'the region is eu', key: 'acme.region' });
    assert.equal(fresh.state, 'active', 'control: an unowned key in its own scope lands');
  });

  test("a human's keyed write claims its key once, from the claim the gate read", async () => {
    const { ledger, store, tenant } = await open();
    const s = ledger.as(ledger.operator(), { surface: 'library' });
    const one = await s.remember({ scope: 'shared', body: 'the timezone is utc', key: 'user.timezone' });
    const two = await s.remember({ scope: 'shared', body: 'the timezone is cet', key: 'user.timezone' });
    assert.equal(two.supersedes, one.id);
    const claim = await store.claimFor('shared', 'user.timezone');
    assert.equal(claim?.owner, principalLabel(ledger.operator()));
    assert.equal(claim?.memoryId, one.id, 'the claim stays where it was made');
    assert.equal(
      await count(tenant, 'events', "type = 'claimed'"),
      1,
      'one claimed event, not one per write',
    );
  });

  test('lookups started together in an import batch wait for its held rows: the holder and the live copy are seen', async () => {
    const { ledger, store } = await open();
    const s = ledger.as(ledger.operator(), { surface: 'library' });
    const seed = await s.remember({ scope: 'shared', body: 'the office is in lyon', key: 'office.city' });
    const model = (await store.getMemory(seed.id))!;
    const held: NewMemory = {
      ...model,
      id: 'mem_drainrace01',
      key: 'office.country',
      body: 'the office is in france',
      fingerprint: 'fp-drain-race',
    };
    const seen = await store.transaction(async (tx) => {
      await tx.preload?.({ ids: [held.id], scopes: ['shared'] });
      await tx.insertMemory(held);
      const [holder, live, claim, rejection, control] = await Promise.all([
        tx.currentHolder('shared', 'office.country'),
        tx.liveClaims('shared', 'fp-drain-race'),
        tx.claimFor('shared', 'office.country'),
        tx.findRejection('shared', ['fp-drain-race']),
        tx.currentHolder('shared', 'office.city'),
      ]);
      return { holder, live, claim, rejection, control };
    });
    assert.equal(seen.holder?.id, held.id, 'the held row is the key holder');
    assert.deepEqual(
      seen.live.map((m) => m.id),
      [held.id],
      'and the live copy of its claim',
    );
    assert.equal(seen.claim, null);
    assert.equal(seen.rejection, null);
    assert.equal(seen.control?.id, seed.id, 'control: a row written before the batch');
    assert.equal((await store.getMemory(held.id))?.body, 'the office is in france', 'the batch committed');
  });

  test("an import batch's lookup ahead finds the ids the tenant holds (one probe each), and only those", async () => {
    const { ledger, store } = await open();
    const s = ledger.as(ledger.operator(), { surface: 'library' });
    const kept = await s.remember({ scope: 'shared', body: 'the backups run nightly' });
    const [event] = await store.eventsFor([kept.id]);
    const other = await openPgLedger(db);
    opened.push(other);
    const foreign = await other.ledger
      .as(other.ledger.operator(), { surface: 'library' })
      .remember({ scope: 'shared', body: 'another tenant writes this' });
    const seen = await store.transaction(async (tx) => {
      await tx.preload?.({
        ids: [kept.id, 'mem_neverwritten1', foreign.id],
        scopes: ['shared'],
        eventIds: [event!.id, 'evt_neverwritten1'],
      });
      return {
        kept: await tx.getMemory(kept.id),
        absent: await tx.getMemory('mem_neverwritten1'),
        foreign: await tx.getMemory(foreign.id),
        event: await tx.hasEvent(event!.id),
        noEvent: await tx.hasEvent('evt_neverwritten1'),
      };
    });
    assert.equal(seen.kept?.body, 'the backups run nightly', 'a held id is found and read');
    assert.equal(seen.absent, null);
    assert.equal(seen.foreign, null, "another tenant's id is absent here (I19 tenancy)");
    assert.equal(seen.event, true, 'a held event id is found');
    assert.equal(seen.noEvent, false);
  });
});
