/**
 * The hook baseline's minimal process (run by bench/cases/hook-process.ts): open node:sqlite on memledger's
 * memory.db, run one scoped FTS5 query joined to its rows, print how many came back. What any hook that reads
 * memories must at least do after Node starts: no CLI, no policy, no ledger, no tokenizer, no audit. Plain
 * JavaScript: a .ts file would add the type stripper's load (tens of ms) to every start, and this is the floor.
 * Usage: node bench/children/raw-hook.mjs MEMORY_DB MATCH
 */
import { DatabaseSync } from 'node:sqlite';

const [path, match] = process.argv.slice(2);
if (path === undefined || match === undefined) {
  process.stderr.write('usage: raw-hook.mjs MEMORY_DB MATCH\n');
  process.exit(2);
}
const db = new DatabaseSync(path, { readOnly: true });
const rows = db
  .prepare(
    `SELECT m.* FROM (SELECT rowid, rank FROM fts_current WHERE fts_current MATCH ? ORDER BY rank LIMIT 30) f
     JOIN memories m ON m.seq = f.rowid ORDER BY f.rank`,
  )
  .all(match);
db.close();
process.stdout.write(`${rows.length}\n`);
