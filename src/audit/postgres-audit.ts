/**
 * The audit store on PostgreSQL (I8): schema `memledger_audit`, one table of records per database, a tenant
 * column guarded by row-level security, append-only twice over: by privilege and by trigger.
 *
 * Who may do what (migration `audit` 1):
 * - `memledger_app` (the application) may INSERT records and nothing else on the table: no SELECT, UPDATE,
 *   DELETE or TRUNCATE. The ledger's own audit reads (`memledger audit`, the console's audit feed, already
 *   limited by the ledger to a human admin or an auditor principal) go through two SECURITY DEFINER functions,
 *   `memledger_audit.feed` and `memledger_audit.failure_counts`, which read only the tenant of the caller's
 *   transaction, newest first, at most 10,000 rows. A grant of SELECT would let any code holding the
 *   application's connection read every column of every record of its tenant in any shape; the functions give
 *   exactly the reads the ledger makes.
 * - `memledger_auditor` may SELECT the records of the tenant it names (`SET memledger.tenant = 'acme'`), and has
 *   no privilege on the store's tables, so it reads who did what without reading any memory.
 * - Triggers refuse UPDATE, DELETE and TRUNCATE for everyone, the table's owner and superusers included.
 * Erasure (I9) runs in the store and never touches this schema: its records survive it.
 */
import type { AuditFilter, AuditRecord, AuditSink, FailureCount } from './record.ts';
import { inTenantAtOnce } from '../store/postgres/at-once.ts';
import { inTenant, type PgMigration, pgError, type Sql, TENANT_SETTING } from '../store/postgres/database.ts';
import { scrubMessage } from './message.ts';
import { openPart, type PartOptions } from './postgres-target.ts';
import { APP_ROLE, AUDITOR_ROLE, ensureRoles } from './postgres-roles.ts';

const TENANT = `current_setting('${TENANT_SETTING}', true)`;

