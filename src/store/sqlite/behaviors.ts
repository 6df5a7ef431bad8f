/** Behaviors on SQLite (the tables of migration 12): the shared statements over this connection. */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { BehaviorRow, BehaviorStore, BehaviorVersionRow, FireRow, RunRow } from '../behaviors-port.ts';
import { type BehaviorExec, BehaviorQueries, type BehaviorTables } from '../behaviors-queries.ts';

type Serial = <T>(fn: () => Promise<T>) => Promise<T>;

const TABLES: BehaviorTables = {
  behaviors: 'behaviors',
  versions: 'behavior_versions',
  runs: 'behavior_runs',
  links: 'behavior_run_events',
  fires: 'behavior_fires',
  events: 'events',
};

/** The statements on this connection, prepared once per text: a home runs few distinct ones. */
export function sqliteBehaviorQueries(db: DatabaseSync): BehaviorQueries {
  let exec = executors.get(db);
  if (exec === undefined) {
    const cache = new Map<string, StatementSync>();
    const prepared = (sql: string) => {
      let s = cache.get(sql);
      if (s === undefined) {
        s = db.prepare(sql);
        cache.set(sql, s);
      }
      return s;
    };
    exec = {
      async all<T>(sql: string, params: readonly (string | number | null)[]) {
        return prepared(sql).all(...(params as SQLInputValue[])) as T[];
      },
      async run(sql: string, params: readonly (string | number | null)[]) {
        return Number(prepared(sql).run(...(params as SQLInputValue[])).changes);
      },
    };
    executors.set(db, exec);
  }
  return new BehaviorQueries(exec, TABLES);
}

const executors = new WeakMap<DatabaseSync, BehaviorExec>();

export class SqliteBehaviorStore implements BehaviorStore {
  readonly #q: BehaviorQueries;
  readonly #serial: Serial;

  constructor(db: DatabaseSync, serial: Serial) {
    this.#q = sqliteBehaviorQueries(db);
    this.#serial = serial;
  }

  behavior(name: string): Promise<BehaviorRow | null> {
    return this.#serial(() => this.#q.behavior(name));
  }
  list(): Promise<BehaviorRow[]> {
    return this.#serial(() => this.#q.list());
  }
  version(name: string, version: number): Promise<BehaviorVersionRow | null> {
    return this.#serial(() => this.#q.version(name, version));
  }
  runs(behavior: string, limit: number): Promise<RunRow[]> {
    return this.#serial(() => this.#q.runs(behavior, limit));
  }
  consumed(runId: string): Promise<string[]> {
    return this.#serial(() => this.#q.consumed(runId));
  }
  fires(behavior: string): Promise<FireRow[]> {
    return this.#serial(() => this.#q.fires(behavior));
  }
}
