/** Shared by the SQLite store tests: a home opened the way users open one, and raw reads of its index. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { buildFtsQuery } from '../../src/guard/fts-query.ts';
import { type Ledger, openLedger } from '../../src/index.ts';
import type { SearchPlan } from '../../src/store/port.ts';
import { scopeToken } from '../../src/store/sqlite/rows.ts';
import type { ResolvedScopes } from '../../src/store/sqlite/search.ts';

/** Runs `fn` on a fresh temporary home (the ledger open) and removes it afterwards. */
export async function withHome<T>(
  fn: (h: { home: string; db: string; ledger: Ledger }) => Promise<T>,
  options: { now?: () => string } = {},
): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), 'memledger-store-'));
  const ledger = openLedger({ home, ...options });
  try {
    return await fn({ home, db: join(home, 'memory.db'), ledger });
  } finally {
    ledger.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** A second, raw connection to a database file, closed after `fn`. */
export function raw<T>(path: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The `tokenize` option memory.db's full-text indexes were created with, read from the schema itself. */
export function indexTokenizer(db: DatabaseSync): string {
  const { sql } = db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'fts_current'`).get() as {
    sql: string;
  };
  const option = /tokenize='([^']+)'/.exec(sql);
  if (option === null) throw new Error('fts_current has no tokenize option');
  return option[1]!;
}

/** A search plan as the ledger builds one (guard/fts-query quotes every word). */
export function planFor(query: string, extra: Partial<SearchPlan> = {}): SearchPlan {
  const q = buildFtsQuery(query);
  return {
    match: q.match,
    terms: q.terms,
    phrases: q.terms.map((t) => buildFtsQuery(t).match),
    scopes: { all: true },
    candidates: 50,
    ...extra,
  };
}

/** Scopes resolved as the store resolves them: exact scopes' tokens, and each prefix's scopes in the home. */
export function resolve(
  db: DatabaseSync,
  exact: string[],
  prefixes: string[] = [],
): ResolvedScopes & { toks: string[] } {
  const toks = new Set(exact.map(scopeToken));
  for (const p of prefixes) {
    for (const r of db.prepare(`SELECT tok FROM scopes WHERE scope LIKE ?`).all(`${p}%`) as {
      tok: string;
    }[]) {
      toks.add(r.tok);
    }
  }
  return { toks: [...toks], exact, prefixes };
}
