/**
 * A driver for the MCP server's own CPU per search call (`node bench/mcp-profile.ts build|measure`): `build` makes a
 * serving home of PROFILE_LINES memories once (PROFILE_DIR); `measure` serves it in this process over in-memory
 * streams (the stdio server as `memledger mcp` runs it, minus the pipe) and alternates, query by query, the
 * tools/call line through the server with the library's search, with and without corrections, printing CPU µs per
 * call of each, then times the server's steps one by one on a real request and result.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { openLedger } from '../src/index.ts';
import { checkMessage } from '../src/surfaces/mcp/message-guard.ts';
import { serveStdio } from '../src/surfaces/mcp/stdio.ts';
import { DATA_SHAPE } from './context.ts';
import { Dataset } from './data.ts';
import { CLOCK_TICKS, childNodeFlags, mcpChildEnv, processCpuMs } from './procs.ts';
import { BENCH_AGENT, buildServingHome, MEMLEDGER_BIN } from './serving.ts';
import { parseSettings } from './args.ts';

const n = Number(process.env.PROFILE_LINES ?? 100_000);
const calls = Number(process.env.PROFILE_CALLS ?? 2_000);
const warm = Number(process.env.PROFILE_WARMUP ?? 200);
const fixture = process.env.PROFILE_DIR ?? join(tmpdir(), `memledger-mcpprof-${n}`);
const dataset = new Dataset({
  memories: n,
  scopes: Math.max(10, Math.round(n / 1000)),
  seed: 1,
  ...DATA_SHAPE,
});

async function build(): Promise<void> {
  mkdirSync(fixture, { recursive: true });
  const settings = parseSettings(['--scale', String(n)], {});
  const built = await buildServingHome({ settings, dir: fixture, shape: DATA_SHAPE, log: console.error });
  built.ledger.close();
}

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function measure(): Promise<void> {
  const home = join(fixture, 'serving', 'home');
  if (!existsSync(home)) throw new Error(`no home at ${home}: run build first`);
  const ledger = openLedger({ home });
  const agent = ledger.as(ledger.principal(BENCH_AGENT), { surface: 'library', client: 'profile' });
  const stdin = new PassThrough();
  const rpc = lineRpc((line) => stdin.write(line));
  const stdout = new Writable({
    decodeStrings: false,
    write(chunk: string, _enc, done) {
      rpc.receive(chunk);
      done();
    },
  });
  const principal = ledger.principal(BENCH_AGENT);
  const serving = serveStdio({ ledger, identity: () => ({ principal }), stdin, stdout, log: () => {} });
  const send = rpc.send;
  await rpc.initialise();

  const queries = dataset.queries(warm + calls, 3);
  const sums = { mcp: 0, library: 0, tool: 0 };
  let lastLine = '';
  let lastRequest: object = {};
  for (let q = 0; q < queries.length; q++) {
    const query = queries[q]!;
    const sides: [keyof typeof sums, () => Promise<unknown>][] = [
      [
        'mcp',
        async () => {
          lastRequest = {
            method: 'tools/call',
            params: { name: 'search_memory', arguments: { query: query.text, scopes: [query.scope] } },
          };
          lastLine = await send(lastRequest);
        },
      ],
      ['library', () => agent.search({ query: query.text, scopes: [query.scope] })],
      ['tool', () => agent.search({ query: query.text, scopes: [query.scope], withCorrections: true })],
    ];
    for (let k = 0; k < sides.length; k++) {
      const [name, run] = sides[(q + k) % sides.length]!;
      const c = cpuUs();
      await run();
      if (q >= warm) sums[name] += cpuUs() - c;
    }
  }
  const per = (us: number) => Math.round(us / calls);
  console.log(
    `CPU µs per call over ${calls} calls (${n} memories): server in process ${per(sums.mcp)}, library ${per(sums.library)}, library with corrections ${per(sums.tool)}; server − library ${per(sums.mcp - sums.library)}`,
  );

  // Steps on the last real request and result, each repeated.
  const response = JSON.parse(lastLine) as { result: { structuredContent: unknown } };
  const request = { ...lastRequest, jsonrpc: '2.0', id: rpc.lastId() };
  const requestLine = JSON.stringify(request);
  const reps = 2_000;
  const step = (name: string, f: () => unknown) => {
    for (let i = 0; i < 100; i++) f();
    const c = cpuUs();
    for (let i = 0; i < reps; i++) f();
    console.log(`  ${name.padEnd(52)} ${((cpuUs() - c) / reps).toFixed(1)} µs`);
  };
  console.log(`steps (response ${lastLine.length} bytes, request ${requestLine.length} bytes):`);
  step('JSON.parse(request line)', () => JSON.parse(requestLine));
  step('checkMessage (guard: method schema + JSON-RPC schema)', () => checkMessage(request));
  step('JSONRPCMessageSchema.safeParse(request)', () => JSONRPCMessageSchema.safeParse(request));
  step('CallToolRequestSchema.safeParse(request)', () => CallToolRequestSchema.safeParse(request));
  step('CallToolResultSchema.safeParse(result)', () => CallToolResultSchema.safeParse(response.result));
  step('JSON.stringify(structuredContent)', () => JSON.stringify(response.result.structuredContent));
  step('JSON.stringify(response)', () => JSON.stringify(response));
  stdin.end();
  await serving;
  ledger.close();
}

/**
 * `process`: `memledger mcp` (or, with PROFILE_ECHO=1, the echo child) spawned as the bench spawns it and driven
 * by raw lines, one call at a time; the child's CPU per call from /proc. PROFILE_INTERLEAVE=1 runs a library
 * search in this process between calls, as the bench's rotation does, so the server idles between its calls.
 * PROFILE_B_ENV=NAME=VALUE,… also starts a second server with those variables and takes turns with it, call by
 * call, so an A/B comparison shares one run's load. PROFILE_B_FLAGS: node flags for the second server only;
 * PROFILE_B_BIN: its memledger.js (a copy of the code before a change in A, PROFILE_A_BIN, and this one in B).
 */
