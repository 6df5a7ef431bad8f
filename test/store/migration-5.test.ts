/**
 * Migration 5 on a home written by an older memledger (schema 4): fingerprints recomputed to claim identity,
 * case-variant keys folded to one holder, rejections and claims re-keyed, tombstones and erasure records
 * stripped of their hashes, valid time derived, a hash key created. The home keeps working afterwards.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { newId } from '../../src/model/ids.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { MEMORY_MIGRATIONS } from '../../src/store/sqlite/migrations/index.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
/** The fingerprint schema 4 wrote: scope, slot (key or kind), lower-cased body, value. */
const oldFingerprint = (scope: string, slot: string, body: string) =>
  sha(
    `${scope}\u0000${slot}\u0000${body
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()}\u0000`,
  );

interface Row {
  id: string;
  scope: string;
  key: string | null;
  body: string;
  state: string;
  validFrom?: string;
  validTo?: string;
  supersedes?: string;
  supersededBy?: string;
  principal?: string;
}

function insert(db: DatabaseSync, r: Row, at: string): void {
  const principal = r.principal ?? 'human:old';
  const erased = r.state === 'erased';
  db.prepare(
    `INSERT INTO memories (id, scope, kind, key, body, value, subjects, valid_from, valid_to, confidence, supersedes,
       edit_of, fingerprint, provenance, recorded_at, state, trust, superseded_by, active_from, active_until, confirmed_by, rule, erased_at)
     VALUES (?, ?, 'fact', ?, ?, NULL, '[]', ?, ?, 1, ?, NULL, ?, ?, ?, ?, 'confirmed', ?, ?, ?, NULL, 'humans-land', ?)`,
  ).run(
    r.id,
    r.scope,
    r.key,
    r.body,
    r.validFrom ?? null,
    r.validTo ?? null,
    r.supersedes ?? null,
    oldFingerprint(
      r.scope,
      r.key === null ? 'kind:fact' : `key:${r.key.toLowerCase()}`,
      erased ? 'gone' : r.body,
    ),
    JSON.stringify({ principal, principalKind: principal.split(':')[0], surface: 'cli' }),
    at,
    r.state,
    r.supersededBy ?? null,
    r.state === 'held' ? null : at,
    r.state === 'active' || r.state === 'held' ? null : at,
    erased ? at : null,
  );
  const seq = Number((db.prepare('SELECT seq FROM memories WHERE id = ?').get(r.id) as { seq: number }).seq);
  const table = r.state === 'active' ? 'fts_current' : 'fts_history';
  if (!erased && r.state !== 'held') {
    db.prepare(`INSERT INTO ${table} (rowid, body, meta, scope_tok) VALUES (?, ?, ?, 'sctok')`).run(
      seq,
      r.body,
      r.key ?? '',
    );
  }
}

