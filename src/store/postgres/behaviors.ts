/** Behaviors on Postgres (migration 5): the shared statements, `?` numbered for the server, tenant-bound by RLS. */
import type { BehaviorRow, BehaviorStore, BehaviorVersionRow, FireRow, RunRow } from '../behaviors-port.ts';
import { type BehaviorExec, BehaviorQueries, type BehaviorTables } from '../behaviors-queries.ts';
import { type Q, run } from './statements.ts';

type Read = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;

const TABLES: BehaviorTables = {
  behaviors: 'memledger.behaviors',
  versions: 'memledger.behavior_versions',
  runs: 'memledger.behavior_runs',
  links: 'memledger.behavior_run_events',
  fires: 'memledger.behavior_fires',
  events: 'memledger.events',
};

/** `?` → `$n`: the statements carry no `?` inside a literal. */
const numbered = new Map<string, string>();
function pgText(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    numbered.set(sql, text);
  }
  return text;
}

/** The statements inside one tenant transaction. */
export function postgresBehaviorQueries(q: Q): BehaviorQueries {
  const exec: BehaviorExec = {
    all: <T>(sql: string, params: readonly (string | number | null)[]) => run<T>(q, pgText(sql), params),
    async run(sql: string, params: readonly (string | number | null)[]) {
      const result = (await q.unsafe(pgText(sql), params as never[], { prepare: true })) as unknown as {
        count: number;
      };
      return Number(result.count);
    },
  };
  return new BehaviorQueries(exec, TABLES);
}

export class PostgresBehaviorStore implements BehaviorStore {
  readonly #read: Read;

  constructor(read: Read) {
    this.#read = read;
  }

  behavior(name: string): Promise<BehaviorRow | null> {
    return this.#read((q) => postgresBehaviorQueries(q).behavior(name));
  }
  list(): Promise<BehaviorRow[]> {
    return this.#read((q) => postgresBehaviorQueries(q).list());
  }
  version(name: string, version: number): Promise<BehaviorVersionRow | null> {
    return this.#read((q) => postgresBehaviorQueries(q).version(name, version));
  }
  runs(behavior: string, limit: number): Promise<RunRow[]> {
    return this.#read((q) => postgresBehaviorQueries(q).runs(behavior, limit));
  }
  consumed(runId: string): Promise<string[]> {
    return this.#read((q) => postgresBehaviorQueries(q).consumed(runId));
  }
  fires(behavior: string): Promise<FireRow[]> {
    return this.#read((q) => postgresBehaviorQueries(q).fires(behavior));
  }
}
