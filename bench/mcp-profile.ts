/**
 * A driver for the MCP server's own CPU per search call (`node bench/mcp-profile.ts build|measure`): `build` makes a
 * serving home of PROFILE_LINES memories once (PROFILE_DIR); `measure` serves it in this process over in-memory
 * streams (the stdio server as `memledger mcp` runs it, minus the pipe) and alternates, query by query, the
 * tools/call line through the server with the library's search, with and without corrections, printing CPU µs per
 * call of each, then times the server's steps one by one on a real request and result.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  let answered: ((line: string) => void) | null = null;
  let out = '';
  const stdout = new Writable({
    decodeStrings: false,
    write(chunk: string, _enc, done) {
      out += chunk;
      if (out.endsWith('\n')) {
        const line = out;
        out = '';
        answered?.(line);
      }
      done();
    },
  });
  const principal = ledger.principal(BENCH_AGENT);
  const serving = serveStdio({ ledger, identity: () => ({ principal }), stdin, stdout, log: () => {} });
  let id = 0;
  const send = (message: object): Promise<string> =>
    new Promise((resolve) => {
      answered = resolve;
      stdin.write(`${JSON.stringify({ ...message, jsonrpc: '2.0', id: ++id })}\n`);
    });
  await send({
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'profile', version: '1' },
    },
  });
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  await send({ method: 'tools/list' });

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
  const request = { ...lastRequest, jsonrpc: '2.0', id };
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
 */
async function processMode(): Promise<void> {
  const home = join(fixture, 'serving', 'home');
  const echo = process.env.PROFILE_ECHO === '1';
  const interleave = process.env.PROFILE_INTERLEAVE === '1';
  // PROFILE_NODE_FLAGS: more flags for the child, e.g. `--perf-basic-prof` to read its CPU samples with perf.
  const flags = [...childNodeFlags(), ...(process.env.PROFILE_NODE_FLAGS ?? '').split(' ').filter(Boolean)];
  const args = echo
    ? [...flags, fileURLToPath(new URL('./children/echo-stdio.mjs', import.meta.url))]
    : [...flags, MEMLEDGER_BIN, '--home', home, 'mcp', '--as', BENCH_AGENT];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'], env: mcpChildEnv() });
  child.stdout.setEncoding('utf8');
  let out = '';
  let answered: ((line: string) => void) | null = null;
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
    if (out.endsWith('\n')) {
      const line = out;
      out = '';
      answered?.(line);
    }
  });
  let id = 0;
  const send = (message: object): Promise<string> =>
    new Promise((resolve) => {
      answered = resolve;
      child.stdin.write(`${JSON.stringify({ ...message, jsonrpc: '2.0', id: ++id })}\n`);
    });
  await send({
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'profile', version: '1' },
    },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  await send({ method: 'tools/list' });
  if (process.env.PROFILE_PID_FILE !== undefined) {
    // Time for a profiler to attach to the child before the calls.
    writeFileSync(process.env.PROFILE_PID_FILE, String(child.pid));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  const ledger = interleave ? openLedger({ home }) : null;
  const agent = ledger?.as(ledger.principal(BENCH_AGENT), { surface: 'library', client: 'profile' });
  const queries = dataset.queries(warm + calls, 3);
  let cpuStart = 0;
  let sysStart = 0;
  let bytes = 0;
  for (let q = 0; q < queries.length; q++) {
    const query = queries[q]!;
    if (q === warm) {
      cpuStart = processCpuMs(child.pid) ?? 0;
      sysStart = systemMs(child.pid);
    }
    const line = await send({
      method: 'tools/call',
      params: echo
        ? { name: 'echo', arguments: { bytes: 7_000 } }
        : { name: 'search_memory', arguments: { query: query.text, scopes: [query.scope] } },
    });
    if (q >= warm) bytes += line.length;
    if (agent !== undefined) {
      await agent.search({ query: query.text, scopes: [query.scope] });
      await agent.search({ query: query.text, scopes: [query.scope], withCorrections: true });
    }
  }
  const cpu = (processCpuMs(child.pid) ?? 0) - cpuStart;
  const sys = systemMs(child.pid) - sysStart;
  console.log(
    `${echo ? 'echo child' : 'memledger mcp'}${interleave ? ' (interleaved)' : ''}: ${Math.round((cpu * 1000) / calls)} µs CPU per call (${Math.round((sys * 1000) / calls)} of it in the kernel) over ${calls} calls, ${Math.round(bytes / calls)} bytes per answer`,
  );
  child.stdin.end();
  await new Promise((resolve) => child.once('close', resolve));
  ledger?.close();
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
else throw new Error('usage: node bench/mcp-profile.ts build|measure|process');
