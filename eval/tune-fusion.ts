/**
 * `node eval/tune-fusion.ts FILE [CACHE]`: the fusion's constants (text shares, the cosine ceiling), and score
 * fusion against RRF, on the set's tuning half only (the held-out half is never read here). Prints recall@5
 * and MRR per setting, overall and per category, as JSON lines; a text is embedded once for the whole grid
 * (eval/modes.ts).
 */
import { LocalEmbedder } from '../src/index.ts';
import { readEvalSet } from './format.ts';
import { runEval } from './harness.ts';
import { CachedEmbedder } from './modes.ts';

const [file, cache] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: node eval/tune-fusion.ts FILE [VECTOR-CACHE.json]');
const set = readEvalSet(file);
const embedder = new CachedEmbedder(new LocalEmbedder(), cache);
type Setting = {
  fusion: 'score' | 'rrf';
  weight: number;
  fullWeight: number;
  floor: number;
  ceiling: number;
  keep: number;
};
const grid: Setting[] = [];
const floor = 0.3;
grid.push({ fusion: 'rrf', weight: 0.5, fullWeight: 0.5, floor, ceiling: 0, keep: 0 });
for (const keep of [1, 2, 0]) {
  for (const ceiling of [0, 0.6]) {
    for (const [weight, fullWeight] of [
      [0.2, 0.8],
      [0.2, 0.75],
      [0.2, 0.7],
      [0.3, 0.7],
    ] as const) {
      grid.push({ fusion: 'score', weight, fullWeight, floor, ceiling, keep });
    }
  }
}
try {
  for (const setting of grid) {
    const r = await runEval(set, {
      k: [5, 10],
      budget: 1500,
      half: 'tuning',
      skipContext: true,
      semantic: { embedder, mode: 'hybrid', ...setting },
    });
    const categories = Object.fromEntries(Object.entries(r.categories).map(([n, g]) => [n, g['recall@5']]));
    process.stdout.write(
      `${JSON.stringify({ ...setting, r5: r.overall['recall@5'], mrr: r.overall.mrr, categories })}\n`,
    );
  }
} finally {
  embedder.close();
}
