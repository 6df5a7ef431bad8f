/** The modules of the hook bundle that every hook call evaluates, read from esbuild's metafile of the bundle. */
import { relative, resolve } from 'node:path';
import type { Metafile } from 'esbuild';

/**
 * The entry's static imports (src/surfaces/cli/hook-main.ts), the hook command's (the one dynamic import every
 * hook call takes, from the command table) and theirs, as the metafile names them (relative to `root`, the
 * build's working directory). The rest of the bundle is reached through a dynamic import (a verb's module,
 * search, the write path) and evaluated only by the calls that take one.
 */
export function hookPath(metafile: Metafile, root: string): Set<string> {
  const src = resolve(root, 'src');
  const entry = relative(root, resolve(src, 'surfaces/cli/hook-main.ts'));
  const index = relative(root, resolve(src, 'surfaces/cli/commands/index.ts'));
  const hookCommand = relative(root, resolve(src, 'surfaces/cli/commands/hook.ts'));
  const seen = new Set([entry]);
  const queue = [entry];
  for (let at = queue.pop(); at !== undefined; at = queue.pop()) {
    for (const i of metafile.inputs[at]?.imports ?? []) {
      const taken = i.kind !== 'dynamic-import' || (at === index && i.path === hookCommand);
      if (i.external === true || !taken || seen.has(i.path)) continue;
      seen.add(i.path);
      queue.push(i.path);
    }
  }
  if (!seen.has(hookCommand)) throw new Error("hook-path: the hook command is not on the entry's path");
  return seen;
}
