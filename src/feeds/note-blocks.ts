/**
 * A Markdown note's blocks: each bullet (with its continuation lines and any nested list under a lead-in that
 * ends with a colon) and each paragraph, with the line it starts on and the heading it sits under. Line breaks
 * inside a block are kept, so a line that holds a secret can be dropped on its own (src/feeds/notes.ts).
 *
 * Left out: front matter, fenced code, tables, headings, HTML comments, and the block `memledger install codex`
 * writes into AGENTS.md (instructions to the agent, not notes about the project).
 */

export interface NoteBlock {
  /** The block's lines, markers off, joined by `\n`; a nested list item keeps a `- ` marker. */
  text: string;
  /** 1-based line of the file the block starts on. */
  line: number;
  /** The nearest heading above the block, if any. */
  heading?: string;
  /** A check-box item (`- [ ]`, `- [x]`): a task, not a claim. */
  task?: boolean;
}

const BULLET = /^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(\[[ xX]\]\s+)?(.*)$/;

export function noteBlocks(markdown: string): NoteBlock[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: NoteBlock[] = [];
  let current: string[] = [];
  let start = 0;
  let task = false;
  let heading: string | undefined;
  let fence: string | null = null;
  let comment = false;
  /** The last block, when it ends with a colon and lower-case items may still finish it. */
  let leadIn = null as NoteBlock | null;
  const flush = () => {
    const text = current
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .join('\n');
    if (text !== '') {
      const block: NoteBlock = {
        text,
        line: start + 1,
        ...(heading === undefined ? {} : { heading }),
        ...(task ? { task: true } : {}),
      };
      blocks.push(block);
      leadIn = /:$/.test(text) ? block : null;
    }
    current = [];
    task = false;
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
    const h = /^#{1,6}\s+(.*)$/.exec(trimmed);
    if (h !== null) {
      flush();
      leadIn = null;
      heading = h[1]!.replace(/#+\s*$/, '').trim() || undefined;
      continue;
    }
    if (trimmed === '' || trimmed.startsWith('|') || /^[-*_=]{3,}$/.test(trimmed)) {
      flush();
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet !== null) {
      // An indented item under a bullet that ends with a colon belongs to it: "headers: a, b, c".
      const nested = bullet[1]!.length >= 2 && current.length > 0 && /:$/.test(current[0]!.trim());
      if (nested) {
        current.push(`- ${bullet[3]!}`);
        continue;
      }
      // Items that start in lower case under a lead-in ("Ask the user when:") finish its sentence.
      const lead = blocks[blocks.length - 1];
      if (current.length === 0 && lead !== undefined && lead === leadIn && /^[a-z]/.test(bullet[3]!)) {
        lead.text += `\n- ${bullet[3]!}`;
        continue;
      }
      flush();
      start = i;
      task = bullet[2] !== undefined;
      current.push(bullet[3]!);
      continue;
    }
    if (current.length === 0) start = i;
    current.push(trimmed.replace(/^>\s?/, '')); // a quoted paragraph is still the note's text
  }
  flush();
  return blocks;
}

/** Bullets (with their continuation lines) and paragraphs of a Markdown document, in order, one line each. */
export function noteUnits(markdown: string): string[] {
  return noteBlocks(markdown).map((b) => b.text.replace(/\s+/g, ' ').trim());
}
