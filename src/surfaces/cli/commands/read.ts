/** `memledger get | history | list`: one memory in full, its timeline of versions and events, or a filtered list. */
import type { History, ListInput } from '../../../ledger/read.ts';
import type { MemoryEvent } from '../../../model/event.ts';
import type { Memory } from '../../../model/memory.ts';
import { optStrings } from '../args.ts';
import { defineCommand } from '../command.ts';
import {
  bodyCell,
  clean,
  fields,
  formatTime,
  indent,
  oneLine,
  plural,
  shortTime,
  table,
  truncate,
} from '../render.ts';
import { FILTER_OPTIONS, FILTER_USAGE, readFilters } from './filters.ts';

export const get = defineCommand<Memory>({
  name: 'get',
  summary: 'show one memory: its content, provenance and both clocks',
  usage: `memledger get ID
  Shows a memory in any state, with who wrote it, through what, when it was recorded and when it is valid.`,
  positionals: { min: 1, max: 1 },
  run: (ctx, [id]) => ctx.session().get(id!),
  render: (m) => `${memoryBlock(m)}\n`,
});

export const history = defineCommand<History>({
  name: 'history',
  summary: 'show every version of a memory and every event on them, oldest first',
  usage: `memledger history ID
  Any version's id gives the whole chain: the versions it replaced, the ones that replaced it, edits made in
  review, and every event (appended, held, approved, rejected, superseded, retracted, erased) with who and why.`,
  positionals: { min: 1, max: 1 },
  run: (ctx, [id]) => ctx.session().history(id!),
  render: (h) => `${historyText(h)}\n`,
});

export const list = defineCommand<Memory[]>({
  name: 'list',
  summary: 'list memories newest first (current ones unless --state says otherwise)',
  usage: `memledger list [options]
  --state S       held, active, superseded, retracted, rejected or erased (repeatable; default active)
${FILTER_USAGE} (default 50, at most 200)`,
  options: { ...FILTER_OPTIONS, state: { type: 'string', multiple: true } },
  async run(ctx, _args, values) {
    const input = { ...readFilters(values) } as ListInput;
    const states = optStrings(values, 'state');
    if (states !== undefined) input.states = states as ListInput['states'];
    return ctx.session().list(input);
  },
  render(memories) {
    if (memories.length === 0) return 'no memories match\n';
    const head = [
      { header: 'id' },
      { header: 'scope' },
      { header: 'kind' },
      { header: 'state' },
      { header: 'recorded' },
      { header: 'body', flex: true },
    ];
    const rows = memories.map((m) => [
      m.id,
      m.scope,
      m.kind,
      m.state,
      m.recordedAt.slice(0, 10),
      bodyCell(m),
    ]);
    return `${table(head, rows)}\n\n${plural(memories.length, 'memory', 'memories')}\n`;
  },
});

/** A memory as labelled lines: content first, then where it came from and its lifecycle. */
export function memoryBlock(m: Memory): string {
  const p = m.provenance;
  const via = [
    p.surface,
    p.sessionId === undefined ? null : `session ${p.sessionId}`,
    p.runId === undefined ? null : `run ${p.runId}`,
    p.client ?? null,
    p.onBehalfOf === undefined ? null : `for ${p.onBehalfOf}`,
  ].filter((x) => x !== null);
  const source = [p.source?.connector, p.source?.id, p.source?.url, p.source?.note]
    .filter(Boolean)
    .join(' · ');
  return [
    `${m.id}  ${m.state} · ${m.trust}`,
    fields([
      ['body', m.state === 'erased' ? '(erased)' : m.body],
      ['scope', m.scope],
      ['kind', m.kind],
      ['key', m.key],
      ['value', m.value === null ? null : JSON.stringify(m.value)],
      ['subjects', m.subjects.join(', ')],
      ['valid', validText(m)],
      ['recorded', `${formatTime(m.recordedAt)} by ${p.principal} via ${via.join(', ')}`],
      ['current', currentText(m)],
      ['supersedes', m.supersedes],
      ['superseded by', m.supersededBy],
      ['edit of', m.editOf],
      ['confirmed by', m.confirmedBy],
      ['rule', m.rule],
      ['confidence', m.confidence === 1 ? null : String(m.confidence)],
      ['source', source],
    ]),
  ].join('\n');
}

function historyText(h: History): string {
  const current = h.current === null ? 'none is current' : `current: ${h.current}`;
  const versions = h.versions.map((m, i) => {
    const line = `${i + 1}. ${m.id}  ${m.state} · ${m.trust}  ${m.scope}  ${m.kind}${m.key === null ? '' : `  key ${m.key}`}`;
    const body = m.state === 'erased' ? '(erased)' : truncate(oneLine(m.body), 94);
    const times = [
      `recorded ${formatTime(m.recordedAt)} by ${m.provenance.principal}${m.provenance.sessionId === undefined ? '' : ` (session ${m.provenance.sessionId})`}`,
      currentText(m) === null ? null : `current ${currentText(m)}`,
      validText(m) === null ? null : `valid ${validText(m)}`,
    ].filter((x) => x !== null);
    return `${line}\n${indent([body, ...times].join('\n'), '     ')}`;
  });
  const events = table(
    [
      { header: 'when' },
      { header: 'who' },
      { header: 'event' },
      { header: 'memory' },
      { header: 'detail', flex: true },
    ],
    h.events.map((e) => [shortTime(e.at), e.actor, e.type, e.memoryId, eventDetail(e)]),
    120,
  );
  return [
    `history: ${plural(h.versions.length, 'version')}, ${current}`,
    '',
    'versions, oldest first:',
    indent(versions.join('\n')),
    '',
    'events:',
    indent(events),
  ].join('\n');
}

/** The reason a person gave, then the structured facts (rule, successor, edit) as key=value. */
function eventDetail(e: MemoryEvent): string {
  const facts = Object.entries(e.detail)
    .filter(([, v]) => v !== null && v !== undefined && v !== false)
    .map(([k, v]) => (v === true ? k : `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`));
  const reason = e.reason === null || e.reason === '' ? [] : [`reason: ${clean(e.reason)}`];
  return [...reason, ...facts].join(', ');
}

/**
 * Valid time: when the fact holds in the world (I12), as the versions of its key imply it: the writer's own
 * times, or where the version before ended and the one after began.
 */
function validText(m: Memory): string | null {
  if (m.validStart === null && m.validEnd === null) return null;
  const implied =
    m.validStart !== m.validFrom || m.validEnd !== m.validTo ? ' (implied by the versions around it)' : '';
  return `from ${formatTime(m.validStart) || 'always'} until ${formatTime(m.validEnd) || 'open'}${implied}`;
}

/** Recorded-time lifecycle: when the ledger started and stopped returning it as current. */
function currentText(m: Memory): string | null {
  if (m.activeFrom === null) return null;
  return `from ${formatTime(m.activeFrom)}${m.activeUntil === null ? '' : ` until ${formatTime(m.activeUntil)}`}`;
}
