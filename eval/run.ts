/**
 * `npm run eval -- FILE [--k 5,10] [--budget 1500] [--json] [--misses] [--category NAME,...]
 * [--half tuning|held-out] [--scoped]`: evaluates retrieval on a labelled set and prints the report as JSON on
 * stdout (plus a table on stderr unless --json). A mining set (`"type": "mining"`, e.g.
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

const USAGE =
  'usage: npm run eval -- FILE [--k 5,10] [--budget 1500] [--json] [--misses] [--category a,b] [--half tuning|held-out] [--scoped] [--threshold 0.6]';

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { file, k, budget, json, misses, categories, half, scoped, threshold } = parsed;
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
  const report = await runEval(set, {
    k,
    budget,
    misses,
    ...(categories === undefined ? {} : { categories }),
    ...(half === undefined ? {} : { half }),
    scoped,
  });
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
      category: { type: 'string' },
      half: { type: 'string' },
      scoped: { type: 'boolean', default: false },
      threshold: { type: 'string' },
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
  const budget = Number(values.budget);
  if (!Number.isInteger(budget) || budget < 1) throw new Error('--budget takes a positive whole number');
  return {
    file: positionals[0]!,
    k: [...new Set(k)].sort((a, b) => a - b),
    budget,
    json: values.json,
    misses: values.misses,
    categories: values.category?.split(',').map((c) => c.trim()),
    half: values.half as Half | undefined,
    scoped: values.scoped,
    threshold,
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
