/**
 * How an import is run and stopped: progress, where to start, and an AbortSignal checked between batches. An
 * aborted import ends with `ImportInterrupted` after the batch in flight (batches are transactions, so nothing
 * is half-written), naming the last line that landed and the line to resume from.
 */
import { z } from 'zod';
import { MemoryError } from '../../model/errors.ts';
import { scopeSchema } from '../../model/scope.ts';
import type { ImportResult } from './import.ts';

/** What an import is: new writes by the importer (ingest), or an admin's restore of another home's history. */
export const importModeSchema = z
  .object({
    mode: z.enum(['ingest', 'restore']).default('ingest'),
    /** Where plain lines without a scope land. Default: the importer's own scope. */
    defaultScope: scopeSchema.optional(),
    /** The file's name, for the restore stamps. */
    file: z.string().max(500).optional(),
    /**
     * Plain lines that name a source item (connector and id) land once per item and scope, as an export's
     * memory lines do: what a reader of another tool's file sets (src/importers/), so importing it twice lands
     * nothing twice and a rejected item stays where its verdict left it. Off, a repeated plain line corroborates.
     */
    oncePerSource: z.boolean().optional(),
  })
  .strict();

export interface ImportOptions extends z.input<typeof importModeSchema> {
  /** Called after each batch commits, with the totals so far. */
  onProgress?: (result: ImportResult) => void;
  /** Stops the import after the batch in flight; `reason` names what stopped it (`SIGINT`). */
  signal?: AbortSignal;
  /** Start at this line of the input (1-based); earlier lines are not read. Line numbers stay the input's. */
  fromLine?: number;
}

/**
 * An import stopped by its signal. Its class is `upstream`: something outside the ledger (an operator's Ctrl-C,
 * a service manager's SIGTERM) stopped a call whose input was fine, and running it again from `resumeFrom`
 * finishes it; it is neither the caller's bad input nor our bug.
 */
export class ImportInterrupted extends MemoryError {
  /** Totals of the batches that landed. */
  readonly result: ImportResult;
  /** The last input line whose batch committed (0 when none did). */
  readonly through: number;
  readonly resumeFrom: number;
  readonly by: string;

  constructor(result: ImportResult, through: number, reason: unknown) {
    const by = typeof reason === 'string' && /^[\w.-]{1,40}$/.test(reason) ? reason : 'abort';
    super(
      'upstream',
      `import interrupted (${by}) after line ${through}: lines up to it are done, nothing after it was written; resume from line ${through + 1}`,
      { details: { through, resumeFrom: through + 1, interrupted: by } },
    );
    this.result = result;
    this.through = through;
    this.resumeFrom = through + 1;
    this.by = by;
  }
}

/** Refuses a start line that is not a whole number from 1: it would silently import from somewhere else. */
export function checkImportOptions(options: ImportOptions): void {
  const from = options.fromLine;
  if (from !== undefined && !(Number.isSafeInteger(from) && from >= 1)) {
    throw new MemoryError('invalid_input', `fromLine must be a whole number from 1, got ${String(from)}`, {
      details: { fields: ['fromLine'] },
    });
  }
}

/** What an import's audit record keeps of its progress: counts only. */
export function importCounts(r: ImportResult): Record<string, number> {
  return {
    lines: r.lines,
    imported: r.imported,
    skipped: r.skipped,
    held: r.held,
    rejected: r.rejected,
    corroborated: r.corroborated,
    failed: r.failed.length,
  };
}
