// A memory's page: its whole history as a timeline (versions and verdicts, recorded and valid time) and its subjects.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, post } from '../api.ts';
import { Badge, ErrorNote, Link, Time, useLoad } from '../components.tsx';
import { clientLabel, jsonText, plural } from '../format.ts';
import type { History, Memory, MemoryEvent } from '../types.ts';
import { MemoryTable } from './memories.tsx';

const ALL_STATES = ['held', 'active', 'superseded', 'retracted', 'rejected'];

type Entry = { at: string; order: number } & ({ version: Memory; n: number } | { event: MemoryEvent });

/** Versions at their recorded time and events at theirs; a version comes before the events about it. */
function timeline(history: History): Entry[] {
  const entries: Entry[] = [
    ...history.versions.map((version, i) => ({ at: version.recordedAt, order: 0, version, n: i + 1 })),
    ...history.events
      // `appended` repeats the version itself; every other event is a change worth a line.
      .filter((event) => event.type !== 'appended')
      .map((event) => ({ at: event.at, order: 1, event })),
  ];
  return entries.sort((a, b) => a.at.localeCompare(b.at) || a.order - b.order);
}

export function MemoryScreen(props: { id: string }) {
  const page = useLoad(
    async (signal) => {
      const history = await api<History>(`/v1/memories/${props.id}/history`, { signal });
      const subjects = [...new Set(history.versions.flatMap((v) => v.subjects))];
      const about = await Promise.all(
        subjects.map(async (subject) => ({
          subject,
          memories: (
            await api<{ memories: Memory[] }>('/v1/memories', {
              query: { subject, states: ALL_STATES, limit: 50 },
              signal,
            })
          ).memories,
        })),
      );
      return { history, about };
    },
    [props.id],
  );
  const reload = page.reload;
  if (page.data === undefined)
    return (
      <div class="page">{page.error ? <ErrorNote error={page.error} /> : <p class="muted">Loading…</p>}</div>
    );
  const { history, about } = page.data;
  const shown = history.versions.find((v) => v.id === props.id) ?? history.versions.at(-1)!;
  const number = new Map(history.versions.map((v, i) => [v.id, i + 1]));
  const ref = (id: unknown) =>
    typeof id === 'string' && number.has(id) ? (
      <Link href={`/memories/${id}`}>v{number.get(id)}</Link>
    ) : typeof id === 'string' ? (
      <code>{id}</code>
    ) : null;

  return (
    <div class="page memory-page">
      <p class="crumbs">
        <Link href="/memories">Memories</Link> / <code>{props.id}</code>
      </p>
      <header class="memory-head">
        <h2>{shown.state === 'erased' ? '(erased)' : shown.body}</h2>
        <div class="badges">
          <Badge of="kind" value={shown.kind} /> <Badge of="state" value={shown.state} />{' '}
          <Badge of="trust" value={shown.trust} />
          <code>{shown.scope}</code>
          {shown.key !== null && <code class="key">{shown.key}</code>}
        </div>
        <p class="muted">
          {history.versions.length} versions ·{' '}
          {history.current === null ? 'none is current' : <>current: {ref(history.current)}</>}
          {(history.corroboration?.count ?? 0) > 0 && (
            <>
              {' '}
              · written again {plural(history.corroboration.count, 'time')} (
              {plural(history.corroboration.sessions, 'session')},{' '}
              {plural(history.corroboration.agents, 'agent')})
            </>
          )}
        </p>
        {shown.state === 'rejected' && <Unreject id={shown.id} onDone={reload} />}
      </header>

      <section>
        <h3>History</h3>
        <ol class="timeline" aria-label="history timeline">
          {timeline(history).map((e) =>
            'version' in e ? (
              <li
                key={e.version.id}
                class={`tl-version ${e.version.id === props.id ? 'here' : ''}`}
                data-version={e.version.id}
              >
                <TimeCell at={e.at} />
                <div class="tl-body">
                  <div class="tl-title">
                    <strong>v{e.n}</strong> recorded by {e.version.provenance.principal}
                    <span class="muted" title={e.version.provenance.client}>
                      {' '}
                      via {e.version.provenance.surface}
                      {e.version.provenance.client === undefined
                        ? ''
                        : ` · ${clientLabel(e.version.provenance.client)}`}
                    </span>{' '}
                    <Badge of="state" value={e.version.state} /> <Badge of="trust" value={e.version.trust} />
                  </div>
                  <p class="tl-text">
                    {e.version.state === 'erased' ? <em>content erased</em> : e.version.body}
                  </p>
                  {e.version.value !== null && <pre class="value">{jsonText(e.version.value)}</pre>}
                  <dl class="facts compact">
                    <Fact k="valid">
                      {e.version.validStart === null && e.version.validEnd === null ? (
                        <span class="muted">always (no valid time)</span>
                      ) : (
                        <>
                          <Time at={e.version.validStart} /> → <Time at={e.version.validEnd} />
                          {(e.version.validStart !== e.version.validFrom ||
                            e.version.validEnd !== e.version.validTo) && (
                            <span class="muted"> (implied by the versions around it)</span>
                          )}
                        </>
                      )}
                    </Fact>
                    <Fact k="active">
                      {e.version.activeFrom === null ? (
                        <span class="muted">never</span>
                      ) : (
                        <>
                          <Time at={e.version.activeFrom} /> → <Time at={e.version.activeUntil} />
                        </>
                      )}
                    </Fact>
                    {e.version.supersedes !== null && <Fact k="supersedes">{ref(e.version.supersedes)}</Fact>}
                    {e.version.editOf !== null && <Fact k="edit of">{ref(e.version.editOf)}</Fact>}
                    {e.version.rule !== null && <Fact k="rule">{e.version.rule}</Fact>}
                    {e.version.subjects.length > 0 && (
                      <Fact k="subjects">{e.version.subjects.join(', ')}</Fact>
                    )}
                    {e.version.provenance.runId !== undefined && (
                      <Fact k="run">{e.version.provenance.runId}</Fact>
                    )}
                    {e.version.provenance.sessionId !== undefined && (
                      <Fact k="session">{e.version.provenance.sessionId}</Fact>
                    )}
                  </dl>
                </div>
              </li>
            ) : (
              <li key={e.event.id} class={`tl-event ev-${e.event.type}`} data-event={e.event.type}>
                <TimeCell at={e.at} />
                <div class="tl-body">
                  <Badge of="event" value={e.event.type} /> {ref(e.event.memoryId)} by {e.event.actor}
                  {describe(e.event, ref)}
                </div>
              </li>
            ),
          )}
        </ol>
      </section>

      {about.map((s) => (
        <section key={s.subject} class="about">
          <h3>
            About <code>{s.subject}</code>
          </h3>
          <MemoryTable rows={s.memories.map((memory) => ({ memory }))} />
        </section>
      ))}
    </div>
  );
}