export const AUDIT_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: 'audit records: insert-only for the application, readable by the auditor',
    async up(tx) {
      await ensureRoles(tx);
      await tx.unsafe(`
CREATE SCHEMA IF NOT EXISTS memledger_audit;
REVOKE ALL ON SCHEMA memledger_audit FROM PUBLIC;
CREATE TABLE memledger_audit.records (
  seq            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant         text NOT NULL,
  id             text NOT NULL,
  at             text NOT NULL,
  principal      text NOT NULL,
  principal_kind text NOT NULL,
  on_behalf_of   text,
  surface        text NOT NULL,
  operation      text NOT NULL,
  tool           text,
  token_id       text,
  session_id     text,
  run_id         text,
  client         text,
  targets        jsonb NOT NULL,
  args_hash      text NOT NULL,
  args_preview   jsonb NOT NULL,
  outcome        text NOT NULL CHECK (outcome IN ('ok', 'error')),
  failure_class  text,
  message        text,
  changes        jsonb NOT NULL,
  duration_ms    double precision NOT NULL,
  UNIQUE (tenant, id)
);
-- The feed reads newest first within a tenant and stops at its limit; failure counts read only failures.
CREATE INDEX records_feed ON memledger_audit.records (tenant, seq DESC);
CREATE INDEX records_principal ON memledger_audit.records (tenant, principal, seq DESC);
CREATE INDEX records_failures ON memledger_audit.records (tenant, failure_class, operation) WHERE outcome = 'error';

CREATE FUNCTION memledger_audit.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'I8 audit is append-only' USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER records_append_only BEFORE UPDATE OR DELETE ON memledger_audit.records
  FOR EACH ROW EXECUTE FUNCTION memledger_audit.refuse_change();
CREATE TRIGGER records_no_truncate BEFORE TRUNCATE ON memledger_audit.records
  FOR EACH STATEMENT EXECUTE FUNCTION memledger_audit.refuse_change();

ALTER TABLE memledger_audit.records ENABLE ROW LEVEL SECURITY;
ALTER TABLE memledger_audit.records FORCE ROW LEVEL SECURITY;
CREATE POLICY records_tenant ON memledger_audit.records
  USING (tenant = ${TENANT}) WITH CHECK (tenant = ${TENANT});

-- The ledger's reads: the caller's tenant only, whatever the definer may see.
CREATE FUNCTION memledger_audit.feed(
  p_principal text, p_operation text, p_tool text, p_outcome text, p_failure_class text, p_since text, p_limit integer
) RETURNS SETOF memledger_audit.records
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT * FROM memledger_audit.records r
  WHERE r.tenant = ${TENANT}
    AND (p_principal IS NULL OR r.principal = p_principal)
    AND (p_operation IS NULL OR r.operation = p_operation)
    AND (p_tool IS NULL OR r.tool = p_tool)
    AND (p_outcome IS NULL OR r.outcome = p_outcome)
    AND (p_failure_class IS NULL OR r.failure_class = p_failure_class)
    AND (p_since IS NULL OR r.at >= p_since)
  ORDER BY r.seq DESC
  LIMIT least(greatest(coalesce(p_limit, 100), 0), 10000)
$$;
CREATE FUNCTION memledger_audit.failure_counts(p_since text)
RETURNS TABLE (operation text, tool text, failure_class text, n integer)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT r.operation, r.tool, r.failure_class, count(*)::integer
  FROM memledger_audit.records r
  WHERE r.tenant = ${TENANT} AND r.outcome = 'error' AND r.at >= coalesce(p_since, '')
  GROUP BY r.operation, r.tool, r.failure_class
  ORDER BY 4 DESC
$$;

REVOKE ALL ON memledger_audit.records FROM PUBLIC;
REVOKE ALL ON FUNCTION memledger_audit.feed(text, text, text, text, text, text, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION memledger_audit.failure_counts(text) FROM PUBLIC;
GRANT USAGE ON SCHEMA memledger_audit TO ${APP_ROLE}, ${AUDITOR_ROLE};
GRANT INSERT ON memledger_audit.records TO ${APP_ROLE};
GRANT SELECT ON memledger_audit.records TO ${AUDITOR_ROLE};
GRANT EXECUTE ON FUNCTION memledger_audit.feed(text, text, text, text, text, text, integer) TO ${APP_ROLE}, ${AUDITOR_ROLE};
GRANT EXECUTE ON FUNCTION memledger_audit.failure_counts(text) TO ${APP_ROLE}, ${AUDITOR_ROLE};
`);
    },
  },
];

/** The audit's tenant, whether to migrate first (a `memledger_app` login passes false), its pool size. */
export type PostgresAuditOptions = PartOptions;

/**
 * Opens the audit store of one tenant in a Postgres database.
 * @example
 * const audit = await openPostgresAudit('postgres://memledger_server@db/memledger?tenant=acme', { migrate: false });
 * await audit.write(record);
 */
export async function openPostgresAudit(url: string, options: PostgresAuditOptions = {}): Promise<AuditSink> {
  const { sql, tenant } = await openPart(url, options, 'audit', AUDIT_MIGRATIONS);
  return new PostgresAudit(sql, tenant);
}

interface RecordRow {
  id: string;
  at: string;
  principal: string;
  principal_kind: string;
  on_behalf_of: string | null;
  surface: string;
  operation: string;
  tool: string | null;
  token_id: string | null;
  session_id: string | null;
  run_id: string | null;
  client: string | null;
  targets: string | string[];
  args_hash: string;
  args_preview: unknown;
  outcome: 'ok' | 'error';
  failure_class: AuditRecord['failureClass'];
  message: string | null;
  changes: string | AuditRecord['changes'];
  duration_ms: number;
}

class PostgresAudit implements AuditSink {
  readonly #sql: Sql;
  readonly #tenant: string;

  constructor(sql: Sql, tenant: string) {
    this.#sql = sql;
    this.#tenant = tenant;
  }

