/**
 * http_search on Postgres: search throughput of `memledger serve` replicas on one database. autocannon drives
 * POST /v1/search (the same rotating 3-term one-scope bodies as the SQLite case) at one replica with all the
 * connections, then at three replicas with the connections split between them, as a round-robin load balancer
 * would. Rounds alternate (one, three, three, one) so load from the rest of the machine falls on both.
 * The baseline here is the single replica: issue 10's target is three replicas' throughput over one's.
 */
import type { ChildProcess } from 'node:child_process';
import type { Context } from '../context.ts';
import { cleanEnv, startProcess, stopProcess } from '../procs.ts';
import { atLeast, type BenchResult, result } from '../report.ts';
import { MEMLEDGER_BIN } from '../serving.ts';
import { postmasterPid, serverCpuMs } from '../pg-cpu.ts';
import { ratio, round } from '../stats.ts';
import { autocannonVersion, combine, load, type Side, type Tally } from './http-search.ts';

const BODIES = 500;
const REPLICAS = 3;
/** Bodies every replica must answer alike (200, same hit count) before any load. */
const CHECKED = 20;
const TARGET_SCALING = 2;

export async function benchHttpReplicas(ctx: Context): Promise<BenchResult> {
  const { httpSeconds, httpWarmupSeconds, httpConnections } = ctx.settings;
  const bodies = ctx.dataset
    .queries(BODIES, 4)
    .map((q) => JSON.stringify({ query: q.text, scopes: [q.scope] }));
  const tokens = await ctx.ledger.openTokens();
  let token: string;
  try {
    token = (
      await tokens.create(
        { name: 'bench', kind: 'service', roles: ['reader'], grants: ['*:r'] },
        'human:operator',
      )
    ).secret;
  } finally {
    await tokens.close();
  }

  ctx.log(`http_search: starting ${REPLICAS} memledger serve replicas on the database`);
  const env = cleanEnv();
  const children: ChildProcess[] = [];
  try {
    const started = await Promise.all(
      Array.from({ length: REPLICAS }, () =>
        startProcess(
          process.execPath,
          [MEMLEDGER_BIN, '--store', ctx.store, 'serve', '--port', '0'],
          /memledger serving (http:\/\/\S+)/,
          60_000,
          env,
        ),
      ),
    );
    for (const s of started) children.push(s.child);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const sides: Side[] = started.map((s) => ({
      name: 'memledger',
      url: s.match[1]!,
      child: s.child,
      headers,
      next: 0,
    }));
    const hitCounts = await sameAnswers(sides, bodies.slice(0, CHECKED));

    // Connections split as evenly as they go (10 → 4, 3, 3); each replica walks its own share of the bodies.
    const shares = sides.map(
      (_, i) => Math.floor(httpConnections / REPLICAS) + (i < httpConnections % REPLICAS ? 1 : 0),
    );
    const one = (seconds: number) => load(sides[0]!, bodies, seconds, httpConnections);
    const three = async (seconds: number) =>
      merge(await Promise.all(sides.map((side, i) => load(side, bodies, seconds, shares[i]!))));

    ctx.log(
      `http_search: ${httpWarmupSeconds} s warm-up, then ${httpSeconds} s per side in 2 rounds, ${httpConnections} connections`,
    );
    await one(httpWarmupSeconds);
    await three(httpWarmupSeconds);
    const tallies = { one: [] as Tally[], three: [] as Tally[] };
    // Where the cores go: the database server's CPU over each side's rounds (null unless it runs here).
    const postmaster = await postmasterPid(ctx.database!.url);
    const dbCpu = { one: 0 as number | null, three: 0 as number | null };
    const measureRound = async (side: 'one' | 'three') => {
      const before = serverCpuMs(postmaster);
      tallies[side].push(await (side === 'one' ? one : three)(httpSeconds / 2));
      const after = serverCpuMs(postmaster);
      const used = dbCpu[side];
      dbCpu[side] = before === null || after === null || used === null ? null : used + after - before;
    };
    await measureRound('one');
    await measureRound('three');
    await measureRound('three');
    await measureRound('one');
    const single = combine(tallies.one);
    const replicated = combine(tallies.three);
    const cores = (side: 'one' | 'three', c: ReturnType<typeof combine>) => {
      const t = tallies[side];
      const seconds = t.reduce((n, x) => n + x.seconds, 0);
      const responses = t.reduce((n, x) => n + x.latencies.length, 0);
      const db = dbCpu[side];
      const replicas = c.serverCpuMsPerRequest === null ? null : c.serverCpuMsPerRequest * responses;
      const client = c.loadGeneratorCpuMsPerRequest * responses;
      return {
        databaseCpuMsPerRequest: db === null ? null : round(db / Math.max(1, responses)),
        // Cores busy on average: replicas + database + load generator, over the side's wall time.
        coresBusy:
          db === null || replicas === null
            ? null
            : round((db + replicas + client) / 1000 / Math.max(seconds, 1e-9)),
      };
    };
    const scaling = ratio(replicated.requestsPerSecond, single.requestsPerSecond);
    return result({
      description: `POST /v1/search on loopback, driven by autocannon (${httpConnections} connections, ${BODIES} rotating bodies of 3-term one-scope queries) at ${REPLICAS} \`memledger serve --store postgres://…\` replicas on one database holding ${ctx.settings.scale.toLocaleString('en')} memories, connections split between them, vs one replica taking all ${httpConnections}; a read-only service token`,
      memledger: {
        replicas: REPLICAS,
        connectionsPerReplica: shares,
        ...replicated,
        ...cores('three', replicated),
      },
      raw: { replicas: 1, ...single, ...cores('one', single) },
      // Cost per request of the single replica over three: below 1 means three replicas serve more.
      ratio: ratio(single.requestsPerSecond, replicated.requestsPerSecond),
      ratios: {
        scaling,
        p50: ratio(replicated.p50Ms, single.p50Ms),
        p99: ratio(replicated.p99Ms, single.p99Ms),
      },
      target: `${REPLICAS} replicas >= ${TARGET_SCALING}x one replica's requests/s`,
      checks: [atLeast('scaling', scaling, TARGET_SCALING)],
      notes: {
        memories: ctx.settings.scale,
        secondsPerSide: httpSeconds,
        rounds: 'one, three, three, one',
        warmupSecondsPerSide: httpWarmupSeconds,
        loadGenerator: `autocannon ${autocannonVersion()} in the bench process, one instance per replica`,
        cpu: 'serverCpuMsPerRequest sums the replicas (from /proc); databaseCpuMsPerRequest is the PostgreSQL server (its postmaster and every child, from /proc, when it runs on this machine); coresBusy adds the two and the load generator over the wall time: the database server, the replicas and the load generator share the machine’s cores',
        baseline:
          'the raw side of this entry is one replica, not a bare server: the target is how replicas scale on one database',
        hitCountsAgreeOn: CHECKED,
        meanCheckedHits: hitCounts,
      },
    });
  } finally {
    await Promise.all(children.map((c) => stopProcess(c)));
  }
}

