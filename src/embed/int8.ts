/**
 * int8 quantisation of unit vectors: each component scaled by the vector's largest magnitude to -127..127. A
 * 512-dimension vector is 512 bytes instead of 2 KiB, and its cosine against another stays within about 0.01 of
 * the float one (measured on the eval set's vectors), which does not reorder what fusion reads.
 */

/** A quantised vector and the norm of its int8 components (stored beside it, so a scan divides once). */
export interface Int8Vector {
  bytes: Int8Array;
  norm: number;
}

export function quantise(v: Float32Array): Int8Vector {
  let max = 0;
  for (const x of v) max = Math.max(max, Math.abs(x));
  const bytes = new Int8Array(v.length);
  let n = 0;
  if (max > 0) {
    for (let i = 0; i < v.length; i++) {
      const q = Math.round((v[i]! / max) * 127);
      bytes[i] = q;
      n += q * q;
    }
  }
  return { bytes, norm: Math.sqrt(n) };
}

/** Cosine of two quantised vectors of equal length; 0 when either is zero or their lengths differ. */
export function cosine(a: Int8Vector, b: Int8Array, bNorm: number): number {
  if (a.bytes.length !== b.length || a.norm === 0 || bNorm === 0) return 0;
  const x = a.bytes;
  let dot = 0;
  for (let i = 0; i < x.length; i++) dot += x[i]! * b[i]!;
  return dot / (a.norm * bNorm);
}

/** A stored blob (SQLite BLOB, Postgres bytea) read as int8 components without copying. */
export function int8View(blob: Uint8Array): Int8Array {
  return new Int8Array(blob.buffer, blob.byteOffset, blob.byteLength);
}
