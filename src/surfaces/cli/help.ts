/** The text of `memledger help`: every command with its summary, the global options, the environment, exit codes. */
import { COMMANDS } from './commands/index.ts';

export function helpText(): string {
  const width = Math.max(0, ...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `memledger — a memory ledger for AI agents

usage: memledger COMMAND [options]        memledger help COMMAND for its options
       memledger --version                 the installed version (also -v)

commands:
${lines.join('\n')}

global options:
  --json        one JSON document on stdout; errors as {"error":{"class","message"}} on stderr
  --home DIR    the data directory (else MEMLEDGER_HOME, else ~/.memledger)
  --store S     the store: a path (a data directory, as --home) or postgres://USER@HOST/DB?tenant=T;
                beats MEMLEDGER_STORE, which beats MEMLEDGER_HOME
  --as P        act as a principal from the policy, e.g. agent:claude-code (else MEMLEDGER_PRINCIPAL);
                human:NAME only for yourself: acting as another person needs their token
  --token T     act as an API token's principal (else MEMLEDGER_TOKEN, which ps cannot show)

verdicts, claims, erasure and token management refuse the local operator in a coding agent's environment
or when stdin is not a terminal: a person runs them at a terminal; a script passes a human token.

environment: MEMLEDGER_STORE, MEMLEDGER_HOME, MEMLEDGER_TOKEN and MEMLEDGER_PRINCIPAL as above; MEMLEDGER_SESSION_ID,
MEMLEDGER_RUN_ID and MEMLEDGER_ON_BEHALF_OF are stamped into provenance; MEMLEDGER_SYNC=full fsyncs every
write (the README lists every variable).

reads on a data directory that does not exist say so and create nothing; init and writes create it.

exit codes: 0 ok, 1 internal, 2 invalid_input, 3 permission, 4 not_found, 5 conflict, 6 upstream
`;
}
