/** Shared by the ledger tests of governance and context: a fresh home per test, opened the way users open one. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Ledger, type LedgerSession, type Memory, openLedger, type Policy } from '../../src/index.ts';
import { newId } from '../../src/model/ids.ts';

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

/**
 * A reviewer's rejection of `proposal` recorded straight through the Store port, below the write guard (as an
 * old home or a bug might hold one): the `corrected` event with `reason` and the feed's row.
 */
export async function plantCorrection(ledger: Ledger, proposal: Memory, reason: string): Promise<void> {
  const id = newId('evt');
  const at = new Date().toISOString();
  const agent = proposal.provenance.principal;
  await ledger.store.transaction(async (tx) => {
    await tx.insertEvent({
      id,
      type: 'corrected',
      memoryId: proposal.id,
      actor: 'human:legacy',
      actorKind: 'human',
      at,
      reason,
      detail: { action: 'rejected', agent, correctedAs: null },
    });
    await tx.insertCorrection({
      id,
      scope: proposal.scope,
      key: proposal.key,
      kind: proposal.kind,
      agent,
      action: 'rejected',
      proposalId: proposal.id,
      correctedId: null,
      by: 'human:legacy',
      at,
    });
  });
}
