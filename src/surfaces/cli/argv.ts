/** Reading the command line before any command runs: global options, which words name the command, its arguments. */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { MemoryError } from '../../model/errors.ts';
import type { Command } from './command.ts';
import { COMMANDS, type CommandEntry } from './commands/index.ts';

const GLOBAL_OPTIONS: ParseArgsOptionsConfig = {
  json: { type: 'boolean' },
  home: { type: 'string' },
  /** A path (an embedded home) or a postgres:// URL; --home names a path only. */
  store: { type: 'string' },
  as: { type: 'string' },
  /** An API token: the caller becomes its principal. A secret: never echoed, never audited. */
  token: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};
/** Global options may also come before the command words: `memledger --json demo`. */
const GLOBAL_WITH_VALUE = new Set(['--home', '--store', '--as', '--token']);
export const GLOBAL_FLAGS = new Set(['--json', '--help', '-h']);

/**
 * The longest run of leading words naming a command wins: `review approve` before `review`. Global options
 * may precede the words; any other option ends them.
 */
export function findCommand(argv: string[]): {
  entry: CommandEntry | undefined;
  rest: string[];
  words: string[];
} {
  const words: { word: string; at: number }[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (words.length > 0) break;
      if (GLOBAL_WITH_VALUE.has(a)) i++;
      else if (!GLOBAL_FLAGS.has(a) && !/^--(home|store|as|token)=/.test(a)) break;
      continue;
    }
    words.push({ word: a, at: i });
  }
  for (let n = words.length; n > 0; n--) {
    const chosen = words.slice(0, n);
    const entry = COMMANDS.find((c) => c.name === chosen.map((w) => w.word).join(' '));
    if (entry !== undefined) {
      const taken = new Set(chosen.map((w) => w.at));
      return { entry, rest: argv.filter((_, i) => !taken.has(i)), words: chosen.map((w) => w.word) };
    }
  }
  return { entry: undefined, rest: argv, words: words.map((w) => w.word) };
}

export function parseCommandArgs(command: Command, rest: string[]) {
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
  const got = parsed.positionals.length;
  if (parsed.values.help !== true && (got < limits.min || got > limits.max)) {
    const expected = limits.min === limits.max ? `${limits.min}` : `${limits.min} to ${limits.max}`;
    const hint = got > limits.max && limits.max > 0 ? ' (quote text that contains spaces)' : '';
    throw new MemoryError(
      'invalid_input',
      `${command.name} takes ${expected} argument(s), got ${got}${hint}\nusage: ${command.usage.split('\n')[0]}`,
    );
  }
  return parsed;
}

/** The arguments before `--`: after it everything is a positional, even `--json`. */
export function optionArgs(argv: string[]): string[] {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).filter((a) => a.startsWith('-'));
}

/** The arguments without any `--token SECRET` or `--token=SECRET`: a secret never reaches the audit. */
export function withoutToken(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (a === '--token') i++;
    else if (!a.startsWith('--token=')) out.push(a);
  }
  return out;
}

/** The last value given to an option (`--home X` or `--home=X`), read without the command's parser. */
export function lastValue(argv: string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === name) value = argv[++i];
    else if (a.startsWith(`${name}=`)) value = a.slice(name.length + 1);
  }
  return value;
}
