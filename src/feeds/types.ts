/**
 * The vocabulary of feeds: a connector reads a source from a checkpoint and yields batches of entries with the
 * checkpoint to commit once they are written; the miner turns entries into candidate memories.
 */

/**
 * Who said an entry. `user` is a person typing; `prompt` is a user-role line an agent wrote (a subagent's task);
 * `assistant` is the model's prose; `tool` is a tool's output (which a transcript stores in a user-role line);
 * `summary` is a compaction summary or a session title; `note` is a line of a Markdown notes file.
 */
export type EntryRole = 'user' | 'prompt' | 'assistant' | 'tool' | 'summary' | 'note';

/** One readable unit of a source: a transcript message's text, a tool result, a note's bullet. */
export interface Entry {
  /** Stable across re-reads of the same source: a line's uuid, a session id and byte offset, a note's hash. */
  id: string;
  role: EntryRole;
  text: string;
  /** A tool result the source marked as failed (`is_error`, a non-zero exit code). */
  isError?: boolean;
  /** The session the entry belongs to: stamped into provenance, and what corroboration counts. */
  sessionId: string;
  /** A subagent's id, when the entry comes from a subagent's transcript: stamped as the run. */
  agentId?: string;
  /** `claude-code/2.1.3`, `codex/0.50.0`. */
  client?: string;
  /** The working directory the session ran in, mapped to a project scope. */
  cwd?: string;
  /** The repository's remote URL when the source records it (Codex session_meta.git). */
  repositoryUrl?: string;
  at?: string;
}

/** How far a feed has read one file. Ids and numbers only, never content. */
export interface FileCheckpoint {
  /** Bytes consumed: every complete line before this offset has been read and its items written. */
  offset: number;
  /** A hash of the file's first bytes: a file replaced under the same name is read again from the start. */
  head: string;
  /** For notes, which are rewritten rather than appended: the whole file's hash when last read. */
  hash?: string;
  /** Facts a connector carries across batches of one file (Codex: the session id and cwd of session_meta). */
  meta?: Record<string, string>;
}

export interface Checkpoint {
  files: Record<string, FileCheckpoint>;
}

/** What a connector yields: the entries of one file (or one chunk of a big file) and where that leaves it. */
export interface Batch {
  /** The file's path relative to the feed's root: the checkpoint's key. */
  file: string;
  /** Absolute path, for provenance. */
  path: string;
  entries: Entry[];
  checkpoint: FileCheckpoint;
  /** Lines of a shape the connector does not know (a newer tool's), and lines longer than a chunk: passed over. */
  skipped: number;
  /**
   * Lines that are not JSON at all: the source is damaged. They are passed over too, but the sync reports them
   * as `invalid_input` (a line cut short at the end is not counted: it waits for the next run).
   */
  malformed?: number;
  /** The file was read again from the start (replaced or truncated): state carried for it is stale. */
  restarted?: boolean;
}

export interface ReadOptions {
  /** Read only the files this accepts (absolute paths): the Stop hook syncs the one transcript it was given. */
  only?: (path: string) => boolean;
}

export interface Connector {
  readonly kind: string;
  /** The principal a feed of this kind writes as unless its config names another. */
  readonly principal: string;
  /** Where the source lives by default, under the user's home. */
  defaultPath(env: NodeJS.ProcessEnv): string;
  /** Batches in file order, each from the checkpoint's offset for its file; never throws on a bad line. */
  read(root: string, checkpoint: Checkpoint, options?: ReadOptions): AsyncIterable<Batch>;
}

export type CandidateRule = 'remember' | 'preference' | 'decision' | 'error-fix' | 'note';

/** A memory the miner proposes: a claim in words, its kind, and which rule found it. */
export interface Candidate {
  body: string;
  kind: 'fact' | 'preference' | 'decision' | 'note';
  rule: CandidateRule;
  /** How sure the rule is: an explicit request more than an inferred decision. Feeds confidence. */
  confidence: number;
}

/** An error seen in a tool result, waiting for the assistant to say how it was fixed. */
export interface MinerState {
  error?: { line: string; age: number };
}
