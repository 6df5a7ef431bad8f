/**
 * Once per `npm test`: a throwaway PostgreSQL cluster for the tests that run on the Postgres backend, its URL
 * and data directory handed to every test process through the environment. A cluster given from outside
 * (`MEMLEDGER_TEST_PG_URL`) is used instead. Without server binaries the Postgres tests skip and say why;
 * CI installs them, so there they always run.
 */
import { type PgCluster, startPgCluster } from './support/pg-cluster.ts';

let cluster: PgCluster | undefined;

export async function globalSetup(): Promise<void> {
  if (process.env.MEMLEDGER_TEST_PG_URL) return;
  try {
    cluster = await startPgCluster();
    process.env.MEMLEDGER_TEST_PG_URL = cluster.url;
    if (cluster.dataDir !== null) process.env.MEMLEDGER_TEST_PG_DATA = cluster.dataDir;
  } catch (error) {
    // CI sets this: there, the Postgres half of the suite must run.
    if (process.env.MEMLEDGER_TEST_PG_REQUIRED === '1') throw error;
    process.env.MEMLEDGER_TEST_PG_SKIP = `no PostgreSQL cluster: ${(error as Error).message.split('\n')[0]}`;
    process.stderr.write(`test setup: ${process.env.MEMLEDGER_TEST_PG_SKIP}\n`);
  }
}

export async function globalTeardown(): Promise<void> {
  cluster?.stop();
}
