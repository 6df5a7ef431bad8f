/** A memory's neighbours in its session on Postgres: two seeks on the session-order index of Postgres migration 10. */
import type { Neighbours, NeighbourStore } from '../neighbours-port.ts';
import type { ScopeSet } from '../port.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';
import { scopeWhere } from './search.ts';
import { one, Params, type Q } from './statements.ts';

type Read = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;

/** Provenance's session id as Postgres migration 10 stores it: a plain column, so its index serves under RLS. */
const SESSION = 'm.session_id';

export class PostgresNeighbourStore implements NeighbourStore {
  readonly #read: Read;

  constructor(read: Read) {
    this.#read = read;
  }

  around(ids: readonly string[], scopes: ScopeSet): Promise<Map<string, Neighbours>> {
    return this.#read(async (q) => {
      const out = new Map<string, Neighbours>();
      for (const id of ids) {
        const anchor = await one<{ seq: string; session: string | null }>(
          q,
          `select m.seq::text as seq, ${SESSION} as session from memledger.memories m where m.id = $1`,
          [id],
        );
        if (anchor === undefined || anchor.session === null) {
          out.set(id, { before: null, after: null });
          continue;
        }
        const side = async (op: '<' | '>', order: 'desc' | 'asc'): Promise<MemoryRow | undefined> => {
          const p = new Params();
          const session = p.add(anchor.session);
          const seq = p.add(anchor.seq);
          // Scopes inside the statement: a turn the caller cannot read is never a candidate (I4).
          const scoped = scopeWhere('m.scope', scopes, p) ?? 'true';
          return one<MemoryRow>(
            q,
            `select ${MEMORY_COLUMNS} from memledger.memories m
             where ${SESSION} = ${session} and m.seq ${op} ${seq}::bigint and m.state = 'active' and ${scoped}
             order by m.seq ${order} limit 1`,
            p.values,
          );
        };
        const [b, a] = await Promise.all([side('<', 'desc'), side('>', 'asc')]);
        out.set(id, {
          before: b === undefined ? null : toMemory(b),
          after: a === undefined ? null : toMemory(a),
        });
      }
      return out;
    });
  }
}
