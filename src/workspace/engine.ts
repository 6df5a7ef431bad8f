/**
 * The engine as the serving process sees it: one warm child process per agent (its workspace kept open), a
 * request at a time, and the time limit enforced by killing the child (I16). The serving process never runs an
 * agent's SQL itself, so it stays responsive while a runaway statement burns in the child.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MemoryError } from '../model/errors.ts';
import { sibling } from '../sibling.ts';
import type { EngineReply, EngineRequest } from './engine-child.ts';

const CHILD = fileURLToPath(sibling(import.meta.url, 'engine-child'));
/** Warm engines kept; the least recently used beyond this is closed (each is a Node process, ~40 MB). */
const MAX_WARM = 8;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Request = DistributiveOmit<EngineRequest, 'id'>;
/** A call as the ledger makes it: the engine adds the file to open. */
export type EngineCall = DistributiveOmit<Exclude<EngineRequest, { op: 'close' }>, 'id' | 'path' | 'reopen'>;

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout | undefined;
}

class EngineProcess {
  readonly proc: ChildProcess;
  readonly pending = new Map<number, Pending>();
  /** The file and version the child has open, so an unchanged checkout reuses it warm. */
  open: { path: string; version: number } | undefined;
  #next = 1;
  #onGone: () => void;

  constructor(onGone: () => void) {
    this.#onGone = onGone;
    this.proc = fork(CHILD, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      execArgv: ['--disable-warning=ExperimentalWarning'],
    });
    this.proc.on('message', (reply: EngineReply) => this.#settle(reply));
    this.proc.on('exit', () =>
      this.#gone(new MemoryError('internal', 'the workspace engine stopped unexpectedly')),
    );
    this.proc.on('error', (error) =>
      this.#gone(new MemoryError('internal', 'the workspace engine failed to start', { cause: error })),
    );
    this.#idle();
  }

  send(request: Request, timeoutMs: number | null): Promise<unknown> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      const timer =
        timeoutMs === null
          ? undefined
          : setTimeout(() => {
              this.pending.delete(id);
              this.kill();
              reject(
                new MemoryError(
                  'invalid_input',
                  `the batch ran past the ${timeoutMs / 1000} s time limit and was stopped; nothing was changed. ` +
                    'Bound recursive queries (LIMIT) and avoid joins without conditions.',
                  { details: { timeoutMs } },
                ),
              );
            }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.proc.ref();
      this.proc.channel?.ref();
      this.proc.send({ ...request, id });
    });
  }

  kill(): void {
    this.proc.kill('SIGKILL');
    this.#gone(new MemoryError('internal', 'the workspace engine was stopped'));
  }

  #settle(reply: EngineReply): void {
    const p = this.pending.get(reply.id);
    if (p === undefined) return;
    this.pending.delete(reply.id);
    clearTimeout(p.timer);
    this.#idle();
    if (reply.ok) p.resolve(reply.value);
    else {
      const e = reply.error;
      const error = new MemoryError(e.class as MemoryError['class'], e.message, { details: e.details });
      // The SQLite text is the agent's own SQL; the audit keeps the message the engine made without it (I8).
      Object.defineProperty(error, 'auditMessage', { value: e.auditMessage });
      p.reject(error);
    }
  }

  #gone(error: MemoryError): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(error);
    }
    this.pending.clear();
    this.#onGone();
  }

  /** An idle engine never keeps the serving process (or a CLI, or a test) alive. */
  #idle(): void {
    if (this.pending.size > 0) return;
    this.proc.unref();
    this.proc.channel?.unref();
  }
}

export class WorkspaceEngine {
  readonly #warm = new Map<string, EngineProcess>();
  readonly #queues = new Map<string, Promise<unknown>>();

  /** Runs `fn` for `agent` after every earlier call for it: one agent's calls never interleave. */
  exclusive<T>(agent: string, fn: () => Promise<T>): Promise<T> {
    const before = this.#queues.get(agent) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.#queues.set(agent, tail);
    tail.then(() => {
      if (this.#queues.get(agent) === tail) this.#queues.delete(agent);
    });
    return run;
  }

  /** Sends one request to the agent's engine, starting one if none is warm. */
  request(
    agent: string,
    checkout: { path: string; version: number; warm: boolean },
    request: EngineCall,
    timeoutMs: number,
  ): Promise<unknown> {
    const engine = this.#engine(agent);
    const same =
      checkout.warm && engine.open?.path === checkout.path && engine.open.version === checkout.version;
    engine.open = { path: checkout.path, version: checkout.version };
    return engine.send({ ...request, path: checkout.path, reopen: !same } as Request, timeoutMs);
  }

  /** After a commit: the child's open file is that version now. */
  committed(agent: string, path: string, version: number): void {
    const engine = this.#warm.get(agent);
    if (engine !== undefined) engine.open = { path, version };
  }

  /** Closes the agent's engine (after a failed commit, its open file no longer matches any stored version). */
  forget(agent: string): void {
    this.#warm.get(agent)?.kill();
  }

  close(): void {
    for (const engine of [...this.#warm.values()]) engine.kill();
  }

  #engine(agent: string): EngineProcess {
    let engine = this.#warm.get(agent);
    if (engine !== undefined) {
      this.#warm.delete(agent);
      this.#warm.set(agent, engine);
      return engine;
    }
    engine = new EngineProcess(() => {
      if (this.#warm.get(agent) === engine) this.#warm.delete(agent);
    });
    this.#warm.set(agent, engine);
    while (this.#warm.size > MAX_WARM) this.#warm.values().next().value?.kill();
    return engine;
  }
}
