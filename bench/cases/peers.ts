/**
 * peers: memledger's MCP server beside the MCP reference memory server (`@modelcontextprotocol/server-memory`),
 * both spawned over stdio and driven by the SDK client on one workload: N writes then searches at each size
 * (1k and 10k; 100 in smoke mode), and two servers writing into one store at once. memledger keeps every
 * acknowledged write; for the peer, what its file holds afterwards is counted, not assumed.
 *
 * The workload is the same text on both sides: memory i's body from the bench's data set. memledger's write is
 * `save_memory` (guard, gate, event, index, audit, fsync'd WAL); the peer's is `create_entities` with one entity
 * whose observation is the body (it rewrites its whole JSONL file per call). A search is one content word of a
 * stored body: memledger's `search_memory` ranks with BM25 in the caller's scopes, the peer's `search_nodes`
 * filters by substring; both must find at least one hit for the word.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openLedger } from '../../src/index.ts';
import type { Context } from '../context.ts';
import { DATA_SHAPE } from '../context.ts';
import { Dataset } from '../data.ts';
import type { BenchResult } from '../report.ts';
import { result } from '../report.ts';
import { mcpChildEnv } from '../procs.ts';
import { MEMLEDGER_BIN } from '../serving.ts';
import { ratio, round, stopwatch, summarize } from '../stats.ts';

const PEER_BIN = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const AGENT = 'agent:peer-bench';

interface Server {
  name: 'memledger' | 'peer';
  client: Client;
  write(i: number, body: string): Promise<void>;
  /** Hits for one query word. */
  search(word: string): Promise<number>;
}

export async function benchPeers(ctx: Context): Promise<BenchResult> {
  const smoke = ctx.settings.smoke;
  const sizes = smoke ? [100] : [1_000, 10_000];
  const searches = smoke ? 20 : 200;
  const concurrentWrites = smoke ? 50 : 500;
  const dataset = new Dataset({
    memories: Math.max(...sizes),
    scopes: 10,
    seed: ctx.settings.seed,
    ...DATA_SHAPE,
  });
  const root = join(ctx.dir, 'peers');
  const rows: Record<string, unknown>[] = [];

  for (const size of sizes) {
    const figures: Record<string, unknown> = { memories: size };
    for (const name of ['memledger', 'peer'] as const) {
      const dir = join(root, `${name}-${size}`);
      mkdirSync(dir, { recursive: true });
      ctx.log(`peers: ${name}, ${size.toLocaleString('en')} writes then ${searches} searches`);
      const server = await start(name, dir);
      try {
        const writes: number[] = [];
        const started = performance.now();
        for (let i = 0; i < size; i++) {
          const s = stopwatch();
          await server.write(i, dataset.content(i).body);
          writes.push(s().wallMs);
        }
        const writeSeconds = (performance.now() - started) / 1000;
        const reads: number[] = [];
        let hits = 0;
        for (let q = 0; q < searches; q++) {
          const word = queryWord(dataset, (q * 7919) % size);
          const s = stopwatch();
          const found = await server.search(word);
          reads.push(s().wallMs);
          if (found === 0)
            throw new Error(`peers: ${name} found nothing for "${word}", a word of a stored body`);
          hits += found;
        }
        figures[name] = {
          write: { ...pick(summarize(writes)), perSecond: round(size / writeSeconds, 0) },
          search: { ...pick(summarize(reads)), meanHits: round(hits / searches, 1) },
        };
      } finally {
        await server.client.close();
      }
    }
    const m = figures.memledger as Side;
    const p = figures.peer as Side;
    figures.peerOverMemledger = {
      writeP50: ratio(p.write.p50Ms, m.write.p50Ms),
      searchP50: ratio(p.search.p50Ms, m.search.p50Ms),
    };
    rows.push(figures);
    ctx.log(
      `peers ${size.toLocaleString('en')}: write p50 memledger ${m.write.p50Ms} ms, peer ${p.write.p50Ms} ms (peer/memledger ${ratio(p.write.p50Ms, m.write.p50Ms)}x); search p50 memledger ${m.search.p50Ms} ms, peer ${p.search.p50Ms} ms (${ratio(p.search.p50Ms, m.search.p50Ms)}x)`,
    );
  }

  ctx.log(`peers: two servers of each writing ${concurrentWrites} memories at once into one store`);
  const together = {
    memledger: await concurrent('memledger', join(root, 'memledger-two'), concurrentWrites, dataset),
    peer: await concurrent('peer', join(root, 'peer-two'), concurrentWrites, dataset),
  };

  for (const [name, t] of Object.entries(together)) {
    ctx.log(`peers two writers: ${name} acknowledged ${t.acknowledged}, kept ${t.kept}, lost ${t.lost}`);
  }
  const largest = rows.at(-1) as { memledger: Side; peer: Side };
  return result({
    description: `MCP over stdio (SDK Client) to \`memledger mcp\` and to @modelcontextprotocol/server-memory, the same bodies written one call each, then ${searches} one-word searches, at ${sizes.map((s) => s.toLocaleString('en')).join(' and ')} memories; then two servers of each writing ${concurrentWrites} memories apiece into one store at once`,
    memledger: { write: largest.memledger.write, search: largest.memledger.search },
    raw: { write: largest.peer.write, search: largest.peer.search },
    ratio: ratio(largest.memledger.write.p50Ms, largest.peer.write.p50Ms),
    ratios: {
      writeP50: ratio(largest.memledger.write.p50Ms, largest.peer.write.p50Ms),
      searchP50: ratio(largest.memledger.search.p50Ms, largest.peer.search.p50Ms),
    },
    target: null,
    checks: [],
    notes: {
      baseline:
        'raw here is the peer, @modelcontextprotocol/server-memory, not a raw store: ratio < 1 means memledger is faster',
      bySize: rows,
      twoWritersAtOnce: together,
      peerVersion: peerVersion(),
      semantics:
        'memledger writes are gated, indexed, audited and durable on return; the peer rewrites its JSONL file per call and searches by substring',
    },
  });
}

