/**
 * soak (`--soak`, `--soak-minutes N`): `memledger serve` under sustained mixed load. Its throughput is measured
 * first (10 connections, nine searches to one write), then autocannon holds 80% of it for the soak's length.
 * Per window (a minute; a quarter of the run when it is shorter than four minutes) the report keeps the
 * server's resident memory, p99 and requests/s. Issue 14's target: RSS within 10% of the first window's and
 * p99 within 2x of the first window's, in every later window.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { Context } from '../context.ts';
import { childNodeFlags, cleanEnv, processCpuMs, startProcess, stopProcess } from '../procs.ts';
import { atMost, type BenchResult, result } from '../report.ts';
import { MEMLEDGER_BIN } from '../serving.ts';
import { quantile, ratio, round } from '../stats.ts';

const SHARE = 0.8;
const RSS_GROWTH = 1.1;
const P99_GROWTH = 2;
const CALIBRATION_SECONDS = 5;
const CONNECTIONS = 10;
/** One write in this many requests: an agent's session reads far more than it writes. */
const WRITE_EVERY = 10;
const WRITER = 'soak';
/**
 * `BENCH_SOAK_SAMPLES=FILE`: the server also logs its memory by part there (children/mem-sampler.ts);
 * `BENCH_SOAK_NODE_FLAGS="--flag …"`: Node flags for the server (an experiment, such as V8's young generation);
 * `BENCH_SOAK_RATE=N`: a fixed rate (below).
 */
const SAMPLER = fileURLToPath(new URL('../children/mem-sampler.ts', import.meta.url));

interface Sample {
  atMs: number;
  latencyMs: number;
  ok: boolean;
}

export async function benchSoak(ctx: Context): Promise<BenchResult> {
  const minutes = ctx.settings.soakMinutes ?? 10;
  const serving = await ctx.serving();
  const tokens = openTokenStore(serving.home);
  let token: string;
  try {
    const grants = [`agent:${WRITER}:rw`, '*:r'];
    token = (await tokens.create({ name: WRITER, kind: 'agent', grants }, 'human:operator')).secret;
  } finally {
    await tokens.close();
  }
  const queries = serving.dataset.queries(500, 5);
  const searches = queries.map((q) => JSON.stringify({ query: q.text, scopes: [q.scope] }));
  const started = await startProcess(
    process.execPath,
    [
      ...childNodeFlags(),
      ...(process.env.BENCH_SOAK_SAMPLES ? ['--import', SAMPLER] : []),
      ...(process.env.BENCH_SOAK_NODE_FLAGS?.split(' ').filter((f) => f !== '') ?? []),
      MEMLEDGER_BIN,
      '--home',
      serving.home,
      'serve',
      '--port',
      '0',
    ],
    /memledger serving (http:\/\/\S+)/,
    60_000,
    cleanEnv(),
  );
  const url = started.match[1]!;
  const pid = started.child.pid;
  try {
    let n = 0;
    // Searches rotate through the bodies; every tenth request remembers a new note in the writer's own scope.
    const next = () => {
      const i = n++;
      if (i % WRITE_EVERY === WRITE_EVERY - 1) {
        const body = JSON.stringify({ scope: `agent:${WRITER}`, kind: 'note', body: `soak note ${i}` });
        return { method: 'POST' as const, path: '/v1/memories', body };
      }
      return { method: 'POST' as const, path: '/v1/search', body: searches[i % searches.length]! };
    };
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const calibrationSeconds = ctx.settings.smoke ? 2 : CALIBRATION_SECONDS;
    ctx.log(`soak: measuring throughput for ${calibrationSeconds} s`);
    const calibration = await drive(url, headers, next, calibrationSeconds, undefined);
    const measured = calibration.filter((s) => s.ok).length / calibrationSeconds;
    // BENCH_SOAK_RATE=N holds N req/s instead: two servers soaked side by side (an A/B of a flag) get the same load.
    const fixed = Number(process.env.BENCH_SOAK_RATE ?? Number.NaN);
    const rate = fixed > 0 ? Math.round(fixed) : Math.max(1, Math.round(measured * SHARE));
    const seconds = minutes * 60;
    const windowSeconds = Math.min(60, seconds / 4);
    ctx.log(
      `soak: ${minutes} min at ${rate} req/s (${fixed > 0 ? 'BENCH_SOAK_RATE' : `${SHARE * 100}%`} of ${Math.round(measured)})`,
    );
    const rss: RssSample[] = [];
    const t0 = Date.now();
    // The first window's CPU counts from here, not from the server's start-up and the calibration.
    const atStart = resident(pid);
    if (atStart !== null) rss.push({ ...atStart, atMs: -1, cpuMs: processCpuMs(pid) });
    const timer = setInterval(() => {
      const sample = resident(pid);
      if (sample !== null) rss.push({ ...sample, atMs: Date.now() - t0, cpuMs: processCpuMs(pid) });
    }, 1_000);
    let samples: Sample[];
    try {
      samples = await drive(url, headers, next, seconds, rate, t0);
    } finally {
      clearInterval(timer);
    }
    const windows = windowsOf(samples, rss, windowSeconds, seconds);
    const first = windows[0]!;
    const later = windows.slice(1);
    const maxRss = Math.max(...later.map((w) => w.rssMb ?? 0));
    const maxP99 = Math.max(...later.map((w) => w.p99Ms));
    return result({
      description: `memledger serve on the serving home of ${serving.memories.toLocaleString('en')} memories: ${minutes} min of autocannon at ${SHARE * 100}% of its measured throughput (${CONNECTIONS} connections, one write in ${WRITE_EVERY}, the rest searches), resident memory and p99 per window against the first window's`,
      memledger: { measuredRequestsPerSecond: Math.round(measured), rate, windows },
      raw: { firstWindow: first },
      ratio: ratio(maxP99, first.p99Ms),
      ratios: { rss: round(maxRss / (first.rssMb ?? Number.NaN), 3), p99: ratio(maxP99, first.p99Ms) },
      target: `RSS within ${Math.round((RSS_GROWTH - 1) * 100)}% and p99 within ${P99_GROWTH}x of the first window's`,
      checks: [
        atMost('max later RSS / first window', round(maxRss / (first.rssMb ?? Number.NaN), 3), RSS_GROWTH),
        atMost('max later p99 / first window', ratio(maxP99, first.p99Ms), P99_GROWTH),
      ],
      notes: {
        windowSeconds,
        responses: samples.length,
        non2xx: samples.filter((s) => !s.ok).length,
        rss: 'VmRSS of the server from /proc, sampled every second; a window reports its last sample (and its RssAnon and RssFile parts)',
      },
    });
  } finally {
    await stopProcess(started.child);
  }
}

