/** Helpers of the conformance suite: principals, policies, a clock, error expectations, byte searches, writer processes. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  type ErrorClass,
  type Ledger,
  type LedgerSession,
  MemoryError,
  type Principal,
  type PrincipalKind,
  type Policy,
  parseGrant,
  parsePolicy,
  type Role,
} from '../../src/index.ts';
import { newId } from '../../src/model/ids.ts';

const ALL_ROLES: Role[] = ['reader', 'writer', 'reviewer', 'admin'];

/**
 * A principal built directly, the way a surface builds one from a credential.
 * @example principal('human', 'ra', { roles: ['reader', 'reviewer'], grants: ['user:a:rw'] })
 */
export function principal(
  kind: PrincipalKind,
  id: string,
  options: { roles?: Role[]; grants?: string[] } = {},
): Principal {
  return {
    kind,
    id,
    roles: options.roles ?? ALL_ROLES,
    grants: (options.grants ?? ['*:rw']).map(parseGrant),
  };
}

type RuleDocument = {
  name: string;
  when?: { principal?: string; scope?: string; kind?: string | string[]; key?: string };
  action: 'allow' | 'hold' | 'deny';
  reason?: string;
};

/**
 * A policy from a partial document, parsed the way policy.json is.
 * @example buildPolicy({ principals: { 'agent:a': { grants: ['agent:a:rw'] } }, default: 'allow' })
 */
export function buildPolicy(document: {
  principals?: Record<string, { roles?: Role[]; grants?: string[] }>;
  rules?: RuleDocument[];
  ownership?: 'hold' | 'deny';
  default?: 'allow' | 'hold' | 'deny';
}): Policy {
  return parsePolicy({ version: 1, ...document }, 'conformance policy');
}

/** A clock the test moves by hand (I12); starts at `start` and stands still until told. */
export function manualClock(start: string): { now: () => string; advance(ms: number): string } {
  let t = Date.parse(start);
  return {
    now: () => new Date(t).toISOString(),
    advance(ms: number) {
      t += ms;
      return new Date(t).toISOString();
    },
  };
}

/** Awaits a call that must fail with `errorClass`, and returns the error for further checks. */
export async function expectError(
  call: Promise<unknown>,
  errorClass: ErrorClass,
  what = 'the call',
): Promise<MemoryError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof MemoryError, `${what}: expected a MemoryError, got ${String(error)}`);
    assert.equal(
      error.class,
      errorClass,
      `${what}: expected ${errorClass}, got ${error.class}: ${error.message}`,
    );
    return error;
  }
  assert.fail(`${what}: expected ${errorClass}, but it succeeded`);
}

/**
 * A word no other test text contains. Ends in a digit so the porter stemmer leaves it whole, and starts with
 * `zq` so no ordinary word shares its prefix in the index.
 */
export const uniqueWord = (tag = ''): string => `zq${tag}${randomBytes(6).toString('hex')}7`;

/** Memories and events in the store, all states, read by the operator (one audited `stats` call). */
export async function storeCounts(ledger: Ledger): Promise<{ memories: number; events: number }> {
  const s = await ledger.as(ledger.operator()).stats();
  return { memories: s.memories, events: s.events };
}

export async function* linesOf(lines: string[]): AsyncGenerator<string> {
  yield* lines;
}

/** Every line a session's export yields, parsed. */
export async function exportAll(
  session: LedgerSession,
): Promise<{ type: string; memory?: { id: string } }[]> {
  const out: { type: string; memory?: { id: string } }[] = [];
  for await (const line of session.export()) out.push(JSON.parse(line));
  return out;
}

/** An import line as another home's export would write it: a complete memory record in `state`. */
export function importedMemoryLine(fields: {
  scope: string;
  body: string;
  key?: string;
  at: string;
  state?: 'active' | 'held';
}): string {
  const id = newId('mem');
  const state = fields.state ?? 'active';
  return JSON.stringify({
    type: 'memory',
    memory: {
      id,
      scope: fields.scope,
      kind: 'fact',
      key: fields.key ?? null,
      body: fields.body,
      value: null,
      subjects: [],
      validFrom: null,
      validTo: null,
      confidence: 1,
      supersedes: null,
      editOf: null,
      fingerprint: 'recomputed-by-import',
      provenance: { principal: 'agent:miner', principalKind: 'agent', surface: 'feed' },
      recordedAt: fields.at,
      state,
      trust: 'unverified',
      supersededBy: null,
      activeFrom: state === 'active' ? fields.at : null,
      activeUntil: null,
      confirmedBy: null,
      rule: null,
    },
    events: [],
  });
}

/** Names of the files under `dir` (recursively) whose bytes contain `needle` as UTF-8. */
export function filesContaining(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return allFiles(dir).filter((f) => readFileSync(f).includes(bytes));
}

export function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...allFiles(path));
    else out.push(path);
  }
  return out;
}

export const WRITER_SCRIPT = fileURLToPath(new URL('./fixtures/writer.ts', import.meta.url));

export interface WriterProcess {
  /** Every id the writer printed, i.e. every write it saw acknowledged. */
  ids: string[];
  /** Resolves once the process exited, with its code or signal and what it wrote to stderr. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** Resolves once the writer has printed at least `n` ids (or exited first). */
  printed(n: number): Promise<void>;
  /** Resolves once the writer has printed this line (not an id: `paused`), or exited first. */
  said(line: string): Promise<void>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * The fault a writer meets at its `at`-th write (I8): its memory commits (with its outbox row), then the process
 * is SIGKILLed before its audit write (`kill`) or right after it (`kill-after`), or stops until `goFile`
 * exists (`pause`).
 */
export interface WriterFault {
  at: number;
  action: 'kill' | 'kill-after' | 'pause';
  goFile?: string;
}

/**
 * How a writer with no fault ends once its last write returned, without closing its ledger: SIGKILLed
 * (`kill`) or by process.exit (`exit`).
 */
export interface WriterEnd {
  end: 'kill' | 'exit';
}

/** Starts fixtures/writer.ts in its own process: it opens the ledger on `home` and remembers `count` memories as `agent:<name>`. */
export function startWriter(
  home: string,
  name: string,
  count: number,
  fault?: WriterFault | WriterEnd,
): WriterProcess {
  const faultArgs =
    fault === undefined
      ? []
      : 'end' in fault
        ? ['end', fault.end]
        : [String(fault.at), fault.action, fault.goFile ?? ''];
  const child = spawn(process.execPath, [WRITER_SCRIPT, home, name, String(count), ...faultArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ids: string[] = [];
  const said = new Set<string>();
  const waiters: { ready: () => boolean; resolve: () => void }[] = [];
  let stderr = '';
  let done = false;
  const wake = () => {
    for (const w of waiters.splice(0)) {
      if (done || w.ready()) w.resolve();
      else waiters.push(w);
    }
  };
  const wait = (ready: () => boolean) =>
    new Promise<void>((resolve) => {
      waiters.push({ ready, resolve });
      wake();
    });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const text = line.trim();
    if (text.startsWith('mem_')) ids.push(text);
    else if (text !== '') said.add(text);
    wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => {
      child.on('close', (code, signal) => {
        done = true;
        wake();
        resolve({ code, signal, stderr });
      });
    },
  );
  return {
    ids,
    exited,
    printed: (n) => wait(() => ids.length >= n),
    said: (line) => wait(() => said.has(line)),
    kill: (signal) => child.kill(signal),
  };
}
