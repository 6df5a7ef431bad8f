/**
 * `memledger install | uninstall claude-code|codex` on a temporary HOME and repository (never the real ~/.claude
 * or ~/.codex): idempotent, keeping everything else in the files, removing exactly what it added, showing each
 * file's change and writing nothing on --dry-run, and never putting a path of this machine into a file a team
 * commits (.mcp.json, .claude/settings.json, a project's .codex/, AGENTS.md, CLAUDE.md).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { BIN, cleanEnv, cli, ok } from '../cli/helpers.ts';
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
      const teamMcp = JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } });
      writeFileSync(join(world.repo, '.mcp.json'), teamMcp);
      const first = ok(await run(world, ['install', 'claude-code'])).json();
      assert.deepEqual(
        first.changes.map((c: { action: string }) => c.action),
        ['update', 'create', 'unchanged'],
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

      assert.equal(
        readFileSync(join(world.repo, '.mcp.json'), 'utf8'),
        teamMcp,
        "the team's file is untouched",
      );
      const state = json(join(world.userHome, '.claude.json'));
      assert.deepEqual(state.projects[world.repo].mcpServers.memledger, {
        type: 'stdio',
        command: process.execPath,
        args: [BIN, 'mcp', '--as', 'agent:claude-code', '--home', world.home],
      });
      assert.equal(state.mcpServers, undefined, 'the local scope, not the user scope');

      const before = snapshot(world.repo);
      const again = ok(await run(world, ['install', 'claude-code'])).json();
      assert.deepEqual(
        again.changes.map((c: { action: string }) => c.action),
        ['unchanged', 'unchanged', 'unchanged'],
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
      const claudeState = { numStartups: 3, projects: { '/elsewhere': { allowedTools: ['Bash'] } } };
      writeFileSync(join(world.userHome, '.claude.json'), JSON.stringify(claudeState));
      ok(await run(world, ['install', 'claude-code', '--per-prompt']));
      assert.ok(!existsSync(join(world.repo, '.mcp.json')), 'install writes no .mcp.json');
      const removed = ok(await run(world, ['uninstall', 'claude-code'])).json();
      assert.deepEqual(
        removed.changes.map((c: { action: string }) => c.action),
        ['update', 'update', 'unchanged'],
      );
      assert.equal(readFileSync(settingsPath, 'utf8'), original, 'byte for byte');
      assert.deepEqual(
        json(join(world.userHome, '.claude.json')),
        claudeState,
        'the local-scope entry is gone',
      );
      const twice = ok(await run(world, ['uninstall', 'claude-code'])).json();
      assert.deepEqual(
        twice.changes.map((c: { action: string }) => c.action),
        ['unchanged', 'unchanged', 'unchanged'],
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
          ['create', join(world.userHome, '.claude.json')],
          ['unchanged', join(world.repo, '.mcp.json')],
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

/** Files a team commits by convention: a path of this machine in one is wrong on every other machine. */
const COMMITTED = (repo: string) =>
  [
    '.mcp.json',
    '.claude/settings.json',
    '.codex/config.toml',
    '.codex/hooks.json',
    'AGENTS.md',
    'CLAUDE.md',
  ].map((f) => join(repo, f));
/** This memledger checkout (the directory bin/ is in). */
const CHECKOUT = join(BIN, '..', '..');

function machinePathsIn(path: string, world: World): string[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  return [world.home, CHECKOUT, process.execPath, world.userHome].filter((p) => text.includes(p));
}

/** Runs a hook command as the agent does: a shell line, the event's JSON on stdin. */
function runHookCommand(command: string, input: string, env: NodeJS.ProcessEnv) {
  return spawnSync('sh', ['-c', command], { input, env, encoding: 'utf8' });
}

const startInput = (world: World) =>
  JSON.stringify({
    session_id: 'installed-hook',
    transcript_path: join(world.claudeProjects, 'x', 'installed-hook.jsonl'),
    cwd: world.repo,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });

