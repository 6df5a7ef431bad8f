/**
 * A throwaway PostgreSQL cluster for the tests: initdb into a temporary directory, pg_ctl on a free loopback
 * port, stopped and deleted at the end. Tests never assume a server is running; `test/global-setup.ts` starts
 * one cluster for the whole run and hands its URL and data directory to every test process through the
 * environment. A cluster given from outside (`MEMLEDGER_TEST_PG_URL`) is used as it is and left running.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chmodSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PgCluster {
  /** A superuser URL on loopback, e.g. postgres://postgres@127.0.0.1:54321/postgres */
  url: string;
  /** The cluster's data directory (tests read its files to prove erased bytes are gone), or null if unknown. */
  dataDir: string | null;
  stop(): void;
}

/** Where the server binaries are: `pg_config --bindir`, Debian's versioned directory, or PATH. */
export function findPgBin(): string | null {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // no pg_config on PATH
  }
  if (existsSync('/usr/lib/postgresql')) {
    for (const v of readdirSync('/usr/lib/postgresql').sort().reverse())
      candidates.push(`/usr/lib/postgresql/${v}/bin`);
  }
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir !== '') candidates.push(dir);
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) ?? null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster. As root (initdb refuses to run as root) the server runs as the `postgres` user, which
 * Debian's packages create.
 */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = findPgBin();
  if (bin === null) throw new Error('PostgreSQL server binaries not found (apt-get install postgresql)');
  const root = mkdtempSync(join(tmpdir(), 'memledger-pg-'));
  const dataDir = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
    chownSync(root, id('-u'), id('-g'));
    chmodSync(root, 0o755);
  }
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]]
      : [join(bin, cmd), args];
    const r = spawnSync(file as string, argv as string[], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${root}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=on',
    '-c max_connections=200',
    '-c shared_buffers=128MB',
  ].join(' ');
  run('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(root, 'server.log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

/** The run's cluster as global setup exported it, or why there is none (then Postgres tests skip with it). */
export function testCluster(): { url: string; dataDir: string | null } | { skip: string } {
  const url = process.env.MEMLEDGER_TEST_PG_URL;
  if (url !== undefined && url !== '') return { url, dataDir: process.env.MEMLEDGER_TEST_PG_DATA || null };
  return { skip: process.env.MEMLEDGER_TEST_PG_SKIP || 'no PostgreSQL cluster for this run' };
}
