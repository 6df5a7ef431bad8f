/**
 * The MCP reference memory server's `memory.jsonl` (`@modelcontextprotocol/server-memory`): one JSON object a
 * line, entities `{type:"entity", name, entityType, observations[]}` then relations `{type:"relation", from, to,
 * relationType}`, as its `saveGraph` writes them. Each observation becomes a fact about its entity, each
 * relation a fact about both ends; an entity with no observations is recorded as what it is.
 */
import { basename } from 'node:path';
import { malformed, readText } from './io.ts';
import { recordId, subjectList, subjectOf } from './subjects.ts';
import type { ForeignLine, PlainLine, Reader } from './types.ts';

const CONNECTOR = 'mcp-memory';

interface Entity {
  name: string;
  entityType: string;
  observations: string[];
  at: string;
}
interface Relation {
  from: string;
  to: string;
  relationType: string;
  at: string;
}

export const readMcpMemory: Reader = (path) => {
  const text = readText(path);
  const file = basename(path);
  const entities: Entity[] = [];
  const relations: Relation[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const at = `${file}:${i + 1}`;
    let doc: unknown;
    try {
      doc = JSON.parse(raw);
    } catch {
      throw malformed(at, 'not a JSON line of an MCP memory file');
    }
    const record = (doc ?? {}) as Record<string, unknown>;
    if (record.type === 'entity') entities.push(entityOf(record, at));
    else if (record.type === 'relation') relations.push(relationOf(record, at));
    else throw malformed(at, 'type must be "entity" or "relation"');
  });
  const types = new Map(entities.map((e) => [e.name, e.entityType]));
  const about = (name: string) => subjectOf(types.get(name) ?? 'entity', name);
  const lines: ForeignLine[] = [];
  for (const e of entities) {
    const subjects = subjectList([about(e.name)]);
    e.observations.forEach((o, n) => {
      const id = `observation:${recordId(e.name, o)}`;
      lines.push({
        line: fact(`${e.name}: ${o.trim()}`, subjects, id),
        origin: `${e.at} observation ${n + 1}`,
      });
    });
    if (e.observations.length === 0) {
      const id = `entity:${recordId(e.name, e.entityType)}`;
      lines.push({
        line: fact(
          `${e.name} is ${/^[aeiou]/i.test(e.entityType) ? 'an' : 'a'} ${e.entityType}.`,
          subjects,
          id,
        ),
        origin: e.at,
      });
    }
  }
  for (const r of relations) {
    const id = `relation:${recordId(r.from, r.relationType, r.to)}`;
    const body = `${r.from} ${r.relationType} ${r.to}`;
    lines.push({ line: fact(body, subjectList([about(r.from), about(r.to)]), id), origin: r.at });
  }
  return { lines, records: entities.length + relations.length, dropped: 0 };
};

function fact(body: string, subjects: string[], id: string): PlainLine {
  return { body, kind: 'fact', subjects, source: { connector: CONNECTOR, id } };
}

function entityOf(r: Record<string, unknown>, at: string): Entity {
  const name = text(r.name, at, 'name');
  const entityType = text(r.entityType, at, 'entityType');
  const observations = r.observations ?? [];
  if (!Array.isArray(observations) || observations.some((o) => typeof o !== 'string')) {
    throw malformed(at, 'an entity\'s "observations" must be a list of strings');
  }
  // The server stores an observation once per entity; a hand-edited file may repeat one, which is one claim.
  return { name, entityType, observations: [...new Set(observations as string[])].filter(nonBlank), at };
}

function relationOf(r: Record<string, unknown>, at: string): Relation {
  return {
    from: text(r.from, at, 'from'),
    to: text(r.to, at, 'to'),
    relationType: text(r.relationType, at, 'relationType'),
    at,
  };
}

function text(value: unknown, at: string, field: string): string {
  if (typeof value !== 'string' || !nonBlank(value))
    throw malformed(at, `"${field}" must be a non-empty string`);
  return value.trim();
}

const nonBlank = (s: string): boolean => s.trim() !== '';
