/** The shape of a CLI command: its words, its options, and a run that calls the library and returns data to render. */
import type { ParseArgsOptionsConfig } from 'node:util';
import type { Ledger, LedgerSession } from '../../ledger/ledger.ts';
import type { MemoryError } from '../../model/errors.ts';

export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  /** True when stderr is a terminal: progress lines are drawn only then. */
  interactive: boolean;
  /** True when stdin is a terminal; absent counts as not. Judging verbs from the local operator need one (I7). */
  stdinIsTTY?: boolean;
  /**
   * Replaces this process with node started with these flags added, the same script and arguments (bin/memledger.js
   * passes it; an in-process caller, a test, does not, and the command then runs as it is). Returns only when the
   * platform cannot re-exec.
   */
  reexec?: (nodeFlags: readonly string[]) => void;
}

export interface CliContext {
  io: CliIO;
  json: boolean;
  /** Opens the ledger on the chosen home (once) and returns it. */
  ledger(): Ledger;
  /** A session as the caller (caller.ts): a token's principal, `--as` / MEMLEDGER_PRINCIPAL, or the OS user. */
  session(): LedgerSession;
  homeOption: string | undefined;
  /** `--store` as given (a path or a URL); store-choice.ts says which store the options name. */
  storeOption?: string | undefined;
  /**
   * The command has a result to print but did not fully succeed (some import lines failed): the result is
   * still printed, then this error is reported on stderr and decides the exit code, so scripts notice.
   * `exitCode` overrides the class's code where a convention fixes it (130 for a run stopped by Ctrl-C).
   * The failed part is audited as a refusal of the command, unless `audited`: a record of it exists already
   * (each feed's sync writes its own), and one call leaves one record of each failure (I8).
   */
  partialFailure(error: MemoryError, options?: { exitCode?: number; audited?: boolean }): void;
}

export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface Command {
  /** The words that select it: `remember`, `review approve`. */
  name: string;
  summary: string;
  /** Shown by `memledger help NAME`: positionals and options. */
  usage: string;
  options?: ParseArgsOptionsConfig;
  /** Positional arguments after the command words: exact count, or a range. */
  positionals?: { min: number; max: number };
  /**
   * False for a command that works in a home of its own (demo): its refusals are not audited in the
   * user's home, which it never touches.
   */
  auditRefusals?: boolean;
  /**
   * A judging or admin verb (a verdict, a claim, an erasure, token management): the CLI refuses it from the
   * local operator in an agent environment or without a terminal on stdin, unless a human token is presented.
   * A function decides by the options given (`import --restore` judges; a plain import does not).
   */
  judgement?: boolean | ((values: Values) => boolean);
  /** Node flags its process must start with (node-flags.ts): a long-running server's young generation. */
  nodeFlags?: readonly string[];
  run(ctx: CliContext, args: string[], values: Values): Promise<unknown>;
  /** Human rendering of the result; without it, results print as indented JSON. */
  render?(result: never, ctx: CliContext): string;
}

/** A command whose render takes exactly what its run returns. */
export interface TypedCommand<R> extends Omit<Command, 'run' | 'render'> {
  run(ctx: CliContext, args: string[], values: Values): Promise<R>;
  render?(result: R, ctx: CliContext): string;
}

/**
 * Declares a command with its result type tied between run and render.
 * @example export const stats = defineCommand({ name: 'stats', ..., run: (ctx) => ctx.session().stats() });
 */
export const defineCommand = <R>(command: TypedCommand<R>): Command => command as unknown as Command;
