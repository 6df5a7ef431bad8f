/**
 * Preloaded into the soak's server (`--import`, when BENCH_SOAK_SAMPLES=FILE is set): every 5 s one JSON line of
 * where its memory is (VmRSS split into anonymous and file pages, V8's heap spaces, external and array buffers,
 * threads), so a growth of resident memory can be traced to its part. Diagnostic only: off unless asked.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const file = process.env.BENCH_SOAK_SAMPLES;
const EVERY_MS = 5_000;
const MB = 2 ** 20;

function status(): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
      const m = /^(VmRSS|RssAnon|RssFile|RssShmem|VmHWM|Threads):\s+(\d+)/.exec(line);
      if (m !== null) out[m[1]!] = m[1] === 'Threads' ? Number(m[2]) : Math.round(Number(m[2]) / 102.4) / 10;
    }
  } catch {
    // Off Linux: V8's figures alone.
  }
  return out;
}

/**
 * Resident MB of malloc's main arena (`[heap]`, where the main thread's allocations land: SQLite's page caches
 * among them), of the other threads' arenas (anonymous mappings 64 MB-aligned, glibc's heaps) and of the rest.
 */
function mappings(): Record<string, number> {
  const kb = { brk: 0, arenas: 0, otherAnon: 0 };
  let kind: keyof typeof kb | null = null;
  try {
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const m = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
      if (m !== null) {
        const name = m[2]!.trim();
        kind =
          name === '[heap]'
            ? 'brk'
            : name !== ''
              ? null
              : Number.parseInt(m[1]!, 16) % (64 * MB) === 0
                ? 'arenas'
                : 'otherAnon';
      } else if (kind !== null && line.startsWith('Rss:')) {
        kb[kind] += Number(line.split(/\s+/)[1]);
      }
    }
  } catch {
    // Off Linux.
  }
  return {
    brk: Math.round(kb.brk / 102.4) / 10,
    arenas: Math.round(kb.arenas / 102.4) / 10,
    otherAnon: Math.round(kb.otherAnon / 102.4) / 10,
  };
}

if (file !== undefined && file !== '') {
  const t0 = Date.now();
  const sample = () => {
    const usage = process.memoryUsage();
    const spaces: Record<string, number> = {};
    for (const s of getHeapSpaceStatistics()) {
      spaces[s.space_name.replace(/_space$/, '')] = Math.round((s.space_size / MB) * 10) / 10;
    }
    const line = {
      s: Math.round((Date.now() - t0) / 1000),
      ...status(),
      ...mappings(),
      heapTotal: Math.round((usage.heapTotal / MB) * 10) / 10,
      heapUsed: Math.round((usage.heapUsed / MB) * 10) / 10,
      external: Math.round((usage.external / MB) * 10) / 10,
      arrayBuffers: Math.round((usage.arrayBuffers / MB) * 10) / 10,
      spaces,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  setInterval(sample, EVERY_MS).unref();
}