async function processMode(): Promise<void> {
  const home = join(fixture, 'serving', 'home');
  const echo = process.env.PROFILE_ECHO === '1';
  const interleave = process.env.PROFILE_INTERLEAVE === '1';
  const words = (v: string | undefined) => (v ?? '').split(' ').filter(Boolean);
  // PROFILE_NODE_FLAGS: more flags for the child, e.g. `--perf-basic-prof` to read its CPU samples with perf.
  const flags = [...childNodeFlags(), ...words(process.env.PROFILE_NODE_FLAGS)];
  const script = (bin: string) =>
    echo
      ? [fileURLToPath(new URL('./children/echo-stdio.mjs', import.meta.url))]
      : [bin, '--home', home, 'mcp', '--as', BENCH_AGENT];
  const bEnv = process.env.PROFILE_B_ENV;
  const bBin = process.env.PROFILE_B_BIN;
  // PROFILE_A_BIN: the first server's memledger.js (default this checkout's), e.g. a copy of the code before a change.
  const aBin = process.env.PROFILE_A_BIN ?? MEMLEDGER_BIN;
  const children = [await startChild('A', [...flags, ...script(aBin)], mcpChildEnv())];
  if (bEnv !== undefined || bBin !== undefined) {
    const extra = Object.fromEntries(
      (bEnv ?? '')
        .split(',')
        .filter(Boolean)
        .map((kv) => kv.split('=') as [string, string]),
    );
    children.push(
      await startChild('B', [...flags, ...words(process.env.PROFILE_B_FLAGS), ...script(bBin ?? aBin)], {
        ...mcpChildEnv(),
        ...extra,
      }),
    );
  }
  if (process.env.PROFILE_PID_FILE !== undefined) {
    // Time for a profiler to attach to the child before the calls.
    writeFileSync(process.env.PROFILE_PID_FILE, String(children[0]!.pid));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  const ledger = interleave ? openLedger({ home }) : null;
  const agent = ledger?.as(ledger.principal(BENCH_AGENT), { surface: 'library', client: 'profile' });
  const queries = dataset.queries(warm + calls, 3);
  // PROFILE_RSS_EVERY=N: each child's VmRSS every N calls, on stderr (for a long-lived server's growth).
  const rssEvery = Number(process.env.PROFILE_RSS_EVERY ?? 0);
  for (let q = 0; q < queries.length; q++) {
    const query = queries[q]!;
    if (rssEvery > 0 && q > 0 && q % rssEvery === 0) {
      console.error(`after ${q} calls: ${children.map((c) => `${c.name} ${c.status('VmRSS')}`).join(', ')}`);
    }
    for (let k = 0; k < children.length; k++) {
      const c = children[(q + k) % children.length]!;
      if (q === warm) c.mark();
      const line = await c.send({
        method: 'tools/call',
        params: echo
          ? { name: 'echo', arguments: { bytes: 7_000 } }
          : { name: 'search_memory', arguments: { query: query.text, scopes: [query.scope] } },
      });
      if (q >= warm) c.bytes += line.length;
      if (agent !== undefined) {
        await agent.search({ query: query.text, scopes: [query.scope] });
        await agent.search({ query: query.text, scopes: [query.scope], withCorrections: true });
      }
    }
  }
  for (const c of children) {
    const { cpu, sys } = c.used();
    console.log(
      `${c.name} ${echo ? 'echo child' : 'memledger mcp'}${interleave ? ' (interleaved)' : ''}: ${Math.round((cpu * 1000) / calls)} µs CPU per call (${Math.round((sys * 1000) / calls)} of it in the kernel) over ${calls} calls, ${Math.round(c.bytes / calls)} bytes per answer, VmHWM ${c.status('VmHWM')}, VmRSS ${c.status('VmRSS')}`,
    );
    await c.stop();
  }
  ledger?.close();
}

/**
 * JSON-RPC over newline-delimited lines, one request at a time: `receive` takes what the server wrote, `send`
 * resolves with the next whole line, `initialise` runs the MCP handshake and lists the tools.
 */
function lineRpc(write: (line: string) => void) {
  let out = '';
  let answered: ((line: string) => void) | null = null;
  let id = 0;
  const send = (message: object): Promise<string> =>
    new Promise((resolve) => {
      answered = resolve;
      write(`${JSON.stringify({ ...message, jsonrpc: '2.0', id: ++id })}\n`);
    });
  return {
    send,
    lastId: () => id,
    receive(chunk: string) {
      out += chunk;
      if (out.endsWith('\n')) {
        const line = out;
        out = '';
        answered?.(line);
      }
    },
    async initialise() {
      await send({
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'profile', version: '1' },
        },
      });
      write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      await send({ method: 'tools/list' });
    },
  };
}

