/** The Postgres store's forward-only migrations (part `store`), in order: one file each, one line here each. */
import type { PgMigration } from '../database.ts';
import { STORE_MIGRATION_1 } from './001-store.ts';

export const STORE_PART = 'store';

export const STORE_MIGRATIONS: readonly PgMigration[] = [STORE_MIGRATION_1];
