/**
 * workspace_restore: cold restore of a 50 MB agent workspace snapshot (issue 11: ≤ 1 s), i.e. a process with no
 * local copy checks the workspace out: the compressed snapshot is read from the store, decompressed and checked
 * (`quick_check`) in a child process, and moved into place. The raw baseline does the same work in-process on
 * the same bytes with bare node:sqlite and node:zlib, with no store read and no child process.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { zstdDecompressSync } from 'node:zlib';
import { openLedger } from '../../src/index.ts';
import type { Context } from '../context.ts';
import { mulberry32 } from '../prng.ts';
import { atMost, type BenchResult, result } from '../report.ts';
import { ratio, round, stopwatch, summarize } from '../stats.ts';

const TARGET_BYTES = 50 * 1024 * 1024;
const AGENT = 'agent:bench';

export async function benchWorkspaceRestore(ctx: Context): Promise<BenchResult> {
  const runs = ctx.settings.smoke ? 3 : 9;
  // Its own home on SQLite, so the 1M-memory one is not involved; the bench tenant on Postgres.
  const spec = ctx.backend === 'sqlite' ? join(ctx.dir, 'workspace-home') : ctx.store;
  const writer = openLedger({ store: spec });
  try {
    await writer.ready;
    ctx.log('workspace_restore: building a 50 MB workspace');
    const co = await writer.workspaceFiles.checkout(AGENT);
    const rows = fill(co.path, ctx.settings.seed);
    const commit = stopwatch();
    await writer.workspaceFiles.commit(AGENT, co.path, co.version);
    const commitMs = commit().wallMs;
    const snapshot = (await writer.store.workspaces.get(AGENT))!;

    const mine: number[] = [];
    for (let i = 0; i < runs; i++) {
      // A fresh handle has no local copy: each checkout is a cold restore.
      const cold = openLedger({ store: spec });
      try {
        await cold.ready;
        const watch = stopwatch();
        const out = await cold.workspaceFiles.checkout(AGENT);
        mine.push(watch().wallMs);
        if (out.outcome !== 'restored') throw new Error(`workspace_restore: ${out.outcome}, not restored`);
      } finally {
        cold.close();
      }
    }
    const raw: number[] = [];
    const rawPath = join(ctx.dir, 'workspace-raw.sqlite');
    for (let i = 0; i < runs; i++) {
      const watch = stopwatch();
      writeFileSync(rawPath, zstdDecompressSync(snapshot.bytes));
      const db = new DatabaseSync(rawPath);
      const check = db.prepare('PRAGMA quick_check').get() as { quick_check: string };
      db.close();
      raw.push(watch().wallMs);
      if (check.quick_check !== 'ok') throw new Error('workspace_restore: the raw copy failed quick_check');
      rmSync(rawPath, { force: true });
    }
    const m = summarize(mine);
    const r = summarize(raw);
    return result({
      description:
        'cold checkout of a 50 MB workspace snapshot: store read, decompress + write + quick_check in a child process, vs the same decompress + write + quick_check in-process',
      memledger: { coldRestore: m },
      raw: { decompressWriteCheck: r },
      ratio: ratio(m.p50Ms, r.p50Ms),
      target: 'cold restore of a 50 MB snapshot p50 ≤ 1 s (issue 11)',
      checks: [atMost('p50Ms', m.p50Ms, 1000)],
      notes: {
        rawBytes: snapshot.rawSize,
        compressedBytes: snapshot.compressedSize,
        rows,
        commitOf50MbMs: round(commitMs, 1),
      },
    });
  } finally {
    writer.close();
  }
}

/** Rows of Zipf-ish words until the file passes 50 MB: compressible like text, not like zeros. */
function fill(path: string, seed: number): number {
  const random = mulberry32(seed);
  const words = Array.from(
    { length: 5000 },
    (_, i) => `w${i.toString(36)}${Math.floor(random() * 1e6).toString(36)}`,
  );
  const pick = () => words[Math.floor(words.length * random() ** 3)]!;
  const db = new DatabaseSync(path);
  try {
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, subject TEXT, body TEXT, n REAL)');
    const insert = db.prepare('INSERT INTO notes (subject, body, n) VALUES (?, ?, ?)');
    let rows = 0;
    for (;;) {
      db.exec('BEGIN');
      for (let i = 0; i < 10_000; i++, rows++) {
        const body = Array.from({ length: 20 + Math.floor(random() * 30) }, pick).join(' ');
        insert.run(
          random() < 0.3 ? `person:p${Math.floor(random() * 1000)}@example.com` : null,
          body,
          random(),
        );
      }
      db.exec('COMMIT');
      const { n } = db
        .prepare('SELECT page_count * page_size AS n FROM pragma_page_count, pragma_page_size')
        .get() as {
        n: number;
      };
      if (n >= TARGET_BYTES) return rows;
    }
  } finally {
    db.close();
  }
}
