/**
 * The workspace verbs as the ledger runs them: whose workspace a caller reaches (an agent its own, a human admin
 * any agent's, nobody else's, I4), the mounts read for the caller, the batch in the engine, the commit through
 * WorkspaceFiles, and the counts and statement shapes the audit keeps (never rows, I8).
 */
import { z } from 'zod';
import type { CallAudit } from '../ledger/audit-trail.ts';
import type { Deps } from '../ledger/deps.ts';
import { maskSecrets } from '../guard/secrets.ts';
import { parseInput } from '../ledger/parse.ts';
import { MemoryError } from '../model/errors.ts';
import { principalLabel, principalRefSchema } from '../model/principal.ts';
import { hasRole } from '../policy/access.ts';
import type { Binding, BatchOutcome } from './batch.ts';
import type { StatementResult } from './bounds.ts';
import type { WorkspaceLimits } from './config.ts';
import type { WorkspaceEngine } from './engine.ts';
import type { WorkspaceFiles } from './files.ts';
import { mountsFor, namedMounts } from './mounts.ts';
import type { SchemaPrompt } from './schema-prompt.ts';
import { splitStatements, sqlShape } from './sql-text.ts';

/** What a ledger with workspaces holds: the files (persistence), the engine, the limits. */
export interface WorkspaceHost {
  files: WorkspaceFiles;
  engine: WorkspaceEngine;
  limits: Readonly<WorkspaceLimits>;
}

const MAX_STATEMENTS = 50;

export const workspaceSqlInputSchema = z
  .object({
    /** Each item may hold several statements separated by `;`. */
    statements: z.array(z.string().min(1).max(100_000)).min(1).max(MAX_STATEMENTS),
    bindings: z
      .record(
        z.string().regex(/^[:@$]?[A-Za-z_][A-Za-z0-9_]*$/),
        z.union([z.string().max(100_000), z.number(), z.boolean(), z.null()]),
      )
      .default({}),
    /** A human admin names the agent whose workspace to use; an agent may name only itself. */
    agent: principalRefSchema.optional(),
  })
  .strict();
export type WorkspaceSqlInput = z.input<typeof workspaceSqlInputSchema>;

export const workspaceSchemaInputSchema = z.object({ agent: principalRefSchema.optional() }).strict();
export type WorkspaceSchemaInput = z.input<typeof workspaceSchemaInputSchema>;

export interface WorkspaceSqlResult {
  agent: string;
  results: StatementResult[];
  /** Whether the batch changed the workspace (and a new version was stored). */
  committed: boolean;
  version: number;
  bytes: number;
  /** What the agent is told about its workspace's restore (a salvage or a reset), if anything. */
  notice?: string;
}

export interface WorkspaceSchemaResult extends SchemaPrompt {
  agent: string;
  version: number;
  notice?: string;
}

