/**
 * The retrieval evaluation on the Postgres store: `node bench/eval-postgres.ts [SET] [--store URL] [--scoped]`.
 * The set is loaded into a fresh tenant of the database at URL (the schema's owner: it migrates), or of a
 * throwaway cluster started for the run (test/support/pg-cluster.ts) when no URL is given. It goes through
 * eval/harness.ts with its `open` hook, building the ledger on the store directly until openLedger takes a store.
 * Prints the report as JSON, as `npm run eval -- --json` does.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runEval } from '../eval/harness.ts';
import { readEvalSet } from '../eval/format.ts';
import { openSqliteAudit } from '../src/audit/sqlite-audit.ts';
import { Ledger } from '../src/ledger/ledger.ts';
import { DEFAULT_POLICY_DOCUMENT, parsePolicy } from '../src/policy/policy-file.ts';
import { openPostgresStore } from '../src/store/postgres/open.ts';
import { startPgCluster } from '../test/support/pg-cluster.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { store: { type: 'string' }, scoped: { type: 'boolean', default: false } },
});
const file = positionals[0] ?? 'eval/sets/memledger-v1.json';
const cluster = values.store === undefined ? await startPgCluster() : null;
const url = values.store ?? cluster!.url;
try {
  const report = await runEval(readEvalSet(file), {
    k: [5, 10],
    budget: 1500,
    scoped: values.scoped,
    async open({ dir, now, policy }) {
      const store = await openPostgresStore(url, { tenant: `eval_${randomBytes(6).toString('hex')}` });
      const audit = openSqliteAudit(join(dir, 'audit.db'));
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        store.close();
        audit.close();
      };
      return new Ledger(
        dir,
        { store, audit, fresh: true, release },
        policy ?? parsePolicy(DEFAULT_POLICY_DOCUMENT, 'default policy'),
        now,
      );
    },
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  cluster?.stop();
}
