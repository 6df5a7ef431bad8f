/**
 * The workspace's guard (I16): a node:sqlite authorizer with an allow-list. An agent's statement may read and
 * write its own tables in `main`, create and drop tables, indexes, views and triggers there, read the mounted
 * `__` tables, call the allowed functions and a few read-only pragmas. Everything else is denied: ATTACH and
 * DETACH (so VACUUM INTO), transactions and savepoints (the engine owns them), temp objects (the mounts live
 * there), virtual tables, and every function not listed (load_extension, readfile, writefile, edit,
 * fts3_tokenizer are simply absent). The engine's own statements run with `engine` mode on.
 */
import { constants as c } from 'node:sqlite';
import { isReservedName, MOUNT_PREFIX } from './config.ts';
import { ALLOWED_FUNCTIONS } from './functions.ts';

/** Pragmas that only read the schema; every other pragma (database_list, temp_store_directory, …) is denied. */
const READ_PRAGMAS = new Set([
  'table_info',
  'table_xinfo',
  'table_list',
  'index_list',
  'index_info',
  'index_xinfo',
  'foreign_key_list',
  'foreign_key_check',
  'collation_list',
  'page_count',
  'freelist_count',
]);

/** SQLite writes its schema table itself while running an allowed CREATE, DROP or ALTER. */
const SCHEMA_TABLES = new Set(['sqlite_master', 'sqlite_schema', 'sqlite_temp_master', 'sqlite_temp_schema']);

/** What one prepared statement touched, for the engine's subject rule and the usage record. */
export interface Touched {
  /** Tables read or written in main. */
  tables: Set<string>;
  /** Tables created or altered in main: their columns are checked after the statement ran. */
  shaped: Set<string>;
  /** Whether the statement may change main (so the batch must be committed). */
  writes: boolean;
}

export class Guard {
  /** On while the engine runs its own statements (mounts, savepoints, the usage record). */
  engine = true;
  /** Why the last denied action was denied, in words for the model. */
  denial: string | null = null;
  touched: Touched = { tables: new Set(), shaped: new Set(), writes: false };

  /** Clears the record before an agent statement is prepared. */
  reset(): void {
    this.denial = null;
    this.touched = { tables: new Set(), shaped: new Set(), writes: false };
  }

  readonly authorize = (
    action: number,
    arg1: string | null,
    arg2: string | null,
    db: string | null,
  ): number => {
    if (this.engine) return c.SQLITE_OK;
    const why = this.#decide(action, arg1 ?? '', arg2 ?? '', db ?? '');
    if (why === null) return c.SQLITE_OK;
    // The first reason wins, except that naming a mount says more than the schema-table write that preceded it.
    if (this.denial === null || why.startsWith(MOUNT_PREFIX)) this.denial = why;
    return c.SQLITE_DENY;
  };

  /** null allows; a string is the reason the action is denied. */
  #decide(action: number, a1: string, a2: string, db: string): string | null {
    const t = this.touched;
    switch (action) {
      case c.SQLITE_SELECT:
      case c.SQLITE_RECURSIVE:
        return null;
      case c.SQLITE_READ:
        // An empty database name is a CTE's or a subquery's own columns (count(*) over a WITH, for one).
        if (db === 'main' || db === 'temp' || db === '') {
          if (db === 'main' && !SCHEMA_TABLES.has(a1)) t.tables.add(a1);
          return null;
        }
        return `reading from database ${db} is not allowed`;
      case c.SQLITE_INSERT:
      case c.SQLITE_UPDATE:
      case c.SQLITE_DELETE:
        return this.#write(a1, db);
      case c.SQLITE_CREATE_TABLE:
      case c.SQLITE_ALTER_TABLE: {
        const table = action === c.SQLITE_CREATE_TABLE ? a1 : a2;
        const where = action === c.SQLITE_CREATE_TABLE ? db : a1;
        if (where !== 'main') return 'tables are created in the workspace itself (main) only';
        if (isReservedName(table)) return reservedMessage(table);
        t.shaped.add(table);
        t.writes = true;
        return null;
      }
      case c.SQLITE_CREATE_INDEX:
      case c.SQLITE_CREATE_VIEW:
      case c.SQLITE_CREATE_TRIGGER:
      case c.SQLITE_DROP_INDEX:
      case c.SQLITE_DROP_TABLE:
      case c.SQLITE_DROP_VIEW:
      case c.SQLITE_DROP_TRIGGER:
      case c.SQLITE_REINDEX:
      case c.SQLITE_ANALYZE:
        if (db !== 'main') return 'schema changes are allowed in the workspace itself (main) only';
        if (action === c.SQLITE_DROP_TABLE && isReservedName(a1)) return reservedMessage(a1);
        t.writes = true;
        return null;
      case c.SQLITE_CREATE_TEMP_INDEX:
      case c.SQLITE_CREATE_TEMP_TABLE:
      case c.SQLITE_CREATE_TEMP_TRIGGER:
      case c.SQLITE_CREATE_TEMP_VIEW:
      case c.SQLITE_DROP_TEMP_INDEX:
      case c.SQLITE_DROP_TEMP_TABLE:
      case c.SQLITE_DROP_TEMP_TRIGGER:
      case c.SQLITE_DROP_TEMP_VIEW:
        if (a1.startsWith(MOUNT_PREFIX)) return this.#write(a1, 'temp');
        return TEMP_MESSAGE;
      case c.SQLITE_FUNCTION:
        return ALLOWED_FUNCTIONS.has(a2.toLowerCase()) ? null : `the function ${a2}() is not allowed here`;
      case c.SQLITE_PRAGMA:
        return READ_PRAGMAS.has(a1.toLowerCase())
          ? null
          : `PRAGMA ${a1} is not allowed (allowed: ${[...READ_PRAGMAS].join(', ')})`;
      case c.SQLITE_ATTACH:
      case c.SQLITE_DETACH:
        return 'ATTACH, DETACH and VACUUM INTO are not allowed: a workspace reaches no other database or file';
      case c.SQLITE_TRANSACTION:
      case c.SQLITE_SAVEPOINT:
        return 'transactions are managed by the engine: each call is one transaction, rolled back whole on the first failure';
      case c.SQLITE_CREATE_VTABLE:
      case c.SQLITE_DROP_VTABLE:
        return 'virtual tables are not allowed';
      default:
        return 'this statement is not allowed in a workspace';
    }
  }

  #write(table: string, db: string): string | null {
    // SQLite writes a schema table itself during a CREATE or DROP, before it asks about the object; the object's
    // own action decides (a statement cannot write a schema table directly: SQLite refuses it in any case).
    if (SCHEMA_TABLES.has(table) && (db === 'main' || db === 'temp')) return null;
    if (db === 'temp' || table.startsWith(MOUNT_PREFIX)) {
      return `${table} is a read-only mount of the ledger: memory changes go through save_memory (and its review gate), never around it`;
    }
    if (db !== 'main') return `writing to database ${db} is not allowed`;
    if (isReservedName(table)) return reservedMessage(table);
    this.touched.tables.add(table);
    this.touched.writes = true;
    return null;
  }
}

const TEMP_MESSAGE =
  'TEMP objects are not allowed: create ordinary tables (with a subject column) in the workspace';

const reservedMessage = (name: string): string =>
  name.startsWith(MOUNT_PREFIX)
    ? `${name}: names starting with __ belong to the ledger's read-only mounts; memory changes go through save_memory`
    : `${name} is a reserved name (sqlite_…, _workspace_…)`;
