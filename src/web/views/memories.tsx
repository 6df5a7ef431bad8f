// The memory browser: search or list with the CLI's filters; results with scope, kind, trust, state and provenance.
import { useState } from 'preact/hooks';
import { api, post } from '../api.ts';
import { Badge, ErrorNote, Link, Time } from '../components.tsx';
import { clientLabel, plural, truncate } from '../format.ts';
import type { Memory, SearchResult } from '../types.ts';

const KINDS = ['fact', 'preference', 'decision', 'note', 'episode', 'commitment', 'correction', 'summary'];
const STATES = ['held', 'active', 'superseded', 'retracted', 'rejected', 'erased'];

interface Filters {
  query: string;
  scopes: string;
  kinds: string[];
  states: string[];
  subject: string;
  key: string;
  asOf: string;
  validAt: string;
  limit: string;
}
interface Row {
  memory: Memory;
  score?: number;
}

const EMPTY: Filters = {
  query: '',
  scopes: '',
  kinds: [],
  states: [],
  subject: '',
  key: '',
  asOf: '',
  validAt: '',
  limit: '50',
};
// Kept across visits, so coming back from a memory's page shows the same results.
let kept: { who: string; filters: Filters; rows: Row[] | null; mode: string } = {
  who: '',
  filters: EMPTY,
  rows: null,
  mode: '',
};

const words = (text: string) => text.split(/[\s,]+/).filter((s) => s !== '');
const opt = (text: string) => (text.trim() === '' ? undefined : text.trim());

/** A query searches (ranked, current memories); no query lists newest first, in any states asked for. */
async function run(f: Filters): Promise<{ rows: Row[]; mode: string }> {
  const scopes = words(f.scopes);
  const common = {
    scopes: scopes.length > 0 ? scopes : undefined,
    kinds: f.kinds.length > 0 ? f.kinds : undefined,
    subject: opt(f.subject),
    key: opt(f.key),
    asOf: opt(f.asOf),
    validAt: opt(f.validAt),
  };
  const limit = Math.min(200, Math.max(1, Number(f.limit) || 50));
  if (f.query.trim() !== '') {
    const r = await post<SearchResult>('/v1/search', { ...common, query: f.query, limit });
    return {
      rows: r.hits.map((h) => ({ memory: h.memory, score: h.score })),
      mode: `search: ${r.terms.join(' ')}`,
    };
  }
  const r = await api<{ memories: Memory[] }>('/v1/memories', {
    query: { ...common, states: f.states.length > 0 ? f.states : undefined, limit },
  });
  return { rows: r.memories.map((memory) => ({ memory })), mode: 'list, newest first' };
}

/** `who` is the signed-in principal: results kept for one are never shown to another. */
export function MemoriesScreen(props: { who: string }) {
  if (kept.who !== props.who) kept = { who: props.who, filters: EMPTY, rows: null, mode: '' };
  const [f, setF] = useState<Filters>(kept.filters);
  const [rows, setRows] = useState<Row[] | null>(kept.rows);
  const [mode, setMode] = useState(kept.mode);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Filters>) => setF((old) => ({ ...old, ...patch }));
  const toggle = (list: string[], v: string) =>
    list.includes(v) ? list.filter((x) => x !== v) : [...list, v];

  const submit = async (e?: Event) => {
    e?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await run(f);
      setRows(r.rows);
      setMode(r.mode);
      kept = { who: props.who, filters: f, rows: r.rows, mode: r.mode };
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const text = (name: keyof Filters, label: string, placeholder = '') => (
    <label class="filter">
      <span>{label}</span>
      <input
        type="text"
        name={name}
        placeholder={placeholder}
        value={f[name] as string}
        onInput={(e) => set({ [name]: e.currentTarget.value })}
      />
    </label>
  );

  return (
    <div class="page">
      <h2>Memories</h2>
      <form class="filters" onSubmit={submit} aria-label="memory filters">
        <label class="filter wide">
          <span>Search</span>
          <input
            type="search"
            name="query"
            placeholder="words to find (empty: list newest first)"
            value={f.query}
            onInput={(e) => set({ query: e.currentTarget.value })}
          />
        </label>
        {text('scopes', 'Scopes', 'shared project:web')}
        {text('subject', 'Subject', 'person:alice@example.com')}
        {text('key', 'Key', 'acme.plan')}
        {text('asOf', 'As of (recorded)', 'e.g. 2025-03-01')}
        {text('validAt', 'Valid at', 'e.g. 2025-03-01')}
        {text('limit', 'Limit')}
        <fieldset class="chips">
          <legend>Kinds</legend>
          {KINDS.map((k) => (
            <label key={k}>
              <input
                type="checkbox"
                checked={f.kinds.includes(k)}
                onChange={() => set({ kinds: toggle(f.kinds, k) })}
              />
              {k}
            </label>
          ))}
        </fieldset>
        <fieldset class="chips" disabled={f.query.trim() !== ''}>
          <legend>States (listing only; search is current memories)</legend>
          {STATES.map((s) => (
            <label key={s}>
              <input
                type="checkbox"
                checked={f.states.includes(s)}
                onChange={() => set({ states: toggle(f.states, s) })}
              />
              {s}
            </label>
          ))}
        </fieldset>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {f.query.trim() === '' ? 'List' : 'Search'}
          </button>
          <button
            type="button"
            onClick={() => {
              setF(EMPTY);
              setRows(null);
              kept = { who: props.who, filters: EMPTY, rows: null, mode: '' };
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {rows !== null && (
        <>
          <p class="muted" aria-live="polite">
            {plural(rows.length, 'memory', 'memories')} · {mode}
          </p>
          <MemoryTable rows={rows} />
        </>
      )}
    </div>
  );
}

export function MemoryTable(props: { rows: Row[]; showScore?: boolean }) {
  if (props.rows.length === 0) return <p class="empty">No memories match.</p>;
  const scored = props.rows.some((r) => r.score !== undefined);
  return (
    <table class="results">
      <thead>
        <tr>
          <th>Memory</th>
          <th>Scope</th>
          <th>Kind</th>
          <th>Trust</th>
          <th>State</th>
          <th>Provenance</th>
          {scored && <th class="num">Score</th>}
        </tr>
      </thead>
      <tbody>
        {props.rows.map(({ memory: m, score }) => (
          <tr key={m.id} data-id={m.id}>
            <td class="body-cell">
              <Link href={`/memories/${m.id}`}>
                {m.state === 'erased' ? '(erased)' : truncate(m.body, 160)}
              </Link>
              {m.key !== null && <code class="key">{m.key}</code>}
            </td>
            <td>
              <code>{m.scope}</code>
            </td>
            <td>
              <Badge of="kind" value={m.kind} />
            </td>
            <td>
              <Badge of="trust" value={m.trust} />
            </td>
            <td>
              <Badge of="state" value={m.state} />
            </td>
            <td class="small">
              {m.provenance.principal}
              {m.provenance.client !== undefined && (
                <span class="muted" title={m.provenance.client}>
                  {' '}
                  · {clientLabel(m.provenance.client)}
                </span>
              )}
              <br />
              <span class="muted">
                <Time at={m.recordedAt} relative /> via {m.provenance.surface}
              </span>
            </td>
            {scored && <td class="num">{score?.toFixed(3)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
