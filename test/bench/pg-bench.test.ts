/**
 * `npm run bench -- --store postgres://…` end to end on the run's cluster, at a small scale: it measures the
 * database cases beside the raw Postgres baseline (the two sides agreeing on hit counts, or the run fails),
 * lists the file-only cases as skipped with their reasons, and drops the database it created. And the option's
 * parsing: a URL that is not postgres:// is refused before anything runs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { parseSettings } from '../../bench/args.ts';
import { testCluster } from '../support/pg-cluster.ts';

const RUN = fileURLToPath(new URL('../../bench/run.ts', import.meta.url));
const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;

test('bench --store takes a postgres:// URL, from the option or BENCH_STORE, and refuses any other', () => {
  assert.equal(parseSettings(['--smoke'], {}).store, null);
  assert.equal(parseSettings(['--store', 'postgres://u@h/db'], {}).store, 'postgres://u@h/db');
  assert.equal(parseSettings([], { BENCH_STORE: 'postgresql://u@h/db' }).store, 'postgresql://u@h/db');
  assert.throws(() => parseSettings(['--store', '/var/lib/memledger'], {}), /postgres:\/\//);
  assert.throws(() => parseSettings(['--store', 'mysql://u@h/db'], {}), /postgres:\/\//);
});

test(
  'bench --store runs the database cases against raw Postgres, skips the file-only ones, drops its database',
  {
    skip,
  },
  async () => {
    const url = 'url' in cluster ? cluster.url : '';
    const run = spawnSync(
      process.execPath,
      [
        RUN,
        '--smoke',
        '--scale',
        '1500',
        '--store',
        url,
        '--only',
        'search_scoped,remember,disk,hook_process',
      ],
      { encoding: 'utf8', timeout: 300_000 },
    );
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout) as {
      store: { backend: string; server: string; serverVersion: string };
      benchmarks: Record<
        string,
        { raw: { n: number }; memledger: { n: number }; notes?: { hitCountsAgree?: boolean } }
      >;
      skipped: Record<string, string>;
    };
    assert.equal(report.store.backend, 'postgres');
    assert.match(report.store.serverVersion, /^\d+/);
    assert.ok(!JSON.stringify(report.store).includes('@'), 'the report names no role or password');
    // The chosen database cases ran on both sides (the import ran too, unreported: it builds the tenant).
    assert.deepEqual(Object.keys(report.benchmarks).sort(), ['remember', 'search_scoped']);
    assert.equal(report.benchmarks.search_scoped!.notes?.hitCountsAgree, true);
    assert.ok(report.benchmarks.search_scoped!.raw.n > 0 && report.benchmarks.remember!.raw.n > 0);
    assert.deepEqual(Object.keys(report.skipped).sort(), ['disk', 'hook_process']);
    assert.match(report.skipped.disk!, /file/);

    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const left = await sql<{ datname: string }[]>`
      select datname from pg_database where datname like 'memledger_bench_%'`;
      const created = /created database (memledger_bench_[0-9a-f]+)/.exec(run.stderr)?.[1];
      assert.ok(created !== undefined, 'the run names the database it created');
      assert.ok(!left.some((r) => r.datname === created), `${created} is dropped at the end`);
      // The run's memledger_app login (the ledger ran under row-level security) is dropped with it.
      const roles = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_roles where rolname = ${`${created}_app`}`;
      assert.equal(roles[0]?.n, 0, `${created}_app is dropped at the end`);
      // Control: the cluster's own database is still there.
      const [own] = await sql<
        { n: number }[]
      >`select count(*)::int as n from pg_database where datname = 'postgres'`;
      assert.equal(own?.n, 1);
    } finally {
      await sql.end({ timeout: 5 });
    }
  },
);
