/** The behaviors part of the HTTP API table (routes.ts): definitions, windows, completions and runs. */
import { z } from 'zod';
import { behaviorDefinitionSchema } from '../../behaviors/definition.ts';
import type { Route, RouteCall } from './routes.ts';

const body = <T>(req: RouteCall) => req.input as T;
const runBody = z.object({ token: z.string().max(200_000) }).strict();
const completeBody = runBody
  .extend({ outputs: z.array(z.record(z.string(), z.unknown())).max(100).default([]) })
  .strict();
const runsQuery = z.object({ limit: z.number().int().min(1).max(200).default(20) }).strict();

export const BEHAVIOR_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    path: '/v1/behaviors',
    operation: 'behaviors.list',
    summary: 'Behaviors: their current definitions and whether they are disabled',
    access: 'reader role',
    status: 200,
    produces: 'json',
    call: async (s) => ({ behaviors: await s.behaviors.list() }),
  },
  {
    method: 'POST',
    path: '/v1/behaviors',
    operation: 'behaviors.add',
    summary: 'Define a behavior, or a new version of it when the definition changed',
    access: 'a human with the admin role (I7)',
    body: behaviorDefinitionSchema,
    status: 201,
    produces: 'json',
    call: (s, r) => s.behaviors.add(r.input),
  },
  {
    method: 'GET',
    path: '/v1/behaviors/:id',
    operation: 'behaviors.show',
    summary: "A behavior's current definition",
    access: 'reader role',
    status: 200,
    produces: 'json',
    call: (s, r) => s.behaviors.show(r.id),
  },
  {
    method: 'POST',
    path: '/v1/behaviors/:id/disable',
    operation: 'behaviors.disable',
    summary: 'Disable a behavior: no windows, no scheduled fires',
    access: 'a human with the admin role (I7)',
    status: 200,
    produces: 'json',
    call: (s, r) => s.behaviors.disable(r.id),
  },
  {
    method: 'POST',
    path: '/v1/behaviors/:id/next',
    operation: 'behaviors.next',
    summary: "Claim the behavior's outstanding window under a lease (null when nothing is outstanding)",
    access: 'writer role; events only from scopes the caller may read',
    status: 200,
    produces: 'json',
    call: async (s, r) => ({ window: await s.behaviors.next(r.id) }),
  },
  {
    method: 'GET',
    path: '/v1/behaviors/:id/runs',
    operation: 'behaviors.runs',
    summary: "A behavior's runs: consumed events, outputs and their verdicts, corrections",
    access: 'reader role; outputs outside the read grants are counted, not shown',
    query: runsQuery,
    status: 200,
    produces: 'json',
    call: async (s, r) => ({ runs: await s.behaviors.runs(r.id, body<{ limit: number }>(r).limit) }),
  },
  {
    method: 'POST',
    path: '/v1/runs/:id/complete',
    operation: 'behaviors.complete',
    summary:
      "Write a run's outputs through the gate, link what its window showed and close it, in one transaction",
    access: 'the principal that claimed the run, with its token, before the lease ends',
    body: completeBody,
    status: 200,
    produces: 'json',
    call: (s, r) => s.behaviors.complete({ ...body<z.output<typeof completeBody>>(r), run: r.id }),
  },
  {
    method: 'POST',
    path: '/v1/runs/:id/fail',
    operation: 'behaviors.fail',
    summary: 'End a run as failed: it links nothing, so its events stay outstanding',
    access: 'the principal that claimed the run, with its token',
    body: runBody,
    status: 200,
    produces: 'json',
    call: (s, r) => s.behaviors.fail({ ...body<{ token: string }>(r), run: r.id }),
  },
];
