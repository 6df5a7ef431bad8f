/**
 * The resident memory of a real `memledger serve` on a home (bench/hybrid.ts): spawned with the embedder given
 * (`local` loads the model in its worker thread on the first search), one scoped `POST /v1/search` with a
 * read-only service token, then VmRSS from /proc (Linux; null elsewhere), then the server is stopped.
 */
import { readFileSync } from 'node:fs';
import { openTokenStore } from '../src/auth/sqlite-token-store.ts';
import { cleanEnv, startProcess, stopProcess } from './procs.ts';
import { MEMLEDGER_BIN } from './serving.ts';

export interface ServeRss {
  embedder: string;
  /** VmRSS after start-up, before any request. */
  startedMb: number | null;
  /** VmRSS after one answered search. */
  afterSearchMb: number | null;
  /** Whether that search used vectors (the model was loaded and ranked with). */
  usedVectors: boolean | null;
}

export async function serveRss(home: string, embedder: 'local' | 'off', query: object): Promise<ServeRss> {
  const tokens = openTokenStore(home);
  let token: string;
  try {
    token = (
      await tokens.create(
        { name: `rss-${embedder}-${Date.now()}`, kind: 'service', roles: ['reader'], grants: ['*:r'] },
        'human:operator',
      )
    ).secret;
  } finally {
    await tokens.close();
  }
  const { child, match } = await startProcess(
    process.execPath,
    [MEMLEDGER_BIN, '--home', home, 'serve', '--port', '0'],
    /memledger serving (http:\/\/\S+)/,
    120_000,
    { ...cleanEnv(), MEMLEDGER_EMBEDDER: embedder },
  );
  try {
    const startedMb = rssMb(child.pid);
    const response = await fetch(`${match[1]}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(query),
    });
    if (!response.ok) throw new Error(`serve answered ${response.status} to the search`);
    const body = (await response.json()) as { vectors?: { used: boolean } };
    return { embedder, startedMb, afterSearchMb: rssMb(child.pid), usedVectors: body.vectors?.used ?? null };
  } finally {
    await stopProcess(child);
  }
}

function rssMb(pid: number | undefined): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Math.round(Number(kb) / 1024);
  } catch {
    return null;
  }
}
