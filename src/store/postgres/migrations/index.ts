/** The Postgres store's forward-only migrations (part `store`), in order: one file each, one line here each. */
import type { PgMigration } from '../database.ts';
import { STORE_MIGRATION_1 } from './001-store.ts';
import { STORE_MIGRATION_2 } from './002-outbox-hosts.ts';
import { STORE_MIGRATION_7 } from './007-vectors.ts';

export const STORE_PART = 'store';

export const STORE_MIGRATIONS: readonly PgMigration[] = [
  STORE_MIGRATION_1,
  STORE_MIGRATION_2,
  STORE_MIGRATION_7,
];
