/** `memledger export | import`: JSONL out (stdout or an atomic file) and in (a file or stdin), streamed. */
import { ImportInterrupted } from '../../../ledger/import-options.ts';
import type { ImportResult } from '../../../ledger/transfer.ts';
import { MemoryError } from '../../../model/errors.ts';
import { optInt, optString } from '../args.ts';
import type { CliIO } from '../command.ts';
import { defineCommand } from '../command.ts';
import { chunked, readLines, writeFileAtomically } from '../files.ts';
import { clean, plural } from '../render.ts';
import { abortOnSignals } from '../signals.ts';

export const exportCommand = defineCommand<{ out: string; lines: number } | undefined>({
  name: 'export',
  summary: 'write every memory you may read, with its events, as JSONL',
  usage: `memledger export [--out FILE]
  One JSON document per line: a header, every memory in every state with its events (oldest first), and
  the rejections. Without --out it goes to stdout; with --out the file appears whole or not at all.`,
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
      : `exported ${plural(r.lines, 'line')} (a header, the memories with their events, the rejections) to ${r.out}\n`,
});

/** An import's summary; `interrupted` when a signal stopped it, with where to pick up. */
export type ImportOutput = ImportResult & {
  interrupted?: { by: string; through: number; resumeFrom: number; resume: string };
};

export const importCommand = defineCommand<ImportOutput>({
  name: 'import',
  summary: 'import a JSONL export (a file, or - for stdin); importing twice changes nothing',
  usage: `memledger import FILE|- [--from-line N]
  Each line goes through the same checks as any write: your grants, the credential guard, standing
  rejections and the write gate. Lines already present are skipped. Exits 2 if any line failed, after
  printing the summary.
  --from-line N     start at line N of the input (lines before it are not read)
  Ctrl-C (or SIGTERM) stops it after the batch of 1,000 lines in flight: it prints what landed and the
  --from-line that resumes it, and exits 130 (143 for SIGTERM). A second Ctrl-C stops at once; the batch
  then in flight is rolled back whole.`,
  positionals: { min: 1, max: 1 },
  options: { 'from-line': { type: 'string' } },
  async run(ctx, [path], values) {
    const fromLine = optInt(values, 'from-line');
    const lines = await readLines(path!, ctx.io.stdin);
    const progress = ctx.io.interactive ? progressLine(ctx.io) : undefined;
    // Closing the input ends a read waiting on a pipe, so a signal stops the import even between lines.
    const stop = abortOnSignals(() => (lines as { close?: () => void }).close?.());
    let result: ImportResult;
    try {
      result = await ctx.session().import(lines, {
        signal: stop.signal,
        ...(progress === undefined ? {} : { onProgress: progress.update }),
        ...(fromLine === undefined ? {} : { fromLine }),
      });
    } catch (error) {
      if (!(error instanceof ImportInterrupted)) throw error;
      // The session audited the interruption; the summary is still printed, then the error decides the code.
      ctx.partialFailure(error, stop.exitCode());
      const resume = `memledger import ${shellWord(path!)} --from-line ${error.resumeFrom}`;
      const { by, through, resumeFrom } = error;
      return { ...error.result, interrupted: { by, through, resumeFrom, resume } };
    } finally {
      stop.dispose();
      progress?.done();
    }
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
      `${r.skipped} already present or erased`,
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
