/**
 * How `memledger serve` serves the console: files from the build with their content types and a strict CSP,
 * index.html for the console's client routes, the API's own 404 for everything else, and a clear page when the
 * console is not built. Runs on a small stand-in build, so it needs neither Vite nor a browser.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { TokenStore } from '../../src/auth/token-store.ts';
import { type Ledger, openLedger } from '../../src/index.ts';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/app.ts';
import { CLIENT_ROUTES } from '../../src/surfaces/http/console.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';

const INDEX = '<!doctype html><div id="app"></div><script type="module" src="/assets/app-1a2b.js"></script>';

describe('the console is served from the build', () => {
  let home: ReturnType<typeof tempHome>;
  let build: string;
  let empty: string;
  let ledger: Ledger;
  let tokens: TokenStore;
  let http: HttpApp;
  let unbuilt: HttpApp;
  let secret: string;

  before(async () => {
    home = tempHome('console');
    build = mkdtempSync(join(tmpdir(), 'memledger-console-build-'));
    empty = mkdtempSync(join(tmpdir(), 'memledger-console-empty-'));
    mkdirSync(join(build, 'assets'));
    writeFileSync(join(build, 'index.html'), INDEX);
    writeFileSync(join(build, 'assets', 'app-1a2b.js'), 'console.log("console")');
    writeFileSync(join(build, 'assets', 'app-1a2b.css'), 'body{margin:0}');
    writeFileSync(join(build, 'assets', 'notes.secret'), 'not a web file');
    secret = (
      await makeTokens(home.home, {
        r: { name: 'rhea', kind: 'human', roles: ['reader'], grants: ['shared:r'] },
      })
    ).r!.secret;
    ledger = openLedger({ home: home.home });
    tokens = openTokenStore(home.home);
    http = createHttpApp({ ledger, tokens, consoleDir: build });
    unbuilt = createHttpApp({ ledger, tokens, consoleDir: empty });
  });
  after(async () => {
    await http.close();
    await unbuilt.close();
    tokens.close();
    ledger.close();
    home.cleanup();
    rmSync(build, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  const auditCount = async () =>
    (await ledger.as(ledger.operator()).audit({ limit: 10_000 })).filter((r) => r.surface === 'http').length;

  test('files are served with their content types; hashed assets are cached for good, the page is not', async () => {
    const page = await http.app.request('/');
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    assert.equal(await page.text(), INDEX);
    const js = await http.app.request('/assets/app-1a2b.js');
    assert.equal(js.status, 200);
    assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(
      (await http.app.request('/assets/app-1a2b.css')).headers.get('content-type'),
      'text/css; charset=utf-8',
    );
    const head = await http.app.request('/assets/app-1a2b.js', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'text/javascript; charset=utf-8');
  });

  test('every console response carries a strict Content-Security-Policy and refuses framing and sniffing', async () => {
    for (const path of ['/', '/review', '/assets/app-1a2b.js']) {
      const res = await http.app.request(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/, path);
      assert.match(csp, /script-src 'self'(;|$)/, path);
      assert.match(csp, /connect-src 'self'/, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/, path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    }
  });

  test('client routes load the page; other paths, other methods and unlisted files get the API 404', async () => {
    for (const path of [
      '/review',
      '/memories',
      `/memories/mem_${'0'.repeat(22)}`,
      '/audit',
      '/erase',
      '/signin',
    ]) {
      assert.ok(CLIENT_ROUTES.test(path), path);
      const res = await http.app.request(path);
      assert.equal(res.status, 200, path);
      assert.equal(await res.text(), INDEX, path);
    }
    const before = await auditCount();
    for (const [method, path] of [
      ['GET', '/nope'],
      ['GET', '/assets/missing.js'],
      ['GET', '/assets/notes.secret'],
      ['GET', '/assets/../index.html/../../package.json'],
      ['GET', '/memories/not-an-id'],
      ['POST', '/review'],
    ] as const) {
      const res = await http.app.request(path, { method });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(((await res.json()) as { error: { class: string } }).error.class, 'not_found');
    }
    // The unknown routes are audited as the API audits them; the page loads above were not (no data touched).
    assert.equal((await auditCount()) - before, 6);
  });

  test('the API is untouched by the console: a token still reaches /v1 and /v1 paths never fall back to the page', async () => {
    const res = await http.app.request('/v1/whoami', { headers: { authorization: `Bearer ${secret}` } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal((await http.app.request('/v1/review-console')).status, 404);
    assert.equal((await http.app.request('/openapi.json')).headers.get('content-type'), 'application/json');
  });

  test('without a build, the console paths explain how to build it and the API still works', async () => {
    const res = await unbuilt.app.request('/');
    assert.equal(res.status, 503);
    assert.match(await res.text(), /npm run build/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.equal((await unbuilt.app.request('/assets/app-1a2b.js')).status, 404);
    // control: the same app answers the API
    const api = await unbuilt.app.request('/v1/whoami', { headers: { authorization: `Bearer ${secret}` } });
    assert.equal(api.status, 200);
  });
});
