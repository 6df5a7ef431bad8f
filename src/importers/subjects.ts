/** Foreign names as memledger subjects (`type:id`, see `subjectSchema`) and stable ids for foreign records. */
import { createHash } from 'node:crypto';
import { LIMITS } from '../model/memory.ts';

/**
 * A subject from a foreign type and name, or null when nothing of the name is left. The type is folded to what
 * the schema takes (a lowercase letter first, then letters, digits, `_` and `-`); the id is lowercased with
 * whitespace runs as `-`, so `Alice Smith` and `alice smith` name one subject and an erasure by it reaches both.
 * @example subjectOf('Person', 'Alice Smith') // 'person:alice-smith'
 */
export function subjectOf(type: string, name: string): string | null {
  const t = slugType(type);
  const id = name.normalize('NFC').trim().toLowerCase().replace(/\s+/g, '-');
  if (id === '') return null;
  return `${t}:${id}`.slice(0, LIMITS.subject);
}

/** The type part of a subject: `Entity Type` → `entity-type`; nothing usable → `entity`. */
function slugType(type: string): string {
  const t = type
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .replace(/-+$/, '')
    .slice(0, 40);
  return t === '' ? 'entity' : t;
}

/** A short, stable hash of a record's parts (NUL-separated, so `a b`+`c` and `a`+`b c` differ). */
export function recordId(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);
}

/** Distinct subjects, nulls left out, at most the schema's count. */
export function subjectList(subjects: (string | null)[]): string[] {
  return [...new Set(subjects.filter((s): s is string => s !== null))].slice(0, LIMITS.subjects);
}
