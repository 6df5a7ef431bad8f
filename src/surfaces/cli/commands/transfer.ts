/** `memledger export | import`: JSONL out (stdout or an atomic file) and in (a file or stdin), streamed. */
import { basename } from 'node:path';
import type { ImportResult } from '../../../ledger/import.ts';
import { ImportInterrupted } from '../../../ledger/import-options.ts';
import { MemoryError } from '../../../model/errors.ts';
import { optFlag, optInt, optString } from '../args.ts';
import type { CliIO } from '../command.ts';
import { defineCommand } from '../command.ts';
import { chunked, type ImportLines, readLines, writeFileAtomically } from '../files.ts';
import { clean, plural } from '../render.ts';
import { abortOnSignals } from '../signals.ts';

export const exportCommand = defineCommand<{ out: string; lines: number } | undefined>({
  name: 'export',
  summary: 'write every memory you may read, with its events, as JSONL',
  usage: `memledger export [--out FILE]
  One JSON document per line (format memledger/v2): a header, every memory you may read in every state with
  its events (oldest first), then the rejections on them (standing or lifted), the claims on keys and the
  erasure records. Without --out it goes to stdout; with --out the file appears whole or not at all.`,
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
      : `exported ${plural(r.lines, 'line')} (a header, the memories with their events, rejections, claims, erasures) to ${r.out}\n`,
});

/** An import's summary; `interrupted` when a signal stopped it, with where to pick up. */
export type ImportOutput = ImportResult & {
  interrupted?: { by: string; through: number; resumeFrom: number; resume: string };
};

export const importCommand = defineCommand<ImportOutput>({
  name: 'import',
  summary: 'bring memories in from JSONL: an export, or plain {"body": ...} lines (a file, or - for stdin)',
  usage: `memledger import FILE|- [--scope S] [--restore] [--from-line N]
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
  A line over 4 MiB is refused unread and the import goes on; binary input with no line end (/dev/zero)
  stops it. Exits 2 if any line failed, after printing the summary. Ctrl-C (or SIGTERM) stops it after
  the batch of 1,000 lines in flight: it prints what landed and the --from-line that resumes it, and exits
  130 (143 for SIGTERM). A second Ctrl-C stops at once; the batch then in flight is rolled back whole.`,
  positionals: { min: 1, max: 1 },
  options: { scope: { type: 'string' }, restore: { type: 'boolean' }, 'from-line': { type: 'string' } },
  // A restore brings other people's verdicts: the same rule as giving one (I7).
  judgement: (values) => values.restore === true,
  async run(ctx, [path], values) {
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
  render(r) {
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
