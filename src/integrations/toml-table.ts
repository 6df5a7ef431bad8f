/**
 * Adding and removing one table of a TOML file (Codex's `[mcp_servers.memledger]`) while keeping the rest of
 * the file byte for byte, comments included. smol-toml parses the file before and after every edit and
 * serialises the table: the text is only ever cut at table headers, and an edit whose result does not parse to
 * exactly the intended document falls back to re-serialising the whole document (which keeps every setting but
 * not comments), so a configuration is never left broken.
 */
import { parse, stringify } from 'smol-toml';
import { MemoryError } from '../model/errors.ts';

type Doc = Record<string, unknown>;

const MARKER =
  '# memledger: added by `memledger install codex`; `memledger uninstall codex` removes this table';

/** The text with `[parent.name]` set to `value`; the same text when it already is. */
export function withTable(
  path: string,
  text: string | null,
  parent: string,
  name: string,
  value: Doc,
): string {
  const before = parseToml(path, text ?? '');
  const current = (before[parent] as Doc | undefined)?.[name];
  if (current !== undefined && same(current, value)) return text ?? '';
  const stripped = current === undefined ? (text ?? '') : cutTable(text ?? '', parent, name);
  const block = `${MARKER}\n${stringify({ [parent]: { [name]: value } }).trim()}\n`;
  const joined = stripped.trim() === '' ? block : `${stripped.replace(/\s*$/, '\n')}\n${block}`;
  const intended = { ...before, [parent]: { ...((before[parent] as Doc | undefined) ?? {}), [name]: value } };
  return verified(path, joined, intended);
}

/** The text without `[parent.name]` (and its subtables); the same text when there is none. */
export function withoutTable(path: string, text: string | null, parent: string, name: string): string | null {
  if (text === null) return null;
  const before = parseToml(path, text);
  const siblings = before[parent] as Doc | undefined;
  if (siblings === undefined || !(name in siblings)) return text;
  const rest = { ...siblings };
  delete rest[name];
  const intended: Doc = { ...before, [parent]: rest };
  if (Object.keys(rest).length === 0) delete intended[parent];
  const cut = cutTable(text, parent, name);
  return verified(path, cut.trim() === '' ? '' : cut, intended);
}

export function readTable(path: string, text: string | null, parent: string, name: string): unknown {
  if (text === null) return undefined;
  return (parseToml(path, text)[parent] as Doc | undefined)?.[name];
}

function parseToml(path: string, text: string): Doc {
  try {
    return parse(text) as Doc;
  } catch (error) {
    throw new MemoryError(
      'invalid_input',
      `${path} is not valid TOML (${(error as Error).message}); fix it, then run this again`,
    );
  }
}

/** The edited text if it parses to the intended document; otherwise the whole document serialised afresh. */
function verified(path: string, text: string, intended: Doc): string {
  try {
    if (same(parse(text), intended)) return text;
  } catch {
    // fall through to the safe rewrite
  }
  const whole = stringify(intended);
  if (!same(parseToml(path, whole), intended)) {
    throw new MemoryError('internal', `could not edit ${path} safely; it was left as it was`);
  }
  return whole;
}

/**
 * Removes the lines of `[parent.name]` and its subtables: from the header (with this tool's marker comment just
 * above it) to the next header of another table.
 */
function cutTable(text: string, parent: string, name: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
    if (header !== null) inside = isWithin(header[1]!, parent, name);
    if (inside) continue;
    out.push(line);
  }
  // The marker comment sits right above the table it names.
  for (let i = out.length - 1; i >= 0; i--) if (out[i] === MARKER) out.splice(i, 1);
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** Is the dotted header `a.b.c` (keys maybe quoted) the table `parent.name` or below it? */
function isWithin(header: string, parent: string, name: string): boolean {
  const keys = header.split('.').map((k) => k.trim().replace(/^"(.*)"$|^'(.*)'$/, '$1$2'));
  return keys[0] === parent && keys[1] === name;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value as Doc)
        .sort()
        .map((k) => [k, sorted((value as Doc)[k])]),
    );
  }
  return value;
}
