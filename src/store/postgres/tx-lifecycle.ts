/** A Postgres write transaction's lifecycle update of one memory row, its unique rules mapped (tx.ts). */
import { LIFECYCLE_COLUMNS } from '../memory-columns.ts';
import type { LifecycleChange } from '../port.ts';
import type { MemoryRow } from './rows.ts';
import type { TxSql } from './database.ts';
import { type Param, run } from './statements.ts';
import { uniqueWrite } from './unique-writes.ts';

/**
 * Sets the fields the change names on the row `before` read; false when it names none. A unique index's refusal
 * (I2: one successor, one current holder of a key) becomes `conflict` naming the winner (unique-writes.ts).
 */
export async function updateLifecycle(
  q: TxSql,
  id: string,
  before: MemoryRow,
  change: LifecycleChange,
): Promise<boolean> {
  const sets: string[] = [];
  const params: Param[] = [id];
  for (const [field, column] of Object.entries(LIFECYCLE_COLUMNS) as [keyof LifecycleChange, string][]) {
    if (change[field] !== undefined) {
      params.push(change[field] as Param);
      sets.push(`${column} = $${params.length}`);
    }
  }
  if (sets.length === 0) return false;
  await uniqueWrite(
    q,
    (tx) => run(tx, `update memledger.memories set ${sets.join(', ')} where id = $1`, params),
    before.scope,
    before.key,
    before.supersedes,
  );
  return true;
}
