/**
 * The folder a new feed is to read: it must exist, be a folder (every connector walks one), and be readable.
 * `feeds add` refuses anything else with `invalid_input` naming the problem, so a typo is caught when it is
 * made, not by every sync after it.
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { MemoryError } from '../model/errors.ts';

export function checkFeedFolder(path: string, connector: string): void {
  const refuse = (problem: string, cause?: unknown) =>
    new MemoryError('invalid_input', `feed path ${path} ${problem}`, {
      details: { fields: ['path'] },
      ...(cause === undefined ? {} : { cause }),
    });
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw refuse('does not exist', error);
    if (code === 'ENOTDIR') throw refuse('does not exist (a part of it is a file)', error);
    throw refuse(`cannot be read (${code ?? (error as Error).message})`, error);
  }
  if (!isDirectory) throw refuse(`is a file; a ${connector} feed reads a folder`);
  try {
    accessSync(path, constants.R_OK | constants.X_OK);
    readdirSync(path);
  } catch (error) {
    throw refuse(`is not readable (${(error as NodeJS.ErrnoException).code ?? 'denied'})`, error);
  }
}
