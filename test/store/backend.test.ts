/**
 * Opening a store by its spec: a path (or file:// URL) is an embedded SQLite home, a postgres:// or postgresql://
 * URL goes to the backend registered for it (a fake here, opening asynchronously over a real home), anything
 * else is invalid_input and creates nothing. And the choice between --store, --home and the environment.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { MemoryError, openLedger } from '../../src/index.ts';
import {
  type BackendOptions,
  backendFor,
  type OpenedStore,
  registerBackend,
  resolveStoreSpec,
  type StoreBackend,
} from '../../src/store/backend.ts';

const dirs: string[] = [];
const temp = (name: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `memledger-backend-${name}-`));
  dirs.push(dir);
  return dir;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A database-like backend: no files, its own label, an open that settles later, over a real home underneath. */
function fakeDatabase(under: string, seen: { spec?: string; options?: BackendOptions }, fail?: MemoryError) {
  return (spec: string, options: BackendOptions): StoreBackend => {
    seen.spec = spec;
    seen.options = options;
    return {
      kind: 'fake',
      label: 'fake://db',
      home: null,
      capabilities: { files: false },
      policyPath: null,
      prepare: () => undefined,
      open: async (): Promise<OpenedStore> => {
        await new Promise((r) => setImmediate(r));
        if (fail !== undefined) throw fail;
        return backendFor(under, options).open();
      },
      openTokens: () => Promise.reject(new Error('no tokens in this fake backend')),
      migrate: async () => ({ store: 'fake://db', applied: [], versions: { store: 1 } }),
    };
  };
}

describe('a path is an embedded home', () => {
  test('a path, a relative path and a file:// URL open the SQLite backend on that directory', () => {
    const dir = temp('path');
    const home = join(dir, 'home');
    const byPath = backendFor(home);
    assert.equal(byPath.kind, 'sqlite');
    assert.equal(byPath.home, home);
    assert.equal(byPath.policyPath, join(home, 'policy.json'));
    assert.deepEqual(byPath.capabilities, { files: true });
    assert.equal(backendFor(pathToFileURL(home).href).home, home);
    assert.equal(backendFor('some/relative').home, resolve('some/relative'));
    assert.ok(!existsSync(home), 'naming a backend opens nothing');
  });

  test('openLedger({ store: PATH }) and the older openLedger({ home }) open the same home', async () => {
    const home = join(temp('alias'), 'home');
    const a = openLedger({ store: home });
    assert.equal(a.home, home);
    assert.equal(a.hasFiles, true);
    await a.as(a.operator()).remember({ body: 'the alias control memory', scope: 'shared' });
    a.close();
    const b = openLedger({ home });
    const found = await b.as(b.operator()).search({ query: 'alias control' });
    b.close();
    assert.equal(found.hits.length, 1);
  });
});

