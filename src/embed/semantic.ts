/**
 * Semantic retrieval for one open ledger: its embedder, how search fuses vectors with text, and the drain of
 * the embedding queue (writes are acknowledged before their vectors exist; this fills them in afterwards, in
 * `serve`/`mcp`'s background, `memledger embed`, or a search that finds a short queue: `catchUp`).
 */
import { MemoryError } from '../model/errors.ts';
import type { ScopeSet } from '../store/port.ts';
import type { VectorStore } from '../store/vectors-port.ts';
import type { Embedder } from './embedder.ts';
import { type Int8Vector, quantise } from './int8.ts';
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
  /**
   * In hybrid search, the cosine a vector's share of the score is counted from (its height above this): a
   * candidate between the floor and this is kept, but its cosine adds nothing over text.
   */
  noise?: number;
  /**
   * The cosine that counts as full vector evidence: a cosine's height above the floor is divided by the best
   * candidate's height or this one's, whichever is larger, so a query whose nearest memory is only weakly
   * similar does not have its vectors stretched to the full scale.
   */
  ceiling?: number;
  /**
   * BM25's best this many text candidates that hold at least a third of the query's words are never pushed below
   * the third place of the fused list by vectors alone (a vague question's words can be the answer's, while
   * its meaning is near many memories about the topic in general).
   */
  keep?: number;
  /**
   * A search that finds at most this many memories queued for a vector embeds them first (the same drain as
   * the background's, one at a time per ledger), so what was just written is found by meaning too; with more
   * queued it answers by words for those and says how many (`pending`). 0: a search embeds its query only.
   */
  catchUp?: number;
}

/**
 * Tuned on the tuning half of eval/sets/memledger-v1.json only (node eval/tune-fusion.ts): text share 0.2 → 0.8
 * by coverage gave recall@5 0.886 there, every fixed share at most 0.878, RRF 0.786; the floor (0.25–0.45)
 * changed nothing. Then, for multi-scope (vague questions whose meaning is near many shared memories, 0.800
 * against BM25's 0.950 there): a cosine ceiling of 0.6 and keeping BM25's best candidate in the first five,
 * with the text share 0.2 → 0.7, gave recall@5 0.917 and multi-scope 0.900 (0.906 and 0.800 before); each
 * alone gave 0.911 (multi-scope 0.900 and 0.850). Then, on the tuning halves of v1 and v2 (issue 13's bar: no
 * category below BM25): cosines counted from 0.375 rather than 0.3 (`noise`; candidates are still admitted
 * from the floor, 0.3, so a lone paraphrase at 0.31 is still found), because cosines of 0.3–0.375 are still
 * the noise of a topic in general with this model (a vague question's many same-topic memories sit there and outranked
 * BM25's answer at rank 3–4): v1 multi-scope 0.900 → 0.950, v2 knowledge-update 0.935 → 0.968, v1 overall
 * 0.917 → 0.922; 0.35 lost v1 paraphrase (0.814), 0.4 lost v2 multi-scope (0.925) and paraphrase-no-overlap
 * (0.250 → 0.083); a floor per query (the 10th/25th/50th nearest cosine) lost knowledge-update and
 * multi-scope. With both, a text share rising to 0.75 rather than 0.7 lifted one v2 multi-hop query (recall@5
 * 0.500 → 0.600, BM25's) and left every other category as it was, at a small cost in MRR (v1 0.795 → 0.789);
 * 0.65 lost multi-scope, 0.2 → 0.8 and 0.3 → 0.8 lost paraphrase. The held-out half is reported, never
 * fitted (README "Retrieval evaluation").
 */
export const DEFAULT_WEIGHT = 0.2;
export const DEFAULT_FULL_WEIGHT = 0.75;
export const DEFAULT_FLOOR = 0.3;
export const DEFAULT_NOISE = 0.375;
export const DEFAULT_CEILING = 0.6;
export const DEFAULT_KEEP = 1;
/**
 * A thousand memories is about 7 s of one core for USE-lite (0.7 s per 100): the worst a search pays, once,
 * right after a bulk write with nothing draining; with `serve` or `mcp` draining every 2 s, a search finds a
 * handful at most (about 10 ms each).
 */
export const DEFAULT_CATCH_UP = 1_000;

/** Memories embedded per embedder call by a drain. */
const DRAIN_BATCH = 64;

