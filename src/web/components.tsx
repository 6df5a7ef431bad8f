// Small pieces every screen uses: links, badges, provenance, a diff, errors, and a hook for loading data.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.ts';
import { diffWords } from './diff.ts';
import { ago, clientLabel, shortTime } from './format.ts';
import { follow } from './router.ts';
import type { Memory } from './types.ts';

export function Link(props: { href: string; class?: string; children: ComponentChildren }) {
  return (
    <a href={props.href} class={props.class} onClick={follow}>
      {props.children}
    </a>
  );
}

export function Badge(props: {
  of: 'state' | 'trust' | 'kind' | 'outcome' | 'class' | 'event';
  value: string;
}) {
  return (
    <span class={`badge ${props.of}-${props.value}`} title={props.of}>
      {props.value}
    </span>
  );
}

export function Time(props: { at: string | null | undefined; relative?: boolean }) {
  if (props.at === null || props.at === undefined) return <span class="muted">—</span>;
  return (
    <time dateTime={props.at} title={props.at}>
      {props.relative === true ? ago(props.at) : shortTime(props.at)}
    </time>
  );
}

/** Who wrote a memory and through what: principal, run, session, client, surface and source (I14). */
export function ProvenanceList(props: { memory: Memory }) {
  const p = props.memory.provenance;
  const source = p.source;
  const rows: [string, ComponentChildren][] = [
    ['by', p.principal + (p.onBehalfOf === undefined ? '' : ` for ${p.onBehalfOf}`)],
    ['run', p.runId ?? '—'],
    ['session', p.sessionId ?? '—'],
    ['client', p.client === undefined ? '—' : <span title={p.client}>{clientLabel(p.client)}</span>],
    ['via', p.surface],
    ['recorded', <Time at={props.memory.recordedAt} />],
  ];
  if (source !== undefined) {
    const parts = [
      source.connector === undefined
        ? ''
        : `${source.connector}${source.id === undefined ? '' : ` #${source.id}`}`,
      source.url ?? '',
      source.note ?? '',
    ].filter((s) => s !== '');
    rows.push(['source', parts.join(' · ')]);
  }
  return (
    <dl class="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Removed words struck through, added words marked; equal text plain. */
export function Diff(props: { before: string; after: string; code?: boolean }) {
  const cls = props.code === true ? 'diff code' : 'diff';
  if (props.before === props.after) return <pre class={cls}>{props.after}</pre>;
  return (
    <pre class={cls}>
      {diffWords(props.before, props.after).map((part, i) =>
        part.kind === 'same' ? (
          part.text
        ) : part.kind === 'added' ? (
          <ins key={i}>{part.text}</ins>
        ) : (
          <del key={i}>{part.text}</del>
        ),
      )}
    </pre>
  );
}

export function ErrorNote(props: { error: unknown }) {
  if (props.error === null || props.error === undefined) return null;
  const e = props.error;
  const cls = e instanceof ApiError ? e.class : 'error';
  return (
    <p class="error" role="alert">
      <strong>{cls}</strong> {(e as Error).message}
    </p>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** Runs `load` now and whenever `deps` change; the answer of a superseded run is dropped. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error: unknown; loading: boolean }>({
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    const control = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    latest
      .current(control.signal)
      .then((data) => !control.signal.aborted && setState({ data, error: null, loading: false }))
      .catch(
        (error: unknown) => !control.signal.aborted && setState((s) => ({ ...s, error, loading: false })),
      );
    return () => control.abort();
    // The caller names what the load depends on; `tick` is a reload.
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
