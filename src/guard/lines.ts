/**
 * Splitting a byte stream into lines with a length limit, for every surface that reads lines from outside (CLI
 * import, MCP over stdio). A line over the limit is never held whole: past the limit only its first and last
 * bytes are kept, and the rest is counted and dropped until its newline.
 */

/**
 * The longest line read: 4 MiB. An MCP message or an export line of a memory is far smaller (a body is at most
 * 8,000 characters, a value 16,000); the margin is for memories with thousands of events.
 */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** Bytes kept from each end of an over-long line: enough to find a JSON-RPC id or method near an edge. */
const EDGE_BYTES = 1024;

export type LineEvent =
  /** A whole line within the limit, without its `\n` (or `\r\n`). Numbers start at 1. */
  | { type: 'line'; number: number; bytes: Buffer }
  /** The line just passed the limit; what follows of it is dropped. `binary` if its first part held a NUL byte. */
  | { type: 'overflow'; number: number; binary: boolean }
  /** An over-long line ended (a newline, or the end of the stream): its size and its edges. */
  | { type: 'long'; number: number; bytes: number; head: Buffer; tail: Buffer };

/**
 * Push chunks in, get line events out; `end()` flushes a last line that has no newline.
 * @example
 * const lines = new LineSplitter(1024);
 * lines.push(Buffer.from('{"a":1}\n{"b"')); // [{ type: 'line', number: 1, bytes: <{"a":1}> }]
 * lines.end(); // [{ type: 'line', number: 2, bytes: <{"b"> }]
 */
export class LineSplitter {
  readonly #max: number;
  #number = 0;
  /** The current line while it is within the limit. */
  #parts: Buffer[] = [];
  #size = 0;
  /** The current line once it is over the limit: its total size and its edges. */
  #over = false;
  #overBytes = 0;
  #head: Buffer = Buffer.alloc(0);
  #tail: Buffer = Buffer.alloc(0);

  constructor(maxBytes: number = MAX_LINE_BYTES) {
    this.#max = maxBytes;
  }

  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      this.#take(chunk.subarray(start, newline === -1 ? chunk.length : newline), events);
      if (newline === -1) break;
      this.#finish(events);
      start = newline + 1;
    }
    return events;
  }

  /** The stream ended: a last line without a newline is still a line. */
  end(): LineEvent[] {
    const events: LineEvent[] = [];
    if (this.#size > 0 || this.#over) this.#finish(events);
    return events;
  }

  #take(piece: Buffer, events: LineEvent[]): void {
    if (piece.length === 0) return;
    if (this.#over) {
      this.#overBytes += piece.length;
      this.#tail = lastBytes([this.#tail, piece]);
      return;
    }
    if (this.#size + piece.length <= this.#max) {
      this.#parts.push(piece);
      this.#size += piece.length;
      return;
    }
    const parts = [...this.#parts, piece];
    this.#over = true;
    this.#overBytes = this.#size + piece.length;
    this.#head = Buffer.concat(parts.map((p) => p.subarray(0, EDGE_BYTES))).subarray(0, EDGE_BYTES);
    this.#tail = lastBytes(parts);
    this.#parts = [];
    this.#size = 0;
    events.push({ type: 'overflow', number: this.#number + 1, binary: parts.some((p) => p.includes(0)) });
  }

  #finish(events: LineEvent[]): void {
    this.#number++;
    if (this.#over) {
      events.push({
        type: 'long',
        number: this.#number,
        bytes: this.#overBytes,
        head: this.#head,
        tail: this.#tail,
      });
      this.#over = false;
      this.#overBytes = 0;
      this.#head = this.#tail = Buffer.alloc(0);
      return;
    }
    let bytes = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts);
    if (bytes.at(-1) === 13) bytes = bytes.subarray(0, -1);
    this.#parts = [];
    this.#size = 0;
    events.push({ type: 'line', number: this.#number, bytes });
  }
}

/** The last EDGE_BYTES of some pieces, copied so the chunks they came from can be released. */
function lastBytes(pieces: Buffer[]): Buffer {
  const kept: Buffer[] = [];
  let size = 0;
  for (let i = pieces.length - 1; i >= 0 && size < EDGE_BYTES; i--) {
    const p = pieces[i]!;
    const part = p.subarray(Math.max(0, p.length - (EDGE_BYTES - size)));
    kept.unshift(part);
    size += part.length;
  }
  return Buffer.from(Buffer.concat(kept));
}
