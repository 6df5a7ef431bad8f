/**
 * Migration 6 of the Postgres store (part `store`): notifications, as SQLite's migration 13 (targets, the
 * delivery queue and log, Slack signatures seen), each table with a `tenant` column, row-level security bound to
 * `memledger.tenant` and grants to `memledger_app`. A delivery row holds ids, never memory content (I9).
 */
import type { PgMigration } from '../database.ts';

const TABLES = ['notify_targets', 'notify_deliveries', 'slack_signatures'] as const;

export const STORE_MIGRATION_6: PgMigration = {
  version: 6,
  name: 'notifications',
  async up(tx) {
    await tx.unsafe(`
create table memledger.notify_targets (
  tenant        text not null default current_setting('memledger.tenant', true),
  id            text not null,
  kind          text not null check (kind in ('webhook', 'slack')),
  url           text not null,
  events        text[] not null,
  secret_env    text not null,
  users         text not null default '{}',
  include_body  boolean not null default false,
  created_at    text not null,
  created_by    text not null,
  primary key (tenant, id)
);
create table memledger.notify_deliveries (
  tenant           text not null default current_setting('memledger.tenant', true),
  seq              bigint generated always as identity primary key,
  id               text not null,
  target_id        text not null,
  event            text not null,
  status           text not null check (status in ('pending', 'delivered', 'failed')),
  attempts         integer not null default 0,
  next_at          text not null,
  lease_holder     text,
  lease_until      text,
  last_attempt_at  text,
  last_status      integer,
  last_error       text,
  created_at       text not null,
  delivered_at     text,
  unique (tenant, id)
);
create index notify_deliveries_due on memledger.notify_deliveries (tenant, next_at) where status = 'pending';
create index notify_deliveries_status on memledger.notify_deliveries (tenant, status, seq);
create index notify_deliveries_target on memledger.notify_deliveries (tenant, target_id) where status = 'pending';
create table memledger.slack_signatures (
  tenant     text not null default current_setting('memledger.tenant', true),
  signature  text not null,
  seen_at    text not null,
  primary key (tenant, signature)
);
create index slack_signatures_seen on memledger.slack_signatures (tenant, seen_at);
`);
    for (const table of TABLES) {
      const t = `memledger.${table}`;
      await tx.unsafe(`alter table ${t} enable row level security; alter table ${t} force row level security;
        create policy tenant_rows on ${t}
          using (tenant = current_setting('memledger.tenant', true))
          with check (tenant = current_setting('memledger.tenant', true));
        grant select, insert, update, delete on ${t} to memledger_app;`);
    }
  },
};
