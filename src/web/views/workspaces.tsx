// Agent workspaces (admins only): every workspace with its version, tables and sizes; drill into one for its
// tables' row counts and sizes. Never a row: the download is the explicit, audited way to see content.
import { api, authHeaders } from '../api.ts';
import { ErrorNote, Link, Time, useLoad } from '../components.tsx';
import { plural } from '../format.ts';

interface WorkspaceMeta {
  agent: string;
  version: number;
  rawSize: number;
  compressedSize: number;
  tableCount: number;
  updatedAt: string;
  updatedBy: string;
}
interface WorkspaceDetail extends WorkspaceMeta {
  tables: { name: string; rows: number; bytes: number }[];
  quarantined: { version: number; reason: string; at: string; compressedSize: number } | null;
}

export const workspacePath = (agent: string): string => `/workspaces/${encodeURIComponent(agent)}`;

export function WorkspacesScreen() {
  const { data, error, loading } = useLoad(
    (signal) => api<{ workspaces: WorkspaceMeta[] }>('/v1/workspaces', { signal }),
    [],
  );
  return (
    <div class="page workspaces">
      <h2>Agent workspaces</h2>
      <p class="muted">
        Each agent's own SQL database, as its latest snapshot. Tables, row counts and sizes only; erasure by
        subject reaches every workspace.
      </p>
      <ErrorNote error={error} />
      {loading && data === undefined && <p class="loading">Loading…</p>}
      {data !== undefined && data.workspaces.length === 0 && (
        <p class="empty">No agent has a workspace yet.</p>
      )}
      {data !== undefined && data.workspaces.length > 0 && (
        <table class="results workspaces" aria-label="workspaces">
          <thead>
            <tr>
              <th>Agent</th>
              <th>Version</th>
              <th>Tables</th>
              <th>Size</th>
              <th>Stored</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {data.workspaces.map((w) => (
              <tr key={w.agent} data-agent={w.agent}>
                <td>
                  <Link href={workspacePath(w.agent)}>{w.agent}</Link>
                </td>
                <td>v{w.version}</td>
                <td>{w.tableCount}</td>
                <td>{bytes(w.rawSize)}</td>
                <td>{bytes(w.compressedSize)}</td>
                <td>
                  <Time at={w.updatedAt} relative /> <span class="muted small">by {w.updatedBy}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function WorkspaceScreen(props: { agent: string }) {
  const { data, error } = useLoad(
    (signal) => api<WorkspaceDetail>(`/v1/workspaces/${encodeURIComponent(props.agent)}`, { signal }),
    [props.agent],
  );
  const download = async () => {
    // Through fetch with the bearer token (a plain link would carry no token), then saved as a file.
    const res = await fetch(`/v1/workspaces/${encodeURIComponent(props.agent)}/export`, {
      headers: authHeaders(),
      credentials: 'omit',
      cache: 'no-store',
    });
    if (!res.ok) return;
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `${props.agent.replace(/[^A-Za-z0-9._-]/g, '_')}.sqlite`;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div class="page workspace">
      <p>
        <Link href="/workspaces">← All workspaces</Link>
      </p>
      <h2>{props.agent}</h2>
      <ErrorNote error={error} />
      {data !== undefined && (
        <>
          <p class="muted" data-version={data.version}>
            v{data.version} · {plural(data.tableCount, 'table')} · {bytes(data.rawSize)} (
            {bytes(data.compressedSize)} stored) · updated <Time at={data.updatedAt} relative /> by{' '}
            {data.updatedBy}
          </p>
          {data.quarantined !== null && (
            <p class="error">
              A damaged snapshot (v{data.quarantined.version}) is kept aside: {data.quarantined.reason}
            </p>
          )}
          <table class="results tables" aria-label="tables">
            <thead>
              <tr>
                <th>Table</th>
                <th>Rows</th>
                <th>Size</th>
              </tr>
            </thead>
            <tbody>
              {data.tables.map((t) => (
                <tr key={t.name} data-table={t.name}>
                  <td>
                    <code>{t.name}</code>
                  </td>
                  <td>{t.rows}</td>
                  <td>{bytes(t.bytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="actions">
            <button type="button" onClick={download}>
              Download .sqlite (audited)
            </button>
          </div>
        </>
      )}
    </div>
  );
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