/** One server child driven by raw lines: initialised, then one request at a time. */
async function startChild(name: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], env });
  child.stdout.setEncoding('utf8');
  const rpc = lineRpc((line) => child.stdin.write(line));
  child.stdout.on('data', (chunk: string) => rpc.receive(chunk));
  const send = rpc.send;
  await rpc.initialise();
  let cpuStart = 0;
  let sysStart = 0;
  return {
    name,
    pid: child.pid,
    bytes: 0,
    send,
    mark() {
      cpuStart = processCpuMs(child.pid) ?? 0;
      sysStart = systemMs(child.pid);
    },
    used: () => ({ cpu: (processCpuMs(child.pid) ?? 0) - cpuStart, sys: systemMs(child.pid) - sysStart }),
    status: (field: string) =>
      new RegExp(`^${field}:\\s+(.*)$`, 'm').exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1],
    stop: async () => {
      child.stdin.end();
      await new Promise((resolve) => child.once('close', resolve));
    },
  };
}

/**
 * `startup`: spawn to the answer to `initialize` of `memledger mcp`, PROFILE_STARTS times (default 10) per side,
 * taking turns with PROFILE_B_BIN's (or this one's with PROFILE_B_FLAGS): wall and the child's CPU (a re-exec
 * keeps its pid, so its CPU counts both images).
 */
async function startupMode(): Promise<void> {
  const home = join(fixture, 'serving', 'home');
  const starts = Number(process.env.PROFILE_STARTS ?? 10);
  const words = (v: string | undefined) => (v ?? '').split(' ').filter(Boolean);
  const sides = [
    {
      name: 'A',
      bin: process.env.PROFILE_A_BIN ?? MEMLEDGER_BIN,
      flags: [] as string[],
      wall: [] as number[],
      cpu: [] as number[],
    },
    {
      name: 'B',
      bin: process.env.PROFILE_B_BIN ?? MEMLEDGER_BIN,
      flags: words(process.env.PROFILE_B_FLAGS),
      wall: [] as number[],
      cpu: [] as number[],
    },
  ];
  for (let i = 0; i < starts * 2; i++) {
    const side = sides[i % 2]!;
    const started = performance.now();
    const c = await startChild(
      side.name,
      [...side.flags, side.bin, '--home', home, 'mcp', '--as', BENCH_AGENT],
      mcpChildEnv(),
    );
    side.wall.push(performance.now() - started);
    c.mark();
    side.cpu.push(processCpuMs(c.pid) ?? 0);
    await c.stop();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const s of sides) {
    console.log(
      `${s.name} ${s.bin} ${s.flags.join(' ')}: spawn to initialised and tools listed, median of ${starts}: wall ${Math.round(median(s.wall))} ms, CPU ${Math.round(median(s.cpu))} ms`,
    );
  }
}

/** The system part of a process's CPU time, in ms (Linux). */
function systemMs(pid: number | undefined): number {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return (Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[12]) * 1000) / CLOCK_TICKS;
}

const mode = process.argv[2];
if (mode === 'build') await build();
else if (mode === 'measure') await measure();
else if (mode === 'process') await processMode();
else if (mode === 'startup') await startupMode();
else throw new Error('usage: node bench/mcp-profile.ts build|measure|process|startup');
