/**
 * The console's workspace pages in headless Chromium against `memledger serve`: an admin sees every agent
 * workspace with its tables, sizes and row counts and drills into one, never seeing a row; a non-admin person
 * gets no Workspaces tab and a refusal at the address, and the API refuses them too.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { openLedger } from '../../src/index.ts';
import { writeWorkspace } from '../workspace/snapshot-helpers.ts';
import { browserSkipReason, createToken, launchChromium, type Served, screenshot, serve } from './helpers.ts';

const skip = browserSkipReason();
const ROW = 'avocet-row-content';

describe('console workspaces in headless Chromium', { skip }, () => {
  let home: string;
  let server: Served;
  let browser: Browser;
  let page: Page;
  let admin: string;
  let reader: string;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'memledger-web-ws-'));
    const ledger = openLedger({ home });
    try {
      await writeWorkspace(
        ledger,
        'agent:scout',
        `CREATE TABLE sightings (id INTEGER PRIMARY KEY, subject TEXT, note TEXT);
         INSERT INTO sightings (note) VALUES ('${ROW} 1'), ('${ROW} 2'), ('${ROW} 3');
         CREATE TABLE places (id INTEGER PRIMARY KEY, subject TEXT, name TEXT);`,
      );
      await writeWorkspace(ledger, 'agent:other', 'CREATE TABLE t (id INTEGER PRIMARY KEY, subject TEXT)');
    } finally {
      ledger.close();
    }
    admin = await createToken(home, [
      '--name',
      'ada',
      '--kind',
      'human',
      '--role',
      'admin',
      '--grant',
      '*:rw',
    ]);
    reader = await createToken(home, [
      '--name',
      'rhea',
      '--kind',
      'human',
      '--role',
      'reader',
      '--grant',
      '*:r',
    ]);
    server = await serve(home);
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

  const signIn = async (secret: string) => {
    await page.goto(`${server.url}/`);
    await page.fill('#token', secret);
    await page.click('button:has-text("Sign in")');
    await page.locator('.principal').waitFor();
  };

  test('an admin lists workspaces and drills into one: tables, row counts and sizes, never a row', async () => {
    await signIn(admin);
    await page.click('nav a:has-text("Workspaces")');
    const list = page.locator('table.workspaces');
    await list.waitFor();
    assert.deepEqual(
      await list.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-agent'))),
      ['agent:other', 'agent:scout'],
    );
    assert.match((await list.locator('tr[data-agent="agent:scout"]').textContent()) ?? '', /v1\s*2/);
    await screenshot(page, 'workspaces-list');
    await page.click('a:has-text("agent:scout")');
    const tables = page.locator('table.tables');
    await tables.waitFor();
    assert.match(page.url(), /\/workspaces\/agent%3Ascout$/);
    assert.match(
      (await tables.locator('tr[data-table="sightings"]').textContent()) ?? '',
      /sightings\s*3\s*\d/,
    );
    assert.match((await tables.locator('tr[data-table="places"]').textContent()) ?? '', /places\s*0/);
    assert.ok(!(await page.content()).includes(ROW), 'the page never shows a row');
    await screenshot(page, 'workspace-detail');
    // A reload at the address works (the console serves its own route).
    await page.reload();
    await tables.waitFor();
    await page.click('button:has-text("Sign out")');
    await page.waitForSelector('#token');
  });

  test('a non-admin person has no Workspaces tab, is refused at the address and by the API', async () => {
    await signIn(reader);
    assert.equal(await page.locator('nav a:has-text("Workspaces")').count(), 0);
    assert.ok((await page.locator('nav a:has-text("Memories")').count()) > 0, 'control: the reader has tabs');
    await page.goto(`${server.url}/workspaces/agent%3Ascout`);
    await page.locator('.error', { hasText: 'permission' }).waitFor();
    assert.ok(!(await page.content()).includes('sightings'), 'no table name leaks');
    const res = await fetch(`${server.url}/v1/workspaces`, {
      headers: { authorization: `Bearer ${reader}` },
    });
    assert.equal(res.status, 403);
  });
});
