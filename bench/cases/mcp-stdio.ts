/**
 * mcp_stdio_search: `search_memory` round trips through the MCP SDK's Client to `memledger mcp --as agent:bench`
 * spawned over stdio, on the serving home, against the bare library call (`session.search`) with the same
 * queries in this process, as the same principal. A third series, the search with the corrections the tool
 * asks for, splits the overhead into the tool's own work and the protocol and process hop. A fourth, the same
 * client calling a bare server over stdio that replays memledger's tool list and one of its answers
 * (children/echo-stdio.mjs), is the hop alone: a server that did no work, in wall time and in its own CPU.
 */
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Context } from '../context.ts';
import { childNodeFlags, mcpChildEnv, processCpuMs } from '../procs.ts';
import { atMost, type BenchResult, result } from '../report.ts';
import { BENCH_AGENT, MEMLEDGER_BIN } from '../serving.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ratio, round, stopwatch, summarize } from '../stats.ts';

const TARGET_P50_MS = 3;
/** Issue 14: the stdio round trip over the bare library call, at p50. */
const TARGET_RATIO = 1.4;
const ECHO_SERVER = fileURLToPath(new URL('../children/echo-stdio.mjs', import.meta.url));

export async function benchMcpStdio(ctx: Context): Promise<BenchResult> {
  const serving = await ctx.serving();
  const { mcpCalls, mcpWarmup } = ctx.settings;
  const queries = serving.dataset.queries(mcpWarmup + mcpCalls, 3);

  ctx.log(`mcp_stdio_search: spawning memledger mcp --as ${BENCH_AGENT}`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...childNodeFlags(), MEMLEDGER_BIN, '--home', serving.home, 'mcp', '--as', BENCH_AGENT],
    // The SDK's default environment (a few safe variables, so no MEMLEDGER_* of this shell leaks in), no embedder.
    env: mcpChildEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString('utf8')).slice(-4_000);
  });
  const client = new Client({ name: 'memledger-bench', version: '1.0.0' });
  const started = performance.now();
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`mcp_stdio_search: the server did not start: ${(error as Error).message}\n${stderr}`);
  }
  const startupMs = performance.now() - started;
  const echo = new Client({ name: 'memledger-bench', version: '1.0.0' });
  let echoTransport: StdioClientTransport | undefined;
  try {
    // The echo replays memledger's tool list and its answer to the first query (children/echo-stdio.mjs).
    const { tools } = await client.listTools();
    const recorded = await client.callTool({
      name: 'search_memory',
      arguments: { query: queries[0]!.text, scopes: [queries[0]!.scope] },
    });
    const replayedChars = JSON.stringify(recorded).length;
    const replay = join(ctx.dir, 'mcp-echo-replay.json');
    writeFileSync(replay, JSON.stringify({ tools, result: recorded }));
    echoTransport = new StdioClientTransport({
      command: process.execPath,
      args: [ECHO_SERVER, replay],
      env: mcpChildEnv(),
      stderr: 'pipe',
    });
    await echo.connect(echoTransport);
    await echo.listTools();
    ctx.log(`mcp_stdio_search: ${mcpWarmup} warm-up + ${mcpCalls} measured calls per side`);
    const series = { mcp: new Series(), library: new Series(), tool: new Series(), echo: new Series() };
    let hits = 0;
    let withHits = 0;
    let serverCpuStart: number | null = null;
    let echoCpuStart: number | null = null;
    for (let q = 0; q < queries.length; q++) {
      const query = queries[q]!;
      const measured = q >= mcpWarmup;
      if (q === mcpWarmup) {
        serverCpuStart = processCpuMs(transport.pid);
        echoCpuStart = processCpuMs(echoTransport.pid);
      }
      let viaMcp = -1;
      let viaLibrary = -1;
      const runs = [
        async () => {
          const s = stopwatch();
          const out = await client.callTool({
            name: 'search_memory',
            arguments: { query: query.text, scopes: [query.scope] },
          });
          const t = s();
          if (out.isError === true) throw new Error(`search_memory failed: ${JSON.stringify(out.content)}`);
          viaMcp = (out.structuredContent as { results: unknown[] }).results.length;
          if (measured) series.mcp.add(t);
        },
        async () => {
          const s = stopwatch();
          await echo.callTool({
            name: 'search_memory',
            arguments: { query: query.text, scopes: [query.scope] },
          });
          const t = s();
          if (measured) series.echo.add(t);
        },
        async () => {
          const s = stopwatch();
          const found = await serving.agent.search({ query: query.text, scopes: [query.scope] });
          const t = s();
          viaLibrary = found.hits.length;
          if (measured) series.library.add(t);
        },
        async () => {
          // What the tool's handler runs in the server: one search call that also reads the caller's recent
          // corrections (withCorrections, as search_memory asks for an agent).
          const s = stopwatch();
          await serving.agent.search({ query: query.text, scopes: [query.scope], withCorrections: true });
          const t = s();
          if (measured) series.tool.add(t);
        },
      ];
      // Rotate who goes first, so drift and caches fall on every side alike.
      for (let k = 0; k < runs.length; k++) await runs[(q + k) % runs.length]!();
      if (viaMcp !== viaLibrary) {
        throw new Error(
          `mcp_stdio_search: "${query.text}" in ${query.scope}: ${viaMcp} hits over MCP, ${viaLibrary} in-process`,
        );
      }
      if (measured) {
        hits += viaMcp;
        if (viaMcp > 0) withHits++;
      }
    }
    const perCall = (start: number | null, end: number | null) =>
      start === null || end === null ? null : round((end - start) / mcpCalls);
    const serverCpuMean = perCall(serverCpuStart, processCpuMs(transport.pid));
    const echoCpuMean = perCall(echoCpuStart, processCpuMs(echoTransport.pid));

    const m = series.mcp.summary();
    const lib = series.library.summary();
    const tool = series.tool.summary();
    const hop = series.echo.summary();
    ctx.log(
      `mcp_stdio_search: p50 ${m.p50Ms} ms (server CPU ${serverCpuMean} ms a call), library ${lib.p50Ms} ms, echo hop ${hop.p50Ms} ms (server CPU ${echoCpuMean} ms a call)`,
    );
    return result({
      description: `MCP search_memory round trips (SDK Client over StdioClientTransport) to \`memledger mcp --as ${BENCH_AGENT}\` spawned on the serving home of ${serving.memories.toLocaleString('en')} memories, one scope per query, vs the bare library call session.search() with the same queries as the same principal in this process`,
      memledger: {
        ...m,
        serverCpuMeanMs: serverCpuMean,
        startupMs: round(startupMs, 1),
      },
      raw: { ...lib },
      ratio: ratio(m.p50Ms, lib.p50Ms),
      ratios: {
        p50: ratio(m.p50Ms, lib.p50Ms),
        p99: ratio(m.p99Ms, lib.p99Ms),
        echoHopP50OverLibrary: ratio(hop.p50Ms, lib.p50Ms),
      },
      target: `p50 <= ${TARGET_P50_MS} ms and <= ${TARGET_RATIO}x the library call`,
      checks: [
        atMost('p50Ms', m.p50Ms, TARGET_P50_MS),
        atMost('ratio p50', ratio(m.p50Ms, lib.p50Ms), TARGET_RATIO),
      ],
      notes: {
        baseline: 'raw is the in-process library call (session.search as agent:bench), not node:sqlite',
        memories: serving.memories,
        scopes: serving.scopes,
        warmupPerSide: mcpWarmup,
        protocolOverheadP50Ms: round(m.p50Ms - lib.p50Ms),
        toolWorkInProcess: tool,
        transportOverheadP50Ms: round(m.p50Ms - tool.p50Ms),
        echoHop: { ...hop, serverCpuMeanMs: echoCpuMean, replayedResultChars: replayedChars },
        echoHopOverheadP50Ms: round(m.p50Ms - hop.p50Ms),
        cpu: 'memledger.cpuP50Ms is the client side (this process); serverCpuMeanMs is the server process per call, from /proc at 10 ms ticks over the whole run (echoHop.serverCpuMeanMs the same for the echo server)',
        queriesWithHits: withHits,
        meanHits: round(hits / mcpCalls, 2),
        hitCountsAgree: true,
      },
    });
  } finally {
    await client.close();
    await echo.close();
  }
}

/** Wall and CPU samples of one side. */
class Series {
  readonly wall: number[] = [];
  readonly cpu: number[] = [];
  add(t: { wallMs: number; cpuMs: number }): void {
    this.wall.push(t.wallMs);
    this.cpu.push(t.cpuMs);
  }
  summary() {
    return summarize(this.wall, this.cpu);
  }
}
