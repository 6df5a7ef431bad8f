/**
 * Defining behaviors: add (a new version when the definition changed), list, show, disable. Only a human admin
 * defines or disables one (I7): a behavior decides what agents are handed and what they may write.
 */
import { MemoryError } from '../model/errors.ts';
import { principalLabel } from '../model/principal.ts';
import { assertHumanWithRole, assertRole } from '../policy/access.ts';
import type { Deps } from '../ledger/deps.ts';
import { parseInput } from '../ledger/parse.ts';
import type { BehaviorRow } from '../store/behaviors-port.ts';
import { BEHAVIOR_NAME, type BehaviorDefinition, behaviorDefinitionSchema } from './definition.ts';
import { definitionOf } from './stored.ts';

/** A behavior as the surfaces show it. */
export interface Behavior {
  name: string;
  version: number;
  definition: BehaviorDefinition;
  createdBy: string;
  createdAt: string;
  disabledAt: string | null;
}

export async function behaviorAdd(deps: Deps, input: unknown): Promise<Behavior & { changed: boolean }> {
  assertHumanWithRole(deps.principal, 'admin', 'define a behavior');
  const def = parseInput(behaviorDefinitionSchema, input, 'behavior definition');
  const text = JSON.stringify(def);
  return deps.store.transaction(async (tx) => {
    const current = await tx.behaviors.behavior(def.name);
    if (current !== null && current.definition === text && current.disabledAt === null) {
      return { ...shown(current), changed: false };
    }
    const version = current === null ? 1 : current.version + (current.definition === text ? 0 : 1);
    if (current !== null && version === current.version) {
      // The same definition, disabled: adding it again enables it.
      await tx.behaviors.setDisabled(def.name, null);
    } else {
      await tx.behaviors.saveVersion({
        name: def.name,
        version,
        definition: text,
        createdBy: principalLabel(deps.principal),
        createdAt: deps.now(),
      });
    }
    const row = await tx.behaviors.behavior(def.name);
    return { ...shown(row!), changed: true };
  });
}

export async function behaviorList(deps: Deps): Promise<Behavior[]> {
  assertRole(deps.principal, 'reader', 'list behaviors');
  return (await deps.store.behaviors.list()).map(shown);
}

export async function behaviorShow(deps: Deps, name: string): Promise<Behavior> {
  assertRole(deps.principal, 'reader', 'show a behavior');
  const row = await deps.store.behaviors.behavior(checkName(name));
  if (row === null) throw new MemoryError('not_found', `no behavior named ${name}`);
  return shown(row);
}

export async function behaviorDisable(deps: Deps, name: string): Promise<{ name: string; disabled: true }> {
  assertHumanWithRole(deps.principal, 'admin', 'disable a behavior');
  checkName(name);
  const found = await deps.store.transaction((tx) => tx.behaviors.setDisabled(name, deps.now()));
  if (!found) throw new MemoryError('not_found', `no behavior named ${name}`);
  return { name, disabled: true };
}

export function checkName(name: string): string {
  if (typeof name !== 'string' || !BEHAVIOR_NAME.test(name)) {
    throw new MemoryError('invalid_input', 'a behavior name: lower-case letters, digits, . _ - (up to 63)');
  }
  return name;
}

const shown = (row: BehaviorRow): Behavior => ({
  name: row.name,
  version: row.version,
  definition: definitionOf(row),
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  disabledAt: row.disabledAt,
});
