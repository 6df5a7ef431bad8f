/**
 * Which store a command line names: `--store`, else `--home`, else MEMLEDGER_STORE, else MEMLEDGER_HOME, else
 * ~/.memledger. An option beats the environment; `--store` and `--home` naming different stores is refused.
 */
import { backendFor, resolveStoreSpec, type StoreBackend } from '../../store/backend.ts';
import type { CliContext } from './command.ts';

/** The spec (a path or a URL) the options and environment name. */
export function storeSpec(ctx: Pick<CliContext, 'storeOption' | 'homeOption' | 'io'>): string {
  return resolveStoreSpec({ store: ctx.storeOption, home: ctx.homeOption }, ctx.io.env);
}

/** The backend of that store, not opened: its home (or none), its label, its migrations. */
export function chosenStore(ctx: Pick<CliContext, 'storeOption' | 'homeOption' | 'io'>): StoreBackend {
  return backendFor(storeSpec(ctx), { sync: ctx.io.env.MEMLEDGER_SYNC === 'full' ? 'full' : 'normal' });
}
