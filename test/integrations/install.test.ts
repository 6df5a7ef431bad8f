/**
 * `memledger install | uninstall claude-code|codex` on a temporary HOME and repository (never the real ~/.claude
 * or ~/.codex): idempotent, keeping everything else in the files, removing exactly what it added, and writing
 * nothing on --dry-run.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { BIN, cli, ok } from '../cli/helpers.ts';
import { type World, withWorld } from '../feeds/fixtures.ts';

const run = (world: World, args: string[], env: Record<string, string> = {}) =>
  cli(world.home, [...args, '--dir', world.repo, '--json'], { env: { HOME: world.userHome, ...env } });

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
/** smol-toml's tables have no prototype; compare them as plain JSON. */
const parse = (text: string): unknown => JSON.parse(JSON.stringify(parseToml(text)));

/** Every file under a directory with its bytes, to prove a dry run wrote nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[p] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

const OTHER_SETTINGS = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'], deny: [] },
  hooks: {
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo welcome' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh', timeout: 5 }] }],
  },
};

describe('install claude-code', () => {
  test('--project adds the hooks and the MCP server, keeps every other setting, and a second run changes nothing', () =>
    withWorld(async (world) => {
      const settingsPath = join(world.repo, '.claude', 'settings.local.json');
      mkdirSync(join(world.repo, '.claude'), { recursive: true });
      writeFileSync(settingsPath, `${JSON.stringify(OTHER_SETTINGS, null, 4)}\n`);
      writeFileSync(
        join(world.repo, '.mcp.json'),
        JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }),
      );
      const first = ok(await run(world, ['install', 'claude-code'])).json();
      assert.deepEqual(
        first.changes.map((c: { action: string }) => c.action),
        ['update', 'update'],
      );
      assert.deepEqual(first.feed, { name: 'claude-code', action: 'added' });

      const settings = json(settingsPath);
      assert.equal(settings.model, 'opus');
      assert.deepEqual(settings.permissions, OTHER_SETTINGS.permissions);
      assert.deepEqual(settings.hooks.PreToolUse, OTHER_SETTINGS.hooks.PreToolUse);
      assert.deepEqual(
        settings.hooks.SessionStart[0],
        OTHER_SETTINGS.hooks.SessionStart[0],
        "the user's own hook stays first",
      );
      const ours = settings.hooks.SessionStart[1];
      assert.equal(ours.matcher, 'startup|clear|compact');
      const command: string = ours.hooks[0].command;
      assert.equal(command, `${process.execPath} ${BIN} hook claude-code --home ${world.home}`);
      assert.doesNotMatch(command, /npx/);
      assert.equal(settings.hooks.SessionEnd[0].hooks[0].command, command);
      assert.equal(settings.hooks.UserPromptSubmit, undefined, 'per-prompt injection is opt-in');
      assert.match(
        readFileSync(settingsPath, 'utf8'),
        /\n {4}"model"/,
        'the file keeps its four-space indent',
      );

      const mcp = json(join(world.repo, '.mcp.json'));
      assert.deepEqual(mcp.mcpServers.github, { command: 'gh-mcp' });
      assert.deepEqual(mcp.mcpServers.memledger, {
        type: 'stdio',
        command: process.execPath,
        args: [BIN, 'mcp', '--as', 'agent:claude-code', '--home', world.home],
      });

      const before = snapshot(world.repo);
      const again = ok(await run(world, ['install', 'claude-code'])).json();
      assert.deepEqual(
        again.changes.map((c: { action: string }) => c.action),
        ['unchanged', 'unchanged'],
      );
      assert.deepEqual(again.feed, { name: 'claude-code', action: 'exists' });
      assert.deepEqual(snapshot(world.repo), before, 'idempotent: not a byte changed');

      const perPrompt = ok(await run(world, ['install', 'claude-code', '--per-prompt'])).json();
      assert.equal(perPrompt.changes[0].action, 'update');
      const upgraded = json(settingsPath);
      assert.match(upgraded.hooks.UserPromptSubmit[0].hooks[0].command, /hook claude-code --per-prompt/);
      assert.equal(upgraded.hooks.SessionStart.length, 2, 'replaced, not added twice');
    }));

  test('uninstall removes exactly what install added: the files read as they did before', () =>
    withWorld(async (world) => {
      const settingsPath = join(world.repo, '.claude', 'settings.local.json');
      mkdirSync(join(world.repo, '.claude'), { recursive: true });
      const original = `${JSON.stringify(OTHER_SETTINGS, null, 2)}\n`;
      writeFileSync(settingsPath, original);
      ok(await run(world, ['install', 'claude-code', '--per-prompt']));
      assert.ok(existsSync(join(world.repo, '.mcp.json')));
      const removed = ok(await run(world, ['uninstall', 'claude-code'])).json();
      assert.deepEqual(
        removed.changes.map((c: { action: string }) => c.action),
        ['update', 'remove'],
      );
      assert.equal(readFileSync(settingsPath, 'utf8'), original, 'byte for byte');
      assert.ok(!existsSync(join(world.repo, '.mcp.json')), 'the file install created is gone');
      const twice = ok(await run(world, ['uninstall', 'claude-code'])).json();
      assert.deepEqual(
        twice.changes.map((c: { action: string }) => c.action),
        ['unchanged', 'unchanged'],
      );
    }));

  test('--user writes ~/.claude/settings.json and the user MCP entry in ~/.claude.json, keeping its other state', () =>
    withWorld(async (world) => {
      const state = {
        numStartups: 12,
        projects: { '/x': { allowedTools: [] } },
        mcpServers: { other: { command: 'o' } },
      };
      writeFileSync(join(world.userHome, '.claude.json'), JSON.stringify(state));
      ok(await run(world, ['install', 'claude-code', '--user', '--no-feed']));
      const settings = json(join(world.userHome, '.claude', 'settings.json'));
      assert.match(settings.hooks.SessionStart[0].hooks[0].command, /hook claude-code/);
      const after = json(join(world.userHome, '.claude.json'));
      assert.deepEqual(
        [after.numStartups, after.projects, after.mcpServers.other],
        [12, state.projects, state.mcpServers.other],
      );
      assert.equal(after.mcpServers.memledger.args[1], 'mcp');
      assert.ok(!existsSync(join(world.repo, '.mcp.json')), 'nothing written into the repository');
      ok(await run(world, ['uninstall', 'claude-code', '--user']));
      assert.deepEqual(json(join(world.userHome, '.claude.json')), state);
      assert.ok(!existsSync(join(world.userHome, '.claude', 'settings.json')));
    }));

  test('--dry-run shows the edits and writes nothing, not even the data directory', () =>
    withWorld(async (world) => {
      const before = snapshot(world.root);
      const homeExisted = existsSync(join(world.home, 'memory.db'));
      const dry = await cli(
        join(world.root, 'fresh-home'),
        ['install', 'claude-code', '--dry-run', '--dir', world.repo, '--json'],
        {
          env: { HOME: world.userHome },
        },
      );
      const result = ok(dry).json();
      assert.equal(result.dryRun, true);
      assert.deepEqual(
        result.changes.map((c: { action: string; path: string }) => [c.action, c.path]),
        [
          ['create', join(world.repo, '.claude', 'settings.local.json')],
          ['create', join(world.repo, '.mcp.json')],
        ],
      );
      assert.deepEqual(snapshot(world.root), before);
      assert.ok(!existsSync(join(world.root, 'fresh-home')), 'the data directory is not created');
      assert.equal(existsSync(join(world.home, 'memory.db')), homeExisted);
      ok(await run(world, ['install', 'claude-code']));
      const beforeUninstall = snapshot(world.root);
      ok(await run(world, ['uninstall', 'claude-code', '--dry-run']));
      assert.deepEqual(
        snapshot(world.root),
        beforeUninstall,
        'control: an uninstall dry run writes nothing either',
      );
    }));

  test('a settings file that is not JSON is refused, never overwritten', () =>
    withWorld(async (world) => {
      mkdirSync(join(world.repo, '.claude'), { recursive: true });
      writeFileSync(join(world.repo, '.claude', 'settings.local.json'), '{ "model": "opus", ');
      const r = await run(world, ['install', 'claude-code']);
      assert.equal(r.code, 2);
      assert.match(r.error().message, /not valid JSON/);
      assert.equal(
        readFileSync(join(world.repo, '.claude', 'settings.local.json'), 'utf8'),
        '{ "model": "opus", ',
      );
      assert.ok(!existsSync(join(world.repo, '.mcp.json')), 'nothing half-done');
    }));
});

describe('install codex', () => {
  const CONFIG = `# my Codex settings
model = "gpt-5-codex" # the default model

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[mcp_servers.docs.env]
DOCS_TOKEN_FILE = "~/.docs"
`;

  test('--user adds the MCP table, the hooks and the AGENTS.md block, keeps comments, and uninstall restores the bytes', () =>
    withWorld(async (world) => {
      const codexHome = join(world.userHome, '.codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(join(codexHome, 'config.toml'), CONFIG);
      writeFileSync(join(codexHome, 'AGENTS.md'), '# My rules\n\n- Answer briefly.\n');
      const first = ok(await run(world, ['install', 'codex', '--user'])).json();
      assert.deepEqual(
        first.changes.map((c: { action: string }) => c.action),
        ['update', 'create', 'update'],
      );
      const text = readFileSync(join(codexHome, 'config.toml'), 'utf8');
      assert.ok(text.startsWith(CONFIG), 'the original text, comments included, is untouched');
      const config = parse(text) as {
        model: string;
        mcp_servers: Record<string, { command: string; args: string[] }>;
      };
      assert.equal(config.model, 'gpt-5-codex');
      assert.deepEqual(config.mcp_servers.docs, {
        command: 'npx',
        args: ['-y', 'docs-mcp'],
        env: { DOCS_TOKEN_FILE: '~/.docs' },
      });
      assert.deepEqual(config.mcp_servers.memledger, {
        command: process.execPath,
        args: [BIN, 'mcp', '--as', 'agent:codex', '--home', world.home],
      });
      const hooks = json(join(codexHome, 'hooks.json'));
      assert.equal(hooks.hooks.SessionStart[0].matcher, 'startup|clear');
      assert.match(hooks.hooks.SessionStart[0].hooks[0].command, /memledger\.js hook codex/);
      assert.match(hooks.hooks.Stop[0].hooks[0].command, /hook codex/);
      const agents = readFileSync(join(codexHome, 'AGENTS.md'), 'utf8');
      assert.ok(agents.startsWith('# My rules\n\n- Answer briefly.\n'));
      assert.match(agents, /get_context/);

      const again = ok(await run(world, ['install', 'codex', '--user'])).json();
      assert.deepEqual(
        again.changes.map((c: { action: string }) => c.action),
        ['unchanged', 'unchanged', 'unchanged'],
      );

      ok(await run(world, ['uninstall', 'codex', '--user']));
      assert.equal(readFileSync(join(codexHome, 'config.toml'), 'utf8'), CONFIG);
      assert.equal(readFileSync(join(codexHome, 'AGENTS.md'), 'utf8'), '# My rules\n\n- Answer briefly.\n');
      assert.ok(!existsSync(join(codexHome, 'hooks.json')));
    }));

  test('CODEX_HOME is honoured; --project writes .codex/ and AGENTS.md in the repository; both undo cleanly', () =>
    withWorld(async (world) => {
      const codexHome = join(world.root, 'codex-home');
      ok(await run(world, ['install', 'codex', '--user', '--no-feed'], { CODEX_HOME: codexHome }));
      assert.ok(statSync(join(codexHome, 'config.toml')).isFile());
      ok(await run(world, ['uninstall', 'codex', '--user'], { CODEX_HOME: codexHome }));
      assert.deepEqual(readdirSync(codexHome), [], 'files it created are removed');

      ok(await run(world, ['install', 'codex', '--no-feed']));
      assert.ok(existsSync(join(world.repo, '.codex', 'config.toml')));
      assert.ok(existsSync(join(world.repo, '.codex', 'hooks.json')));
      assert.match(readFileSync(join(world.repo, 'AGENTS.md'), 'utf8'), /memledger:begin/);
      ok(await run(world, ['uninstall', 'codex']));
      assert.ok(!existsSync(join(world.repo, 'AGENTS.md')));
      assert.deepEqual(readdirSync(join(world.repo, '.codex')), []);
    }));

  test('a config.toml whose MCP servers are an inline table is rewritten whole, keeping every setting', () =>
    withWorld(async (world) => {
      const codexHome = join(world.userHome, '.codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(
        join(codexHome, 'config.toml'),
        'mcp_servers = { docs = { command = "npx" } }\nmodel = "o3"\n',
      );
      ok(await run(world, ['install', 'codex', '--user', '--no-feed']));
      const config = parse(readFileSync(join(codexHome, 'config.toml'), 'utf8')) as {
        mcp_servers: Record<string, unknown>;
        model: string;
      };
      assert.deepEqual(Object.keys(config.mcp_servers).sort(), ['docs', 'memledger']);
      assert.equal(config.model, 'o3');
      ok(await run(world, ['uninstall', 'codex', '--user']));
      assert.deepEqual(parse(readFileSync(join(codexHome, 'config.toml'), 'utf8')), {
        mcp_servers: { docs: { command: 'npx' } },
        model: 'o3',
      });
    }));
});
