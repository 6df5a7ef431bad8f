/** Reading a stored behavior back: its row, and its definition parsed from the version it names. */
import { MemoryError } from '../model/errors.ts';
import type { BehaviorRow, BehaviorTx, BehaviorVersionRow } from '../store/behaviors-port.ts';
import type { StoreTx } from '../store/port.ts';
import { type BehaviorDefinition, behaviorDefinitionSchema } from './definition.ts';

export function definitionOf(row: BehaviorVersionRow): BehaviorDefinition {
  return behaviorDefinitionSchema.parse(JSON.parse(row.definition));
}

/** The behavior and its current definition; `not_found` when there is none, `conflict` when it is disabled. */
export async function loadEnabled(
  tx: StoreTx | { behaviors: Pick<BehaviorTx, 'behavior'> },
  name: string,
): Promise<{ row: BehaviorRow; def: BehaviorDefinition }> {
  const row = await tx.behaviors.behavior(name);
  if (row === null) throw new MemoryError('not_found', `no behavior named ${name}`);
  if (row.disabledAt !== null) throw new MemoryError('conflict', `behavior ${name} is disabled`);
  return { row, def: definitionOf(row) };
}
