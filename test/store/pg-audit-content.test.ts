/**
 * The Postgres twin of I8's byte check on audit.db: the audit rows as stored (every column, read raw by the
 * superuser, not through the ledger's read-back) hold no body, subject, reason or secret of the calls they
 * record, refused calls included; control: the records are there, and the memory table does hold the body.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { connect } from '../../src/store/postgres/database.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { openPgLedger, type PgTestDatabase, pgTestDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;
let db: PgTestDatabase | undefined;

before(async () => {
  if (!('skip' in cluster)) db = await pgTestDatabase(cluster.url);
});
after(async () => {
  await db?.drop();
});

const word = (prefix: string) => `${prefix}${randomBytes(5).toString('hex')}`;

test(
  'I8 audit (postgres): stored audit rows never hold a body, a subject, a reason or a secret, even of refused calls',
  { skip },
  async () => {
    const opened = await openPgLedger(db!);
    const admin = connect(db!.adminUrl, { max: 1 });
    try {
      const me = opened.ledger.as(opened.ledger.operator());
      const body = word('okapibody');
      const kept = word('okapikept');
      const subject = `person:${word('subj')}@example.com`;
      const reason = word('why');
      const secret = `ghp_${randomBytes(18).toString('hex').slice(0, 36)}`;
      const a = await me.remember({
        body: `Salary of the CFO is ${body}`,
        scope: 'shared',
        subjects: [subject],
      });
      await me.remember({
        body: `A note that stays: ${kept}`,
        scope: 'shared',
        key: 'cfo.note',
        value: { note: kept },
      });
      await me.search({ query: body, subject });
      await me.retract({ id: a.id, reason: `retracted because ${reason}` });
      await assert.rejects(me.remember({ body: `the token is ${secret}`, scope: 'shared' }), {
        class: 'invalid_input',
      });
      await assert.rejects(me.remember({ body: `bad scope ${kept}`, scope: 'nowhere' }), {
        class: 'invalid_input',
      });
      await me.erase({ subject });

      const [rows] = await admin<{ n: number; text: string | null }[]>`
      select count(*)::int as n, string_agg(r::text, ' ') as text
      from memledger_audit.records r where r.tenant = ${opened.tenant}`;
      const stored = rows!.text ?? '';
      assert.ok(rows!.n >= 7, `control: every call has its record (${rows!.n})`);
      for (const operation of ['remember', 'search', 'retract', 'erase']) {
        assert.ok(stored.includes(operation), `control: the ${operation} record is stored`);
      }
      for (const needle of [body, kept, subject, reason, secret, 'CFO']) {
        assert.ok(!stored.includes(needle), `a stored audit row holds ${needle}`);
      }
      // Control: the needle search works on this database, the kept memory's body is in the store's own table.
      const [memory] = await admin<{ n: number }[]>`
      select count(*)::int as n from memledger.memories m where m.tenant = ${opened.tenant} and m.body like ${`%${kept}%`}`;
      assert.equal(memory!.n, 1);
    } finally {
      await admin.end();
      await opened.close();
    }
  },
);
