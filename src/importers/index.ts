/**
 * Importers from other memory tools: `--from mcp-memory FILE`, `--from mem0 FILE`, `--from markdown DIR`. Each
 * reader turns the foreign file into plain ingest lines with a stable source id; they go through the one import
 * path (`session.import`), so every memory meets the guard, grants, rejection check, gate and corroboration as
 * any write by the importer (I18), and importing the same file again lands nothing twice.
 */
import type { ImportResult } from '../ledger/transfer/import.ts';
import type { ImportOptions } from '../ledger/transfer/import-options.ts';
import type { LedgerSession } from '../ledger/session.ts';
import { parseInput } from '../ledger/parse.ts';
import { scopeSchema } from '../model/scope.ts';
import { type ForeignFormat, foreignFormat } from './formats.ts';
import { readMarkdown } from './markdown.ts';
import { readMcpMemory } from './mcp-memory.ts';
import { readMem0 } from './mem0.ts';
import type { Converted, Reader } from './types.ts';

export type { Converted, ForeignLine, PlainLine } from './types.ts';
export { FOREIGN_FORMATS, type ForeignFormat, foreignFormat } from './formats.ts';

const READERS: Record<ForeignFormat, Reader> = {
  'mcp-memory': readMcpMemory,
  mem0: readMem0,
  markdown: readMarkdown,
};

export interface ImportFromOptions extends Pick<ImportOptions, 'onProgress' | 'signal'> {
  /** Where the memories land: overrides the scope a reader derives (mem0's user id) and the importer's own. */
  scope?: string;
}

/** An import from another tool: the ledger's result, what the reader read, and where each failed line came from. */
export interface ImportFromResult extends ImportResult {
  format: ForeignFormat;
  /** Records of the foreign format: entities and relations, mem0 memories, notes. */
  records: number;
  /** Text left out as not a claim (narration, questions, fragments). */
  dropped: number;
  failed: (ImportResult['failed'][number] & { origin: string })[];
  /** The failed lines grouped by what refused them (a credential, a grant, a malformed field), most first. */
  refused: { class: string; message: string; lines: number }[];
}

/**
 * Reads a foreign file or folder into plain lines without writing anything: all of it, or an `invalid_input`
 * naming the file and line or record that is malformed. What `--dry-run` shows.
 */
export function readForeign(
  format: ForeignFormat,
  path: string,
  options: { scope?: string } = {},
): Converted {
  if (options.scope !== undefined) parseInput(scopeSchema, options.scope, 'scope');
  return READERS[foreignFormat(format)](path, options.scope === undefined ? {} : { scope: options.scope });
}

/**
 * Imports another tool's file as new writes by the session's principal. The file is read whole inside the
 * import call (so a malformed one is refused, and audited, before anything is written); each line that then
 * fails its checks writes nothing and is reported with its origin, and the others go on.
 * @example await importFrom(session, 'mcp-memory', '/home/me/memory.jsonl')
 */
export async function importFrom(
  session: LedgerSession,
  format: ForeignFormat,
  path: string,
  options: ImportFromOptions = {},
): Promise<ImportFromResult> {
  let converted: Converted | undefined;
  // Read on the import's first pull, inside its audited call: a refusal of the file is audited like any other.
  const lines = async function* () {
    converted = READERS[foreignFormat(format)](
      path,
      options.scope === undefined ? {} : { scope: options.scope },
    );
    for (const { line } of converted.lines) yield JSON.stringify(line);
  };
  const result = await session.import(lines(), {
    mode: 'ingest',
    oncePerSource: true,
    file: path.split(/[\\/]/).at(-1) ?? path,
    ...(options.scope === undefined ? {} : { defaultScope: options.scope }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const read = converted ?? { lines: [], records: 0, dropped: 0 };
  return {
    ...result,
    format,
    records: read.records,
    dropped: read.dropped,
    failed: result.failed.map((f) => ({ ...f, origin: read.lines[f.line - 1]?.origin ?? `line ${f.line}` })),
    refused: byReason(result.failed),
  };
}

/** Failures counted per class and message (messages name fields and kinds, never content). */
function byReason(failed: ImportResult['failed']): ImportFromResult['refused'] {
  const groups = new Map<string, ImportFromResult['refused'][number]>();
  for (const f of failed) {
    const k = `${f.class}\0${f.message}`;
    const g = groups.get(k) ?? { class: f.class, message: f.message, lines: 0 };
    g.lines++;
    groups.set(k, g);
  }
  return [...groups.values()].sort((a, b) => b.lines - a.lines);
}
