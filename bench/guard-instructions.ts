/**
 * `node bench/guard-instructions.ts`: the cost of the instruction-shaped content check that every write runs,
 * over 10,000 ordinary sentences, beside the credential check on the same sentences. Prints one JSON document.
 *
 * The sentences are real prose, not generated words: the evaluation set's memory bodies, then the bullets and
 * paragraphs (split as the folder feed splits notes) of this repository's Markdown and of the installed
 * packages' Markdown, in path order, distinct, the first 10,000.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { noteUnits } from '../src/feeds/connectors/folder.ts';
import { findInstruction } from '../src/guard/instructions.ts';
import { findSecret } from '../src/guard/secrets.ts';
import { quantile, round } from './stats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WANTED = 10_000;
const PASSES = 5;

function markdownFiles(dir: string, out: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) markdownFiles(path, out);
    else if (name.toLowerCase().endsWith('.md')) out.push(path);
  }
  return out;
}

function sentences(): string[] {
  const set = JSON.parse(readFileSync(join(ROOT, 'eval/sets/memledger-v1.json'), 'utf8')) as {
    memories: { body: string }[];
  };
  const out = new Set(set.memories.map((m) => m.body));
  const files = [
    join(ROOT, 'README.md'),
    ...markdownFiles(join(ROOT, 'docs')),
    ...markdownFiles(join(ROOT, 'node_modules')),
  ];
  for (const file of files) {
    for (const unit of noteUnits(readFileSync(file, 'utf8'))) {
      if (unit.length >= 20 && unit.length <= 2_000) out.add(unit);
      if (out.size >= WANTED) return [...out];
    }
  }
  return [...out];
}

/** µs per call for each sentence, over several passes; each sentence's figure is its fastest pass. */
function measure(texts: readonly string[], check: (text: string) => unknown): number[] {
  const best = texts.map(() => Number.POSITIVE_INFINITY);
  for (let pass = 0; pass < PASSES; pass++) {
    texts.forEach((text, i) => {
      const t0 = performance.now();
      check(text);
      const us = (performance.now() - t0) * 1000;
      if (us < best[i]!) best[i] = us;
    });
  }
  return best;
}

function summary(us: number[]): Record<string, number> {
  const mean = us.reduce((s, x) => s + x, 0) / us.length;
  return {
    meanUs: round(mean, 2),
    p50Us: round(quantile(us, 0.5), 2),
    p99Us: round(quantile(us, 0.99), 2),
    maxUs: round(Math.max(...us), 2),
  };
}

const texts = sentences();
for (const text of texts.slice(0, 500)) findInstruction(text); // warm the regex engine and the JIT
const flagged = texts.filter((t) => findInstruction(t) !== null).length;
const result = {
  sentences: texts.length,
  meanChars: Math.round(texts.reduce((s, t) => s + t.length, 0) / texts.length),
  flagged,
  findInstruction: summary(measure(texts, findInstruction)),
  findSecret: summary(measure(texts, findSecret)),
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
