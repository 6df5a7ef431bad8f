/**
 * The embedder interface: a model id, its dimensions and `embed(texts)`. Vectors are compared only within one
 * model id (a vector of another model means nothing next to it), so every stored vector carries the id.
 */

export interface Embedder {
  /** Names the model and its version: stored with every vector, and a vector of another id is never compared. */
  readonly model: string;
  /** Dimensions of every vector it returns (known once the first batch is embedded, for a remote model). */
  readonly dims: number | null;
  /** One unit-length vector per text, in order. Throws a `MemoryError` (`upstream`) when the model cannot answer. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Lets go of the model (a worker thread, connections). Safe to call twice. */
  close(): void;
}

/** Scales a vector to unit length in place (a zero vector stays zero), so cosine is a dot product. */
export function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const norm = Math.sqrt(n);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