describe('install --project and the files a team commits', () => {
  test('claude-code: no committed file holds the home, the checkout or this Node; the local files do, and the hook runs', () =>
    withWorld(async (world, ledger) => {
      await ledger
        .as(ledger.operator())
        .remember({ body: 'Deploys go through the staging branch first.', scope: 'project:acme-api' });
      ok(await run(world, ['install', 'claude-code', '--per-prompt']));
      for (const path of COMMITTED(world.repo)) {
        assert.deepEqual(machinePathsIn(path, world), [], `${path} names no path of this machine`);
      }
      assert.ok(!existsSync(join(world.repo, '.mcp.json')), 'no project-scope file is written');
      // Control: the machine paths are there, in the files only this user reads.
      const local = readFileSync(join(world.repo, '.claude', 'settings.local.json'), 'utf8');
      assert.ok(local.includes(world.home) && local.includes(process.execPath) && local.includes(BIN));
      const state = json(join(world.userHome, '.claude.json'));
      assert.equal(state.projects[world.repo].mcpServers.memledger.command, process.execPath);

      const command: string = json(join(world.repo, '.claude', 'settings.local.json')).hooks.SessionStart[0]
        .hooks[0].command;
      const hook = runHookCommand(command, startInput(world), { ...cleanEnv(), HOME: world.userHome });
      assert.equal(hook.status, 0, hook.stderr);
      assert.match(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext, /staging branch/);
    }));

  test('an .mcp.json entry an earlier install wrote is taken out; a portable one the team wrote stays', () =>
    withWorld(async (world) => {
      const ours = {
        type: 'stdio',
        command: '/opt/node24/bin/node',
        args: ['/home/ann/memledger/bin/memledger.js', 'mcp'],
      };
      writeFileSync(
        join(world.repo, '.mcp.json'),
        JSON.stringify({ mcpServers: { memledger: ours, github: { command: 'gh-mcp' } } }),
      );
      const r = ok(await run(world, ['install', 'claude-code', '--no-feed'])).json();
      assert.deepEqual(json(join(world.repo, '.mcp.json')), {
        mcpServers: { github: { command: 'gh-mcp' } },
      });
      assert.ok(r.notes.some((n: string) => /removed the memledger entry an earlier install wrote/.test(n)));

      const team = `${JSON.stringify({ mcpServers: { memledger: { command: 'memledger', args: ['mcp'] } } })}\n`;
      writeFileSync(join(world.repo, '.mcp.json'), team);
      ok(await run(world, ['install', 'claude-code', '--no-feed']));
      ok(await run(world, ['uninstall', 'claude-code']));
      assert.equal(
        readFileSync(join(world.repo, '.mcp.json'), 'utf8'),
        team,
        "the team's own entry is theirs",
      );
    }));

  test('codex: the project files are portable (memledger from PATH, no home) and the hook runs from PATH', () =>
    withWorld(async (world, ledger) => {
      await ledger
        .as(ledger.operator())
        .remember({ body: 'Deploys go through the staging branch first.', scope: 'project:acme-api' });
      ok(await run(world, ['install', 'codex']));
      for (const path of COMMITTED(world.repo)) {
        assert.deepEqual(machinePathsIn(path, world), [], `${path} names no path of this machine`);
      }
      const config = parse(readFileSync(join(world.repo, '.codex', 'config.toml'), 'utf8')) as {
        mcp_servers: Record<string, unknown>;
      };
      assert.deepEqual(config.mcp_servers.memledger, {
        command: 'memledger',
        args: ['mcp', '--as', 'agent:codex'],
        env_vars: ['MEMLEDGER_HOME'],
      });
      const hooks = json(join(world.repo, '.codex', 'hooks.json'));
      const command: string = hooks.hooks.SessionStart[0].hooks[0].command;
      assert.equal(command, 'memledger hook codex');
      // A teammate's machine: memledger on PATH (here a shim to this checkout), their own MEMLEDGER_HOME.
      const binDir = join(world.root, 'path-bin');
      mkdirSync(binDir);
      writeFileSync(join(binDir, 'memledger'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, {
        mode: 0o755,
      });
      const env = {
        ...cleanEnv(),
        HOME: world.userHome,
        MEMLEDGER_HOME: world.home,
        PATH: `${binDir}:${process.env.PATH}`,
      };
      const hook = runHookCommand(command, startInput(world), env);
      assert.equal(hook.status, 0, hook.stderr);
      assert.match(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext, /staging branch/);
    }));

  test('codex: re-running install turns the machine paths an earlier install wrote into portable commands', () =>
    withWorld(async (world) => {
      const old = `${process.execPath} ${BIN} hook codex --home ${world.home}`;
      mkdirSync(join(world.repo, '.codex'), { recursive: true });
      writeFileSync(
        join(world.repo, '.codex', 'config.toml'),
        `model = "o3"\n\n[mcp_servers.memledger]\ncommand = "${process.execPath}"\nargs = ["${BIN}", "mcp", "--as", "agent:codex"]\n`,
      );
      writeFileSync(
        join(world.repo, '.codex', 'hooks.json'),
        JSON.stringify({
          hooks: { SessionStart: [{ hooks: [{ type: 'command', command: old, timeout: 15 }] }] },
        }),
      );
      assert.notDeepEqual(
        machinePathsIn(join(world.repo, '.codex', 'hooks.json'), world),
        [],
        'control: the old file has them',
      );
      ok(await run(world, ['install', 'codex', '--no-feed']));
      for (const path of COMMITTED(world.repo)) {
        assert.deepEqual(machinePathsIn(path, world), [], `${path} names no path of this machine`);
      }
      const config = parse(readFileSync(join(world.repo, '.codex', 'config.toml'), 'utf8')) as {
        model: string;
      };
      assert.equal(config.model, 'o3', 'the rest of the file stays');
      const hooks = json(join(world.repo, '.codex', 'hooks.json'));
      assert.equal(hooks.hooks.SessionStart.length, 1, 'replaced, not added beside the old one');
    }));

  test('codex says the project must be trusted and the hooks trusted in /hooks, with the exact steps', () =>
    withWorld(async (world) => {
      const project = ok(await run(world, ['install', 'codex', '--no-feed'])).json();
      const notes: string = project.notes.join('\n');
      assert.ok(notes.includes(`[projects."${world.repo}"] trust_level = "trusted"`), notes);
      assert.ok(notes.includes(join(world.userHome, '.codex', 'config.toml')), notes);
      assert.match(notes, /type \/hooks, review the memledger SessionStart and Stop hooks/);
      assert.match(notes, /MEMLEDGER_HOME/, 'the home given is not in the files, and it says how to use it');
      const text = ok(
        await cli(world.home, ['install', 'codex', '--no-feed', '--dir', world.repo], {
          env: { HOME: world.userHome },
        }),
      ).stdout;
      assert.match(text, /note: Codex runs a hook only after you trust it: in codex, type \/hooks/);

      const user = ok(await run(world, ['install', 'codex', '--user', '--no-feed'])).json();
      assert.match(user.notes.join('\n'), /\/hooks/, 'user hooks need the same review');
      assert.doesNotMatch(user.notes.join('\n'), /trust_level/, 'control: no project to trust');
      const claude = ok(await run(world, ['install', 'claude-code', '--no-feed'])).json();
      assert.doesNotMatch(claude.notes.join('\n'), /\/hooks/, 'control: Claude Code has no such step');
      assert.match(claude.notes.join('\n'), /local scope/);
    }));
});

describe('install --dry-run shows the change itself', () => {
  test("each changed file's diff: added lines with their context, removed lines on uninstall, none for unchanged", () =>
    withWorld(async (world) => {
      const settingsPath = join(world.repo, '.claude', 'settings.local.json');
      mkdirSync(join(world.repo, '.claude'), { recursive: true });
      writeFileSync(settingsPath, `${JSON.stringify(OTHER_SETTINGS, null, 2)}\n`);
      const dry = ok(await run(world, ['install', 'claude-code', '--dry-run'])).json();
      const settings = dry.changes.find((c: { path: string }) => c.path === settingsPath);
      assert.match(settings.diff, new RegExp(`^--- ${settingsPath}\\n\\+\\+\\+ ${settingsPath}\\n@@ `));
      assert.match(
        settings.diff,
        /\n\+ +"command": ".*hook claude-code --per-prompt|\n\+ +"command": ".*hook claude-code/,
      );
      assert.match(
        settings.diff,
        /\n {5,}"command": "\.\/guard\.sh",\n/,
        "the user's own hook is context, unchanged",
      );
      assert.doesNotMatch(settings.diff, /\n-(?!-- )/, 'install only adds here');
      const mcp = dry.changes.find((c: { path: string }) => c.path.endsWith('.mcp.json'));
      assert.equal(mcp.action, 'unchanged');
      assert.equal(mcp.diff, undefined);

      const text = ok(
        await cli(world.home, ['install', 'claude-code', '--dry-run', '--dir', world.repo], {
          env: { HOME: world.userHome },
        }),
      ).stdout;
      assert.match(text, /\n {6}\+ +"command": ".*hook claude-code/, 'the text output shows the lines too');
      assert.match(text, /dry run: nothing was written/);

      ok(await run(world, ['install', 'claude-code']));
      const undo = ok(await run(world, ['uninstall', 'claude-code', '--dry-run'])).json();
      const removing = undo.changes.find((c: { path: string }) => c.path === settingsPath);
      assert.match(removing.diff, /\n- +"command": ".*hook claude-code/);
      assert.doesNotMatch(removing.diff, /\n\+(?!\+\+ )/, 'uninstall only removes here');
      const real = ok(await run(world, ['install', 'claude-code'])).json();
      assert.ok(
        real.changes.every((c: { diff?: string }) => c.diff === undefined),
        'control: a real run lists the files, without diffs',
      );
    }));
});
