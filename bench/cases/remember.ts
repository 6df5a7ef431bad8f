/**
 * remember: single durable writes on the home (or Postgres tenant) holding N memories (each its own transaction,
 * plus its audit record), against the raw row + FTS (or tsvector) insert in its own transaction on the raw
 * database holding the same N rows.
 * The two sides alternate call by call so drift (checkpoints, caches, CPU clocks) falls on both.
 */
import type { Memory, RememberInput } from '../../src/index.ts';
import type { Context } from '../context.ts';
import { atMost, type BenchResult, result } from '../report.ts';
import { ratio, stopwatch, summarize } from '../stats.ts';

/** ARCHITECTURE.md §6 for the embedded store; issue 10 sets only the p50 on Postgres (a network round trip). */
const TARGET = { sqlite: { p50Ms: 1, ratio: 2 }, postgres: { p50Ms: 3, ratio: null } } as const;

export async function benchRemember(ctx: Context): Promise<BenchResult> {
  const { remembers, rememberWarmup } = ctx.settings;
  const total = rememberWarmup + remembers;
  // Fresh memories past the imported ones: new keys, so every write lands as a new active memory.
  const first = ctx.settings.scale;
  const inputs: RememberInput[] = [];
  const rows: Memory[] = [];
  for (let j = 0; j < total; j++) {
    inputs.push(ctx.dataset.rememberInput(first + j));
    rows.push(ctx.dataset.memory(first + j));
  }

  ctx.log(`remember: ${rememberWarmup} warm-up + ${remembers} measured writes per side`);
  const mine: number[] = [];
  const mineCpu: number[] = [];
  const raw: number[] = [];
  const rawCpu: number[] = [];
  for (let j = 0; j < total; j++) {
    const measured = j >= rememberWarmup;
    const runMine = async () => {
      const stop = stopwatch();
      const written = await ctx.session.remember(inputs[j]!);
      const { wallMs, cpuMs } = stop();
      if (written.state !== 'active')
        throw new Error(`remember landed as ${written.state}: ${written.reason}`);
      if (measured) {
        mine.push(wallMs);
        mineCpu.push(cpuMs);
      }
    };
    const runRaw = async () => {
      const stop = stopwatch();
      await ctx.raw.insertOne(rows[j]!);
      const { wallMs, cpuMs } = stop();
      if (measured) {
        raw.push(wallMs);
        rawCpu.push(cpuMs);
      }
    };
    if (j % 2 === 0) {
      await runMine();
      await runRaw();
    } else {
      await runRaw();
      await runMine();
    }
  }

  const m = summarize(mine, mineCpu);
  const r = summarize(raw, rawCpu);
  const target = TARGET[ctx.backend];
  return result({
    description:
      ctx.backend === 'sqlite'
        ? 'single durable session.remember() calls (each its own transaction, WAL + synchronous=NORMAL, audited) on the home holding N memories, vs a raw row + FTS5 insert in its own transaction on the raw DB holding the same N rows'
        : 'single durable session.remember() calls (each its own transaction under the tenant write lock, audited in memledger_audit) on the Postgres tenant holding N memories, vs a raw one-row insert with its tsvector in its own transaction on the raw table holding the same N rows; both over loopback TCP, commits as the server is configured (synchronous_commit on)',
    memledger: { ...m },
    raw: { ...r },
    ratio: ratio(m.p50Ms, r.p50Ms),
    ratios: {
      p50: ratio(m.p50Ms, r.p50Ms),
      p99: ratio(m.p99Ms, r.p99Ms),
      cpuP50: ratio(m.cpuP50Ms!, r.cpuP50Ms!),
    },
    target:
      target.ratio === null
        ? `p50 <= ${target.p50Ms} ms`
        : `p50 <= ${target.p50Ms} ms and <= ${target.ratio}x raw`,
    checks: [
      atMost('p50Ms', m.p50Ms, target.p50Ms),
      ...(target.ratio === null ? [] : [atMost('ratio p50', ratio(m.p50Ms, r.p50Ms), target.ratio)]),
    ],
    notes: { warmupPerSide: rememberWarmup },
  });
}
