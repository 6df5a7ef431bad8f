/**
 * A folder of Markdown notes: AGENTS.md, CLAUDE.md, memory files. Notes are edited in place rather than appended,
 * so a file is read whole when its hash changes, and each bullet or paragraph is an entry whose id is a hash of
 * its text: an unchanged bullet is the same item on every read, an edited one a new item.
 *
 * Left out: front matter, fenced code, tables, headings, HTML comments, and the block `memledger install codex`
 * writes into AGENTS.md (instructions to the agent, not notes about the project).
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryError } from '../../model/errors.ts';
import { hashText, listFiles } from '../files.ts';
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
      const entries: Entry[] = noteUnits(text).map((unit) => ({
        id: `${file}#${hashText(unit.replace(/\s+/g, ' ').trim().toLowerCase()).slice(0, 24)}`,
        role: 'note',
        text: unit,
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

/** Bullets (with their continuation lines) and paragraphs of a Markdown document, in order. */
export function noteUnits(markdown: string): string[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const units: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  let comment = false;
  const flush = () => {
    const unit = current.join(' ').replace(/\s+/g, ' ').trim();
    if (unit !== '') units.push(unit);
    current = [];
  };
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, n) => n > 0 && l.trim() === '---');
    if (end > 0) i = end + 1;
  }
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (fence !== null) {
      if (trimmed.startsWith(fence)) fence = null;
      continue;
    }
    if (comment) {
      if (trimmed.includes('-->')) comment = false;
      continue;
    }
    const opening = /^(```|~~~)/.exec(trimmed);
    if (opening !== null) {
      flush();
      fence = opening[1]!;
      continue;
    }
    if (trimmed.startsWith('<!--')) {
      flush();
      if (!trimmed.includes('-->')) comment = true;
      // The agent instructions `memledger install` writes sit between its own begin and end comments.
      if (/memledger:begin/.test(trimmed)) {
        const end = lines.findIndex((l, n) => n > i && /memledger:end/.test(l));
        if (end > i) {
          i = end;
          comment = false;
        }
      }
      continue;
    }
    if (
      trimmed === '' ||
      /^#{1,6}\s/.test(trimmed) ||
      trimmed.startsWith('|') ||
      /^[-*_=]{3,}$/.test(trimmed)
    ) {
      flush();
      continue;
    }
    const bullet = /^(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/.exec(trimmed);
    if (bullet !== null) {
      flush();
      current.push(bullet[1]!);
      continue;
    }
    current.push(trimmed);
  }
  flush();
  return units;
}
