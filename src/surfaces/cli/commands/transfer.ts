/**
 * `memledger export | import`: JSONL out (stdout or an atomic file) and in (a file or stdin), streamed; and
 * `import --from FORMAT` from another memory tool's file (src/importers/).
 */
import { basename } from 'node:path';
import { containsSecret, maskSecrets } from '../../../guard/secrets.ts';
import { FOREIGN_FORMATS, foreignFormat } from '../../../importers/formats.ts';
import type { Converted, ImportFromResult, PlainLine } from '../../../importers/index.ts';
import type { ImportResult } from '../../../ledger/transfer/import.ts';
import { ImportInterrupted } from '../../../ledger/transfer/import-options.ts';
import { MemoryError } from '../../../model/errors.ts';
import { optFlag, optInt, optString } from '../args.ts';
import type { CliContext, CliIO, Values } from '../command.ts';
import { defineCommand } from '../command.ts';
import { chunked, type ImportLines, readLines, writeFileAtomically } from '../files.ts';
import { clean, plural } from '../render.ts';
import { abortOnSignals } from '../signals.ts';

export const exportCommand = defineCommand<{ out: string; lines: number } | undefined>({
  name: 'export',
  summary: 'write every memory you may read, with its events, as JSONL',
  usage: `memledger export [--out FILE]
  One JSON document per line (format memledger/v3): a header, every memory you may read in every state with
  its events (oldest first), then the rejections on them (standing or lifted), the claims on keys, the
  erasure records, and the plans: commitments' lifecycle, summary chains and their links, and (for a human
  admin) behaviors with every version, their fired windows and runs. Without --out it goes to stdout; with
  --out the file appears whole or not at all.`,
  options: { out: { type: 'string' } },
  async run(ctx, _args, values) {
    const out = optString(values, 'out');
    let lines = 0;
    const counted = async function* (source: AsyncIterable<string>) {
      for await (const line of source) {
        lines++;
        yield line;
      }
    };
    const source = chunked(counted(ctx.session().export()));
    if (out === undefined) {
      await writeAll(ctx.io.stdout, source);
      return undefined;
    }
    await writeFileAtomically(out, source);
    return { out, lines };
  },
  render: (r) =>
    r === undefined
      ? ''
      : `exported ${plural(r.lines, 'line')} (a header, the memories with their events, rejections, claims, erasures, plans) to ${r.out}\n`,
});

/** An import's summary; `interrupted` when a signal stopped it, with where to pick up. */
export type ImportOutput = ImportResult & {
  interrupted?: { by: string; through: number; resumeFrom: number; resume: string };
};

/** What `import --from` prints: the import's summary, or with --dry-run the lines it would write. */
type ForeignOutput = ImportFromResult | ({ dryRun: true; format: string } & Converted) | ImportOutput;

