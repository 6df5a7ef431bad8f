// The commitments board: one column per status, due dates on each card, buttons to move a card along its
// lifecycle. The console is for people (agents cannot sign in), and a person may move anyone's commitment.
import { useState } from 'preact/hooks';
import { api, post } from '../api.ts';
import { ErrorNote, Time, useLoad } from '../components.tsx';
import { plural } from '../format.ts';
import type { Commitment } from '../../ledger/plans/commitments.ts';

type Status = Commitment['status'];
const COLUMNS: [Status, string][] = [
  ['open', 'Open'],
  ['doing', 'Doing'],
  ['done', 'Done'],
  ['cancelled', 'Cancelled'],
];
/** Where a card may go from each column: done and cancelled are final (the ledger refuses the rest). */
const MOVES: Record<Status, [Status, string][]> = {
  open: [
    ['doing', 'Start'],
    ['done', 'Done'],
    ['cancelled', 'Cancel'],
  ],
  doing: [
    ['open', 'Back to open'],
    ['done', 'Done'],
    ['cancelled', 'Cancel'],
  ],
  done: [],
  cancelled: [],
};

export function CommitmentsScreen(props: { who: string; mayWrite: boolean }) {
  const loaded = useLoad(
    (signal) =>
      api<{ commitments: Commitment[] }>('/v1/commitments', {
        query: { statuses: ['open', 'doing', 'done', 'cancelled'], limit: 200 },
        signal,
      }),
    [],
  );
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const now = new Date().toISOString();

  const move = async (c: Commitment, to: Status) => {
    setBusy(c.id);
    setError(null);
    try {
      await post(`/v1/commitments/${c.id}/status`, { status: to });
      loaded.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  const all = loaded.data?.commitments ?? [];

  return (
    <div class="page commitments">
      <h2>Commitments</h2>
      <p class="muted">
        What agents and people said they would do. {plural(all.length, 'commitment')}; soonest due first in
        each column. Commitments waiting for review are in the review queue until approved.
      </p>
      <ErrorNote error={error ?? loaded.error} />
      <section class="board" aria-label="commitments board">
        {COLUMNS.map(([status, title]) => {
          const cards = all.filter((c) => c.status === status);
          return (
            <section class="board-column" key={status} data-status={status} aria-label={title}>
              <h3>
                {title} <span class="muted small">{cards.length}</span>
              </h3>
              {cards.length === 0 && <p class="empty muted small">none</p>}
              {cards.map((c) => (
                <article class="card" key={c.id} data-id={c.id}>
                  <p class="card-body">{c.body}</p>
                  <p class="muted small">
                    {c.owner === props.who ? 'yours' : c.owner} · {c.scope}
                  </p>
                  {c.due !== null && (
                    <p
                      class={`small ${c.due <= now && (status === 'open' || status === 'doing') ? 'overdue' : ''}`}
                    >
                      due <Time at={c.due} />
                    </p>
                  )}
                  {c.completedAt !== null && (
                    <p class="small muted">
                      done <Time at={c.completedAt} /> by {c.statusBy}
                    </p>
                  )}
                  {props.mayWrite && MOVES[status].length > 0 && (
                    <div class="card-moves">
                      {MOVES[status].map(([to, label]) => (
                        <button
                          type="button"
                          key={to}
                          class={to === 'cancelled' ? 'link danger' : 'link'}
                          data-move={to}
                          disabled={busy === c.id}
                          onClick={() => move(c, to)}
                        >
                          {label}
                        </button>
                      ))}
                    </div>
                  )}
                </article>
              ))}
            </section>
          );
        })}
      </section>
    </div>
  );
}
