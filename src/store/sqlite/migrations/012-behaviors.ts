/**
 * Migration 12 of memory.db: behaviors. Definitions keep every version (a run pins the one it ran); runs keep
 * their lease, what their window showed and their outcome; links say which events and fired windows a finished
 * run consumed, at most one finished run per (behavior, item), so outstanding work is a subtraction (I17); fired
 * windows are unique per (behavior, trigger, window), so a schedule fires once whatever the number of processes.
 * No row holds memory content: names, ids, times and the definition an admin wrote.
 */
import type { Migration } from '../database.ts';

export const MIGRATION_12: Migration = {
  version: 12,
  name: 'behaviors, runs, links, fired windows',
  sql: `
CREATE TABLE IF NOT EXISTS behavior_versions (
  name        TEXT NOT NULL,
  version     INTEGER NOT NULL,
  definition  TEXT NOT NULL,
  created_by  TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  PRIMARY KEY (name, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS behaviors (
  name        TEXT PRIMARY KEY,
  version     INTEGER NOT NULL,
  disabled_at TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS behavior_runs (
  id          TEXT PRIMARY KEY,
  behavior    TEXT NOT NULL,
  version     INTEGER NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('leased', 'finished', 'failed')),
  shown       TEXT NOT NULL,
  nonce       TEXT NOT NULL,
  lease_until TEXT NOT NULL,
  depth       INTEGER NOT NULL,
  chain       TEXT NOT NULL,
  outputs     TEXT NOT NULL DEFAULT '[]',
  started_by  TEXT NOT NULL,
  started_at  TEXT NOT NULL,
  ended_at    TEXT,
  failure     TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS behavior_runs_leased ON behavior_runs(behavior, state, lease_until);
CREATE INDEX IF NOT EXISTS behavior_runs_started ON behavior_runs(behavior, started_at);
CREATE TABLE IF NOT EXISTS behavior_run_events (
  behavior    TEXT NOT NULL,
  item_id     TEXT NOT NULL,
  run_id      TEXT NOT NULL REFERENCES behavior_runs(id),
  PRIMARY KEY (behavior, item_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS behavior_run_events_run ON behavior_run_events(run_id);
CREATE TABLE IF NOT EXISTS behavior_fires (
  id          TEXT PRIMARY KEY,
  behavior    TEXT NOT NULL,
  trigger     TEXT NOT NULL,
  window_key  TEXT NOT NULL,
  at          TEXT NOT NULL,
  memory_id   TEXT,
  fired_at    TEXT NOT NULL,
  UNIQUE (behavior, trigger, window_key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS events_at ON events(at);
`,
};
