/**
 * workspace: an agent's SQL workspace. (1) A read query on a warm ~10 MB workspace through the ledger
 * (session.workspaceSql: audit, checkout, the engine process over IPC, guard, bounds) against the same query on
 * the same file through bare node:sqlite in this process; the two alternate call by call. (2) A write batch of
 * 10 statements on a ~1 MB workspace including its commit, for the absolute target. Persistence is the ledger's
 * own: each commit is a backup-API copy, quick_check and zstd snapshot stored in the home's store.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openLedger } from '../../src/index.ts';
import type { Context } from '../context.ts';
import { atMost, type BenchResult, result } from '../report.ts';
import { ratio, round, stopwatch, summarize } from '../stats.ts';

const READ_OVER_RAW_MS = 5;
const WRITE_P50_MS = 50;
const READ =
  'SELECT category, count(*) AS n, round(avg(price), 2) AS avg_price FROM items WHERE id BETWEEN :a AND :a + 200 GROUP BY category';

export async function benchWorkspace(ctx: Context): Promise<BenchResult> {
  const runs = ctx.settings.smoke ? 60 : 400;
  const warmup = ctx.settings.smoke ? 10 : 50;
  const home = mkdtempSync(join(ctx.dir, 'workspace-'));
  const ledger = openLedger({ home });
  const stored = async (agent: string) => {
    const meta = await ledger.store.workspaces.meta(agent);
    if (meta === null) throw new Error(`workspace: ${agent} has no snapshot`);
    return meta;
  };
  try {
    const reader = ledger.as(ledger.principal('agent:bench-reader'), { surface: 'library' });
    const rows = await fill(reader, 60_000);
    const path = (await ledger.workspaceFiles.checkout('agent:bench-reader')).path;
    const readMeta = await stored('agent:bench-reader');
    const bytes = readMeta.rawSize;
    ctx.log(
      `workspace: ${rows} rows, ${round(bytes / 1024 / 1024, 1)} MB; ${warmup} warm-up + ${runs} reads per side`,
    );
    const raw = new DatabaseSync(path, { readOnly: true });
    const rawRead = raw.prepare(READ);
    const mine: number[] = [];
    const base: number[] = [];
    let mismatches = 0;
    for (let i = 0; i < warmup + runs; i++) {
      const a = (i * 7919) % (rows - 200);
      const runMine = async () => {
        const stop = stopwatch();
        const r = await reader.workspaceSql({ statements: [READ], bindings: { a } });
        const t = stop().wallMs;
        if (i >= warmup) mine.push(t);
        return r.results[0]?.rows.length ?? -1;
      };
      const runRaw = () => {
        const stop = stopwatch();
        const r = rawRead.all({ a });
        const t = stop().wallMs;
        if (i >= warmup) base.push(t);
        return r.length;
      };
      const [m, b] = i % 2 === 0 ? [await runMine(), runRaw()] : [runRaw(), await runMine()].reverse();
      if (m !== b) mismatches++;
    }
    raw.close();
    if (mismatches > 0) throw new Error(`workspace: the two sides disagreed on ${mismatches} reads`);

    const writer = ledger.as(ledger.principal('agent:bench-writer'), { surface: 'library' });
    await fill(writer, 6_000);
    const writeMeta = await stored('agent:bench-writer');
    const writeBytes = writeMeta.rawSize;
    const writes: number[] = [];
    const writeRuns = ctx.settings.smoke ? 30 : 200;
    for (let i = 0; i < writeRuns + warmup; i++) {
      const statements = Array.from({ length: 10 }, (_, j) =>
        j % 2 === 0
          ? `INSERT INTO items (subject, name, category, price, body) VALUES (NULL, 'w${i}-${j}', 'c${j}', ${j}.5, 'written by the bench')`
          : `UPDATE items SET price = price + 1 WHERE id = ${1 + ((i * 10 + j) % 6_000)}`,
      );
      const stop = stopwatch();
      const r = await writer.workspaceSql({ statements });
      const t = stop().wallMs;
      if (!r.committed) throw new Error('workspace: a write batch did not commit');
      if (i >= warmup) writes.push(t);
    }
    const m = summarize(mine);
    const r = summarize(base);
    const w = summarize(writes);
    const over = round(m.p50Ms - r.p50Ms);
    return result({
      description: `a grouped range read on a warm ${round(bytes / 1024 / 1024, 1)} MB workspace through session.workspaceSql (audited, engine process over IPC, authorizer, bounded results) vs the same prepared query on the same file through bare node:sqlite; and a batch of 10 writes on a ${round(writeBytes / 1024 / 1024, 1)} MB workspace including the commit (backup, quick_check, zstd snapshot into the store)`,
      memledger: { read: m, writeBatch: w, readOverRawP50Ms: over },
      raw: { read: r },
      ratio: ratio(m.p50Ms, r.p50Ms),
      target: `read p50 at most ${READ_OVER_RAW_MS} ms over raw; write batch of 10 incl. commit p50 <= ${WRITE_P50_MS} ms`,
      checks: [
        atMost('read p50 over raw (ms)', over, READ_OVER_RAW_MS),
        atMost('write batch p50 (ms)', w.p50Ms, WRITE_P50_MS),
      ],
      notes: {
        workspaceBytes: bytes,
        writeWorkspaceBytes: writeBytes,
        workspaceStoredBytes: readMeta.compressedSize,
        writeWorkspaceStoredBytes: writeMeta.compressedSize,
        persistence: "the ledger's own store: zstd snapshot, validated, per commit",
      },
    });
  } finally {
    ledger.close();
  }
}

/** Fills the agent's `items` table with `rows` rows of ~160 bytes, in one batch. */
async function fill(session: ReturnType<ReturnType<typeof openLedger>['as']>, rows: number): Promise<number> {
  await session.workspaceSql({
    statements: [
      'CREATE TABLE items (id INTEGER PRIMARY KEY, subject TEXT, name TEXT, category TEXT, price REAL, body TEXT)',
      `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT ${rows})
       INSERT INTO items (subject, name, category, price, body)
       SELECT CASE WHEN x % 3 = 0 THEN 'person:p' || x || '@example.com' END, 'item ' || x, 'c' || (x % 12),
              (x % 997) / 10.0, hex(randomblob(60)) FROM n`,
    ],
  });
  return rows;
}
