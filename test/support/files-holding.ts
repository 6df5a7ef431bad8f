/** Byte scans for erasure tests (I9): the files under a directory whose bytes hold a needle. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Files under `dir` whose bytes hold `needle` (a string is taken as UTF-8). A file removed while the walk reads
 * it (a recycled WAL segment, a dropped relation, a checkpointed journal) is passed over.
 */
export function filesHolding(dir: string, needle: Buffer | string): string[] {
  const bytes = typeof needle === 'string' ? Buffer.from(needle, 'utf8') : needle;
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(d, name);
      try {
        if (statSync(path).isDirectory()) walk(path);
        else if (readFileSync(path).includes(bytes)) out.push(path);
      } catch {
        // removed meanwhile
      }
    }
  };
  walk(dir);
  return out;
}
