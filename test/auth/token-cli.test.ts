/** `memledger token create | list | revoke`, run as CLI commands on a data directory. */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import { isMemoryError, type Ledger, openLedger } from '../../src/index.ts';
import type { CliContext, Command, Values } from '../../src/surfaces/cli/command.ts';
import { tokenCreate, tokenList, tokenRevoke } from '../../src/surfaces/cli/commands/token.ts';
import { tempHome } from '../mcp/helpers.ts';

describe('token commands', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;

  before(() => {
    home = tempHome('token-cli');
    ledger = openLedger({ home: home.home });
  });
  after(() => {
    ledger.close();
    home.cleanup();
  });

  const ctx = (as?: string): CliContext => ({
    io: {
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      env: {},
      interactive: false,
    },
    json: false,
    homeOption: home.home,
    ledger: () => ledger,
    session: () => ledger.as(as === undefined ? ledger.operator() : ledger.principal(as), { surface: 'cli' }),
    partialFailure: () => {},
  });
  const run = async (command: Command, values: Values, args: string[] = [], as?: string) => {
    const c = ctx(as);
    const result = await command.run(c, args, values);
    return { result, text: command.render!(result as never, c) };
  };

  test('I14 create prints the secret once with the principal it stands for; list shows only its prefix', async () => {
    const { result, text } = await run(tokenCreate, {
      name: 'claude-code',
      kind: 'agent',
      grant: ['agent:{self}:rw', 'shared:r'],
    });
    const secret = (result as { secret: string }).secret;
    assert.ok(text.includes(secret));
    assert.match(
      text,
      /created tok_\w+ for agent:claude-code \(roles reader, writer; grants agent:\{self\}:rw, shared:r\)/,
    );
    assert.match(text, /only time the secret is shown/);
    const listed = await run(tokenList, {});
    assert.ok(!listed.text.includes(secret), 'list never prints the secret');
    assert.ok(listed.text.includes(`${secret.slice(0, 12)}…`));
    assert.match(listed.text, /agent:claude-code/);
  });

  test('revoke takes effect for the token store at once', async () => {
    const { result } = await run(tokenCreate, {
      name: 'temp',
      kind: 'service',
      role: ['reader'],
      grant: ['shared:r'],
    });
    const { id, secret } = result as { id: string; secret: string };
    const { text } = await run(tokenRevoke, {}, [id]);
    assert.match(text, new RegExp(`revoked ${id} \\(service:temp\\)`));
    const tokens = openTokenStore(home.home);
    try {
      await assert.rejects(tokens.verify(secret), (e: unknown) => isMemoryError(e, 'permission'));
    } finally {
      tokens.close();
    }
    assert.ok(!(await run(tokenList, {})).text.includes(id));
    assert.ok((await run(tokenList, { all: true })).text.includes(id));
  });

  test('I7 only a human admin manages tokens: an agent acting through --as is refused', async () => {
    const before = openTokenStore(home.home);
    const count = (await before.list({ includeRevoked: true })).length;
    await before.close();
    for (const command of [tokenCreate, tokenList]) {
      await assert.rejects(
        run(command, { name: 'sneaky', kind: 'human', role: ['admin'], grant: ['*:rw'] }, [], 'agent:bot'),
        (e: unknown) =>
          isMemoryError(e, 'permission') && /only a human may manage API tokens/.test((e as Error).message),
      );
    }
    const afterward = openTokenStore(home.home);
    assert.equal((await afterward.list({ includeRevoked: true })).length, count);
    await afterward.close();
  });

  test('bad options are invalid_input naming the field', async () => {
    await assert.rejects(run(tokenCreate, { name: 'x', kind: 'robot' }), /kind/);
    await assert.rejects(run(tokenCreate, { kind: 'agent' }), /name/);
    await assert.rejects(
      run(tokenCreate, { name: 'x', kind: 'agent', grant: ['nope'] }),
      /grant must look like/,
    );
    await assert.rejects(run(tokenRevoke, {}, ['tok_missing']), (e: unknown) =>
      isMemoryError(e, 'not_found'),
    );
  });

  test('I8 creating, listing and revoking tokens are audited, and the audit never holds the secret', async () => {
    const before = (await ledger.as(ledger.operator()).audit({ limit: 1000 })).length;
    const { result } = await run(tokenCreate, { name: 'audited', kind: 'agent', grant: ['shared:r'] });
    const { id, secret } = result as { id: string; secret: string };
    await run(tokenList, {});
    await run(tokenRevoke, {}, [id]);
    const records = await ledger.as(ledger.operator()).audit({ limit: 1000 });
    const mine = records.filter((r) => r.operation.startsWith('token.')).slice(0, 3);
    assert.deepEqual(mine.map((r) => r.operation).sort(), ['token.create', 'token.list', 'token.revoke']);
    assert.ok(mine.every((r) => r.outcome === 'ok' && r.surface === 'cli'));
    // Control: the revoke record names the token id; the secret appears in no record.
    assert.ok(JSON.stringify(mine).includes(id));
    assert.ok(!JSON.stringify(records).includes(secret));
    assert.ok(records.length >= before + 3);
  });
});