type NextRequest = () => { method: 'POST'; path: string; body: string };

/** One autocannon run; every response's time since `t0` and latency. `rate` caps requests/s over all connections. */
async function drive(
  url: string,
  headers: Record<string, string>,
  next: NextRequest,
  seconds: number,
  rate: number | undefined,
  t0 = Date.now(),
): Promise<Sample[]> {
  const samples: Sample[] = [];
  await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        headers,
        ...(rate === undefined ? {} : { overallRate: rate }),
        requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }],
      },
      (error, out) => (error ? reject(error) : resolve(out)),
    );
    instance.on('response', (_client, status, _bytes, responseTime) =>
      samples.push({ atMs: Date.now() - t0, latencyMs: responseTime, ok: status >= 200 && status < 300 }),
    );
  });
  return samples;
}

function windowsOf(samples: Sample[], rss: RssSample[], windowSeconds: number, seconds: number) {
  const out = [];
  for (let from = 0; from + windowSeconds <= seconds + 0.001; from += windowSeconds) {
    const lo = from * 1000;
    const hi = (from + windowSeconds) * 1000;
    const inside = samples.filter((s) => s.atMs >= lo && s.atMs < hi);
    const last = rss.filter((r) => r.atMs < hi).at(-1);
    const before = rss.filter((r) => r.atMs < lo).at(-1);
    const cpuMs = (last?.cpuMs ?? Number.NaN) - (before?.cpuMs ?? 0);
    out.push({
      fromSecond: from,
      responses: inside.length,
      requestsPerSecond: Math.round(inside.filter((s) => s.ok).length / windowSeconds),
      p50Ms:
        inside.length === 0
          ? 0
          : quantile(
              inside.map((s) => s.latencyMs),
              0.5,
            ),
      p99Ms:
        inside.length === 0
          ? 0
          : quantile(
              inside.map((s) => s.latencyMs),
              0.99,
            ),
      rssMb: last === undefined ? null : round(last.bytes / 2 ** 20, 1),
      serverCpuMsPerResponse:
        inside.length === 0 || Number.isNaN(cpuMs) ? null : round(cpuMs / inside.length, 3),
      anonMb: last === undefined ? null : round(last.anonBytes / 2 ** 20, 1),
      fileMb: last === undefined ? null : round(last.fileBytes / 2 ** 20, 1),
    });
  }
  return out;
}

interface RssSample {
  atMs: number;
  bytes: number;
  /** RssAnon: the heap (V8's and malloc's, SQLite's page caches among it). */
  anonBytes: number;
  /** RssFile: mapped files (the binary, shared libraries, SQLite's -shm). */
  fileBytes: number;
  /** The server's CPU time so far (user + system, all threads), from /proc; null off Linux. */
  cpuMs: number | null;
}

/** VmRSS, RssAnon and RssFile of a live process from /proc, in bytes; null off Linux or once it is gone. */
function resident(pid: number | undefined): Omit<RssSample, 'atMs' | 'cpuMs'> | null {
  if (pid === undefined) return null;
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) =>
      Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? Number.NaN) * 1024;
    const bytes = kb('VmRSS');
    return Number.isNaN(bytes) ? null : { bytes, anonBytes: kb('RssAnon'), fileBytes: kb('RssFile') };
  } catch {
    return null;
  }
}
