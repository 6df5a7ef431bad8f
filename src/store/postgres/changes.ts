/**
 * Cross-replica change notices on Postgres (`LISTEN/NOTIFY`): every committed memory transaction of a tenant
 * notifies channel `memledger_changes` with the tenant's name (the server sends it at COMMIT only, so a rolled
 * back write wakes nobody), and a watcher in any replica (the review event stream) wakes at once instead of at
 * its next poll. The listening connection is opened by the first watcher only (a CLI command never opens it)
 * and ends with the store's pool. Notices are counted, so a change that arrives between two waits is not lost.
 */
import type { ChangeFeed } from '../port.ts';
import type { Sql } from './database.ts';

export const CHANGES_CHANNEL = 'memledger_changes';

export class PostgresChanges implements ChangeFeed {
  readonly #sql: Sql;
  readonly #tenant: string;
  readonly #waiters = new Set<() => void>();
  #listening: Promise<void> | undefined;
  #seen = 0;

  constructor(sql: Sql, tenant: string) {
    this.#sql = sql;
    this.#tenant = tenant;
  }

  get seen(): number {
    return this.#seen;
  }

  start(): Promise<void> {
    // A LISTEN that fails (a closed pool, a lost connection) leaves every wait to its timer: watchers poll.
    this.#listening ??= this.#sql
      .listen(CHANGES_CHANNEL, (payload) => {
        if (payload !== this.#tenant) return;
        this.#seen++;
        for (const wake of [...this.#waiters]) wake();
      })
      .then(
        () => undefined,
        () => undefined,
      );
    return this.#listening;
  }

  wait(after: number, ms: number): Promise<void> {
    if (this.#seen > after) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve();
      };
      // Unreferenced: an open watch never keeps a stopping server's process alive.
      const timer = setTimeout(wake, ms);
      timer.unref();
      this.#waiters.add(wake);
    });
  }
}
