/**
 * For the console's browser tests: `memledger serve` in a child process on a temporary home, tokens made with
 * the CLI, Debian's Chromium driven by playwright-core, and screenshots saved as test artifacts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { BIN, cli, ok } from '../cli/helpers.ts';

import { CHROMIUM } from '../support/browser.ts';

export { browserSkipReason, CHROMIUM, CONSOLE_INDEX } from '../support/browser.ts';
export const ARTIFACTS = new URL('../../test-artifacts/web/', import.meta.url).pathname;

export interface Served {
  url: string;
  stop(): Promise<void>;
  output(): string;
}

/** Starts `memledger serve --port 0` on a home and resolves with its URL once it listens. */
export function serve(home: string): Promise<Served> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MEMLEDGER_')) env[k] = v;
    const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--home', home], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving (http:\/\/[^\s]+)/.exec(out);
      if (match !== null) {
        child.stdout?.off('data', onData);
        resolve({
          url: match[1]!,
          output: () => out,
          stop: async () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) =>
      reject(new Error(`memledger serve exited ${code} before listening:\n${out}`)),
    );
    child.once('error', reject);
  });
}

/** `memledger token create ... --json` and its secret. */
export async function createToken(home: string, args: string[]): Promise<string> {
  const r = ok(await cli(home, ['token', 'create', ...args, '--json']), `token create ${args.join(' ')}`);
  return r.json<{ secret: string }>().secret;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Saves a full-page screenshot to test-artifacts/web/NAME.png, for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}
