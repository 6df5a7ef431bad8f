/**
 * Every CLI command, in the order `memledger help` lists them: its words and summary here, its module loaded
 * only when it runs (main.ts checks the loaded command's name against its entry). An agent's hook starts a
 * process per session event, and loading every command, with the token store, TOML and the install
 * code behind them, added some 40 modules to each.
 */
import type { Command } from '../command.ts';

/** The admin's workspace verbs, listed without loading their module. */
const WORKSPACE_SUMMARIES = {
  list: 'list agent workspaces: version, tables, sizes, last write (admin)',
  show: "show an agent workspace's tables, row counts and sizes, never its rows (admin)",
  export: 'download an agent workspace as a SQLite file (admin; audited)',
  reset: 'empty an agent workspace: its snapshot, quarantined copy and local copies go (admin)',
};

export interface CommandEntry {
  /** The words that select it, as the module's `name`. */
  name: string;
  summary: string;
  load(): Promise<Command>;
}

const command = (name: string, summary: string, load: () => Promise<Command>): CommandEntry => ({
  name,
  summary,
  load,
});

export const COMMANDS: readonly CommandEntry[] = [
  command(
    'init',
    'create the data directory (memory.db, audit.db, policy.json); safe to run again',
    async () => (await import('./init.ts')).init,
  ),
  command(
    'migrate',
    "apply the store's forward-only migrations and print what ran; safe to run again",
    async () => (await import('./migrate.ts')).migrate,
  ),
  command(
    'remember',
    'write a memory (a new key value supersedes the current one)',
    async () => (await import('./remember.ts')).remember,
  ),
  command(
    'search',
    'find current memories by words, best first',
    async () => (await import('./search.ts')).search,
  ),
  command(
    'embed',
    'give queued memories their vectors for semantic search (--backfill: every memory without one)',
    async () => (await import('./embed.ts')).embed,
  ),
  command(
    'get',
    'show one memory: its content, provenance and both clocks',
    async () => (await import('./read.ts')).get,
  ),
  command(
    'history',
    'show every version of a memory and every event on them, oldest first',
    async () => (await import('./read.ts')).history,
  ),
  command(
    'list',
    'list memories newest first (current ones unless --state says otherwise)',
    async () => (await import('./read.ts')).list,
  ),
  command(
    'retract',
    'stop returning a memory, keeping it in history (needs --reason)',
    async () => (await import('./verdicts.ts')).retract,
  ),
  command(
    'confirm',
    'vouch for a current memory: it ranks first and agents cannot overwrite it unreviewed',
    async () => (await import('./verdicts.ts')).confirm,
  ),
  command(
    'doubt',
    'lower a memory to unverified: it ranks lower and stays visible (needs --reason)',
    async () => (await import('./trust.ts')).doubtCommand,
  ),
  command(
    'workspace sql',
    "run SQL in the caller agent's workspace, as one transaction",
    async () => (await import('./workspace.ts')).workspaceSql,
  ),
  command(
    'workspace schema',
    "print the agent workspace's schema prompt (mounts, tables, samples, profiles)",
    async () => (await import('./workspace.ts')).workspaceSchema,
  ),
  command(
    'trust restore',
    "put a doubted memory's trust back to what it was (a person's verdict; needs --reason)",
    async () => (await import('./trust.ts')).trustRestoreCommand,
  ),
  command(
    'review list',
    'show writes held for review',
    async () => (await import('./verdicts.ts')).reviewList,
  ),
  command(
    'review approve',
    'land a held write, as proposed or edited',
    async () => (await import('./verdicts.ts')).reviewApprove,
  ),
  command(
    'review reject',
    'reject a held write (or, with --active, a current memory) for good (needs --reason)',
    async () => (await import('./verdicts.ts')).reviewReject,
  ),
  command(
    'review unreject',
    'lift the rejection of a claim on purpose, so it may land again (needs --reason)',
    async () => (await import('./verdicts.ts')).reviewUnreject,
  ),
  command(
    'context',
    'the context block for a task: corrections, confirmed rules, open commitments, relevant memories',
    async () => (await import('./context.ts')).contextCommand,
  ),
  command(
    'commitments add',
    'record something to do later: an owner, a due time, triggers (held for review like any write)',
    async () => (await import('./commitments.ts')).commitmentsAdd,
  ),
  command(
    'commitments list',
    'list commitments, soonest due first (open and doing unless --status says otherwise)',
    async () => (await import('./commitments.ts')).commitmentsList,
  ),
  command(
    'commitments show',
    'show one commitment and every move of its lifecycle, with who and when',
    async () => (await import('./commitments.ts')).commitmentsShow,
  ),
  command(
    'commitments update',
    'move a commitment: open, doing, done or cancelled (agents move only their own)',
    async () => (await import('./commitments.ts')).commitmentsUpdate,
  ),
  command(
    'summaries create',
    "define a summary chain over a scope's memories (or one session or subject in it)",
    async () => (await import('./summaries.ts')).summariesCreate,
  ),
  command(
    'summaries next',
    "what is new in a chain since its last summary's cutoff (bounded), to summarise next",
    async () => (await import('./summaries.ts')).summariesNext,
  ),
  command(
    'summaries add',
    "store a chain's next summary, covering up to --until (held for review like any write)",
    async () => (await import('./summaries.ts')).summariesAdd,
  ),
  command(
    'summaries list',
    "list a chain's summaries",
    async () => (await import('./summaries.ts')).summariesList,
  ),
  command(
    'summaries show',
    "a chain's links (cutoff, coverage, stale or not) and its newest summary",
    async () => (await import('./summaries.ts')).summariesShow,
  ),
  command(
    'claim',
    'own a key: agent writes to it then wait for review (or are denied, per the policy)',
    async () => (await import('./claims.ts')).claimCommand,
  ),
  command(
    'release',
    "release a key's claim: agent writes to it are then decided by the policy's rules alone",
    async () => (await import('./claims.ts')).releaseCommand,
  ),
  command(
    'corrections',
    "reviewers' latest edit or rejection per key of an agent's writes",
    async () => (await import('./claims.ts')).correctionsCommand,
  ),
  command(
    'policy show',
    'show the effective write policy and the file it comes from',
    async () => (await import('./policy.ts')).policyShow,
  ),
  command(
    'policy check',
    'explain what the gate would do with a write: which grant, claim and rule decide, and why',
    async () => (await import('./policy.ts')).policyCheck,
  ),
  command(
    'erase',
    'erase everything about a subject, or what a principal, session or source wrote (needs --yes)',
    async () => (await import('./erase.ts')).erase,
  ),
  command(
    'audit',
    'show recent calls, allowed and refused, or failure counts (--failures)',
    async () => (await import('./audit.ts')).audit,
  ),
  command(
    'export',
    'write every memory you may read, with its events, as JSONL',
    async () => (await import('./transfer.ts')).exportCommand,
  ),
  command(
    'import',
    'import a JSONL export (a file, or - for stdin); importing twice changes nothing',
    async () => (await import('./transfer.ts')).importCommand,
  ),
  command(
    'reindex',
    'rebuild the search index from the log',
    async () => (await import('./admin.ts')).reindex,
  ),
  command(
    'stats',
    'count memories by state, scopes, events, rejections, erasures; file sizes',
    async () => (await import('./admin.ts')).stats,
  ),
  command(
    'token create',
    'create an API token (the secret is shown once)',
    async () => (await import('./token.ts')).tokenCreate,
  ),
  command(
    'token list',
    'list API tokens (never their secrets)',
    async () => (await import('./token.ts')).tokenList,
  ),
  command(
    'token revoke',
    'revoke an API token at once',
    async () => (await import('./token.ts')).tokenRevoke,
  ),
  ...(['list', 'show', 'export', 'reset'] as const).map((verb) =>
    command(
      `workspace ${verb}`,
      WORKSPACE_SUMMARIES[verb],
      async () => (await import('./workspace-admin.ts')).WORKSPACE_VERBS[verb]!,
    ),
  ),
  command(
    'feeds add',
    'add a feed: Claude Code transcripts, Codex rollouts or a folder of Markdown notes',
    async () => (await import('./feeds.ts')).feedsAdd,
  ),
  command(
    'feeds list',
    'list feeds: what each reads, when it last synced, what it wrote',
    async () => (await import('./feeds.ts')).feedsList,
  ),
  command(
    'feeds sync',
    'read new transcript lines and notes into the review queue (safe to run again)',
    async () => (await import('./feeds.ts')).feedsSync,
  ),
  command(
    'feeds remove',
    'remove a feed (its memories stay; re-adding it mines nothing twice)',
    async () => (await import('./feeds.ts')).feedsRemove,
  ),
  command(
    'notify add-webhook',
    'send signed JSON to a URL when a write is held (or other events)',
    async () => (await import('./notify.ts')).notifyAddWebhook,
  ),
  command(
    'notify add-slack',
    'post held writes to Slack with Approve / Reject buttons',
    async () => (await import('./notify.ts')).notifyAddSlack,
  ),
  command(
    'notify list',
    'list notification targets (URLs without their path, secrets by variable name)',
    async () => (await import('./notify.ts')).notifyList,
  ),
  command(
    'notify remove',
    'remove a notification target and its pending deliveries (the log stays)',
    async () => (await import('./notify.ts')).notifyRemove,
  ),
  command(
    'notify deliveries',
    'the delivery log: attempts, status codes and error classes, newest first',
    async () => (await import('./notify.ts')).notifyDeliveries,
  ),
  command(
    'install',
    'wire memledger into Claude Code or Codex: session hooks, MCP server, instructions',
    async () => (await import('./install.ts')).installCommand,
  ),
  command(
    'uninstall',
    'take memledger out of Claude Code or Codex: exactly what install added',
    async () => (await import('./install.ts')).uninstallCommand,
  ),
  command(
    'hook',
    'run as an agent hook: context at session start, transcript sync at session end',
    async () => (await import('./hook.ts')).hookCommand,
  ),
  command(
    'behaviors add',
    'define a behavior from a TOML or JSON file (a new version when it changed; admins only)',
    async () => (await import('./behaviors.ts')).behaviorsAdd,
  ),
  command(
    'behaviors list',
    'list behaviors: version, triggers, enabled or disabled',
    async () => (await import('./behaviors.ts')).behaviorsList,
  ),
  command(
    'behaviors show',
    "show a behavior's current definition",
    async () => (await import('./behaviors.ts')).behaviorsShow,
  ),
  command(
    'behaviors disable',
    'disable a behavior (admins only)',
    async () => (await import('./behaviors.ts')).behaviorsDisable,
  ),
  command(
    'behaviors next',
    "claim a behavior's outstanding window under a lease (JSON)",
    async () => (await import('./behaviors.ts')).behaviorsNext,
  ),
  command(
    'behaviors complete',
    "write a run's outputs through the gate and link what it was shown, in one step",
    async () => (await import('./behaviors.ts')).behaviorsComplete,
  ),
  command(
    'behaviors fail',
    'end a run as failed: it links nothing',
    async () => (await import('./behaviors.ts')).behaviorsFail,
  ),
  command(
    'behaviors run',
    "run an operator's command on each outstanding window (--exec)",
    async () => (await import('./behaviors.ts')).behaviorsRun,
  ),
  command(
    'behaviors runs',
    "a behavior's runs: consumed events, outputs, verdicts, corrections",
    async () => (await import('./behaviors.ts')).behaviorsRuns,
  ),
  command(
    'scheduler',
    'fire schedule and commitment triggers into pending windows, once per window',
    async () => (await import('./behaviors.ts')).scheduler,
  ),
  command(
    'serve',
    'serve the HTTP API and MCP over HTTP (bearer tokens)',
    async () => (await import('./serve.ts')).serveCommand,
  ),
  command(
    'mcp',
    'serve the agent tools over MCP on stdio (for Claude Code, Codex, Cursor)',
    async () => (await import('./mcp.ts')).mcpCommand,
  ),
  command(
    'demo',
    'a two-second tour in a fresh temporary home: supersede, review, rejection, search, erasure',
    async () => (await import('./demo.ts')).demo,
  ),
];
