/**
 * A deterministic embedder for tests of the vector path: each word (after a small synonym table) adds to one
 * of 64 dimensions chosen by a hash, so texts sharing words or synonyms are close and others are not. Counts its
 * calls, so a test can tell whether a write or a search reached it.
 */
import { createHash } from 'node:crypto';
import type { Embedder } from '../../src/index.ts';

const DIMS = 64;
const SYNONYMS: Record<string, string> = {
  subscription: 'plan',
  tier: 'plan',
  wombats: 'wombat',
  marsupial: 'wombat',
  burrow: 'habitat',
  den: 'habitat',
};

export class WordEmbedder implements Embedder {
  readonly model: string;
  readonly dims = DIMS;
  calls = 0;
  texts = 0;
  closed = false;

  constructor(model = 'test/words-64') {
    this.model = model;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls++;
    this.texts += texts.length;
    return texts.map(wordVector);
  }

  close(): void {
    this.closed = true;
  }
}

export function wordVector(text: string): Float32Array {
  const v = new Float32Array(DIMS);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const word = SYNONYMS[raw] ?? raw;
    if (word.length < 3) continue;
    v[createHash('sha256').update(word).digest()[0]! % DIMS]! += 1;
  }
  let n = 0;
  for (const x of v) n += x * x;
  if (n > 0) for (let i = 0; i < DIMS; i++) v[i]! /= Math.sqrt(n);
  return v;
}