test('migration 5 brings a schema-4 home to claim identity, one holder per folded key, and hashes erasure can forget', async () => {
  const home = mkdtempSync(join(tmpdir(), 'memledger-migration5-'));
  try {
    const path = join(home, 'memory.db');
    const db = openDatabase(path, MEMORY_MIGRATIONS.slice(0, 4));
    const at = '2025-01-01T00:00:00.000Z';
    const ids = {
      paris: newId('mem'),
      berlin: newId('mem'),
      upper: newId('mem'),
      lower: newId('mem'),
      rejected: newId('mem'),
      erased: newId('mem'),
    };
    insert(
      db,
      {
        id: ids.paris,
        scope: 'shared',
        key: 'bob.city',
        body: 'Bob lives in Paris',
        state: 'superseded',
        validFrom: '2020-01-01T00:00:00.000Z',
        supersededBy: ids.berlin,
      },
      at,
    );
    insert(
      db,
      {
        id: ids.berlin,
        scope: 'shared',
        key: 'bob.city',
        body: 'Bob lives in Berlin',
        state: 'active',
        validFrom: '2023-06-01T00:00:00.000Z',
        supersedes: ids.paris,
      },
      at,
    );
    // Schema 4 compared keys exactly, so case variants could both be current.
    insert(
      db,
      { id: ids.upper, scope: 'shared', key: 'ACME.PLAN', body: 'Acme is on Pro', state: 'active' },
      at,
    );
    insert(
      db,
      { id: ids.lower, scope: 'shared', key: 'acme.plan', body: 'Acme is on Enterprise', state: 'active' },
      '2025-02-01T00:00:00.000Z',
    );
    insert(
      db,
      {
        id: ids.rejected,
        scope: 'shared',
        key: 'acme.plan',
        body: 'Acme is on the Free plan',
        state: 'rejected',
        principal: 'agent:bot',
      },
      at,
    );
    insert(db, { id: ids.erased, scope: 'shared', key: null, body: '', state: 'erased' }, at);
    db.prepare(
      `INSERT INTO rejections (scope, fingerprint, memory_id, reason, by, at) VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(
      'shared',
      oldFingerprint('shared', 'key:acme.plan', 'Acme is on the Free plan'),
      ids.rejected,
      'it pays',
      'human:old',
      at,
    );
    db.prepare(
      `INSERT INTO claims (scope, key, owner, since, memory_id) VALUES ('shared', 'ACME.PLAN', 'human:old', ?, ?)`,
    ).run(at, ids.upper);
    db.prepare(
      `INSERT INTO erasures (id, subject_hash, memory_ids, by, at) VALUES (?, ?, ?, 'human:old', ?)`,
    ).run(newId('era'), sha('person:gone@example.com'), JSON.stringify([ids.erased]), at);
    db.close();

    const ledger = openLedger({ home });
    try {
      const me = ledger.as(ledger.operator());
      const raw = new DatabaseSync(path);
      try {
        assert.equal(
          (raw.prepare('PRAGMA user_version').get() as { user_version: number }).user_version,
          MEMORY_MIGRATIONS.at(-1)!.version,
        );
        const holders = raw
          .prepare(`SELECT id FROM memories WHERE lower(key) = 'acme.plan' AND state = 'active'`)
          .all();
        assert.deepEqual(
          holders.map((h) => h.id),
          [ids.lower],
          'the newest case variant holds the key',
        );
        assert.equal(
          (
            raw.prepare('SELECT superseded_by FROM memories WHERE id = ?').get(ids.upper) as {
              superseded_by: string;
            }
          ).superseded_by,
          ids.lower,
        );
        assert.deepEqual(
          raw
            .prepare('SELECT key FROM claims')
            .all()
            .map((c) => c.key),
          ['acme.plan'],
          'claims are keyed folded',
        );
        assert.equal(
          (
            raw.prepare('SELECT fingerprint FROM memories WHERE id = ?').get(ids.erased) as {
              fingerprint: string;
            }
          ).fingerprint,
          '',
        );
        const erasureColumns = raw
          .prepare('PRAGMA table_info(erasures)')
          .all()
          .map((c) => c.name);
        assert.ok(!erasureColumns.includes('subject_hash'), 'no subject hash survives');
        assert.equal(raw.prepare('SELECT count(*) AS n FROM home_keys').get()!.n, 1);
        const paris = raw.prepare('SELECT valid_start, valid_end FROM memories WHERE id = ?').get(ids.paris);
        assert.deepEqual(
          { ...paris },
          { valid_start: '2020-01-01T00:00:00.000Z', valid_end: '2023-06-01T00:00:00.000Z' },
        );
      } finally {
        raw.close();
      }
      // The recomputed identities work: the rejection stands against a variant, a new agent write to the key is held.
      const bot = ledger.as(ledger.principal('agent:bot'));
      assert.equal(
        (await bot.remember({ body: 'ACME is on the free plan!', scope: 'shared', kind: 'note' })).state,
        'rejected',
      );
      assert.equal(
        (await bot.remember({ body: 'Acme is on Team', scope: 'shared', key: 'Acme.Plan' })).state,
        'held',
      );
      const h = await me.history(ids.upper);
      assert.ok(
        h.events.some(
          (e) => e.type === 'superseded' && e.detail.via === 'migration 5: keys compare case-insensitively',
        ),
      );
      assert.equal((await me.get(ids.berlin)).state, 'active', 'control: other memories are as they were');
    } finally {
      ledger.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
