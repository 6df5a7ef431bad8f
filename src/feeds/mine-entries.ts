/**
 * A batch of entries through the miner, in order, carrying the state an error waits in for its fix: what a
 * sync proposes for one batch, before anything is written. The feed sync and the mining evaluation both call
 * this, so the evaluation measures the path a sync takes.
 */
import { mine } from './miner.ts';
import type { Candidate, Entry, MinerState } from './types.ts';

export interface Proposal {
  entry: Entry;
  candidate: Candidate;
}

export interface MinedBatch {
  proposals: Proposal[];
  state: MinerState;
  dropped: { noise: number; secrets: number };
}

export function mineEntries(entries: readonly Entry[], state: MinerState = {}): MinedBatch {
  const out: MinedBatch = { proposals: [], state, dropped: { noise: 0, secrets: 0 } };
  for (const entry of entries) {
    const mined = mine(entry, out.state);
    out.state = mined.state;
    out.dropped.noise += mined.dropped.noise;
    out.dropped.secrets += mined.dropped.secrets;
    for (const candidate of mined.candidates) out.proposals.push({ entry, candidate });
  }
  return out;
}
