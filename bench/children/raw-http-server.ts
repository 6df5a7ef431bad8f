/**
 * The HTTP baseline (run as a child process by bench/cases/http-search.ts): a bare node:http server whose
 * POST /v1/search runs the raw scoped FTS5 query on the raw DB and returns the rows as JSON. No framework,
 * auth, validation, audit or ranking beyond bm25: what memledger's HTTP stack adds is the difference.
 * Usage: node bench/children/raw-http-server.ts RAW_DB. Prints `listening http://127.0.0.1:PORT` when ready.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RawStore } from '../raw.ts';

const path = process.argv[2];
if (path === undefined) {
  process.stderr.write('usage: raw-http-server.ts RAW_DB\n');
  process.exit(2);
}
const raw = new RawStore(path);

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/search') {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string; scopes?: string[] };
      const hits = raw.search(body.query.split(/\s+/), body.scopes?.[0] ?? null);
      const json = JSON.stringify({ hits });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      res.end(json);
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end((error as Error).message);
    }
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  raw.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
