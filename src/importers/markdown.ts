/**
 * A folder of Markdown notes (Basic Memory, Obsidian): each note's claims become memories. The note's front
 * matter and headings say what they are: `type`/`kind` (when it names one of the KINDS) and a heading that names
 * a kind ("## Decisions") set the kind; `key` sets the key of a one-claim note; `title`/`permalink` become the
 * subject `note:<slug>` and `tags` the subjects `tag:<t>`.
 *
 * The text is split by the folder feed's own functions (`noteUnits`, then the miner's sentences and noise
 * filter), so a paragraph of five facts is five memories and narration is left out. Basic Memory's observations
 * `- [category] text #tag (context)` and relations `- relates_to [[Other]]` are read as the claims they declare,
 * unfiltered. A sentence the miner drops as a credential is still handed to the import, so the guard refuses
 * it there and the report names it, while the lines around it land.
 */
import { statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { noteUnits } from '../feeds/connectors/folder.ts';
import { listFiles } from '../feeds/files.ts';
import { mine } from '../feeds/miner.ts';
import { asBody, sentences } from '../feeds/noise.ts';
import { KINDS, type Kind } from '../model/memory.ts';
import { field, frontMatter, listField } from './front-matter.ts';
import { fileError, malformed, readText } from './io.ts';
import { recordId, subjectList, subjectOf } from './subjects.ts';
import type { Converted, ForeignLine, PlainLine, Reader } from './types.ts';

const CONNECTOR = 'markdown';

export const readMarkdown: Reader = (path) => {
  let files: { rel: string; full: string }[];
  try {
    files = statSync(path).isDirectory()
      ? listFiles(path, (name) => name.toLowerCase().endsWith('.md')).map((rel) => ({
          rel,
          full: join(path, rel),
        }))
      : [{ rel: basename(path), full: path }];
  } catch (error) {
    throw fileError(error, path, 'notes folder');
  }
  const out: Converted = { lines: [], records: files.length, dropped: 0 };
  for (const { rel, full } of files) {
    const note = readNote(rel, readText(full, 'note'));
    out.lines.push(...note.lines);
    out.dropped += note.dropped;
  }
  return out;
};

interface Section {
  heading: string | null;
  level: number;
  text: string;
}

/** One note's lines; `rel`, its path under the folder, names it in source ids and reports. */
function readNote(rel: string, markdown: string): { lines: ForeignLine[]; dropped: number } {
  const all = markdown.replace(/\r\n?/g, '\n').split('\n');
  const fm = frontMatter(all, rel);
  const sections = sectionsOf(all.slice(fm.lines));
  const title =
    field(fm, 'title') ?? sections.find((s) => s.level === 1)?.heading ?? basename(rel, extname(rel));
  const self = subjectOf('note', slug(field(fm, 'permalink') ?? title));
  const tags = listField(fm, 'tags').map((t) => subjectOf('tag', t));
  const noteKind = kindOf(field(fm, 'kind') ?? field(fm, 'type'));
  const claims: { line: Omit<PlainLine, 'source'>; sourceText: string }[] = [];
  let dropped = 0;
  const add = (body: string, kind: Kind, extra: (string | null)[]) => {
    const linked = withLinks(body);
    if (linked.body === '') return;
    claims.push({
      line: { body: linked.body, kind, subjects: subjectList([self, ...tags, ...linked.subjects, ...extra]) },
      sourceText: linked.body,
    });
  };
  for (const section of sections) {
    const sectionKind = kindOf(section.heading);
    for (const unit of noteUnits(section.text)) {
      const observation = /^\[([^\]]{2,60}|[^\]xX ])\]\s+(.+)$/.exec(unit);
      if (observation !== null) {
        const category = observation[1]!.trim();
        const kind = kindOf(category) ?? sectionKind ?? noteKind ?? 'note';
        add(observation[2]!, kind, kindOf(category) === undefined ? [subjectOf('category', category)] : []);
        continue;
      }
      const relation = /^([A-Za-z][\w-]*)\s+\[\[([^\]|]+)(?:\|[^\]]*)?\]\]\s*(.*)$/.exec(unit);
      if (relation !== null) {
        const [, type, target, rest] = relation;
        add(`${title} ${type} [[${target!.trim()}]]${rest === '' ? '' : ` ${rest}`}`, 'fact', []);
        continue;
      }
      for (const sentence of sentences(unit)) {
        const mined = mine({ id: rel, role: 'note', text: sentence, sessionId: `notes:${rel}` });
        for (const c of mined.candidates) {
          add(c.body, sectionKind ?? (c.kind === 'note' ? undefined : c.kind) ?? noteKind ?? 'note', []);
        }
        // The miner drops a credential-shaped sentence quietly; the import must refuse it out loud (I10).
        if (mined.candidates.length === 0 && mined.dropped.secrets > 0) {
          add(asBody(sentence), sectionKind ?? noteKind ?? 'note', []);
        }
        dropped += mined.dropped.noise;
      }
    }
  }
  const key = field(fm, 'key');
  if (key !== undefined && claims.length !== 1) {
    throw malformed(rel, `front matter "key" names one slot, but the note holds ${claims.length} claims`);
  }
  const lines = claims.map((c, n) => ({
    line: {
      ...c.line,
      ...(key === undefined ? {} : { key }),
      source: { connector: CONNECTOR, id: `${rel}#${recordId(c.sourceText.toLowerCase())}` },
    },
    origin: `${rel} claim ${n + 1}`,
  }));
  return { lines, dropped };
}

/** The note split at its headings (outside fenced code), each part with the heading above it. */
function sectionsOf(lines: string[]): Section[] {
  const sections: Section[] = [];
  let current: Section = { heading: null, level: 0, text: '' };
  let fence: string | null = null;
  for (const line of lines) {
    const t = line.trim();
    const opening = /^(```|~~~)/.exec(t);
    if (fence !== null) {
      if (t.startsWith(fence)) fence = null;
    } else if (opening !== null) {
      fence = opening[1]!;
    } else {
      const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(t);
      if (heading !== null) {
        sections.push(current);
        current = { heading: heading[2]!, level: heading[1]!.length, text: '' };
        continue;
      }
    }
    current.text += `${line}\n`;
  }
  sections.push(current);
  return sections;
}

/** A kind named by a front matter field, a heading or a category: `decision`, `Decisions`, `preferences`. */
function kindOf(name: string | null | undefined): Kind | undefined {
  if (name === null || name === undefined) return undefined;
  const n = name.trim().toLowerCase();
  const singular = n.endsWith('s') ? n.slice(0, -1) : n;
  return KINDS.find((k) => k === n || k === singular);
}

/**
 * Wiki links as text and subjects (`[[Other Note|shown]]` → `shown`, subject `note:other-note`), inline `#tags`
 * as subjects taken out of the text.
 */
function withLinks(text: string): { body: string; subjects: (string | null)[] } {
  const subjects: (string | null)[] = [];
  let body = text.replace(/\[\[([^\]|]+)(?:\|([^\]]*))?\]\]/g, (_, target: string, shown?: string) => {
    subjects.push(subjectOf('note', slug(target)));
    return (shown ?? target).trim();
  });
  body = body.replace(/(^|\s)#([\p{L}][\p{L}\p{N}_/-]*)/gu, (_, lead: string, tag: string) => {
    subjects.push(subjectOf('tag', tag));
    return lead;
  });
  return { body: body.replace(/\s+/g, ' ').trim(), subjects };
}

/** A title as Basic Memory's permalinks spell it: lowercase words joined by `-`. */
function slug(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}/_-]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}