export const importCommand = defineCommand<ImportOutput | ForeignOutput>({
  name: 'import',
  summary:
    'bring memories in from JSONL (an export, or plain {"body": ...} lines) or from another memory tool (--from)',
  usage: `memledger import FILE|- [--scope S] [--restore] [--from-line N]
memledger import --from ${FOREIGN_FORMATS.join('|')} FILE|DIR [--scope S] [--dry-run]
  Every line is a new write by you: your provenance, your grants, the credential guard, standing
  rejections and the write gate. A line is a memledger export line (its current and held memories are
  written; history and other people's verdicts stay behind) or a plain memory:
    {"body": "...", "scope"?, "kind"?, "key"?, "value"?, "subjects"?, "validFrom"?, "validTo"?,
     "confidence"?, "source"?}
  Plain lines without a scope land in --scope (default: your own scope). Importing an export twice lands
  nothing twice; a plain line written again corroborates the memory it repeats.
  --restore (a human with the admin role only): bring another home's history as it was: memories in
  every state with their events, rejections, claims, corrections and erasure records, each stamped as
  restored by you from FILE.
  --from-line N     start at line N of the input (lines before it are not read)
  --from mcp-memory FILE   the MCP reference memory server's memory.jsonl: each observation a fact
                           about its entity (subject type:name), each relation a fact about both ends
  --from mem0 FILE         a mem0 get_all export ({"results": [...]} or an array): user/agent ids as the
                           scope, ids and categories as subjects, metadata as the value, mem0's times as
                           valid time (validFrom)
  --from markdown DIR      a folder of notes (Basic Memory, Obsidian): one claim per memory; front matter
                           and headings give kind, key and subjects (note:, tag:)
    Each foreign record lands once: importing the same file again writes nothing new. A malformed file
    is refused whole, naming the file and line or record. --dry-run prints the lines without writing.
  A line over 4 MiB is refused unread and the import goes on; binary input with no line end (/dev/zero)
  stops it. Exits 2 if any line failed, after printing the summary. Ctrl-C (or SIGTERM) stops it after
  the batch of 1,000 lines in flight: it prints what landed and the --from-line that resumes it, and exits
  130 (143 for SIGTERM). A second Ctrl-C stops at once; the batch then in flight is rolled back whole.`,
  positionals: { min: 1, max: 1 },
  options: {
    scope: { type: 'string' },
    restore: { type: 'boolean' },
    'from-line': { type: 'string' },
    from: { type: 'string' },
    'dry-run': { type: 'boolean' },
  },
  // A restore brings other people's verdicts: the same rule as giving one (I7).
  judgement: (values) => values.restore === true,
  async run(ctx, [path], values) {
    const from = optString(values, 'from');
    if (from !== undefined) return importForeign(ctx, from, path!, values);
    if (optFlag(values, 'dry-run')) {
      throw new MemoryError('invalid_input', '--dry-run goes with --from FORMAT', {
        details: { fields: ['dry-run'] },
      });
    }
    const fromLine = optInt(values, 'from-line');
    const lines = await readLines(path!, ctx.io.stdin);
    const progress = ctx.io.interactive ? progressLine(ctx.io) : undefined;
    // Closing the input ends a read waiting on a pipe, so a signal stops the import even between lines.
    const stop = abortOnSignals(() => lines.close());
    let imported: ImportResult;
    try {
      const scope = optString(values, 'scope');
      imported = await ctx.session().import(lines, {
        mode: optFlag(values, 'restore') ? 'restore' : 'ingest',
        ...(scope === undefined ? {} : { defaultScope: scope }),
        ...(path === '-' ? {} : { file: basename(path!) }),
        signal: stop.signal,
        ...(progress === undefined ? {} : { onProgress: progress.update }),
        ...(fromLine === undefined ? {} : { fromLine }),
      });
    } catch (error) {
      if (!(error instanceof ImportInterrupted)) throw error;
      // The session audited the interruption; the summary is still printed, then the error decides the code.
      ctx.partialFailure(error, { exitCode: stop.exitCode() });
      const resume = `memledger import ${shellWord(path!)}${optFlag(values, 'restore') ? ' --restore' : ''} --from-line ${error.resumeFrom}`;
      const { by, through, resumeFrom } = error;
      return { ...error.result, interrupted: { by, through, resumeFrom, resume } };
    } finally {
      stop.dispose();
      progress?.done();
    }
    const result = withRefusedLines(imported, lines);
    const first = result.failed[0];
    if (first !== undefined) {
      ctx.partialFailure(
        new MemoryError(
          'invalid_input',
          `${plural(result.failed.length, 'line')} of ${result.lines} failed; the first, line ${first.line}: ${first.class}: ${first.message}`,
        ),
      );
    }
    return result;
  },
  render(output) {
    if ('dryRun' in output || 'refused' in output) return renderForeign(output);
    const r = output;
    const parts = [
      `${r.imported} imported`,
      r.held > 0 ? `${r.held} held for review` : null,
      r.rejected > 0 ? `${r.rejected} landed as rejected (the claim was rejected before)` : null,
      r.corroborated > 0 ? `${r.corroborated} corroborated a memory that says the same` : null,
      `${r.skipped} skipped (already imported, or not a current memory of the file)`,
      r.failed.length > 0 ? `${r.failed.length} failed` : null,
    ].filter((p) => p !== null);
    const failed = r.failed.slice(0, 20).map((f) => `  line ${f.line}: ${f.class}: ${clean(f.message)}`);
    const more = r.failed.length > 20 ? [`  … and ${r.failed.length - 20} more (--json lists them)`] : [];
    const stopped =
      r.interrupted === undefined
        ? []
        : [
            `interrupted by ${r.interrupted.by}: lines up to ${r.interrupted.through} are done; nothing after line ${r.interrupted.through} was written`,
            `resume with: ${r.interrupted.resume}`,
          ];
    return [`read ${plural(r.lines, 'line')}: ${parts.join(', ')}`, ...failed, ...more, ...stopped].join(
      '\n',
    );
  },
});

