/**
 * Workspace persistence tests run on both store backends: `eachBackend` registers a suite per backend with a
 * factory of fresh stores (a temporary home; a fresh tenant of one Postgres database), skipping Postgres with its
 * reason when no cluster runs (I19). `spec` is what another process opens (`openLedger({ store: spec })`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { openLedger, type Ledger } from '../../src/index.ts';
import { openPgLedger, type PgTestDatabase, pgTestDatabase } from '../store/pg-helpers.ts';
import { testCluster } from '../support/pg-cluster.ts';

export interface WorkspaceHome {
  ledger: Ledger;
  /** The store spec another process or handle opens: a home path, or a URL with its tenant. */
  spec: string;
  /** The home directory when the store lives in files. */
  home: string | null;
  /** A second handle on the same store, as another process or replica would have (its own local copies). */
  reopen(): Promise<Ledger>;
  cleanup(): Promise<void>;
}

export type WorkspaceFactory = () => Promise<WorkspaceHome>;

export function eachBackend(name: string, cases: (open: WorkspaceFactory) => void): void {
  describe(`${name}: sqlite`, () => {
    cases(async () => {
      const home = mkdtempSync(join(tmpdir(), 'ml-ws-'));
      const ledger = openLedger({ home });
      const others: Ledger[] = [];
      return {
        ledger,
        spec: home,
        home,
        async reopen() {
          const l = openLedger({ home });
          others.push(l);
          return l;
        },
        async cleanup() {
          for (const l of others) l.close();
          ledger.close();
          rmSync(home, { recursive: true, force: true });
        },
      };
    });
  });
  const cluster = testCluster();
  if ('skip' in cluster) {
    describe(`${name}: postgres`, { skip: cluster.skip }, () => {});
    return;
  }
  describe(`${name}: postgres`, () => {
    let db: PgTestDatabase | undefined;
    before(async () => {
      db = await pgTestDatabase(cluster.url);
    });
    after(async () => {
      await db?.drop();
    });
    cases(async () => {
      const opened = await openPgLedger(db!);
      const others: { close(): Promise<void> }[] = [];
      return {
        ledger: opened.ledger,
        spec: opened.home,
        home: null,
        async reopen() {
          const again = await openPgLedger(db!, { tenant: opened.tenant });
          others.push(again);
          return again.ledger;
        },
        async cleanup() {
          for (const o of others) await o.close();
          await opened.close();
        },
      };
    });
  });
}
