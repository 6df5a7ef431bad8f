/**
 * A folder of Markdown notes: AGENTS.md, CLAUDE.md, memory files. Notes are edited in place rather than appended,
 * so a file is read whole when its hash changes, and each bullet or paragraph is an entry whose id is a hash of
 * its text: an unchanged bullet is the same item on every read, an edited one a new item.
 *
 * Blocks are cut by src/feeds/note-blocks.ts and turned into claims by src/feeds/notes.ts (through the miner).
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryError } from '../../model/errors.ts';
import { hashText, listFiles } from '../files.ts';
import { type NoteBlock, noteBlocks } from '../note-blocks.ts';
import type { Batch, Checkpoint, Connector, Entry, ReadOptions } from '../types.ts';

const MAX_NOTE_BYTES = 1024 * 1024;

export const folder: Connector = {
  kind: 'folder',
  principal: 'agent:notes',
  defaultPath() {
    return process.cwd();
  },
  async *read(root: string, checkpoint: Checkpoint, options: ReadOptions = {}): AsyncGenerator<Batch> {
    for (const file of listFiles(root, (name) => name.toLowerCase().endsWith('.md'))) {
      const path = join(root, file);
      if (options.only !== undefined && !options.only(path)) continue;
      let text: string;
      try {
        if (statSync(path).size > MAX_NOTE_BYTES) continue;
        text = readFileSync(path, 'utf8');
      } catch (error) {
        throw new MemoryError('upstream', `cannot read ${path}: ${(error as Error).message}`, {
          cause: error,
        });
      }
      const hash = hashText(text);
      if (checkpoint.files[file]?.hash === hash) continue;
      const sessionId = `notes:${file}`;
      // A block keeps its line breaks (a secret line is dropped alone) and a task its check box; the id hashes
      // the block's words, so a rewrap of the same bullet is the same item.
      const entries: Entry[] = noteBlocks(text).map((block) => ({
        id: `${file}#${hashText(itemText(block).replace(/\s+/g, ' ').trim().toLowerCase()).slice(0, 24)}`,
        role: 'note',
        text: itemText(block),
        sessionId,
        cwd: dirname(path),
      }));
      yield {
        file,
        path,
        entries,
        skipped: 0,
        checkpoint: { offset: Buffer.byteLength(text), head: '', hash },
      };
    }
  },
};

export { noteUnits } from '../note-blocks.ts';

/** What the miner reads for a block: its lines, a task marked as one. */
const itemText = (block: NoteBlock): string => (block.task === true ? `[ ] ${block.text}` : block.text);
