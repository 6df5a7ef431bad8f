/**
 * A small driver for profiling the write path (`node --cpu-prof bench/write-profile.ts`): imports N export
 * lines (restore), N plain lines (ingest) and does R single remembers, each into a fresh home, printing the
 * CPU time per memory of each and the raw baseline's on the same rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '../src/index.ts';
import { Dataset } from './data.ts';
import { DATA_SHAPE } from './context.ts';
import { RawStore } from './raw.ts';
import { stopwatch } from './stats.ts';

const n = Number(process.env.PROFILE_LINES ?? 50_000);
const r = Number(process.env.PROFILE_REMEMBERS ?? 5_000);
const only = (process.env.PROFILE_ONLY ?? 'restore,ingest,remember').split(',');
const dataset = new Dataset({
  memories: n + r,
  scopes: Math.max(10, Math.round(n / 1000)),
  seed: 1,
  ...DATA_SHAPE,
});
const exportLines = Array.from({ length: n }, (_, i) => dataset.line(i));
const plainLines = Array.from({ length: n }, (_, i) => JSON.stringify(dataset.rememberInput(i)));
const dir = mkdtempSync(join(tmpdir(), 'memledger-wprof-'));
async function* iter(lines: string[]) {
  yield* lines;
}
try {
  const raw = new RawStore(join(dir, 'raw.db'));
  let stop = stopwatch();
  await raw.importLines(iter(exportLines));
  const rawT = stop();
  console.log(
    `raw import: ${(n / (rawT.wallMs / 1000)).toFixed(0)}/s wall, ${((rawT.cpuMs * 1000) / n).toFixed(1)} us CPU/memory`,
  );
  for (const mode of ['restore', 'ingest'] as const) {
    if (!only.includes(mode)) continue;
    const ledger = openLedger({ store: join(dir, mode) });
    await ledger.ready;
    const session = ledger.as(ledger.operator(), { surface: 'library', client: 'profile' });
    stop = stopwatch();
    const res = await session.import(iter(mode === 'restore' ? exportLines : plainLines), { mode });
    const t = stop();
    if (res.imported !== n)
      throw new Error(`${mode}: imported ${res.imported}: ${JSON.stringify(res.failed[0])}`);
    console.log(
      `${mode}: ${(n / (t.wallMs / 1000)).toFixed(0)}/s wall, ${((t.cpuMs * 1000) / n).toFixed(1)} us CPU/memory`,
    );
    if (mode === 'restore' && only.includes('remember')) {
      const mine: number[] = [];
      const theirs: number[] = [];
      for (let j = 0; j < r; j++) {
        let s = stopwatch();
        const w = await session.remember(dataset.rememberInput(n + j));
        if (w.state !== 'active') throw new Error(w.reason);
        mine.push(s().cpuMs);
        s = stopwatch();
        raw.insertOne(dataset.memory(n + j));
        theirs.push(s().cpuMs);
      }
      const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!;
      console.log(`remember: CPU p50 ${med(mine).toFixed(3)} ms, raw ${med(theirs).toFixed(3)} ms`);
    }
    ledger.close();
  }
  raw.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
