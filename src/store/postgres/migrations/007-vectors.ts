/**
 * Migration 7 of the Postgres store (part `store`): vectors for semantic search, as SQLite's migration 14. A
 * stock PostgreSQL 15 has no pgvector, so vectors are int8 components in a bytea, scanned in process for the
 * caller's scopes only. Triggers queue a memory in its own transaction and delete its vectors and queue row in
 * the erasure's (I9). Both tables carry the tenant, with forced row-level security and grants like 001's.
 */
import type { PgMigration } from '../database.ts';

const TABLES = `
create table memledger.memory_vectors (
  tenant     text not null default current_setting('memledger.tenant', true),
  memory_id  text not null,
  model      text not null,
  dims       integer not null,
  norm       double precision not null,
  vec        bytea not null,
  primary key (tenant, memory_id, model)
);
create table memledger.embed_queue (
  tenant     text not null default current_setting('memledger.tenant', true),
  seq        bigint generated always as identity,
  memory_id  text not null,
  primary key (tenant, memory_id)
);
create index embed_queue_order on memledger.embed_queue (tenant, seq);

create function memledger.memories_embed_queue() returns trigger language plpgsql as $$
begin
  if new.state <> 'erased' then
    insert into memledger.embed_queue (tenant, memory_id) values (new.tenant, new.id) on conflict do nothing;
  end if;
  return null;
end $$;
create trigger memories_embed_queue after insert on memledger.memories
  for each row execute function memledger.memories_embed_queue();

create function memledger.memories_erase_vectors() returns trigger language plpgsql as $$
begin
  delete from memledger.memory_vectors where tenant = new.tenant and memory_id = new.id;
  delete from memledger.embed_queue where tenant = new.tenant and memory_id = new.id;
  return null;
end $$;
create trigger memories_erase_vectors after update of state on memledger.memories
  for each row when (new.state = 'erased' and old.state <> 'erased')
  execute function memledger.memories_erase_vectors();
`;

export const STORE_MIGRATION_7: PgMigration = {
  version: 7,
  name: 'memory vectors',
  async up(tx) {
    await tx.unsafe(TABLES);
    for (const t of ['memledger.memory_vectors', 'memledger.embed_queue']) {
      await tx.unsafe(`alter table ${t} enable row level security; alter table ${t} force row level security;
        create policy tenant_rows on ${t}
          using (tenant = current_setting('memledger.tenant', true))
          with check (tenant = current_setting('memledger.tenant', true));
        grant select, insert, update, delete on ${t} to memledger_app;`);
    }
  },
};
