/** The instruction guard of the write gate (I6): a non-human write that reads as commands to an agent waits for a person. */
import { findInstructionIn } from '../guard/instructions.ts';
import type { Principal } from '../model/principal.ts';
import type { GateDecision } from './gate.ts';

export const INSTRUCTION_RULE = 'instruction-shaped';

/**
 * Turns the gate's decision into a hold when the write's body, or a string of its value, is instruction-shaped
 * and the writer is not a person. It applies in every scope, the writer's own too, whatever the policy's rules
 * say: a memory is served back to agents as context, so an agent (or a compromised feed) saving "ignore all
 * previous instructions" in its own scope is planting a prompt injection for its next session. A deny still
 * wins, and a person's write lands as before (someone may store instructions on purpose); the context
 * renderer neutralises frame breaks in those. The reason names the kind, never the text.
 *
 * @example const decision = holdInstructionShaped(decide(policy, input), principal, { body, value });
 */
export function holdInstructionShaped(
  decision: GateDecision,
  principal: Pick<Principal, 'kind'>,
  content: { body: string; value?: unknown },
): GateDecision {
  if (principal.kind === 'human' || decision.action === 'deny') return decision;
  const found = findInstructionIn(content);
  if (found === null) return decision;
  return {
    ...decision,
    action: 'hold',
    rule: INSTRUCTION_RULE,
    reason: `the text reads as instructions to an agent (${found.kind}); a person must approve it before any agent is shown it`,
  };
}
