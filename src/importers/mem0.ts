/**
 * A mem0 export: what mem0's `get_all` returns, `{"results": [{id, memory, hash, metadata, categories,
 * created_at, updated_at, user_id, agent_id, app_id, run_id, …}]}`, or a bare array of those memories.
 *
 * - scope: `user:<user_id>`, else `agent:<agent_id>`, else the import's default (`--scope` overrides all)
 * - subjects: `user:`, `agent:`, `app:` and `run:` of the ids it names, and `category:<c>` per category, so
 *   everything about a user, an agent or one run can be found and erased by subject
 * - value: mem0's `metadata` object as it was (left out when empty)
 * - valid time: mem0 rewrites a memory in place, so its text dates from `updated_at` (else `created_at`); that is
 *   `validFrom`. The recorded time is the import's own (a write by the importer cannot forge when memledger
 *   learned it); both of mem0's times stay in the source note.
 * - source id: mem0's id, so importing the same export again lands nothing twice.
 */
import { basename } from 'node:path';
import { MemoryError } from '../model/errors.ts';
import { scopeSchema } from '../model/scope.ts';
import { toIso } from '../model/time.ts';
import { malformed, readText } from './io.ts';
import { subjectList, subjectOf } from './subjects.ts';
import type { ForeignLine, Reader } from './types.ts';

const IDS = ['user_id', 'agent_id', 'app_id', 'run_id'] as const;

export const readMem0: Reader = (path, options) => {
  const file = basename(path);
  let doc: unknown;
  try {
    doc = JSON.parse(readText(path));
  } catch (error) {
    if (error instanceof MemoryError) throw error;
    throw malformed(file, 'not JSON');
  }
  const results = Array.isArray(doc) ? doc : (doc as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) {
    throw malformed(file, 'expected mem0\'s get_all shape, {"results": [...]}, or an array of memories');
  }
  const lines: ForeignLine[] = results.map((r, i) => {
    const at = `${file} record ${i + 1}`;
    if (r === null || typeof r !== 'object' || Array.isArray(r)) throw malformed(at, 'not a JSON object');
    return { line: lineOf(r as Record<string, unknown>, at, options.scope), origin: at };
  });
  return { lines, records: results.length, dropped: 0 };
};

function lineOf(r: Record<string, unknown>, at: string, scope: string | undefined): ForeignLine['line'] {
  const id = r.id;
  if (typeof id !== 'string' || id.trim() === '' || id.length > 200) {
    throw malformed(at, '"id" must be a non-empty string');
  }
  const where = `${at} (id ${/^[\w.:-]+$/.test(id) ? id : '?'})`;
  const memory = r.memory;
  if (typeof memory !== 'string' || memory.trim() === '') {
    throw malformed(where, '"memory" must be a non-empty string');
  }
  const ids: Partial<Record<(typeof IDS)[number], string>> = {};
  for (const field of IDS) {
    const v = r[field];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v !== 'string') throw malformed(where, `"${field}" must be a string or null`);
    ids[field] = v;
  }
  const metadata = r.metadata;
  if (
    metadata !== undefined &&
    metadata !== null &&
    (typeof metadata !== 'object' || Array.isArray(metadata))
  ) {
    throw malformed(where, '"metadata" must be an object or null');
  }
  const categories = r.categories ?? [];
  if (!Array.isArray(categories) || categories.some((c) => typeof c !== 'string')) {
    throw malformed(where, '"categories" must be a list of strings');
  }
  const created = time(r.created_at, where, 'created_at');
  const updated = time(r.updated_at, where, 'updated_at');
  const validFrom = updated ?? created;
  const target = scope ?? scopeOf(ids);
  const note = [created && `mem0 created_at ${created}`, updated && `updated_at ${updated}`]
    .filter(Boolean)
    .join(', ');
  return {
    body: memory.trim(),
    kind: 'fact',
    ...(target === undefined ? {} : { scope: target }),
    ...(metadata === undefined || metadata === null || Object.keys(metadata).length === 0
      ? {}
      : { value: metadata }),
    subjects: subjectList([
      ids.user_id === undefined ? null : subjectOf('user', ids.user_id),
      ids.agent_id === undefined ? null : subjectOf('agent', ids.agent_id),
      ids.app_id === undefined ? null : subjectOf('app', ids.app_id),
      ids.run_id === undefined ? null : subjectOf('run', ids.run_id),
      ...(categories as string[]).map((c) => subjectOf('category', c)),
    ]),
    ...(validFrom === undefined ? {} : { validFrom }),
    source: { connector: 'mem0', id: id.trim(), ...(note === '' ? {} : { note }) },
  };
}

/** The scope mem0's ids imply: the user's, else the agent's; an id the scope syntax refuses is folded to it. */
function scopeOf(ids: Partial<Record<(typeof IDS)[number], string>>): string | undefined {
  const [kind, id] =
    ids.user_id !== undefined
      ? ['user', ids.user_id]
      : ids.agent_id !== undefined
        ? ['agent', ids.agent_id]
        : [];
  if (kind === undefined || id === undefined) return undefined;
  const folded = id
    .trim()
    .replace(/[^A-Za-z0-9._@+-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 128);
  const scope = `${kind}:${folded}`;
  return scopeSchema.safeParse(scope).success ? scope : undefined;
}

function time(value: unknown, where: string, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw malformed(where, `"${field}" must be an ISO-8601 time`);
  try {
    return toIso(value, field);
  } catch (error) {
    throw malformed(where, (error as Error).message);
  }
}
