/** `memledger serve`: the web console, the HTTP API, its OpenAPI document and `/mcp`, until SIGINT or SIGTERM. */
import { drainInBackground } from '../../../embed/background.ts';
import { MemoryError } from '../../../model/errors.ts';
import { projectScope } from '../../mcp/read-scopes.ts';
import type { startServer } from '../../http/server.ts';
import { isLoopbackAddress, parseAllowList } from '../../http/origin-check.ts';
import { optInt, optString, optStrings } from '../args.ts';
import { defineCommand } from '../command.ts';
import { SERVER_NODE_FLAGS } from '../node-flags.ts';

export const serveCommand = defineCommand<undefined>({
  name: 'serve',
  summary: 'serve the HTTP API and MCP over HTTP (bearer tokens)',
  usage: `memledger serve [--port 8787] [--host 127.0.0.1] [--project NAME|PATH]
  Serves the web console at /, the JSON API under /v1, MCP (Streamable HTTP) at /mcp, /openapi.json
  and /healthz. The console needs \`npm run build\`; sign in with a human token.
  Every request needs a token from memledger token create and is audited.
  --port N          the port (default 8787; 0 picks a free one)
  --host H          the address to listen on (default 127.0.0.1, this machine only)
  --project P       the project MCP searches and context default to (a name or a path; default: this
                    directory's git repository)
  --allow-origin U  a browser origin allowed besides loopback's (repeatable; also MEMLEDGER_ALLOWED_ORIGINS)
  --allow-host H    a Host allowed besides loopback names and the listening address, as name or name:port
                    (repeatable; also MEMLEDGER_ALLOWED_HOSTS); any other Host or Origin is refused with 403
  --public-url U    the console's address as people reach it, for links in notifications (also
                    MEMLEDGER_PUBLIC_URL; default the listening address). Notifications (memledger notify)
                    are sent from this process; Slack's button presses come to /v1/slack/interactions
  --keep-deliveries D  days a delivered or failed notification stays in the delivery log (default 30;
                    pending ones are kept until they are sent or fail)`,
  nodeFlags: SERVER_NODE_FLAGS,
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-origin': { type: 'string', multiple: true },
    'allow-host': { type: 'string', multiple: true },
    project: { type: 'string' },
    'public-url': { type: 'string' },
    'keep-deliveries': { type: 'string' },
  },
  async run(ctx, _args, values) {
    const port = optInt(values, 'port') ?? 8787;
    if (port > 65_535) throw new MemoryError('invalid_input', `--port must be at most 65535, got ${port}`);
    const host = optString(values, 'host') ?? '127.0.0.1';
    const keepDays = optInt(values, 'keep-deliveries') ?? 30;
    if (keepDays < 1)
      throw new MemoryError('invalid_input', `--keep-deliveries must be at least 1 day, got ${keepDays}`);
    // Resolved once, before listening: a blank --project fails here, not on a client's first session.
    const given = optString(values, 'project');
    const project = given === undefined ? undefined : projectScope(given);
    const allow = parseAllowList(
      {
        origins: optStrings(values, 'allow-origin'),
        hosts: optStrings(values, 'allow-host'),
      },
      ctx.io.env,
    );
    let server: Awaited<ReturnType<typeof startServer>>;
    try {
      // Loaded on use: every other command (and every hook) starts without the HTTP and MCP stacks.
      const http = await import('../../http/server.ts');
      const publicUrl = optString(values, 'public-url') ?? ctx.io.env.MEMLEDGER_PUBLIC_URL;
      const env = ctx.io.env;
      server = await http.startServer({
        ledger: ctx.ledger(),
        port,
        host,
        allow,
        mcp: { project },
        publicUrl,
        notify: { env, keepFinishedMs: keepDays * 24 * 60 * 60_000 },
        slack: { env },
      });
      drainInBackground(ctx.ledger());
    } catch (error) {
      if (error instanceof MemoryError) throw error;
      throw new MemoryError('upstream', `cannot listen on ${host}:${port}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (!isLoopbackAddress(host)) {
      ctx.io.stderr.write(
        `memledger: warning: listening on ${host}, so this server is reachable from the network; every request needs a token (memledger token create), and Host and Origin are checked against the allow-list\n`,
      );
    }
    // Schedule and commitment triggers fire from here too; the store makes each window fire once (src/behaviors).
    const stopScheduler = (await import('../../../behaviors/loop.ts')).runScheduler(ctx.session(), {
      intervalMs: 30_000,
    });
    ctx.io.stdout.write(
      `memledger serving ${server.url} (console ${server.url}/, API /v1, MCP ${server.url}/mcp, /openapi.json)\n`,
    );
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    ctx.io.stderr.write('memledger: stopping\n');
    await stopScheduler();
    await server.close();
    return undefined;
  },
});
