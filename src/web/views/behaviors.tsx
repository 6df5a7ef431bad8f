// Behaviors: each definition's version, triggers and state; its runs (what each consumed and wrote, the verdicts
// on its outputs, corrections); and, for a person with the admin role, defining and disabling them.
import { useState } from 'preact/hooks';
import { api, post } from '../api.ts';
import { Badge, ErrorNote, Time, useLoad } from '../components.tsx';

interface BehaviorItem {
  name: string;
  version: number;
  definition: { prompt: string; triggers: { type: string; cron?: string }[] };
  disabledAt: string | null;
}
interface RunItem {
  id: string;
  version: number;
  state: string;
  expired: boolean;
  startedBy: string;
  startedAt: string;
  consumed: string[];
  outputs: { id: string; state: string; scope: string; kind: string }[];
  hiddenOutputs: number;
  corrections: { proposalId: string; action: string }[];
}

export function BehaviorsScreen(props: { admin: boolean }) {
  const list = useLoad((signal) => api<{ behaviors: BehaviorItem[] }>('/v1/behaviors', { signal }), []);
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      list.reload();
    } catch (err) {
      setError(err);
    }
  };
  const behaviors = list.data?.behaviors ?? [];
  return (
    <div class="page behaviors">
      <h2>Behaviors</h2>
      <ErrorNote error={list.error ?? error} />
      {behaviors.length === 0 && !list.loading && <p class="muted">No behaviors yet.</p>}
      {behaviors.length > 0 && (
        <table class="grid" aria-label="behaviors">
          <thead>
            <tr>
              <th>Name</th>
              <th>Version</th>
              <th>Triggers</th>
              <th>State</th>
              {props.admin && <th />}
            </tr>
          </thead>
          <tbody>
            {behaviors.map((b) => (
              <tr key={b.name} data-behavior={b.name}>
                <td>
                  <button type="button" class="link" onClick={() => setChosen(b.name)}>
                    {b.name}
                  </button>
                </td>
                <td>{b.version}</td>
                <td>
                  {b.definition.triggers
                    .map((t) => (t.cron === undefined ? t.type : `${t.type} ${t.cron}`))
                    .join(', ')}
                </td>
                <td data-state={b.disabledAt === null ? 'enabled' : 'disabled'}>
                  {b.disabledAt === null ? 'enabled' : 'disabled'}
                </td>
                {props.admin && (
                  <td>
                    {b.disabledAt === null && (
                      <button
                        type="button"
                        onClick={() => act(() => post(`/v1/behaviors/${encodeURIComponent(b.name)}/disable`))}
                      >
                        Disable
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {chosen !== null && <Runs name={chosen} />}
      {props.admin ? (
        <Define onDefined={() => list.reload()} />
      ) : (
        <p class="muted">Only a person with the admin role defines or disables behaviors.</p>
      )}
    </div>
  );
}

function Runs(props: { name: string }) {
  const runs = useLoad(
    (signal) => api<{ runs: RunItem[] }>(`/v1/behaviors/${encodeURIComponent(props.name)}/runs`, { signal }),
    [props.name],
  );
  return (
    <section aria-label={`runs of ${props.name}`}>
      <h3>Runs of {props.name}</h3>
      <ErrorNote error={runs.error} />
      {runs.data?.runs.length === 0 && <p class="muted">No runs yet.</p>}
      {(runs.data?.runs.length ?? 0) > 0 && (
        <table class="grid" aria-label="runs">
          <thead>
            <tr>
              <th>Run</th>
              <th>State</th>
              <th>Started</th>
              <th>Consumed</th>
              <th>Outputs</th>
              <th>Corrections</th>
            </tr>
          </thead>
          <tbody>
            {runs.data!.runs.map((r) => (
              <tr key={r.id} data-run={r.id}>
                <td>
                  <code>{r.id}</code>{' '}
                  <span class="muted small">
                    v{r.version} by {r.startedBy}
                  </span>
                </td>
                <td data-state={r.expired ? 'expired' : r.state}>{r.expired ? 'expired' : r.state}</td>
                <td>
                  <Time at={r.startedAt} />
                </td>
                <td data-consumed={r.consumed.length}>{r.consumed.length}</td>
                <td>
                  {r.outputs.map((o) => (
                    <span key={o.id} class="output" data-output={o.id}>
                      <a href={`/memories/${o.id}`}>{o.kind}</a> <Badge of="state" value={o.state} />{' '}
                    </span>
                  ))}
                  {r.hiddenOutputs > 0 && <span class="muted small">+{r.hiddenOutputs} not readable</span>}
                </td>
                <td>{r.corrections.map((c) => c.action).join(', ') || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Define(props: { onDefined(): void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setDone(null);
    try {
      const b = await post<{ name: string; version: number }>('/v1/behaviors', JSON.parse(text));
      setDone(`${b.name} is at version ${b.version}`);
      props.onDefined();
    } catch (err) {
      setError(err instanceof SyntaxError ? new Error('The definition is not valid JSON.') : err);
    }
  };
  return (
    <form class="define" aria-label="define a behavior" onSubmit={submit}>
      <h3>Define a behavior</h3>
      <label class="filter wide">
        <span>Definition (JSON, as in a behavior file)</span>
        <textarea name="definition" rows={10} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <button type="submit">Save</button>
      {done !== null && <output class="ok">{done}</output>}
      <ErrorNote error={error} />
    </form>
  );
}
