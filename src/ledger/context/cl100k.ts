/**
 * An exact cl100k_base token counter that loads in a few milliseconds. It reads the ranks file that
 * `gpt-tokenizer` ships (`data/cl100k_base.tiktoken`, tiktoken's own format: base64 bytes and rank per line)
 * into one byte arena and an open-addressing hash table, then counts as tiktoken does: the cl100k split
 * pattern, a whole piece that is a token counts one, any other piece is merged pair by lowest rank.
 *
 * Why not `gpt-tokenizer`'s own encoder: it builds 100,000 strings and a Map on load, some 80 ms, paid by every
 * hook process that assembles a context. Counting only needs ranks by bytes. test/ledger/tokens.test.ts checks
 * every count against `gpt-tokenizer` on the eval set's texts and on random text.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** cl100k_base's pre-tokenizer, as tiktoken and `gpt-tokenizer` define it. */
const SPLIT =
  /'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s/gu;

/** Pieces whose count is kept; past this the cache starts again. */
const COUNT_CACHE = 50_000;

/** Slots in the hash table: a power of two, well above the 100,256 ranks so probes stay short. */
const SLOTS = 1 << 18;

export interface Cl100k {
  count(text: string): number;
}

/**
 * The table prebuilt at build time (scripts/cl100k-table.ts writes it beside dist/'s copy of this module): the
 * same arena, lengths and slots buildTable makes, read as they are. Building them from the ranks file is most of
 * a hook process's tokenizer time; reading them is one file read. A checkout has none and builds the table.
 */
export const PREBUILT_TABLE = 'cl100k-table.bin';

/**
 * Loads the ranks: the prebuilt table when it is there (dist/), else the table a checkout cached on its first
 * load (cachedTable), else built from the ranks file of the installed `gpt-tokenizer`.
 */
export function loadCl100k(): Cl100k {
  let prebuilt: Cl100k | null = null;
  try {
    prebuilt = cl100kFromTable(readFileSync(new URL(`./${PREBUILT_TABLE}`, import.meta.url)));
  } catch {
    // none here (a checkout): the cached one, or build it
  }
  return prebuilt ?? cachedTable(CHECKOUT_CACHE);
}

/**
 * Where a checkout keeps the table it built (`node_modules/.cache/memledger/`, the usual place for a tool's
 * derived files): building it from the ranks file is ~25 ms of CPU, most of a checkout's first context call in a
 * process (the context bench's cold call, a hook run from a checkout); reading it back is one file read, as dist/
 * does. Nothing is written beside an installed package: it ships its table.
 */
const CHECKOUT_CACHE = new URL('../../../node_modules/.cache/memledger/', import.meta.url);

/**
 * The table cached in `dir` for this ranks file, else one built from the ranks file and written there for the
 * next process. The file's name holds the ranks file's size, modification time and `gpt-tokenizer`'s version,
 * so an upgraded tokenizer never reads another's table; its bytes are checked as a prebuilt table's are. A
 * cache that cannot be read or written only costs the build.
 */
export function cachedTable(dir: URL): Cl100k {
  const ranks = ranksFile();
  let file: URL | null = null;
  try {
    const { size, mtimeMs } = statSync(ranks);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', pathToFileURL(ranks)), 'utf8')) as {
      version?: unknown;
    };
    const version = String(pkg.version).replace(/[^\w.-]/g, '_');
    file = new URL(`cl100k-${FORMAT}-${version}-${size}-${Math.trunc(mtimeMs)}.bin`, dir);
    const cached = cl100kFromTable(readFileSync(file));
    if (cached !== null) return cached;
  } catch {
    // not cached yet, or no ranks file identity to key it by: build it
  }
  const table = buildTable(readFileSync(ranks));
  if (file !== null) {
    try {
      mkdirSync(dir, { recursive: true });
      const partial = new URL(`${file.href}.${process.pid}`);
      writeFileSync(partial, tableBytes(table));
      renameSync(partial, file); // whole or not at all, whichever process writes it
    } catch {
      // a read-only checkout: every process builds the table, as before
    }
  }
  return new Ranks(table);
}

/** A counter over a prebuilt table's bytes (serializeTable), or null when they are not a table this code wrote. */
export function cl100kFromTable(bytes: Uint8Array): Cl100k | null {
  const table = tableFrom(bytes);
  return table === null ? null : new Ranks(table);
}

/** The path of `gpt-tokenizer`'s cl100k_base ranks file. */
export function ranksFile(): string {
  return fileURLToPath(import.meta.resolve('gpt-tokenizer/data/cl100k_base.tiktoken'));
}