interface Side {
  write: { p50Ms: number; p99Ms: number; perSecond: number };
  search: { p50Ms: number; p99Ms: number; meanHits: number };
}

/** Two servers of one kind on one store, each writing `n` distinct memories at the same time; what survives. */
async function concurrent(
  name: 'memledger' | 'peer',
  dir: string,
  n: number,
  dataset: Dataset,
): Promise<{ acknowledged: number; kept: number; lost: number; errors: number }> {
  mkdirSync(dir, { recursive: true });
  const servers = [await start(name, dir), await start(name, dir)];
  let acknowledged = 0;
  let errors = 0;
  try {
    await Promise.all(
      servers.map(async (server, w) => {
        for (let i = 0; i < n; i++) {
          const index = w * n + i;
          try {
            await server.write(index, `${dataset.content(index).body} (writer ${w}, write ${i})`);
            acknowledged++;
          } catch {
            errors++;
          }
        }
      }),
    );
  } finally {
    for (const s of servers) await s.client.close();
  }
  const kept = name === 'memledger' ? await memledgerCount(dir) : peerCount(dir);
  return { acknowledged, kept, lost: acknowledged - kept, errors };
}

async function start(name: 'memledger' | 'peer', dir: string): Promise<Server> {
  const client = new Client({ name: 'memledger-bench-peers', version: '1.0.0' });
  if (name === 'memledger') {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MEMLEDGER_BIN, '--home', join(dir, 'home'), 'mcp', '--as', AGENT],
      // Text search on both sides: the peer has no embedder either.
      env: mcpChildEnv(),
      stderr: 'pipe',
    });
    await client.connect(transport);
    return {
      name,
      client,
      async write(_i, body) {
        const out = await client.callTool({ name: 'save_memory', arguments: { body } });
        const state = (out.structuredContent as { state?: string } | undefined)?.state;
        if (out.isError === true || state !== 'active') {
          throw new Error(
            `save_memory: ${JSON.stringify(out.structuredContent ?? out.content).slice(0, 300)}`,
          );
        }
      },
      async search(word) {
        const out = await client.callTool({ name: 'search_memory', arguments: { query: word, limit: 10 } });
        if (out.isError === true)
          throw new Error(`search_memory: ${JSON.stringify(out.content).slice(0, 300)}`);
        return (out.structuredContent as { results: unknown[] }).results.length;
      },
    };
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [PEER_BIN],
    env: { ...minimalEnv(), MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return {
    name,
    client,
    async write(i, body) {
      const out = await client.callTool({
        name: 'create_entities',
        arguments: { entities: [{ name: `memory-${i}`, entityType: 'memory', observations: [body] }] },
      });
      if (out.isError === true)
        throw new Error(`create_entities: ${JSON.stringify(out.content).slice(0, 300)}`);
    },
    async search(word) {
      const out = await client.callTool({ name: 'search_nodes', arguments: { query: word } });
      if (out.isError === true) throw new Error(`search_nodes: ${JSON.stringify(out.content).slice(0, 300)}`);
      return (out.structuredContent as { entities: unknown[] }).entities.length;
    },
  };
}

/** memledger's count: the memories the store holds, opened as a library after both servers have stopped. */
async function memledgerCount(dir: string): Promise<number> {
  const ledger = openLedger({ home: join(dir, 'home') });
  try {
    const stats = await ledger.as(ledger.operator(), { surface: 'library' }).stats();
    return stats.memories;
  } finally {
    ledger.close();
  }
}

/** The peer's count: entity lines of its file that still parse (a torn line is a lost write, not a crash). */
function peerCount(dir: string): number {
  let text: string;
  try {
    text = readFileSync(join(dir, 'memory.jsonl'), 'utf8');
  } catch {
    return 0;
  }
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    try {
      const item = JSON.parse(line) as { type?: string; name?: string };
      if (item.type === 'entity' && typeof item.name === 'string') names.add(item.name);
    } catch {
      // A line two writers interleaved: whatever it held is gone.
    }
  }
  return names.size;
}

/** A content word of memory i's body (lower case, no punctuation), so both servers have something to find. */
function queryWord(dataset: Dataset, i: number): string {
  const words = dataset
    .content(i)
    .body.toLowerCase()
    .replace(/[^a-z\s]/g, '')
    .split(/\s+/)
    .filter((w) => w.length >= 5);
  return words[0] ?? dataset.content(i).body.split(' ')[0]!.toLowerCase();
}

const pick = (l: ReturnType<typeof summarize>) => ({ p50Ms: l.p50Ms, p99Ms: l.p99Ms });

/** The SDK's default child environment: nothing of this shell's MEMLEDGER_* reaches the peer. */
function minimalEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['HOME', 'PATH', 'USER', 'LANG', 'TMPDIR']) if (process.env[k]) out[k] = process.env[k]!;
  return out;
}

function peerVersion(): string {
  const pkg = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}
