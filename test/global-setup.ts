/**
 * Once per `npm test`: a throwaway PostgreSQL cluster for the tests that run on the Postgres backend, its URL
 * and data directory handed to every test process through the environment (a cluster given from outside,
 * `MEMLEDGER_TEST_PG_URL`, is used instead), and a check that the console's browser tests can run. Whatever
 * cannot run here skips, and the run ends by saying which half skipped and why. CI sets
 * `MEMLEDGER_TEST_REQUIRE_ALL=1`: there nothing may skip for want of Postgres, Chromium or the local embedder, so setup
 * fails instead.
 */
import { localEmbedderAvailable } from '../src/embed/local.ts';
import { browserSkipReason } from './support/browser.ts';
import { type PgCluster, startPgCluster } from './support/pg-cluster.ts';

let cluster: PgCluster | undefined;
const skipped: string[] = [];

export async function globalSetup(): Promise<void> {
  const required = process.env.MEMLEDGER_TEST_REQUIRE_ALL === '1';
  const browser = browserSkipReason();
  if (browser !== false) {
    if (required) throw new Error(`the console's browser tests cannot run: ${browser}`);
    skipped.push(`browser tests (test/web): ${browser}`);
  }
  if (!localEmbedderAvailable()) {
    const reason = 'the optional packages of the local embedder (@energetic-ai/*) are not installed';
    if (required) throw new Error(`the local embedder tests cannot run: ${reason}`);
    skipped.push(`local embedder tests (test/embed/local.test.ts): ${reason}`);
  }
  if (process.env.MEMLEDGER_TEST_PG_URL) return;
  try {
    cluster = await startPgCluster();
    process.env.MEMLEDGER_TEST_PG_URL = cluster.url;
    if (cluster.dataDir !== null) process.env.MEMLEDGER_TEST_PG_DATA = cluster.dataDir;
  } catch (error) {
    if (required) throw error;
    process.env.MEMLEDGER_TEST_PG_SKIP = `no PostgreSQL cluster: ${(error as Error).message.split('\n')[0]}`;
    skipped.push(`Postgres tests (conformance, store, audit, tokens): ${process.env.MEMLEDGER_TEST_PG_SKIP}`);
  }
  for (const s of skipped) process.stderr.write(`test setup: skipping ${s}\n`);
}

export async function globalTeardown(): Promise<void> {
  cluster?.stop();
  // Last in the output, under the runner's summary: a local run says plainly which half did not run.
  for (const s of skipped) process.stderr.write(`NOT RUN here: ${s}\n`);
}
