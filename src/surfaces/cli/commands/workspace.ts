/**
 * `memledger workspace …`: an agent's own SQL database. `sql` and `schema` are the agent's verbs (the caller's
 * own workspace; a human admin names one with --agent). The admin verbs (`workspace list`, `show`, `export`,
 * `reset`) are in workspace-admin.ts.
 */
import type { WorkspaceSchemaResult, WorkspaceSqlResult } from '../../../workspace/ops.ts';
import { MemoryError } from '../../../model/errors.ts';
import { optString, optStrings } from '../args.ts';
import { defineCommand } from '../command.ts';
import { clean } from '../render.ts';

/** `--bind name=value`: values are text (SQLite applies the column's affinity when it compares or stores them). */
function bindings(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of optStrings(values as never, 'bind') ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0)
      throw new MemoryError(
        'invalid_input',
        `--bind must look like name=value, got ${JSON.stringify(pair.slice(0, 40))}`,
      );
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

const cellText = (v: unknown): string =>
  v === null ? 'NULL' : typeof v === 'string' ? v : JSON.stringify(v);

function renderSql(r: WorkspaceSqlResult): string {
  const out: string[] = [];
  if (r.notice !== undefined) out.push(`notice: ${clean(r.notice)}`);
  for (const s of r.results) {
    if (s.columns.length === 0) {
      out.push(`[${s.index}] ${s.changes} row${s.changes === 1 ? '' : 's'} changed`);
      continue;
    }
    out.push(`[${s.index}] ${s.columns.map((c) => clean(c)).join('\t')}`);
    for (const row of s.rows) out.push(`    ${row.map((v) => clean(cellText(v))).join('\t')}`);
    out.push(`    (${s.rowsAtLeast ? 'at least ' : ''}${s.rowCount} row${s.rowCount === 1 ? '' : 's'})`);
    if (s.note !== undefined) out.push(`    ${clean(s.note)}`);
  }
  out.push(r.committed ? `committed: version ${r.version}` : 'nothing changed');
  return `${out.join('\n')}\n`;
}

export const workspaceSql = defineCommand<WorkspaceSqlResult>({
  name: 'workspace sql',
  summary: "run SQL in the caller agent's workspace, as one transaction",
  usage: `memledger workspace sql "SQL" [--bind name=value]... [--agent agent:X] --as agent:X
  Runs the statements (separated by ;) in the agent's own SQLite workspace as one transaction: the first
  failure rolls all of them back and says which one failed. Bind values with :name and --bind name=value.
  Tables need a subject column; the __ tables are read-only mounts of the ledger. A human admin names the
  agent with --agent.`,
  positionals: { min: 1, max: 1 },
  options: { bind: { type: 'string', multiple: true }, agent: { type: 'string' } },
  run: (ctx, [sql], values) => {
    const agent = optString(values, 'agent');
    return ctx.session().workspaceSql({
      statements: [sql!],
      bindings: bindings(values),
      ...(agent === undefined ? {} : { agent }),
    });
  },
  render: renderSql,
});

export const workspaceSchema = defineCommand<WorkspaceSchemaResult>({
  name: 'workspace schema',
  summary: "print the agent workspace's schema prompt (mounts, tables, samples, profiles)",
  usage: `memledger workspace schema [--agent agent:X] --as agent:X
  The prompt an agent reads before it uses its workspace: the mounted __ tables with their notes, then its
  tables (DDL, row count, sample rows, column profile), within the prompt's byte budget.`,
  positionals: { min: 0, max: 0 },
  options: { agent: { type: 'string' } },
  run: (ctx, _args, values) => {
    const agent = optString(values, 'agent');
    return ctx.session().workspaceSchema(agent === undefined ? {} : { agent });
  },
  render: (r) => `${r.prompt}\n`,
});
