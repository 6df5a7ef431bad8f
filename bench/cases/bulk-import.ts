/**
 * bulk_import: memledger's `import` of the export file into a fresh home (or a fresh Postgres tenant), as the
 * human operator, against raw inserts of the same rows (table + FTS5 in transactions of a thousand; on
 * Postgres, COPY of the rows with their tsvector). Both read and parse the same file.
 */
import { performance } from 'node:perf_hooks';
import type { Context } from '../context.ts';
import { readLines } from '../jsonl.ts';
import { atLeast, atMost, type BenchResult, result } from '../report.ts';
import { ratio, round, stopwatch } from '../stats.ts';

/** ARCHITECTURE.md §6 for the embedded store; issue 10's target on Postgres. */
const TARGET_PER_SECOND = { sqlite: 40_000, postgres: 20_000 } as const;
/** Issue 14, embedded store: wall time over the raw baseline's. */
const MAX_RATIO = 2;

type Timed = { wallMs: number; cpuMs: number };

/** Both sides of an import of `n` memories as the report gives them: throughput by wall and by CPU, and the ratios. */
export function importSides(n: number, time: Timed, rawTime: Timed) {
  const side = (t: Timed) => ({
    memories: n,
    seconds: round(t.wallMs / 1000, 2),
    memoriesPerSecond: Math.round(n / (t.wallMs / 1000)),
    cpuSeconds: round(t.cpuMs / 1000, 2),
    memoriesPerCpuSecond: Math.round(n / (t.cpuMs / 1000)),
  });
  return {
    memledger: side(time),
    raw: side(rawTime),
    ratio: ratio(time.wallMs, rawTime.wallMs),
    ratios: { cpu: ratio(time.cpuMs, rawTime.cpuMs) },
  };
}

export async function benchBulkImport(ctx: Context): Promise<BenchResult> {
  const n = ctx.settings.scale;

  ctx.log('bulk_import: raw baseline');
  let stop = stopwatch();
  const rawCount = await ctx.raw.importLines(readLines(ctx.importFile));
  const rawTime = stop();
  const rawSeconds = rawTime.wallMs / 1000;
  if (rawCount !== n) throw new Error(`raw import stored ${rawCount} of ${n} memories`);
  ctx.log(`  raw: ${Math.round(n / rawSeconds).toLocaleString('en')} memories/s`);

  ctx.log('bulk_import: memledger');
  let nextLog = 100_000;
  const started = performance.now();
  stop = stopwatch();
  // A restore: the home is built exactly from the file (same ids, states and provenance), so every later
  // benchmark compares like with like against the raw rows. Ingest, the default, would write new memories.
  const imported = await ctx.session.import(readLines(ctx.importFile), {
    mode: 'restore',
    onProgress: (r) => {
      if (r.lines < nextLog) return;
      const rate = Math.round(r.lines / ((performance.now() - started) / 1000));
      ctx.log(`  ${r.lines.toLocaleString('en')} lines, ${rate.toLocaleString('en')}/s`);
      nextLog += 100_000;
    },
  });
  const time = stop();
  const seconds = time.wallMs / 1000;
  if (imported.imported !== n || imported.failed.length > 0) {
    throw new Error(
      `memledger imported ${imported.imported} of ${n} memories; first failure: ${JSON.stringify(imported.failed[0] ?? null)}`,
    );
  }
  ctx.log(`  memledger: ${Math.round(n / seconds).toLocaleString('en')} memories/s`);

  const perSecond = Math.round(n / seconds);
  const target = TARGET_PER_SECOND[ctx.backend];
  return result({
    description:
      ctx.backend === 'sqlite'
        ? 'session.import(lines, { mode: restore }) of N export-format JSONL lines into a fresh home as the human operator (the admin restore: content guard, rejection check, identity hashing, events, projections), vs raw table + FTS5 inserts of the same rows in transactions of 1,000; both stream and parse the same file'
        : 'session.import(lines, { mode: restore }) of N export-format JSONL lines into a fresh Postgres tenant as the human operator (the admin restore: content guard, rejection check, identity hashing, events, projections, search documents, per-scope statistics, audit), vs COPY of the same rows with their tsvector documents (built in the bench process from the same tokens) into one table with a GIN and a scope index, 10,000 rows per COPY; both stream and parse the same file',
    ...importSides(n, time, rawTime),
    target:
      ctx.backend === 'sqlite'
        ? `>= ${target.toLocaleString('en')} memories/s and <= ${MAX_RATIO}x raw`
        : `>= ${target.toLocaleString('en')} memories/s`,
    checks: [
      atLeast('memoriesPerSecond', perSecond, target),
      // Issue 14: the full write path within twice the raw inserts of the same rows, in the same run.
      ...(ctx.backend === 'sqlite' ? [atMost('ratio', ratio(seconds, rawSeconds), MAX_RATIO)] : []),
    ],
    notes: { imported: imported.imported, skipped: imported.skipped, held: imported.held },
  });
}
