/**
 * The agent's workspace tools: `workspace_sql` (a batch of statements with named bindings, one transaction) and
 * `workspace_schema` (the schema prompt). The engine guards the SQL (I16); the tools only parse and call the ledger.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { LedgerSession } from '../../ledger/session.ts';
import { jsonValue } from './output-schemas.ts';
import type { Tool } from './tools.ts';

export const workspaceSqlOutput = z.strictObject({
  results: z.array(
    z.strictObject({
      index: z.number(),
      columns: z.array(z.string()),
      rows: z.array(z.array(jsonValue)),
      row_count: z.number(),
      rows_at_least: z.boolean(),
      changes: z.number(),
      truncated: z.boolean(),
      note: z.string().optional(),
    }),
  ),
  committed: z.boolean(),
  version: z.number(),
  bytes: z.number(),
  notice: z.string().optional(),
});

export const workspaceSchemaOutput = z.strictObject({
  prompt: z.string(),
  tables: z.number(),
  omitted: z.number(),
  bytes: z.number(),
  version: z.number(),
  notice: z.string().optional(),
});

const annotations = (readOnly: boolean): ToolAnnotations => ({
  readOnlyHint: readOnly,
  destructiveHint: !readOnly,
  idempotentHint: readOnly,
  openWorldHint: false,
});

export function workspaceTools(): Tool[] {
  const sql = {
    name: 'workspace_sql',
    title: 'Run SQL in your workspace',
    operation: 'workspace.sql',
    description: [
      'Your own SQLite database for tabular work (lists, trackers, tallies): create tables, fill them, query them,',
      'join them against the read-only mounts __memories, __events, __commitments and __corrections (this call',
      'only, never saved). Read workspace_schema first. Every table you create needs a `subject TEXT` column (who',
      'the row is about, NULL for nobody). The statements run as one transaction: the first failure rolls all of',
      'them back and says which one failed. Pass values as named bindings (:name), never pasted into the SQL.',
      'Facts about people and decisions still belong in save_memory, where reviewers see them.',
    ].join(' '),
    input: z
      .object({
        statements: z
          .array(z.string().min(1).max(100_000))
          .min(1)
          .max(50)
          .describe('SQL statements, run in order (an item may hold several separated by ;).'),
        bindings: z
          .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
          .optional()
          .describe('Named values: {"who": "person:alice@example.com"} binds :who in any statement.'),
      })
      .strict(),
    output: workspaceSqlOutput,
    annotations: annotations(false),
    async run(
      session: LedgerSession,
      a: { statements: string[]; bindings?: Record<string, string | number | boolean | null> },
    ) {
      const r = await session.workspaceSql({ statements: a.statements, bindings: a.bindings ?? {} });
      return {
        results: r.results.map((s) => ({
          index: s.index,
          columns: s.columns,
          rows: s.rows,
          row_count: s.rowCount,
          rows_at_least: s.rowsAtLeast,
          changes: s.changes,
          truncated: s.truncated,
          ...(s.note === undefined ? {} : { note: s.note }),
        })),
        committed: r.committed,
        version: r.version,
        bytes: r.bytes,
        ...(r.notice === undefined ? {} : { notice: r.notice }),
      };
    },
  };
  const schema = {
    name: 'workspace_schema',
    title: 'Read your workspace schema',
    operation: 'workspace.schema',
    description: [
      'The map of your workspace: the mounted __ tables (ephemeral, with what each holds), then your tables with',
      'their CREATE statement, row count, three sample rows and a column profile. Read it before deciding where to',
      'put something or how to query it.',
    ].join(' '),
    input: z.object({}).strict(),
    output: workspaceSchemaOutput,
    annotations: annotations(true),
    async run(session: LedgerSession) {
      const r = await session.workspaceSchema();
      return {
        prompt: r.prompt,
        tables: r.tables,
        omitted: r.omitted,
        bytes: r.bytes,
        version: r.version,
        ...(r.notice === undefined ? {} : { notice: r.notice }),
      };
    },
  };
  return [sql, schema] as unknown as Tool[];
}
