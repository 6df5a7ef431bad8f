#!/usr/bin/env node
// The memledger executable. In a checkout it runs the TypeScript source directly (Node strips the types);
// installed under node_modules, where Node will not strip types, it runs the build in dist/.
import module from 'node:module';

const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  process.stderr.write(
    `memledger needs Node.js 24 or newer (this is ${process.version}). Run it through npx or npm scripts, which use the pinned Node 24.\n`,
  );
  process.exit(1);
}
// Hooks start a process per prompt: the compile cache halves start-up on every run after the first.
module.enableCompileCache?.();
const installed = import.meta.url.includes('/node_modules/');
const entry = installed ? '../dist/surfaces/cli/main.js' : '../src/surfaces/cli/main.ts';
const { runCli } = await import(new URL(entry, import.meta.url).href);
const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  interactive: process.stderr.isTTY === true,
  // Verdicts from the local operator need a person at a terminal (src/surfaces/cli/caller.ts).
  stdinIsTTY: process.stdin.isTTY === true,
});
process.exitCode = code;
