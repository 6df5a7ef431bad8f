/** MCP sessions on Postgres (`mcp_sessions`): any replica serving the tenant can answer any request of a session. */
import type { McpSessionLimits, McpSessionRow, McpSessionStore } from '../mcp-sessions-port.ts';
import { one, type Q, run } from './statements.ts';

type Read = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;
/** The store's write transaction: it holds the tenant's write lock, so two replicas opening sessions serialise. */
type Write = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;

interface SessionDbRow {
  id: string;
  token_id: string;
  client_name: string | null;
  client_version: string | null;
  created_at: string;
  seen_at: string;
}

export class PostgresMcpSessionStore implements McpSessionStore {
  readonly #read: Read;
  readonly #write: Write;

  constructor(read: Read, write: Write) {
    this.#read = read;
    this.#write = write;
  }

  open(row: McpSessionRow, limits: McpSessionLimits): Promise<string[]> {
    return this.#write(async (q) => {
      const dropped = (
        await run<{ id: string }>(q, 'delete from memledger.mcp_sessions where seen_at < $1 returning id', [
          limits.staleBefore,
        ])
      ).map((r) => r.id);
      // Only this token's own sessions make room for it: one client opening many never ends another's.
      const counted = await one<{ n: number }>(
        q,
        'select count(*)::int as n from memledger.mcp_sessions where token_id = $1',
        [row.tokenId],
      );
      const over = Number(counted?.n ?? 0) - (limits.perToken - 1);
      if (over > 0) {
        const oldest = await run<{ id: string }>(
          q,
          `delete from memledger.mcp_sessions where id in (select id from memledger.mcp_sessions
             where token_id = $1 order by seen_at, created_at limit $2) returning id`,
          [row.tokenId, over],
        );
        dropped.push(...oldest.map((r) => r.id));
      }
      await run(
        q,
        `insert into memledger.mcp_sessions (id, token_id, client_name, client_version, created_at, seen_at)
         values ($1, $2, $3, $4, $5, $6)`,
        [row.id, row.tokenId, row.clientName, row.clientVersion, row.createdAt, row.seenAt],
      );
      return dropped;
    });
  }

  get(id: string): Promise<McpSessionRow | null> {
    return this.#read(async (q) => {
      const r = await one<SessionDbRow>(
        q,
        'select id, token_id, client_name, client_version, created_at, seen_at from memledger.mcp_sessions where id = $1',
        [id],
      );
      return r === undefined
        ? null
        : {
            id: r.id,
            tokenId: r.token_id,
            clientName: r.client_name,
            clientVersion: r.client_version,
            createdAt: r.created_at,
            seenAt: r.seen_at,
          };
    });
  }

  touch(id: string, at: string): Promise<void> {
    return this.#write(async (q) => {
      await run(q, 'update memledger.mcp_sessions set seen_at = $1 where id = $2', [at, id]);
    });
  }

  close(id: string): Promise<boolean> {
    return this.#write(
      async (q) =>
        (await run(q, 'delete from memledger.mcp_sessions where id = $1 returning 1', [id])).length > 0,
    );
  }
}
