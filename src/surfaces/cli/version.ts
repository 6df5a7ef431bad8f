/** memledger's own version, read from the package.json beside src/ or dist/ (the one that ships with it). */
import { readFileSync } from 'node:fs';

export function memledgerVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
