/**
 * The measured part of bench/pg-partitioned.ts: scoped search and one durable remember through the library on
 * two databases of one cluster (the partitioned schema and the product's own), alternating call by call so load
 * and caches fall on both, each side's server CPU read from its backends' /proc entries.
 */
import { readFileSync } from 'node:fs';
import type { LedgerSession, RememberInput } from '../src/index.ts';
import type { Sql } from '../src/store/postgres/database.ts';
import type { BenchQuery } from './data.ts';
import { CLOCK_TICKS } from './procs.ts';
import { type Latency, ratio, round, stopwatch, summarize } from './stats.ts';

export interface Side {
  name: string;
  /** The database's name, to find its backends in pg_stat_activity. */
  database: string;
  session: LedgerSession;
}

export interface PairResult {
  sides: Record<string, Latency & { serverCpuMsPerCall: number | null }>;
  /** First side's p50 over the second's (wall, and this process's CPU). */
  ratioP50: number;
  ratioCpuP50: number;
  notes: Record<string, unknown>;
}

/** CPU ms per backend pid of the app role's connections to `database` (utime + stime from /proc). */
async function backendCpu(admin: Sql, database: string): Promise<Map<number, number>> {
  const rows = await admin<{ pid: number }[]>`
    select pid from pg_stat_activity where datname = ${database} and usename = 'memledger_server'`;
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
      out.set(pid, ((Number(rest[11]) + Number(rest[12])) * 1000) / CLOCK_TICKS);
    } catch {
      // the backend ended between the two reads
    }
  }
  return out;
}

/** The backends' CPU used since `before` (a backend born since counts from zero), in ms. */
function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * Runs `call` for each item on both sides in turn (who goes first alternates), the first `warmup` unmeasured,
 * and summarizes each side's wall and CPU time per call and its server CPU per measured call.
 */
async function pair<T>(
  admin: Sql,
  sides: [Side, Side],
  items: T[],
  warmup: number,
  call: (side: Side, item: T, index: number) => Promise<number>,
): Promise<{ result: PairResult; outputs: [number[], number[]] }> {
  const wall: [number[], number[]] = [[], []];
  const cpu: [number[], number[]] = [[], []];
  const outputs: [number[], number[]] = [[], []];
  let before: Map<number, number>[] = [];
  for (let j = 0; j < items.length; j++) {
    if (j === warmup) before = await Promise.all(sides.map((s) => backendCpu(admin, s.database)));
    const order = j % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) {
      const stop = stopwatch();
      const out = await call(sides[k]!, items[j]!, j);
      const t = stop();
      if (j >= warmup) {
        wall[k]!.push(t.wallMs);
        cpu[k]!.push(t.cpuMs);
        outputs[k]!.push(out);
      }
    }
  }
  const after = await Promise.all(sides.map((s) => backendCpu(admin, s.database)));
  const measured = items.length - warmup;
  const result: PairResult = { sides: {}, ratioP50: 0, ratioCpuP50: 0, notes: {} };
  sides.forEach((s, k) => {
    result.sides[s.name] = {
      ...summarize(wall[k]!, cpu[k]!),
      serverCpuMsPerCall: before[k] === undefined ? null : round(cpuSince(before[k]!, after[k]!) / measured),
    };
  });
  const first = result.sides[sides[0].name];
  const second = result.sides[sides[1].name];
  if (first !== undefined && second !== undefined) {
    result.ratioP50 = ratio(first.p50Ms, second.p50Ms);
    result.ratioCpuP50 = ratio(first.cpuP50Ms ?? 0, second.cpuP50Ms ?? 0);
  }
  return { result, outputs };
}

/** session.search({ query, scopes: [scope] }) on both sides; both hold the same rows, so hit counts must agree. */
export async function searchPair(
  admin: Sql,
  sides: [Side, Side],
  queries: BenchQuery[],
  warmup: number,
): Promise<PairResult> {
  const { result, outputs } = await pair(admin, sides, queries, warmup, async (side, q) => {
    const found = await side.session.search({ query: q.text, scopes: [q.scope] });
    return found.hits.length;
  });
  const disagree = outputs[0].filter((n, i) => n !== outputs[1][i]).length;
  if (disagree > 0)
    throw new Error(`search: ${disagree} queries returned different hit counts on the two sides`);
  result.notes = {
    hitCountsAgree: true,
    meanHits: round(outputs[0].reduce((a, b) => a + b, 0) / Math.max(1, outputs[0].length), 2),
    example: { text: queries[warmup]?.text, scope: queries[warmup]?.scope },
  };
  return result;
}

/** One durable session.remember() per input on both sides (the same input on each: new keys, so it lands). */
export async function rememberPair(
  admin: Sql,
  sides: [Side, Side],
  inputs: RememberInput[],
  warmup: number,
): Promise<PairResult> {
  const { result } = await pair(admin, sides, inputs, warmup, async (side, input) => {
    const written = await side.session.remember(input);
    if (written.state !== 'active') throw new Error(`remember landed as ${written.state} on ${side.name}`);
    return 1;
  });
  return result;
}

/** Search on one side only (the other tenants of the partitioned database, which the other side does not hold). */
export async function searchOne(
  sessions: Map<string, LedgerSession>,
  queries: (BenchQuery & { tenant: string })[],
  warmup: number,
): Promise<Latency & { meanHits: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let hits = 0;
  for (let j = 0; j < queries.length; j++) {
    const q = queries[j]!;
    const stop = stopwatch();
    const found = await sessions.get(q.tenant)!.search({ query: q.text, scopes: [q.scope] });
    const t = stop();
    if (j < warmup) continue;
    wall.push(t.wallMs);
    cpu.push(t.cpuMs);
    hits += found.hits.length;
  }
  return { ...summarize(wall, cpu), meanHits: round(hits / Math.max(1, wall.length), 2) };
}
