/**
 * Planned edits of an agent's configuration files: computed first (so `--dry-run` can show them and write
 * nothing), then applied each by an atomic rename, so an agent reading the file never sees half of it.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemoryError } from '../model/errors.ts';

export interface FileEdit {
  path: string;
  /** The text now, or null when the file does not exist. */
  before: string | null;
  /** The text wanted, or null to remove the file. */
  after: string | null;
  /** What changes, in words: `hooks.SessionStart: memledger hook claude-code`. */
  what: string[];
}

export type EditAction = 'create' | 'update' | 'remove' | 'unchanged';

export function actionOf(edit: FileEdit): EditAction {
  if (edit.before === edit.after) return 'unchanged';
  if (edit.before === null) return 'create';
  if (edit.after === null) return 'remove';
  return 'update';
}

/** The file's text, or null when there is none. Any other failure to read is refused, never taken as empty. */
export function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new MemoryError('upstream', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** Applies the edits that change something. Each file is replaced whole by a rename, keeping its permissions. */
export function applyEdits(edits: readonly FileEdit[]): void {
  for (const edit of edits) {
    const action = actionOf(edit);
    if (action === 'unchanged') continue;
    try {
      if (edit.after === null) {
        rmSync(edit.path, { force: true });
        continue;
      }
      mkdirSync(dirname(edit.path), { recursive: true });
      const temp = `${edit.path}.memledger-${process.pid}.tmp`;
      writeFileSync(temp, edit.after, { mode: 0o600 });
      if (edit.before !== null) chmodSync(temp, statSync(edit.path).mode & 0o7777);
      else chmodSync(temp, 0o644);
      renameSync(temp, edit.path);
    } catch (error) {
      throw new MemoryError('upstream', `cannot write ${edit.path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

/** Parses a JSON settings file, refusing one that is not a JSON object: it is never overwritten blind. */
export function parseJsonObject(path: string, text: string | null): Record<string, unknown> {
  if (text === null || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MemoryError(
      'invalid_input',
      `${path} is not valid JSON (${(error as Error).message}); fix it, then run this again`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MemoryError(
      'invalid_input',
      `${path} does not hold a JSON object; fix it, then run this again`,
    );
  }
  return value as Record<string, unknown>;
}

/** JSON in the file's own indentation (two spaces for a new file, as the agents write it), a final newline. */
export const jsonText = (value: unknown, like: string | null = null): string =>
  `${JSON.stringify(value, null, indentOf(like))}\n`;

function indentOf(text: string | null): string | number {
  if (text === null) return 2;
  if (/\n\t+"/.test(text)) return '\t';
  const spaces = /\n( +)"/.exec(text);
  return spaces === null ? 2 : Math.min(spaces[1]!.length, 8);
}

/** An edit from a changed JSON document: untouched text when nothing changed, no file when it emptied and may go. */
export function jsonEdit(
  path: string,
  before: string | null,
  change: { doc: Record<string, unknown>; what: string[] },
  removeIfEmpty: boolean,
): FileEdit {
  if (change.what.length === 0) return { path, before, after: before, what: [] };
  const after = removeIfEmpty && Object.keys(change.doc).length === 0 ? null : jsonText(change.doc, before);
  return { path, before, after, what: change.what };
}
