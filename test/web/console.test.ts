/**
 * The web console end to end, in real headless Chromium against `memledger serve`: an agent proposes through
 * MCP, a reviewer edits, approves and rejects in the browser, and what the reviewer decided is what the agent
 * reads next; history, the memory browser, the audit feed and erasure; and who may not do what (I5, I7, I9).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Memory } from '../../src/index.ts';
import type { WhoAmI } from '../../src/ledger/whoami.ts';
import { cli, ok } from '../cli/helpers.ts';
import { callTool, type Connected, dataOf, httpClient } from '../mcp/helpers.ts';
import { browserSkipReason, createToken, launchChromium, type Served, screenshot, serve } from './helpers.ts';

const skip = browserSkipReason();

interface Saved {
  id: string;
  state: string;
  reason: string | null;
}
/** The few browser globals the tests read inside the page (the tests compile without the DOM library). */
interface PageGlobals {
  document: {
    activeElement: { getAttribute(name: string): string | null } | null;
    querySelectorAll(selector: string): Iterable<{ textContent: string | null }>;
  };
}
interface Hit {
  id: string;
  body: string;
}

describe('web console in headless Chromium', { skip }, () => {
  let home: string;
  let server: Served;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let tokens: { reviewer: string; admin: string; reader: string; agent: string };
  let agent: Connected;
  /** Ids the later steps need, filled in as the story goes. */
  const ids: { owned: string; planProposal: string; ceoProposal: string; edited: string; late: string } = {
    owned: '',
    planProposal: '',
    ceoProposal: '',
    edited: '',
    late: '',
  };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'memledger-web-'));
    const args = (line: string) => line.split(' ');
    const [reviewer, admin, reader, agentSecret, owned] = await Promise.all([
      createToken(
        home,
        args('--name rita --kind human --role reader --role writer --role reviewer --grant *:rw'),
      ),
      createToken(home, args('--name ada --kind human --role admin --grant *:rw')),
      createToken(home, args('--name rhea --kind human --role reader --grant *:r')),
      createToken(home, args('--name scout --kind agent --grant agent:{self}:rw --grant shared:rw')),
      // A person set the plan: the key is theirs, so the agent's change to it is held for review.
      cli(home, [
        'remember',
        'Acme is on the Starter plan',
        ...args('--scope shared --key acme.plan --subject company:acme --json'),
      ]),
    ]);
    tokens = { reviewer, admin, reader, agent: agentSecret };
    ids.owned = ok(owned, 'remember').json<{ id: string }>().id;
    server = await serve(home);
    agent = await httpClient(server.url, tokens.agent, { name: 'scout-cli', version: '1.4.0' });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
  });

  after(async () => {
    await agent?.close();
    await browser?.close();
    await server?.stop();
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
  });

  const propose = async (who: Connected, args: Record<string, unknown>, runId: string): Promise<Saved> => {
    const r = await callTool(who.client, 'save_memory', args, { 'memledger/runId': runId });
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    return dataOf<Saved>(r);
  };
  const agentSearch = async (query: string): Promise<Hit[]> =>
    dataOf<{ results: Hit[] }>(await callTool(agent.client, 'search_memory', { query })).results;
  const apiAs = (secret: string, path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const json = async <T>(res: Promise<Response>): Promise<T> => (await res).json() as Promise<T>;
  const signIn = async (secret: string) => {
    await page.goto(`${server.url}/`);
    await page.fill('#token', secret);
    await page.click('button:has-text("Sign in")');
  };
  const signOut = async () => {
    await page.click('button:has-text("Sign out")');
    await page.waitForSelector('#token');
  };

  test('I7 an agent token cannot sign in: the API names it an agent and the console refuses it', async () => {
    const who = await json<WhoAmI>(apiAs(tokens.agent, '/v1/whoami'));
    assert.equal(who.kind, 'agent');
    assert.equal(who.may.review, false);
    await signIn(tokens.agent);
    const alert = page.locator('.error[role=alert]');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /agent:scout is an agent: the console is for people/);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'the refused token is not kept');
    assert.equal(await page.locator('nav').count(), 0, 'no console behind the refusal');
    await screenshot(page, 'signin-agent-refused');
  });

  test('a reviewer signs in and sees the held proposals an agent made through MCP, grouped by run', async () => {
    const plan = await propose(
      agent,
      {
        body: 'Acme moved to the Pro plan in March',
        scope: 'shared',
        key: 'acme.plan',
        subjects: ['company:acme'],
      },
      'run-41',
    );
    const ceo = await propose(
      agent,
      {
        body: 'The CEO of Acme is Wile E. Coyote',
        scope: 'shared',
        key: 'acme.ceo',
        subjects: ['company:acme'],
      },
      'run-41',
    );
    assert.equal(plan.state, 'held');
    assert.equal(ceo.state, 'held');
    ids.planProposal = plan.id;
    ids.ceoProposal = ceo.id;

    await signIn(tokens.reviewer);
    await page.waitForURL(/\/review$/);
    assert.ok(!page.url().includes(tokens.reviewer), 'the token never appears in a URL');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('memledger.token')), tokens.reviewer);
    const group = page.locator('section.group[data-agent="agent:scout"][data-run="run-41"]');
    await group.waitFor();
    assert.equal(await group.locator('[data-item]').count(), 2);
    await page.locator('.count[data-pending="2"]').waitFor();
    await page.click(`[data-item="${plan.id}"]`);
    const proposal = page.locator(`article.proposal[data-id="${plan.id}"]`);
    // Why it waits: the ownership rule, naming the person whose key it is; and what it would replace.
    await proposal.locator('.rule[data-rule="ownership"]').waitFor();
    await proposal.locator('.owner', { hasText: 'human:' }).waitFor();
    await proposal.locator('.diff del', { hasText: 'Starter' }).waitFor();
    const facts = (await proposal.locator('dl.facts').textContent()) ?? '';
    for (const expected of ['agent:scout', 'run-41', 'scout-cli/1.4.0', 'mcp'])
      assert.ok(facts.includes(expected), facts);
    // The reviewer has no admin role: no erase or audit screen is offered.
    assert.deepEqual(await page.locator('nav a').allTextContents(), [
      'Review2',
      'Memories',
      'Commitments',
      'Summaries',
      'Behaviors',
    ]);
    await screenshot(page, 'review-queue');
  });

  test('I5 edit and approve: the edited version lands and the agent next search_memory returns it', async () => {
    const proposal = page.locator(`article.proposal[data-id="${ids.planProposal}"]`);
    await page.keyboard.press('e');
    const body = proposal.locator('[data-field="body"]');
    const focused = await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).document.activeElement?.getAttribute('data-field'),
    );
    assert.equal(focused, 'body');
    await body.fill('Acme moved to the Enterprise plan in March 2025');
    await proposal.locator('[data-field="value"]').fill('{"plan": "enterprise"}');
    await proposal.locator('.field.edited').first().waitFor();
    await proposal.locator('.diff ins', { hasText: 'Enterprise' }).first().waitFor();
    await screenshot(page, 'review-edit');
    await proposal.locator('button', { hasText: 'Approve with edits' }).click();
    const done = page.locator('ul.done li', { hasText: 'approved with edits' });
    await done.waitFor();
    ids.edited = ((await done.locator('a').textContent()) ?? '').trim();
    assert.match(ids.edited, /^mem_/);
    assert.notEqual(ids.edited, ids.planProposal);
    await page.locator('.count[data-pending="1"]').waitFor();

    const edited = await json<Memory>(apiAs(tokens.reviewer, `/v1/memories/${ids.edited}`));
    assert.equal(edited.body, 'Acme moved to the Enterprise plan in March 2025');
    assert.deepEqual(edited.value, { plan: 'enterprise' });
    assert.equal(edited.editOf, ids.planProposal);
    assert.equal(edited.state, 'active');
    assert.equal(edited.provenance.principal, 'human:rita');
    const hits = await agentSearch('Acme plan');
    assert.equal(hits[0]?.id, ids.edited, JSON.stringify(hits));
    assert.ok(
      !hits.some((h) => h.id === ids.owned || h.id === ids.planProposal),
      'old and proposed versions are not current',
    );
  });

  test('I5 reject with a reason; the same claim re-proposed from a new MCP session lands as rejected', async () => {
    const proposal = page.locator(`article.proposal[data-id="${ids.ceoProposal}"]`);
    await proposal.waitFor();
    await page.keyboard.press('r');
    await proposal.locator('input[id$="-reason"]:focus').waitFor();
    await page.keyboard.type('Wile E. Coyote is a cartoon character, not the CEO');
    await page.keyboard.press('Enter');
    await page.locator('ul.done li', { hasText: 'rejected' }).waitFor();
    await page.locator('.count[data-pending="0"]').waitFor();

    // Live: a proposal made while the console is open appears without a reload.
    const fresh = await httpClient(server.url, tokens.agent, { name: 'scout-cli', version: '1.4.1' });
    try {
      const late = await propose(
        fresh,
        { body: 'Acme renews every April', scope: 'shared', subjects: ['company:acme'] },
        'run-42',
      );
      ids.late = late.id;
      await page.locator(`[data-item="${late.id}"]`).waitFor();
      await page.locator('.count[data-pending="1"]').waitFor();
      const again = await propose(
        fresh,
        {
          body: 'The CEO of Acme is Wile E. Coyote',
          scope: 'shared',
          key: 'acme.ceo',
          subjects: ['company:acme'],
        },
        'run-42',
      );
      assert.equal(again.state, 'rejected');
      assert.match(again.reason ?? '', /rejected .* by human:rita: Wile E\. Coyote is a cartoon character/);
      const queue = await json<{ memories: Memory[] }>(apiAs(tokens.reviewer, '/v1/review'));
      assert.deepEqual(
        queue.memories.map((m) => m.id),
        [late.id],
        'the re-proposal is not queued; control: the other proposal of the run is',
      );
    } finally {
      await fresh.close();
    }
    await page.click('nav a:has-text("Memories")');
    await page.fill('input[name="key"]', 'acme.ceo');
    await page.check('fieldset.chips label:has-text("rejected") input');
    await page.click('button:has-text("List")');
    await page.locator('table.results tbody tr').nth(1).waitFor();
    assert.equal(
      await page.locator('table.results tbody tr').count(),
      2,
      'the rejection and the re-proposal',
    );
    await screenshot(page, 'memories-rejected');
  });

  test('the history timeline shows every version, who decided what, and both clocks', async () => {
    await page.goto(`${server.url}/memories/${ids.edited}`);
    const timeline = page.locator('ol.timeline');
    await timeline.waitFor();
    assert.equal(await timeline.locator('li.tl-version').count(), 3, 'the person, the proposal, the edit');
    await timeline.locator('li[data-event="approved"]', { hasText: 'human:rita' }).waitFor();
    await timeline.locator('li[data-event="held"]', { hasText: 'ownership' }).waitFor();
    await timeline.locator('li[data-event="superseded"]').first().waitFor();
    await timeline.locator('li[data-event="approved"]', { hasText: 'edited as' }).waitFor();
    const here = timeline.locator(`li[data-version="${ids.edited}"]`);
    const text = (await here.textContent()) ?? '';
    assert.match(text, /recorded by human:rita/);
    assert.match(text, /valid/);
    assert.match(text, /edit of/);
    await page.locator('section.about', { hasText: 'company:acme' }).waitFor();
    await screenshot(page, 'memory-history');
  });

  test('I7 a human without the reviewer role cannot approve: 403 from the API, no approve control in the console', async () => {
    const refused = await apiAs(tokens.reader, `/v1/review/${ids.late}/approve`, {
      method: 'POST',
      body: {},
    });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { class: string } }).error.class, 'permission');
    await signOut();
    await signIn(tokens.reader);
    await page.waitForURL(/\/memories$/);
    assert.deepEqual(await page.locator('nav a').allTextContents(), [
      'Memories',
      'Commitments',
      'Summaries',
      'Behaviors',
    ]);
    await page.goto(`${server.url}/review`);
    await page.locator('.error[role=alert]', { hasText: 'needs the reviewer role' }).waitFor();
    assert.equal(await page.locator('button', { hasText: 'Approve' }).count(), 0);
    await screenshot(page, 'reader-no-review');
    // control: the same held write, the same console, a reviewer: the control is there.
    await signOut();
    await signIn(tokens.reviewer);
    await page
      .locator(`article.proposal[data-id="${ids.late}"] button`, { hasText: 'Approve as proposed' })
      .waitFor();
    assert.equal((await json<Memory>(apiAs(tokens.reviewer, `/v1/memories/${ids.late}`))).state, 'held');
  });

  test('batch verdicts: approve every proposal of one run, reject every proposal of another with one reason', async () => {
    const batch = await httpClient(server.url, tokens.agent, { name: 'scout-cli', version: '1.4.2' });
    const acme = (body: string) => ({ body, scope: 'shared', subjects: ['company:acme'] });
    let seats: Saved;
    let yearly: Saved;
    let lyon: Saved;
    try {
      seats = await propose(batch, acme('Acme has 40 seats'), 'run-43');
      yearly = await propose(batch, acme('Acme pays yearly'), 'run-43');
      lyon = await propose(batch, acme('Acme is based in Lyon'), 'run-43');
    } finally {
      await batch.close();
    }
    const run43 = page.locator('section.group[data-run="run-43"]');
    await run43.locator('[data-item]').nth(2).waitFor();
    // The keyboard path: j and k move through the queue (newest first), a approves the selected one as proposed.
    const selected = (id: string) => page.locator(`[data-item="${id}"][aria-current="true"]`).waitFor();
    await page.click(`[data-item="${lyon.id}"]`);
    await page.keyboard.press('j');
    await selected(yearly.id);
    await page.keyboard.press('k');
    await selected(lyon.id);
    await page.locator(`article.proposal[data-id="${lyon.id}"]`).waitFor();
    await page.keyboard.press('a');
    await page.locator('ul.done li', { hasText: 'Acme is based in Lyon' }).waitFor();
    assert.equal((await json<Memory>(apiAs(tokens.reviewer, `/v1/memories/${lyon.id}`))).state, 'active');
    await run43.locator('[data-item]').nth(1).waitFor();
    await page.keyboard.press('?');
    await page.locator('[role=dialog][aria-label="keyboard shortcuts"]').waitFor();
    await screenshot(page, 'review-batch-and-shortcuts');
    await page.keyboard.press('Escape');
    await page.locator('[role=dialog]').waitFor({ state: 'detached' });

    await run43.locator('button', { hasText: 'Approve all 2' }).click();
    await run43.waitFor({ state: 'detached' });
    for (const id of [seats.id, yearly.id]) {
      assert.equal((await json<Memory>(apiAs(tokens.reviewer, `/v1/memories/${id}`))).state, 'active');
    }
    const run42 = page.locator('section.group[data-run="run-42"]');
    await run42.locator('button', { hasText: 'Reject all' }).click();
    await run42
      .locator('input[aria-label="reason for rejecting the run"]')
      .fill('renewal dates come from the CRM only');
    await run42.locator('button', { hasText: 'Reject 1' }).click();
    await run42.waitFor({ state: 'detached' });
    assert.equal((await json<Memory>(apiAs(tokens.reviewer, `/v1/memories/${ids.late}`))).state, 'rejected');
    await page.locator('.count[data-pending="0"]').waitFor();
    await page.locator('.empty', { hasText: 'Nothing waits for review' }).waitFor();
  });

  test('the audit feed filters by principal, outcome and failure class, with failures counted per tool', async () => {
    // A refused call to count: the agent token reaching for the review queue.
    assert.equal((await apiAs(tokens.agent, '/v1/review')).status, 403);
    await signOut();
    await signIn(tokens.admin);
    await page.click('nav a:has-text("Audit")');
    const failures = page.locator('table.failures');
    await failures.locator('tr', { hasText: 'GET /v1/review' }).waitFor();
    await page.fill('input[name="principal"]', 'agent:scout');
    await page.selectOption('select[name="outcome"]', 'error');
    await page.selectOption('select[name="failureClass"]', 'permission');
    await page.click('button:has-text("Filter")');
    const rows = page.locator('table.audit tbody tr');
    // A function, not a string: the console's CSP forbids evaluating strings, and Playwright's poll runs in the page.
    await page.waitForFunction(() => {
      const rows = [
        ...(globalThis as unknown as PageGlobals).document.querySelectorAll('table.audit tbody tr'),
      ];
      return rows.length > 0 && rows.every((r) => r.textContent?.includes('agent:scout'));
    });
    for (const row of await rows.all()) {
      assert.equal(await row.getAttribute('data-outcome'), 'error');
      assert.match((await row.textContent()) ?? '', /agent:scout.*permission/s);
    }
    // control: without the outcome filter, the agent's successful calls show too.
    await page.selectOption('select[name="outcome"]', '');
    await page.selectOption('select[name="failureClass"]', '');
    await page.click('button:has-text("Filter")');
    await page.locator('table.audit tbody tr[data-outcome="ok"]').first().waitFor();
    await screenshot(page, 'audit');
  });

  test('I5 a reviewer lifts a rejection on purpose from the memory page; only then may the claim be proposed again', async () => {
    const ceo = {
      body: 'The CEO of Acme is Wile E. Coyote',
      scope: 'shared',
      key: 'acme.ceo',
      subjects: ['company:acme'],
    };
    const before = await propose(agent, ceo, 'run-44');
    assert.equal(before.state, 'rejected', 'control: the rejection stands until it is lifted');
    await page.goto(`${server.url}/memories/${ids.ceoProposal}`);
    const form = page.locator('form.unreject');
    await form.waitFor();
    assert.equal(await form.locator('button').isDisabled(), true, 'a reason is required');
    await form.locator('input[name="reason"]').fill('Acme named the coyote CEO after all');
    await form.locator('button').click();
    await page.locator('li[data-event="unrejected"]', { hasText: 'Acme named the coyote CEO' }).waitFor();
    const after = await propose(agent, ceo, 'run-44');
    assert.equal(after.state, 'held', 'reviewed like any write again');
    const refused = await apiAs(tokens.reader, `/v1/review/${ids.ceoProposal}/unreject`, {
      method: 'POST',
      body: { reason: 'a reader tries' },
    });
    assert.equal(refused.status, 403, 'a human without the reviewer role cannot lift one');
  });

  test('I9 erase a subject: preview, typed confirmation, and it is gone from search', async () => {
    await page.click('nav a:has-text("Erase")');
    await page.fill('input[name="subject"]', 'company:acme');
    await page.click('button:has-text("Preview")');
    const preview = page.locator('section.preview');
    await preview.locator('table.results').waitFor();
    const shown = await preview.locator('tbody tr').count();
    assert.ok(shown >= 5, `every version about company:acme is listed (${shown})`);
    const erase = preview.locator('button', { hasText: 'Erase' });
    const armed = () => preview.locator('button:not([disabled])', { hasText: 'Erase' }).waitFor();
    const disarmed = () => preview.locator('button[disabled]', { hasText: 'Erase' }).waitFor();
    await disarmed();
    await page.fill('#erase-confirm', 'company:acme');
    await armed();
    await page.fill('#erase-confirm', 'company:acm');
    await disarmed(); // a near miss does not confirm
    await page.fill('#erase-confirm', 'company:acme');
    await armed();
    await screenshot(page, 'erase-preview');
    await erase.click();
    await page.locator('.success', { hasText: 'Erased' }).waitFor();
    await screenshot(page, 'erase-done');

    assert.deepEqual(await agentSearch('Acme'), []);
    await page.click('nav a:has-text("Memories")');
    await page.click('button:has-text("Clear")');
    await page.fill('input[name="query"]', 'Acme');
    await page.click('button:has-text("Search")');
    await page.locator('.empty', { hasText: 'No memories match' }).waitFor();
    await screenshot(page, 'memories-after-erase');
  });
});
