/** A memory's neighbours in its session on SQLite: two seeks on the session-order index of migration 15. */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { Neighbours, NeighbourStore } from '../neighbours-port.ts';
import type { ScopeSet } from '../port.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';
import { scopeCondition } from './search.ts';

type Serial = <T>(fn: () => Promise<T>) => Promise<T>;

/** The expression migration 15 indexes, written the same way so the planner uses the index. */
const SESSION = `json_extract(m.provenance, '$.sessionId')`;

export class SqliteNeighbourStore implements NeighbourStore {
  readonly #prepare: (sql: string) => StatementSync;
  readonly #serial: Serial;
  readonly #anchor;

  /** `prepare` is the store's statement cache: the two seeks' text depends only on the number of scopes. */
  constructor(
    db: DatabaseSync,
    serial: Serial,
    prepare: (sql: string) => StatementSync = (sql) => db.prepare(sql),
  ) {
    this.#prepare = prepare;
    this.#serial = serial;
    this.#anchor = db.prepare(`SELECT m.seq, ${SESSION} AS session FROM memories m WHERE m.id = ?`);
  }

  around(ids: readonly string[], scopes: ScopeSet): Promise<Map<string, Neighbours>> {
    return this.#serial(async () => {
      const { where, params } = scopeWhere(scopes);
      const side = (op: '<' | '>', order: 'DESC' | 'ASC') =>
        this.#prepare(
          `SELECT ${MEMORY_COLUMNS} FROM memories m
           WHERE ${SESSION} = :session AND m.seq ${op} :seq AND m.state = 'active' AND ${where}
           ORDER BY m.seq ${order} LIMIT 1`,
        );
      const before = side('<', 'DESC');
      const after = side('>', 'ASC');
      const out = new Map<string, Neighbours>();
      for (const id of ids) {
        const anchor = this.#anchor.get(id) as { seq: number; session: string | null } | undefined;
        if (anchor === undefined || typeof anchor.session !== 'string') {
          out.set(id, { before: null, after: null });
          continue;
        }
        const p = { ...params, session: anchor.session, seq: anchor.seq };
        const b = before.get(p) as MemoryRow | undefined;
        const a = after.get(p) as MemoryRow | undefined;
        out.set(id, {
          before: b === undefined ? null : toMemory(b),
          after: a === undefined ? null : toMemory(a),
        });
      }
      return out;
    });
  }
}

/** The scope restriction inside the statement, so a turn the caller cannot read is never a candidate (I4). */
function scopeWhere(scopes: ScopeSet): { where: string; params: Record<string, SQLInputValue> } {
  const params: Record<string, SQLInputValue> = {};
  return { where: scopes.all ? '1' : scopeCondition(scopes, params), params };
}
