/**
 * What a feed would propose from a source, without a ledger and without writing: the connector reads the
 * files under `root` from the start, and each file's entries go through the sync's own mining path
 * (mineEntries), an error carried across the file's batches as a sync carries it.
 */
import { connectorFor } from './connectors/index.ts';
import { type Proposal, mineEntries } from './mine-entries.ts';
import type { MinerState } from './types.ts';

export interface FeedPreview {
  proposals: Proposal[];
  dropped: { noise: number; secrets: number };
}

/**
 * @example (await previewFeed('folder', 'docs/')).proposals.map((p) => p.candidate.body)
 */
export async function previewFeed(connector: string, root: string): Promise<FeedPreview> {
  const out: FeedPreview = { proposals: [], dropped: { noise: 0, secrets: 0 } };
  const waiting = new Map<string, MinerState>();
  for await (const batch of connectorFor(connector).read(root, { files: {} })) {
    const mined = mineEntries(batch.entries, waiting.get(batch.file) ?? {});
    waiting.set(batch.file, mined.state);
    out.proposals.push(...mined.proposals);
    out.dropped.noise += mined.dropped.noise;
    out.dropped.secrets += mined.dropped.secrets;
  }
  return out;
}
