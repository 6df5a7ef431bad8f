/**
 * http_search: search throughput over loopback. autocannon drives POST /v1/search with a rotating set of
 * bodies at `memledger serve` (bearer token, audit, ranking) started as a child on the serving home, and at a
 * bare node:http child running the raw scoped FTS5 query on the same rows. Rounds alternate (memledger, raw,
 * raw, memledger) so load from the rest of the machine falls on both.
 */
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Context } from '../context.ts';
import { childNodeFlags, cleanEnv, processCpuMs, startProcess, stopProcess } from '../procs.ts';
import type { BenchResult } from '../report.ts';
import { atLeast, atMost, result } from '../report.ts';
import { MEMLEDGER_BIN } from '../serving.ts';
import { quantile, ratio, round } from '../stats.ts';

const RAW_SERVER = fileURLToPath(new URL('../children/raw-http-server.ts', import.meta.url));
/** Distinct request bodies the load cycles through: enough that no single query's pages dominate. */
const BODIES = 500;
/** Issue 14: memledger's throughput as a share of the bare server's, and its p99. */
const TARGET_SHARE = 0.6;
const TARGET_P99_MS = 20;
/** Bodies whose hit counts are compared between the two servers before any load. */
const CHECKED = 20;

export interface Side {
  name: 'memledger' | 'raw';
  url: string;
  child: ChildProcess;
  headers: Record<string, string>;
  /** The next body this side sends: each side walks the same sequence, carried on from run to run. */
  next: number;
}

export interface Tally {
  latencies: number[];
  seconds: number;
  status: Record<string, number>;
  errors: number;
  timeouts: number;
  serverCpuMs: number | null;
  clientCpuMs: number;
}

export async function benchHttpSearch(ctx: Context): Promise<BenchResult> {
  const serving = await ctx.serving();
  const { httpSeconds, httpWarmupSeconds, httpConnections } = ctx.settings;
  const queries = serving.dataset.queries(BODIES, 4);
  const bodies = queries.map((q) => JSON.stringify({ query: q.text, scopes: [q.scope] }));

  ctx.log('http_search: starting memledger serve and the bare node:http server');
  const env = cleanEnv();
  const started = await Promise.all([
    startProcess(
      process.execPath,
      [...childNodeFlags(), MEMLEDGER_BIN, '--home', serving.home, 'serve', '--port', '0'],
      /memledger serving (http:\/\/\S+)/,
      60_000,
      env,
    ),
    startProcess(process.execPath, [RAW_SERVER, serving.rawDb], /listening (http:\/\/\S+)/, 60_000, env),
  ]);
  const json = { 'content-type': 'application/json' };
  const mine: Side = {
    name: 'memledger',
    url: started[0].match[1]!,
    child: started[0].child,
    headers: { ...json, authorization: `Bearer ${serving.token}` },
    next: 0,
  };
  const raw: Side = {
    name: 'raw',
    url: started[1].match[1]!,
    child: started[1].child,
    headers: json,
    next: 0,
  };
  try {
    await compareHits(mine, raw, bodies.slice(0, CHECKED));
    ctx.log(
      `http_search: ${httpWarmupSeconds} s warm-up, then ${httpSeconds} s per side in 2 rounds, ${httpConnections} connections`,
    );
    await load(mine, bodies, httpWarmupSeconds, httpConnections);
    await load(raw, bodies, httpWarmupSeconds, httpConnections);
    const tallies = { memledger: [] as Tally[], raw: [] as Tally[] };
    for (const side of [mine, raw, raw, mine]) {
      tallies[side.name].push(await load(side, bodies, httpSeconds / 2, httpConnections));
    }
    const m = combine(tallies.memledger);
    const r = combine(tallies.raw);
    return result({
      description: `POST /v1/search on loopback, driven by autocannon (${httpConnections} connections, ${BODIES} rotating bodies of 3-term one-scope queries) at \`memledger serve\` on the serving home of ${serving.memories.toLocaleString('en')} memories with a read-only service token, vs a bare node:http server in a child process running the raw scoped FTS5 query on the raw DB holding the same rows`,
      memledger: m,
      raw: r,
      // Cost per request: the raw server's throughput over memledger's.
      ratio: ratio(r.requestsPerSecond, m.requestsPerSecond),
      ratios: {
        p50: ratio(m.p50Ms, r.p50Ms),
        p99: ratio(m.p99Ms, r.p99Ms),
        ...(m.serverCpuMsPerRequest !== null && r.serverCpuMsPerRequest !== null
          ? { serverCpuPerRequest: ratio(m.serverCpuMsPerRequest, r.serverCpuMsPerRequest) }
          : {}),
      },
      target: `>= ${TARGET_SHARE * 100}% of bare node:http's requests/s at ${httpConnections} connections, p99 <= ${TARGET_P99_MS} ms`,
      checks: [
        atLeast('share of raw requests/s', round(m.requestsPerSecond / r.requestsPerSecond, 2), TARGET_SHARE),
        atMost('p99Ms', m.p99Ms, TARGET_P99_MS),
      ],
      notes: {
        memories: serving.memories,
        secondsPerSide: httpSeconds,
        rounds: 'memledger, raw, raw, memledger',
        warmupSecondsPerSide: httpWarmupSeconds,
        loadGenerator: `autocannon ${autocannonVersion()} in the bench process`,
        latency: 'every response time as autocannon measured it (ms, unrounded), not its integer histogram',
        cpu: 'serverCpuMsPerRequest is the server child from /proc (10 ms ticks) over the measured rounds; loadGeneratorCpuMsPerRequest is the bench process running autocannon',
        raw: 'no auth, no validation, no audit, no ranking beyond bm25; the response is the 10 rows as JSON',
        hitCountsAgreeOn: CHECKED,
      },
    });
  } finally {
    await Promise.all([stopProcess(mine.child), stopProcess(raw.child)]);
  }
}

