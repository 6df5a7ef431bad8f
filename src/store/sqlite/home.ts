/** The data directory: one per tenant. memory.db, audit.db and policy.json, with separate lifecycles. */
import { chmodSync, existsSync, linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { MemoryError } from '../../model/errors.ts';
import { DEFAULT_POLICY_DOCUMENT, POLICY_FILE } from '../../policy/policy-file.ts';

export interface HomePaths {
  home: string;
  memoryDb: string;
  auditDb: string;
  policy: string;
}

/** `--home`, else `MEMLEDGER_HOME`, else `~/.memledger`. */
export function resolveHome(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = explicit ?? env.MEMLEDGER_HOME ?? join(homedir(), '.memledger');
  if (chosen.trim() === '') throw new MemoryError('invalid_input', 'the home directory must not be empty');
  return resolve(chosen);
}

export function homePaths(home: string): HomePaths {
  return {
    home,
    memoryDb: join(home, 'memory.db'),
    auditDb: join(home, 'audit.db'),
    policy: join(home, POLICY_FILE),
  };
}

/**
 * Creates the directory and writes the default policy if there is none. Idempotent. On every open, not only the
 * first, the directory is made 0700 and policy.json 0600, whatever the umask and whatever modes a directory made
 * by someone else had: the home holds memories, the audit and token hashes (the databases narrow their own files).
 */
export function ensureHome(home: string): { created: boolean; policyWritten: boolean } {
  const paths = homePaths(home);
  const created = !existsSync(home);
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    chmodSync(home, 0o700);
  } catch (error) {
    throw new MemoryError(
      'upstream',
      `cannot create the data directory ${home}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  let policyWritten = false;
  if (!existsSync(paths.policy)) {
    // Written whole under a name of its own, then linked into place: a process opening the home at the same
    // moment sees no policy.json or all of it, never the empty file a create-then-write shows between the two
    // (six processes opening one fresh home at once read it half-written in 2 of 15 tries). A link never
    // replaces: if another process linked first, theirs stands.
    const text = `${JSON.stringify(DEFAULT_POLICY_DOCUMENT, null, 2)}\n`;
    const partial = `${paths.policy}.${process.pid}.partial`;
    try {
      writeFileSync(partial, text, { mode: 0o600 });
      try {
        linkSync(partial, paths.policy);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') throw error;
        // A file system without hard links: create-exclusive, as before.
        writeFileSync(paths.policy, text, { mode: 0o600, flag: 'wx' });
      }
      policyWritten = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(partial, { force: true });
    }
  }
  try {
    chmodSync(paths.policy, 0o600);
  } catch (error) {
    throw new MemoryError('upstream', `cannot make ${paths.policy} owner-only: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return { created, policyWritten };
}
