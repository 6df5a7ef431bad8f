/** Rendering of write results, shared by every command that changes a memory's state. */
import type { WriteResult } from '../../../model/memory.ts';
import { clean } from '../render.ts';

const MEANING: Record<string, string> = {
  active: 'landed: it is current and searchable',
  held: 'held for review',
  rejected: 'withheld: this claim was rejected',
  retracted: 'retracted: it stays in history but reads no longer return it',
  superseded: 'superseded: a newer version replaced it',
};

/** `mem_…  active` then why (the library's reason, else what the state means) and the version it replaces. */
export function writeResult(r: WriteResult, verb?: string): string {
  const lines = [`${r.id}  ${r.state}${verb === undefined ? '' : `  (${verb})`}`];
  const why = r.reason !== undefined && r.reason !== '' ? clean(r.reason) : MEANING[r.state];
  if (why !== undefined) lines.push(`  ${why}`);
  if (r.state === 'held') lines.push(`  a person decides: memledger review approve|reject ${r.id}`);
  if (r.supersedes !== undefined && r.supersedes !== null) {
    lines.push(`  ${r.state === 'held' ? 'would supersede' : 'supersedes'} ${r.supersedes}`);
  }
  return `${lines.join('\n')}\n`;
}
