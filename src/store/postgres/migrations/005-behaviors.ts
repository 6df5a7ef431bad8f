/**
 * Migration 5 of the Postgres store (part `store`): behaviors, as SQLite's migration 12 (definitions by version,
 * runs, links of finished runs, fired windows), each table with a `tenant` column, forced row-level security
 * bound to `memledger.tenant` and grants to `memledger_app`. Every unique rule starts with the tenant; the one
 * on fired windows is what makes a schedule fire once across replicas.
 */
import type { PgMigration, TxSql } from '../database.ts';

const TENANT = `tenant text not null default current_setting('memledger.tenant', true)`;

const TABLES = `
create table memledger.behavior_versions (
  ${TENANT},
  name text not null, version integer not null, definition text not null,
  created_by text not null, created_at text not null,
  primary key (tenant, name, version)
);
create table memledger.behaviors (
  ${TENANT},
  name text not null, version integer not null, disabled_at text,
  primary key (tenant, name)
);
create table memledger.behavior_runs (
  ${TENANT},
  id text not null, behavior text not null, version integer not null,
  state text not null check (state in ('leased', 'finished', 'failed')),
  shown text not null, nonce text not null, lease_until text not null,
  depth integer not null, chain text not null, outputs text not null default '[]',
  started_by text not null, started_at text not null, ended_at text, failure text,
  primary key (tenant, id)
);
create index behavior_runs_leased on memledger.behavior_runs (tenant, behavior, state, lease_until);
create index behavior_runs_started on memledger.behavior_runs (tenant, behavior, started_at);
create table memledger.behavior_run_events (
  ${TENANT},
  behavior text not null, item_id text not null, run_id text not null,
  primary key (tenant, behavior, item_id)
);
create index behavior_run_events_run on memledger.behavior_run_events (tenant, run_id);
create table memledger.behavior_fires (
  ${TENANT},
  id text not null, behavior text not null, trigger text not null, window_key text not null,
  at text not null, memory_id text, fired_at text not null,
  primary key (tenant, id),
  unique (tenant, behavior, trigger, window_key)
);
create index events_at on memledger.events (tenant, at);
`;

const BEHAVIOR_TABLES = [
  'behavior_versions',
  'behaviors',
  'behavior_runs',
  'behavior_run_events',
  'behavior_fires',
] as const;

export const STORE_MIGRATION_5: PgMigration = {
  version: 5,
  name: 'behaviors, runs, links, fired windows',
  async up(tx: TxSql): Promise<void> {
    await tx.unsafe(TABLES);
    for (const table of BEHAVIOR_TABLES) {
      const t = `memledger.${table}`;
      await tx.unsafe(`alter table ${t} enable row level security; alter table ${t} force row level security;
        create policy tenant_rows on ${t}
          using (tenant = current_setting('memledger.tenant', true))
          with check (tenant = current_setting('memledger.tenant', true));
        grant select, insert, update on ${t} to memledger_app;`);
    }
  },
};
