/** The `memledger` command line: global options, command lookup, rendering and the error contract. */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { type Ledger, openLedger } from '../../ledger/ledger.ts';
import type { CallContext } from '../../model/context.ts';
import { asMemoryError, MemoryError } from '../../model/errors.ts';
import type { Principal } from '../../model/principal.ts';
import { backendFor, resolveStoreSpec } from '../../store/backend.ts';
import { homePaths } from '../../store/sqlite/home.ts';
import { assertMayJudge, type Caller, namesToken, resolveCaller, resolveCallerAsync } from './caller.ts';
import type { CliContext, CliIO, Command, Values } from './command.ts';
import { findCommand, GLOBAL_FLAGS, lastValue, optionArgs, parseCommandArgs, withoutToken } from './argv.ts';
import { COMMANDS, type CommandEntry } from './commands/index.ts';
import { helpText } from './help.ts';
import { missingNodeFlags } from './node-flags.ts';
import { exitCodeFor } from './exit-codes.ts';
import { AuditedErrors } from './refusals.ts';
import { assertHomeExists, createsHome } from './home-check.ts';
import { chosenStore, storeSpec } from './store-choice.ts';
import { didYouMean } from './suggest.ts';
import { memledgerVersion } from './version.ts';

/**
 * Runs one command line and returns the exit code. Never throws.
 * With `--json`, the result is one JSON document on stdout and a failure is `{"error":{"class","message"}}`
 * on stderr; the exit code names the class (exit-codes.ts).
 */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const started = performance.now();
  const json = optionArgs(argv).includes('--json');
  const { entry, rest, words } = findCommand(argv);
  if (entry === undefined) {
    return withoutCommand(argv, words, io, json).catch((error) => exitWith(io, json, asMemoryError(error)));
  }
  let command: Command;
  try {
    command = await loadCommand(entry);
  } catch (error) {
    return exitWith(io, json, asMemoryError(error));
  }
  // Before anything is opened: the process is replaced (node-flags.ts), and its replacement runs this line again.
  if (command.nodeFlags !== undefined && io.reexec !== undefined) {
    const missing = missingNodeFlags(command.nodeFlags, process.execArgv, io.env.NODE_OPTIONS);
    if (missing.length > 0) io.reexec(missing);
  }

  const audited = new AuditedErrors();
  let ledger: Ledger | undefined;
  let principal: Principal | undefined;
  let caller: Caller | undefined;
  let deferred: { error: MemoryError; exitCode: number | undefined; audited: boolean } | undefined;
  const refused = (failure: MemoryError) =>
    recordSurfaceCall(
      ledger,
      principal,
      caller?.tokenId,
      io.env,
      command,
      rest,
      failure,
      performance.now() - started,
    );
  try {
    const parsed = parseCommandArgs(command, rest);
    if (parsed.values.help === true) {
      io.stdout.write(`${command.usage}\n`);
      return 0;
    }
    const homeOption = parsed.values.home as string | undefined;
    const storeOption = parsed.values.store as string | undefined;
    const sync = io.env.MEMLEDGER_SYNC === 'full' ? 'full' : 'normal';
    const judging =
      typeof command.judgement === 'function'
        ? command.judgement(parsed.values as Values)
        : command.judgement === true;
    const ctx: CliContext = {
      io,
      json,
      homeOption,
      storeOption,
      ledger: () => {
        if (ledger === undefined) {
          const chosen = chosenStore(ctx);
          // A database is there or its open fails; only a home can be a mistyped directory that a read would create.
          if (!createsHome(command.name) && chosen.home !== null) assertHomeExists(chosen.home);
          // The home's embedder, else the local model if installed (README: Semantic search).
          ledger = openLedger({ store: storeSpec(ctx), sync, semantic: { embedder: 'auto' } });
        }
        return ledger;
      },
      session: () => {
        const l = ctx.ledger();
        if (caller === undefined) {
          const resolved = resolveCaller(l, {
            token: parsed.values.token as string | undefined,
            as: parsed.values.as as string | undefined,
            env: io.env,
          });
          principal = resolved.principal; // who is refused, for the audit
          if (judging) assertMayJudge(resolved, command.name, io);
          caller = resolved;
        }
        return audited.track(l.as(caller.principal, cliContext(io.env, command.name, caller.tokenId)));
      },
      partialFailure: (error, options = {}) => {
        deferred ??= { error, exitCode: options.exitCode, audited: options.audited === true };
      },
    };
    const callerOptions = {
      token: parsed.values.token as string | undefined,
      as: parsed.values.as as string | undefined,
      env: io.env,
    };
    // A database's tokens answer asynchronously: a token names its caller before the command runs.
    if (namesToken(callerOptions) && chosenStore(ctx).home === null) {
      caller = await resolveCallerAsync(ctx.ledger(), callerOptions);
      principal = caller.principal;
      if (judging) assertMayJudge(caller, command.name, io);
    }
    // A judging verb decides who calls before anything else runs, so no path through it skips the check.
    if (judging) ctx.session();
    const result = await command.run(ctx, parsed.positionals, parsed.values);
    if (result !== undefined) {
      const text = json
        ? `${JSON.stringify(result)}\n`
        : command.render
          ? command.render(result as never, ctx)
          : `${JSON.stringify(result, null, 2)}\n`;
      io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    }
    if (deferred === undefined) return 0;
    // The command's own calls were audited as they ran; a failed part they did not audit is one more refusal (I8).
    if (!deferred.audited && !audited.has(deferred.error)) await refused(deferred.error);
    const code = exitWith(io, json, deferred.error);
    return deferred.exitCode ?? code;
  } catch (error) {
    const failure = asMemoryError(error);
    if (!audited.has(failure) && command.auditRefusals !== false) {
      ledger ??= openForRefusal(argv, io.env);
      await refused(failure);
    }
    return exitWith(io, json, failure);
  } finally {
    try {
      await ledger?.close();
    } catch (error) {
      // The command's outcome is already decided and reported; a failed close must not turn into a throw.
      io.stderr.write(`memledger: warning: closing the data directory failed: ${(error as Error).message}\n`);
    }
  }
}

