/** What the commitment and summary-chain tools return, as zod schemas (output-schemas.ts's style: closed objects). */
import { z } from 'zod';
import { COMMITMENT_STATUSES } from '../../model/commitment.ts';
import { STATES } from '../../model/memory.ts';
import { jsonValue } from './output-schemas.ts';

const next = z.string().optional();

export const commitmentOutput = z.strictObject({
  id: z.string(),
  scope: z.string(),
  body: z.string(),
  owner: z.string(),
  status: z.enum(COMMITMENT_STATUSES),
  due: z.string().optional(),
  triggers: jsonValue.optional(),
  completed_at: z.string().optional(),
  status_at: z.string(),
  status_by: z.string(),
});

export const addCommitmentOutput = z.strictObject({
  id: z.string(),
  state: z.enum(STATES),
  reason: z.string().optional(),
  commitment: commitmentOutput.optional(),
  next,
});

export const listCommitmentsOutput = z.strictObject({ commitments: z.array(commitmentOutput), next });

export const updateCommitmentOutput = z.strictObject({
  commitment: commitmentOutput,
  /** False when it already had that status. */
  changed: z.boolean(),
  next,
});

export const summaryNextOutput = z.strictObject({
  chain: z.string(),
  previous: z.string().optional(),
  after: z.string().optional(),
  until: z.string().optional(),
  memories: z.array(
    z.strictObject({ id: z.string(), kind: z.string(), body: z.string(), recorded_at: z.string() }),
  ),
  more: z.boolean(),
  token: z.string(),
  next,
});

export const summaryAddOutput = z.strictObject({
  id: z.string(),
  state: z.enum(STATES),
  reason: z.string().optional(),
  chain: z.string(),
  previous: z.string().optional(),
  cutoff: z.string(),
  covered: z.number(),
  next,
});
