/** Whether the console's browser tests can run here: Debian's Chromium and the built console (no playwright load). */
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';
export const CONSOLE_INDEX = new URL('../../dist/web/index.html', import.meta.url).pathname;

/** Why the browser tests cannot run here, or false when they can. */
export function browserSkipReason(): string | false {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing: apt-get install -y chromium (CI installs it)`;
  if (!existsSync(CONSOLE_INDEX)) return 'the console is not built: run npm run build first (CI does)';
  return false;
}
