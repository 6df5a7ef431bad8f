/**
 * The CPU time a local PostgreSQL server has used, from /proc: its postmaster's own and reaped children's time
 * plus every live child's (backends, WAL writer, checkpointer). The difference across a measured round is the
 * database's share of the machine's cores, beside the replicas' and the load generator's. Null when the server
 * is not on this machine (its postmaster's /proc entry is not readable) or off Linux.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from '../src/store/postgres/database.ts';
import { CLOCK_TICKS } from './procs.ts';

interface Stat {
  ppid: number;
  own: number;
  children: number;
}

function stat(pid: number | string): Stat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => Number(rest[n - 3]);
  return { ppid: field(4), own: field(14) + field(15), children: field(16) + field(17) };
}

/** The postmaster's pid, from a backend's parent; null when that backend is not a local process. */
export async function postmasterPid(url: string): Promise<number | null> {
  const sql = connect(url, { max: 1 });
  try {
    const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    return stat(row!.pid)?.ppid ?? null;
  } catch {
    return null;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The server's CPU time so far in ms, or null. */
export function serverCpuMs(postmaster: number | null): number | null {
  if (postmaster === null) return null;
  const root = stat(postmaster);
  if (root === null) return null;
  let ticks = root.own + root.children;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(entry);
    if (s !== null && s.ppid === postmaster) ticks += s.own;
  }
  return (ticks * 1000) / CLOCK_TICKS;
}