export async function workspaceSql(
  deps: Deps,
  host: WorkspaceHost | undefined,
  input: WorkspaceSqlInput,
  audit: CallAudit,
): Promise<WorkspaceSqlResult> {
  const f = parseInput(workspaceSqlInputSchema, input, 'workspace sql');
  const agent = workspaceOwner(deps, f.agent);
  const h = configured(host);
  const statements = f.statements.flatMap(splitStatements);
  if (statements.length === 0) throw new MemoryError('invalid_input', 'workspace sql: no statement to run');
  if (statements.length > MAX_STATEMENTS) {
    throw new MemoryError('invalid_input', `workspace sql: at most ${MAX_STATEMENTS} statements per call`);
  }
  const shapes = statements.slice(0, 20).map((s) => maskSecrets(sqlShape(s)));
  audit.progress({ agent, statements: statements.length, shapes });
  return exclusive(h, agent, async () => {
    const checkout = await h.files.checkout(agent);
    const mounts = await mountsFor(deps, namedMounts(statements));
    const outcome = (await h.engine.request(
      agent,
      { path: checkout.path, version: checkout.version, warm: checkout.outcome === 'cached' },
      {
        op: 'sql',
        limits: { ...h.limits },
        mounts,
        statements,
        bindings: f.bindings as Record<string, Binding>,
      },
      h.limits.timeoutMs,
    )) as BatchOutcome;
    let version = checkout.version;
    if (outcome.wrote) {
      try {
        version = await h.files.commit(agent, checkout.path, checkout.version);
      } catch (error) {
        h.engine.forget(agent);
        throw error;
      }
      h.engine.committed(agent, checkout.path, version);
    }
    audit.progress({
      agent,
      statements: statements.length,
      shapes,
      rows: outcome.results.map((r) => r.rowCount),
      changes: outcome.results.reduce((n, r) => n + r.changes, 0),
      committed: outcome.wrote,
      version,
      outcome: checkout.outcome,
    });
    const out: WorkspaceSqlResult = {
      agent,
      results: outcome.results,
      committed: outcome.wrote,
      version,
      bytes: outcome.bytes,
    };
    if (checkout.notice !== undefined) out.notice = checkout.notice;
    return out;
  });
}

export async function workspaceSchema(
  deps: Deps,
  host: WorkspaceHost | undefined,
  input: WorkspaceSchemaInput,
  audit: CallAudit,
): Promise<WorkspaceSchemaResult> {
  const f = parseInput(workspaceSchemaInputSchema, input, 'workspace schema');
  const agent = workspaceOwner(deps, f.agent);
  const h = configured(host);
  return exclusive(h, agent, async () => {
    const checkout = await h.files.checkout(agent);
    const mounts = await mountsFor(deps, 'all');
    const prompt = (await h.engine.request(
      agent,
      { path: checkout.path, version: checkout.version, warm: checkout.outcome === 'cached' },
      { op: 'schema', limits: { ...h.limits }, mounts },
      h.limits.timeoutMs,
    )) as SchemaPrompt;
    audit.progress({
      agent,
      tables: prompt.tables,
      omitted: prompt.omitted,
      bytes: prompt.bytes,
      outcome: checkout.outcome,
    });
    const out: WorkspaceSchemaResult = { agent, version: checkout.version, ...prompt };
    if (checkout.notice !== undefined) out.notice = checkout.notice;
    return out;
  });
}

/**
 * Whose workspace the call reaches: an agent's own (naming another is `permission`, I4); any agent's for a human
 * admin, who must name it; nobody else's.
 */
export function workspaceOwner(deps: Pick<Deps, 'principal'>, named: string | undefined): string {
  const p = deps.principal;
  const self = principalLabel(p);
  if (p.kind === 'agent') {
    if (named !== undefined && named !== self) {
      throw new MemoryError('permission', `${self} may use only its own workspace, not another agent's`);
    }
    return self;
  }
  if (p.kind !== 'human' || !hasRole(p, 'admin')) {
    throw new MemoryError(
      'permission',
      `workspaces belong to agents: ${self} needs to be an agent, or a human with the admin role, to use one`,
    );
  }
  if (named === undefined || !named.startsWith('agent:')) {
    throw new MemoryError(
      'invalid_input',
      'an admin names the agent whose workspace to use (agent: "agent:NAME")',
    );
  }
  return named;
}

/** One call at a time per agent: in the engine, and on the local file against an erasure's work on it. */
function exclusive<T>(h: WorkspaceHost, agent: string, fn: () => Promise<T>): Promise<T> {
  return h.engine.exclusive(agent, () => (h.files.working === undefined ? fn() : h.files.working(agent, fn)));
}

function configured(host: WorkspaceHost | undefined): WorkspaceHost {
  if (host === undefined) {
    throw new MemoryError(
      'internal',
      'workspaces are not configured for this ledger (no WorkspaceFiles was given)',
    );
  }
  return host;
}
