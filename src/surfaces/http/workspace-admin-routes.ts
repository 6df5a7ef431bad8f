/**
 * The admin's workspace routes under `/v1/workspaces` (list, show, export as a .sqlite download, reset), as rows
 * of the route table: humans with the admin role only, the ledger enforces it (src/workspace/admin.ts).
 */
import { z } from 'zod';
import type { Route } from './routes.ts';

const ADMIN = 'a human with the admin role (an agent, a service or a non-admin human is refused)';
const route = (r: Route): Route => r;

export const WORKSPACE_ADMIN_ROUTES: readonly Route[] = [
  route({
    method: 'GET',
    path: '/v1/workspaces',
    operation: 'workspace.list',
    summary: "Every agent workspace's snapshot: version, table count, sizes, last write",
    access: ADMIN,
    status: 200,
    produces: 'json',
    call: async (s) => ({ workspaces: await s.workspaceAdmin('list', {}) }),
  }),
  route({
    method: 'GET',
    path: '/v1/workspaces/:id',
    operation: 'workspace.show',
    summary: "One agent workspace's tables with row counts and sizes (never rows), and any quarantined copy",
    access: ADMIN,
    status: 200,
    produces: 'json',
    call: (s, r) => s.workspaceAdmin('show', { agent: r.id }),
  }),
  route({
    method: 'GET',
    path: '/v1/workspaces/:id/export',
    operation: 'workspace.export',
    summary: 'The agent workspace as a SQLite file (an explicit, audited download)',
    access: ADMIN,
    status: 200,
    produces: 'sqlite',
    call: async (s, r) => {
      const file = await s.workspaceAdmin('export', { agent: r.id });
      return {
        name: `${file.agent.replace(/[^A-Za-z0-9._-]/g, '_')}-v${file.version}.sqlite`,
        bytes: file.bytes,
      };
    },
  }),
  route({
    method: 'POST',
    path: '/v1/workspaces/:id/reset',
    operation: 'workspace.reset',
    summary: 'Empty an agent workspace: its snapshot, quarantined copy and local copies go',
    access: ADMIN,
    body: z.object({}).strict(),
    status: 200,
    produces: 'json',
    call: (s, r) => s.workspaceAdmin('reset', { agent: r.id }),
  }),
];
