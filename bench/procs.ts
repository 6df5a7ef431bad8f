/**
 * Child processes for the surface benchmarks: start a server and wait for its ready line, run a process to the
 * end with its wall and CPU time, read a live child's CPU time, and stop every child the run started.
 * CPU times come from /proc (Linux); elsewhere they are null and only wall times are reported.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Every child still running, so an interrupted run can stop them: a server outlives its parent otherwise. */
const live = new Set<ChildProcess>();

/** Clock ticks per second of /proc's CPU times: their resolution (usually 10 ms). */
export const CLOCK_TICKS = clockTicks();

/** The CPU time (user + system, all threads) a running process has used so far, in ms; null off Linux. */
export function processCpuMs(pid: number | undefined | null): number | null {
  if (pid === undefined || pid === null) return null;
  const fields = statFields(`/proc/${pid}/stat`);
  return fields === null ? null : ((fields.utime + fields.stime) * 1000) / CLOCK_TICKS;
}

/**
 * The CPU time of this process's children that have ended and been waited for, in ms; null off Linux. The
 * kernel adds a child's whole CPU time here when it is reaped, so the difference across one run is that run's.
 */
export function reapedChildrenCpuMs(): number | null {
  const fields = statFields('/proc/self/stat');
  return fields === null ? null : ((fields.cutime + fields.cstime) * 1000) / CLOCK_TICKS;
}

export interface ProcessRun {
  wallMs: number;
  /** CPU time of the process (and anything it waited for), at /proc's resolution; null off Linux. */
  cpuMs: number | null;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` with `input` on stdin to its end. Wall time runs from spawn to exit. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const cpuBefore = reapedChildrenCpuMs();
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    live.add(child);
    let ended = 0;
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => stdout.push(b));
    child.stderr.on('data', (b: Buffer) => stderr.push(b));
    child.once('error', (error) => {
      live.delete(child);
      reject(error);
    });
    child.once('exit', () => {
      ended = performance.now();
    });
    child.once('close', (code) => {
      live.delete(child);
      const cpuAfter = reapedChildrenCpuMs();
      resolve({
        wallMs: (ended || performance.now()) - started,
        cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
        code,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
    child.stdin.on('error', () => {}); // a process that exits without reading its input is not our failure
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Starts a long-running process and resolves once a line of its stdout matches `ready`, with that match.
 * Rejects, with what the process said on stderr, if it exits or stays silent for `timeoutMs` first.
 */
export function startProcess(
  command: string,
  args: readonly string[],
  ready: RegExp,
  timeoutMs = 30_000,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    live.add(child);
    let out = '';
    let err = '';
    let isReady = false;
    const fail = (why: string) => {
      clearTimeout(timer);
      void stopProcess(child);
      reject(new Error(`${command} ${args.join(' ')}: ${why}\n${err.slice(-2_000)}`));
    };
    const timer = setTimeout(() => fail(`not ready after ${timeoutMs} ms`), timeoutMs);
    // Both pipes are read to the end, so a chatty child never blocks on a full pipe.
    child.stderr!.on('data', (b: Buffer) => {
      err = (err + b.toString('utf8')).slice(-4_000);
    });
    child.stdout!.on('data', (b: Buffer) => {
      if (isReady) return;
      out += b.toString('utf8');
      const match = ready.exec(out);
      if (match !== null) {
        isReady = true;
        clearTimeout(timer);
        child.removeListener('exit', onExit);
        resolve({ child, match });
      }
    });
    const onExit = (code: number | null) => fail(`exited with ${code} before it was ready`);
    child.once('exit', onExit);
    child.once('exit', () => live.delete(child));
    child.once('error', (error) => fail(error.message));
  });
}

/** SIGTERM, then SIGKILL if the process has not ended within `graceMs`. Resolves when it has ended. */
export function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    live.delete(child);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      live.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Kills, by their handles, every child this run started that is still running (an interrupted run). */
export function killChildren(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/**
 * This environment without MEMLEDGER_* (home, token, principal, hook budgets): the children get only their flags,
 * and `MEMLEDGER_EMBEDDER=off`. The process benchmarks measure the text path against raw FTS5 or the library call
 * without an embedder; a CLI or server would otherwise pick up the local model, rank with vectors and embed in the
 * background, so its hits and its CPU would not compare. Hybrid search has its own benchmark (bench/hybrid.ts).
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MEMLEDGER_'))),
    MEMLEDGER_EMBEDDER: 'off',
  };
}

/** The MCP SDK's safe default child environment plus `MEMLEDGER_EMBEDDER=off` (see cleanEnv). */
export function mcpChildEnv(): Record<string, string> {
  return { ...getDefaultEnvironment(), MEMLEDGER_EMBEDDER: 'off' };
}

/**
 * Node flags for a server child: `BENCH_CHILD_CPU_PROF=DIR` adds `--cpu-prof` into DIR, so the server's own
 * profile of a case (`--only mcp_stdio_search`, `http_search`, `soak`) can be read; nothing otherwise.
 */
export function childNodeFlags(): string[] {
  const dir = process.env.BENCH_CHILD_CPU_PROF;
  return dir === undefined || dir === '' ? [] : ['--cpu-prof', '--cpu-prof-dir', dir];
}

/** utime, stime, cutime and cstime of a /proc stat file, in clock ticks. */
function statFields(path: string): { utime: number; stime: number; cutime: number; cstime: number } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => Number(rest[n - 3]);
  return { utime: field(14), stime: field(15), cutime: field(16), cstime: field(17) };
}

function clockTicks(): number {
  try {
    const n = Number(execFileSync('getconf', ['CLK_TCK'], { stdio: 'pipe' }).toString().trim());
    return Number.isInteger(n) && n > 0 ? n : 100;
  } catch {
    return 100;
  }
}