describe('a URL goes to the backend registered for its scheme', () => {
  test('a postgres:// URL opens the registered backend asynchronously; verbs wait for it and are audited', async () => {
    const under = join(temp('fake'), 'underneath');
    const seen: { spec?: string; options?: BackendOptions } = {};
    const restore = registerBackend(['postgres:', 'postgresql:'], fakeDatabase(under, seen));
    try {
      const url = 'postgres://app:s3cret-pw@db.example/mem?tenant=acme';
      const ledger = openLedger({ store: url, tenant: 'acme' });
      assert.equal(seen.spec, url, 'the backend receives the spec as given');
      assert.equal(seen.options?.tenant, 'acme');
      assert.equal(ledger.storeLabel, 'fake://db');
      assert.equal(ledger.hasFiles, false);
      assert.throws(() => ledger.home, { class: 'invalid_input' });
      assert.throws(
        () => ledger.store,
        { class: 'upstream' },
        'the store is not there before the open settles',
      );
      assert.equal(ledger.policyOrigin.source, 'default', 'a database has no policy.json');
      // A refusal recorded before the open settled is written once it has.
      ledger.recordSurfaceCall({
        context: { surface: 'cli' },
        operation: 'early.refusal',
        args: {},
        error: new MemoryError('invalid_input', 'refused early'),
        durationMs: 1,
      });
      const me = ledger.as(ledger.operator(), { surface: 'library' });
      const written = await me.remember({ body: 'Acme runs on the fake database', scope: 'shared' });
      assert.equal(written.state, 'active');
      await ledger.ready;
      assert.ok(ledger.store, 'open now');
      const found = await me.search({ query: 'fake database' });
      assert.deepEqual(
        found.hits.map((h) => h.memory.id),
        [written.id],
      );
      const operations = (await me.audit({ limit: 20 })).map((r) => r.operation);
      assert.ok(operations.includes('remember'), 'the write is audited through the backend');
      assert.ok(operations.includes('early.refusal'), 'the early refusal reached the audit');
      ledger.close();

      // Control: the write went through the backend, into the home beneath it, and nowhere else.
      const direct = openLedger({ home: under });
      const there = await direct.as(direct.operator()).search({ query: 'fake database' });
      direct.close();
      assert.equal(there.hits.length, 1);

      const other = openLedger({ store: 'postgresql://db.example/mem' });
      assert.equal(seen.spec, 'postgresql://db.example/mem', 'postgresql:// is the same backend');
      other.close();
    } finally {
      restore();
    }
  });

  test('closed before its open settled, a ledger still writes the refusal it was handed, then lets go', async () => {
    const under = join(temp('early-close'), 'underneath');
    const restore = registerBackend(['postgres:'], fakeDatabase(under, {}));
    try {
      const ledger = openLedger({ store: 'postgres://db.example/mem' });
      ledger.recordSurfaceCall({
        context: { surface: 'cli' },
        operation: 'refused.before.open',
        args: {},
        error: new MemoryError('permission', 'refused'),
        durationMs: 1,
      });
      ledger.close();
      await ledger.ready;
      const direct = openLedger({ home: under });
      const records = await direct.as(direct.operator()).audit({ limit: 20 });
      direct.close();
      assert.deepEqual(
        records.filter((r) => r.operation === 'refused.before.open').map((r) => r.failureClass),
        ['permission'],
      );
      assert.ok(records.length >= 1, 'control: the audit store answers');
    } finally {
      restore();
    }
  });

  test('a backend whose open fails: every verb fails with its error, ready rejects, close still works', async () => {
    const seen = {};
    const down = new MemoryError('upstream', 'the database is not reachable');
    const restore = registerBackend(['postgres:'], fakeDatabase(join(temp('down'), 'h'), seen, down));
    try {
      const ledger = openLedger({ store: 'postgres://db.example/mem' });
      const me = ledger.as(ledger.operator());
      await assert.rejects(me.remember({ body: 'never lands', scope: 'shared' }), { class: 'upstream' });
      await assert.rejects(me.search({ query: 'anything' }), { class: 'upstream' });
      await assert.rejects(ledger.ready, { class: 'upstream' });
      assert.throws(() => ledger.store, { class: 'upstream' });
      ledger.close();
    } finally {
      restore();
    }
  });

  test('an unknown scheme is invalid_input and creates nothing; a path beside it is created (control)', () => {
    const dir = temp('unknown');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      assert.throws(() => backendFor('mysql://db.example/mem'), { class: 'invalid_input' });
      assert.throws(
        () => openLedger({ store: 'postgress://db.example/mem' }),
        (e: MemoryError) => {
          assert.equal(e.class, 'invalid_input');
          assert.match(e.message, /postgress/);
          return true;
        },
      );
      assert.throws(() => openLedger({ store: '  ' }), { class: 'invalid_input' });
      assert.deepEqual(readdirSync(dir), [], 'no directory named after the URL');
      openLedger({ store: 'home' }).close();
      assert.deepEqual(readdirSync(dir), ['home'], 'control: a path is created');
    } finally {
      process.chdir(cwd);
    }
  });

  const shipped = existsSync(new URL('../../src/store/postgres/backend.ts', import.meta.url));
  test(
    'without a Postgres backend module a postgres:// URL is invalid_input naming what is missing, not a crash',
    {
      skip: shipped
        ? 'this build ships src/store/postgres/backend.ts; its own tests open real databases'
        : false,
    },
    async () => {
      const ledger = openLedger({ store: 'postgres://app:pw@127.0.0.1:1/none' });
      await assert.rejects(ledger.as(ledger.operator()).search({ query: 'x' }), (e: MemoryError) => {
        assert.equal(e.class, 'invalid_input');
        assert.match(e.message, /no Postgres backend/);
        assert.doesNotMatch(e.message, /pw@/, 'the password is not in the message');
        return true;
      });
      ledger.close();
    },
  );

  test('a database URL is shown without its password or query', () => {
    const label = backendFor('postgres://app:s3cret@db.example:5433/mem?tenant=acme&password=x').label;
    assert.equal(label, 'postgres://app@db.example:5433/mem');
  });
});

describe('which store: options before the environment', () => {
  const env = { MEMLEDGER_STORE: '/s/env-store', MEMLEDGER_HOME: '/s/env-home' };
  test('--store, else --home, else MEMLEDGER_STORE, else MEMLEDGER_HOME, else ~/.memledger', () => {
    assert.equal(resolveStoreSpec({ store: '/s/opt', home: undefined }, env), '/s/opt');
    assert.equal(resolveStoreSpec({ home: '/s/home-opt' }, env), '/s/home-opt');
    assert.equal(resolveStoreSpec({}, env), '/s/env-store');
    assert.equal(resolveStoreSpec({}, { MEMLEDGER_HOME: '/s/env-home' }), '/s/env-home');
    assert.equal(
      resolveStoreSpec({}, { MEMLEDGER_STORE: '', MEMLEDGER_HOME: '/s/h' }),
      '/s/h',
      'empty is unset',
    );
    assert.match(resolveStoreSpec({}, {}), /\.memledger$/);
  });

  test('a store and a home that disagree are refused; the same one twice is fine (control)', () => {
    assert.throws(() => resolveStoreSpec({ store: '/s/a', home: '/s/b' }, {}), { class: 'invalid_input' });
    assert.equal(resolveStoreSpec({ store: '/s/a', home: '/s/a' }, {}), '/s/a');
  });
});
