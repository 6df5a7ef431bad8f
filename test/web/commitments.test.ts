/**
 * The commitments board in headless Chromium against `memledger serve`: columns by status with due dates, a
 * person moves cards (their own and an agent's) with the buttons, done and cancelled cards have no moves left,
 * and a reader sees the board without any.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, createToken, launchChromium, type Served, screenshot, serve } from './helpers.ts';

const skip = browserSkipReason();

describe('commitments board in headless Chromium', { skip }, () => {
  let home: string;
  let server: Served;
  let browser: Browser;
  let page: Page;
  let tokens: { rita: string; rhea: string; scout: string };
  const ids = { overdue: '', plain: '', agents: '' };

  const apiAs = async <T>(secret: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(res.ok, `${path}: ${res.status}`);
    return (await res.json()) as T;
  };
  const card = (status: string, id: string) =>
    page.locator(`.board-column[data-status=${status}] .card[data-id=${id}]`);
  const signIn = async (secret: string) => {
    await page.goto(`${server.url}/`);
    await page.fill('#token', secret);
    await page.click('button:has-text("Sign in")');
    await page.locator('nav').waitFor();
  };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'memledger-board-'));
    const args = (line: string) => line.split(' ');
    const [rita, rhea, scout] = await Promise.all([
      createToken(
        home,
        args('--name rita --kind human --role reader --role writer --role reviewer --grant *:rw'),
      ),
      createToken(home, args('--name rhea --kind human --role reader --grant *:r')),
      createToken(home, args('--name scout --kind agent --grant agent:{self}:rw --grant shared:rw')),
    ]);
    tokens = { rita, rhea, scout };
    server = await serve(home);
    const add = (secret: string, body: Record<string, unknown>) =>
      apiAs<{ id: string; state: string }>(secret, '/v1/commitments', body);
    ids.overdue = (
      await add(rita, { body: 'File the quarterly VAT return', scope: 'shared', due: '2020-01-31' })
    ).id;
    ids.plain = (await add(rita, { body: 'Book the team offsite', scope: 'shared', due: '2099-06-01' })).id;
    const agents = await add(scout, { body: 'Re-run the nightly import', scope: 'agent:scout' });
    assert.equal(agents.state, 'active');
    ids.agents = agents.id;
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

  test('a person moves cards along the board; done and cancelled cards have no moves; an agent’s card too', async () => {
    await signIn(tokens.rita);
    await page.click('nav a:has-text("Commitments")');
    await card('open', ids.overdue).waitFor();
    assert.match((await card('open', ids.overdue).textContent()) ?? '', /due 2020-01-31/);
    assert.equal(await card('open', ids.overdue).locator('.overdue').count(), 1, 'overdue is marked');
    assert.equal(await card('open', ids.plain).locator('.overdue').count(), 0, 'control: not overdue');
    await card('open', ids.overdue).locator('button[data-move=doing]').click();
    await card('doing', ids.overdue).waitFor();
    await card('doing', ids.overdue).locator('button[data-move=done]').click();
    await card('done', ids.overdue).waitFor();
    assert.match((await card('done', ids.overdue).textContent()) ?? '', /by human:rita/);
    assert.equal(await card('done', ids.overdue).locator('button').count(), 0, 'done is final: no moves');
    assert.ok(
      (await card('open', ids.plain).locator('button').count()) > 0,
      'control: an open card has moves',
    );
    await card('open', ids.agents).locator('button[data-move=cancelled]').click();
    await card('cancelled', ids.agents).waitFor();
    const shown = await apiAs<{ commitment: { status: string }; changes: { to: string; by: string }[] }>(
      tokens.scout,
      `/v1/commitments/${ids.agents}`,
    );
    assert.equal(shown.commitment.status, 'cancelled');
    assert.deepEqual(
      shown.changes.map((c) => [c.to, c.by]),
      [['cancelled', 'human:rita']],
    );
    await screenshot(page, 'commitments-board');
    await page.click('button:has-text("Sign out")');
    await page.waitForSelector('#token');
  });

  test('a reader sees the board and its cards without any move', async () => {
    await signIn(tokens.rhea);
    await page.goto(`${server.url}/commitments`);
    await card('open', ids.plain).waitFor();
    assert.equal(await page.locator('.board button[data-move]').count(), 0);
  });
});
