/**
 * Retrieval modes of the eval: `bm25` (no embedder, search as it is without one), `embedding` (vectors alone)
 * and `hybrid` (text and vectors fused), run on the same set so they can be read side by side, per category
 * and per half of the split. The two vector modes share one embedder, so a text is embedded once per run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type Embedder, LocalEmbedder, localEmbedderAvailable, type SemanticOptions } from '../src/index.ts';
import type { EvalSet } from './format.ts';
import { type EvalOptions, type EvalReport, runEval } from './harness.ts';

export const MODES = ['bm25', 'embedding', 'hybrid'] as const;
export type Mode = (typeof MODES)[number];

export interface ModesReport {
  set: string;
  modes: Partial<Record<Mode, EvalReport>>;
  /** Modes that could not run here, and why. */
  skipped: Partial<Record<Mode, string>>;
}

/** Runs each mode; a vector mode is skipped, with its reason, where the local model is not installed. */
export async function runModes(
  set: EvalSet,
  options: EvalOptions,
  modes: readonly Mode[],
  tuning: Omit<SemanticOptions, 'embedder' | 'mode'> = {},
  /** A file keeping the vectors between runs (CachedEmbedder). */
  vectorCache?: string,
): Promise<ModesReport> {
  const report: ModesReport = { set: set.name, modes: {}, skipped: {} };
  const needsModel = modes.some((m) => m !== 'bm25');
  const embedder =
    needsModel && localEmbedderAvailable() ? new CachedEmbedder(new LocalEmbedder(), vectorCache) : null;
  try {
    for (const mode of modes) {
      if (mode === 'bm25') {
        report.modes[mode] = await runEval(set, options);
        continue;
      }
      if (embedder === null) {
        report.skipped[mode] = 'the optional packages of the local embedder are not installed';
        continue;
      }
      report.modes[mode] = await runEval(set, { ...options, semantic: { ...tuning, embedder, mode } });
    }
  } finally {
    embedder?.close();
  }
  return report;
}

/** Keeps each text's vector for the process: modes and tuning runs reload the same set. */
export class CachedEmbedder implements Embedder {
  readonly #inner: Embedder;
  readonly #cache = new Map<string, Float32Array>();

  readonly #file: string | undefined;

  /** With `file`, vectors are read from it first and written back at close (tuning loops across processes). */
  constructor(inner: Embedder, file?: string) {
    this.#inner = inner;
    this.#file = file;
    if (file !== undefined && existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as {
        model: string;
        vectors: Record<string, number[]>;
      };
      if (saved.model === inner.model) {
        for (const [t, v] of Object.entries(saved.vectors)) this.#cache.set(t, Float32Array.from(v));
      }
    }
  }

  get model(): string {
    return this.#inner.model;
  }

  get dims(): number | null {
    return this.#inner.dims;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.#cache.has(t)))];
    const fresh = await this.#inner.embed(missing);
    for (const [i, t] of missing.entries()) this.#cache.set(t, fresh[i]!);
    // A copy each time: a caller may scale a vector in place.
    return texts.map((t) => Float32Array.from(this.#cache.get(t)!));
  }

  close(): void {
    this.#inner.close();
    if (this.#file === undefined) return;
    const vectors = Object.fromEntries([...this.#cache].map(([t, v]) => [t, [...v]]));
    writeFileSync(this.#file, JSON.stringify({ model: this.#inner.model, vectors }));
  }
}
