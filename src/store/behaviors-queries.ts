/**
 * The behaviors statements both backends run: the SQL is the same text on SQLite and Postgres (`?` placeholders,
 * ON CONFLICT, text columns), so each backend supplies only an executor and its table names (STYLE.md point 2).
 */
import type {
  BehaviorRow,
  BehaviorTx,
  BehaviorVersionRow,
  CandidateQuery,
  EventCandidate,
  FireRow,
  RunRow,
} from './behaviors-port.ts';

/** Runs one statement: rows for a read, the count of rows changed for a write. */
export interface BehaviorExec {
  all<T>(sql: string, params: readonly (string | number | null)[]): Promise<T[]>;
  run(sql: string, params: readonly (string | number | null)[]): Promise<number>;
}

/** Table names as the backend spells them (`behavior_runs`, `memledger.behavior_runs`). */
export interface BehaviorTables {
  behaviors: string;
  versions: string;
  runs: string;
  links: string;
  fires: string;
  events: string;
}

interface RunDbRow {
  id: string;
  behavior: string;
  version: number;
  state: RunRow['state'];
  shown: string;
  nonce: string;
  lease_until: string;
  depth: number;
  chain: string;
  outputs: string;
  started_by: string;
  started_at: string;
  ended_at: string | null;
  failure: string | null;
}

interface FireDbRow {
  id: string;
  behavior: string;
  trigger: string;
  window_key: string;
  at: string;
  memory_id: string | null;
  fired_at: string;
}

interface VersionDbRow {
  name: string;
  version: number;
  definition: string;
  created_by: string;
  created_at: string;
  disabled_at?: string | null;
}

const RUN_COLUMNS =
  'id, behavior, version, state, shown, nonce, lease_until, depth, chain, outputs, started_by, started_at, ended_at, failure';
const FIRE_COLUMNS = 'id, behavior, trigger, window_key, at, memory_id, fired_at';

/** Every behaviors statement over one executor: a transaction's, or a one-off read's. */
export class BehaviorQueries implements BehaviorTx {
  readonly #x: BehaviorExec;
  readonly #t: BehaviorTables;

  constructor(exec: BehaviorExec, tables: BehaviorTables) {
    this.#x = exec;
    this.#t = tables;
  }

