/**
 * The HTTP API as a table: one entry per ledger verb with its method, path, the library's zod schema for its
 * body or query, and the call. The app and the OpenAPI document are both built from this table.
 */
import { z } from 'zod';
import { ERROR_CLASSES, type LedgerSession } from '../../index.ts';
import { eraseInputSchema } from '../../ledger/erase.ts';
import { claimInputSchema } from '../../ledger/claims.ts';
import { contextInputSchema } from '../../ledger/context/context.ts';
import { doubtInputSchema, restoreTrustInputSchema } from '../../ledger/doubt.ts';
import { correctionsInputSchema } from '../../ledger/corrections.ts';
import { policyCheckInputSchema } from '../../ledger/policy-check.ts';
import { reviewWatchInputSchema } from '../../ledger/review-watch.ts';
import { listInputSchema, reviewListInputSchema } from '../../ledger/read.ts';
import { retractInputSchema } from '../../ledger/retract.ts';
import { searchInputSchema } from '../../ledger/search.ts';
import { approveInputSchema, rejectInputSchema, unrejectInputSchema } from '../../ledger/verdicts.ts';
import { rememberInputSchema } from '../../model/memory.ts';
import { isoTime } from '../../model/time.ts';
import { PLAN_ROUTES } from './plan-routes.ts';
import { sseFrames } from './sse.ts';
import { WORKSPACE_ADMIN_ROUTES } from './workspace-admin-routes.ts';
import { WORKSPACE_ROUTES } from './workspace-routes.ts';
import { BEHAVIOR_ROUTES } from './behavior-routes.ts';

export type Method = 'GET' | 'POST';

export interface RouteCall {
  /** The `:id` path parameter, when the path has one. */
  id: string;
  /** The validated body or query. */
  input: unknown;
  /** Throws once the request's token no longer holds (revoked): long-lived calls ask it as they go. */
  credential: () => void;
}

export interface Route {
  method: Method;
  /** Hono form: `/v1/memories/:id`. */
  path: string;
  /** The ledger operation, as the audit names it. */
  operation: string;
  summary: string;
  /** Who may call it, for the document; the ledger enforces it. */
  access: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  status: 200 | 201;
  /** `jsonl` streams one JSON document per line; `sse` streams server-sent events; `sqlite` is a file download. */
  produces: 'json' | 'jsonl' | 'sse' | 'sqlite';
  call(session: LedgerSession, req: RouteCall): Promise<unknown> | AsyncIterable<string>;
}

/** The audit filter as a query: the audit store takes it as typed, so it is validated here. */
export const auditQuerySchema = z
  .object({
    principal: z.string().max(200).optional(),
    operation: z.string().max(100).optional(),
    tool: z.string().max(200).optional(),
    outcome: z.enum(['ok', 'error']).optional(),
    failureClass: z.enum(ERROR_CLASSES).optional(),
    since: isoTime('since').optional(),
    limit: z.number().int().min(1).max(10_000).default(100),
  })
  .strict();
export const failuresQuerySchema = z.object({ since: isoTime('since').optional() }).strict();
const emptyBodySchema = z.object({}).strict();

const route = (r: Route): Route => r;
const body = <T>(req: RouteCall) => req.input as T;

