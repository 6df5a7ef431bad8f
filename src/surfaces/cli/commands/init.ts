/** `memledger init`: create the store (a data directory, or a database's schema) or find it, and say what is in it. Idempotent. */
import { existsSync, statSync } from 'node:fs';
import { homePaths } from '../../../store/sqlite/home.ts';
import { defineCommand } from '../command.ts';
import { fields, formatBytes } from '../render.ts';
import { chosenStore } from '../store-choice.ts';

export interface InitResult {
  /** The data directory, or the database's URL without its password. */
  home: string;
  /** False when the store was already there: init changes nothing then. */
  created: boolean;
  /** A home's files; empty for a database. */
  files: { path: string; holds: string; bytes: number }[];
  /** The policy file, or null where the built-in default governs (a database). */
  policy: string | null;
}

export const init = defineCommand<InitResult>({
  name: 'init',
  summary: 'create the data directory (memory.db, audit.db, policy.json); safe to run again',
  usage: `memledger init [--home DIR | --store PATH|URL]
  Creates the data directory with owner-only permissions, the memory and audit databases, and the
  default policy.json (agents land in their own scope and wait for review elsewhere). On a postgres://
  store it applies the schema's migrations (as memledger migrate does). Running it again changes nothing.`,
  async run(ctx) {
    const store = chosenStore(ctx);
    if (store.home === null) {
      const report = await store.migrate();
      await ctx.ledger().ready;
      return { home: store.label, created: report.applied.length > 0, files: [], policy: null };
    }
    const home = store.home;
    const created = !existsSync(homePaths(home).memoryDb);
    ctx.ledger();
    const paths = homePaths(home);
    const holds: [string, string][] = [
      [paths.memoryDb, 'the log of memories, their history and the search index'],
      [paths.auditDb, 'the audit log: who called what, allowed or refused; no memory content'],
      [paths.policy, 'who may write where, and what waits for review'],
    ];
    return {
      home,
      created,
      files: holds.map(([path, what]) => ({ path, holds: what, bytes: size(path) })),
      policy: paths.policy,
    };
  },
  render(r) {
    const head = r.created ? `created ${r.home}` : `${r.home} is already set up; nothing changed`;
    const files = fields(r.files.map((f) => [f.path, `${f.holds} (${formatBytes(f.bytes)})`]));
    const policy =
      r.policy === null
        ? 'the built-in default policy governs this store.'
        : `edit ${r.policy} to change who may write where.`;
    return `${head}\n${files}\n\n${policy}\nnext: memledger remember "Acme is on the Pro plan" --key acme.plan\n`;
  },
});

function size(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