class Ranks implements Cl100k {
  readonly #table: Table;
  readonly #encoder = new TextEncoder();
  readonly #counted = new Map<string, number>();
  #scratch = new Uint8Array(256);

  constructor(table: Table) {
    this.#table = table;
  }

  count(text: string): number {
    // An exec loop, not matchAll: a hook process counts cold, where the iterator and its arrays cost more.
    let tokens = 0;
    SPLIT.lastIndex = 0;
    for (let m = SPLIT.exec(text); m !== null; m = SPLIT.exec(text)) tokens += this.#countPiece(m[0]);
    return tokens;
  }

  #countPiece(piece: string): number {
    if (piece.length === 1 && piece.charCodeAt(0) <= 0x7f) return 1;
    // Words recur: a piece counted once is not encoded and merged again (as `gpt-tokenizer` caches its merges).
    let tokens = this.#counted.get(piece);
    if (tokens === undefined) {
      tokens = this.#countBytes(piece);
      if (this.#counted.size >= COUNT_CACHE) this.#counted.clear();
      this.#counted.set(piece, tokens);
    }
    return tokens;
  }

  #countBytes(piece: string): number {
    // UTF-8, lone surrogates as U+FFFD, as TextEncoder writes them (and `gpt-tokenizer` merges them).
    if (this.#scratch.length < piece.length * 3) this.#scratch = new Uint8Array(piece.length * 3);
    const bytes = this.#scratch;
    const n = asciiInto(piece, bytes) ?? this.#encoder.encodeInto(piece, bytes).written;
    // A piece that is a token is one; `gpt-tokenizer` looks it up as a string, which a lone surrogate never is.
    if (piece.isWellFormed() && this.#rank(bytes, 0, n) >= 0) return 1;
    return this.#merge(bytes, n);
  }

  /** Byte-pair merging, lowest rank first and leftmost among equals: the number of parts left is the count. */
  #merge(bytes: Uint8Array, n: number): number {
    const starts: number[] = [];
    const ranks: number[] = [];
    const rankOf = (from: number, to: number | undefined): number => this.#pairRank(bytes, from, to);
    for (let i = 0; i <= n; i++) {
      starts.push(i);
      ranks.push(i < n - 1 ? rankOf(i, i + 2) : Number.POSITIVE_INFINITY);
    }
    while (starts.length > 1) {
      let lowest = Number.POSITIVE_INFINITY;
      let at = -1;
      for (let i = 0; i < ranks.length - 1; i++) {
        if (ranks[i]! < lowest) {
          lowest = ranks[i]!;
          at = i;
        }
      }
      if (at === -1) break;
      starts.splice(at + 1, 1);
      ranks.splice(at, 1);
      ranks[at] = rankOf(starts[at]!, starts[at + 2]);
      if (at > 0) ranks[at - 1] = rankOf(starts[at - 1]!, starts[at + 1]);
    }
    return starts.length - 1;
  }

  /** The rank of bytes[from, to) for merging: none (no such token, or no part after `from`) ranks last. */
  #pairRank(bytes: Uint8Array, from: number, to: number | undefined): number {
    if (to === undefined) return Number.POSITIVE_INFINITY;
    const r = this.#rank(bytes, from, to);
    return r < 0 ? Number.POSITIVE_INFINITY : r;
  }

  /** The rank of bytes[from, to), or -1. */
  #rank(bytes: Uint8Array, from: number, to: number): number {
    const { arena, start, length, slots } = this.#table;
    const n = to - from;
    for (let slot = hash(bytes, from, to) & (SLOTS - 1); ; slot = (slot + 1) & (SLOTS - 1)) {
      const entry = slots[slot]!;
      if (entry === 0) return -1;
      const rank = entry - 1;
      if (length[rank] !== n) continue;
      const at = start[rank]!;
      let i = 0;
      while (i < n && arena[at + i] === bytes[from + i]) i++;
      if (i === n) return rank;
    }
  }
}

interface Table {
  /** Every token's bytes, end to end. */
  arena: Uint8Array;
  start: Uint32Array;
  length: Uint16Array;
  /** rank + 1 per slot, 0 when empty. */
  slots: Int32Array;
}

/**
 * One pass over the file: base64 decoded into the arena, FNV-1a hashed on the way, rank parsed, slot claimed.
 * A single loop with local variables, so the optimising compiler takes it over early: 100,256 lines load in
 * a few milliseconds where building strings and a Map took some 80.
 */
