/**
 * Migration 1 of the Postgres store (part `store`): the log, its projections, the search documents and every
 * table SQLite's migrations 1–9 end at, in one step, each with a `tenant` column, row-level security bound to
 * `memledger.tenant`, and grants to `memledger_app`. I1 and I5 are plpgsql triggers mirroring SQLite's.
 */
import type { PgMigration, TxSql } from '../database.ts';

/** Tables holding a tenant's rows; each gets RLS (enabled and forced) and the tenant policy. */
export const TENANT_TABLES = [
  'memories',
  'memory_subjects',
  'events',
  'rejections',
  'erasures',
  'claims',
  'corrections',
  'context_shown',
  'feeds',
  'feed_items',
  'home_keys',
  'scope_stats',
  'search_docs',
  'audit_outbox',
  'mcp_sessions',
] as const;

const TABLES = `
create schema if not exists memledger;

create table memledger.memories (
  tenant        text not null default current_setting('memledger.tenant', true),
  seq           bigint generated always as identity primary key,
  id            text not null,
  scope         text not null,
  kind          text not null,
  key           text,
  body          text not null,
  value         text,
  subjects      text not null default '[]',
  valid_from    text,
  valid_to      text,
  confidence    double precision not null,
  supersedes    text,
  edit_of       text,
  fingerprint   text not null,
  provenance    text not null,
  recorded_at   text not null,
  state         text not null check (state in ('held','active','superseded','retracted','rejected','erased')),
  trust         text not null check (trust in ('confirmed','accepted','unverified')),
  superseded_by text,
  active_from   text,
  active_until  text,
  confirmed_by  text,
  rule          text,
  erased_at     text,
  valid_start   text,
  valid_end     text,
  unique (tenant, id)
);
-- I2: at most one landed successor per memory (held, rejected and never-landed proposals do not count).
create unique index memories_one_successor on memledger.memories (tenant, supersedes)
  where supersedes is not null and state not in ('held', 'rejected') and active_from is not null;
-- One current holder per (scope, key), keys compared case-insensitively as SQLite's migration 5 does.
create unique index memories_key_holder on memledger.memories (tenant, scope, lower(key))
  where state = 'active' and key is not null;
create index memories_active_scope on memledger.memories (tenant, scope, seq) where state = 'active';
create index memories_held on memledger.memories (tenant, scope, seq) where state = 'held';
create index memories_edit_of on memledger.memories (tenant, edit_of) where edit_of is not null;
create index memories_supersedes on memledger.memories (tenant, supersedes) where supersedes is not null;
create index memories_live_fingerprint on memledger.memories (tenant, substr(fingerprint, 1, 12))
  where state in ('held', 'active');
create index memories_active_kind on memledger.memories (tenant, kind, seq) where state = 'active';

create table memledger.memory_subjects (
  tenant     text not null default current_setting('memledger.tenant', true),
  subject    text not null,
  memory_seq bigint not null,
  primary key (tenant, subject, memory_seq)
);
create index memory_subjects_seq on memledger.memory_subjects (memory_seq);

create table memledger.events (
  tenant     text not null default current_setting('memledger.tenant', true),
  seq        bigint generated always as identity primary key,
  id         text not null,
  type       text not null,
  memory_id  text not null,
  actor      text not null,
  actor_kind text not null,
  at         text not null,
  reason     text,
  detail     text not null default '{}',
  unique (tenant, id)
);
create index events_memory on memledger.events (tenant, memory_id, seq);

create table memledger.rejections (
  tenant      text not null default current_setting('memledger.tenant', true),
  seq         bigint generated always as identity primary key,
  scope       text not null,
  fingerprint text not null,
  memory_id   text not null,
  reason      text not null,
  by          text not null,
  at          text not null,
  lifted_at   text,
  lifted_by   text,
  lift_reason text
);
create unique index rejections_standing on memledger.rejections (tenant, scope, fingerprint) where lifted_at is null;
create index rejections_memory on memledger.rejections (tenant, memory_id);

create table memledger.erasures (
  tenant     text not null default current_setting('memledger.tenant', true),
  id         text not null,
  selector   text not null default 'subject',
  memory_ids text not null,
  by         text not null,
  at         text not null,
  primary key (tenant, id)
);

create table memledger.claims (
  tenant    text not null default current_setting('memledger.tenant', true),
  scope     text not null,
  key       text not null,
  owner     text not null,
  since     text not null,
  memory_id text not null,
  primary key (tenant, scope, key)
);
create index claims_memory on memledger.claims (tenant, memory_id);

create table memledger.corrections (
  tenant       text not null default current_setting('memledger.tenant', true),
  seq          bigint generated always as identity primary key,
  id           text not null,
  scope        text not null,
  slot         text not null,
  key          text,
  kind         text not null,
  agent        text not null,
  action       text not null check (action in ('edited', 'rejected')),
  proposal_id  text not null,
  corrected_id text,
  by           text not null,
  at           text not null,
  unique (tenant, id)
);
create index corrections_latest on memledger.corrections (tenant, agent, scope, slot, seq);
create index corrections_proposal on memledger.corrections (tenant, proposal_id);
create index corrections_corrected on memledger.corrections (tenant, corrected_id) where corrected_id is not null;

create table memledger.context_shown (
  tenant     text not null default current_setting('memledger.tenant', true),
  principal  text not null,
  session_id text not null,
  memory_id  text not null,
  at         text not null,
  primary key (tenant, principal, session_id, memory_id)
);

create table memledger.feeds (
  tenant       text not null default current_setting('memledger.tenant', true),
  name         text not null,
  connector    text not null,
  config       text not null default '{}',
  checkpoint   text not null default '{}',
  stats        text not null default '{}',
  created_at   text not null,
  last_sync_at text,
  last_error   text,
  primary key (tenant, name)
);

create table memledger.feed_items (
  tenant    text not null default current_setting('memledger.tenant', true),
  connector text not null,
  scope     text not null,
  item_id   text not null,
  memory_id text not null,
  at        text not null,
  primary key (tenant, connector, scope, item_id)
);
create index feed_items_memory on memledger.feed_items (tenant, memory_id);

create table memledger.home_keys (
  tenant     text not null default current_setting('memledger.tenant', true),
  id         text not null,
  key        bytea not null,
  created_at text not null,
  primary key (tenant, id)
);

-- Documents and tokens per (scope, index), as SQLite's migration 6 keeps them, so search weighs words by what
-- the caller may read (I4).
create table memledger.scope_stats (
  tenant text not null default current_setting('memledger.tenant', true),
  scope  text not null,
  idx    text not null check (idx in ('current', 'history')),
  docs   bigint not null,
  tokens bigint not null,
  primary key (tenant, scope, idx)
);

-- The search index: one document per memory in the current or the history index, holding the same porter
-- tokens SQLite's FTS5 indexes (body, then meta), so matching and bm25 agree with the embedded backend.
create table memledger.search_docs (
  tenant text not null default current_setting('memledger.tenant', true),
  idx    text not null check (idx in ('current', 'history')),
  seq    bigint not null,
  scope  text not null,
  tsv    tsvector not null,
  primary key (tenant, idx, seq)
);
create index search_docs_tsv on memledger.search_docs using gin (tsv);
create index search_docs_scope on memledger.search_docs (tenant, idx, scope, seq);

create table memledger.audit_outbox (
  tenant text not null default current_setting('memledger.tenant', true),
  id     text not null,
  pid    integer not null,
  record text not null,
  primary key (tenant, id)
);

create table memledger.mcp_sessions (
  tenant         text not null default current_setting('memledger.tenant', true),
  id             text not null,
  token_id       text not null,
  client_name    text,
  client_version text,
  created_at     text not null,
  seen_at        text not null,
  primary key (tenant, id)
);
create index mcp_sessions_token on memledger.mcp_sessions (tenant, token_id, seen_at);
create index mcp_sessions_seen on memledger.mcp_sessions (tenant, seen_at);
`;

