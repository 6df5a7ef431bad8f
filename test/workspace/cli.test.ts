/**
 * `memledger workspace sql` and `workspace schema` end to end: the executable in a child process per command, as
 * an agent (--as) and as a human without the admin role, with --bind, --json and exit codes. Each child is a
 * separate process on the same home, so every call after the first restores the home's stored snapshot.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BIN, cleanEnv } from '../cli/helpers.ts';

const home = mkdtempSync(join(tmpdir(), 'memledger-workspace-cli-'));

function memledger(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, '--home', home], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      stdout += b;
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr += b;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('memledger workspace (CLI, spawned)', () => {
  before(async () => {
    const init = await memledger(['init']);
    assert.equal(init.code, 0, init.stderr);
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  test('sql with --bind writes and reads the agent workspace; schema prints the prompt', async () => {
    const made = await memledger([
      'workspace',
      'sql',
      'CREATE TABLE leads (subject TEXT, stage TEXT); INSERT INTO leads VALUES (:who, :stage)',
      '--bind',
      'who=person:eve@example.com',
      '--bind',
      'stage=qualified',
      '--as',
      'agent:crm',
    ]);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /committed: version 1/);
    const read = await memledger([
      'workspace',
      'sql',
      'SELECT subject, stage FROM leads',
      '--as',
      'agent:crm',
      '--json',
    ]);
    assert.equal(read.code, 0, read.stderr);
    assert.deepEqual(JSON.parse(read.stdout).results[0].rows, [['person:eve@example.com', 'qualified']]);
    const schema = await memledger(['workspace', 'schema', '--as', 'agent:crm']);
    assert.equal(schema.code, 0, schema.stderr);
    assert.match(schema.stdout, /## leads \(1 row\)/);
    assert.match(schema.stdout, /## __memories \(0 rows\) - ephemeral/);
  });

  test('refusals exit non-zero with their class: a guarded statement, and a human without the admin role', async () => {
    const refused = await memledger([
      'workspace',
      'sql',
      'PRAGMA database_list',
      '--as',
      'agent:crm',
      '--json',
    ]);
    assert.notEqual(refused.code, 0);
    assert.equal(JSON.parse(refused.stderr.trim().split('\n').at(-1)!).error.class, 'permission');
    const human = await memledger(['workspace', 'sql', 'SELECT 1', '--as', 'human:rita', '--json']);
    assert.notEqual(human.code, 0);
    assert.equal(JSON.parse(human.stderr.trim().split('\n').at(-1)!).error.class, 'permission');
    const control = await memledger([
      'workspace',
      'sql',
      'SELECT count(*) FROM leads',
      '--as',
      'agent:crm',
      '--json',
    ]);
    assert.equal(control.code, 0, control.stderr);
    assert.deepEqual(JSON.parse(control.stdout).results[0].rows, [[1]]);
  });
});