/** Query vectors kept per ledger (512 bytes each): a few hundred distinct recent queries. */
const QUERY_CACHE = 512;

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
  readonly noise: number;
  readonly ceiling: number;
  readonly keep: number;
  readonly catchUp: number;
  #draining: Promise<number> | undefined;
  /** Whether this ledger's store already records the model (then every write is queued: `VectorStore.watch`). */
  #watched = false;
  readonly #queries = new Map<string, Int8Vector>();

  constructor(embedder: Embedder, options: Omit<SemanticOptions, 'embedder'> = {}) {
    this.embedder = embedder;
    this.mode = options.mode ?? 'hybrid';
    this.fusion = options.fusion ?? 'score';
    this.weight = options.weight ?? DEFAULT_WEIGHT;
    this.fullWeight = options.fullWeight ?? DEFAULT_FULL_WEIGHT;
    this.floor = options.floor ?? DEFAULT_FLOOR;
    this.noise = options.noise ?? DEFAULT_NOISE;
    this.ceiling = options.ceiling ?? DEFAULT_CEILING;
    this.keep = options.keep ?? DEFAULT_KEEP;
    this.catchUp = options.catchUp ?? DEFAULT_CATCH_UP;
    if (!(this.weight >= 0 && this.weight <= 1 && this.fullWeight >= 0 && this.fullWeight <= 1)) {
      throw new MemoryError('invalid_input', 'the fusion weight is a number in [0, 1]');
    }
    if (!(this.ceiling >= 0 && this.ceiling <= 1) || !(Number.isInteger(this.keep) && this.keep >= 0)) {
      throw new MemoryError('invalid_input', 'the cosine ceiling is in [0, 1] and keep a whole number');
    }
    if (!(Number.isInteger(this.catchUp) && this.catchUp >= 0)) {
      throw new MemoryError('invalid_input', 'catchUp is a whole number of memories');
    }
  }

  /**
   * The query's vector, quantised as stored vectors are. Kept in a small LRU for the life of this ledger (one
   * embedder, one model): an agent repeats its queries, and the embedding is most of a hybrid search's CPU
   * (bench/hybrid.ts: ~11 ms of ~24 ms at 100k).
   */
  async queryVector(text: string): Promise<Int8Vector> {
    const cached = this.#queries.get(text);
    if (cached !== undefined) {
      // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
      this.#queries.delete(text);
      this.#queries.set(text, cached);
      return cached;
    }
    const [v] = await this.embedder.embed([text]);
    return this.#remember(text, quantise(v!));
  }

  #remember(text: string, q: Int8Vector): Int8Vector {
    this.#queries.set(text, q);
    if (this.#queries.size > QUERY_CACHE) this.#queries.delete(this.#queries.keys().next().value!);
    return q;
  }

  /**
   * The query's vector, with the queue of the search's `scopes` (at most `limit` memories: the caller checked)
   * embedded in the same embedder calls, the query in the first: most of a short embedding's cost is the call,
   * so a search that catches up on one memory pays for one call, not two. Another scope's queue is left to the
   * drain: what a search embeds, and so how long it takes, depends on its own scopes only (I4). One drain at a
   * time per ledger, as `drain`.
   */
  async queryVectorCatchingUp(
    vectors: VectorStore,
    text: string,
    limit: number,
    scopes: ScopeSet,
  ): Promise<Int8Vector> {
    let query = this.#queries.get(text);
    await this.#serially(() =>
      this.#embedQueue(vectors, {
        limit,
        batch: DRAIN_BATCH,
        scopes,
        ...(query === undefined ? { ask: text } : {}),
        onAsked: (v) => {
          query = this.#remember(text, v);
        },
      }),
    );
    return query ?? this.queryVector(text);
  }

  /**
   * What the drain embeds: with `backfill`, every memory without a vector of the model; else, the first time
   * only, the same when the home did not record the model yet (its writes were not queued). Returns how many
   * were queued.
   */
  async queue(vectors: VectorStore, backfill: boolean): Promise<number> {
    const model = this.embedder.model;
    const queued = backfill
      ? await vectors.enqueueMissing(model)
      : this.#watched
        ? 0
        : await vectors.watch(model);
    this.#watched = true;
    return queued;
  }

  /**
   * Embeds queued memories in batches until the queue is empty or `limit` were embedded; one drain at a time
   * per ledger (a second caller waits for the first). Returns how many vectors landed.
   */
  drain(
    vectors: VectorStore,
    options: { limit?: number; batch?: number; onProgress?: (p: DrainProgress) => void } = {},
  ): Promise<number> {
    return this.#serially(() =>
      this.#embedQueue(vectors, {
        limit: options.limit ?? Number.POSITIVE_INFINITY,
        batch: options.batch ?? DRAIN_BATCH,
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      }),
    );
  }

  /**
   * The drain's loop: queued memories (of `scopes`, else of every scope) in batches until none is left or
   * `limit` landed; `ask` (a query) rides in the first embedder call and its vector goes to `onAsked`.
   */
  async #embedQueue(
    vectors: VectorStore,
    o: {
      limit: number;
      batch: number;
      scopes?: ScopeSet;
      ask?: string;
      onAsked?: (v: Int8Vector) => void;
      onProgress?: (p: DrainProgress) => void;
    },
  ): Promise<number> {
    let embedded = 0;
    let ask = o.ask;
    while (embedded < o.limit) {
      const texts = await vectors.pending(Math.min(o.batch, o.limit - embedded), o.scopes);
      if (texts.length === 0) break;
      const lead = ask === undefined ? [] : [ask];
      const out = await this.embedder.embed([...lead, ...texts.map((t) => t.text)]);
      if (ask !== undefined) o.onAsked?.(quantise(out[0]!));
      ask = undefined;
      await vectors.put(
        this.embedder.model,
        texts.map((t, i) => ({ memoryId: t.id, ...quantise(out[lead.length + i]!) })),
      );
      embedded += texts.length;
      if (o.onProgress !== undefined) o.onProgress({ embedded, pending: await vectors.queued() });
    }
    return embedded;
  }

  /** Runs one drain after the one in progress (a second caller waits for the first). */
  #serially(run: () => Promise<number>): Promise<number> {
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
