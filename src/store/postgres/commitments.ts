/** Commitments and summary chains on Postgres (store migration 4), mirroring SQLite's commitments.ts. */
import { MemoryError } from '../../model/errors.ts';
import type { Memory } from '../../model/memory.ts';
import type {
  CommitmentFilter,
  CommitmentReads,
  CommitmentRecord,
  CommitmentRow,
  CommitmentStatusChange,
  CommitmentTx,
  SourceWindow,
  SummaryChainRow,
  SummaryLinkRow,
} from '../commitments-port.ts';
import type { ScopeSet } from '../port.ts';
import {
  COMMITMENT_COLUMNS,
  type ChainDbRow,
  type CommitmentDbRow,
  JOINED_COLUMNS,
  joinedCommitment,
  type LinkDbRow,
  linkConflict,
  toChain,
  toCommitment,
  toLink,
} from '../commitment-rows.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';
import { scopeWhere } from './search.ts';
import { one, Params, type Q, run } from './statements.ts';

type Read = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;
type Link = SummaryLinkRow & { state: Memory['state'] };

export class PostgresCommitmentTx implements CommitmentTx {
  /** The transaction, or the savepoint open in it now. */
  readonly #q: () => Q;

  constructor(q: () => Q) {
    this.#q = q;
  }

  async insertCommitment(r: CommitmentRow): Promise<void> {
    await run(
      this.#q(),
      `insert into memledger.commitments (memory_id, scope, owner, status, due_at, remind_at, scheduled, semantic,
         created_at, status_at, status_by, completed_at) values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
      [
        r.memoryId,
        r.scope,
        r.owner,
        r.status,
        r.dueAt,
        r.remindAt,
        r.scheduled,
        r.semantic,
        r.createdAt,
        r.statusAt,
        r.statusBy,
        r.completedAt,
      ],
    );
  }

  async commitment(memoryId: string): Promise<CommitmentRow | null> {
    const row = await one<CommitmentDbRow>(
      this.#q(),
      `select ${COMMITMENT_COLUMNS} from memledger.commitments c where c.memory_id = $1`,
      [memoryId],
    );
    return row === undefined ? null : toCommitment(row);
  }

  async setStatus(memoryId: string, c: CommitmentStatusChange): Promise<void> {
    await run(
      this.#q(),
      'update memledger.commitments set status = $1, status_at = $2, status_by = $3, completed_at = $4 where memory_id = $5',
      [c.status, c.statusAt, c.statusBy, c.completedAt, memoryId],
    );
  }

  async insertChain(r: SummaryChainRow): Promise<void> {
    const inserted = await run(
      this.#q(),
      `insert into memledger.summary_chains (name, scope, session_id, subject, owner, created_by, created_at,
         source_erased_at) values ($1,$2,$3,$4,$5,$6,$7,$8) on conflict do nothing returning 1`,
      [r.name, r.scope, r.sessionId, r.subject, r.owner, r.createdBy, r.createdAt, r.sourceErasedAt],
    );
    if (inserted.length === 0) {
      throw new MemoryError('conflict', `a summary chain named ${r.name} exists already`, {
        details: { chain: r.name },
      });
    }
  }

  chain(name: string): Promise<SummaryChainRow | null> {
    return readChain(this.#q(), name);
  }

  links(chain: string): Promise<Link[]> {
    return readLinks(this.#q(), chain);
  }

  async insertLink(link: SummaryLinkRow): Promise<void> {
    // ON CONFLICT DO NOTHING (no target) covers every unique index, so a refused link leaves the transaction
    // usable and the rule it broke is found by asking, instead of parsing the error.
    const inserted = await run(
      this.#q(),
      `insert into memledger.summaries (memory_id, chain, previous, after, cutoff, created_at)
       values ($1,$2,$3,$4,$5,$6) on conflict do nothing returning 1`,
      [link.memoryId, link.chain, link.previous, link.after, link.cutoff, link.createdAt],
    );
    if (inserted.length === 0) {
      const live = (await this.links(link.chain)).filter((l) => l.staleAt === null);
      if (link.previous !== null && live.some((l) => l.previous === link.previous)) {
        throw linkConflict(link, 'next');
      }
      if (link.previous === null && live.some((l) => l.previous === null)) throw linkConflict(link, 'first');
      throw linkConflict(link, 'cutoff');
    }
    if (link.covers.length > 0) {
      await run(
        this.#q(),
        `insert into memledger.summary_covers (memory_id, summary_id)
         select unnest($1::text[]), $2`,
        [link.covers, link.memoryId],
      );
    }
  }

  source(window: SourceWindow): Promise<Memory[]> {
    return readSource(this.#q(), window);
  }

  linksCovering(memoryIds: readonly string[]): Promise<SummaryLinkRow[]> {
    return readCovering(this.#q(), memoryIds);
  }

  async markStale(memoryIds: readonly string[], at: string): Promise<void> {
    await run(
      this.#q(),
      'update memledger.summaries set stale_at = $1 where stale_at is null and memory_id = any($2::text[])',
      [at, [...memoryIds]],
    );
  }

  async eraseChainSubject(subject: string, at: string): Promise<void> {
    await run(
      this.#q(),
      'update memledger.summary_chains set subject = null, source_erased_at = $1 where subject = $2',
      [at, subject],
    );
  }
}

export class PostgresCommitmentReads implements CommitmentReads {
  readonly #read: Read;

  constructor(read: Read) {
    this.#read = read;
  }

  list(f: CommitmentFilter): Promise<CommitmentRecord[]> {
    return this.#read(async (q) => {
      const p = new Params();
      const where = [`m.state = 'active'`];
      const scope = scopeWhere('c.scope', f.scopes, p);
      if (scope !== null) where.push(scope);
      if (f.statuses !== undefined && f.statuses.length > 0) {
        where.push(`c.status = any(${p.add([...f.statuses])}::text[])`);
      }
      if (f.dueBefore !== undefined) where.push(`c.due_at is not null and c.due_at <= ${p.add(f.dueBefore)}`);
      if (f.owner !== undefined) where.push(`c.owner = ${p.add(f.owner)}`);
      if (f.with === 'scheduled') where.push('c.scheduled');
      if (f.with === 'semantic') where.push('c.semantic');
      const rows = await run<MemoryRow & Record<string, unknown>>(
        q,
        `select ${JOINED_COLUMNS}, ${MEMORY_COLUMNS} from memledger.commitments c
         join memledger.memories m on m.id = c.memory_id
         where ${where.join(' and ')} order by c.due_at is null, c.due_at, m.seq desc limit ${p.add(f.limit)}`,
        p.values,
      );
      return rows.map((r) => ({ commitment: joinedCommitment(r), memory: toMemory(r) }));
    });
  }

  forMemories(memoryIds: readonly string[]): Promise<CommitmentRow[]> {
    return this.#read(async (q) =>
      (
        await run<CommitmentDbRow>(
          q,
          `select ${COMMITMENT_COLUMNS} from memledger.commitments c where c.memory_id = any($1::text[])`,
          [[...memoryIds]],
        )
      ).map(toCommitment),
    );
  }

  dueBetween(scopes: ScopeSet, from: string, to: string, limit: number): Promise<CommitmentRow[]> {
    return this.#read(async (q) => {
      const p = new Params();
      const where = [`c.status in ('open','doing')`, `m.state = 'active'`];
      const scope = scopeWhere('c.scope', scopes, p);
      if (scope !== null) where.push(scope);
      const [a, b] = [p.add(from), p.add(to)];
      where.push(`((c.due_at > ${a} and c.due_at <= ${b}) or (c.remind_at > ${a} and c.remind_at <= ${b}))`);
      return (
        await run<CommitmentDbRow>(
          q,
          `select ${COMMITMENT_COLUMNS} from memledger.commitments c join memledger.memories m on m.id = c.memory_id
           where ${where.join(' and ')} order by least(c.due_at, c.remind_at) limit ${p.add(limit)}`,
          p.values,
        )
      ).map(toCommitment);
    });
  }

  chain(name: string): Promise<SummaryChainRow | null> {
    return this.#read((q) => readChain(q, name));
  }

  chains(scopes: ScopeSet): Promise<SummaryChainRow[]> {
    return this.#read(async (q) => {
      const p = new Params();
      const scope = scopeWhere('scope', scopes, p);
      const rows = await run<ChainDbRow>(
        q,
        `select name, scope, session_id, subject, owner, created_by, created_at, source_erased_at
         from memledger.summary_chains where ${scope ?? 'true'} order by name`,
        p.values,
      );
      return rows.map(toChain);
    });
  }

  links(chain: string): Promise<Link[]> {
    return this.#read((q) => readLinks(q, chain));
  }

  source(window: SourceWindow): Promise<Memory[]> {
    return this.#read((q) => readSource(q, window));
  }

  linksAround(memoryIds: readonly string[]): Promise<{ covering: SummaryLinkRow[]; of: SummaryLinkRow[] }> {
    return this.#read(async (q) => {
      const of = await run<LinkDbRow>(
        q,
        `select ${LINK_COLUMNS} from memledger.summaries s join memledger.memories m on m.id = s.memory_id
         where s.memory_id = any($1::text[])`,
        [[...memoryIds]],
      );
      return { covering: await readCovering(q, memoryIds), of: of.map(toLink) };
    });
  }
}

const LINK_COLUMNS =
  's.memory_id, s.chain, s.previous, s.after, s.cutoff, s.created_at, s.stale_at, m.state, null as covers';

async function readCovering(q: Q, memoryIds: readonly string[]): Promise<SummaryLinkRow[]> {
  const rows = await run<LinkDbRow>(
    q,
    `select ${LINK_COLUMNS} from memledger.summaries s join memledger.memories m on m.id = s.memory_id
     where s.memory_id in (select summary_id from memledger.summary_covers where memory_id = any($1::text[]))`,
    [[...memoryIds]],
  );
  return rows.map(toLink);
}

async function readChain(q: Q, name: string): Promise<SummaryChainRow | null> {
  const row = await one<ChainDbRow>(
    q,
    `select name, scope, session_id, subject, owner, created_by, created_at, source_erased_at
     from memledger.summary_chains where name = $1`,
    [name],
  );
  return row === undefined ? null : toChain(row);
}

async function readLinks(q: Q, chain: string): Promise<Link[]> {
  const rows = await run<LinkDbRow>(
    q,
    `select s.memory_id, s.chain, s.previous, s.after, s.cutoff, s.created_at, s.stale_at, m.state,
       coalesce((select json_agg(v.memory_id)::text from memledger.summary_covers v where v.summary_id = s.memory_id), '[]') as covers
     from memledger.summaries s join memledger.memories m on m.id = s.memory_id
     where s.chain = $1 order by m.seq`,
    [chain],
  );
  return rows.map(toLink);
}

async function readSource(q: Q, w: SourceWindow): Promise<Memory[]> {
  const p = new Params();
  const where = [`m.scope = ${p.add(w.scope)}`, `m.state in ('active', 'superseded')`, `m.kind <> 'summary'`];
  if (w.after !== null) where.push(`m.recorded_at > ${p.add(w.after)}`);
  if (w.until !== undefined) where.push(`m.recorded_at <= ${p.add(w.until)}`);
  if (w.sessionId !== null) where.push(`m.session_id = ${p.add(w.sessionId)}`);
  if (w.subject !== null) {
    where.push(
      `exists (select 1 from memledger.memory_subjects s where s.memory_seq = m.seq and s.subject = ${p.add(w.subject)})`,
    );
  }
  const rows = await run<MemoryRow>(
    q,
    `select ${MEMORY_COLUMNS} from memledger.memories m where ${where.join(' and ')}
     order by m.recorded_at, m.seq limit ${p.add(w.limit)}`,
    p.values,
  );
  return rows.map(toMemory);
}
