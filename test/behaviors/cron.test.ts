/** The scheduler's cron: five fields with lists, ranges and steps, matched on the wall clock of a time zone. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { latestAtOrBefore, parseCron } from '../../src/model/cron.ts';
import { MemoryError } from '../../src/model/errors.ts';

const latest = (cron: string, tz: string, now: string) =>
  latestAtOrBefore(parseCron(cron), tz, new Date(now))?.toISOString() ?? null;

test('cron: the latest instant at or before now, in UTC and in a zone with summer time', () => {
  assert.equal(latest('*/15 * * * *', 'UTC', '2030-06-01T10:44:59Z'), '2030-06-01T10:30:00.000Z');
  assert.equal(
    latest('0 9 * * *', 'UTC', '2030-06-01T09:00:00Z'),
    '2030-06-01T09:00:00.000Z',
    'at now counts',
  );
  assert.equal(latest('0 9 * * *', 'UTC', '2030-06-01T08:59:00Z'), '2030-05-31T09:00:00.000Z');
  // 09:00 in Berlin is 07:00 UTC in summer and 08:00 UTC in winter.
  assert.equal(latest('0 9 * * *', 'Europe/Berlin', '2030-07-01T12:00:00Z'), '2030-07-01T07:00:00.000Z');
  assert.equal(latest('0 9 * * *', 'Europe/Berlin', '2030-01-10T12:00:00Z'), '2030-01-10T08:00:00.000Z');
  assert.equal(latest('30 8,17 1-5 * *', 'UTC', '2030-03-06T00:00:00Z'), '2030-03-05T17:30:00.000Z');
  assert.equal(latest('0 0 1 1 *', 'UTC', '2030-06-01T00:00:00Z'), '2030-01-01T00:00:00.000Z');
});

test('cron: day of month and day of week both restricted match either (classic cron); 7 is Sunday', () => {
  // 2030-06-02 is a Sunday; the 15th is a Saturday.
  assert.equal(latest('0 12 15 * 0', 'UTC', '2030-06-03T00:00:00Z'), '2030-06-02T12:00:00.000Z');
  assert.equal(latest('0 12 * * 7', 'UTC', '2030-06-03T00:00:00Z'), '2030-06-02T12:00:00.000Z');
  assert.equal(latest('0 12 15 * *', 'UTC', '2030-06-16T00:00:00Z'), '2030-06-15T12:00:00.000Z');
});

test('cron: malformed expressions are invalid_input; an impossible date never fires', () => {
  for (const bad of [
    '* * * *',
    '60 * * * *',
    '* 24 * * *',
    '*/0 * * * *',
    '5-1 * * * *',
    'a * * * *',
    '* * 0 * *',
  ]) {
    assert.throws(
      () => parseCron(bad),
      (e: unknown) => e instanceof MemoryError && e.class === 'invalid_input',
      bad,
    );
  }
  assert.equal(latest('0 0 31 2 *', 'UTC', '2030-06-01T00:00:00Z'), null);
});
