/**
 * What the agent reads back, as the structured results of output-schemas.ts: each memory with why it matched
 * and where it came from, and every outcome with what to do next. Claude Code and Codex show the model only
 * the structured result, so everything it must act on is here, and the text block is this same object as JSON.
 * Every piece of memory text is one inert line (`inertLine`): it cannot start a line, close a frame or open one.
 */
import { inertLine } from '../../guard/inert-text.ts';
import type { History, Memory, SearchHit, WriteResult } from '../../index.ts';
import { OPEN_END, OPEN_START, type QueryTime } from '../../ledger/query-time.ts';
import type { HitOutput, MemoryOutput, SaveOutput, SearchOutput } from './output-schemas.ts';

/** Memory text on one inert line; see `inertLine`. */
export const oneLine = inertLine;

/** A memory in full, for get_memory: fields that do not apply are left out, not null. */
export function memoryView(m: Memory): MemoryOutput {
  const p = m.provenance;
  const provenance: MemoryOutput['provenance'] = {
    principal: p.principal,
    principal_kind: p.principalKind,
    surface: p.surface,
  };
  if (p.client !== undefined) provenance.client = p.client;
  if (p.sessionId !== undefined) provenance.session_id = p.sessionId;
  if (p.runId !== undefined) provenance.run_id = p.runId;
  if (p.source !== undefined) provenance.source = inertValue(p.source) as typeof p.source;
  const out: MemoryOutput = {
    ...contentOf(m),
    state: m.state,
    trust: m.trust,
    confidence: m.confidence,
    recorded_at: m.recordedAt,
    provenance,
  };
  if (m.supersedes !== null) out.supersedes = m.supersedes;
  if (m.supersededBy !== null) out.superseded_by = m.supersededBy;
  if (m.confirmedBy !== null) out.confirmed_by = m.confirmedBy;
  return out;
}

/** A search hit: the memory's content, trust, score, and one line each of why it matched and where from. */
export function hitView(h: SearchHit): HitOutput {
  const m = h.memory;
  const out: HitOutput = {
    ...contentOf(m),
    trust: m.trust,
    score: Math.round(h.score * 1000) / 1000,
    why: whyLine(h.why),
    from: origin(m),
  };
  if (m.state !== 'active') out.state = m.state;
  if (m.confidence !== 1) out.confidence = m.confidence;
  const { before, after } = h.neighbours ?? { before: null, after: null };
  if (before !== null) out.before = { ...contentOf(before), from: origin(before) };
  if (after !== null) out.after = { ...contentOf(after), from: origin(after) };
  return out;
}

/** The query's resolved time; an open side (before/after an instant) is left out rather than shown as year 0 or 9999. */
export function timeView(t: QueryTime): NonNullable<SearchOutput['time']> {
  const out: NonNullable<SearchOutput['time']> = { expression: oneLine(t.expression) };
  if (t.from !== OPEN_START) out.from = t.from;
  if (t.to !== OPEN_END) out.to = t.to;
  if (t.anchor !== undefined) out.anchor = t.anchor;
  return out;
}

/** A write's outcome, with what to do about it when there is anything to do. */
export function writeView(r: WriteResult, scope: string): SaveOutput {
  const out: SaveOutput = { id: r.id, state: r.state, scope };
  if (r.supersedes !== undefined && r.supersedes !== null) out.supersedes = r.supersedes;
  if (r.corroborated === true) out.corroborated = true;
  if (r.reason !== undefined) out.reason = oneLine(r.reason);
  const next = writeNext(r, out.supersedes);
  if (next !== undefined) out.next = next;
  return out;
}

function writeNext(r: WriteResult, supersedes: string | undefined): string | undefined {
  if (r.corroborated === true) {
    return `This claim is already known as ${r.id}; your save counts as support for it. Do not save it again.`;
  }
  if (r.state === 'held') {
    return (
      `Not visible to anyone until a person approves it; do not save it again. ` +
      'If the user needs it now, tell them it is waiting for review.'
    );
  }
  if (r.state === 'rejected') {
    return (
      'Not saved: a person rejected this claim. Do not save it again; ' +
      'if you have new evidence that it is true, tell the user instead.'
    );
  }
  if (supersedes !== undefined) {
    return `It replaces ${supersedes}, which stays in history as the earlier version; do not forget or re-save it.`;
  }
  return undefined;
}

