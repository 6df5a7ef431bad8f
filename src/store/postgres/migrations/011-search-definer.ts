/**
 * Migration 11 of the Postgres store (part `store`): full-text matches through a GIN index under row-level
 * security. PostgreSQL does not mark `@@` (`ts_match_vq`) LEAKPROOF, so under a policy it never becomes an index
 * condition ahead of the policy's tenant qual: as `memledger_app` a search walked its scopes' documents through
 * `search_docs_scope` and tested each tsvector (EXPLAIN ANALYZE of bench queries at 100k: a scope of 1,337
 * documents, 2 matches: 1,147 buffers, 15.8 ms; a scope of 1,441, 24 matches: 1,296 buffers, 8.0 ms).
 *
 * What was weighed (PostgreSQL 15, measured as a role RLS does not bind):
 * - a LEAKPROOF wrapper or operator class: marking a function LEAKPROOF and CREATE OPERATOR CLASS need a
 *   superuser, which the schema's owner is not (README "Running on PostgreSQL");
 * - a definer that may bypass RLS: only superusers can create a BYPASSRLS role in 15; a table's owner bypasses
 *   RLS unless it is FORCEd. So `search_docs` keeps RLS enabled (every other role, `memledger_app` included, is
 *   bound as before) but no longer forced on its owner, and `memledger.search_matches`, SECURITY DEFINER and
 *   owned by the schema's owner, applies the tenant itself: `tenant = current_setting('memledger.tenant',
 *   true)`, the setting the policies read, never an argument; with no tenant set it finds nothing. FORCE never
 *   bound the owner against itself (the owner may ALTER the table back at will); it kept the owner's own
 *   statements tenant-bound, so the store's statements on `search_docs` now name the tenant (scope-stats.ts);
 * - with the index usable, the old GIN on `tsv` beside `search_docs_scope`: the planner, with no statistics of
 *   the documents (I9), left the GIN out of the bitmap for a scope of 1,001 documents and filtered each one
 *   again, and at 1M a word's tenant-wide posting list outgrows its scope's (at 100k the words of a bench query
 *   matched 708–1,766 documents of the tenant for 5–24 in the scope);
 * - btree_gin's (scope, tsv) GIN: a contrib extension the schema's owner would have to be allowed to create;
 * - kept: the scope inside the indexed document, as FTS5's scope tokens on SQLite: one GIN on the document plus
 *   a lexeme of its tenant and scope (`' ' || tenant || ' ' || scope`: spaces, which no token and no tenant
 *   holds), replacing the GIN on `tsv`, so `(scope lexemes) & (words)` finds the tenant's scope's matches in one
 *   index scan and reads their pages only (the same two queries: 15 and 38 buffers), however many tenants share a
 *   scope name; prefix scopes (`agent:*`) are prefix lexemes. The function builds the scope lexemes itself, from
 *   the tenant setting, so a caller cannot name another tenant's. A search of every scope matches the words alone
 *   and keeps the tenant's rows. Statistics target 0 on the index (I9: ANALYZE samples an expression index's
 *   column as a table's).
 * The function's statement can use the GIN only (its tenant test matches no btree, sequential scans are off):
 * with no statistics of the documents (I9) the planner takes any query for 0.5% of the tenant, and it chose a
 * sequential scan of 8,000 documents, or a bitmap of the whole tenant from the primary key with the match as a
 * filter, over the GIN; the GIN's bitmap is the one path whose cost follows the matches. It answers the
 * matches' seq and tsvector, newest first, at most `p_limit` (null: all); the query is a tsquery value (I11:
 * built quoted in rows.ts). Granted to `memledger_app` only. Nothing a caller sees changes. Postgres only:
 * SQLite's FTS5 has no RLS.
 *
 * Also the context's listings of kinds in scopes (search.ts byPairs): `memories_active_kind_scope` (tenant, kind,
 * scope, seq) of active memories, walked backward per (scope, kind) pair. Without it the commitments listing
 * (kind commitment, valid now, two scopes) walked the tenant's newest memories through the primary key testing
 * each: at 1M, 219 ms and 12,141 buffers a call, and the rules listing 58 ms and 3,930 buffers (bench context,
 * pg_stat_statements, load average 18–21).
 */
import type { PgMigration } from '../database.ts';

export const STORE_MIGRATION_11: PgMigration = {
  version: 11,
  name: 'search matches under rls, active kinds by scope',
  async up(tx) {
    await tx.unsafe(`
alter table memledger.search_docs no force row level security;

create index search_docs_scoped on memledger.search_docs
  using gin ((tsv || array_to_tsvector(array[' ' || tenant || ' ' || scope])));
alter index memledger.search_docs_scoped alter column 1 set statistics 0;
drop index memledger.search_docs_tsv;

create index memories_active_kind_scope on memledger.memories (tenant, kind, scope, seq) where state = 'active';

-- The GIN is the one index this statement can use: \`tenant || ''\` matches no btree (every one leads with the
-- tenant), and a sequential scan is off; see the header. A lexeme is quoted as tsquery input quotes it.
create function memledger.search_matches(
  p_idx text[], p_words tsquery, p_exact text[], p_prefixes text[], p_limit bigint
) returns table (seq bigint, tsv tsvector)
language plpgsql stable security definer set search_path = pg_catalog, pg_temp set enable_seqscan = off as $$
declare
  v_tenant text := current_setting('memledger.tenant', true);
  v_query tsquery := p_words;
  v_scopes text;
begin
  if p_exact is not null or p_prefixes is not null then
    select string_agg(l, ' | ') into v_scopes from (
      select '''' || replace(replace(' ' || v_tenant || ' ' || s, '\\', '\\\\'), '''', '''''') || '''' as l
      from unnest(p_exact) s
      union all
      select '''' || replace(replace(' ' || v_tenant || ' ' || s, '\\', '\\\\'), '''', '''''') || ''':*'
      from unnest(p_prefixes) s) x;
    if v_scopes is null then
      return;
    end if;
    v_query := v_scopes::tsquery && p_words;
  end if;
  return query
    select d.seq, d.tsv from memledger.search_docs d
    where d.tenant || '' = v_tenant and d.idx = any(p_idx)
      and (d.tsv || array_to_tsvector(array[' ' || d.tenant || ' ' || d.scope])) @@ v_query
    order by d.seq desc limit p_limit;
end $$;
revoke all on function memledger.search_matches(text[], tsquery, text[], text[], bigint) from public;
grant execute on function memledger.search_matches(text[], tsquery, text[], text[], bigint) to memledger_app;
`);
  },
};
