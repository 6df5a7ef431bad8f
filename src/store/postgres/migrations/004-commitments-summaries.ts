/**
 * Migration 4 of the Postgres store (part `store`): commitments' lifecycle and summary chains, as SQLite's
 * migration 11 (which says why status is lifecycle columns plus events): each table with a `tenant` column,
 * forced row-level security bound to `memledger.tenant`, and grants to `memledger_app` without delete (I1).
 */
import type { PgMigration } from '../database.ts';

const TABLES = ['commitments', 'summary_chains', 'summaries', 'summary_covers'] as const;
const TENANT = `tenant text not null default current_setting('memledger.tenant', true)`;

const SCHEMA = `
create table memledger.commitments (
  ${TENANT},
  memory_id    text not null,
  scope        text not null,
  owner        text not null,
  status       text not null check (status in ('open','doing','done','cancelled')),
  due_at       text,
  remind_at    text,
  scheduled    boolean not null default false,
  semantic     boolean not null default false,
  created_at   text not null,
  status_at    text not null,
  status_by    text not null,
  completed_at text,
  primary key (tenant, memory_id)
);
create index commitments_scope_status on memledger.commitments (tenant, scope, status, due_at);
create index commitments_due on memledger.commitments (tenant, due_at)
  where due_at is not null and status in ('open','doing');
create index commitments_remind on memledger.commitments (tenant, remind_at)
  where remind_at is not null and status in ('open','doing');

create table memledger.summary_chains (
  ${TENANT},
  name             text not null,
  scope            text not null,
  session_id       text,
  subject          text,
  owner            text,
  created_by       text not null,
  created_at       text not null,
  source_erased_at text,
  primary key (tenant, name)
);
create index summary_chains_subject on memledger.summary_chains (tenant, subject) where subject is not null;

create table memledger.summaries (
  ${TENANT},
  memory_id  text not null,
  chain      text not null,
  previous   text,
  after      text,
  cutoff     text not null,
  created_at text not null,
  stale_at   text,
  primary key (tenant, memory_id)
);
create unique index summaries_one_next on memledger.summaries (tenant, previous)
  where previous is not null and stale_at is null;
create unique index summaries_one_first on memledger.summaries (tenant, chain)
  where previous is null and stale_at is null;
create unique index summaries_cutoff on memledger.summaries (tenant, chain, cutoff) where stale_at is null;

create table memledger.summary_covers (
  ${TENANT},
  memory_id  text not null,
  summary_id text not null,
  primary key (tenant, memory_id, summary_id)
);
create index summary_covers_summary on memledger.summary_covers (tenant, summary_id);

create or replace function memledger.plans_no_delete() returns trigger language plpgsql as $$
begin raise exception 'I1 append-only: % rows cannot be deleted', tg_table_name; end $$;
create trigger commitments_no_delete before delete on memledger.commitments
  for each row execute function memledger.plans_no_delete();
create trigger summaries_no_delete before delete on memledger.summaries
  for each row execute function memledger.plans_no_delete();
`;

export const STORE_MIGRATION_4: PgMigration = {
  version: 4,
  name: 'commitments and summary chains',
  async up(tx) {
    await tx.unsafe(SCHEMA);
    for (const table of TABLES) {
      const t = `memledger.${table}`;
      await tx.unsafe(`alter table ${t} enable row level security; alter table ${t} force row level security;
        create policy tenant_rows on ${t}
          using (tenant = current_setting('memledger.tenant', true))
          with check (tenant = current_setting('memledger.tenant', true));
        grant select, insert, update on ${t} to memledger_app;`);
    }
  },
};
