/**
 * Feed writes land once per source item and scope. A write through the `feed` surface names its item in `source`
 * (connector and id); the item's row is inserted in the same transaction as the memory, under the write lock and
 * a primary key, so a sync run twice, resumed after a crash, or raced by another process writes nothing twice.
 * The scope is part of the key: the same note in two repositories is an item of each project.
 */
import { MemoryError } from '../model/errors.ts';
import type { RememberFields, WriteResult } from '../model/memory.ts';
import { can } from '../policy/access.ts';
import type { StoreTx } from '../store/port.ts';
import type { Deps } from './deps.ts';

export async function oncePerSourceItem(
  deps: Deps,
  tx: StoreTx,
  fields: Pick<RememberFields, 'source' | 'scope'>,
  write: () => Promise<WriteResult>,
  always = false,
): Promise<WriteResult> {
  const connector = fields.source?.connector;
  const itemId = fields.source?.id;
  // Only feeds (and imports, which ask) dedupe on the item: an agent naming a source through MCP is stating
  // provenance, not an item key.
  if ((!always && deps.ctx.surface !== 'feed') || connector === undefined || itemId === undefined)
    return write();
  const earlier = await tx.sourceItem(connector, fields.scope, itemId);
  if (earlier !== null) {
    const memory = await tx.getMemory(earlier);
    if (memory === null || !can(deps.principal, 'read', memory.scope)) {
      throw new MemoryError('conflict', `source item ${connector}/${itemId} was read before`);
    }
    deps.trace.targets.add(earlier);
    return {
      id: earlier,
      state: memory.state,
      duplicate: true,
      reason: `source item ${connector}/${itemId} was read before; it produced ${earlier}`,
    };
  }
  const result = await write();
  await tx.insertSourceItem({ connector, scope: fields.scope, itemId, memoryId: result.id, at: deps.now() });
  return result;
}
