/**
 * Every CLI failure is audited exactly once (I8). A failure inside a session call is audited by the ledger;
 * the rest (an unknown option, a bad `--as`, `erase` without `--yes`) are recorded by the CLI as refusals.
 * This tracker tells the two apart by remembering which errors escaped a session call.
 */
import type { LedgerSession } from '../../ledger/ledger.ts';

export class AuditedErrors {
  readonly #seen = new WeakSet<object>();

  /** Did this error come out of a session call, which already wrote its audit record? */
  has(error: unknown): boolean {
    return typeof error === 'object' && error !== null && this.#seen.has(error);
  }

  /** The same session, noting every error that leaves one of its calls (promises and async iterators alike). */
  track(session: LedgerSession): LedgerSession {
    const mark = (error: unknown): never => {
      if (typeof error === 'object' && error !== null) this.#seen.add(error);
      throw error;
    };
    return new Proxy(session, {
      get(target, property) {
        // Read on the target itself: the session keeps its state in private fields, which a proxy cannot reach.
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          let result: unknown;
          try {
            result = value.apply(target, args);
          } catch (error) {
            mark(error);
          }
          if (result instanceof Promise) return result.catch(mark);
          if (isAsyncIterable(result)) return guarded(result, mark);
          return result;
        };
      },
    });
  }
}

async function* guarded<T>(source: AsyncIterable<T>, mark: (error: unknown) => never): AsyncGenerator<T> {
  try {
    yield* source;
  } catch (error) {
    mark(error);
  }
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