  async saveVersion(row: BehaviorVersionRow): Promise<void> {
    const t = this.#t;
    await this.#x.run(
      `INSERT INTO ${t.versions} (name, version, definition, created_by, created_at) VALUES (?, ?, ?, ?, ?)`,
      [row.name, row.version, row.definition, row.createdBy, row.createdAt],
    );
    // A new version is the behavior's definition from now on, enabled again.
    await this.#x.run(
      `INSERT INTO ${t.behaviors} (name, version, disabled_at) VALUES (?, ?, NULL)
       ON CONFLICT (${this.#conflictPrefix()}name) DO UPDATE SET version = excluded.version, disabled_at = NULL`,
      [row.name, row.version],
    );
  }

  async setDisabled(name: string, at: string | null): Promise<boolean> {
    return (
      (await this.#x.run(`UPDATE ${this.#t.behaviors} SET disabled_at = ? WHERE name = ?`, [at, name])) > 0
    );
  }

  async behavior(name: string): Promise<BehaviorRow | null> {
    const rows = await this.#x.all<VersionDbRow>(`${this.#behaviorSelect()} WHERE b.name = ?`, [name]);
    return rows.length === 0 ? null : toBehavior(rows[0]!);
  }

  async list(): Promise<BehaviorRow[]> {
    return (await this.#x.all<VersionDbRow>(`${this.#behaviorSelect()} ORDER BY b.name`, [])).map(toBehavior);
  }

  async version(name: string, version: number): Promise<BehaviorVersionRow | null> {
    const rows = await this.#x.all<VersionDbRow>(
      `SELECT name, version, definition, created_by, created_at FROM ${this.#t.versions} WHERE name = ? AND version = ?`,
      [name, version],
    );
    return rows.length === 0 ? null : toVersion(rows[0]!);
  }

  async candidates(behavior: string, q: CandidateQuery): Promise<EventCandidate[]> {
    const t = this.#t;
    const types = q.types.map(() => '?').join(', ');
    // I17: outstanding is a subtraction. A link exists only for a finished run, so a failed or expired run's
    // events stay outstanding with no cursor to move back.
    const rows = await this.#x.all<{
      seq: number | string;
      id: string;
      type: string;
      memory_id: string;
      at: string;
    }>(
      `SELECT e.seq, e.id, e.type, e.memory_id, e.at FROM ${t.events} e
       WHERE e.seq > ? AND e.at <= ? AND e.type IN (${types})
         AND NOT EXISTS (SELECT 1 FROM ${t.links} l WHERE l.behavior = ? AND l.item_id = e.id)
       ORDER BY e.seq LIMIT ?`,
      [q.afterSeq, q.until, ...q.types, behavior, q.limit],
    );
    return rows.map((r) => ({ seq: Number(r.seq), id: r.id, type: r.type, memoryId: r.memory_id, at: r.at }));
  }

  async unconsumedFires(behavior: string): Promise<FireRow[]> {
    const t = this.#t;
    const rows = await this.#x.all<FireDbRow>(
      `SELECT ${FIRE_COLUMNS} FROM ${t.fires} f WHERE f.behavior = ?
         AND NOT EXISTS (SELECT 1 FROM ${t.links} l WHERE l.behavior = f.behavior AND l.item_id = f.id)
       ORDER BY f.at, f.id`,
      [behavior],
    );
    return rows.map(toFire);
  }

  async fires(behavior: string): Promise<FireRow[]> {
    const rows = await this.#x.all<FireDbRow>(
      `SELECT ${FIRE_COLUMNS} FROM ${this.#t.fires} WHERE behavior = ? ORDER BY at, id`,
      [behavior],
    );
    return rows.map(toFire);
  }

  async liveRuns(behavior: string, now: string): Promise<RunRow[]> {
    const rows = await this.#x.all<RunDbRow>(
      `SELECT ${RUN_COLUMNS} FROM ${this.#t.runs} WHERE behavior = ? AND state = 'leased' AND lease_until > ?`,
      [behavior, now],
    );
    return rows.map(toRun);
  }

  async runsByIds(ids: readonly string[]): Promise<RunRow[]> {
    if (ids.length === 0) return [];
    const marks = ids.map(() => '?').join(', ');
    const rows = await this.#x.all<RunDbRow>(
      `SELECT ${RUN_COLUMNS} FROM ${this.#t.runs} WHERE id IN (${marks})`,
      ids,
    );
    return rows.map(toRun);
  }

  async getRun(id: string): Promise<RunRow | null> {
    return (await this.runsByIds([id]))[0] ?? null;
  }

  async runs(behavior: string, limit: number): Promise<RunRow[]> {
    const rows = await this.#x.all<RunDbRow>(
      `SELECT ${RUN_COLUMNS} FROM ${this.#t.runs} WHERE behavior = ? ORDER BY started_at DESC, id DESC LIMIT ?`,
      [behavior, limit],
    );
    return rows.map(toRun);
  }

  async consumed(runId: string): Promise<string[]> {
    const rows = await this.#x.all<{ item_id: string }>(
      `SELECT item_id FROM ${this.#t.links} WHERE run_id = ? ORDER BY item_id`,
      [runId],
    );
    return rows.map((r) => r.item_id);
  }

  async linked(behavior: string, items: readonly string[]): Promise<string[]> {
    if (items.length === 0) return [];
    const marks = items.map(() => '?').join(', ');
    const rows = await this.#x.all<{ item_id: string }>(
      `SELECT item_id FROM ${this.#t.links} WHERE behavior = ? AND item_id IN (${marks})`,
      [behavior, ...items],
    );
    return rows.map((r) => r.item_id);
  }

  async insertRun(r: RunRow): Promise<void> {
    await this.#x.run(
      `INSERT INTO ${this.#t.runs} (${RUN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        r.id,
        r.behavior,
        r.version,
        r.state,
        JSON.stringify(r.shown),
        r.nonce,
        r.leaseUntil,
        r.depth,
        JSON.stringify(r.chain),
        JSON.stringify(r.outputs),
        r.startedBy,
        r.startedAt,
        r.endedAt,
        r.failure,
      ],
    );
  }

  async finishRun(id: string, endedAt: string, outputs: readonly string[]): Promise<void> {
    const run = await this.getRun(id);
    if (run === null) return;
    for (const item of run.shown) {
      await this.#x.run(`INSERT INTO ${this.#t.links} (behavior, item_id, run_id) VALUES (?, ?, ?)`, [
        run.behavior,
        item,
        id,
      ]);
    }
    await this.#x.run(
      `UPDATE ${this.#t.runs} SET state = 'finished', ended_at = ?, outputs = ? WHERE id = ? AND state = 'leased'`,
      [endedAt, JSON.stringify(outputs), id],
    );
  }

  async failRun(id: string, endedAt: string, failure: string): Promise<void> {
    await this.#x.run(
      `UPDATE ${this.#t.runs} SET state = 'failed', ended_at = ?, failure = ? WHERE id = ? AND state = 'leased'`,
      [endedAt, failure, id],
    );
  }

  async insertFire(f: FireRow): Promise<boolean> {
    const changed = await this.#x.run(
      `INSERT INTO ${this.#t.fires} (${FIRE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (${this.#conflictPrefix()}behavior, trigger, window_key) DO NOTHING`,
      [f.id, f.behavior, f.trigger, f.windowKey, f.at, f.memoryId, f.firedAt],
    );
    return changed > 0;
  }

  /** Postgres keys every unique rule on the tenant first; a home is one tenant. */
  #conflictPrefix(): string {
    return this.#t.runs.includes('.') ? 'tenant, ' : '';
  }

  #behaviorSelect(): string {
    const t = this.#t;
    return `SELECT v.name, v.version, v.definition, v.created_by, v.created_at, b.disabled_at
      FROM ${t.behaviors} b JOIN ${t.versions} v ON v.name = b.name AND v.version = b.version`;
  }
}

const toVersion = (r: VersionDbRow): BehaviorVersionRow => ({
  name: r.name,
  version: Number(r.version),
  definition: r.definition,
  createdBy: r.created_by,
  createdAt: r.created_at,
});

const toBehavior = (r: VersionDbRow): BehaviorRow => ({ ...toVersion(r), disabledAt: r.disabled_at ?? null });

const toRun = (r: RunDbRow): RunRow => ({
  id: r.id,
  behavior: r.behavior,
  version: Number(r.version),
  state: r.state,
  shown: JSON.parse(r.shown) as string[],
  nonce: r.nonce,
  leaseUntil: r.lease_until,
  depth: Number(r.depth),
  chain: JSON.parse(r.chain) as string[],
  outputs: JSON.parse(r.outputs) as string[],
  startedBy: r.started_by,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  failure: r.failure,
});

const toFire = (r: FireDbRow): FireRow => ({
  id: r.id,
  behavior: r.behavior,
  trigger: r.trigger,
  windowKey: r.window_key,
  at: r.at,
  memoryId: r.memory_id,
  firedAt: r.fired_at,
});
