/**
 * The HTTP embedder: an OpenAI-compatible `POST {url}/embeddings` (Ollama, a local inference server, a hosted
 * API). The API key is read from the environment variable the configuration names, sent only as the bearer
 * header, and never written into an error, a log or the audit (I10); errors name the host and the status.
 */
import { MemoryError } from '../model/errors.ts';
import { type Embedder, normalise } from './embedder.ts';

export interface HttpEmbedderConfig {
  /** The API's base, e.g. `http://127.0.0.1:11434/v1`; `/embeddings` is appended. */
  url: string;
  model: string;
  /** The environment variable that holds the API key, if the endpoint needs one (never the key itself). */
  apiKeyEnv?: string;
  /** Texts per request. */
  batch?: number;
  timeoutMs?: number;
}

export class HttpEmbedder implements Embedder {
  readonly model: string;
  #dims: number | null = null;
  readonly #endpoint: URL;
  readonly #keyEnv: string | undefined;
  readonly #batch: number;
  readonly #timeoutMs: number;

  constructor(config: HttpEmbedderConfig) {
    let base: URL;
    try {
      base = new URL(config.url);
    } catch {
      throw new MemoryError('invalid_input', 'the HTTP embedder url is not a URL');
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new MemoryError('invalid_input', 'the HTTP embedder url must be http or https');
    }
    this.#endpoint = new URL(`${base.pathname.replace(/\/$/, '')}/embeddings`, base);
    // The id says where vectors came from, so a change of endpoint or model is a change of model id.
    this.model = `http:${base.host}/${config.model}`;
    this.#requested = config.model;
    this.#keyEnv = config.apiKeyEnv;
    this.#batch = config.batch ?? 64;
    this.#timeoutMs = config.timeoutMs ?? 30_000;
  }

  readonly #requested: string;

  get dims(): number | null {
    return this.#dims;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.#batch) {
      out.push(...(await this.#request(texts.slice(i, i + this.#batch))));
    }
    return out;
  }

  close(): void {}

  async #request(input: readonly string[]): Promise<Float32Array[]> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const key = this.#keyEnv === undefined ? undefined : process.env[this.#keyEnv];
    if (key !== undefined && key !== '') headers.authorization = `Bearer ${key}`;
    const where = `the embedder at ${this.#endpoint.host}`;
    let response: Response;
    try {
      response = await fetch(this.#endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.#requested, input }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      // The cause's message may quote the request; only its name is kept.
      throw new MemoryError('upstream', `${where} could not be reached (${(error as Error).name})`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new MemoryError('upstream', `${where} answered ${response.status}`);
    }
    const vectors = parseEmbeddings(await response.json().catch(() => null), input.length);
    if (vectors === null) throw new MemoryError('upstream', `${where} answered with no usable embeddings`);
    const dims = vectors[0]?.length ?? null;
    if (dims !== null) {
      if (this.#dims !== null && this.#dims !== dims) {
        throw new MemoryError('upstream', `${where} changed dimensions from ${this.#dims} to ${dims}`);
      }
      this.#dims = dims;
    }
    return vectors;
  }
}

/** `{ data: [{ index, embedding: number[] }] }`, ordered by index; null unless there is one vector per input. */
function parseEmbeddings(body: unknown, count: number): Float32Array[] | null {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== count) return null;
  const out: Float32Array[] = new Array(count);
  for (const [i, item] of data.entries()) {
    const embedding = (item as { embedding?: unknown }).embedding;
    const index = (item as { index?: unknown }).index;
    const at = typeof index === 'number' ? index : i;
    if (!Array.isArray(embedding) || embedding.length === 0 || at < 0 || at >= count) return null;
    if (!embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) return null;
    out[at] = normalise(Float32Array.from(embedding as number[]));
  }
  if (out.some((v) => v === undefined) || out.some((v) => v.length !== out[0]!.length)) return null;
  return out;
}
