/**
 * The behaviors page in headless Chromium against `memledger serve`: an admin defines a behavior in the page,
 * an agent runs it over MCP, and the page shows the run with what it consumed and wrote; a reader sees the
 * page without the define form, and the API refuses a reader's definition (I7), beside the admin's control.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { cli, ok } from '../cli/helpers.ts';
import { callTool, type Connected, dataOf, httpClient } from '../mcp/helpers.ts';
import { browserSkipReason, createToken, launchChromium, type Served, screenshot, serve } from './helpers.ts';

const skip = browserSkipReason();

const DEFINITION = {
  name: 'digest',
  prompt: 'Summarise the new decisions.',
  triggers: [{ type: 'event', kinds: ['decision'] }],
  reads: { scopes: ['shared'] },
  writes: { kinds: ['note'], scopes: ['agent:scout'] },
  settleSeconds: 0,
};

describe('behaviors page in headless Chromium', { skip }, () => {
  let home: string;
  let server: Served;
  let browser: Browser;
  let page: Page;
  let tokens: { admin: string; reader: string; agent: string };
  let agent: Connected;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'memledger-web-behaviors-'));
    const args = (line: string) => line.split(' ');
    const [admin, reader, agentSecret] = await Promise.all([
      createToken(home, args('--name ada --kind human --role admin --grant *:rw')),
      createToken(home, args('--name rhea --kind human --role reader --grant *:r')),
      createToken(home, args('--name scout --kind agent --grant agent:{self}:rw --grant shared:rw')),
    ]);
    tokens = { admin, reader, agent: agentSecret };
    server = await serve(home);
    agent = await httpClient(server.url, tokens.agent, { name: 'scout-cli', version: '1.0.0' });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
  });
  after(async () => {
    await agent?.close();
    await browser?.close();
    await server?.stop();
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
  });

  const signIn = async (secret: string) => {
    await page.goto(`${server.url}/`);
    await page.fill('#token', secret);
    await page.click('button:has-text("Sign in")');
    await page.waitForSelector('nav');
  };

  test('an admin defines a behavior in the page; an agent runs it over MCP; the page shows the run', async () => {
    await signIn(tokens.admin);
    await page.click('nav a:has-text("Behaviors")');
    await page.fill('textarea[name=definition]', JSON.stringify(DEFINITION));
    await page.click('form[aria-label="define a behavior"] button:has-text("Save")');
    await page.locator('output.ok').waitFor();
    assert.match((await page.locator('output.ok').textContent()) ?? '', /digest is at version 1/);
    await page.locator('tr[data-behavior=digest]').waitFor();

    ok(await cli(home, ['remember', 'We release on Thursdays', '--scope', 'shared', '--kind', 'decision']));
    const w = dataOf<{ run: string; token: string; events: unknown[] }>(
      await callTool(agent.client, 'behavior_next', { behavior: 'digest' }),
    );
    assert.equal(w.events.length, 1);
    const done = dataOf<{ outputs: { id: string }[] }>(
      await callTool(agent.client, 'behavior_complete', {
        run: w.run,
        token: w.token,
        outputs: [{ scope: 'agent:scout', kind: 'note', body: 'Releases: Thursdays.' }],
      }),
    );

    await page.reload();
    await page.click('tr[data-behavior=digest] button:has-text("digest")');
    const row = page.locator(`tr[data-run="${w.run}"]`);
    await row.waitFor();
    assert.equal(await row.locator('[data-state]').getAttribute('data-state'), 'finished');
    assert.equal(await row.locator('[data-consumed]').getAttribute('data-consumed'), '1');
    assert.equal(await row.locator(`[data-output="${done.outputs[0]!.id}"]`).count(), 1);
    await screenshot(page, 'behaviors-runs');

    await page.click('tr[data-behavior=digest] button:has-text("Disable")');
    await page.locator('tr[data-behavior=digest] [data-state=disabled]').waitFor();
    await page.click('button:has-text("Sign out")');
  });

  test('I7 a reader sees behaviors without the define form, and the API refuses the reader a definition', async () => {
    await signIn(tokens.reader);
    await page.click('nav a:has-text("Behaviors")');
    await page.locator('tr[data-behavior=digest]').waitFor();
    assert.equal(await page.locator('form[aria-label="define a behavior"]').count(), 0);
    assert.equal(await page.locator('tr[data-behavior=digest] button:has-text("Disable")').count(), 0);
    const refused = await fetch(`${server.url}/v1/behaviors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.reader}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...DEFINITION, name: 'sneaky' }),
    });
    assert.equal(refused.status, 403);
    const list = (await (
      await fetch(`${server.url}/v1/behaviors`, { headers: { authorization: `Bearer ${tokens.reader}` } })
    ).json()) as { behaviors: { name: string }[] };
    assert.deepEqual(
      list.behaviors.map((b) => b.name),
      ['digest'],
    );
    await page.click('button:has-text("Sign out")');
  });
});
