/**
 * Node flags a long-running command needs its process to start with, and the re-exec that gives them: V8 reads
 * its heap sizes once, at start-up (`v8.setFlagsFromString` later changes nothing), so `memledger serve` replaces
 * its own process image (same pid, same file descriptors) with one that has them, before it opens anything.
 */

/**
 * V8's young generation, capped at 16 MB a semi-space (32 MB in all). Uncapped, V8 doubles it under a server's
 * steady allocation, 32 → 64 → 128 MB on a 24 GB machine, and keeps it: in a 10-minute soak of `serve` (100k
 * memories, ~210 req/s) resident memory rose 229.8 → 300.3 MB (1.31×), 70 MB of it these two steps, while the
 * old generation stayed at ~26 MB. Capped, the same soak held 237.4 → 242.2 MB (1.02×).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];

/**
 * The flags of `wanted` this process still lacks. A young generation the operator chose (any
 * `--max-semi-space-size` or `--min-semi-space-size`, in the process's flags or in NODE_OPTIONS, with `-` or `_`)
 * is theirs: nothing is added over it.
 */
export function missingNodeFlags(
  wanted: readonly string[],
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): string[] {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map((f) =>
    f.split('=')[0]!.replace(/_/g, '-'),
  );
  const semiSpace = given.some((f) => f === '--max-semi-space-size' || f === '--min-semi-space-size');
  return wanted.filter((flag) => {
    const name = flag.split('=')[0]!;
    return !given.includes(name) && !(semiSpace && name.endsWith('-semi-space-size'));
  });
}