function exitWith(io: CliIO, json: boolean, error: MemoryError): number {
  if (json) {
    const details = Object.keys(error.details).length > 0 ? { details: error.details } : {};
    io.stderr.write(
      `${JSON.stringify({ error: { class: error.class, message: error.message, ...details } })}\n`,
    );
  } else io.stderr.write(`memledger: ${error.class}: ${error.message}\n`);
  return exitCodeFor(error.class);
}

/** A command's module, loaded when the command runs or its usage is asked for. */
async function loadCommand(entry: CommandEntry): Promise<Command> {
  const command = await entry.load();
  if (command.name !== entry.name) {
    throw new MemoryError('internal', `command ${entry.name} loaded as ${command.name}`);
  }
  return command;
}

/** `memledger`, `memledger help [COMMAND]`, or words that name no command. */
async function withoutCommand(argv: string[], words: string[], io: CliIO, json: boolean): Promise<number> {
  if (words[0] === 'help' && words.length > 1) {
    const asked = argv
      .slice(argv.indexOf('help') + 1)
      .filter((a) => !a.startsWith('-'))
      .slice(0, 2);
    const named = COMMANDS.find((c) => c.name === asked.join(' ') || c.name === asked[0]);
    if (named !== undefined) {
      io.stdout.write(`${(await loadCommand(named)).usage}\n`);
      return 0;
    }
  }
  if (words.length === 0 && optionArgs(argv).some((a) => a === '--version' || a === '-v')) {
    const version = memledgerVersion();
    io.stdout.write(json ? `${JSON.stringify({ version })}\n` : `memledger ${version}\n`);
    return 0;
  }
  const onlyGlobals = optionArgs(argv).every((a) => GLOBAL_FLAGS.has(a));
  if ((words.length === 0 && onlyGlobals) || (words[0] === 'help' && words.length === 1)) {
    io.stdout.write(helpText());
    return 0;
  }
  const family = COMMANDS.filter((c) => c.name.startsWith(`${words[0]} `)).map((c) => c.name.split(' ')[1]);
  const guess =
    words.length === 0
      ? undefined
      : didYouMean(
          words,
          COMMANDS.map((c) => c.name),
        );
  const message =
    words.length === 0
      ? `no command given (options alone: ${optionArgs(argv).slice(0, 3).join(' ')}); run memledger help`
      : family.length > 0
        ? `${words[0]} needs one of: ${family.join(', ')}${guess === undefined ? `, e.g. memledger ${words[0]} ${family[0]}` : `; did you mean ${guess}?`}`
        : guess === undefined
          ? `unknown command: ${words[0]}; run memledger help to see the commands`
          : `unknown command: ${words[0]}; did you mean ${guess}? (memledger help lists the commands)`;
  return exitWith(io, json, new MemoryError('invalid_input', message));
}

/**
 * Audits a call the CLI refused before or outside a session call (I8). Only in a home that exists: a typo
 * must not create a data directory just to record itself.
 */
function openForRefusal(argv: string[], env: NodeJS.ProcessEnv): Ledger | undefined {
  try {
    const spec = resolveStoreSpec(
      { store: lastValue(argv, '--store'), home: lastValue(argv, '--home') },
      env,
    );
    const home = backendFor(spec).home;
    if (home !== null && !existsSync(homePaths(home).auditDb)) return undefined;
    return openLedger({ store: spec });
  } catch {
    return undefined;
  }
}

async function recordSurfaceCall(
  ledger: Ledger | undefined,
  principal: Principal | undefined,
  tokenId: string | undefined,
  env: NodeJS.ProcessEnv,
  command: Command,
  args: string[],
  error: MemoryError,
  durationMs: number,
): Promise<void> {
  if (ledger === undefined) return;
  try {
    await ledger.recordSurfaceCall({
      // The caller is the OS user unless a valid `--as` was resolved before the failure.
      principal: principal ?? ledger.operator(),
      context: cliContext(env, command.name, tokenId),
      operation: command.name.replace(' ', '.'),
      // The preview keeps only the shape of these (ids, sizes), never their text; a token is left out whole.
      args: { argv: withoutToken(args).filter((a) => a !== '--json') },
      error,
      durationMs,
    });
  } catch {
    // The refusal is still reported to the caller; the audit writer warns on its own failures.
  }
}

/** Provenance for CLI calls: run and session ids may come from the environment of a hook or a script. */
function cliContext(env: NodeJS.ProcessEnv, tool: string, tokenId?: string): CallContext {
  const ctx: CallContext = { surface: 'cli', tool };
  if (tokenId !== undefined) ctx.tokenId = tokenId;
  if (env.MEMLEDGER_RUN_ID) ctx.runId = env.MEMLEDGER_RUN_ID;
  if (env.MEMLEDGER_SESSION_ID) ctx.sessionId = env.MEMLEDGER_SESSION_ID;
  if (env.MEMLEDGER_ON_BEHALF_OF) ctx.onBehalfOf = env.MEMLEDGER_ON_BEHALF_OF;
  return ctx;
}

export type { CliIO };
