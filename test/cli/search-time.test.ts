/**
 * `memledger search` says how a time in the query was used: the interval a named time resolved to (its last
 * day, not the exclusive end), or that a question about now preferred the newest, and that nothing was left out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli, ok, withTempHome } from './helpers.ts';

test('the search table names the time a query resolved, or its question about now; a plain query names none', () =>
  withTempHome(async (home) => {
    const off = { MEMLEDGER_EMBEDDER: 'off' };
    ok(await cli(home, ['init'], { env: off }));
    ok(
      await cli(home, ['remember', 'The wombat deploy moved to Tuesdays', '--valid-from', '2022-04-12'], {
        env: off,
      }),
    );
    ok(await cli(home, ['remember', 'The wombat deploy moved to Thursdays'], { env: off }));

    const named = ok(await cli(home, ['search', 'wombat deploy in April 2022'], { env: off })).stdout;
    assert.match(
      named,
      /time: "in april 2022" is 2022-04-01 to 2022-04-30; memories in it ranked higher, none left out/i,
    );
    assert.match(named, /Thursdays/, 'the memory outside the time is still listed');

    const now = ok(await cli(home, ['search', 'wombat deploy now'], { env: off })).stdout;
    assert.match(now, /time: "now": the newest of the first ten ranked higher, none left out/);
    assert.match(now, /for: wombat, deploy\n/, 'the cue itself was not searched');

    const plain = ok(await cli(home, ['search', 'wombat deploy'], { env: off })).stdout;
    assert.doesNotMatch(plain, /^time:/m, 'control: no time named, no time line');

    // --reference-time: "last month" is the month before that time, not before today.
    const then = ['search', 'wombat deploy last month', '--reference-time', '2022-05-20T09:00:00Z'];
    const relative = ok(await cli(home, then, { env: off })).stdout;
    assert.match(relative, /time: "last month" is 2022-04-01 to 2022-04-30;/);
    assert.match(relative.split('\n')[1] ?? '', /Tuesdays/, 'the April 2022 memory leads');
    const bad = await cli(home, ['search', 'wombat deploy', '--reference-time', 'someday'], { env: off });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /invalid_input: .*referenceTime must be an ISO-8601 date/);
    const block = await cli(home, ['context', 'wombat deploy last month', '--reference-time', '2022-05-20'], {
      env: off,
    });
    assert.match(ok(block).stdout, /Tuesdays/);
  }));
