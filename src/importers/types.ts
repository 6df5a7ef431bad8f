/** What a reader of another tool's file hands the import: plain ingest lines, each with where it came from. */
import type { Kind } from '../model/memory.ts';

/** One plain ingest line (`src/ledger/transfer/import-lines.ts`, `plainLineSchema`), before it is serialised. */
export interface PlainLine {
  body: string;
  kind: Kind;
  scope?: string;
  key?: string;
  value?: unknown;
  subjects: string[];
  validFrom?: string;
  /** The foreign record's stable id: the import lands each item once per scope (`oncePerSource`). */
  source: { connector: string; id: string; note?: string };
}

/** A line and the place in the foreign file it came from (`memory.jsonl:3 observation 2`), for reports. */
export interface ForeignLine {
  line: PlainLine;
  origin: string;
}

/** Everything a reader made of a file or folder; it either reads all of it or refuses it whole. */
export interface Converted {
  lines: ForeignLine[];
  /** Records of the foreign format read: entities and relations, mem0 memories, notes. */
  records: number;
  /** Text the reader left out as not a claim (narration, questions, fragments), counted. */
  dropped: number;
}

export interface ReadOptions {
  /** Overrides the scope a reader derives (mem0's user and agent ids). */
  scope?: string;
}

/** A reader: a path in, its lines out, or an `invalid_input` naming the file and line or record. */
export type Reader = (path: string, options: ReadOptions) => Converted;