/**
 * Lifting a rejection is a reviewer's deliberate act (I5): a reason is required, and the API refuses anyone but
 * a human reviewer. The memory stays rejected in history; the claim may be written again afterwards.
 */
function Unreject(props: { id: string; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const lift = async () => {
    setBusy(true);
    setError(null);
    try {
      await post(`/v1/review/${props.id}/unreject`, { reason: reason.trim() });
      setReason('');
      props.onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="unreject"
      aria-label="lift the rejection"
      onSubmit={(e) => {
        e.preventDefault();
        void lift();
      }}
    >
      <label>
        This claim is rejected: the same claim lands as rejected on every path. Lift the rejection because…
        <input
          name="reason"
          value={reason}
          onInput={(e) => setReason((e.target as HTMLInputElement).value)}
          placeholder="why it may land again"
        />
      </label>
      <button type="submit" disabled={busy || reason.trim() === ''}>
        Lift the rejection
      </button>
      {error !== null && <ErrorNote error={error} />}
    </form>
  );
}

function describe(event: MemoryEvent, ref: (id: unknown) => ComponentChildren): ComponentChildren {
  const d = event.detail;
  const parts: ComponentChildren[] = [];
  if (event.type === 'held' && typeof d.rule === 'string') parts.push(<> · rule {d.rule}</>);
  if (typeof d.owner === 'string') parts.push(<> · owner {d.owner}</>);
  if (d.edited === true) parts.push(<> · edited as {ref(d.editedAs)}</>);
  if (event.type === 'superseded' && d.by !== undefined) parts.push(<> · by {ref(d.by)}</>);
  if (d.automatic === true) parts.push(<> · the same claim was rejected before ({ref(d.rejectedAs)})</>);
  if (event.reason !== null && event.reason !== '')
    parts.push(<span class="reason"> · “{event.reason}”</span>);
  return parts;
}

function TimeCell(props: { at: string }) {
  return (
    <div class="tl-time">
      <Time at={props.at} />
    </div>
  );
}

function Fact(props: { k: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{props.k}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}
