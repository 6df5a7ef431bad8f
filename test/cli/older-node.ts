/** The machine's own Node when it is older than 24 (Debian's /usr/bin/node, or the first `node` on PATH), if any. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function olderNode(): { path: string; version: string } | undefined {
  const candidates = ['/usr/bin/node', '/usr/local/bin/node'];
  // PATH without any node_modules/.bin, which is where the pinned Node 24 comes from.
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && !dir.includes('node_modules')) candidates.push(join(dir, 'node'));
  }
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    const run = spawnSync(path, ['--version'], { encoding: 'utf8' });
    const version = run.stdout?.trim() ?? '';
    const major = Number(/^v(\d+)/.exec(version)?.[1]);
    if (run.status === 0 && major > 0 && major < 24) return { path, version };
  }
  return undefined;
}
