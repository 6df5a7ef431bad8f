// The summary chains page, read-only: the chains a person may read, and one chain's links in order (cutoff,
// coverage, stale and why, each summary's body when readable) with what `summaries next` would hand over.
// Summaries are written by agents or behaviors through the gate, never from here.
import { ApiError, api } from '../api.ts';
import { ErrorNote, Link, Time, useLoad } from '../components.tsx';
import { plural } from '../format.ts';
import type { ChainSummary } from '../../ledger/plans/chain-list.ts';
import type { ChainView, SummaryWindow } from '../../ledger/plans/summaries.ts';
import type { Memory } from '../../model/memory.ts';

type LinkItem = ChainView['links'][number];

export function SummariesScreen() {
  const list = useLoad((signal) => api<{ chains: ChainSummary[] }>('/v1/summaries', { signal }), []);
  const chains = list.data?.chains ?? [];
  return (
    <div class="page summaries">
      <h2>Summaries</h2>
      <p class="muted">
        Incremental summary chains over a scope, a session or a subject. Agents and behaviors write summaries
        through the gate; this page only reads.
      </p>
      <ErrorNote error={list.error} />
      {chains.length === 0 && !list.loading && <p class="muted">No summary chains you may read.</p>}
      {chains.length > 0 && (
        <table class="grid" aria-label="summary chains">
          <thead>
            <tr>
              <th>Chain</th>
              <th>Source</th>
              <th>Owner</th>
              <th>Latest cutoff</th>
              <th>Summaries</th>
              <th>Stale</th>
            </tr>
          </thead>
          <tbody>
            {chains.map((c) => (
              <tr key={c.name} data-chain={c.name}>
                <td>
                  <Link href={`/summaries/${c.name}`}>{c.name}</Link>
                </td>
                <td>{sourceLabel(c)}</td>
                <td>{c.owner ?? <span class="muted">none</span>}</td>
                <td>
                  {c.latestCutoff === null ? (
                    <span class="muted">none yet</span>
                  ) : (
                    <Time at={c.latestCutoff} />
                  )}
                </td>
                <td data-count="summaries">{c.summaries}</td>
                <td data-count="stale">{c.stale}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function ChainScreen(props: { name: string }) {
  const path = `/v1/summaries/${encodeURIComponent(props.name)}`;
  const view = useLoad(
    async (signal) => {
      const chain = await api<ChainView>(path, { signal });
      // Each summary's body through the memory route: one the caller may not read is left out (404), not shown.
      const bodies = await Promise.all(
        chain.links.map((l) =>
          api<Memory>(`/v1/memories/${l.memoryId}`, { signal }).catch((err: unknown) => {
            if (err instanceof ApiError && err.status === 404) return null;
            throw err;
          }),
        ),
      );
      // Asked only once the chain itself was readable, so an unreadable chain gets one refusal, not two.
      const next = await api<SummaryWindow>(`${path}/next`, { signal });
      return { chain, bodies, next };
    },
    [props.name],
  );
  const next = view.data?.next;
  const links = view.data?.chain.links ?? [];
  const body = (i: number) => view.data?.bodies[i]?.body ?? null;
  return (
    <div class="page summaries chain" data-chain={props.name}>
      <p>
        <Link href="/summaries">All chains</Link>
      </p>
      <h2>Chain {props.name}</h2>
      <ErrorNote error={view.error} />
      {view.data !== undefined && (
        <p class="muted">
          {sourceLabel(view.data.chain.chain)} · {plural(links.length, 'summary', 'summaries')}
        </p>
      )}
      <ol class="links" aria-label="summaries in order">
        {links.map((l, i) => (
          <li key={l.memoryId} data-id={l.memoryId} class={l.staleAt === null ? 'link-live' : 'link-stale'}>
            <p class="small">
              up to <Time at={l.cutoff} /> · covers {plural(l.covered, 'memory', 'memories')} · {l.state}
              {l.staleAt !== null && (
                <span class="stale" data-stale="true">
                  {' '}
                  · stale since <Time at={l.staleAt} />: {staleWhy(l)}
                </span>
              )}
            </p>
            {body(i) !== null ? (
              <p class="summary-body">{body(i)}</p>
            ) : (
              <p class="muted small">(its text is not readable to you)</p>
            )}
          </li>
        ))}
      </ol>
      {view.data !== undefined && links.length === 0 && <p class="muted">No summaries yet.</p>}
      <section class="next" aria-label="next window">
        <h3>Next window</h3>
        {next !== undefined && (
          <p data-next-count={next.memories.length}>
            {next.memories.length === 0 ? (
              'Nothing new since the last cutoff.'
            ) : (
              <>
                {plural(next.memories.length, 'memory', 'memories')} to summarise, up to{' '}
                <Time at={next.until} />
                {next.more && ' (more waits after that)'}
              </>
            )}
          </p>
        )}
      </section>
    </div>
  );
}

function sourceLabel(c: { scope: string; sessionId: string | null; subject: string | null }): string {
  if (c.sessionId !== null) return `${c.scope}, session ${c.sessionId}`;
  if (c.subject !== null) return `${c.scope}, subject ${c.subject}`;
  return c.scope;
}

/** A link goes stale when its summary never landed, or when erasure reached what it (or one before it) covers. */
function staleWhy(l: LinkItem): string {
  if (l.state !== 'active' && l.state !== 'held') return `its summary was ${l.state}, so it never counted`;
  return 'erasure reached a memory it covers, or one an earlier summary covers';
}
