/**
 * A driver for the single-remember path (`node bench/remember-profile.ts build|measure`): `build` imports N export
 * lines into a home and the raw baseline once (PROFILE_DIR); `measure` copies them and does R remembers
 * alternating with raw inserts, printing CPU per call for both sides and the WAL frames each write appended to
 * memory.db, audit.db and raw.db, by b-tree (read from the WAL's frame headers; owners by dbstat at the end).
 */
import { cpSync, existsSync, mkdtempSync, openSync, readSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openLedger } from '../src/index.ts';
import { DATA_SHAPE } from './context.ts';
import { Dataset } from './data.ts';
import { RawStore } from './raw.ts';
import { stopwatch } from './stats.ts';

const n = Number(process.env.PROFILE_LINES ?? 100_000);
const r = Number(process.env.PROFILE_REMEMBERS ?? 2_000);
const warm = Number(process.env.PROFILE_WARMUP ?? 100);
const fixture = process.env.PROFILE_DIR ?? join(tmpdir(), `memledger-rprof-${n}`);
const dataset = new Dataset({
  memories: n + warm + r,
  scopes: Math.max(10, Math.round(n / 1000)),
  seed: 1,
  ...DATA_SHAPE,
});

async function* lines(from: number, to: number) {
  for (let i = from; i < to; i++) yield dataset.line(i);
}

async function build(): Promise<void> {
  rmSync(fixture, { recursive: true, force: true });
  const ledger = openLedger({ store: join(fixture, 'home') });
  await ledger.ready;
  const session = ledger.as(ledger.operator(), { surface: 'library', client: 'profile' });
  const res = await session.import(lines(0, n), { mode: 'restore' });
  if (res.imported !== n) throw new Error(`imported ${res.imported}`);
  await ledger.close();
  const raw = new RawStore(join(fixture, 'raw.db'));
  await raw.importLines(lines(0, n));
  raw.close();
  console.log(`built ${fixture}`);
}

/** mxFrame of a WAL: the wal-index header in the -shm file (offset 16, native order). */
function mxFrame(db: string): number {
  const fd = openSync(`${db}-shm`, 'r');
  const b = Buffer.alloc(4);
  readSync(fd, b, 0, 4, 16);
  closeSync(fd);
  return b.readUInt32LE(0);
}

/** Page numbers of WAL frames (from, to], or null when the WAL was restarted in between. */
function framePages(db: string, from: number, to: number): number[] | null {
  if (to < from) return null;
  const fd = openSync(`${db}-wal`, 'r');
  const h = Buffer.alloc(32);
  readSync(fd, h, 0, 32, 0);
  const size = h.readUInt32BE(8);
  const out: number[] = [];
  const f = Buffer.alloc(4);
  for (let i = from + 1; i <= to; i++) {
    readSync(fd, f, 0, 4, 32 + (i - 1) * (24 + size));
    out.push(f.readUInt32BE(0));
  }
  closeSync(fd);
  return out;
}

class Frames {
  readonly #file: string;
  readonly #pages = new Map<number, number>();
  counts: number[] = [];
  #at = 0;
  constructor(file: string) {
    this.#file = file;
  }
  start(): void {
    this.#at = mxFrame(this.#file);
  }
  stop(keep: boolean): void {
    const to = mxFrame(this.#file);
    const pages = framePages(this.#file, this.#at, to);
    if (!keep || pages === null) return;
    this.counts.push(pages.length);
    for (const p of pages) this.#pages.set(p, (this.#pages.get(p) ?? 0) + 1);
  }
  report(label: string, calls: number): void {
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const db: DatabaseSync = new DatabaseSync(this.#file, { readOnly: true });
    const owner = new Map<number, string>();
    for (const row of db.prepare('SELECT name, pageno FROM dbstat').all() as {
      name: string;
      pageno: number;
    }[])
      owner.set(row.pageno, row.name);
    db.close();
    const by = new Map<string, number>();
    for (const [p, c] of this.#pages) {
      const name = p === 1 ? 'page 1 (header)' : (owner.get(p) ?? 'free/other');
      by.set(name, (by.get(name) ?? 0) + c);
    }
    const sorted = [...this.counts].sort((a, b) => a - b);
    const mean = this.counts.reduce((a, b) => a + b, 0) / Math.max(1, this.counts.length);
    console.log(
      `${label}: frames per call mean ${mean.toFixed(2)} p50 ${sorted[sorted.length >> 1]} over ${this.counts.length} (of ${calls})`,
    );
    for (const [name, c] of [...by].sort((a, b) => b[1] - a[1]))
      console.log(`  ${(c / this.counts.length).toFixed(2)}  ${name}`);
  }
}

async function measure(): Promise<void> {
  if (!existsSync(fixture)) await build();
  const dir = mkdtempSync(join(tmpdir(), 'memledger-rprof-run-'));
  try {
    cpSync(fixture, dir, { recursive: true });
    const home = join(dir, 'home');
    const ledger = openLedger({ store: home });
    await ledger.ready;
    const session = ledger.as(ledger.operator(), { surface: 'library', client: 'profile' });
    const raw = new RawStore(join(dir, 'raw.db'));
    const mem = new Frames(join(home, 'memory.db'));
    const aud = new Frames(join(home, 'audit.db'));
    const rawF = new Frames(join(dir, 'raw.db'));
    const mine: number[] = [];
    const theirs: number[] = [];
    const count = process.env.PROFILE_FRAMES !== '0';
    for (let j = 0; j < warm + r; j++) {
      const measured = j >= warm;
      const i = n + j;
      const runMine = async () => {
        if (count) {
          mem.start();
          aud.start();
        }
        const s = stopwatch();
        const w = await session.remember(dataset.rememberInput(i));
        const t = s();
        if (count) {
          mem.stop(measured);
          aud.stop(measured);
        }
        if (w.state !== 'active') throw new Error(w.reason);
        if (measured) mine.push(t.cpuMs);
      };
      const runRaw = () => {
        if (process.env.PROFILE_NO_RAW === '1') return;
        if (count) rawF.start();
        const s = stopwatch();
        raw.insertOne(dataset.memory(i));
        const t = s();
        if (count) rawF.stop(measured);
        if (measured) theirs.push(t.cpuMs);
      };
      if (j % 2 === 0) {
        await runMine();
        runRaw();
      } else {
        runRaw();
        await runMine();
      }
    }
    await ledger.close();
    raw.close();
    const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
    const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
    console.log(
      `remember CPU p50 ${(med(mine) * 1000).toFixed(1)} us (mean ${(mean(mine) * 1000).toFixed(1)}), raw p50 ${(med(theirs) * 1000).toFixed(1)} us (mean ${(mean(theirs) * 1000).toFixed(1)}), ratio ${(med(mine) / med(theirs)).toFixed(2)}`,
    );
    if (count) {
      mem.report('memory.db', r);
      aud.report('audit.db', r);
      rawF.report('raw.db', r);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'build') await build();
else await measure();
