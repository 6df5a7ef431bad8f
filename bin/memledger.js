#!/usr/bin/env node
// The memledger executable. In a checkout it runs the TypeScript source directly (Node strips the types);
// installed (under node_modules, where Node refuses to strip types, or from a package that ships no src/)
// it runs the build in dist/.

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
// Builtins by process.getBuiltinModule, not `import`: an ES module import of a builtin builds a facade that reads
// every export, and node:fs's lazy ones (promises, ReadStream, …) then load streams, fs/promises and readline,
// ~2 ms of CPU in every hook process that uses none of them. Taken after the version check, which must run on a
// Node too old to have getBuiltinModule.
const { existsSync } = process.getBuiltinModule('node:fs');
const module = process.getBuiltinModule('node:module');
// Hooks start a process per prompt: the compile cache halves start-up on every run after the first.
module.enableCompileCache?.();
const source = new URL('../src/surfaces/cli/main.ts', import.meta.url);
const installed = import.meta.url.includes('/node_modules/') || !existsSync(source);
const argv = process.argv.slice(2);
// The standard streams are made on first use: making process.stdout for a pipe loads net and the stream machinery
// (~3 ms of CPU), which the hook, writing through its descriptors (hookIo below), never needs.
const io = {
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  get stdin() {
    return process.stdin;
  },
  env: process.env,
  get interactive() {
    return process.stderr.isTTY === true;
  },
  // Verdicts from the local operator need a person at a terminal (src/surfaces/cli/caller.ts).
  get stdinIsTTY() {
    return process.stdin.isTTY === true;
  },
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
// An agent's hook starts a process per session: installed, it runs from one bundled file (dist/hook.cjs, built by
// scripts/bundle-hook.ts), which loads in a fraction of the time of the ~200 modules behind it. The bundle takes
// only `hook` on an embedded home and answers null to anything else.
let code = null;
const bundle = new URL('../dist/hook.cjs', import.meta.url);
const streamed = new Set();
if (installed && argv.includes('hook') && existsSync(bundle)) {
  code = await runHookBundle(bundle, argv, hookIo(io, streamed));
}
if (code !== null) {
  // The hook is done: its ledger has let go of the home, every record written (runHook awaits the close), and its
  // output written to the descriptors. Exit now, without waiting for the event loop to wind down: a hook's last
  // act was otherwise V8 finishing a mark-compact of a heap about to be freed (~16 ms CPU of ~168 per hook, load 9).
  // A stream that took over a full non-blocking descriptor (hookIo) is flushed first.
  let pending = streamed.size;
  const done = () => --pending <= 0 && process.exit(code);
  if (pending === 0) done();
  for (const name of streamed) process[name].write('', done);
} else {
  englishZodOnly();
  const entry = installed ? new URL('../dist/surfaces/cli/main.js', import.meta.url) : source;
  process.exitCode = await (await import(entry.href)).runCli(argv, io);
}

/**
 * The hook's standard input and output through their file descriptors, not process.stdin and process.stdout:
 * for a pipe (how an agent runs its hooks) those are sockets, and making one loads net, the stream machinery
 * and their helpers, ~3 ms of CPU in every hook process (installed hook CPU p50 -4.4 ms, 30 rounds alternating).
 * The same bytes reach the same descriptors. A descriptor left non-blocking by the agent (EAGAIN) is handed to
 * the stream, which waits for it (named in `streamed`, flushed before exit); a reader that went away (EPIPE) is
 * written nothing, as the hook prints nothing when it cannot (it always exits 0).
 */
function hookIo(cli, streamed) {
  const fs = process.getBuiltinModule('node:fs');
  const { isatty } = process.getBuiltinModule('node:tty');
  const output = (fd, name) => ({
    write(text) {
      if (streamed.has(name)) return process[name].write(text);
      let rest = Buffer.from(String(text));
      try {
        while (rest.length > 0) rest = rest.subarray(fs.writeSync(fd, rest));
      } catch (error) {
        if (error.code !== 'EAGAIN') return false;
        streamed.add(name);
        return process[name].write(rest);
      }
      return true;
    },
  });
  const input = {
    isTTY: isatty(0),
    async *[Symbol.asyncIterator]() {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      for (;;) {
        let read;
        try {
          read = fs.readSync(0, buffer);
        } catch (error) {
          if (error.code === 'EOF') return; // Windows, at the end of a pipe
          if (error.code !== 'EAGAIN') throw error;
          yield* process.stdin; // non-blocking: the stream reads the rest as it arrives
          return;
        }
        if (read === 0) return;
        yield Buffer.from(buffer.subarray(0, read));
      }
    },
  };
  return {
    stdout: output(1, 'stdout'),
    stderr: output(2, 'stderr'),
    stdin: input,
    env: cli.env,
    interactive: isatty(2),
    stdinIsTTY: input.isTTY,
    reexec: cli.reexec,
  };
}

/**
 * Runs the hook bundle and returns its exit code (null: not a call it takes). It is compiled through vm.Script
 * with a V8 code cache of its own, made after a run that took the call, so it holds every function that run
 * compiled; Node's compile cache holds only what V8 compiled with the script, and a hook compiled the rest again
 * in every process (~14 ms of CPU of ~118, load average 20). Kept beside Node's compile cache (same Node version,
 * architecture and V8 flags), in a directory only this user may write: a code cache is code. Without one (no
 * compile cache, a directory that is not ours, any failure) the bundle runs uncached, the same.
 */
async function runHookBundle(url, argv, io) {
  const fs = process.getBuiltinModule('node:fs');
  const { dirname } = process.getBuiltinModule('node:path');
  const vm = process.getBuiltinModule('node:vm');
  const path = process.getBuiltinModule('node:url').fileURLToPath(url);
  // latin1: the bundle is ASCII (scripts/bundle-hook.ts escapes the rest), so one byte is one character; cheaper
  // than decoding UTF-8, and V8 gets a one-byte source.
  const text = fs.readFileSync(url, 'latin1');
  const key = /^\/\/ memledger hook bundle ([0-9a-f]{32})\n/.exec(text)?.[1];
  const cache = key === undefined ? null : hookCacheFile(fs, key);
  let cachedData;
  try {
    if (cache !== null) cachedData = fs.readFileSync(cache);
  } catch {
    // none yet: this run makes it
  }
  // The CommonJS wrapper on the first line, which is a comment: line numbers stay the file's.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${text}\n})`;
  const script = new vm.Script(wrapped, {
    filename: path,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const loaded = { exports: {} };
  script.runInThisContext()(loaded.exports, module.createRequire(path), loaded, path, dirname(path));
  const code = await loaded.exports.runHookCli(argv, io);
  if (code !== null && cache !== null && (cachedData === undefined || script.cachedDataRejected)) {
    try {
      const partial = `${cache}.${process.pid}`;
      fs.writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(partial, cache); // whole or not at all, whoever else writes it
      // The caches of other versions go once a week old: two installed versions do not take turns rewriting.
      for (const name of fs.readdirSync(dirname(cache))) {
        const other = `${dirname(cache)}/${name}`;
        if (!/^hook-[0-9a-f]{32}\.v8$/.test(name) || other === cache) continue;
        if (Date.now() - fs.statSync(other).mtimeMs > 7 * 86_400_000) fs.rmSync(other, { force: true });
      }
    } catch {
      // a cache that cannot be written is only slower
    }
  }
  return code;
}

/** The code cache's file for bundle `key`, or null when there is no directory that only this user can write. */
function hookCacheFile(fs, key) {
  const base = module.getCompileCacheDir?.();
  if (base === undefined) return null;
  const dir = `${base}/memledger`;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.statSync(dir);
    const mine = process.getuid === undefined || stat.uid === process.getuid();
    return mine && (stat.mode & 0o022) === 0 ? `${dir}/hook-${key}.v8` : null;
  } catch {
    return null;
  }
}

/**
 * zod's entry re-exports all of its 60-odd locales, and memledger uses only its English messages: loading the
 * one saves 64 module loads, about 20 ms of CPU in every process. A zod whose files move simply no longer
 * matches, and loads as before. Registered only for the unbundled CLI: the hook bundle has the one locale built
 * in (scripts/bundle-hook.ts), and registering the hooks cost it ~2 ms of CPU per process.
 */
function englishZodOnly() {
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
}