  /**
   * Settles once the record's transaction committed. A record whose id the tenant holds already stays as it is.
   * The conflict has no target: naming one would need SELECT on its columns, which the application lacks; the
   * only unique rule a record can meet is (tenant, id), since `seq` is generated.
   */
  async write(r: AuditRecord, options?: { backed?: boolean }): Promise<void> {
    try {
      // One round trip: BEGIN, the tenant, the insert and COMMIT go out together (at-once.ts).
      // A record backed by the store's outbox (same database, one WAL) commits without waiting for its fsync:
      // the outbox row is deleted only by a later commit of the store, which is synchronous and so flushes the
      // WAL through this commit first. Until then a crash leaves the row, and recovery moves it (I8). One fsync
      // less per write call (measured in bench/pg-profile.ts); an unbacked record (a read, a refusal) still
      // waits for its own.
      await inTenantAtOnce(
        this.#sql,
        this.#tenant,
        (tx) => [
          tx`
          INSERT INTO memledger_audit.records (tenant, id, at, principal, principal_kind, on_behalf_of, surface,
            operation, tool, token_id, session_id, run_id, client, targets, args_hash, args_preview, outcome,
            failure_class, message, changes, duration_ms)
          VALUES (${this.#tenant}, ${r.id}, ${r.at}, ${r.principal}, ${r.principalKind}, ${r.onBehalfOf},
            ${r.surface}, ${r.operation}, ${r.tool}, ${r.tokenId}, ${r.sessionId}, ${r.runId}, ${r.client},
            ${JSON.stringify(r.targets)}::jsonb, ${r.argsHash}, ${JSON.stringify(r.argsPreview ?? null)}::jsonb,
            ${r.outcome}, ${r.failureClass}, ${r.message === null ? null : scrubMessage(r.message)},
            ${JSON.stringify(r.changes)}::jsonb, ${r.durationMs})
          ON CONFLICT DO NOTHING`,
        ],
        { mode: 'read write', settings: options?.backed === true ? { synchronous_commit: 'off' } : {} },
      );
    } catch (error) {
      throw pgError(error, 'write an audit record');
    }
  }

  async query(filter: AuditFilter): Promise<AuditRecord[]> {
    try {
      const rows = await inTenant(
        this.#sql,
        this.#tenant,
        (tx) => tx<RecordRow[]>`
          SELECT * FROM memledger_audit.feed(${filter.principal ?? null}::text, ${filter.operation ?? null}::text,
            ${filter.tool ?? null}::text, ${filter.outcome ?? null}::text, ${filter.failureClass ?? null}::text,
            ${filter.since ?? null}::text, ${Math.min(filter.limit ?? 100, 10_000)}::integer)`,
      );
      return rows.map(toRecord);
    } catch (error) {
      throw pgError(error, 'read the audit');
    }
  }

  async failureCounts(since?: string): Promise<FailureCount[]> {
    try {
      const rows = await inTenant(
        this.#sql,
        this.#tenant,
        (tx) => tx<
          { operation: string; tool: string | null; failure_class: FailureCount['failureClass']; n: number }[]
        >`
          SELECT * FROM memledger_audit.failure_counts(${since ?? null}::text)`,
      );
      return rows.map((r) => ({
        operation: r.operation,
        tool: r.tool,
        failureClass: r.failure_class,
        count: Number(r.n),
      }));
    } catch (error) {
      throw pgError(error, 'count audit failures');
    }
  }

  async close(): Promise<void> {
    await this.#sql.end();
  }
}

const toRecord = (r: RecordRow): AuditRecord => ({
  id: r.id,
  at: r.at,
  principal: r.principal,
  principalKind: r.principal_kind,
  onBehalfOf: r.on_behalf_of,
  surface: r.surface,
  operation: r.operation,
  tool: r.tool,
  tokenId: r.token_id,
  sessionId: r.session_id,
  runId: r.run_id,
  client: r.client,
  targets: json(r.targets) as string[],
  argsHash: r.args_hash,
  argsPreview: json(r.args_preview),
  outcome: r.outcome,
  failureClass: r.failure_class,
  message: r.message,
  changes: json(r.changes) as AuditRecord['changes'],
  durationMs: Number(r.duration_ms),
});

/** A jsonb column as a value: the pool keeps its text as text (connect() adds no type parsers). */
const json = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);
