/** Workspace tests' home: an embedded ledger with the test's local WorkspaceFiles, and agents by name. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Ledger, type LedgerSession, openLedger } from '../../src/index.ts';
import type { WorkspaceLimits } from '../../src/workspace/config.ts';
import { LocalWorkspaceFiles } from '../support/workspace-files.ts';

export interface WorkspaceHome {
  home: string;
  ledger: Ledger;
  files: LocalWorkspaceFiles;
  agent(name: string): LedgerSession;
  sql(s: LedgerSession, ...statements: string[]): ReturnType<LedgerSession['workspaceSql']>;
}

export async function withWorkspaceHome<T>(
  fn: (h: WorkspaceHome) => Promise<T>,
  limits: Partial<WorkspaceLimits> = {},
): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), 'memledger-workspace-'));
  const ledger = openLedger({ home });
  const files = new LocalWorkspaceFiles(join(home, 'test-workspaces'));
  ledger.useWorkspaces(files, limits);
  try {
    return await fn({
      home,
      ledger,
      files,
      agent: (name) => ledger.as(ledger.principal(`agent:${name}`), { surface: 'library' }),
      sql: (s, ...statements) => s.workspaceSql({ statements }),
    });
  } finally {
    ledger.close();
    rmSync(home, { recursive: true, force: true });
  }
}
