/**
 * `memledger mcp`: the agent tools over MCP on stdin/stdout, as one principal: `--as agent:NAME` (roles and
 * grants from the policy file) or a token (`--token`, or MEMLEDGER_TOKEN). Diagnostics go to stderr only.
 */
import { drainInBackground } from '../../../embed/background.ts';
import { MemoryError } from '../../../model/errors.ts';
import { principalLabel } from '../../../model/principal.ts';
import { projectScope } from '../../mcp/read-scopes.ts';
import type { McpIdentity } from '../../mcp/server.ts';
import { optString } from '../args.ts';
import { principalForRef } from '../caller.ts';
import { defineCommand } from '../command.ts';

export const DEFAULT_MCP_PRINCIPAL = 'agent:mcp';

export const mcpCommand = defineCommand<undefined>({
  name: 'mcp',
  summary: 'serve the agent tools over MCP on stdio (for Claude Code, Codex, Cursor)',
  usage: `memledger mcp [--as agent:NAME | --token SECRET] [--project NAME|PATH]
  Runs an MCP server on stdin/stdout with the tools save_memory, search_memory, get_memory, forget_memory,
  doubt_memory and get_context. Every tool call is audited with the MCP session and the client's name and version.
  --as P            act as principal P with roles and grants from policy.json (default ${DEFAULT_MCP_PRINCIPAL},
                    else MEMLEDGER_PRINCIPAL)
  --token SECRET    act as the token's principal (else MEMLEDGER_TOKEN); prefer the variable, which ps cannot show
  --project P       the project that searches and context default to, with shared and the agent's own scope:
                    a name (acme-api) or a path (., ../acme-api); default: this directory's git repository
  Example (Claude Code): claude mcp add memledger -- memledger mcp --as agent:claude-code`,
  options: { token: { type: 'string' }, project: { type: 'string' } },
  async run(ctx, _args, values) {
    const asRef = optString(values, 'as');
    const explicitToken = optString(values, 'token');
    if (asRef !== undefined && explicitToken !== undefined) {
      throw new MemoryError('invalid_input', 'give either --as or --token, not both');
    }
    // Resolved once, before the client connects: a blank --project fails here, not on the first call.
    const given = optString(values, 'project');
    const project = given === undefined ? undefined : projectScope(given);
    const secret = explicitToken ?? (asRef === undefined ? ctx.io.env.MEMLEDGER_TOKEN : undefined);
    const ledger = ctx.ledger();
    drainInBackground(ledger);
    const tokens = secret === undefined ? undefined : await ledger.openTokens();
    try {
      let identity: () => McpIdentity | Promise<McpIdentity>;
      let opened: McpIdentity;
      if (tokens !== undefined) {
        opened = await tokens.verify(secret); // refuse a bad token before the client connects, not on its first call
        identity = () => tokens.verify(secret);
      } else {
        // As for every CLI command, `--as human:NAME` names only the local user (caller.ts).
        const principal =
          asRef !== undefined
            ? principalForRef(ledger, asRef, '--as')
            : principalForRef(
                ledger,
                ctx.io.env.MEMLEDGER_PRINCIPAL || DEFAULT_MCP_PRINCIPAL,
                'MEMLEDGER_PRINCIPAL',
              );
        identity = () => ({ principal });
        opened = { principal };
      }
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      ctx.io.stderr.write(
        `memledger mcp: serving ${principalLabel(opened.principal)} on stdio (home ${ledger.home})\n`,
      );
      try {
        // Loaded on use: every other command (and every hook) starts without the MCP SDK.
        const { serveStdio } = await import('../../mcp/stdio.ts');
        await serveStdio({
          ledger,
          identity,
          stdin: ctx.io.stdin,
          stdout: ctx.io.stdout,
          log: (line) => ctx.io.stderr.write(`${line}\n`),
          signal: controller.signal,
          project,
        });
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
      return undefined;
    } finally {
      await tokens?.close();
    }
  },
});
