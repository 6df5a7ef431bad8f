/**
 * The CLI as an installed package runs it, for the hook benchmark: `npm run build:lib` (so dist/ is this
 * tree's code, the hook bundle and the tokenizer table included), then package.json, bin/ and dist/ (without
 * the console, maps and declarations) copied into `DIR/installed/node_modules/memledger`, its dependencies
 * this checkout's node_modules. Its bin is under node_modules/, so it runs dist/ as an `npm install` does.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Builds and copies the package; returns the installed `bin/memledger.js`. */
export function installedCopy(dir: string): string {
  execFileSync('npm', ['run', '-s', 'build:lib'], {
    cwd: ROOT,
    stdio: 'pipe',
    env: {
      ...process.env,
      PATH: [join(ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
    },
  });
  const pkg = join(dir, 'installed', 'node_modules', 'memledger');
  mkdirSync(pkg, { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
  const web = `${join(ROOT, 'dist', 'web')}`;
  cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), {
    recursive: true,
    filter: (path) => path !== web && !path.startsWith(`${web}${sep}`) && !/\.(map|d\.ts)$/.test(path),
  });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(pkg, 'node_modules'));
  return join(pkg, 'bin', 'memledger.js');
}
