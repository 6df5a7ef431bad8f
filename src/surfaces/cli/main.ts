/** The `memledger` command line: global options, command lookup, rendering and the error contract. */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { openLedger, type Ledger, type LedgerSession } from '../../ledger/ledger.ts';
import { asMemoryError, MemoryError } from '../../model/errors.ts';
import type { CallContext } from '../../model/context.ts';
import type { CliContext, CliIO, Command } from './command.ts';
import { COMMANDS } from './commands/index.ts';
import { exitCodeFor } from './exit-codes.ts';

const GLOBAL_OPTIONS: ParseArgsOptionsConfig = {
  json: { type: 'boolean' },
  home: { type: 'string' },
  as: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** Runs one command line and returns the exit code. Never throws. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const json = argv.includes('--json');
  let ledger: Ledger | undefined;
  try {
    const { command, rest } = findCommand(argv);
    if (command === undefined) {
      io.stdout.write(helpText());
      return argv.length === 0 || argv.includes('--help') || argv[0] === 'help'
        ? 0
        : exitWith(
            io,
            json,
            new MemoryError(
              'invalid_input',
              `unknown command: ${
                argv
                  .filter((a) => !a.startsWith('-'))
                  .slice(0, 2)
                  .join(' ') || argv[0]
              }`,
            ),
          );
    }
    const parsed = parseCommandArgs(command, rest);
    if (parsed.values.help === true) {
      io.stdout.write(`${command.usage}\n`);
      return 0;
    }
    const homeOption = parsed.values.home as string | undefined;
    const principalRef = (parsed.values.as as string | undefined) ?? io.env.MEMLEDGER_PRINCIPAL;
    const ctx: CliContext = {
      io,
      json,
      homeOption,
      ledger: () => {
        ledger ??= openLedger({
          home: homeOption,
          sync: io.env.MEMLEDGER_SYNC === 'full' ? 'full' : 'normal',
        });
        return ledger;
      },
      session: () => {
        const l = ctx.ledger();
        const principal =
          principalRef === undefined || principalRef === '' ? l.operator() : l.principal(principalRef);
        return l.as(principal, cliContext(io.env, command.name));
      },
    };
    const result = await command.run(ctx, parsed.positionals, parsed.values);
    if (result !== undefined) {
      const text = json
        ? `${JSON.stringify(result)}\n`
        : command.render
          ? command.render(result as never, ctx)
          : `${JSON.stringify(result, null, 2)}\n`;
      io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    }
    return 0;
  } catch (error) {
    return exitWith(io, json, asMemoryError(error));
  } finally {
    ledger?.close();
  }
}

function exitWith(io: CliIO, json: boolean, error: MemoryError): number {
  if (json) io.stderr.write(`${JSON.stringify({ error: { class: error.class, message: error.message } })}\n`);
  else io.stderr.write(`memledger: ${error.class}: ${error.message}\n`);
  return exitCodeFor(error.class);
}

/** Provenance for CLI calls: run and session ids may come from the environment of a hook or a script. */
function cliContext(env: NodeJS.ProcessEnv, tool: string): CallContext {
  const ctx: CallContext = { surface: 'cli', tool };
  if (env.MEMLEDGER_RUN_ID) ctx.runId = env.MEMLEDGER_RUN_ID;
  if (env.MEMLEDGER_SESSION_ID) ctx.sessionId = env.MEMLEDGER_SESSION_ID;
  if (env.MEMLEDGER_ON_BEHALF_OF) ctx.onBehalfOf = env.MEMLEDGER_ON_BEHALF_OF;
  return ctx;
}

/** The longest run of leading words naming a command wins: `review approve` before `review`. */
function findCommand(argv: string[]): { command: Command | undefined; rest: string[] } {
  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith('-')) break;
    words.push(a);
    if (words.length === 2) break;
  }
  for (let n = words.length; n > 0; n--) {
    const name = words.slice(0, n).join(' ');
    const command = COMMANDS.find((c) => c.name === name);
    if (command !== undefined) {
      const rest = [...argv];
      for (const w of words.slice(0, n)) rest.splice(rest.indexOf(w), 1);
      return { command, rest };
    }
  }
  return { command: undefined, rest: argv };
}

function parseCommandArgs(command: Command, rest: string[]) {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new MemoryError(
      'invalid_input',
      `${(error as Error).message.replace(/\. To specify.*$/s, '')}\nusage: ${command.usage.split('\n')[0]}`,
    );
  }
  const limits = command.positionals ?? { min: 0, max: 0 };
  if (parsed.positionals.length < limits.min || parsed.positionals.length > limits.max) {
    throw new MemoryError(
      'invalid_input',
      `${command.name} takes ${limits.min === limits.max ? limits.min : `${limits.min} to ${limits.max}`} argument(s), got ${parsed.positionals.length}\nusage: ${command.usage.split('\n')[0]}`,
    );
  }
  return parsed;
}

function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `memledger — a memory ledger for AI agents\n\nusage: memledger COMMAND [options]\n\ncommands:\n${lines.join('\n')}\n\nglobal options:\n  --json        one JSON document on stdout; errors as {"error":{"class","message"}} on stderr\n  --home DIR    the data directory (else MEMLEDGER_HOME, else ~/.memledger)\n  --as P        act as a principal from the policy, e.g. agent:claude-code (else MEMLEDGER_PRINCIPAL)\n\nexit codes: 0 ok, 1 internal, 2 invalid_input, 3 permission, 4 not_found, 5 conflict, 6 upstream\n`;
}

export type { CliIO };
