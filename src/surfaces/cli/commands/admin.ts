/** `memledger reindex | stats`: rebuild the search index from the log, and count what the home holds. */
import { statSync } from 'node:fs';
import { homePaths } from '../../../store/sqlite/home.ts';
import type { StoreStats } from '../../../store/port.ts';
import { defineCommand } from '../command.ts';
import { fields, formatBytes } from '../render.ts';

export const reindex = defineCommand<{ indexed: number }>({
  name: 'reindex',
  summary: 'rebuild the search index from the log',
  usage: `memledger reindex
  The index is a projection of the log: this drops and rebuilds it in one transaction.`,
  run: (ctx) => ctx.session().reindex(),
  render: (r) => `reindexed ${r.indexed} memory versions\n`,
});

export const stats = defineCommand<StoreStats & { home: string }>({
  name: 'stats',
  summary: 'count memories by state, scopes, events, rejections, erasures; file sizes',
  usage: 'memledger stats',
  async run(ctx) {
    const s = await ctx.session().stats();
    const ledger = ctx.ledger();
    const files = { ...s.files };
    if (!ledger.hasFiles) return { home: ledger.storeLabel, ...s, files };
    const home = ledger.home;
    // The audit store has its own file and lifecycle; its size belongs in the same picture.
    for (const suffix of ['', '-wal']) {
      const path = homePaths(home).auditDb + suffix;
      try {
        files[`audit.db${suffix}`] = statSync(path).size;
      } catch {
        // no WAL right after a checkpoint
      }
    }
    return { home, ...s, files };
  },
  render(s) {
    const states = Object.entries(s.byState)
      .sort((a, b) => b[1] - a[1])
      .map(([state, n]) => `${n} ${state}`)
      .join(', ');
    return `${fields(
      [
        ['home', s.home],
        ['memories', `${s.memories}${states === '' ? '' : `: ${states}`}`],
        ['scopes', String(s.scopes)],
        ['events', String(s.events)],
        ['rejections', String(s.rejections)],
        ['erasures', String(s.erasures)],
        [
          'files',
          Object.entries(s.files)
            .map(([f, n]) => `${f} ${formatBytes(n)}`)
            .join(', '),
        ],
      ],
      '',
    )}\n`;
  },
});
