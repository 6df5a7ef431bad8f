/** The Postgres store's forward-only migrations (part `store`), in order: one file each, one line here each. */
import type { PgMigration } from '../database.ts';
import { STORE_MIGRATION_1 } from './001-store.ts';
import { STORE_MIGRATION_2 } from './002-outbox-hosts.ts';
import { STORE_MIGRATION_3 } from './003-workspace-snapshots.ts';
import { STORE_MIGRATION_4 } from './004-commitments-summaries.ts';
import { STORE_MIGRATION_5 } from './005-behaviors.ts';
import { STORE_MIGRATION_6 } from './006-notify.ts';
import { STORE_MIGRATION_7 } from './007-vectors.ts';
import { STORE_MIGRATION_8 } from './008-session-order.ts';
import { STORE_MIGRATION_9 } from './009-embed-models.ts';
import { STORE_MIGRATION_10 } from './010-rls-plain-indexes.ts';
import { STORE_MIGRATION_11 } from './011-search-definer.ts';
import { STORE_MIGRATION_12 } from './012-queue-scope.ts';

export const STORE_PART = 'store';

export const STORE_MIGRATIONS: readonly PgMigration[] = [
  STORE_MIGRATION_1,
  STORE_MIGRATION_2,
  STORE_MIGRATION_3,
  STORE_MIGRATION_4,
  STORE_MIGRATION_5,
  STORE_MIGRATION_6,
  STORE_MIGRATION_7,
  STORE_MIGRATION_8,
  STORE_MIGRATION_9,
  STORE_MIGRATION_10,
  STORE_MIGRATION_11,
  STORE_MIGRATION_12,
];
