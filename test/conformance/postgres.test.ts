/**
 * The conformance suite on PostgreSQL: each test on a fresh tenant of one database of this file's own, the store
 * connected as a login role in memledger_app so row-level security binds. Capabilities: no files under home (the
 * data lives in the cluster; test/store/pg-erasure.test.ts checks its bytes); other processes open the same
 * tenant by its URL (`home` is the store URL with `?tenant=`), as replicas do (I8 outbox recovery, I13).
 */
import { after, before, describe } from 'node:test';
import { type PgTestDatabase, openPgLedger, pgTestDatabase } from '../store/pg-helpers.ts';
import { testCluster } from '../support/pg-cluster.ts';
import type { ConformanceFactory } from './harness.ts';
import { conformanceSuite } from './suite.ts';

const cluster = testCluster();

if ('skip' in cluster) {
  describe('conformance: postgres', { skip: cluster.skip }, () => {});
} else {
  let db: PgTestDatabase | undefined;
  before(async () => {
    db = await pgTestDatabase(cluster.url);
  });
  after(async () => {
    await db?.drop();
  });
  const postgresHome: ConformanceFactory = async (options = {}) => {
    const opened = await openPgLedger(db!, options);
    return {
      ledger: opened.ledger,
      home: opened.home,
      capabilities: { files: false, processes: true },
      cleanup: () => opened.close(),
    };
  };
  conformanceSuite('postgres', postgresHome);
}
