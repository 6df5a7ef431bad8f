/**
 * The importers as the library exports them, loaded on first use: the MCP server and the session hook import
 * the library's root and never pay for the readers (and the miner they call).
 */
import type { LedgerSession } from '../ledger/session.ts';
import type { Converted } from './types.ts';
import type { ForeignFormat } from './formats.ts';
import type { ImportFromOptions, ImportFromResult } from './index.ts';

export { FOREIGN_FORMATS, type ForeignFormat } from './formats.ts';
export type { Converted, ForeignLine, PlainLine } from './types.ts';
export type { ImportFromOptions, ImportFromResult } from './index.ts';

/**
 * Imports another tool's file or folder (`mcp-memory`, `mem0`, `markdown`) as new writes by the session's
 * principal, through the guard, grants, rejection check and gate; importing it again lands nothing twice.
 * @example await importFrom(ledger.as(ledger.operator()), 'mem0', './mem0-export.json')
 */
export async function importFrom(
  session: LedgerSession,
  format: ForeignFormat,
  path: string,
  options: ImportFromOptions = {},
): Promise<ImportFromResult> {
  return (await import('./index.ts')).importFrom(session, format, path, options);
}

/** What an import from another tool would write, without writing: the plain lines and their origins. */
export async function readForeign(
  format: ForeignFormat,
  path: string,
  options: { scope?: string } = {},
): Promise<Converted> {
  return (await import('./index.ts')).readForeign(format, path, options);
}
