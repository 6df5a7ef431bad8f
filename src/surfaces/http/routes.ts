/**
 * The HTTP API as a table: one entry per ledger verb with its method, path, the library's zod schema for its
 * body or query, and the call. The app and the OpenAPI document are both built from this table.
 */
import { z } from 'zod';
import { ERROR_CLASSES, type LedgerSession } from '../../index.ts';
import { eraseInputSchema } from '../../ledger/erase.ts';
import { listInputSchema, reviewListInputSchema } from '../../ledger/read.ts';
import { retractInputSchema } from '../../ledger/retract.ts';
import { searchInputSchema } from '../../ledger/search.ts';
import { approveInputSchema, rejectInputSchema } from '../../ledger/verdicts.ts';
import { rememberInputSchema } from '../../model/memory.ts';
import { isoTime } from '../../model/time.ts';

export type Method = 'GET' | 'POST';

export interface RouteCall {
  /** The `:id` path parameter, when the path has one. */
  id: string;
  /** The validated body or query. */
  input: unknown;
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
  /** `jsonl` streams one JSON document per line. */
  produces: 'json' | 'jsonl';
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
    summary: 'Reject a held or active memory; the same claim stays rejected in that scope',
    access: 'a human with the reviewer role and a write grant',
    body: rejectInputSchema.omit({ id: true }),
    status: 200,
    produces: 'json',
    call: (s, r) => s.reject({ ...body<{ reason: string }>(r), id: r.id }),
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
    method: 'GET',
    path: '/v1/audit',
    operation: 'audit',
    summary: 'Audit records, newest first (never memory content)',
    access: 'admin role',
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
    access: 'admin role',
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
];