/** `import --from FORMAT PATH`: another tool's file through the same import, or its lines with --dry-run. */
async function importForeign(
  ctx: CliContext,
  from: string,
  path: string,
  values: Values,
): Promise<ForeignOutput> {
  const format = foreignFormat(from);
  for (const flag of ['restore', 'from-line'] as const) {
    if (values[flag] !== undefined) {
      throw new MemoryError(
        'invalid_input',
        `--${flag} does not go with --from: an import from another tool is new writes by you, and running it again lands nothing twice`,
        { details: { fields: [flag] } },
      );
    }
  }
  if (path === '-') {
    throw new MemoryError('invalid_input', '--from reads a file or folder, not stdin', {
      details: { fields: ['from'] },
    });
  }
  const scope = optString(values, 'scope');
  // The readers load only when asked for: `export` and a plain import never pay for them.
  const { importFrom, readForeign } = await import('../../../importers/index.ts');
  if (optFlag(values, 'dry-run')) {
    const read = readForeign(format, path, scope === undefined ? {} : { scope });
    // A preview is output like search's: a credential in the file is shown masked, never as it is (I10).
    // Lines without a scope of their own land in --scope: the preview says so rather than leave it blank.
    const lines = read.lines.map((l) => ({
      ...l,
      line: previewOf(l.line.scope === undefined && scope !== undefined ? { ...l.line, scope } : l.line),
    }));
    return { dryRun: true, format, ...read, lines };
  }
  const progress = ctx.io.interactive ? progressLine(ctx.io) : undefined;
  const stop = abortOnSignals(() => undefined);
  try {
    const result = await importFrom(ctx.session(), format, path, {
      ...(scope === undefined ? {} : { scope }),
      signal: stop.signal,
      ...(progress === undefined ? {} : { onProgress: progress.update }),
    });
    const first = result.failed[0];
    if (first !== undefined) {
      ctx.partialFailure(
        new MemoryError(
          'invalid_input',
          `${result.failed.length} of ${plural(result.lines, 'memory', 'memories')} refused; the first, ${first.origin}: ${first.class}: ${first.message}`,
        ),
      );
    }
    return result;
  } catch (error) {
    if (!(error instanceof ImportInterrupted)) throw error;
    ctx.partialFailure(error, { exitCode: stop.exitCode() });
    // What landed stays; every record is keyed on its source, so the same command again finishes the rest.
    const { by, through, resumeFrom } = error;
    const resume = `memledger import --from ${format} ${shellWord(path)}${scope === undefined ? '' : ` --scope ${shellWord(scope)}`}`;
    return { ...error.result, interrupted: { by, through, resumeFrom, resume } };
  } finally {
    stop.dispose();
    progress?.done();
  }
}

/** A line as a preview shows it: the body's credentials masked, a value holding one withheld. */
function previewOf(line: PlainLine): PlainLine {
  const { value, ...rest } = line;
  const secretValue = value !== undefined && containsSecret(JSON.stringify(value));
  return {
    ...rest,
    body: maskSecrets(line.body),
    ...(value === undefined ? {} : { value: secretValue ? '[withheld: looks like a credential]' : value }),
  };
}