export const ROUTES: readonly Route[] = [
  route({
    method: 'POST',
    path: '/v1/memories',
    operation: 'remember',
    summary: 'Remember: append a memory (it may land, be held for review, or be rejected)',
    access: 'writer role and a write grant on the scope',
    body: rememberInputSchema,
    status: 201,
    produces: 'json',
    call: (s, r) => s.remember(body(r)),
  }),
  route({
    method: 'GET',
    path: '/v1/memories',
    operation: 'list',
    summary: 'List memories, newest first (current ones unless states or asOf say otherwise)',
    access: 'reader role; rows outside the read grants are left out',
    query: listInputSchema,
    status: 200,
    produces: 'json',
    call: async (s, r) => ({ memories: await s.list(body(r)) }),
  }),
  route({
    method: 'GET',
    path: '/v1/memories/:id',
    operation: 'get',
    summary: 'Get one memory by id',
    access: 'reader role and a read grant on its scope (else 404)',
    status: 200,
    produces: 'json',
    call: (s, r) => s.get(r.id),
  }),
  route({
    method: 'GET',
    path: '/v1/memories/:id/history',
    operation: 'history',
    summary: 'Every version linked by supersede or edit, and every event',
    access: 'reader role and a read grant on its scope (else 404)',
    status: 200,
    produces: 'json',
    call: (s, r) => s.history(r.id),
  }),
  route({
    method: 'POST',
    path: '/v1/memories/:id/retract',
    operation: 'retract',
    summary: 'Retract (forget) a memory, keeping its history',
    access: 'writer role and a write grant; agents only what no human owns',
    body: retractInputSchema.omit({ id: true }),
    status: 200,
    produces: 'json',
    call: (s, r) => s.retract({ ...body<{ reason: string }>(r), id: r.id }),
  }),
  route({
    method: 'POST',
    path: '/v1/memories/:id/confirm',
    operation: 'confirm',
    summary: 'Confirm an active memory (a human vouches for it)',
    access: 'a human with the reviewer role and a write grant',
    body: emptyBodySchema,
    status: 200,
    produces: 'json',
    call: (s, r) => s.confirm({ id: r.id }),
  }),
  route({
    method: 'POST',
    path: '/v1/memories/:id/doubt',
    operation: 'doubt',
    summary:
      'Doubt an active memory: its trust drops to unverified (ranked lower, never hidden, never raised)',
    access: 'writer role and a write grant on its scope',
    body: doubtInputSchema.omit({ id: true }),
    status: 200,
    produces: 'json',
    call: (s, r) => s.doubt({ ...body<{ reason: string }>(r), id: r.id }),
  }),
  route({
    method: 'POST',
    path: '/v1/memories/:id/restore-trust',
    operation: 'trust.restore',
    summary: 'Restore a doubted memory to the trust it had before the doubt',
    access: 'a human with the reviewer role and a write grant',
    body: restoreTrustInputSchema.omit({ id: true }),
    status: 200,
    produces: 'json',
    call: (s, r) => s.restoreTrust({ ...body<{ reason: string }>(r), id: r.id }),
  }),
  route({
    method: 'POST',
    path: '/v1/search',
    operation: 'search',
    summary: 'Full-text search of current memories in the readable scopes, ranked, with why each matched',
    access: 'reader role',
    body: searchInputSchema,
    status: 200,
    produces: 'json',
    call: (s, r) => s.search(body(r)),
  }),
  route({
    method: 'GET',
    path: '/v1/review',
    operation: 'review.list',
    summary: 'The review queue: held writes in readable scopes',
    access: 'reviewer role',
    query: reviewListInputSchema,
    status: 200,
    produces: 'json',
    call: async (s, r) => ({ memories: await s.reviewList(body(r)) }),
  }),
  route({
    method: 'POST',
    path: '/v1/review/:id/approve',
    operation: 'review.approve',
    summary: 'Approve a held write, optionally with edits',
    access: 'a human with the reviewer role and a write grant',
    body: approveInputSchema.omit({ id: true }),
    status: 200,
    produces: 'json',
    call: (s, r) => s.approve({ ...body<object>(r), id: r.id }),
  }),
  route({
    method: 'POST',
    path: '/v1/review/:id/reject',
    operation: 'review.reject',
    summary:
      'Reject a held write (expect: held, the default) or a current memory (expect: active); the same claim stays rejected in that scope',
    access: 'a human with the reviewer role and a write grant',
    body: rejectInputSchema.omit({ id: true }),
    status: 200,
    produces: 'json',
    call: (s, r) => s.reject({ ...body<{ reason: string }>(r), id: r.id }),
  }),
  route({
    method: 'POST',
    path: '/v1/review/:id/unreject',
    operation: 'review.unreject',
    summary: 'Lift the rejection of the claim a rejected memory says, on purpose, so it may land again',
    access: 'a human with the reviewer role and a write grant',
    body: unrejectInputSchema.omit({ id: true }),
    status: 200,
    produces: 'json',
    call: (s, r) => s.unreject({ ...body<{ reason: string }>(r), id: r.id }),
  }),
  route({
    method: 'POST',
    path: '/v1/erase',
    operation: 'erase',
    summary: 'Erase every version of every memory about a subject, leaving tombstones',
    access: 'a human with the admin role',
    body: eraseInputSchema,
    status: 200,
    produces: 'json',
    call: (s, r) => s.erase(body(r)),
  }),
  route({
    method: 'POST',
    path: '/v1/erase/preview',
    operation: 'erase.preview',
    summary: 'What erasing a subject would remove (every version), without removing it',
    access: 'a human with the admin role',
    body: eraseInputSchema,
    status: 200,
    produces: 'json',
    call: (s, r) => s.erasePreview(body(r)),
  }),
  route({
    method: 'GET',
    path: '/v1/whoami',
    operation: 'whoami',
    summary: 'The principal of the token: kind, id, roles, grants, and what it may do',
    access: 'any valid token',
    status: 200,
    produces: 'json',
    call: (s) => s.whoami(),
  }),
  route({
    method: 'GET',
    path: '/v1/review/events',
    operation: 'review.watch',
    summary:
      'Server-sent events: a `pulse` (pending count, newest held write) at once and whenever the queue changes; ends after maxMs',
    access:
      'reviewer role; counts only held writes in readable scopes; ends within one interval once the token is revoked',
    query: reviewWatchInputSchema,
    status: 200,
    produces: 'sse',
    call: (s, r) => sseFrames(s.reviewWatch(body(r), { credential: r.credential })),
  }),
  route({
    method: 'POST',
    path: '/v1/context',
    operation: 'context',
    summary:
      'Context for a task within a token budget: corrections, confirmed rules, open commitments, then relevant memories, as markdown framed as data and as items',
    access: 'reader role; only readable scopes',
    body: contextInputSchema,
    status: 200,
    produces: 'json',
    call: (s, r) => s.context(body(r)),
  }),
  route({
    method: 'GET',
    path: '/v1/corrections',
    operation: 'corrections',
    summary:
      "The latest reviewer correction per key (or kind) of an agent's writes; the caller's own for an agent",
    access: 'reader role; only readable scopes',
    query: correctionsInputSchema,
    status: 200,
    produces: 'json',
    call: async (s, r) => ({ corrections: await s.corrections(body(r)) }),
  }),
  route({
    method: 'POST',
    path: '/v1/claims',
    operation: 'claim',
    summary: 'Claim a key that has a current value: agent writes to it are then held or denied',
    access: 'a human with the reviewer role and a write grant',
    body: claimInputSchema,
    status: 200,
    produces: 'json',
    call: (s, r) => s.claim(body(r)),
  }),
  route({
    method: 'POST',
    path: '/v1/claims/release',
    operation: 'release',
    summary: "Release a key's claim: agent writes to it are then decided by the policy's rules alone",
    access: 'a human with the reviewer role and a write grant',
    body: claimInputSchema,
    status: 200,
    produces: 'json',
    call: (s, r) => s.release(body(r)),
  }),
  route({
    method: 'GET',
    path: '/v1/policy',
    operation: 'policy.show',
    summary: 'The effective policy (defaults applied) and the file it came from',
    access: 'any valid token',
    status: 200,
    produces: 'json',
    call: (s) => s.policyShow(),
  }),
  route({
    method: 'POST',
    path: '/v1/policy/check',
    operation: 'policy.check',
    summary: 'What the gate would do with a write, and why: principal, grant, ownership, then the rules',
    access: "any valid token for its own writes; the reviewer role for another principal's",
    body: policyCheckInputSchema,
    status: 200,
    produces: 'json',
    call: (s, r) => s.policyCheck(body(r)),
  }),
  route({
    method: 'GET',
    path: '/v1/audit',
    operation: 'audit',
    summary: 'Audit records, newest first (never memory content)',
    access: 'a human with the admin role, or the auditor role (an agent or service admin is refused)',
    query: auditQuerySchema,
    status: 200,
    produces: 'json',
    call: async (s, r) => ({ records: await s.audit(body(r)) }),
  }),
  route({
    method: 'GET',
    path: '/v1/audit/failures',
    operation: 'audit.failures',
    summary: 'Failure counts by operation, tool and class',
    access: 'a human with the admin role, or the auditor role (an agent or service admin is refused)',
    query: failuresQuerySchema,
    status: 200,
    produces: 'json',
    call: async (s, r) => ({ failures: await s.auditFailures(body<{ since?: string }>(r).since) }),
  }),
  route({
    method: 'GET',
    path: '/v1/export',
    operation: 'export',
    summary: 'Every readable memory in every state, with events, as JSONL',
    access: 'reader role',
    status: 200,
    produces: 'jsonl',
    call: (s) => s.export(),
  }),
  ...PLAN_ROUTES,
  ...WORKSPACE_ROUTES,
  ...WORKSPACE_ADMIN_ROUTES,
  ...BEHAVIOR_ROUTES,
];
