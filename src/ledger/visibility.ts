/** Loading a memory for a principal: one answer, `not_found`, whether it does not exist or lies outside the grants (I4). */
import { containsSecret, maskSecrets } from '../guard/secrets.ts';
import { MemoryError } from '../model/errors.ts';
import type { Memory } from '../model/memory.ts';
import { memoryIdSchema } from '../model/memory.ts';
import { can } from '../policy/access.ts';
import type { Principal } from '../model/principal.ts';

/** Validates an id's shape before it reaches the store: a path- or SQL-shaped id is `invalid_input`. */
export function parseMemoryId(id: unknown): string {
  const parsed = memoryIdSchema.safeParse(id);
  if (!parsed.success)
    throw new MemoryError('invalid_input', `not a memory id: expected mem_ followed by 22 characters`);
  return parsed.data;
}

/** Absent and forbidden look the same, so a guessed id reveals nothing about another scope. */
export function visibleOr404(principal: Principal, memory: Memory | null, id: string): Memory {
  if (memory === null || !can(principal, 'read', memory.scope))
    throw new MemoryError('not_found', `no memory ${id}`);
  return memory;
}

/** Egress guard (I10): a memory whose text is secret-shaped is never emitted whole. */
export function hasSecret(memory: Memory): boolean {
  return (
    containsSecret(memory.body) || (memory.value !== null && containsSecret(JSON.stringify(memory.value)))
  );
}

export function maskMemory(memory: Memory): Memory {
  if (!hasSecret(memory)) return memory;
  return {
    ...memory,
    body: maskSecrets(memory.body),
    value: memory.value === null ? null : maskValue(memory.value),
  };
}

function maskValue(value: unknown): unknown {
  try {
    return JSON.parse(maskSecrets(JSON.stringify(value)));
  } catch {
    return '[masked]';
  }
}
