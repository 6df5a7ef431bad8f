/**
 * Semantic retrieval for one open ledger: its embedder, how search fuses vectors with text, and the drain of
 * the embedding queue (writes are acknowledged before their vectors exist; this fills them in afterwards).
 */
import { MemoryError } from '../model/errors.ts';
import type { VectorStore } from '../store/vectors-port.ts';
import type { Embedder } from './embedder.ts';
import { quantise } from './int8.ts';
import { selectEmbedder } from './select.ts';

/** `hybrid` fuses text and vectors; `embedding` ranks by vectors alone (for the eval's side-by-side). */
export type SemanticMode = 'hybrid' | 'embedding';
/** `score`: normalised scores, weighted; `rrf`: reciprocal rank fusion (measured against each other). */
export type Fusion = 'score' | 'rrf';

export interface SemanticOptions {
  /** An embedder, a kind (`off`, `local`, `http`), or `auto`: MEMLEDGER_EMBEDDER, the home's embedder.json, then local if installed. */
  embedder?: Embedder | 'auto' | 'off' | 'local' | 'http';
  mode?: SemanticMode;
  fusion?: Fusion;
  /** Share of the fused score that is text (the rest is vector similarity) when no text candidate has every query word. */
  weight?: number;
  /** The text's share when a text candidate has every query word; between the two in proportion to coverage. */
  fullWeight?: number;
  /** A memory that matched no query word is a candidate only at this cosine or above. */
  floor?: number;
}

/**
 * Tuned on the tuning half of eval/sets/memledger-v1.json only (node eval/tune-fusion.ts): text share 0.2 → 0.8
 * by coverage gave recall@5 0.886 there, every fixed share at most 0.878, RRF 0.786; the floor (0.25–0.45)
 * changed nothing. The held-out half is reported, never fitted (README "Retrieval evaluation").
 */
export const DEFAULT_WEIGHT = 0.2;
export const DEFAULT_FULL_WEIGHT = 0.8;
export const DEFAULT_FLOOR = 0.3;

export interface DrainProgress {
  embedded: number;
  pending: number;
}

export class Semantic {
  readonly embedder: Embedder;
  readonly mode: SemanticMode;
  readonly fusion: Fusion;
  readonly weight: number;
  readonly fullWeight: number;
  readonly floor: number;
  #draining: Promise<number> | undefined;

  constructor(embedder: Embedder, options: Omit<SemanticOptions, 'embedder'> = {}) {
    this.embedder = embedder;
    this.mode = options.mode ?? 'hybrid';
    this.fusion = options.fusion ?? 'score';
    this.weight = options.weight ?? DEFAULT_WEIGHT;
    this.fullWeight = options.fullWeight ?? DEFAULT_FULL_WEIGHT;
    this.floor = options.floor ?? DEFAULT_FLOOR;
    if (!(this.weight >= 0 && this.weight <= 1 && this.fullWeight >= 0 && this.fullWeight <= 1)) {
      throw new MemoryError('invalid_input', 'the fusion weight is a number in [0, 1]');
    }
  }

  /** The query's vector, quantised as stored vectors are. */
  async queryVector(text: string): Promise<ReturnType<typeof quantise>> {
    const [v] = await this.embedder.embed([text]);
    return quantise(v!);
  }

  /**
   * Embeds queued memories in batches until the queue is empty or `limit` were embedded; one drain at a time
   * per ledger (a second caller waits for the first). Returns how many vectors landed.
   */
  drain(
    vectors: VectorStore,
    options: { limit?: number; batch?: number; onProgress?: (p: DrainProgress) => void } = {},
  ): Promise<number> {
    const run = async (): Promise<number> => {
      const batch = options.batch ?? 64;
      const limit = options.limit ?? Number.POSITIVE_INFINITY;
      let embedded = 0;
      while (embedded < limit) {
        const texts = await vectors.pending(Math.min(batch, limit - embedded));
        if (texts.length === 0) break;
        const embeddedNow = await this.embedder.embed(texts.map((t) => t.text));
        await vectors.put(
          this.embedder.model,
          texts.map((t, i) => ({ memoryId: t.id, ...quantise(embeddedNow[i]!) })),
        );
        embedded += texts.length;
        if (options.onProgress !== undefined) {
          options.onProgress({ embedded, pending: await vectors.queued() });
        }
      }
      return embedded;
    };
    const previous = this.#draining ?? Promise.resolve(0);
    const next = previous.catch(() => 0).then(run);
    this.#draining = next;
    return next.finally(() => {
      if (this.#draining === next) this.#draining = undefined;
    });
  }

  close(): void {
    this.embedder.close();
  }
}

/** The semantic part for a store, or undefined for none (then search is exactly BM25's). */
export function openSemantic(
  options: SemanticOptions | undefined,
  home: string | null,
): Semantic | undefined {
  const choice = options?.embedder ?? (process.env.MEMLEDGER_EMBEDDER ? 'auto' : 'off');
  if (choice === 'off') return undefined;
  let embedder: Embedder | null;
  if (typeof choice !== 'string') embedder = choice;
  else if (choice === 'auto') embedder = selectEmbedder(home);
  else embedder = selectEmbedder(home, { ...process.env, MEMLEDGER_EMBEDDER: choice });
  return embedder === null ? undefined : new Semantic(embedder, options);
}
