/**
 * whileBusy: the wait openDatabase puts around entering WAL, which SQLite can refuse busy without calling its busy
 * handler when several processes create one file at once (home-first-open.test.ts races real processes).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { whileBusy } from '../../src/store/sqlite/database.ts';

const busy = () => Object.assign(new Error('database is locked'), { errcode: 5 });

test('a busy step is run again until it succeeds, and its value comes back', () => {
  let calls = 0;
  const value = whileBusy(() => {
    calls += 1;
    if (calls < 3) throw busy();
    return 'wal';
  }, 1_000);
  assert.equal(value, 'wal');
  assert.equal(calls, 3);
});

test('past the timeout the busy error itself comes through', () => {
  let calls = 0;
  let clock = 0;
  assert.throws(
    () =>
      whileBusy(
        () => {
          calls += 1;
          clock += 10;
          throw busy();
        },
        50,
        () => clock,
      ),
    { errcode: 5, message: 'database is locked' },
  );
  assert.ok(calls >= 5 && calls <= 7, `${calls} calls`);
});

test('control: any other failure is not retried', () => {
  let calls = 0;
  assert.throws(
    () =>
      whileBusy(() => {
        calls += 1;
        throw Object.assign(new Error('file is not a database'), { errcode: 26 });
      }, 1_000),
    /not a database/,
  );
  assert.equal(calls, 1);
});
