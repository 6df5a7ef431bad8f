/** Record identifiers: a type prefix, a time-ordered part and randomness, so ids sort by creation. */
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

export type IdPrefix = 'mem' | 'evt' | 'era' | 'aud' | 'tok' | 'run' | 'fire';

export const ID_PATTERN = /^(mem|evt|era|aud|tok|run|fire)_[0-9a-hjkmnp-tv-z]{22}$/;
export const MEMORY_ID_PATTERN = /^mem_[0-9a-hjkmnp-tv-z]{22}$/;

let lastMs = 0;
let counter = 0;

/** A new id such as `mem_01jd6k3v9q8w2x4y5z6a7b8c9d`: 10 characters of time, 12 of counter and randomness. */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  if (now === lastMs) counter++;
  else {
    lastMs = now;
    counter = 0;
  }
  if (poolAt + RANDOM_CHARS > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  let out = encode(now, 10) + encode(counter, 3);
  for (let i = 0; i < RANDOM_CHARS; i++) out += ALPHABET[pool[poolAt++]! % 32];
  return `${prefix}_${out}`;
}

const RANDOM_CHARS = 9;
/**
 * Random bytes drawn a few kilobytes at a time: a write makes three ids (memory, event, audit record), and a
 * call into the system's generator for each cost more than the rest of the id. Each byte is used once.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function encode(value: number, length: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < length; i++) {
    out = ALPHABET[v % 32] + out;
    v = Math.floor(v / 32);
  }
  return out;
}
