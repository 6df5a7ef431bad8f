/** `memledger token create | list | revoke`: API tokens for the HTTP API and `/mcp`. Secrets are shown once. */
import type { CreatedToken, TokenInfo, TokenStore } from '../../../auth/token-store.ts';
import { principalLabel } from '../../../model/principal.ts';
import { assertHumanWithRole } from '../../../policy/access.ts';
import { optFlag, optString, optStrings } from '../args.ts';
import { type CliContext, defineCommand } from '../command.ts';
import { plural, shortTime, table } from '../render.ts';

export const tokenCreate = defineCommand<CreatedToken>({
  name: 'token create',
  summary: 'create an API token (the secret is shown once)',
  usage: `memledger token create --name NAME --kind agent|human|service [--role R]... [--grant SCOPE:MODE]...
  The token's principal is KIND:NAME, with exactly these roles and grants; callers cannot widen them.
  --name NAME       the principal id, e.g. claude-code or alice
  --kind K          agent, human or service
  --role R          reader, writer, reviewer, admin or auditor (repeatable; default: agent reader+writer,
                    else reader); the audit is read by a human admin or an auditor, never an agent's admin
  --grant G         a scope grant such as user:alice:rw, shared:r, project:*:rw (repeatable;
                    default for an agent: agent:{self}:rw, else none)
  Example: memledger token create --name claude-code --kind agent --grant 'agent:{self}:rw' --grant shared:r`,
  options: {
    name: { type: 'string' },
    kind: { type: 'string' },
    role: { type: 'string', multiple: true },
    grant: { type: 'string', multiple: true },
  },
  judgement: true,
  async run(ctx, _args, values) {
    const createdBy = manager(ctx);
    const request = {
      name: optString(values, 'name') ?? '',
      kind: (optString(values, 'kind') ?? '') as never,
      roles: optStrings(values, 'role') as never,
      grants: optStrings(values, 'grant'),
    };
    return withTokens(ctx, (tokens) => tokens.create(request, createdBy), {
      operation: 'token.create',
      args: request,
    });
  },
  render: (t) =>
    `created ${t.id} for ${t.principal} (roles ${t.roles.join(', ') || 'none'}; grants ${t.grants.join(', ') || 'none'})\n\n` +
    `  ${t.secret}\n\nThis is the only time the secret is shown; store it now. Use it as Authorization: Bearer <secret>,\n` +
    `or as MEMLEDGER_TOKEN for memledger mcp.\n`,
});

export const tokenList = defineCommand<{ tokens: TokenInfo[] }>({
  name: 'token list',
  summary: 'list API tokens (never their secrets)',
  usage: `memledger token list [--all]
  --all             include revoked tokens`,
  options: { all: { type: 'boolean' } },
  async run(ctx, _args, values) {
    manager(ctx);
    return withTokens(
      ctx,
      async (tokens) => ({ tokens: await tokens.list({ includeRevoked: optFlag(values, 'all') }) }),
      {
        operation: 'token.list',
        args: { all: optFlag(values, 'all') },
      },
    );
  },
  render: ({ tokens }) => {
    if (tokens.length === 0) return 'no tokens\n';
    const head = [
      { header: 'id' },
      { header: 'principal' },
      { header: 'roles' },
      { header: 'grants', flex: true },
      { header: 'secret' },
      { header: 'created' },
      { header: 'revoked' },
    ];
    const rows = tokens.map((t) => [
      t.id,
      t.principal,
      t.roles.join(','),
      t.grants.join(' '),
      `${t.prefix}…`,
      shortTime(t.createdAt),
      t.revokedAt === null ? '' : shortTime(t.revokedAt),
    ]);
    return `${table(head, rows, 140)}\n\n${plural(tokens.length, 'token')}\n`;
  },
});

export const tokenRevoke = defineCommand<TokenInfo>({
  name: 'token revoke',
  summary: 'revoke an API token at once',
  usage: `memledger token revoke TOKEN_ID
  Every process on this data directory refuses the token from its next request.`,
  positionals: { min: 1, max: 1 },
  judgement: true,
  async run(ctx, args) {
    manager(ctx);
    return withTokens(ctx, (tokens) => tokens.revoke(args[0]!), {
      operation: 'token.revoke',
      args: { id: args[0] },
    });
  },
  render: (t) => `revoked ${t.id} (${t.principal}) at ${t.revokedAt ?? ''}\n`,
});

/** Managing tokens hands out access, so only a human admin may do it (the OS user is one; `--as agent:x` is not). */
function manager(ctx: CliContext): string {
  const principal = ctx.session().principal;
  assertHumanWithRole(principal, 'admin', 'manage API tokens');
  return principalLabel(principal);
}

/** Runs a token operation and audits it as the operator (I8); a failure is audited by the CLI's refusal path. */
async function withTokens<T>(
  ctx: CliContext,
  fn: (tokens: TokenStore) => Promise<T>,
  audit?: { operation: string; args: unknown },
): Promise<T> {
  const started = performance.now();
  const tokens = await ctx.ledger().openTokens();
  try {
    const result = await fn(tokens);
    if (audit !== undefined) {
      const ledger = ctx.ledger();
      const session = ctx.session();
      await ledger.recordSurfaceCall({
        principal: session.principal,
        context: { ...session.callContext, tool: audit.operation },
        operation: audit.operation,
        args: audit.args,
        durationMs: performance.now() - started,
      });
    }
    return result;
  } finally {
    await tokens.close();
  }
}
