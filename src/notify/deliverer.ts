/**
 * The deliverer: off the write path, inside `memledger serve`, it claims due deliveries under a lease (one
 * attempt each, whichever process or replica claims it), sends them with `fetch`, and records the outcome in the
 * delivery log: attempts, the status code, an error class, never a message. Failures are retried with
 * exponential backoff and jitter up to a cap; 4xx answers other than 408 and 429 are final. Finished deliveries
 * leave the log after `keepFinishedMs` (pruned at most once an hour), so the log does not grow without end.
 */
import { randomBytes } from 'node:crypto';
import { MemoryError } from '../model/errors.ts';
import type { Memory } from '../model/memory.ts';
import type { ClaimedDelivery, DeliveryOutcome } from '../store/notify-port.ts';
import type { Store } from '../store/port.ts';
import { slackMessage, webhookPayload } from './message.ts';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from './sign.ts';
import { resolveSecret, resolveUrl } from './target-url.ts';

export interface DelivererOptions {
  store: Store;
  /** The console's base URL, for links in messages. */
  consoleUrl: string;
  /** Where target secrets and `env:` URLs are read. Default process.env. */
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch. Default Date.now. */
  clock?: () => number;
  /** A number in [0, 1) for jitter. Default Math.random. */
  random?: () => number;
  /** How long a claim holds a delivery: past it, another process may claim it again. Default 60 s. */
  leaseMs?: number;
  /** The first retry's delay; each further one doubles, up to `maxDelayMs`. Defaults 10 s and 30 min. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Attempts before a delivery is `failed` for good. Default 12. */
  maxAttempts?: number;
  /** How long one request may take. Default 10 s. */
  timeoutMs?: number;
  /** Between polls of the queue. Default 2 s. */
  intervalMs?: number;
  batch?: number;
  /** How long a delivered or failed delivery stays in the log. Default 30 days. */
  keepFinishedMs?: number;
}

/** Between two prunes of the delivery log, and how many rows one prune statement deletes. */
const PRUNE_EVERY_MS = 60 * 60_000;
const PRUNE_BATCH = 1_000;

/** Delay before attempt `n + 1` after `n` failed ones: half fixed, half random ("equal jitter"), capped. */
export function backoffMs(attempts: number, base: number, cap: number, random: number): number {
  const full = Math.min(cap, base * 2 ** Math.max(0, attempts - 1));
  return Math.round(full / 2 + (random * full) / 2);
}

export class Deliverer {
  /** This process's name on the leases it takes. */
  readonly holder = `dlv-${process.pid}-${randomBytes(4).toString('hex')}`;
  readonly #o: Required<Omit<DelivererOptions, 'env' | 'fetch'>> & {
    env: NodeJS.ProcessEnv;
    fetch: typeof fetch;
  };
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> = Promise.resolve();
  #stopped = false;
  #nextPrune = 0;

  constructor(options: DelivererOptions) {
    this.#o = {
      env: process.env,
      fetch: globalThis.fetch,
      clock: Date.now,
      random: Math.random,
      leaseMs: 60_000,
      baseDelayMs: 10_000,
      maxDelayMs: 30 * 60_000,
      maxAttempts: 12,
      timeoutMs: 10_000,
      intervalMs: 2_000,
      batch: 20,
      keepFinishedMs: 30 * 24 * 60 * 60_000,
      ...options,
    };
  }

  /** Claims and sends what is due now; resolves with how many deliveries it attempted. */
  async runOnce(): Promise<number> {
    const o = this.#o;
    const now = o.clock();
    const claimed = await o.store.notify.claim(this.holder, iso(now), iso(now + o.leaseMs), o.batch);
    await Promise.all(claimed.map((d) => this.#attempt(d)));
    if (now >= this.#nextPrune) {
      this.#nextPrune = now + PRUNE_EVERY_MS;
      await this.prune(now);
    }
    return claimed.length;
  }

  /** Removes finished deliveries older than `keepFinishedMs` from the log, a batch per statement; how many. */
  async prune(now = this.#o.clock()): Promise<number> {
    const before = iso(now - this.#o.keepFinishedMs);
    let pruned = 0;
    for (;;) {
      const n = await this.#o.store.notify.pruneFinished(before, PRUNE_BATCH);
      pruned += n;
      if (n < PRUNE_BATCH || this.#stopped) return pruned;
    }
  }

  /** Polls the queue until `stop`; a failed round is warned and the next one tries again. */
  start(): void {
    const tick = () => {
      this.#running = this.runOnce()
        .catch((error: unknown) => {
          process.emitWarning(`memledger: notification delivery failed: ${(error as Error).message}`);
        })
        .finally(() => {
          if (!this.#stopped) this.#timer = setTimeout(tick, this.#o.intervalMs).unref();
        });
    };
    this.#timer = setTimeout(tick, 0).unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  async #attempt(d: ClaimedDelivery): Promise<void> {
    const o = this.#o;
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      const memory = d.event.type === 'run_outputs_waiting' ? null : await o.store.getMemory(d.event.ref);
      httpStatus = await this.#send(d, memory);
      if (httpStatus < 200 || httpStatus >= 300) error = statusClass(httpStatus);
    } catch (e) {
      error = failureClass(e);
    }
    const at = o.clock();
    const outcome: DeliveryOutcome = { status: 'delivered', httpStatus, error, at: iso(at) };
    if (error !== null) {
      const final = d.attempts >= o.maxAttempts || isFinal(httpStatus);
      outcome.status = final ? 'failed' : 'pending';
      if (!final) outcome.nextAt = iso(at + backoffMs(d.attempts, o.baseDelayMs, o.maxDelayMs, o.random()));
    }
    // A lease that ran out meanwhile belongs to another claim now: its outcome is the one recorded.
    await o.store.notify.finish(d.id, this.holder, outcome);
  }

  async #send(d: ClaimedDelivery, memory: Memory | null): Promise<number> {
    const o = this.#o;
    const context = { consoleUrl: o.consoleUrl, memory };
    const url = resolveUrl(d.target.url, o.env);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'memledger' };
    let body: string;
    if (d.target.kind === 'slack') {
      body = JSON.stringify(slackMessage(d, context));
    } else {
      body = JSON.stringify(webhookPayload(d, context));
      const ts = Math.floor(o.clock() / 1000);
      headers[TIMESTAMP_HEADER] = String(ts);
      headers[SIGNATURE_HEADER] = signWebhook(resolveSecret(d.target.secretEnv, o.env), ts, body);
      headers[DELIVERY_HEADER] = d.id;
      headers[EVENT_HEADER] = d.event.type;
    }
    // No redirects: a signed notification goes to the configured URL or nowhere.
    const res = await o.fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    await res.body?.cancel();
    return res.status;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

function statusClass(status: number): string {
  if (status >= 500) return 'http_5xx';
  if (status === 429) return 'http_429';
  if (status >= 400) return 'http_4xx';
  return 'http_3xx';
}

/** A refusal that retrying cannot change: a 3xx (not followed) or a 4xx other than 408 and 429. */
const isFinal = (status: number | null) =>
  status !== null && status >= 300 && status < 500 && status !== 408 && status !== 429;

/** The class of a failure that never reached an answer; messages stay out of the log (they may name a URL). */
function failureClass(error: unknown): string {
  // Ours (a secret not set, or the store failing to read the memory): the class it names, else `internal`.
  if (error instanceof MemoryError) return String(error.details.errorClass ?? 'internal');
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout';
  return 'network';
}
