/** `memledger migrate`: apply the store's forward-only migrations and say which ran (none when it is current). */
import { performance } from 'node:perf_hooks';
import type { MigrationReport } from '../../../store/backend.ts';
import { defineCommand } from '../command.ts';
import { assertHomeExists } from '../home-check.ts';
import { fields } from '../render.ts';
import { chosenStore } from '../store-choice.ts';

export const migrate = defineCommand<MigrationReport>({
  name: 'migrate',
  summary: "apply the store's forward-only migrations and print what ran; safe to run again",
  usage: `memledger migrate [--home DIR | --store PATH|URL]
  Applies every migration the store lacks, in order, each in its own transaction, and prints what it
  applied and each part's version. A data directory is migrated by any open as well, so there this
  reports what the open applied; on a postgres:// store run it (as the database owner) before serving a
  new version. It never creates a data directory: memledger init does.`,
  async run(ctx) {
    const started = performance.now();
    const store = chosenStore(ctx);
    if (store.home !== null) assertHomeExists(store.home);
    // Before any ledger opens: on a home the open itself migrates, and the report would find nothing to do.
    const report = await store.migrate();
    // The authority to migrate is access to the files or the database owner's URL; the call is audited as its caller (I8).
    const session = ctx.session();
    await ctx.ledger().ready;
    await ctx.ledger().recordSurfaceCall({
      principal: session.principal,
      context: { ...session.callContext, tool: 'migrate' },
      operation: 'migrate',
      args: {},
      durationMs: performance.now() - started,
      extra: { applied: report.applied.length },
    });
    return report;
  },
  render(r) {
    const versions = Object.entries(r.versions)
      .map(([part, v]) => `${part} ${v}`)
      .join(', ');
    const head =
      r.applied.length === 0
        ? `${r.store} is current; nothing applied`
        : `${r.store}: applied ${r.applied.length} migration(s)`;
    const steps = fields(r.applied.map((m) => [`${m.part} ${m.version}`, m.name]));
    return `${head}\n${steps === '' ? '' : `${steps}\n`}versions: ${versions}\n`;
  },
});
