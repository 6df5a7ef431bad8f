/**
 * The part of the Store port that behaviors need (src/behaviors): definitions and their versions, runs with
 * their lease and outcome, the links from a finished run to what it consumed, and fired trigger windows. Kept
 * apart from port.ts; one implementation per backend over the shared statements of behaviors-queries.ts.
 */

/** One version of a behavior's definition, as JSON; a new definition under the same name is a new version. */
export interface BehaviorVersionRow {
  name: string;
  version: number;
  /** The validated definition (src/behaviors/definition.ts) as JSON. */
  definition: string;
  createdBy: string;
  createdAt: string;
}

/** A behavior: its latest version, and whether it is disabled. */
export interface BehaviorRow extends BehaviorVersionRow {
  disabledAt: string | null;
}

export type RunState = 'leased' | 'finished' | 'failed';

/** One run over one window: what it was shown (the token names exactly these), its lease and its outcome. */
export interface RunRow {
  id: string;
  behavior: string;
  /** The definition version the run pinned when it was claimed. */
  version: number;
  state: RunState;
  /** Item ids the window showed: event ids and fired-window ids. Linked to the run only when it finishes (I17). */
  shown: string[];
  /** The token's secret half: a complete must present it. */
  nonce: string;
  leaseUntil: string;
  /** Causal depth: 1 + the deepest run that wrote a memory this run was shown. */
  depth: number;
  /** The behaviors upstream of this run, itself included: a behavior never consumes a chain it is in. */
  chain: string[];
  /** Memory ids the run wrote (set when it finishes). */
  outputs: string[];
  startedBy: string;
  startedAt: string;
  endedAt: string | null;
  /** Why a failed run failed: an error class or `lease expired`, never content. */
  failure: string | null;
}

/** A schedule or commitment trigger fired once for one window (unique per behavior, trigger and window). */
export interface FireRow {
  id: string;
  behavior: string;
  /** `schedule` or `commitment`. */
  trigger: string;
  /** The window's identity: the cron instant, or the commitment's id and due time. */
  windowKey: string;
  /** The instant the window is for (the cron instant, the due time). */
  at: string;
  /** The commitment that came due, for a commitment trigger. */
  memoryId: string | null;
  firedAt: string;
}

/** An event of the log as a behavior's window reads it: on the arrival axis (when memledger recorded it). */
export interface EventCandidate {
  seq: number;
  id: string;
  type: string;
  memoryId: string;
  at: string;
}

export interface CandidateQuery {
  /** Arrival times up to and including this one (now less the settle delay). */
  until: string;
  types: readonly string[];
  /** Events after this sequence number (paging). */
  afterSeq: number;
  limit: number;
}

/** Everything a behavior operation reads or writes, inside one store transaction (or one read). */
export interface BehaviorTx {
  saveVersion(row: BehaviorVersionRow): Promise<void>;
  /** Sets or clears the disabled time; false when there is no such behavior. */
  setDisabled(name: string, at: string | null): Promise<boolean>;
  behavior(name: string): Promise<BehaviorRow | null>;
  version(name: string, version: number): Promise<BehaviorVersionRow | null>;
  /** Events not linked to a finished run of `behavior` (the subtraction, I17), oldest first. */
  candidates(behavior: string, query: CandidateQuery): Promise<EventCandidate[]>;
  /** Fired windows of `behavior` not linked to one of its finished runs, oldest first. */
  unconsumedFires(behavior: string): Promise<FireRow[]>;
  /** Every fired window of `behavior`, consumed or not, oldest first (export and restore). */
  fires(behavior: string): Promise<FireRow[]>;
  /** Leased runs of `behavior` whose lease is still live at `now`. */
  liveRuns(behavior: string, now: string): Promise<RunRow[]>;
  runsByIds(ids: readonly string[]): Promise<RunRow[]>;
  /** A behavior's runs, newest first. */
  runs(behavior: string, limit: number): Promise<RunRow[]>;
  getRun(id: string): Promise<RunRow | null>;
  insertRun(run: RunRow): Promise<void>;
  /** Which of these items a finished run of `behavior` consumed already (at most one may: I17). */
  linked(behavior: string, items: readonly string[]): Promise<string[]>;
  /** Links exactly `run.shown` to the run, records its outputs and closes it as finished. */
  finishRun(id: string, endedAt: string, outputs: readonly string[]): Promise<void>;
  failRun(id: string, endedAt: string, failure: string): Promise<void>;
  /** Records a fired window; false when that window fired already (another process or replica won). */
  insertFire(fire: FireRow): Promise<boolean>;
}

export interface BehaviorStore {
  behavior(name: string): Promise<BehaviorRow | null>;
  list(): Promise<BehaviorRow[]>;
  version(name: string, version: number): Promise<BehaviorVersionRow | null>;
  /** A behavior's runs, newest first. */
  runs(behavior: string, limit: number): Promise<RunRow[]>;
  /** Item ids linked to a finished run. */
  consumed(runId: string): Promise<string[]>;
  /** Every fired window of `behavior`, oldest first. */
  fires(behavior: string): Promise<FireRow[]>;
}
