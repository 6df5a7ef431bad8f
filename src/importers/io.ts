/** Reading a foreign file whole, as UTF-8 text, with the failure classes the CLI's own files use. */
import { readFileSync, statSync } from 'node:fs';
import { MemoryError } from '../model/errors.ts';

/** Files past this are refused unread: a reader holds its file in memory to check all of it before writing. */
export const MAX_FOREIGN_BYTES = 256 * 1024 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The file's text; a missing file is `not_found`, a folder, a huge or a non-UTF-8 file `invalid_input`. */
export function readText(path: string, what = 'file'): string {
  let bytes: Buffer;
  try {
    const size = statSync(path).size;
    if (size > MAX_FOREIGN_BYTES) {
      throw new MemoryError(
        'invalid_input',
        `${path} is ${size} bytes; an import from another tool reads at most ${MAX_FOREIGN_BYTES}`,
      );
    }
    bytes = readFileSync(path);
  } catch (error) {
    throw fileError(error, path, what);
  }
  try {
    return decoder.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new MemoryError('invalid_input', `${path} is not UTF-8 text`);
  }
}

/** A file-system failure as a MemoryError of the class it deserves. */
export function fileError(error: unknown, path: string, what = 'file'): MemoryError {
  if (error instanceof MemoryError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const message = `cannot read ${what} ${path}: ${code ?? (error as Error).message}`;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new MemoryError('not_found', message, { cause: error });
  if (code === 'EACCES' || code === 'EPERM') return new MemoryError('permission', message, { cause: error });
  if (code === 'EISDIR') return new MemoryError('invalid_input', message, { cause: error });
  return new MemoryError('upstream', message, { cause: error });
}

/** A refusal of the whole input naming where it went wrong (`memory.jsonl:3`); never the record's text. */
export function malformed(where: string, problem: string): MemoryError {
  return new MemoryError('invalid_input', `${where}: ${problem}; nothing was imported`, {
    details: { at: where },
  });
}
