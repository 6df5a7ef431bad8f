/**
 * The summaries page in headless Chromium against `memledger serve`: a chain with two summaries, one made stale
 * by erasure, shows both in order with the stale marker and why, and what the next window would hand over; a
 * reader without the scope's grant does not see a chain that a reader with it does.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, createToken, launchChromium, type Served, screenshot, serve } from './helpers.ts';

const skip = browserSkipReason();

describe('summaries page in headless Chromium', { skip }, () => {
  let home: string;
  let server: Served;
  let browser: Browser;
  let page: Page;
  let tokens: { rita: string; rhea: string };
  const ids = { stale: '', live: '' };

  const apiAs = async <T>(secret: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(res.ok, `${path}: ${res.status} ${await res.clone().text()}`);
    return (await res.json()) as T;
  };
  /** Summarises a chain's next window as rita; waits past the cutoff so a later write falls after it. */
  const summarise = async (chain: string, body: string) => {
    const w = await apiAs<{ until: string }>(tokens.rita, `/v1/summaries/${chain}/next`);
    const r = await apiAs<{ id: string }>(tokens.rita, `/v1/summaries/${chain}`, { until: w.until, body });
    while (Date.now() <= Date.parse(w.until) + 1) await sleep(2);
    return r.id;
  };
  const signIn = async (secret: string) => {
    await page.goto(`${server.url}/`);
    await page.fill('#token', secret);
    await page.click('button:has-text("Sign in")');
    await page.locator('nav').waitFor();
  };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'memledger-summaries-'));
    const args = (line: string) => line.split(' ');
    const [rita, rhea] = await Promise.all([
      createToken(
        home,
        args(
          '--name rita --kind human --role reader --role writer --role reviewer --role admin --grant *:rw',
        ),
      ),
      createToken(home, args('--name rhea --kind human --role reader --grant shared:r')),
    ]);
    tokens = { rita, rhea };
    server = await serve(home);
    const remember = (body: Record<string, unknown>) => apiAs(rita, '/v1/memories', body);
    await apiAs(rita, '/v1/summaries', { name: 'ops', scope: 'shared' });
    await apiAs(rita, '/v1/summaries', { name: 'vault', scope: 'project:secret' });
    await remember({ body: 'Ann approves the Friday deploys', scope: 'shared', subjects: ['person:ann'] });
    ids.stale = await summarise('ops', 'Ops: deploys moved to Fridays');
    // Erasure reaches the summary covering Ann's memory: it goes stale, its text (which never names her) stays.
    await apiAs(rita, '/v1/erase', { subject: 'person:ann' });
    await remember({ body: 'The pager rotates weekly', scope: 'shared' });
    ids.live = await summarise('ops', 'Ops: <b>weekly</b> pager');
    await remember({ body: 'Backups run at midnight', scope: 'shared' });
    await remember({ body: 'The vault key rotates yearly', scope: 'project:secret' });
    await summarise('vault', 'Vault: yearly key rotation');
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
  });

  test('a chain with two summaries, one stale: both in order, the stale one marked with why; the next window', async () => {
    await signIn(tokens.rita);
    await page.click('nav a:has-text("Summaries")');
    const row = page.locator('tr[data-chain=ops]');
    await row.waitFor();
    assert.equal(await row.locator('[data-count=summaries]').textContent(), '2');
    assert.equal(await row.locator('[data-count=stale]').textContent(), '1');
    await row.locator('a:has-text("ops")').click();
    await page.waitForURL(/\/summaries\/ops$/);
    const items = page.locator('ol.links > li');
    await items.nth(1).waitFor();
    assert.deepEqual(
      await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))),
      [ids.stale, ids.live],
      'oldest first',
    );
    const stale = page.locator(`li[data-id="${ids.stale}"]`);
    const live = page.locator(`li[data-id="${ids.live}"]`);
    assert.match((await stale.locator('[data-stale]').textContent()) ?? '', /stale since .*erasure reached/);
    assert.equal(await live.locator('[data-stale]').count(), 0, 'control: the live summary is not marked');
    assert.match((await stale.textContent()) ?? '', /covers 1 memory/);
    assert.equal(await stale.locator('.summary-body').textContent(), 'Ops: deploys moved to Fridays');
    // The body is text, never HTML: the angle brackets show and no element is made of them.
    assert.equal(await live.locator('.summary-body').textContent(), 'Ops: <b>weekly</b> pager');
    assert.equal(await live.locator('.summary-body b').count(), 0);
    await page.locator('[data-next-count="1"]', { hasText: '1 memory to summarise' }).waitFor();
    assert.equal(await page.locator('.summaries button').count(), 0, 'read-only: no buttons on the page');
    await screenshot(page, 'summaries-chain');
    await page.click('button:has-text("Sign out")');
    await page.waitForSelector('#token');
  });

  test('I4 a reader without the scope’s grant does not see the chain; the readable chain beside it shows', async () => {
    await signIn(tokens.rhea);
    await page.goto(`${server.url}/summaries`);
    await page.locator('tr[data-chain=ops]').waitFor();
    assert.equal(await page.locator('tr[data-chain=vault]').count(), 0, 'vault is outside shared:r');
    const listed = await apiAs<{ chains: { name: string }[] }>(tokens.rhea, '/v1/summaries');
    assert.deepEqual(
      listed.chains.map((c) => c.name),
      ['ops'],
    );
    const all = await apiAs<{ chains: { name: string }[] }>(tokens.rita, '/v1/summaries');
    assert.deepEqual(
      all.chains.map((c) => c.name),
      ['ops', 'vault'],
      'control: it exists',
    );
    await page.goto(`${server.url}/summaries/vault`);
    await page.locator('.error[role=alert]', { hasText: 'no summary chain vault' }).waitFor();
    assert.equal(await page.locator('ol.links > li').count(), 0);
    assert.equal(await page.getByText('Vault: yearly key rotation').count(), 0);
  });
});
