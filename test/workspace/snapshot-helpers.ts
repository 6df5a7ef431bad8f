/** Helpers for workspace persistence tests: write a workspace through the real seam, read one back, plant bytes. */
import { createHash } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { Ledger } from '../../src/index.ts';

/** Checks out, runs `sql` on the local copy, commits on the checked-out version; returns the new version. */
export async function writeWorkspace(ledger: Ledger, agent: string, sql: string): Promise<number> {
  const files = ledger.workspaceFiles;
  const co = await files.checkout(agent);
  const db = new DatabaseSync(co.path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
  return files.commit(agent, co.path, co.version);
}

/** Rows of `query` on the agent's current workspace as this ledger checks it out. */
export async function readWorkspace(ledger: Ledger, agent: string, query: string): Promise<unknown[]> {
  const co = await ledger.workspaceFiles.checkout(agent);
  const db = new DatabaseSync(co.path, { readOnly: true });
  try {
    return db
      .prepare(query)
      .all()
      .map((r) => ({ ...r }));
  } finally {
    db.close();
  }
}

/** The decompressed bytes of the agent's stored snapshot (null: none). */
export async function storedBytes(ledger: Ledger, agent: string): Promise<Buffer | null> {
  const s = await ledger.store.workspaces.get(agent);
  return s === null ? null : zstdDecompressSync(s.bytes);
}

/**
 * Replaces the agent's stored snapshot with `compressed` below the guards (what a damaged disk or a hostile
 * writer would leave), with a matching checksum so the restore itself has to find the damage.
 */
export async function plantSnapshot(ledger: Ledger, agent: string, compressed: Uint8Array): Promise<number> {
  const meta = await ledger.store.workspaces.meta(agent);
  const version = await ledger.store.workspaces.put({
    agent,
    baseVersion: meta?.version ?? 0,
    bytes: compressed,
    rawSize: 0,
    sha256: createHash('sha256').update(compressed).digest('hex'),
    tableCount: 0,
    updatedAt: new Date().toISOString(),
    updatedBy: 'test:planted',
  });
  if (version === null) throw new Error('planting lost a race');
  return version;
}

export const zstd = (bytes: Uint8Array): Uint8Array => new Uint8Array(zstdCompressSync(bytes));