/** What a memory that is not current means to the agent; nothing for an active one. */
export function stateNext(m: Memory): string | undefined {
  switch (m.state) {
    case 'held':
      return 'Held for review: not visible in search until a person approves it. Do not save it again.';
    case 'superseded':
      return `Superseded by ${m.supersededBy ?? 'a later version'}: it is history, not the current fact.`;
    case 'retracted':
      return 'Retracted (forgotten): it is history only.';
    case 'rejected':
      return 'Rejected by a reviewer: do not save this claim again.';
    case 'erased':
      return 'Erased: its content is gone.';
    default:
      return undefined;
  }
}

export function historyView(h: History) {
  return {
    ...(h.current === null ? {} : { current: h.current }),
    versions: h.versions.map(memoryView),
    events: h.events.map((e) => ({
      type: e.type,
      memory_id: e.memoryId,
      actor: e.actor,
      at: e.at,
      ...(e.reason === null || e.reason === '' ? {} : { reason: oneLine(e.reason) }),
    })),
  };
}

/** `agent:bot via mcp claude-code/2.1.5 on 2025-03-01T09:00:00Z; source https://…; confirmed by human:ann` */
export function origin(m: Memory): string {
  const p = m.provenance;
  const via = [p.surface, p.client].filter((x) => x !== undefined).join(' ');
  // Seconds are enough to judge how fresh it is; session and run ids are get_memory's.
  let out = `${p.principal} via ${via} on ${m.recordedAt.replace(/\.\d+Z$/, 'Z')}`;
  if (p.source !== undefined) {
    const s = p.source;
    out += `; source ${[s.connector, s.id, s.url, s.note].filter((x) => x !== undefined).join(' ')}`;
  }
  if (m.confirmedBy !== null) out += `; confirmed by ${m.confirmedBy}`;
  return oneLine(out);
}

/** What every view of a memory shows of its content, memory text made inert. */
function contentOf(m: Memory) {
  const out: Pick<MemoryOutput, 'id' | 'scope' | 'kind' | 'key' | 'body' | 'value' | 'subjects'> &
    Pick<MemoryOutput, 'valid_from' | 'valid_to'> = {
    id: m.id,
    scope: m.scope,
    kind: m.kind,
    body: oneLine(m.body),
  };
  if (m.key !== null) out.key = oneLine(m.key);
  if (m.value !== null && m.value !== undefined) out.value = inertValue(m.value);
  if (m.subjects.length > 0) out.subjects = m.subjects.map(oneLine);
  if (m.validFrom !== null) out.valid_from = m.validFrom;
  if (m.validTo !== null) out.valid_to = m.validTo;
  return out;
}

/** A structured value with every string in it, keys included, made inert: JSON text leaves U+2028 raw. */
function inertValue(v: unknown): unknown {
  if (typeof v === 'string') return oneLine(v);
  if (Array.isArray(v)) return v.map(inertValue);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [oneLine(k), inertValue(x)]));
  }
  return v;
}

/** Which query words matched and, when search used vectors, the memory's cosine to the query. */
function whyLine(why: SearchHit['why']): string {
  const parts: string[] = [];
  if (why.matched.length > 0) parts.push(`matched ${why.matched.join(', ')}`);
  else if (why.text > 0) parts.push('matched by stem');
  if (why.vector !== undefined && (why.text > 0 || why.replyTo === undefined)) {
    parts.push(`${parts.length === 0 ? 'matched by ' : ''}meaning ${why.vector.toFixed(2)}`);
  }
  // A reply found for a hit holds none of the query's words, often the answer: the agent is told which turn it answers.
  if (why.replyTo !== undefined) parts.push(`the reply to ${why.replyTo}`);
  if (why.time !== undefined && why.time.match !== 'outside') parts.push(`in "${why.time.expression}"`);
  if (why.present !== undefined && why.present.weight > 1)
    parts.push(`newer, for "${why.present.expression}"`);
  return oneLine(parts.length === 0 ? 'matched by stem' : parts.join('; '));
}
