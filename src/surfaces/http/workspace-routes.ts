/** The workspace routes: the calling agent's SQL and schema prompt (a human admin names the agent). */
import { workspaceSchemaInputSchema, workspaceSqlInputSchema } from '../../workspace/ops.ts';
import type { Route } from './routes.ts';

export const WORKSPACE_ROUTES: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/workspace/sql',
    operation: 'workspace.sql',
    summary: "Run SQL statements in the calling agent's workspace as one transaction",
    access: 'an agent (its own workspace), or a human admin naming the agent',
    body: workspaceSqlInputSchema,
    status: 200,
    produces: 'json',
    call: (s, r) => s.workspaceSql(r.input as never),
  },
  {
    method: 'GET',
    path: '/v1/workspace/schema',
    operation: 'workspace.schema',
    summary: "The calling agent's workspace schema prompt",
    access: 'an agent (its own workspace), or a human admin naming the agent',
    query: workspaceSchemaInputSchema,
    status: 200,
    produces: 'json',
    call: (s, r) => s.workspaceSchema(r.input as never),
  },
];
