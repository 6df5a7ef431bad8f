#!/usr/bin/env node
// The memledger executable. In a checkout it runs the TypeScript source directly (Node strips the types);
// installed (under node_modules, where Node refuses to strip types, or from a package that ships no src/)
// it runs the build in dist/.
import { existsSync } from 'node:fs';
import module from 'node:module';

// Checked before any other module loads: the code needs node:sqlite, which an older Node cannot even link.
// The same words as src/node-version.ts (the library's own check), which this file cannot import: it is TypeScript.
const REQUIRED = 24;
if (Number(process.versions.node.split('.')[0]) < REQUIRED) {
  process.stderr.write(
    `memledger needs Node.js ${REQUIRED} or newer; this is Node.js v${process.versions.node}. ` +
      `Install Node.js ${REQUIRED} from https://nodejs.org/en/download ` +
      `(or with a version manager: nvm install ${REQUIRED}, fnm install ${REQUIRED}, ` +
      `volta install node@${REQUIRED}), make it the node on your PATH, then run memledger again.\n`,
  );
  process.exit(1);
}
// Hooks start a process per prompt: the compile cache halves start-up on every run after the first.
module.enableCompileCache?.();
// zod's entry re-exports all of its 60-odd locales, and memledger uses only its English messages: loading the
// one saves 64 module loads, about 20 ms of CPU in every process (a hook runs one per session). A zod whose
// files move simply no longer matches, and loads as before.
module.registerHooks?.({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (!resolved.url.endsWith('/zod/v4/locales/index.js')) return resolved;
    const en = JSON.stringify(new URL('./en.js', resolved.url).href);
    return {
      ...resolved,
      url: `data:text/javascript,export { default as en } from ${en};`,
      shortCircuit: true,
    };
  },
});
const source = new URL('../src/surfaces/cli/main.ts', import.meta.url);
const installed = import.meta.url.includes('/node_modules/') || !existsSync(source);
const argv = process.argv.slice(2);
const io = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  interactive: process.stderr.isTTY === true,
  // Verdicts from the local operator need a person at a terminal (src/surfaces/cli/caller.ts).
  stdinIsTTY: process.stdin.isTTY === true,
  // A long-running command (serve) needs V8 flags that only a process's start sets (src/surfaces/cli/node-flags.ts):
  // the process image is replaced, same pid and descriptors. Where execve is missing (Windows) it runs as it is.
  reexec: (flags) => {
    if (typeof process.execve !== 'function' || process.platform === 'win32') return;
    try {
      process.execve(process.execPath, [
        process.execPath,
        ...process.execArgv,
        ...flags,
        ...process.argv.slice(1),
      ]);
    } catch {
      // The image could not be replaced: the command runs in this process, with V8's defaults.
    }
  },
};
// An agent's hook starts a process per session: installed, it runs from one bundled file (dist/hook.js, built by
// scripts/bundle-hook.ts), which loads in a fraction of the time of the ~200 modules behind it. The bundle takes
// only `hook` on an embedded home and answers null to anything else.
let code = null;
const bundle = new URL('../dist/hook.js', import.meta.url);
if (installed && argv.includes('hook') && existsSync(bundle)) {
  code = await (await import(bundle.href)).runHookCli(argv, io);
}
if (code !== null) {
  // The hook is done: its ledger has let go of the home, every record written (runHook awaits the close). Exit
  // once the output is flushed, without waiting for the event loop to wind down: a hook's last act was otherwise
  // V8 finishing a mark-compact of a heap about to be freed (~16 ms CPU of ~168 per hook, load 9).
  let pending = 2;
  const done = () => --pending === 0 && process.exit(code);
  process.stdout.write('', done);
  process.stderr.write('', done);
} else {
  const entry = installed ? new URL('../dist/surfaces/cli/main.js', import.meta.url) : source;
  process.exitCode = await (await import(entry.href)).runCli(argv, io);
}
