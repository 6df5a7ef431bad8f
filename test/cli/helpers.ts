/**
 * Running the CLI as a user does: the `memledger` executable in a child process on a fresh temporary home,
 * or `runCli` in this process for wide tables of inputs (NUL bytes cannot cross a process boundary).
 * Neither has a terminal on stdin, so a judging verb (a command with `judgement: true`) is run the way a
 * script acting for a person runs it: with that person's human token in MEMLEDGER_TOKEN (test/cli/judgement
 * tests the refusal without one, and the terminal path).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import { openLedger } from '../../src/index.ts';
import { ROLES } from '../../src/model/principal.ts';
import { localOperator } from '../../src/policy/identity.ts';
import { detectAgentEnvironment } from '../../src/surfaces/cli/agent-env.ts';
import { COMMANDS } from '../../src/surfaces/cli/commands/index.ts';
import { runCli } from '../../src/surfaces/cli/main.ts';

export const BIN = new URL('../../bin/memledger.js', import.meta.url).pathname;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON document. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read parsed output structurally and assert each field they use
  json<T = any>(): T;
  /** The `{"error":{...}}` line a `--json` failure writes on stderr. */
  error(): { class: string; message: string; details?: Record<string, unknown> };
}

export interface RunOptions {
  env?: Record<string, string>;
  /** Written to the command's stdin (for `import -`). */
  input?: string;
  /**
   * False: run a judging verb without the operator's token, as a bare non-interactive caller (to see it
   * refused). By default a judging verb presents it, unless the call names its own caller (`--as`,
   * `--token`, MEMLEDGER_TOKEN or MEMLEDGER_PRINCIPAL).
   */
  humanToken?: boolean;
  /** `cliInProcess` only: report stdin as a terminal, to see what the environment alone decides. */
  terminal?: boolean;
  /** Kill the child after this long, so a command that would never end fails its test instead of hanging it. */
  timeoutMs?: number;
}

// Compiled TypeScript is cached for the child processes of this test file only, and removed when it ends:
// every spawn then pays Node's start-up, not the type stripping of the whole source tree again.
const compileCache = mkdtempSync(join(tmpdir(), 'memledger-test-cache-'));
process.on('exit', () => rmSync(compileCache, { recursive: true, force: true }));

/**
 * The environment of a child: this one without any MEMLEDGER_* setting or coding-agent marker, so nothing
 * leaks in from the shell (the suite may itself run under an agent).
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MEMLEDGER_')) env[k] = v;
  for (let found = detectAgentEnvironment(env); found !== null; found = detectAgentEnvironment(env)) {
    delete env[found.variable];
  }
  return { ...env, NODE_COMPILE_CACHE: compileCache, ...extra };
}

const operatorTokens = new Map<string, string>();

/**
 * The local operator's own human token in a home (every role, every scope, principal `human:<OS user>`, the
 * same label as the operator), created once per home through the token store, as a person would create it at
 * a terminal before handing it to a script.
 */
export async function operatorToken(home: string): Promise<string> {
  let secret = operatorTokens.get(home);
  if (secret === undefined) {
    const tokens = openTokenStore(home);
    try {
      secret = (
        await tokens.create(
          { name: localOperator().id, kind: 'human', roles: [...ROLES], grants: ['*:rw'] },
          'test:cli-helpers',
        )
      ).secret;
    } finally {
      await tokens.close();
    }
    operatorTokens.set(home, secret);
  }
  return secret;
}

/** Is the command these arguments name a judging verb? Read from the command's own declaration. */
export async function isJudging(args: string[]): Promise<boolean> {
  const words = args.slice(0, 2).filter((a) => !a.startsWith('-'));
  const entry = COMMANDS.find((c) => c.name === words.join(' ')) ?? COMMANDS.find((c) => c.name === words[0]);
  if (entry === undefined) return false;
  const judgement = (await entry.load()).judgement;
  // A command that judges by its options (import --restore): the flags given are what it decides on.
  const flags = Object.fromEntries(args.filter((a) => a.startsWith('--')).map((a) => [a.slice(2), true]));
  return typeof judgement === 'function' ? judgement(flags) : judgement === true;
}

