/** Deterministic random text for the token tests: characters drawn from pools, by a seeded linear congruence. */
export function randomTexts(
  count: number,
  pools: readonly string[],
  seed: number,
  maxLength: number,
): string[] {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let j = Math.floor(next() * maxLength); j > 0; j--) {
      const pool = pools[Math.floor(next() * pools.length)]!;
      text += pool[Math.floor(next() * pool.length)];
    }
    out.push(text);
  }
  return out;
}
