/**
 * `memledger workspace list | show AGENT | export AGENT [--out FILE] | reset AGENT`: the admin's view of agent
 * workspaces (humans with the admin role; anyone else gets `permission`). `show` gives tables, row counts and
 * sizes, never rows; `export` is the explicit, audited download of the SQLite file. The agent's own verbs
 * (`workspace sql`, `workspace schema`) are in workspace.ts. Only `reset` is a judging verb
 * (refused in an agent environment without a human token); the reads are admin reads, like `audit`.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { WorkspaceSnapshotMeta } from '../../../store/workspaces-port.ts';
import type { WorkspaceDetail } from '../../../workspace/admin.ts';
import { MemoryError } from '../../../model/errors.ts';
import { optString } from '../args.ts';
import { type Command, defineCommand } from '../command.ts';
import { fields, formatBytes, plural, shortTime, table } from '../render.ts';

export const workspaceList = defineCommand<{ workspaces: WorkspaceSnapshotMeta[] }>({
  name: 'workspace list',
  summary: 'list agent workspaces: version, tables, sizes, last write (admin)',
  usage: 'memledger workspace list',
  async run(ctx) {
    return { workspaces: await ctx.session().workspaceAdmin('list', {}) };
  },
  render: ({ workspaces }) => {
    if (workspaces.length === 0) return 'no agent has a workspace yet\n';
    const rows = workspaces.map((w) => [
      w.agent,
      `v${w.version}`,
      String(w.tableCount),
      formatBytes(w.rawSize),
      formatBytes(w.compressedSize),
      shortTime(w.updatedAt),
      w.updatedBy,
    ]);
    const head = ['agent', 'version', 'tables', 'size', 'stored', 'updated', 'by'].map((header) => ({
      header,
    }));
    return `${table(head, rows)}\n`;
  },
});

export const workspaceShow = defineCommand<WorkspaceDetail>({
  name: 'workspace show',
  summary: "show an agent workspace's tables, row counts and sizes, never its rows (admin)",
  usage: 'memledger workspace show agent:ID',
  positionals: { min: 1, max: 1 },
  async run(ctx, [agent]) {
    return ctx.session().workspaceAdmin('show', { agent: agent! });
  },
  render: (w) => {
    const head = [{ header: 'table' }, { header: 'rows' }, { header: 'size' }];
    const rows = w.tables.map((t) => [t.name, String(t.rows), formatBytes(t.bytes)]);
    const q = w.quarantined;
    const info = fields([
      ['agent', w.agent],
      ['version', `v${w.version}, ${plural(w.tableCount, 'table')}`],
      ['size', `${formatBytes(w.rawSize)} (${formatBytes(w.compressedSize)} stored)`],
      ['updated', `${shortTime(w.updatedAt)} by ${w.updatedBy}`],
      ['quarantined', q === null ? null : `v${q.version} at ${shortTime(q.at)}: ${q.reason}`],
    ]);
    return `${info}\n${rows.length > 0 ? `\n${table(head, rows)}\n` : ''}`;
  },
});

export const workspaceExport = defineCommand<{ out: string; bytes: number; version: number } | undefined>({
  name: 'workspace export',
  summary: 'download an agent workspace as a SQLite file (admin; audited)',
  usage: `memledger workspace export agent:ID [--out FILE]
  Writes the workspace's current version as a SQLite database: to FILE (owner-only, whole or not at all), or
  to stdout without --out. The download is audited; it holds the agent's rows, so keep it as you would them.`,
  positionals: { min: 1, max: 1 },
  options: { out: { type: 'string' } },
  async run(ctx, [agent], values) {
    const file = await ctx.session().workspaceAdmin('export', { agent: agent! });
    const out = optString(values, 'out');
    if (out === undefined) {
      await new Promise<void>((resolve, reject) =>
        ctx.io.stdout.write(file.bytes, (error) => (error ? reject(error) : resolve())),
      );
      return undefined;
    }
    writeAtomically(out, file.bytes);
    return { out, bytes: file.bytes.byteLength, version: file.version };
  },
  render: (r) => (r === undefined ? '' : `wrote v${r.version} (${formatBytes(r.bytes)}) to ${r.out}\n`),
});

export const workspaceReset = defineCommand<{ agent: string; reset: true }>({
  name: 'workspace reset',
  summary: 'empty an agent workspace: its snapshot, quarantined copy and local copies go (admin)',
  usage: `memledger workspace reset agent:ID
  The agent's next call starts from an empty workspace. Cannot be undone: export it first to keep a copy.`,
  positionals: { min: 1, max: 1 },
  judgement: true,
  async run(ctx, [agent]) {
    return ctx.session().workspaceAdmin('reset', { agent: agent! });
  },
  render: (r) => `reset the workspace of ${r.agent}: its next call starts empty\n`,
});

/** Every `workspace` verb by its word: the agent's (sql, schema) join the admin's here. */
export const WORKSPACE_VERBS: Record<string, Command> = {
  list: workspaceList,
  show: workspaceShow,
  export: workspaceExport,
  reset: workspaceReset,
};

/** The file appears whole or not at all, owner-only: it holds every row of the workspace. */
function writeAtomically(path: string, bytes: Uint8Array): void {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, bytes, { mode: 0o600, flag: 'wx' });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new MemoryError(
      'invalid_input',
      `could not write ${path}: ${(error as NodeJS.ErrnoException).code}`,
    );
  }
}
