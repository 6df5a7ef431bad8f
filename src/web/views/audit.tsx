// The audit feed: filter by principal, tool, outcome and failure class; failures counted by class for each tool.
import { useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Badge, ErrorNote, Time, useLoad } from '../components.tsx';
import { clientLabel, plural } from '../format.ts';
import type { AuditRecord, FailureCount } from '../types.ts';

const CLASSES = ['invalid_input', 'permission', 'not_found', 'conflict', 'upstream', 'internal'];

interface Filters {
  principal: string;
  tool: string;
  outcome: string;
  failureClass: string;
  limit: string;
}
const EMPTY: Filters = { principal: '', tool: '', outcome: '', failureClass: '', limit: '100' };

export function AuditScreen() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const records = useLoad(
    (signal) =>
      api<{ records: AuditRecord[] }>('/v1/audit', {
        query: {
          principal: applied.principal.trim(),
          tool: applied.tool.trim(),
          outcome: applied.outcome,
          failureClass: applied.failureClass,
          limit: Math.min(10_000, Math.max(1, Number(applied.limit) || 100)),
        },
        signal,
      }),
    [applied],
  );
  const failures = useLoad(
    (signal) => api<{ failures: FailureCount[] }>('/v1/audit/failures', { signal }),
    [applied],
  );
  const set = (patch: Partial<Filters>) => setDraft((d) => ({ ...d, ...patch }));
  // Principal and tool match exactly, so offer every one seen so far as a suggestion.
  const seen = useRef({ principals: new Set<string>(), tools: new Set<string>() });
  for (const r of records.data?.records ?? []) {
    seen.current.principals.add(r.principal);
    if (r.tool !== null) seen.current.tools.add(r.tool);
  }
  for (const f of failures.data?.failures ?? []) if (f.tool !== null) seen.current.tools.add(f.tool);

  return (
    <div class="page">
      <h2>Audit</h2>
      <form
        class="filters"
        aria-label="audit filters"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(draft);
        }}
      >
        <label class="filter">
          <span>Principal</span>
          <input
            type="text"
            name="principal"
            placeholder="agent:claude-code"
            list="audit-principals"
            value={draft.principal}
            onInput={(e) => set({ principal: e.currentTarget.value })}
          />
        </label>
        <label class="filter">
          <span>Tool</span>
          <input
            type="text"
            name="tool"
            placeholder="save_memory, POST /v1/search"
            list="audit-tools"
            value={draft.tool}
            onInput={(e) => set({ tool: e.currentTarget.value })}
          />
        </label>
        <label class="filter">
          <span>Outcome</span>
          <select
            name="outcome"
            value={draft.outcome}
            onInput={(e) => set({ outcome: e.currentTarget.value })}
          >
            <option value="">any</option>
            <option value="ok">ok</option>
            <option value="error">error</option>
          </select>
        </label>
        <label class="filter">
          <span>Failure class</span>
          <select
            name="failureClass"
            value={draft.failureClass}
            onInput={(e) => set({ failureClass: e.currentTarget.value })}
          >
            <option value="">any</option>
            {CLASSES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label class="filter narrow">
          <span>Limit</span>
          <input
            type="text"
            name="limit"
            value={draft.limit}
            onInput={(e) => set({ limit: e.currentTarget.value })}
          />
        </label>
        <Suggestions id="audit-principals" values={seen.current.principals} />
        <Suggestions id="audit-tools" values={seen.current.tools} />
        <div class="actions">
          <button type="submit" class="primary">
            Filter
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(EMPTY);
              setApplied(EMPTY);
            }}
          >
            Clear
          </button>
        </div>
      </form>

      <section>
        <h3>
          Failures by class, per tool <span class="muted small">(every principal)</span>
        </h3>
        <ErrorNote error={failures.error} />
        {failures.data !== undefined && <FailureTable counts={failures.data.failures} />}
      </section>

      <section>
        <h3>
          Records{' '}
          {records.data !== undefined && (
            <span class="muted small">({plural(records.data.records.length, 'record')}, newest first)</span>
          )}
        </h3>
        <ErrorNote error={records.error} />
        {records.data !== undefined && <RecordTable records={records.data.records} />}
      </section>
    </div>
  );
}

function Suggestions(props: { id: string; values: Set<string> }) {
  return (
    <datalist id={props.id}>
      {[...props.values].sort().map((v) => (
        <option key={v} value={v} />
      ))}
    </datalist>
  );
}

function FailureTable(props: { counts: FailureCount[] }) {
  if (props.counts.length === 0) return <p class="empty">No failures recorded.</p>;
  const rows = new Map<string, Map<string, number>>();
  for (const c of props.counts) {
    const tool = c.tool ?? c.operation;
    const row = rows.get(tool) ?? new Map<string, number>();
    row.set(c.failureClass, (row.get(c.failureClass) ?? 0) + c.count);
    rows.set(tool, row);
  }
  const used = CLASSES.filter((cls) => props.counts.some((c) => c.failureClass === cls));
  return (
    <table class="results failures" aria-label="failures by class">
      <thead>
        <tr>
          <th>Tool</th>
          {used.map((c) => (
            <th key={c} class="num">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {[...rows.entries()]
          .sort((a, b) => total(b[1]) - total(a[1]))
          .map(([tool, row]) => (
            <tr key={tool}>
              <td>
                <code>{tool}</code>
              </td>
              {used.map((c) => (
                <td key={c} class="num">
                  {row.get(c) ?? ''}
                </td>
              ))}
            </tr>
          ))}
      </tbody>
    </table>
  );
}

const total = (row: Map<string, number>) => [...row.values()].reduce((a, b) => a + b, 0);

function RecordTable(props: { records: AuditRecord[] }) {
  if (props.records.length === 0) return <p class="empty">No records match.</p>;
  return (
    <table class="results audit" aria-label="audit records">
      <thead>
        <tr>
          <th>When</th>
          <th>Principal</th>
          <th>Operation</th>
          <th>Tool</th>
          <th>Outcome</th>
          <th>Message</th>
          <th class="num">ms</th>
        </tr>
      </thead>
      <tbody>
        {props.records.map((r) => (
          <tr key={r.id} data-outcome={r.outcome}>
            <td class="small nowrap">
              <Time at={r.at} />
            </td>
            <td class="small">
              {r.principal}
              {r.client !== null && (
                <div class="muted" title={r.client}>
                  {clientLabel(r.client)}
                </div>
              )}
            </td>
            <td>
              <code>{r.operation}</code>
              {r.changes.length > 0 && (
                <div class="muted small">{r.changes.map((c) => `${c.from ?? '∅'}→${c.to}`).join(', ')}</div>
              )}
            </td>
            <td class="small">
              <code>{r.tool ?? r.surface}</code>
            </td>
            <td>
              <Badge of="outcome" value={r.outcome} />{' '}
              {r.failureClass !== null && <Badge of="class" value={r.failureClass} />}
            </td>
            <td class="small message">{r.message ?? ''}</td>
            <td class="num small">{r.durationMs.toFixed(1)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
