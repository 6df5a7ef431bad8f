/**
 * The console's sign-in hint is a command that works: the token it creates signs in (a human, per whoami) and
 * reads every view the console opens after sign-in (memories, the review queue, a memory's history), through a
 * real `memledger serve`. The hint of before (reviewer without reader) is the negative control: refused.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SIGN_IN_TOKEN_COMMAND } from '../../src/web/sign-in-hint.ts';
import { cli, ok } from '../cli/helpers.ts';
import { type Served, serve } from './helpers.ts';

/** POSIX shell words of a one-line command with single quotes (all the hint uses). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe("the console's sign-in hint", () => {
  let home: string;
  let server: Served;
  let memoryId: string;
  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'memledger-hint-'));
    memoryId = ok(
      await cli(home, ['remember', 'The staging database is db-2', '--scope', 'shared', '--json']),
    ).json().id;
    server = await serve(home);
  });
  after(async () => {
    await server?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  const tokenFrom = async (command: string): Promise<string> => {
    const words = shellWords(command);
    assert.deepEqual(words.slice(0, 3), ['memledger', 'token', 'create']);
    return ok(await cli(home, [...words.slice(1), '--json']), command).json().secret;
  };
  const get = (secret: string, path: string) =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${secret}` } });

  test('the sign-in screen shows the command this test runs', () => {
    const screen = readFileSync(new URL('../../src/web/views/signin.tsx', import.meta.url), 'utf8');
    assert.match(screen, /<code>\{SIGN_IN_TOKEN_COMMAND\}<\/code>/);
  });

  test("the hint's token signs in as a person and reads what the console opens after sign-in", async () => {
    const secret = await tokenFrom(SIGN_IN_TOKEN_COMMAND);
    const me = await get(secret, '/v1/whoami');
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { kind: string }).kind, 'human');
    for (const path of ['/v1/memories?limit=50', '/v1/review', `/v1/memories/${memoryId}/history`]) {
      const res = await get(secret, path);
      assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
    }
    const listed = (await (await get(secret, '/v1/memories?limit=50')).json()) as {
      memories: { id: string }[];
    };
    assert.ok(
      listed.memories.some((m) => m.id === memoryId),
      'the memory browser shows the shared memory',
    );
  });

  test('control: the hint of before (reviewer, no reader) could not open the memory browser', async () => {
    const secret = await tokenFrom(
      "memledger token create --kind human --name old --role reviewer --grant '*:rw'",
    );
    assert.equal((await get(secret, '/v1/whoami')).status, 200, 'it signs in');
    assert.equal((await get(secret, '/v1/memories?limit=50')).status, 403, 'and is refused the first view');
  });
});
