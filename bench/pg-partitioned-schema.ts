/**
 * The partitioned variant of the Postgres store's schema that bench/pg-partitioned.ts measures: what a forward-only
 * migration after the product's eight would do to make `memledger.memories` and `memledger.search_docs` hash
 * partitions of `tenant`, written here as migration-shaped DDL. The product's migrations are not changed; this
 * runs after them, on a fresh database, while both tables are still empty.
 *
 * Why hash of tenant and not scope: PostgreSQL requires the partition key in every unique index of a partitioned
 * table. Every unique rule of memories already leads with `tenant` except the identity primary key `seq`, so
 * tenant partitioning costs one change, the key `(tenant, seq)`. Scope partitioning would need the scope in
 * `unique (tenant, id)` and in I2's `memories_one_successor (tenant, supersedes)`: an id would be unique only
 * within a scope and I2 enforced only within a scope, which the database would no longer guarantee. And a tenant
 * is the unit nothing reads or writes across, which is what Citus distributes by: the same key, one step on.
 */
import type { Sql } from '../src/store/postgres/database.ts';

/** Partitions per table: a power of two, so a partition can later be split by doubling the modulus. */
export const PARTITIONS = 8;

const partitions = (table: string): string =>
  Array.from(
    { length: PARTITIONS },
    (_, r) =>
      `create table memledger.${table}_p${r} partition of memledger.${table}
         for values with (modulus ${PARTITIONS}, remainder ${r});`,
  ).join('\n');

/**
 * The tables, with their keys and no secondary index (those come after the load, `INDEXES`). The columns are
 * the product's own (`like … including …` of the empty tables migrations 1–8 made), so they cannot drift.
 * PRODUCT CHANGE NEEDED: the primary key `(seq)` becomes `(tenant, seq)`; partitioning refuses `(seq)` alone.
 */
const TABLES = `
create table memledger.memories_partitioned
  (like memledger.memories including defaults including constraints including identity including generated
   including storage,
   primary key (tenant, seq), unique (tenant, id))
  partition by hash (tenant);
create table memledger.search_docs_partitioned
  (like memledger.search_docs including defaults including constraints including storage,
   primary key (tenant, idx, seq))
  partition by hash (tenant);
drop table memledger.memories;
drop table memledger.search_docs;
alter table memledger.memories_partitioned rename to memories;
alter table memledger.search_docs_partitioned rename to search_docs;
${partitions('memories')}
${partitions('search_docs')}
`;

/**
 * The secondary indexes of migrations 1, 8, 10 and 11, unchanged (each leads with `tenant`, or holds it in its
 * lexemes), created on the partitioned parents: PostgreSQL builds one per partition and names each after its
 * partition; statistics target 0 recurses to them.
 */
export const INDEXES = `
create unique index memories_one_successor on memledger.memories (tenant, supersedes)
  where supersedes is not null and state not in ('held', 'rejected') and active_from is not null;
create unique index memories_key_holder on memledger.memories (tenant, scope, key_folded)
  where state = 'active' and key is not null;
create index memories_active_scope on memledger.memories (tenant, scope, seq) where state = 'active';
create index memories_held on memledger.memories (tenant, scope, seq) where state = 'held';
create index memories_edit_of on memledger.memories (tenant, edit_of) where edit_of is not null;
create index memories_supersedes on memledger.memories (tenant, supersedes) where supersedes is not null;
create index memories_live_claim on memledger.memories (tenant, scope, fingerprint)
  where state in ('held', 'active');
create index memories_active_kind on memledger.memories (tenant, kind, seq) where state = 'active';
create index memories_session on memledger.memories (tenant, session_id, seq);
create index search_docs_scope on memledger.search_docs (tenant, idx, scope, seq);
create index memories_active_kind_scope on memledger.memories (tenant, kind, scope, seq) where state = 'active';
create index search_docs_scoped on memledger.search_docs
  using gin ((tsv || array_to_tsvector(array[' ' || tenant || ' ' || scope])));
alter index memledger.search_docs_scoped alter column 1 set statistics 0;
`;

/** The secondary index names of INDEXES, for dropping them before a load. */
export const INDEX_NAMES = [...INDEXES.matchAll(/create (?:unique )?index (\w+)/g)].map((m) => m[1]!);