const TRIGGERS = `
create function memledger.memories_no_delete() returns trigger language plpgsql as $$
begin raise exception 'I1 append-only: memories cannot be deleted' using errcode = 'P0001'; end $$;
create trigger memories_no_delete before delete on memledger.memories
  for each row execute function memledger.memories_no_delete();
create trigger memories_no_truncate before truncate on memledger.memories
  for each statement execute function memledger.memories_no_delete();

-- Content is immutable; erasure is the one change, and only to the blank tombstone form (I1, I9).
create function memledger.memories_guard() returns trigger language plpgsql as $$
begin
  if old.state = 'erased' and new.state <> 'erased' then
    raise exception 'I9 erasure is final';
  end if;
  if new.state = 'erased' and old.state <> 'erased' and not (new.body = '' and new.value is null
      and new.key is null and new.subjects = '[]' and new.fingerprint = '' and new.erased_at is not null) then
    raise exception 'I9 erasure blanks content in the same write';
  end if;
  if (new.tenant, new.seq, new.id, new.scope, new.kind, new.key, new.body, new.value, new.subjects,
      new.valid_from, new.valid_to, new.confidence, new.supersedes, new.edit_of, new.fingerprint,
      new.recorded_at, new.provenance)
     is distinct from
     (old.tenant, old.seq, old.id, old.scope, old.kind, old.key, old.body, old.value, old.subjects,
      old.valid_from, old.valid_to, old.confidence, old.supersedes, old.edit_of, old.fingerprint,
      old.recorded_at, old.provenance)
  then
    if not (old.state <> 'erased' and new.state = 'erased' and new.erased_at is not null
        and new.body = '' and new.value is null and new.key is null and new.subjects = '[]' and new.fingerprint = ''
        and new.tenant = old.tenant and new.id = old.id and new.seq = old.seq and new.scope = old.scope
        and new.kind = old.kind and new.recorded_at = old.recorded_at
        and new.supersedes is not distinct from old.supersedes and new.edit_of is not distinct from old.edit_of) then
      raise exception 'I1 append-only: memory content is immutable';
    end if;
  end if;
  return new;
end $$;
create trigger memories_guard before update on memledger.memories
  for each row execute function memledger.memories_guard();

create function memledger.events_no_delete() returns trigger language plpgsql as $$
begin raise exception 'I1 append-only: events cannot be deleted'; end $$;
create trigger events_no_delete before delete on memledger.events
  for each row execute function memledger.events_no_delete();
create trigger events_no_truncate before truncate on memledger.events
  for each statement execute function memledger.events_no_delete();
create function memledger.events_guard() returns trigger language plpgsql as $$
begin
  if not (new.reason is null and new.tenant = old.tenant and new.id = old.id and new.seq = old.seq
      and new.type = old.type and new.memory_id = old.memory_id and new.actor = old.actor
      and new.actor_kind = old.actor_kind and new.at = old.at and new.detail = old.detail) then
    raise exception 'I1 append-only: events are immutable (erasure may only blank a reason)';
  end if;
  return new;
end $$;
create trigger events_guard before update on memledger.events
  for each row execute function memledger.events_guard();

create function memledger.rejections_no_delete() returns trigger language plpgsql as $$
begin raise exception 'I5 rejection stands: rejections cannot be deleted'; end $$;
create trigger rejections_no_delete before delete on memledger.rejections
  for each row execute function memledger.rejections_no_delete();
create trigger rejections_no_truncate before truncate on memledger.rejections
  for each statement execute function memledger.rejections_no_delete();
-- Changes allowed: a lift, once; erasure blanking the reasons and dropping the identity.
create function memledger.rejections_guard() returns trigger language plpgsql as $$
begin
  if not (new.tenant = old.tenant and new.seq = old.seq and new.scope = old.scope
      and new.memory_id = old.memory_id and new."by" = old."by" and new.at = old.at
      and (new.reason = old.reason or new.reason = '')
      and (new.fingerprint = old.fingerprint or new.fingerprint = 'erased:' || old.seq)
      and (old.lifted_at is null or (new.lifted_at is not distinct from old.lifted_at
        and new.lifted_by is not distinct from old.lifted_by
        and (new.lift_reason is not distinct from old.lift_reason or new.lift_reason = '')))) then
    raise exception 'I5 rejection stands: a rejection changes only by a lift or by erasure';
  end if;
  return new;
end $$;
create trigger rejections_guard before update on memledger.rejections
  for each row execute function memledger.rejections_guard();
`;

