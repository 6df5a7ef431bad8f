/**
 * The two roles every memledger part on Postgres grants to, created by whichever migration runs first:
 * `memledger_app` (the application) and `memledger_auditor` (reads the audit, nothing else). Both NOLOGIN: a
 * DBA grants them to login roles (`GRANT memledger_app TO memledger_server`).
 */
import type { TxSql } from '../store/postgres/database.ts';

export const APP_ROLE = 'memledger_app';
export const AUDITOR_ROLE = 'memledger_auditor';

/**
 * Creates the roles if missing. Roles belong to the cluster, not the database, and the migration lock is per
 * database: two databases migrating at once may both find a role missing, so the loser's duplicate is ignored.
 */
export async function ensureRoles(tx: TxSql): Promise<void> {
  for (const role of [APP_ROLE, AUDITOR_ROLE]) {
    await tx.unsafe(`
      DO $$
      BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role}') THEN
          CREATE ROLE ${role} NOLOGIN;
        END IF;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL;
      END
      $$`);
  }
}