/** The same bodies through both servers, one at a time: both must answer 200 with the same number of hits. */
async function compareHits(mine: Side, raw: Side, bodies: string[]): Promise<void> {
  for (const body of bodies) {
    const counts: number[] = [];
    for (const side of [mine, raw]) {
      const res = await fetch(`${side.url}/v1/search`, { method: 'POST', headers: side.headers, body });
      const text = await res.text();
      if (res.status !== 200)
        throw new Error(`http_search: ${side.name} answered ${res.status}: ${text.slice(0, 300)}`);
      counts.push((JSON.parse(text) as { hits: unknown[] }).hits.length);
    }
    if (counts[0] !== counts[1]) {
      throw new Error(
        `http_search: ${body}: ${counts[0]} hits from memledger, ${counts[1]} from the raw server`,
      );
    }
  }
}

/** One autocannon run of `seconds` against a side, every response time kept. */
export async function load(
  side: Side,
  bodies: string[],
  seconds: number,
  connections: number,
): Promise<Tally> {
  const latencies: number[] = [];
  const serverBefore = processCpuMs(side.child.pid);
  const clientBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const res = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: side.url,
        connections,
        duration: seconds,
        headers: side.headers,
        requests: [
          {
            method: 'POST',
            path: '/v1/search',
            // One counter across connections: consecutive requests carry consecutive bodies.
            setupRequest: (req) => ({ ...req, body: bodies[side.next++ % bodies.length]! }),
          },
        ],
      },
      (error, out) => (error ? reject(error) : resolve(out)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  const wallSeconds = (performance.now() - wallBefore) / 1000;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = processCpuMs(side.child.pid);
  const status: Record<string, number> = {};
  for (const [code, s] of Object.entries(res.statusCodeStats ?? {})) status[code] = s.count ?? 0;
  return {
    latencies,
    seconds: Math.min(wallSeconds, res.duration),
    status,
    errors: res.errors,
    timeouts: res.timeouts,
    serverCpuMs: serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore,
    clientCpuMs: (client.user + client.system) / 1000,
  };
}

export function combine(tallies: Tally[]) {
  const latencies = tallies.flatMap((t) => t.latencies);
  const seconds = tallies.reduce((s, t) => s + t.seconds, 0);
  const status: Record<string, number> = {};
  for (const t of tallies)
    for (const [code, n] of Object.entries(t.status)) status[code] = (status[code] ?? 0) + n;
  const ok = Object.entries(status).reduce((s, [code, n]) => s + (code.startsWith('2') ? n : 0), 0);
  const serverCpu = tallies.some((t) => t.serverCpuMs === null)
    ? null
    : tallies.reduce((s, t) => s + t.serverCpuMs!, 0);
  const clientCpu = tallies.reduce((s, t) => s + t.clientCpuMs, 0);
  const responses = latencies.length;
  return {
    responses,
    seconds: round(seconds, 2),
    requestsPerSecond: Math.round(ok / seconds),
    p50Ms: quantile(latencies, 0.5),
    p90Ms: quantile(latencies, 0.9),
    p99Ms: quantile(latencies, 0.99),
    maxMs: quantile(latencies, 1),
    non2xx: responses - ok,
    statusCodes: status,
    errors: tallies.reduce((s, t) => s + t.errors, 0),
    timeouts: tallies.reduce((s, t) => s + t.timeouts, 0),
    serverCpuMsPerRequest: serverCpu === null ? null : round(serverCpu / Math.max(1, responses)),
    loadGeneratorCpuMsPerRequest: round(clientCpu / Math.max(1, responses)),
  };
}

export function autocannonVersion(): string {
  try {
    return (createRequire(import.meta.url)('autocannon/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