function buildTable(file: Uint8Array): Table {
  const arena = new Uint8Array(file.length);
  const capacity = Math.ceil(file.length / 6) + 1; // a line is at least `AA== 0\n`
  const start = new Uint32Array(capacity);
  const length = new Uint16Array(capacity);
  const slots = new Int32Array(SLOTS);
  let used = 0;
  let i = 0;
  while (i < file.length) {
    const from = used;
    let h = 0x811c9dc5;
    let bits = 0;
    let value = 0;
    let c = file[i]!;
    while (c !== 0x20) {
      const v = c < 128 ? BASE64[c]! : -1;
      if (v >= 0) {
        value = ((value << 6) | v) & 0xffffff;
        bits += 6;
        if (bits >= 8) {
          bits -= 8;
          const byte = (value >> bits) & 0xff;
          arena[used++] = byte;
          h = Math.imul(h ^ byte, 0x01000193);
        }
      }
      if (++i >= file.length) throw new Error('cl100k_base ranks: a line has no rank');
      c = file[i]!;
    }
    let rank = 0;
    for (i++; i < file.length && file[i] !== 0x0a; i++) rank = rank * 10 + (file[i]! - 0x30);
    i++;
    if (rank >= capacity) throw new Error(`cl100k_base ranks: rank ${rank} out of range`);
    start[rank] = from;
    length[rank] = used - from;
    let slot = (h >>> 0) & (SLOTS - 1);
    while (slots[slot] !== 0) slot = (slot + 1) & (SLOTS - 1);
    slots[slot] = rank + 1;
  }
  return { arena, start, length, slots };
}

/**
 * The prebuilt table's bytes: a header of five little-endian u32 (magic, format, ranks, arena bytes, slots), the
 * lengths (u16 per rank, padded to 4 bytes), the slots (i32 each), then the arena. Ranks are stored in order, so
 * a token's start is the sum of the lengths before it. Throws if the file's ranks are not 0..n-1 in order.
 */
export function serializeTable(file: Uint8Array): Uint8Array {
  return tableBytes(buildTable(file));
}

function tableBytes({ arena, start, length, slots }: Table): Uint8Array {
  let ranks = 0;
  let end = 0;
  while (ranks < length.length && length[ranks]! > 0) {
    if (start[ranks] !== end) throw new Error('cl100k_base ranks: not in rank order');
    end += length[ranks++]!;
  }
  if (length.subarray(ranks).some((n) => n > 0)) throw new Error('cl100k_base ranks: a rank is missing');
  const lengthBytes = Math.ceil((ranks * 2) / 4) * 4;
  const out = new Uint8Array(HEADER + lengthBytes + slots.byteLength + end);
  new Uint32Array(out.buffer, 0, 5).set([MAGIC, FORMAT, ranks, end, slots.length]);
  out.set(new Uint8Array(length.buffer, 0, ranks * 2), HEADER);
  out.set(new Uint8Array(slots.buffer), HEADER + lengthBytes);
  out.set(arena.subarray(0, end), HEADER + lengthBytes + slots.byteLength);
  return out;
}

const MAGIC = 0x6b303031; // "100k"
const FORMAT = 1;
const HEADER = 20;

/** The table in a prebuilt file's bytes, or null when they are not one this code wrote. */
function tableFrom(bytes: Uint8Array): Table | null {
  // The views below need 4-byte alignment: a file this size has its own buffer, but a pooled one is copied.
  const data =
    bytes.byteOffset % 4 === 0
      ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)
      : new Uint8Array(bytes);
  if (data.length < HEADER) return null;
  const [magic, format, ranks, arenaBytes, slotCount] = new Uint32Array(data.buffer, data.byteOffset, 5);
  const lengthBytes = Math.ceil((ranks! * 2) / 4) * 4;
  if (magic !== MAGIC || format !== FORMAT || slotCount !== SLOTS) return null;
  if (data.length !== HEADER + lengthBytes + SLOTS * 4 + arenaBytes!) return null;
  const at0 = data.byteOffset;
  const length = new Uint16Array(data.buffer, at0 + HEADER, ranks!);
  const slots = new Int32Array(data.buffer, at0 + HEADER + lengthBytes, SLOTS);
  const arena = new Uint8Array(data.buffer, at0 + HEADER + lengthBytes + SLOTS * 4, arenaBytes!);
  const start = new Uint32Array(ranks!);
  let at = 0;
  for (let r = 0; r < ranks!; r++) {
    start[r] = at;
    at += length[r]!;
  }
  return at === arenaBytes ? { arena, start, length, slots } : null;
}

/** Writes an all-ASCII piece's bytes (its UTF-16 codes) and returns their count; null for any other piece. */
function asciiInto(piece: string, bytes: Uint8Array): number | null {
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if (c > 0x7f) return null;
    bytes[i] = c;
  }
  return piece.length;
}

/** FNV-1a over bytes[from, to). */
function hash(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

const BASE64 = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();