/**
 * No planner statistics of content (I9): ANALYZE (autovacuum's too) copies sampled values and most common
 * lexemes into pg_statistic, where erasure cannot reach them. Statistics target 0 keeps these columns, and the
 * expression indexes over them, out of it; the planner uses defaults for them instead.
 */
const NO_CONTENT_STATISTICS = `
alter table memledger.memories alter column body set statistics 0, alter column key set statistics 0,
  alter column value set statistics 0, alter column subjects set statistics 0,
  alter column provenance set statistics 0, alter column fingerprint set statistics 0;
alter index memledger.memories_key_holder alter column 3 set statistics 0;
alter index memledger.memories_live_fingerprint alter column 2 set statistics 0;
alter table memledger.memory_subjects alter column subject set statistics 0;
alter table memledger.events alter column reason set statistics 0, alter column detail set statistics 0;
alter table memledger.rejections alter column reason set statistics 0, alter column lift_reason set statistics 0,
  alter column fingerprint set statistics 0;
alter table memledger.claims alter column key set statistics 0;
alter table memledger.corrections alter column key set statistics 0, alter column slot set statistics 0;
alter table memledger.search_docs alter column tsv set statistics 0;
`;

/**
 * Creates the NOLOGIN roles unless they exist: a DBA grants them to login roles. Roles belong to the cluster, not
 * the database, and the migration lock is per database: two databases migrating at once both see no role, so
 * the one that loses the race takes the other's role instead of failing.
 */
const ROLES = `
do $$ begin
  begin create role memledger_app nologin; exception when duplicate_object or unique_violation then null; end;
  begin create role memledger_auditor nologin; exception when duplicate_object or unique_violation then null; end;
end $$;
`;

const GRANTS = `
grant usage on schema memledger to memledger_app;
grant select on memledger_migrations to memledger_app;
`;

export const STORE_MIGRATION_1: PgMigration = {
  version: 1,
  name: 'log, projections, search documents, tenancy',
  async up(tx: TxSql): Promise<void> {
    await tx.unsafe(ROLES);
    await tx.unsafe(TABLES);
    await tx.unsafe(TRIGGERS);
    await tx.unsafe(NO_CONTENT_STATISTICS);
    await tx.unsafe(GRANTS);
    for (const table of TENANT_TABLES) {
      const t = `memledger.${table}`;
      await tx.unsafe(`alter table ${t} enable row level security; alter table ${t} force row level security;
        create policy tenant_rows on ${t}
          using (tenant = current_setting('memledger.tenant', true))
          with check (tenant = current_setting('memledger.tenant', true));
        grant select, insert, update, delete on ${t} to memledger_app;`);
    }
  },
};
