/**
 * bulk_import_ingest: memledger's default `import` (ingest) of N plain lines (`{"body", "scope", …}`, what a
 * caller of `remember` passes) into a fresh home as the human operator: every line a new write through the guard,
 * the grants, the rejection check, the gate and corroboration. Against the raw inserts of the same plain lines
 * (table + FTS5 in transactions of a thousand, the id, time and provenance filled in as a bare program would).
 * Both read and parse the same file, written before either clock starts.
 */
import { join } from 'node:path';
import { openLedger } from '../../src/index.ts';
import type { Context } from '../context.ts';
import { readLines, writeLines } from '../jsonl.ts';
import { RawStore } from '../raw.ts';
import { atLeast, atMost, type BenchResult, result } from '../report.ts';
import { ratio, stopwatch } from '../stats.ts';
import { importSides } from './bulk-import.ts';

/** ARCHITECTURE.md §6: plain lines and export lines alike. */
const TARGET_PER_SECOND = 40_000;
const MAX_RATIO = 2;

export async function benchBulkImportIngest(ctx: Context): Promise<BenchResult> {
  const n = ctx.settings.scale;
  const file = join(ctx.dir, 'plain.jsonl');
  ctx.log(`bulk_import_ingest: writing ${n.toLocaleString('en')} plain lines`);
  await writeLines(file, n, (i) => JSON.stringify(ctx.dataset.rememberInput(i)));

  ctx.log('bulk_import_ingest: raw baseline');
  const raw = new RawStore(join(ctx.dir, 'raw-ingest.db'));
  let stop = stopwatch();
  let rawCount: number;
  try {
    rawCount = await raw.importPlainLines(readLines(file));
  } finally {
    raw.close();
  }
  const rawTime = stop();
  if (rawCount !== n) throw new Error(`raw ingest stored ${rawCount} of ${n} memories`);
  ctx.log(`  raw: ${Math.round(n / (rawTime.wallMs / 1000)).toLocaleString('en')} memories/s`);

  ctx.log('bulk_import_ingest: memledger');
  const ledger = openLedger({ store: join(ctx.dir, 'ingest-home') });
  let imported: Awaited<ReturnType<ReturnType<typeof ledger.as>['import']>>;
  let time: ReturnType<typeof stop>;
  try {
    await ledger.ready;
    const session = ledger.as(ledger.operator(), { surface: 'library', client: 'memledger-bench' });
    stop = stopwatch();
    imported = await session.import(readLines(file));
    time = stop();
  } finally {
    ledger.close();
  }
  // A plain line that repeats a live claim of its scope corroborates it instead of landing twice: both count.
  const landed = imported.imported + imported.corroborated;
  if (landed !== n || imported.failed.length > 0) {
    throw new Error(
      `memledger ingested ${landed} of ${n} lines; first failure: ${JSON.stringify(imported.failed[0] ?? null)}`,
    );
  }
  const seconds = time.wallMs / 1000;
  const rawSeconds = rawTime.wallMs / 1000;
  const perSecond = Math.round(n / seconds);
  ctx.log(`  memledger: ${perSecond.toLocaleString('en')} memories/s`);
  return result({
    description:
      'session.import(lines) (ingest, the default) of N plain JSONL lines ({body, scope, kind, key, value, subjects, validFrom, confidence}) into a fresh home as the human operator (each a new write: content guard, grants, rejection check, gate, corroboration, events, projections, one audit record), vs raw table + FTS5 inserts of the same lines in transactions of 1,000 (id, time and provenance filled in); both stream and parse the same file',
    ...importSides(n, time, rawTime),
    target: `>= ${TARGET_PER_SECOND.toLocaleString('en')} memories/s and <= ${MAX_RATIO}x raw`,
    checks: [
      atLeast('memoriesPerSecond', perSecond, TARGET_PER_SECOND),
      atMost('ratio', ratio(seconds, rawSeconds), MAX_RATIO),
    ],
    notes: { imported: imported.imported, corroborated: imported.corroborated, held: imported.held },
  });
}
