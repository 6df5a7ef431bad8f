/** The HTTP routes of commitments and summary chains, in routes.ts's table form (the app and OpenAPI read both). */
import { z } from 'zod';
import {
  addCommitmentSchema,
  COMMITMENT_STATUSES,
  createChainSchema,
  listCommitmentsSchema,
  summaryAddSchema,
} from '../../model/commitment.ts';
import { LIMITS } from '../../model/memory.ts';
import type { Route } from './routes.ts';

const body = <T>(r: { input: unknown }) => r.input as T;
const write = 'writer role and a write grant on the scope; an agent’s outside its own scope is held';

export const PLAN_ROUTES: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/commitments',
    operation: 'commitments.add',
    summary: 'Add a commitment (owner, due time, triggers): a memory through the write path',
    access: write,
    body: addCommitmentSchema,
    status: 201,
    produces: 'json',
    call: (s, r) => s.commitments.add(body(r)),
  },
  {
    method: 'GET',
    path: '/v1/commitments',
    operation: 'commitments.list',
    summary: 'List commitments, soonest due first',
    access: 'reader role; rows outside the read grants are left out',
    query: listCommitmentsSchema,
    status: 200,
    produces: 'json',
    call: async (s, r) => ({ commitments: await s.commitments.list(body(r)) }),
  },
  {
    method: 'GET',
    path: '/v1/commitments/:id',
    operation: 'commitments.get',
    summary: 'One commitment and every move of its lifecycle',
    access: 'reader role and a read grant on its scope (else 404)',
    status: 200,
    produces: 'json',
    call: (s, r) => s.commitments.get(r.id),
  },
  {
    method: 'POST',
    path: '/v1/commitments/:id/status',
    operation: 'commitments.update',
    summary: 'Move a commitment: open, doing, done or cancelled',
    access: 'its owner or a human with a write grant; only a human moves someone else’s',
    body: z.object({ status: z.enum(COMMITMENT_STATUSES) }).strict(),
    status: 200,
    produces: 'json',
    call: (s, r) => s.commitments.update({ id: r.id, ...body<{ status: 'open' }>(r) }),
  },
  {
    method: 'POST',
    path: '/v1/summaries',
    operation: 'summaries.create',
    summary: "Define a summary chain over a scope's memories (or one session or subject in it)",
    access: 'a write grant on the scope; an owner needs the admin role',
    body: createChainSchema,
    status: 201,
    produces: 'json',
    call: (s, r) => s.summaries.create(body(r)),
  },
  {
    method: 'GET',
    path: '/v1/summaries/:id',
    operation: 'summaries.show',
    summary: "A chain's links and its newest live summary (:id is the chain's name)",
    access: 'reader role and a read grant on its scope (else 404)',
    status: 200,
    produces: 'json',
    call: (s, r) => s.summaries.show(r.id),
  },
  {
    method: 'GET',
    path: '/v1/summaries/:id/next',
    operation: 'summaries.next',
    summary: 'What is new in a chain since its last cutoff, bounded, with a token naming the window',
    access: 'reader role and a read grant on its scope (else 404)',
    query: z.object({ limit: z.number().int().min(1).max(LIMITS.limit).optional() }).strict(),
    status: 200,
    produces: 'json',
    call: (s, r) => s.summaries.next({ chain: r.id, ...body<{ limit?: number }>(r) }),
  },
  {
    method: 'POST',
    path: '/v1/summaries/:id',
    operation: 'summaries.add',
    summary: "Store a chain's next summary, covering (last cutoff, until]",
    access: write,
    body: summaryAddSchema.omit({ chain: true }).extend({ token: z.string().max(1_000).optional() }),
    status: 201,
    produces: 'json',
    call: (s, r) => s.summaries.add({ chain: r.id, ...body<{ until: string; body: string }>(r) }),
  },
];
