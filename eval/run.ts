/**
 * `npm run eval -- FILE [--k 5,10] [--budget 1500] [--json] [--misses] [--ranks] [--category NAME,...]
 * [--half tuning|held-out] [--scoped] [--mode bm25|embedding|hybrid]`: evaluates retrieval on a labelled set and
 * prints the report as JSON on stdout (plus a table on stderr unless --json). Without --mode the three modes run
 * side by side (eval/modes.ts) and the JSON holds one report per mode. A mining set (`"type": "mining"`, e.g.
 * eval/sets/mining-v1.json) is evaluated by the miner's harness instead: `--json`, `--misses`, `--half` and
 * `--threshold` apply.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readEvalSet } from './format.ts';
import { runEval } from './harness.ts';
import { isMiningSet, parseMiningSet } from './mining/format.ts';
import { runMiningEval } from './mining/harness.ts';
import { formatMiningTable } from './mining/table.ts';
import { type Half, HALVES } from './split.ts';
import { formatTable } from './table.ts';
import { MODES, type Mode, runModes } from './modes.ts';
import { formatModesTable } from './modes-table.ts';

const USAGE =
  'usage: npm run eval -- FILE [--k 5,10] [--budget 1500] [--json] [--misses] [--ranks] [--category a,b] [--half tuning|held-out] [--scoped] [--threshold 0.6] [--mode bm25|embedding|hybrid] [--vector-cache FILE]';

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { file, k, budget, json, misses, ranks, categories, half, scoped, threshold, mode, vectorCache } =
    parsed;
  if (file.endsWith('.json')) {
    const document: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (isMiningSet(document)) {
      const report = await runMiningEval(parseMiningSet(document, file), {
        misses,
        ...(half === undefined ? {} : { half }),
        ...(threshold === undefined ? {} : { threshold }),
      });
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      if (!json) process.stderr.write(formatMiningTable(report));
      return 0;
    }
  }
  const set = readEvalSet(file);
  const options = {
    k,
    budget,
    misses,
    ranks,
    ...(categories === undefined ? {} : { categories }),
    ...(half === undefined ? {} : { half }),
    scoped,
  };
  if (mode === undefined) {
    const modes = await runModes(set, options, MODES, {}, vectorCache);
    process.stdout.write(`${JSON.stringify(modes, null, 2)}\n`);
    if (!json) process.stderr.write(formatModesTable(modes, k[0]!));
    return 0;
  }
  const report =
    mode === 'bm25'
      ? await runEval(set, options)
      : (await runModes(set, options, [mode], {}, vectorCache)).modes[mode];
  if (report === undefined) throw new Error(`mode ${mode} cannot run: the local embedder is not installed`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (!json) process.stderr.write(formatTable(report));
  return 0;
}

function parse() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      k: { type: 'string', default: '5,10' },
      budget: { type: 'string', default: '1500' },
      json: { type: 'boolean', default: false },
      misses: { type: 'boolean', default: false },
      ranks: { type: 'boolean', default: false },
      category: { type: 'string' },
      half: { type: 'string' },
      scoped: { type: 'boolean', default: false },
      threshold: { type: 'string' },
      mode: { type: 'string' },
      'vector-cache': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new Error('name exactly one labelled set file');
  const k = values.k.split(',').map((v) => Number(v.trim()));
  if (k.some((v) => !Number.isInteger(v) || v < 1 || v > 200))
    throw new Error('--k takes whole numbers 1..200');
  if (values.half !== undefined && !(HALVES as readonly string[]).includes(values.half))
    throw new Error(`--half takes ${HALVES.join(' or ')}`);
  const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
  if (threshold !== undefined && !(threshold > 0 && threshold <= 1))
    throw new Error('--threshold takes a number in (0, 1]');
  if (values.mode !== undefined && !(MODES as readonly string[]).includes(values.mode))
    throw new Error(`--mode takes ${MODES.join(', ')}`);
  const budget = Number(values.budget);
  if (!Number.isInteger(budget) || budget < 1) throw new Error('--budget takes a positive whole number');
  return {
    file: positionals[0]!,
    k: [...new Set(k)].sort((a, b) => a - b),
    budget,
    json: values.json,
    misses: values.misses,
    ranks: values.ranks,
    categories: values.category?.split(',').map((c) => c.trim()),
    half: values.half as Half | undefined,
    scoped: values.scoped,
    threshold,
    mode: values.mode as Mode | undefined,
    vectorCache: values['vector-cache'],
  };
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`eval failed: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
