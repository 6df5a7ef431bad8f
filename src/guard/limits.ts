/** Write-side checks before the gate: no credentials (I10) and sizes a person can read in an error. */
import { MemoryError } from '../model/errors.ts';
import { canonicalJson } from './canonical.ts';
import { findSecret } from './secrets.ts';
import { LIMITS } from '../model/memory.ts';

/** Refuses a write whose text or value holds something secret-shaped; names the kind, never echoes the secret. */
export function assertNoSecrets(fields: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    const text = typeof value === 'string' ? value : canonicalJson(value);
    const found = findSecret(text);
    if (found !== null) {
      throw new MemoryError(
        'invalid_input',
        `${name} looks like it contains a credential (${found.kind}); memledger never stores secrets. Remove it and write again.`,
        { details: { field: name, secretKind: found.kind } },
      );
    }
  }
}

export function assertValueSize(value: unknown): void {
  if (value === undefined) return;
  const size = canonicalJson(value).length;
  if (size > LIMITS.value) {
    throw new MemoryError(
      'invalid_input',
      `value is ${size} characters of JSON; the limit is ${LIMITS.value}`,
    );
  }
}
