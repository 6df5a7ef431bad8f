/** A module loaded on first use and kept: the ledger's verbs and pools load what only some calls need this way. */

/**
 * `load()`'s promise, made on the first call and returned to every call after it: a dynamic `import()` per call
 * would cost each call a module-map lookup. Why lazy at all: a process evaluates every module its entry imports
 * statically, and one that only reads (an agent's session hook, a process per session) would otherwise evaluate
 * the write path, search and the verdicts without calling them.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load();
    return loading;
  };
}
