/**
 * Migration 3 of the Postgres store (part `store`): agent workspace snapshots, as SQLite's migration 10, with a
 * `tenant` column, forced row-level security and grants to `memledger_app`. Every replica reads a workspace from
 * here, so the version column is what two replicas writing one workspace serialise on. The bytes are already
 * compressed: `storage external` keeps Postgres from compressing them again.
 */
import type { PgMigration, TxSql } from '../database.ts';

export const WORKSPACE_TABLES = ['workspace_snapshots', 'workspace_quarantine'] as const;

const TABLES = `
create table memledger.workspace_snapshots (
  tenant           text not null default current_setting('memledger.tenant', true),
  agent            text not null,
  version          integer not null check (version > 0),
  bytes            bytea not null,
  raw_size         bigint not null,
  compressed_size  bigint not null,
  sha256           text not null,
  table_count      integer not null,
  updated_at       text not null,
  updated_by       text not null,
  primary key (tenant, agent)
);
alter table memledger.workspace_snapshots alter column bytes set storage external;
create table memledger.workspace_quarantine (
  tenant   text not null default current_setting('memledger.tenant', true),
  agent    text not null,
  version  integer not null,
  reason   text not null,
  bytes    bytea not null,
  at       text not null,
  primary key (tenant, agent)
);
alter table memledger.workspace_quarantine alter column bytes set storage external;
`;

export const STORE_MIGRATION_3: PgMigration = {
  version: 3,
  name: 'workspace snapshots',
  async up(tx: TxSql): Promise<void> {
    await tx.unsafe(TABLES);
    for (const table of WORKSPACE_TABLES) {
      const t = `memledger.${table}`;
      await tx.unsafe(`alter table ${t} enable row level security; alter table ${t} force row level security;
        create policy tenant_rows on ${t}
          using (tenant = current_setting('memledger.tenant', true))
          with check (tenant = current_setting('memledger.tenant', true));
        grant select, insert, update, delete on ${t} to memledger_app;`);
    }
  },
};