function renderForeign(output: ImportFromResult | ({ dryRun: true; format: string } & Converted)): string {
  if ('dryRun' in output) {
    const read = output;
    const rows = read.lines.map(({ line, origin }) => {
      const where = [line.scope, line.key === undefined ? undefined : `key ${line.key}`]
        .filter(Boolean)
        .join(', ');
      const about = line.subjects.length > 0 ? ` {${line.subjects.join(', ')}}` : '';
      return `${origin}: [${line.kind}${where === '' ? '' : `, ${where}`}] ${clean(line.body)}${about}`;
    });
    return [
      `dry run (${read.format}): ${plural(read.records, 'record')} read, ${plural(read.lines.length, 'memory', 'memories')} would be written${read.dropped > 0 ? `, ${read.dropped} left out as not a claim` : ''}; nothing was written`,
      ...rows,
    ].join('\n');
  }
  const r = output;
  const parts = [
    `${r.imported} imported`,
    r.held > 0 ? `${r.held} held for review` : null,
    r.rejected > 0 ? `${r.rejected} landed as rejected (the claim was rejected before)` : null,
    r.corroborated > 0 ? `${r.corroborated} corroborated a memory that says the same` : null,
    `${r.skipped} duplicates (imported before)`,
    r.failed.length > 0 ? `${r.failed.length} refused` : null,
  ].filter((p) => p !== null);
  const reasons = r.refused.map((g) => `  ${g.lines} × ${g.class}: ${clean(g.message)}`);
  const failed = r.failed.slice(0, 20).map((f) => `  ${f.origin}: ${f.class}: ${clean(f.message)}`);
  const more = r.failed.length > 20 ? [`  … and ${r.failed.length - 20} more (--json lists them)`] : [];
  return [
    `read ${plural(r.records, 'record')} (${r.format}) as ${plural(r.lines, 'memory', 'memories')}${r.dropped > 0 ? ` (${plural(r.dropped, 'sentence')} left out as not a claim)` : ''}: ${parts.join(', ')}`,
    ...(reasons.length > 0 ? ['refused, by reason:', ...reasons, 'refused lines:', ...failed, ...more] : []),
  ].join('\n');
}

/** The import's result with the lines the reader refused (too long, not UTF-8, binary) in line order. */
function withRefusedLines(result: ImportResult, lines: ImportLines): ImportResult {
  const refused = lines.stopped === undefined ? lines.refused : [...lines.refused, lines.stopped];
  if (refused.length === 0) return result;
  return {
    ...result,
    lines: Math.max(result.lines, lines.stopped?.line ?? 0),
    failed: [...refused, ...result.failed].sort((a, b) => a.line - b.line),
  };
}

/**
 * Writes chunks to a stream, waiting when it is full, so a large export to a slow pipe stays in bounded memory.
 * A reader that goes away early (`memledger export | head`) ends the export quietly: that is not a failure.
 * Leaving the loop closes the export before the ledger is closed, so nothing runs on after the command.
 */
async function writeAll(stream: NodeJS.WritableStream, chunks: AsyncIterable<string>): Promise<void> {
  let failure: NodeJS.ErrnoException | undefined;
  const onError = (error: Error) => {
    failure ??= error;
  };
  stream.on('error', onError);
  try {
    for await (const chunk of chunks) {
      if (failure === undefined && !stream.write(chunk)) await drained(stream);
      if (failure !== undefined) break;
    }
  } finally {
    stream.off('error', onError);
  }
  if (failure !== undefined && failure.code !== 'EPIPE') throw failure;
}

/** Resolves when a full stream can take more, or can take nothing more (an error or close says which). */
function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('error', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('error', done);
    stream.on('close', done);
  });
}

/** A progress line redrawn in place on a terminal's stderr; stdout stays clean for the summary. */
function progressLine(io: CliIO): { update: (r: ImportResult) => void; done: () => void } {
  let drawn = false;
  return {
    update(r) {
      drawn = true;
      io.stderr.write(
        `\rimporting: ${r.lines} lines read, ${r.imported} imported, ${r.failed.length} failed`,
      );
    },
    done() {
      if (drawn) io.stderr.write('\n');
    },
  };
}

/** A path as one shell word in the resume hint: quoted only when it needs to be. */
function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
