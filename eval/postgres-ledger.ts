/**
 * The evaluation on a Postgres store (`--store postgres://…`): a ledger over a fresh tenant of that database,
 * its audit in the evaluation's temporary directory. Built on `Ledger` directly until openLedger takes a store.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { openSqliteAudit } from '../src/audit/sqlite-audit.ts';
import { Ledger } from '../src/ledger/ledger.ts';
import { nowIso } from '../src/model/time.ts';
import { DEFAULT_POLICY_DOCUMENT, parsePolicy, type Policy } from '../src/policy/policy-file.ts';
import { openPostgresStore } from '../src/store/postgres/open.ts';

export async function openPostgresLedger(
  url: string,
  dir: string,
  options: { now?: () => string; policy?: Policy },
): Promise<Ledger> {
  const store = await openPostgresStore(url, { tenant: `eval_${randomBytes(6).toString('hex')}` });
  const audit = openSqliteAudit(join(dir, 'audit.db'));
  let released = false;
  return new Ledger(
    dir,
    {
      store,
      audit,
      fresh: true,
      release: () => {
        if (released) return;
        released = true;
        store.close();
        audit.close();
      },
    },
    options.policy ?? parsePolicy(DEFAULT_POLICY_DOCUMENT, 'default policy'),
    options.now ?? nowIso,
  );
}
