/**
 * Migration 12 of the Postgres store (part `store`), the twin of SQLite's migration 19: each queued memory
 * carries its scope, so a search counts and catches up on the queue of its own scopes only (before, a reader of
 * one scope saw the tenant's whole queue in `vectors.pending` and waited for other scopes' memories to be
 * embedded: I4). A memory's scope never changes (I1); it is copied once, on queueing. The drain still takes the
 * tenant's queue oldest first (`embed_queue_order`).
 */
import type { PgMigration } from '../database.ts';

export const STORE_MIGRATION_12: PgMigration = {
  version: 12,
  name: 'queue by scope',
  async up(tx) {
    await tx.unsafe(`
alter table memledger.embed_queue add column if not exists scope text;
create index if not exists embed_queue_scope on memledger.embed_queue (tenant, scope, seq);

create or replace function memledger.memories_embed_queue() returns trigger language plpgsql as $$
begin
  if new.state <> 'erased'
     and exists (select 1 from memledger.embed_models e where e.tenant = new.tenant) then
    insert into memledger.embed_queue (tenant, memory_id, scope) values (new.tenant, new.id, new.scope)
      on conflict do nothing;
  end if;
  return null;
end $$;
`);
    // Every tenant's queued rows at once: forced row-level security binds the migrator too, so it is lifted for
    // these tables inside this transaction only (as migration 9).
    const tables = ['memledger.embed_queue', 'memledger.memories'];
    for (const t of tables) await tx.unsafe(`alter table ${t} no force row level security`);
    await tx.unsafe(`
update memledger.embed_queue q set scope = m.scope from memledger.memories m
  where m.tenant = q.tenant and m.id = q.memory_id and q.scope is null;
`);
    for (const t of tables) await tx.unsafe(`alter table ${t} force row level security`);
  },
};