/** The child's environment: clean, with the operator's token for a judging verb (see `humanToken`). */
async function envFor(home: string, args: string[], options: RunOptions): Promise<NodeJS.ProcessEnv> {
  const extra = options.env ?? {};
  const names = args.some(
    (a) => a === '--as' || a.startsWith('--as=') || a === '--token' || a.startsWith('--token='),
  );
  const own = names || extra.MEMLEDGER_TOKEN !== undefined || extra.MEMLEDGER_PRINCIPAL !== undefined;
  if (options.humanToken === false || own || !(await isJudging(args))) return cleanEnv(extra);
  return cleanEnv({ MEMLEDGER_TOKEN: await operatorToken(home), ...extra });
}

/** `--home DIR` goes last, but before a `--` that ends the options. */
function withHome(args: string[], home: string): string[] {
  const end = args.indexOf('--');
  return end === -1 ? [...args, '--home', home] : [...args.slice(0, end), '--home', home, ...args.slice(end)];
}

function result(code: number, stdout: string, stderr: string): CliResult {
  return {
    code,
    stdout,
    stderr,
    json() {
      try {
        return JSON.parse(stdout);
      } catch {
        throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
      }
    },
    error() {
      const line = stderr.trim().split('\n').at(-1) ?? '';
      try {
        return JSON.parse(line).error;
      } catch {
        throw new Error(`stderr holds no JSON error (exit ${code}):\n${stderr}`);
      }
    },
  };
}

/** Runs `memledger ...args --home HOME` in a child process (Node 24, like the tests) and collects its output. */
export async function cli(home: string, args: string[], options: RunOptions = {}): Promise<CliResult> {
  const env = await envFor(home, args, options);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...withHome(args, home)], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs, killSignal: 'SIGKILL' }),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    // A command that exits before reading its input (a refusal) closes the pipe: that is its answer, not a failure.
    child.stdin.on('error', () => {});
    child.on('close', (code, signal) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      resolve(result(code ?? (signal === null ? -1 : 128), stdout, stderr));
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Runs `memledger ...args --home HOME` inside a real pseudo-terminal, as a person at a terminal would:
 * through util-linux `script -qec` (Debian's util-linux ships it), so the command's stdin is a terminal.
 * No token is presented unless the call passes one. The terminal merges stderr into stdout and ends lines
 * with CRLF: both `stdout` and `stderr` hold the merged text, with LF endings.
 */
export function pty(
  home: string,
  args: string[],
  options: { env?: Record<string, string> } = {},
): Promise<CliResult> {
  const line = [process.execPath, BIN, ...withHome(args, home)].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', line, '/dev/null'], {
      env: cleanEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => out.push(b));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const text = Buffer.concat(out).toString('utf8').replace(/\r\n/g, '\n');
      resolve(result(code ?? (signal === null ? -1 : 128), text, text));
    });
  });
}

const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** The same call through `runCli` in this process: same parsing, rendering, error contract and exit code. */
export async function cliInProcess(
  home: string,
  args: string[],
  options: RunOptions = {},
): Promise<CliResult> {
  const stdout = collector();
  const stderr = collector();
  const code = await runCli(withHome(args, home), {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from(options.input === undefined ? [] : [options.input]),
    env: await envFor(home, args, options),
    interactive: false,
    stdinIsTTY: options.terminal === true,
  });
  return result(code, stdout.text(), stderr.text());
}

/** A stream that keeps what is written to it, synchronously, so nothing is still in flight when the call returns. */
function collector(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** A fresh, empty temporary directory for one test's home, removed afterwards whatever happens. */
export async function withTempHome<T>(fn: (home: string) => Promise<T>): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), 'memledger-cli-'));
  try {
    return await fn(home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Asserts a call succeeded, showing its output when it did not. */
export function ok(r: CliResult, what = 'command'): CliResult {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  return r;
}

/**
 * The home's state a failing call must not change: the store's counts and every exported line but the header
 * (which carries the export's time). Read through one connection kept open, beside the CLI's own.
 */
export interface StateProbe {
  state(): Promise<string>;
  close(): void;
}

export function openProbe(home: string): StateProbe {
  const ledger = openLedger({ home });
  const me = ledger.as(ledger.operator(), { surface: 'library', tool: 'test-probe' });
  return {
    async state() {
      const { files: _files, ...stats } = await me.stats();
      const lines: string[] = [];
      for await (const line of me.export()) lines.push(line);
      return JSON.stringify({ stats, lines: lines.slice(1) });
    },
    close: () => ledger.close(),
  };
}

/** One reading of the state, for a test that takes only a few. */
export async function snapshot(home: string): Promise<string> {
  const probe = openProbe(home);
  try {
    return await probe.state();
  } finally {
    probe.close();
  }
}
