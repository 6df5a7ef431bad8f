/** Dispatches a restore's plan line (carry-lines.ts) to its restore, after checking it field by field. */
import type { StoreTx } from '../../store/port.ts';
import { parseInput } from '../parse.ts';
import {
  behaviorLineSchema,
  chainLineSchema,
  commitmentLineSchema,
  fireLineSchema,
  runLineSchema,
  summaryLineSchema,
} from './carry-lines.ts';
import { restoreBehavior, restoreFire, restoreRun } from './restore-behaviors.ts';
import { restoreChain, restoreCommitment, restoreSummary } from './restore-plans.ts';

/** Restores one plan line; false when this home had it already. */
export async function restorePlan(tx: StoreTx, type: string, doc: unknown): Promise<boolean> {
  switch (type) {
    case 'commitment':
      return restoreCommitment(tx, parseInput(commitmentLineSchema, doc, 'commitment line').commitment);
    case 'chain':
      return restoreChain(tx, parseInput(chainLineSchema, doc, 'chain line').chain);
    case 'summary':
      return restoreSummary(tx, parseInput(summaryLineSchema, doc, 'summary line').summary);
    case 'behavior':
      return restoreBehavior(tx, parseInput(behaviorLineSchema, doc, 'behavior line').behavior);
    case 'run':
      return restoreRun(tx, parseInput(runLineSchema, doc, 'run line').run);
    default:
      return restoreFire(tx, parseInput(fireLineSchema, doc, 'fire line').fire);
  }
}
