/**
 * What the agent reads back: each memory with why it matched and where it came from, and write outcomes in
 * words it can act on. `data` is the structured form of the same thing; `text` is for the model.
 */
import { inertLine } from '../../guard/inert-text.ts';
import type { History, Memory, SearchHit, SearchResult, WriteResult } from '../../index.ts';

/** A memory as tools return it: content, lifecycle and provenance, in the tools' snake_case. */
export function memoryView(m: Memory): Record<string, unknown> {
  return {
    id: m.id,
    scope: m.scope,
    kind: m.kind,
    key: m.key,
    body: m.body,
    value: m.value,
    subjects: m.subjects,
    valid_from: m.validFrom,
    valid_to: m.validTo,
    state: m.state,
    trust: m.trust,
    confidence: m.confidence,
    recorded_at: m.recordedAt,
    supersedes: m.supersedes,
    superseded_by: m.supersededBy,
    confirmed_by: m.confirmedBy,
    provenance: provenanceView(m),
  };
}

export function hitView(h: SearchHit): Record<string, unknown> {
  return {
    ...memoryView(h.memory),
    score: h.score,
    why: {
      matched: h.why.matched,
      text_score: h.why.text,
      trust: h.why.trust,
      trust_weight: h.why.trustWeight,
      confidence_weight: h.why.confidenceWeight,
      recency_weight: h.why.recencyWeight,
    },
  };
}

export function renderWrite(r: WriteResult, scope: string): string {
  if (r.state === 'held') {
    return (
      `${r.reason ?? 'held for review'}. Memory ${r.id} is not visible to anyone until a person approves it; ` +
      'do not save it again. If the user needs it now, tell them it is waiting for review.'
    );
  }
  if (r.state === 'rejected') {
    return (
      `Not saved: ${r.reason ?? 'this claim was rejected'}. Do not save this claim again; ` +
      'if you have new evidence that it is true, tell the user instead.'
    );
  }
  const replaced =
    r.supersedes !== undefined && r.supersedes !== null
      ? ` It supersedes ${r.supersedes}, which stays in history as the earlier version.`
      : '';
  return `Saved as ${r.id} in ${scope} (${r.state}).${replaced}`;
}

export function renderSearch(query: string, result: SearchResult): string {
  if (result.hits.length === 0) {
    return `No current memories match ${JSON.stringify(query.slice(0, 200))} (searched for: ${result.terms.join(', ')}). If you learn it, save it.`;
  }
  const lines = [
    `${result.hits.length} memor${result.hits.length === 1 ? 'y' : 'ies'} for ${JSON.stringify(query.slice(0, 200))}, best first:`,
  ];
  result.hits.forEach((h, i) => {
    lines.push('', `${i + 1}. ${headline(h.memory)}`, `   ${oneLine(h.memory.body)}`);
    const matched = h.why.matched.length > 0 ? `matched ${h.why.matched.join(', ')}` : 'matched by stem';
    lines.push(
      `   why: ${matched}; score ${h.score} (text ${h.why.text}, trust ${h.why.trust} ×${h.why.trustWeight}, confidence ×${h.why.confidenceWeight}, recency ×${h.why.recencyWeight})`,
    );
    lines.push(`   from: ${origin(h.memory)}`);
  });
  return lines.join('\n');
}

export function renderMemory(m: Memory, history?: History): string {
  const lines = [headline(m), oneLine(m.body), `from: ${origin(m)}`];
  if (m.value !== null) lines.push(`value: ${oneLine(JSON.stringify(m.value).slice(0, 2000))}`);
  if (m.state !== 'active') lines.push(stateNote(m));
  if (history !== undefined) {
    lines.push('', `history (${history.versions.length} versions, current: ${history.current ?? 'none'}):`);
    for (const v of history.versions)
      lines.push(`- ${v.id} ${v.state} ${v.recordedAt}: ${oneLine(v.body).slice(0, 300)}`);
    lines.push('events:');
    for (const e of history.events) {
      lines.push(
        `- ${e.at} ${e.type} ${e.memoryId} by ${e.actor}${e.reason ? `: ${oneLine(e.reason)}` : ''}`,
      );
    }
  }
  return lines.join('\n');
}

/** `mem_… · fact · shared · key acme.plan · trust confirmed` */
export function headline(m: Memory): string {
  const parts = [m.id, m.kind, m.scope];
  if (m.key !== null) parts.push(`key ${m.key}`);
  if (m.state !== 'active') parts.push(m.state);
  parts.push(`trust ${m.trust}`);
  return oneLine(parts.join(' · '));
}

/** Who wrote it, through what, when, and from which outside source. */
export function origin(m: Memory): string {
  const p = m.provenance;
  const via = [p.surface, p.client].filter((x) => x !== undefined).join(' ');
  let out = `${p.principal} via ${via}, recorded ${m.recordedAt}`;
  if (p.sessionId !== undefined) out += `, session ${p.sessionId}`;
  if (p.runId !== undefined) out += `, run ${p.runId}`;
  if (p.source !== undefined) {
    const s = p.source;
    out += `; source ${[s.connector, s.id, s.url, s.note].filter((x) => x !== undefined).join(' ')}`;
  }
  if (m.confirmedBy !== null) out += `; confirmed by ${m.confirmedBy}`;
  return oneLine(out);
}

/**
 * Memory text on one inert line: no line break of any kind (NEL, U+2028, vertical tab, form feed included) can
 * open a new section of the reply, and no tag in it can close a frame (see `inertLine`).
 */
export const oneLine = inertLine;

function stateNote(m: Memory): string {
  switch (m.state) {
    case 'held':
      return 'note: held for review; not visible in search until a person approves it.';
    case 'superseded':
      return `note: superseded by ${m.supersededBy ?? 'a later version'}; it is history, not the current fact.`;
    case 'retracted':
      return 'note: retracted (forgotten); it is history only.';
    case 'rejected':
      return 'note: rejected by a reviewer; do not save this claim again.';
    case 'erased':
      return 'note: erased; its content is gone.';
    default:
      return '';
  }
}

function provenanceView(m: Memory): Record<string, unknown> {
  const p = m.provenance;
  return {
    principal: p.principal,
    principal_kind: p.principalKind,
    surface: p.surface,
    client: p.client ?? null,
    session_id: p.sessionId ?? null,
    run_id: p.runId ?? null,
    source: p.source ?? null,
  };
}
