// The review queue: held writes grouped by agent and run, newest first; j/k to move, a/e/r on the selected one.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, post } from '../api.ts';
import { Badge, ErrorNote, Link, Time, useLoad } from '../components.tsx';
import { plural, truncate } from '../format.ts';
import type { Pulse } from '../live.ts';
import type { ReviewItem, WriteResult } from '../types.ts';
import { isTyping, Proposal, type ProposalKeys, type Verdict } from './proposal.tsx';

interface Group {
  key: string;
  agent: string;
  run: string | null;
  items: ReviewItem[];
}

/** Groups by who proposed and in which run, each group and its items newest first. */
export function groupQueue(memories: ReviewItem[]): Group[] {
  const groups = new Map<string, Group>();
  for (const m of memories) {
    const agent = m.provenance.principal;
    const run = m.provenance.runId ?? null;
    const key = `${agent}\u0000${run ?? ''}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = { key, agent, run, items: [] };
      groups.set(key, g);
    }
    g.items.push(m);
  }
  const newest = (g: Group) => g.items[0]!.recordedAt;
  for (const g of groups.values()) g.items.sort((a, b) => b.recordedAt.localeCompare(a.recordedAt));
  return [...groups.values()].sort((a, b) => newest(b).localeCompare(newest(a)));
}

export function ReviewScreen(props: { pulse: Pulse | null }) {
  const queue = useLoad(
    (signal) => api<{ memories: ReviewItem[] }>('/v1/review', { query: { limit: 200 }, signal }),
    [props.pulse?.pending, props.pulse?.newest],
  );
  const groups = useMemo(() => groupQueue(queue.data?.memories ?? []), [queue.data]);
  const flat = useMemo(() => groups.flatMap((g) => g.items), [groups]);
  const [selected, setSelected] = useState<string | null>(null);
  const [done, setDone] = useState<Verdict[]>([]);
  const [help, setHelp] = useState(false);
  const [batch, setBatch] = useState<{ group: string; reason: string } | null>(null);
  const [batchError, setBatchError] = useState<unknown>(null);

  const index = Math.max(
    0,
    flat.findIndex((m) => m.id === selected),
  );
  const current = flat[index] ?? null;
  useEffect(() => {
    if (flat.length > 0 && !flat.some((m) => m.id === selected))
      setSelected(flat[Math.min(index, flat.length - 1)]!.id);
  }, [flat, selected, index]);

  // One listener for the screen's life, reading the latest queue from a ref: no key press falls between listeners.
  const keys = useRef<ProposalKeys | null>(null);
  const now = useRef({ flat, index, help });
  now.current = { flat, index, help };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setHelp(false);
        (document.activeElement as HTMLElement | null)?.blur();
        return;
      }
      if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      const { flat, index, help } = now.current;
      const move = event.key === 'j' ? 1 : event.key === 'k' ? -1 : 0;
      if (move !== 0 && flat.length > 0) {
        const next = flat[Math.min(flat.length - 1, Math.max(0, index + move))]!;
        setSelected(next.id);
        document.querySelector(`[data-item="${next.id}"]`)?.scrollIntoView({ block: 'nearest' });
      } else if (event.key === '?') setHelp((h) => !h);
      else if (help || keys.current === null) return;
      else if (event.key === 'a') keys.current.approve();
      else if (event.key === 'e') {
        event.preventDefault();
        keys.current.edit();
      } else if (event.key === 'r') {
        event.preventDefault();
        keys.current.reject();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const verdict = (v: Verdict) => {
    setDone((d) => [v, ...d].slice(0, 5));
    const next = flat[index + 1] ?? flat[index - 1] ?? null;
    setSelected(next?.id ?? null);
    queue.reload();
  };

  const runBatch = async (group: Group, action: 'approve' | 'reject', reason?: string) => {
    setBatchError(null);
    const failures: string[] = [];
    for (const m of group.items) {
      try {
        const result = await post<WriteResult>(
          `/v1/review/${m.id}/${action}`,
          action === 'reject' ? { reason } : {},
        );
        setDone((d) =>
          [
            { memory: m, result, action: action === 'reject' ? 'rejected' : 'approved' } as Verdict,
            ...d,
          ].slice(0, 5),
        );
      } catch (e) {
        failures.push(`${m.id}: ${(e as Error).message}`);
      }
    }
    if (failures.length > 0)
      setBatchError(new Error(`${plural(failures.length, 'proposal')} failed: ${failures.join('; ')}`));
    setBatch(null);
    queue.reload();
  };

  return (
    <div class="review">
      <aside class="queue" aria-label="review queue">
        <div class="queue-head">
          <h2>Review</h2>
          <button type="button" class="link" onClick={() => setHelp((h) => !h)} title="keyboard shortcuts">
            shortcuts <kbd>?</kbd>
          </button>
        </div>
        <ErrorNote error={queue.error ?? batchError} />
        {queue.data !== undefined && flat.length === 0 && (
          <p class="empty">Nothing waits for review. New proposals appear here as agents make them.</p>
        )}
        {groups.map((g) => (
          <section class="group" key={g.key} data-agent={g.agent} data-run={g.run ?? ''}>
            <header>
              <div>
                <strong>{g.agent}</strong>
                <span class="muted"> · {g.run === null ? 'no run id' : `run ${g.run}`}</span>
              </div>
              <div class="muted small">
                {plural(g.items.length, 'proposal')} · newest <Time at={g.items[0]!.recordedAt} relative />
              </div>
              {batch?.group === g.key ? (
                <form
                  class="batch-reason"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (batch.reason.trim() !== '') void runBatch(g, 'reject', batch.reason.trim());
                  }}
                >
                  <input
                    type="text"
                    placeholder={`why reject all ${g.items.length}?`}
                    aria-label="reason for rejecting the run"
                    value={batch.reason}
                    onInput={(e) => setBatch({ group: g.key, reason: e.currentTarget.value })}
                  />
                  <button type="submit" class="danger" disabled={batch.reason.trim() === ''}>
                    Reject {g.items.length}
                  </button>
                  <button type="button" onClick={() => setBatch(null)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <div class="batch">
                  <button type="button" onClick={() => void runBatch(g, 'approve')}>
                    Approve all {g.items.length}
                  </button>
                  <button type="button" class="danger" onClick={() => setBatch({ group: g.key, reason: '' })}>
                    Reject all…
                  </button>
                </div>
              )}
            </header>
            <ul>
              {g.items.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    data-item={m.id}
                    class={`item ${m.id === current?.id ? 'selected' : ''}`}
                    aria-current={m.id === current?.id}
                    onClick={() => setSelected(m.id)}
                  >
                    <span class="item-top">
                      <Badge of="kind" value={m.kind} />
                      {m.key !== null && <code class="key">{m.key}</code>}
                      <span class="muted small">{m.scope}</span>
                    </span>
                    <span class="item-body">{truncate(m.body, 120)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </aside>

      <section class="detail">
        {done.length > 0 && (
          <ul class="done" aria-label="recent verdicts">
            {done.map((v) => (
              <li key={`${v.memory.id}-${v.result.id}`} class={`done-${v.result.state}`}>
                <strong>{v.action}</strong> {truncate(v.memory.body, 60)} →{' '}
                <Link href={`/memories/${v.result.id}`}>{v.result.id}</Link>{' '}
                <Badge of="state" value={v.result.state} />
              </li>
            ))}
          </ul>
        )}
        {current !== null && <Proposal key={current.id} memory={current} keys={keys} onVerdict={verdict} />}
        {help && <Shortcuts onClose={() => setHelp(false)} />}
      </section>
    </div>
  );
}

function Shortcuts(props: { onClose(): void }) {
  const keys: [string, string][] = [
    ['j / k', 'next / previous proposal'],
    ['a', 'approve (with your edits, if any)'],
    ['e', 'edit: jump into the body field'],
    ['r', 'reject (asks for a reason; Enter confirms)'],
    ['Esc', 'leave a field, close this help'],
    ['?', 'show or hide this help'],
  ];
  return (
    <div class="help" role="dialog" aria-label="keyboard shortcuts">
      <h3>Keyboard shortcuts</h3>
      <dl>
        {keys.map(([k, what]) => (
          <div key={k}>
            <dt>
              <kbd>{k}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={props.onClose}>
        Close
      </button>
    </div>
  );
}
