/** Whether a command may create the data directory, and the refusal for one that may not when it is missing. */
import { existsSync } from 'node:fs';
import { homePaths } from '../../store/sqlite/home.ts';
import { MemoryError } from '../../model/errors.ts';

/**
 * The commands that may create the data directory when it is not there: setting one up, the first write, and
 * the servers an agent writes through. Any other command (a read, a verdict on an id, an erasure, an index
 * rebuild) on a home that does not exist has nothing to act on: it says so and creates nothing, where it used to
 * leave an empty home behind (a mistyped --home then looked like an empty ledger).
 */
const CREATES_HOME = new Set([
  'init',
  'remember',
  'import',
  'claim',
  'token create',
  'feeds add',
  'install',
  'serve',
  'mcp',
]);

export const createsHome = (command: string): boolean => CREATES_HOME.has(command);

/** A read on a data directory that is not there is refused before anything would create it. */
export function assertHomeExists(home: string): void {
  if (existsSync(homePaths(home).memoryDb)) return;
  throw new MemoryError(
    'not_found',
    `no memledger data directory at ${home} (no memory.db there); nothing was created. ` +
      'Create it with memledger init, or name the one you meant with --home DIR or MEMLEDGER_HOME',
  );
}
