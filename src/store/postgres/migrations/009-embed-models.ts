/**
 * Migration 9 of the Postgres store (part `store`), the twin of SQLite's migration 16: the embedding queue only
 * where an embedder works. Each tenant records the models whose vectors it keeps (`embed_models`, filled by the
 * first drain or backfill of a model), and migration 7's insert trigger queues a memory only once its tenant has
 * one; the first drain of a model queues every memory without its vector, so nothing is missed. Erasure's trigger
 * is unchanged (I9). A tenant that never stored a vector drops its queue rows. The table carries the tenant,
 * with forced row-level security and grants like 007's.
 */
import type { PgMigration } from '../database.ts';

export const STORE_MIGRATION_9: PgMigration = {
  version: 9,
  name: 'embed models',
  async up(tx) {
    await tx.unsafe(`
create table memledger.embed_models (
  tenant  text not null default current_setting('memledger.tenant', true),
  model   text not null,
  primary key (tenant, model)
);
alter table memledger.embed_models enable row level security;
alter table memledger.embed_models force row level security;
create policy tenant_rows on memledger.embed_models
  using (tenant = current_setting('memledger.tenant', true))
  with check (tenant = current_setting('memledger.tenant', true));
grant select, insert, update, delete on memledger.embed_models to memledger_app;

create or replace function memledger.memories_embed_queue() returns trigger language plpgsql as $$
begin
  if new.state <> 'erased'
     and exists (select 1 from memledger.embed_models e where e.tenant = new.tenant) then
    insert into memledger.embed_queue (tenant, memory_id) values (new.tenant, new.id) on conflict do nothing;
  end if;
  return null;
end $$;
`);
    // Every tenant's rows at once: the migrator owns these tables, and forced row-level security binds owners
    // too, so it is lifted for this statement's tables inside this transaction only (DDL is transactional; the
    // tables are locked until it commits).
    const tables = ['memledger.memory_vectors', 'memledger.embed_queue', 'memledger.embed_models'];
    for (const t of tables) await tx.unsafe(`alter table ${t} no force row level security`);
    await tx.unsafe(`
insert into memledger.embed_models (tenant, model)
  select distinct tenant, model from memledger.memory_vectors on conflict do nothing;
delete from memledger.embed_queue q
  where not exists (select 1 from memledger.embed_models e where e.tenant = q.tenant);
`);
    for (const t of tables) await tx.unsafe(`alter table ${t} force row level security`);
  },
};
