/**
 * memory.db's forward-only migrations, in order: one file each, one line here each. Tests open the store the
 * way users do; nothing else builds the schema.
 */
import type { Migration } from '../database.ts';
import { MIGRATION_1 } from './001-log.ts';
import { MIGRATION_2 } from './002-governance.ts';
import { MIGRATION_3 } from './003-feeds.ts';
import { MIGRATION_4 } from './004-performance.ts';
import { MIGRATION_5 } from './005-claim-identity.ts';
import { MIGRATION_6 } from './006-scope-statistics.ts';
import { MIGRATION_7 } from './007-audit-outbox.ts';
import { MIGRATION_8 } from './008-feed-items-scope.ts';
import { MIGRATION_9 } from './009-mcp-sessions.ts';
import { MIGRATION_10 } from './010-workspace-snapshots.ts';
import { MIGRATION_11 } from './011-commitments-summaries.ts';
import { MIGRATION_12 } from './012-behaviors.ts';
import { MIGRATION_13 } from './013-notify.ts';
import { MIGRATION_14 } from './014-vectors.ts';
import { MIGRATION_15 } from './015-session-order.ts';
import { MIGRATION_16 } from './016-embed-models.ts';
import { MIGRATION_17 } from './017-pool-kinds.ts';
import { MIGRATION_18 } from './018-kind-ranges.ts';
import { MIGRATION_19 } from './019-queue-scope.ts';

export const MEMORY_MIGRATIONS: readonly Migration[] = [
  MIGRATION_1,
  MIGRATION_2,
  MIGRATION_3,
  MIGRATION_4,
  MIGRATION_5,
  MIGRATION_6,
  MIGRATION_7,
  MIGRATION_8,
  MIGRATION_9,
  MIGRATION_10,
  MIGRATION_11,
  MIGRATION_12,
  MIGRATION_13,
  MIGRATION_14,
  MIGRATION_15,
  MIGRATION_16,
  MIGRATION_17,
  MIGRATION_18,
  MIGRATION_19,
];
