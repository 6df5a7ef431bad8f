/** Mapping between memory rows and records, and the text each memory contributes to the full-text index. */
import { canonicalJson, sha256Hex } from '../../guard/canonical.ts';
import type { Memory } from '../../model/memory.ts';
import type { NewMemory } from '../port.ts';
import { INSERT_COLUMNS } from '../memory-columns.ts';

export { metaText } from '../text/document.ts';

export interface MemoryRow {
  seq: number;
  id: string;
  scope: string;
  kind: string;
  key: string | null;
  body: string;
  value: string | null;
  subjects: string;
  valid_from: string | null;
  valid_to: string | null;
  confidence: number;
  supersedes: string | null;
  edit_of: string | null;
  fingerprint: string;
  provenance: string;
  recorded_at: string;
  state: string;
  trust: string;
  superseded_by: string | null;
  active_from: string | null;
  active_until: string | null;
  confirmed_by: string | null;
  rule: string | null;
  valid_start: string | null;
  valid_end: string | null;
}

export const MEMORY_COLUMNS =
  'm.seq, m.id, m.scope, m.kind, m.key, m.body, m.value, m.subjects, m.valid_from, m.valid_to, m.confidence, m.supersedes, m.edit_of, m.fingerprint, m.provenance, m.recorded_at, m.state, m.trust, m.superseded_by, m.active_from, m.active_until, m.confirmed_by, m.rule, m.valid_start, m.valid_end';

/**
 * A row of MEMORY_COLUMNS read as an array (`setReturnArrays`), as the named row it stands for. node:sqlite
 * builds a named row of these 25 columns more slowly than this literal: a search's getMemories of 10 rows,
 * read and made into records, 67 -> 48 us CPU at 100k (test/store/rows.test.ts keeps the order in step).
 */
export function rowFromColumns(c: readonly unknown[]): MemoryRow {
  return {
    seq: c[0],
    id: c[1],
    scope: c[2],
    kind: c[3],
    key: c[4],
    body: c[5],
    value: c[6],
    subjects: c[7],
    valid_from: c[8],
    valid_to: c[9],
    confidence: c[10],
    supersedes: c[11],
    edit_of: c[12],
    fingerprint: c[13],
    provenance: c[14],
    recorded_at: c[15],
    state: c[16],
    trust: c[17],
    superseded_by: c[18],
    active_from: c[19],
    active_until: c[20],
    confirmed_by: c[21],
    rule: c[22],
    valid_start: c[23],
    valid_end: c[24],
  } as MemoryRow;
}

export function toMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    scope: row.scope,
    kind: row.kind as Memory['kind'],
    key: row.key,
    body: row.body,
    value: row.value === null ? null : JSON.parse(row.value),
    subjects: JSON.parse(row.subjects) as string[],
    validFrom: row.valid_from,
    validTo: row.valid_to,
    confidence: row.confidence,
    supersedes: row.supersedes,
    editOf: row.edit_of,
    fingerprint: row.fingerprint,
    provenance: JSON.parse(row.provenance),
    recordedAt: row.recorded_at,
    state: row.state as Memory['state'],
    trust: row.trust as Memory['trust'],
    supersededBy: row.superseded_by,
    activeFrom: row.active_from,
    activeUntil: row.active_until,
    confirmedBy: row.confirmed_by,
    rule: row.rule,
    validStart: row.valid_start,
    validEnd: row.valid_end,
  };
}

/** A new memory's row as positional values, in `INSERT_COLUMNS` order. */
export function insertValues(m: NewMemory): (string | number | null)[] {
  const row = insertParams(m);
  return INSERT_COLUMNS.map((c) => row[c] ?? null);
}

export function insertParams(m: NewMemory): Record<string, string | number | null> {
  return {
    id: m.id,
    scope: m.scope,
    kind: m.kind,
    key: m.key,
    body: m.body,
    value: m.value === null || m.value === undefined ? null : canonicalJson(m.value),
    subjects: JSON.stringify(m.subjects),
    valid_from: m.validFrom,
    valid_to: m.validTo,
    confidence: m.confidence,
    supersedes: m.supersedes,
    edit_of: m.editOf,
    fingerprint: m.fingerprint,
    provenance: JSON.stringify(m.provenance),
    recorded_at: m.recordedAt,
    state: m.state,
    trust: m.trust,
    active_from: m.activeFrom,
    active_until: m.activeUntil ?? null,
    superseded_by: m.supersededBy ?? null,
    confirmed_by: m.confirmedBy ?? null,
    rule: m.rule,
    valid_start: m.validStart === undefined ? m.validFrom : m.validStart,
    valid_end: m.validEnd === undefined ? m.validTo : m.validEnd,
    erased_at: m.erasedAt ?? null,
  };
}

/** The scope's token in the index: one opaque word, so `user:a.b` can never match `user:a` by phrase. */
export function scopeToken(scope: string): string {
  // Every indexed row and every scoped search needs its scope's token; a home has few scopes, so hashing
  // each once per process instead of once per row takes a SHA-256 off every write.
  let tok = scopeTokens.get(scope);
  if (tok === undefined) {
    tok = `sc${sha256Hex(scope).slice(0, 16)}`;
    if (scopeTokens.size >= SCOPE_TOKEN_CACHE) scopeTokens.clear();
    scopeTokens.set(scope, tok);
  }
  return tok;
}

/** Enough for any real home; a process that sees more (a server over many homes) starts the cache again. */
const SCOPE_TOKEN_CACHE = 10_000;
const scopeTokens = new Map<string, string>();
