/** The contract between the conformance suite and a backend: a factory of fresh homes and what the backend can do. */
import type { Ledger, Policy, SemanticOptions } from '../../src/index.ts';

/**
 * What a backend can offer beyond the library API. A test that needs a capability the backend lacks is skipped
 * with its reason, never dropped silently (STYLE.md point 4).
 */
export interface Capabilities {
  /** Everything the backend stores lives in files under `home`, so their bytes can be searched (I8, I9). */
  files: boolean;
  /** Another process can open the same data with `openLedger({ store: home })` (I8, I13). */
  processes: boolean;
}

/** How a test wants its home opened: a custom policy (I4, I6) or a clock it controls (I5, I12). */
export interface HomeOptions {
  policy?: Policy;
  now?: () => string;
  /** Semantic search with this embedder (src/embed): the vector cases of I4 and I9. */
  semantic?: SemanticOptions;
}

export interface ConformanceHome {
  ledger: Ledger;
  home: string;
  capabilities?: Partial<Capabilities>;
  cleanup(): Promise<void>;
}

/** Opens a fresh, empty home. Called once per test; `options` is omitted when the test needs the defaults. */
export type ConformanceFactory = (options?: HomeOptions) => Promise<ConformanceHome>;

export const NO_CAPABILITIES: Capabilities = { files: false, processes: false };

/** Runs `fn` on a fresh home and always cleans it up, whatever the test did. */
export async function withHome<T>(
  factory: ConformanceFactory,
  fn: (h: ConformanceHome & { capabilities: Capabilities }) => Promise<T>,
  options?: HomeOptions,
): Promise<T> {
  const opened = await factory(options);
  try {
    return await fn({ ...opened, capabilities: { ...NO_CAPABILITIES, ...opened.capabilities } });
  } finally {
    await opened.cleanup();
  }
}
