/** The machine and software a report was measured on, so figures are never quoted without their context. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { DatabaseSync } from 'node:sqlite';

export function environment() {
  const db = new DatabaseSync(':memory:');
  const sqlite = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  db.close();
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return {
    node: process.version,
    v8: process.versions.v8,
    sqlite,
    memledger: pkg.version,
    commit: gitCommit(),
    platform: `${platform()} ${release()}`,
    arch: process.arch,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    memoryGB: Math.round(totalmem() / 1e9),
  };
}

/** 1, 5 and 15 minute load averages: above the core count, other processes were competing for the CPU. */
export const loadAverage = (): number[] => loadavg().map((l) => Math.round(l * 100) / 100);

/** Read-only: which commit was measured (and whether the tree had changes), when git is there. */
function gitCommit(): string | null {
  try {
    const cwd = new URL('..', import.meta.url);
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, stdio: 'pipe' })
      .toString()
      .trim();
    const dirty =
      execFileSync('git', ['--no-optional-locks', 'status', '--porcelain'], { cwd, stdio: 'pipe' })
        .toString()
        .trim() !== '';
    return dirty ? `${head}+changes` : head;
  } catch {
    return null;
  }
}
