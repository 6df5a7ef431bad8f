/**
 * Writes a unique index may refuse on Postgres (I2's one landed successor, one current holder per key): run in a
 * savepoint so the refusal leaves the transaction usable, and turned into a conflict that names the winner.
 */
import { MemoryError } from '../../model/errors.ts';
import type { TxSql } from './database.ts';
import { MEMORY_COLUMNS, type MemoryRow } from './rows.ts';
import { one, type Q } from './statements.ts';

/**
 * The active memory holding a key in a scope (keys compare case-insensitively): on `key_folded`, lower() on the
 * parameter only, so the key index serves it under row-level security (migration 10).
 */
export function readHolder(q: Q, scope: string, key: string): Promise<MemoryRow | undefined> {
  return one<MemoryRow>(
    q,
    `select ${MEMORY_COLUMNS} from memledger.memories m
       where m.scope = $1 and m.key_folded = lower($2) and m.state = 'active' and m.key is not null`,
    [scope, key],
  );
}

/**
 * Runs a write that a unique index may refuse inside a savepoint, so a refusal leaves the transaction usable
 * (as a failed statement leaves SQLite's) and the conflict can name the winner (I2, one holder per key).
 */
export async function uniqueWrite<T>(
  q: TxSql,
  write: (q: TxSql) => Promise<T>,
  scope: string,
  key: string | null,
  supersedes: string | null,
): Promise<T> {
  try {
    return (await q.savepoint((sp) => write(sp))) as T;
  } catch (error) {
    const constraint = (error as { constraint_name?: string }).constraint_name;
    if ((error as { code?: string }).code !== '23505') throw error;
    if (constraint === 'memories_one_successor' && supersedes !== null) {
      const winner = await one<{ id: string }>(
        q,
        `select id from memledger.memories where supersedes = $1 and state not in ('held','rejected')
           and active_from is not null`,
        [supersedes],
      );
      return Promise.reject(
        new MemoryError(
          'conflict',
          `memory ${supersedes} was already superseded by ${winner?.id ?? 'another write'}`,
          {
            details: { winner: winner?.id ?? null, supersedes },
            cause: error,
          },
        ),
      );
    }
    if (constraint === 'memories_key_holder' && key !== null) {
      const holder = await readHolder(q, scope, key);
      return Promise.reject(
        new MemoryError(
          'conflict',
          `key ${key} in ${scope} is already held by ${holder?.id ?? 'another memory'}; supersede it instead`,
          { details: { winner: holder?.id ?? null, key }, content: [key], cause: error },
        ),
      );
    }
    throw error;
  }
}