/**
 * The triggers of migrations 1 and 7, on the partitioned parent over the functions those migrations made (a
 * dropped table takes its triggers, not their functions). Row triggers on a partitioned table are cloned to
 * every partition, present and future; the truncate trigger is statement-level on the parent.
 */
const TRIGGERS = `
create trigger memories_no_delete before delete on memledger.memories
  for each row execute function memledger.memories_no_delete();
create trigger memories_no_truncate before truncate on memledger.memories
  for each statement execute function memledger.memories_no_delete();
create trigger memories_guard before update on memledger.memories
  for each row execute function memledger.memories_guard();
create trigger memories_embed_queue after insert on memledger.memories
  for each row execute function memledger.memories_embed_queue();
create trigger memories_erase_vectors after update of state on memledger.memories
  for each row when (new.state = 'erased' and old.state <> 'erased')
  execute function memledger.memories_erase_vectors();
`;

/**
 * Migration 1's row-level security and grants on the parents only (search_docs' not forced on its owner, as
 * migration 11 leaves it: memledger.search_matches reads it as the owner). Policies apply to queries through the
 * parent; a partition named directly would be read under its own (none), so the application role gets no
 * privilege on any partition, and what it cannot name it cannot read.
 */
const SECURITY = ['memories', 'search_docs']
  .map(
    (t) => `alter table memledger.${t} enable row level security;
  ${t === 'search_docs' ? '' : `alter table memledger.${t} force row level security;`}
  create policy tenant_rows on memledger.${t}
    using (tenant = current_setting('memledger.tenant', true))
    with check (tenant = current_setting('memledger.tenant', true));
  grant select, insert, update, delete on memledger.${t} to memledger_app;`,
  )
  .join('\n');

/** Migrations 1's and 10's statistics target 0 on content columns (I9), set on the parents (it recurses to partitions). */
const NO_CONTENT_STATISTICS = `
alter table memledger.memories alter column body set statistics 0, alter column key set statistics 0,
  alter column value set statistics 0, alter column subjects set statistics 0,
  alter column provenance set statistics 0, alter column fingerprint set statistics 0,
  alter column key_folded set statistics 0, alter column session_id set statistics 0;
alter table memledger.search_docs alter column tsv set statistics 0;
`;

/**
 * Migration 11's `memledger.search_matches` with the tenant named so partitions can be pruned.
 * PRODUCT CHANGE NEEDED on a partitioned schema: the function tests `d.tenant || '' = v_tenant` so that no btree
 * leading with `tenant` looks usable and the planner takes the GIN (migration 11); that expression also hides the
 * partition key, so every partition's GIN was probed (at 100k × 4 tenants, EXPLAIN ANALYZE of the statement: 8
 * partitions scanned, 2.0 ms planning and 0.31 ms execution, against 1 partition, 0.24 ms and 0.11 ms with the
 * plain test added). The plain `d.tenant = v_tenant` beside it prunes at execution (the variable is a parameter
 * of the cached plan) and leaves the GIN the plan. Same arguments, result and grants (`create or replace` keeps
 * the owner and the privileges); written from the function's own definition, so it follows the product's.
 * `BENCH_PG_PRUNING_SEARCH=0` keeps migration 11's.
 */
async function pruningSearch(tx: Sql): Promise<void> {
  const [row] = await tx<{ def: string }[]>`
    select pg_get_functiondef('memledger.search_matches(text[], tsquery, text[], text[], bigint)'::regprocedure) as def`;
  const test = "where d.tenant || '' = v_tenant";
  if (!row!.def.includes(test))
    throw new Error('memledger.search_matches no longer has the tenant test this replaces');
  await tx.unsafe(row!.def.replace(test, "where d.tenant = v_tenant and d.tenant || '' = v_tenant"));
}

/** Replaces the two empty tables with their partitioned form (keys, triggers, security, statistics). */
export async function partitionTables(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx.unsafe(TABLES);
    await tx.unsafe(TRIGGERS);
    await tx.unsafe(SECURITY);
    await tx.unsafe(NO_CONTENT_STATISTICS);
    if (process.env.BENCH_PG_PRUNING_SEARCH !== '0') await pruningSearch(tx as unknown as Sql);
  });
}
