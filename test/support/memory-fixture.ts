/** A whole `Memory` value for unit tests of code that reads one (no store): an active fact, with `fields` over it. */
import type { Memory } from '../../src/index.ts';

export function memoryFixture(fields: Partial<Memory> = {}): Memory {
  const at = fields.recordedAt ?? '2026-01-01T00:00:00.000Z';
  return {
    id: 'mem_01m8mbz807000ft8dk9paf',
    scope: 'shared',
    kind: 'fact',
    key: null,
    body: 'x',
    value: null,
    subjects: [],
    validFrom: null,
    validTo: null,
    validStart: null,
    validEnd: null,
    confidence: 1,
    supersedes: null,
    editOf: null,
    fingerprint: 'f',
    provenance: { principal: 'agent:bot', principalKind: 'agent', surface: 'library' },
    recordedAt: at,
    state: 'active',
    trust: 'accepted',
    supersededBy: null,
    activeFrom: at,
    activeUntil: null,
    confirmedBy: null,
    rule: null,
    ...fields,
  };
}
