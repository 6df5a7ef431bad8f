/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, server mode) against a real
 * `memledger serve` on a temporary home. It fails on any failure not listed in conformance-skips.yaml (each
 * listed with its reason) and on any listed scenario that passes. The suite's client sends no credentials,
 * and memledger serves none without a token, so it talks to /mcp through a loopback proxy that adds an agent
 * token's `Authorization` header and changes nothing else (Host and Origin pass through, so the suite's DNS
 * rebinding scenario reaches memledger's own check). Nothing leaves the machine.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeTokens, tempHome } from './helpers.ts';
import { bearerProxy, type ServeProcess, startServe } from './serve-process.ts';

const SUITE = new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url)
  .pathname;
const SKIPS = new URL('./conformance-skips.yaml', import.meta.url).pathname;
/** Scenarios that must run and pass every check, whatever the suite's defaults become. */
const MUST_PASS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

describe('the official MCP conformance suite against memledger serve', () => {
  let home: ReturnType<typeof tempHome>;
  let served: ServeProcess;
  let proxy: Awaited<ReturnType<typeof bearerProxy>>;
  let out: string;

  before(async () => {
    home = tempHome('conformance');
    const { agent } = await makeTokens(home.home, { agent: { name: 'conformance-bot', kind: 'agent' } });
    served = await startServe(home.home);
    proxy = await bearerProxy(served.url, agent!.secret);
    out = mkdtempSync(join(tmpdir(), 'memledger-conformance-out-'));
  });
  after(async () => {
    await proxy.close();
    await served.kill();
    rmSync(out, { recursive: true, force: true });
    home.cleanup();
  });

  test('every scenario passes or is a written skip, and server-initialize, ping, tools-list and dns-rebinding-protection pass', async () => {
    const args = [SUITE, 'server', '--url', `${proxy.url}/mcp`, '--expected-failures', SKIPS, '-o', out];
    const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c: Buffer) => {
        output += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        output += c.toString();
      });
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, output }));
    });
    const summary = run.output.slice(run.output.lastIndexOf('=== SUMMARY ==='));
    assert.equal(run.code, 0, summary);
    for (const scenario of MUST_PASS) {
      const dir = readdirSync(out).find((d) => d.startsWith(`server-${scenario}-`));
      assert.ok(dir !== undefined, `${scenario} ran`);
      const checks = JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as { status: string }[];
      const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      assert.ok(
        checks.some((c) => c.status === 'SUCCESS'),
        `${scenario} has passing checks`,
      );
      assert.deepEqual(failed, [], `${scenario} has no failed check`);
    }
  });
});
