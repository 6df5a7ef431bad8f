/** `memledger init`: create the data directory (or find it) and say what is in it. Idempotent. */
import { existsSync, statSync } from 'node:fs';
import { homePaths, resolveHome } from '../../../ledger/home.ts';
import { defineCommand } from '../command.ts';
import { fields, formatBytes } from '../render.ts';

export interface InitResult {
  home: string;
  /** False when the home was already there: init changes nothing then. */
  created: boolean;
  files: { path: string; holds: string; bytes: number }[];
  policy: string;
}

export const init = defineCommand<InitResult>({
  name: 'init',
  summary: 'create the data directory (memory.db, audit.db, policy.json); safe to run again',
  usage: `memledger init [--home DIR]
  Creates the data directory with owner-only permissions, the memory and audit databases, and the
  default policy.json (agents land in their own scope and wait for review elsewhere). Running it again
  changes nothing.`,
  async run(ctx) {
    const home = resolveHome(ctx.homeOption, ctx.io.env);
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
    return `${head}\n${files}\n\nedit ${r.policy} to change who may write where.\nnext: memledger remember "Acme is on the Pro plan" --key acme.plan\n`;
  },
});

function size(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