/** Every replica answers the same bodies 200 with the same number of hits; returns the mean hit count. */
async function sameAnswers(sides: Side[], bodies: string[]): Promise<number> {
  let total = 0;
  for (const body of bodies) {
    const counts: number[] = [];
    for (const side of sides) {
      const res = await fetch(`${side.url}/v1/search`, { method: 'POST', headers: side.headers, body });
      const text = await res.text();
      if (res.status !== 200)
        throw new Error(`http_search: a replica answered ${res.status}: ${text.slice(0, 300)}`);
      counts.push((JSON.parse(text) as { hits: unknown[] }).hits.length);
    }
    if (new Set(counts).size !== 1)
      throw new Error(`http_search: replicas disagree on ${body}: ${counts.join(', ')}`);
    total += counts[0]!;
  }
  return Math.round((total / bodies.length) * 100) / 100;
}

/** Concurrent runs against several replicas as one run: responses summed over the longest wall time. */
function merge(runs: Tally[]): Tally {
  const status: Record<string, number> = {};
  for (const t of runs)
    for (const [code, n] of Object.entries(t.status)) status[code] = (status[code] ?? 0) + n;
  return {
    latencies: runs.flatMap((t) => t.latencies),
    seconds: Math.max(...runs.map((t) => t.seconds)),
    status,
    errors: runs.reduce((s, t) => s + t.errors, 0),
    timeouts: runs.reduce((s, t) => s + t.timeouts, 0),
    serverCpuMs: runs.some((t) => t.serverCpuMs === null)
      ? null
      : runs.reduce((s, t) => s + t.serverCpuMs!, 0),
    // The runs overlap in one process: each measured the same process's CPU over the same interval.
    clientCpuMs: Math.max(...runs.map((t) => t.clientCpuMs)),
  };
}
