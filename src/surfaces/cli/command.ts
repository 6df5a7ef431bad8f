/** The shape of a CLI command: its words, its options, and a run that calls the library and returns data to render. */
import type { ParseArgsOptionsConfig } from 'node:util';
import type { Ledger, LedgerSession } from '../../ledger/ledger.ts';

export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  /** True when stderr is a terminal: progress lines are drawn only then. */
  interactive: boolean;
}

export interface CliContext {
  io: CliIO;
  json: boolean;
  /** Opens the ledger on the chosen home (once) and returns it. */
  ledger(): Ledger;
  /** A session as the resolved principal: the OS user, or `--as` / MEMLEDGER_PRINCIPAL. */
  session(): LedgerSession;
  homeOption: string | undefined;
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
  run(ctx: CliContext, args: string[], values: Values): Promise<unknown>;
  /** Human rendering of the result; without it, results print as indented JSON. */
  render?(result: never, ctx: CliContext): string;
}
