/**
 * The shared loop of transcript connectors: every matching JSONL file under a root, read from its checkpoint in
 * chunks of complete lines, each line parsed to entries by the connector. A line of a shape the connector does
 * not know is counted as skipped, a line that is not JSON as malformed; neither stops the sync.
 */
import { join } from 'node:path';
import { listFiles, readLines } from './files.ts';
import type { Batch, Checkpoint, Entry, ReadOptions } from './types.ts';

/** Parses one JSON line. `meta` is the file's carried state (Codex keeps its session_meta there). */
export type LineParser = (
  line: unknown,
  at: { file: string; offset: number; meta: Record<string, string> },
) => Entry[] | null;

export async function* readJsonl(
  root: string,
  accept: (name: string) => boolean,
  checkpoint: Checkpoint,
  parse: LineParser,
  options: ReadOptions = {},
): AsyncGenerator<Batch> {
  for (const file of listFiles(root, accept)) {
    const path = join(root, file);
    if (options.only !== undefined && !options.only(path)) continue;
    const saved = checkpoint.files[file];
    let offset = saved?.offset ?? 0;
    let head = saved?.head;
    let meta = { ...(saved?.meta ?? {}) };
    for (;;) {
      const chunk = readLines(path, offset, head);
      // Reading restarted from the top (the file was replaced): what was carried from the old file is stale.
      const restarted = chunk.lines.length > 0 && chunk.lines[0]!.offset === 0 && offset > 0;
      if (restarted) meta = {};
      if (chunk.next === offset && chunk.oversized === 0) break;
      const entries: Entry[] = [];
      const skipped = { unknown: chunk.oversized, malformed: 0 };
      for (const line of chunk.lines) {
        let value: unknown;
        try {
          value = JSON.parse(line.text);
        } catch {
          skipped.malformed++;
          continue;
        }
        const parsed = parse(value, { file, offset: line.offset, meta });
        if (parsed === null) skipped.unknown++;
        else entries.push(...parsed);
      }
      offset = chunk.next;
      head = chunk.head;
      yield {
        file,
        path,
        entries,
        skipped: skipped.unknown,
        malformed: skipped.malformed,
        restarted,
        checkpoint: { offset, head, meta: { ...meta } },
      };
      if (!chunk.more) break;
    }
  }
}
