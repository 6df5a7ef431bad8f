/**
 * bulk_import: memledger's `import` of the export file into a fresh home, as the human operator, against raw
 * inserts of the same rows (table + FTS5) in transactions of a thousand. Both read and parse the same file.
 */
import { performance } from 'node:perf_hooks';
import type { Context } from '../context.ts';
import { readLines } from '../jsonl.ts';
import { atLeast, type BenchResult, result } from '../report.ts';
import { ratio, round, stopwatch } from '../stats.ts';

const TARGET_PER_SECOND = 40_000;

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
  const imported = await ctx.session.import(readLines(ctx.importFile), {
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
  return result({
    description:
      'session.import(lines) of N export-format JSONL lines into a fresh home as the human operator, vs raw table + FTS5 inserts of the same rows in transactions of 1,000; both stream and parse the same file',
    memledger: {
      memories: n,
      seconds: round(seconds, 2),
      memoriesPerSecond: perSecond,
      cpuSeconds: round(time.cpuMs / 1000, 2),
      memoriesPerCpuSecond: Math.round(n / (time.cpuMs / 1000)),
    },
    raw: {
      memories: n,
      seconds: round(rawSeconds, 2),
      memoriesPerSecond: Math.round(n / rawSeconds),
      cpuSeconds: round(rawTime.cpuMs / 1000, 2),
      memoriesPerCpuSecond: Math.round(n / (rawTime.cpuMs / 1000)),
    },
    ratio: ratio(seconds, rawSeconds),
    ratios: { cpu: ratio(time.cpuMs, rawTime.cpuMs) },
    target: `>= ${TARGET_PER_SECOND.toLocaleString('en')} memories/s`,
    checks: [atLeast('memoriesPerSecond', perSecond, TARGET_PER_SECOND)],
    notes: { imported: imported.imported, skipped: imported.skipped, held: imported.held },
  });
}
