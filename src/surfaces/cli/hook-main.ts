/**
 * The entry of the installed package's hook bundle (`dist/hook.cjs`, scripts/bundle-hook.ts): the CLI itself,
 * for `memledger hook …` on an embedded home only. Anything else answers `null` and bin/memledger.js runs the
 * whole CLI from dist/ instead, so the bundle never holds a second copy of a module another path also loads.
 */
import { resolveStoreSpec } from '../../store/backend.ts';
import { findCommand, lastValue } from './argv.ts';
import type { CliIO } from './command.ts';
import { runCli } from './main.ts';

/** The hook's exit code, or `null` when this call is not one the bundle takes. */
export async function runHookCli(argv: string[], io: CliIO): Promise<number | null> {
  if (findCommand(argv).entry?.name !== 'hook') return null;
  let spec: string;
  try {
    spec = resolveStoreSpec({ store: lastValue(argv, '--store'), home: lastValue(argv, '--home') }, io.env);
  } catch {
    return null; // the whole CLI reports it, as it always has
  }
  // A database URL loads its backend from dist/ by path: that run belongs to the whole CLI, not to the bundle.
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(spec)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'file') return null;
  return runCli(argv, io);
}
