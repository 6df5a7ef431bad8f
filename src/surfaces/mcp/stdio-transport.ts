/**
 * MCP over stdin/stdout with a reading side that survives hostile input. The SDK's StdioServerTransport
 * buffers a line whole and closes the connection past 10 MB (the server exits), and drops a message that is
 * not JSON or fails its schema without an answer (the client hangs). Here lines are read with a length limit
 * (src/guard/lines.ts), every message is checked (message-guard.ts), and each refusal is answered with a
 * JSON-RPC error and reported to `onRefused`, after which the next line is read as usual. Writing is the SDK's.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { type LineEvent, LineSplitter, MAX_LINE_BYTES } from '../../guard/lines.ts';
import { requestShapeProblem } from '../../model/json.ts';
import { checkMessage, idOf, methodOf, type Refusal, refusalResponse, refuse } from './message-guard.ts';

export interface GuardedStdioOptions {
  /** The longest line read; longer ones are refused unread. Default 4 MiB. */
  maxLineBytes?: number;
  /** Every refused message, before its answer (if any) is written: for the audit and the log. */
  onRefused?: (refusal: Refusal) => void | Promise<void>;
}

export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #maxBytes: number;
  readonly #onRefused: ((refusal: Refusal) => void | Promise<void>) | undefined;
  readonly #lines: LineSplitter;
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  #started = false;

  constructor(
    stdin: NodeJS.ReadableStream,
    stdout: NodeJS.WritableStream,
    options: GuardedStdioOptions = {},
  ) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#maxBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.#onRefused = options.onRefused;
    this.#lines = new LineSplitter(this.#maxBytes);
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('GuardedStdioTransport already started');
    this.#started = true;
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  async close(): Promise<void> {
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onError);
    // Pause only when nobody else reads stdin, as the SDK's transport does.
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (const event of this.#lines.push(bytes)) {
      try {
        this.#handle(event);
      } catch (error) {
        // A handler's failure is the server's to log; the next line is read regardless.
        this.onerror?.(error as Error);
      }
    }
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  #handle(event: LineEvent): void {
    if (event.type === 'overflow') {
      this.onerror?.(
        new Error(`line ${event.number} passed ${this.#maxBytes} bytes: dropping it unread up to its end`),
      );
      return;
    }
    if (event.type === 'long') {
      const problem = `the message is ${event.bytes} bytes, over the limit of ${this.#maxBytes} bytes a line; none of it was read`;
      const { refusal } = refuse(
        edgeId(event.head, event.tail),
        ErrorCode.InvalidRequest,
        problem,
        headMethod(event.head),
      );
      this.#refuse(refusal);
      return;
    }
    let text: string;
    try {
      text = this.#decoder.decode(event.bytes);
    } catch {
      this.#refuse(refuse(null, ErrorCode.ParseError, 'the line is not UTF-8 text').refusal);
      return;
    }
    if (text.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      // The parser's message quotes the input; the answer and the audit keep none of it.
      this.#refuse(refuse(null, ErrorCode.ParseError, 'the line is not valid JSON').refusal);
      return;
    }
    const tooDeep = requestShapeProblem(raw);
    if (tooDeep !== null) {
      this.#refuse(
        refuse(idOf(raw), ErrorCode.InvalidRequest, `the message ${tooDeep}`, methodOf(raw)).refusal,
      );
      return;
    }
    const checked = checkMessage(raw);
    if (!checked.ok) {
      this.#refuse(checked.refusal);
      return;
    }
    this.onmessage?.(checked.message);
  }

  /**
   * Reported first, answered second: a client that has the answer can already read the audit record. A report
   * that is a promise (an audit store on a server) is waited for; reading goes on meanwhile, and JSON-RPC
   * answers carry their ids, so a later message's answer may come first.
   */
  #refuse(refusal: Refusal): void {
    const answer = () => {
      if (refusal.reply) void this.#write(refusalResponse(refusal));
    };
    let reported: void | Promise<void>;
    try {
      reported = this.#onRefused?.(refusal);
    } catch {
      reported = undefined;
    }
    if (reported instanceof Promise) void reported.catch(() => undefined).then(answer);
    else answer();
  }

  #write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#stdout.once('drain', resolve);
    });
  }
}

/**
 * The id of an over-long request, read from its edges: the first key of the top-level object (`{"jsonrpc":
 * "2.0","id":5,…`) or its last (`…,"id":5}`, where the SDK's clients put it). Only a `"id"` that opens the
 * object or closes it can be the top-level id; one inside a string or a nested object cannot sit there.
 */
function edgeId(head: Buffer, tail: Buffer): RequestId | null {
  const token = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
  const first = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${token}`).exec(
    head.toString('utf8'),
  );
  const last = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${token}\s*\}\s*$`).exec(tail.toString('utf8'));
  const found = first?.[1] ?? last?.[1];
  if (found === undefined) return null;
  try {
    const id: unknown = JSON.parse(found);
    return typeof id === 'string' || Number.isSafeInteger(id) ? (id as RequestId) : null;
  } catch {
    return null;
  }
}

/** The method of an over-long request when it is the first key (the SDK's clients put it there). */
function headMethod(head: Buffer): string | undefined {
  return /^\s*\{\s*"method"\s*:\s*"([A-Za-z0-9_./-]{1,100})"/.exec(head.toString('utf8'))?.[1];
}
