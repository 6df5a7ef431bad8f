/** Shared by the ledger tests of governance and context: a fresh home per test, opened the way users open one. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Ledger, type LedgerSession, openLedger, type Policy } from '../../src/index.ts';

export interface Home {
  home: string;
  ledger: Ledger;
  /** The local operator: a human with every role. */
  me: LedgerSession;
  /** `agent:bot` under the default policy, in MCP-like session `s1`. */
  bot: LedgerSession;
}

/** Runs `fn` on a fresh temporary home and removes it afterwards, whatever happened. */
export async function withLedger<T>(
  fn: (h: Home) => Promise<T>,
  options: { policy?: Policy; now?: () => string } = {},
): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), 'memledger-gov-'));
  const ledger = openLedger({ home, ...options });
  try {
    return await fn({
      home,
      ledger,
      me: ledger.as(ledger.operator(), { surface: 'library' }),
      bot: ledger.as(ledger.principal('agent:bot'), { surface: 'library', sessionId: 's1' }),
    });
  } finally {
    ledger.close();
    rmSync(home, { recursive: true, force: true });
  }
}
