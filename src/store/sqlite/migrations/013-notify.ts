/**
 * Migration 13 of memory.db: notifications (src/notify). `notify_targets` says who gets which events; a target
 * names the environment variables its secrets live in, never a secret (I10). `notify_deliveries` is the queue
 * and its log: a held write inserts its rows in its own transaction, so a crash loses no notification, and a
 * deliverer claims a row under a lease for one attempt. A row holds ids, a scope, a kind and who (the event as
 * JSON), never memory content, so erasure has nothing to reach here (I9). No foreign key to the target: removing
 * one drops its pending rows and keeps the log of finished ones. `slack_signatures` keeps the signatures of
 * Slack requests seen within the replay window, so a replayed request is refused by every process on the home.
 * IF NOT EXISTS: a test that rewinds a home's user_version to replay an earlier migration (test/feeds/scopes.test.ts)
 * replays this one over its own tables.
 */
import type { Migration } from '../database.ts';

export const MIGRATION_13: Migration = {
  version: 13,
  name: 'notifications',
  sql: `
CREATE TABLE IF NOT EXISTS notify_targets (
  id            TEXT PRIMARY KEY,
  kind          TEXT NOT NULL CHECK (kind IN ('webhook', 'slack')),
  url           TEXT NOT NULL,
  events        TEXT NOT NULL,
  secret_env    TEXT NOT NULL,
  users         TEXT NOT NULL DEFAULT '{}',
  include_body  INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL,
  created_by    TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS notify_deliveries (
  seq              INTEGER PRIMARY KEY,
  id               TEXT NOT NULL UNIQUE,
  target_id        TEXT NOT NULL,
  event            TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_at          TEXT NOT NULL,
  lease_holder     TEXT,
  lease_until      TEXT,
  last_attempt_at  TEXT,
  last_status      INTEGER,
  last_error       TEXT,
  created_at       TEXT NOT NULL,
  delivered_at     TEXT
);
CREATE INDEX IF NOT EXISTS notify_deliveries_due ON notify_deliveries(next_at) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS notify_deliveries_status ON notify_deliveries(status, seq);
CREATE INDEX IF NOT EXISTS notify_deliveries_target ON notify_deliveries(target_id) WHERE status = 'pending';
CREATE TABLE IF NOT EXISTS slack_signatures (
  signature  TEXT PRIMARY KEY,
  seen_at    TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS slack_signatures_seen ON slack_signatures(seen_at);
`,
};
