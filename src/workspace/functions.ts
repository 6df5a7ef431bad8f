/**
 * The functions an agent's SQL may call (the authorizer's allow-list) and the few safe, pure ones the engine adds
 * (REGEXP and what agents reach for), so nobody needs a denied one. SQLite's internal helpers used by ALTER TABLE
 * are listed because SQLite asks for them while running an allowed ALTER; a statement cannot call them itself.
 */
import type { DatabaseSync } from 'node:sqlite';

const CORE = `abs changes char coalesce concat concat_ws format glob hex ifnull iif if instr last_insert_rowid length
like likelihood likely lower ltrim max min nullif octet_length printf quote random randomblob replace round rtrim
sign soundex sqlite_version substr substring total_changes trim typeof unhex unicode unlikely upper zeroblob
date time datetime julianday unixepoch strftime timediff current_date current_time current_timestamp
avg count group_concat string_agg sum total median percentile percentile_cont percentile_disc
row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp floor ln log log10 log2 mod pi pow power
radians sin sinh sqrt tan tanh trunc
json json_array json_array_length json_error_position json_extract json_group_array json_group_object
json_insert json_object json_patch json_pretty json_quote json_remove json_replace json_set json_type json_valid
json_each json_tree jsonb jsonb_array jsonb_extract jsonb_group_array jsonb_group_object jsonb_insert
jsonb_object jsonb_patch jsonb_remove jsonb_replace jsonb_set
sqlite_rename_column sqlite_rename_table sqlite_rename_test sqlite_rename_quotefix sqlite_drop_column`;

/** Registered by the engine: deterministic, no I/O. */
const ADDED: Record<string, { args: number; fn: (...a: unknown[]) => string | number | null }> = {
  regexp: {
    args: 2,
    fn: (pattern, value) => (value === null ? null : regex(pattern).test(String(value)) ? 1 : 0),
  },
  regexp_like: {
    args: 2,
    fn: (value, pattern) => (value === null ? null : regex(pattern).test(String(value)) ? 1 : 0),
  },
  regexp_replace: {
    args: 3,
    fn: (value, pattern, to) =>
      value === null ? null : String(value).replace(regex(pattern, 'g'), String(to ?? '')),
  },
  regexp_substr: {
    args: 2,
    fn: (value, pattern) => (value === null ? null : (regex(pattern).exec(String(value))?.[0] ?? null)),
  },
  split_part: {
    args: 3,
    fn: (value, sep, n) => (value === null ? null : (String(value).split(String(sep))[Number(n) - 1] ?? '')),
  },
  left: {
    args: 2,
    fn: (value, n) => (value === null ? null : String(value).slice(0, Math.max(0, Number(n)))),
  },
  right: {
    args: 2,
    fn: (value, n) => (value === null ? null : Number(n) <= 0 ? '' : String(value).slice(-Number(n))),
  },
  starts_with: {
    args: 2,
    fn: (value, p) => (value === null ? null : String(value).startsWith(String(p)) ? 1 : 0),
  },
  ends_with: {
    args: 2,
    fn: (value, p) => (value === null ? null : String(value).endsWith(String(p)) ? 1 : 0),
  },
  lpad: {
    args: 3,
    fn: (value, n, p) => (value === null ? null : String(value).padStart(Number(n), String(p ?? ' '))),
  },
  rpad: {
    args: 3,
    fn: (value, n, p) => (value === null ? null : String(value).padEnd(Number(n), String(p ?? ' '))),
  },
};

export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([...CORE.split(/\s+/), ...Object.keys(ADDED)]);
/** The names the engine adds, for the README and the errors. */
export const ADDED_FUNCTIONS: readonly string[] = Object.keys(ADDED);

/**
 * Names of SQL's file and extension escapes, registered as inert functions only so that a statement naming one
 * reaches the authorizer, which denies it (`permission`), instead of failing as an unknown function.
 */
const TRIPWIRES = ['readfile', 'writefile', 'edit', 'fts3_tokenizer'];

export function registerFunctions(db: DatabaseSync): void {
  for (const name of TRIPWIRES) db.function(name, { varargs: true }, () => null);
  for (const [name, { args, fn }] of Object.entries(ADDED)) {
    db.function(name, { deterministic: true, varargs: true }, (...a) => {
      if (a.length !== args) throw new Error(`${name}() takes ${args} arguments`);
      return fn(...a);
    });
  }
}

/** Patterns are cached: a REGEXP over a table compiles its pattern once, not per row. */
const patterns = new Map<string, RegExp>();
function regex(pattern: unknown, flags = ''): RegExp {
  const key = `${flags}/${String(pattern)}`;
  let re = patterns.get(key);
  if (re === undefined) {
    if (patterns.size > 200) patterns.clear();
    re = new RegExp(String(pattern), flags);
    patterns.set(key, re);
  }
  return re;
}
