/**
 * The session hook of Claude Code and Codex: one JSON object on stdin, context for the agent on stdout.
 *
 * Hook input relied on (Claude Code hooks reference, code.claude.com/docs/en/hooks, and the Agent SDK's hook
 * types; Codex hooks, developers.openai.com/codex/hooks, which take the same shape):
 * - common: `session_id`, `transcript_path`, `cwd`, `hook_event_name`.
 * - SessionStart: `source` is "startup" | "resume" | "clear" | "compact" (Codex: startup | resume | clear).
 * - UserPromptSubmit: `prompt`. Stop: `stop_hook_active`. SessionEnd: `reason`.
 * Output relied on: for SessionStart and UserPromptSubmit, exit 0 with
 * `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":"…"}}` adds the text to the agent's context
 * (Codex validates this JSON strictly, so the hook prints that form or nothing). Other events print nothing.
 *
 * The hook never fails the agent's session: it always exits 0, and on any failure prints nothing and records the
 * failure in the audit log instead. A resumed session already holds its context, so `resume` is skipped.
 */
import { performance } from 'node:perf_hooks';
import { basename, dirname, join, sep } from 'node:path';
import { projectFor } from '../feeds/project-scope.ts';
import { resolveStoreSpec } from '../store/backend.ts';
import { type Ledger, type LedgerSession, openLedger } from '../ledger/ledger.ts';
import type { CallContext } from '../model/context.ts';
import { MemoryError } from '../model/errors.ts';
import type { Principal } from '../model/principal.ts';
import { can } from '../policy/access.ts';
import { DEFAULT_POLICY_DOCUMENT, parsePolicy } from '../policy/policy-file.ts';

export type HookAgent = 'claude-code' | 'codex';

export interface HookOptions {
  env: NodeJS.ProcessEnv;
  /** Inject context on every prompt too (UserPromptSubmit): opt-in, by `--per-prompt` or MEMLEDGER_HOOK_PER_PROMPT=1. */
  perPrompt: boolean;
  /** The data directory (`--home`); else MEMLEDGER_HOME, else ~/.memledger. */
  home?: string;
  /** The store (`--store`, a path or a URL); with `home`, chosen as the CLI chooses (store/backend.ts). */
  store?: string;
}

/** Token budgets: the session start gets room for rules and the project; a prompt only a few reminders. */
const START_BUDGET = 1500;
const PROMPT_BUDGET = 600;

/**
 * Handles one hook call and returns what to print on stdout ('' for nothing). Never throws: a failure is
 * audited in the home when it can be opened, and the agent sees nothing.
 */
export async function runHook(agent: HookAgent, stdin: string, options: HookOptions): Promise<string> {
  const started = performance.now();
  let ledger: Ledger | undefined;
  let principal: Principal | undefined;
  let call: HookCall = { event: 'unknown' };
  const audited = new WeakSet<object>();
  try {
    call = parseCall(stdin);
    if (!wanted(call, options)) return '';
    ledger = openLedger({ store: resolveStoreSpec(options, options.env) });
    principal = ledger.principal(`agent:${agent}`);
    const session = tracked(ledger.as(principal, contextOf(agent, call)), audited);
    switch (call.event) {
      case 'SessionStart':
      case 'UserPromptSubmit':
        return await inject(session, principal, call, options);
      default:
        await syncTranscript(ledger, agent, call);
        return '';
    }
  } catch (error) {
    if (!(typeof error === 'object' && error !== null && audited.has(error))) {
      await recordFailure(ledger, options, agent, principal, call, error, performance.now() - started);
    }
    return '';
  } finally {
    // Awaited: the process may exit as soon as this returns (bin/memledger.js), and the records must be written.
    await ledger?.close();
  }
}

interface HookCall {
  event: string;
  sessionId?: string;
  transcriptPath?: string;
  cwd?: string;
  source?: string;
  prompt?: string;
}

function parseCall(stdin: string): HookCall {
  let value: unknown;
  try {
    value = JSON.parse(stdin);
  } catch {
    throw new MemoryError('invalid_input', 'the hook input on stdin is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MemoryError('invalid_input', 'the hook input on stdin is not a JSON object');
  }
  const v = value as Record<string, unknown>;
  const s = (x: unknown) => (typeof x === 'string' && x !== '' ? x : undefined);
  const call: HookCall = { event: s(v.hook_event_name) ?? 'unknown' };
  if (s(v.session_id) !== undefined) call.sessionId = s(v.session_id)!.slice(0, 200);
  if (s(v.transcript_path) !== undefined) call.transcriptPath = s(v.transcript_path);
  if (s(v.cwd) !== undefined) call.cwd = s(v.cwd);
  if (s(v.source) !== undefined) call.source = s(v.source);
  if (typeof v.prompt === 'string') call.prompt = v.prompt;
  return call;
}

/** Which calls do anything: a new or cleared session, a prompt when asked for, the end of a session or turn. */
function wanted(call: HookCall, options: HookOptions): boolean {
  switch (call.event) {
    case 'SessionStart':
      // A resumed session already has what it was shown; showing it again only costs tokens.
      return call.source !== 'resume';
    case 'UserPromptSubmit':
      return options.perPrompt || options.env.MEMLEDGER_HOOK_PER_PROMPT === '1';
    case 'Stop':
    case 'SubagentStop':
    case 'SessionEnd':
      return call.transcriptPath !== undefined;
    default:
      return false;
  }
}

async function inject(
  session: LedgerSession,
  principal: Principal,
  call: HookCall,
  options: HookOptions,
): Promise<string> {
  const project = projectFor(call.cwd ?? process.cwd());
  const scopes = [project.scope, 'shared', `agent:${principal.id}`].filter((s) => can(principal, 'read', s));
  if (scopes.length === 0) return '';
  const prompt = call.event === 'UserPromptSubmit';
  // After /clear or a compaction the agent no longer holds what it was shown: show it again, unsuppressed.
  const fresh = call.source === 'clear' || call.source === 'compact';
  const budget = Number(options.env[prompt ? 'MEMLEDGER_HOOK_PROMPT_BUDGET' : 'MEMLEDGER_HOOK_BUDGET']);
  const result = await session.context({
    task: prompt ? (call.prompt ?? '').slice(0, 8_000) : '',
    scopes,
    budget: Number.isInteger(budget) && budget >= 100 ? budget : prompt ? PROMPT_BUDGET : START_BUDGET,
    ...(call.sessionId === undefined || fresh ? {} : { sessionId: call.sessionId }),
  });
  // Nothing worth the tokens: a prompt with no new memory, or a project with none yet.
  if (result.items.length === 0) return '';
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: call.event, additionalContext: result.markdown } })}\n`;
}

/** At the end of a session (or turn), read that transcript (and its subagents') into the review queue. */
async function syncTranscript(ledger: Ledger, agent: HookAgent, call: HookCall): Promise<void> {
  const transcript = call.transcriptPath!;
  const operator = ledger.as(ledger.operator(), {
    surface: 'hook',
    tool: `hook.${call.event}`,
    sessionId: call.sessionId,
  });
  const feeds = (await operator.feedList()).filter((f) => f.connector === agent);
  if (feeds.length === 0) return;
  // Loaded here, not at the top: the connectors and the miner are needed only when there is a transcript to read.
  const { syncFeed } = await import('../feeds/sync.ts');
  // Claude Code keeps a session's subagent transcripts in a folder named after the session, beside it.
  const subagents = join(dirname(transcript), basename(transcript, '.jsonl')) + sep;
  const only = (path: string) => path === transcript || path.startsWith(subagents);
  for (const feed of feeds) {
    const report = await syncFeed(ledger, operator, feed.name, { only });
    if (report.error !== null) {
      throw new MemoryError(report.errorClass ?? 'internal', `feed ${feed.name}: ${report.error}`);
    }
  }
}

function contextOf(agent: HookAgent, call: HookCall): CallContext {
  const ctx: CallContext = { surface: 'hook', tool: `hook.${call.event}`, client: agent };
  const fresh = call.source === 'clear' || call.source === 'compact';
  if (call.sessionId !== undefined && !fresh) ctx.sessionId = call.sessionId;
  return ctx;
}

/** The session, noting errors that left one of its calls: those are audited by the ledger already. */
function tracked(session: LedgerSession, audited: WeakSet<object>): LedgerSession {
  return new Proxy(session, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = value.apply(target, args);
        return result instanceof Promise
          ? result.catch((error: unknown) => {
              if (typeof error === 'object' && error !== null) audited.add(error);
              throw error;
            })
          : result;
      };
    },
  });
}

/**
 * Records a failure as a refusal in the home's audit log (I8). When the home will not open with its own policy
 * (a broken policy.json), it is opened with the default policy just to record why; when it will not open at all
 * there is nowhere to record, and the hook stays silent all the same.
 */
async function recordFailure(
  ledger: Ledger | undefined,
  options: HookOptions,
  agent: HookAgent,
  principal: Principal | undefined,
  call: HookCall,
  error: unknown,
  durationMs: number,
): Promise<void> {
  let target = ledger;
  let opened: Ledger | undefined;
  try {
    if (target === undefined) {
      opened = openLedger({
        store: resolveStoreSpec(options, options.env),
        policy: parsePolicy(DEFAULT_POLICY_DOCUMENT),
      });
      target = opened;
    }
    await target.recordSurfaceCall({
      principal: principal ?? { kind: 'agent', id: agent, roles: [], grants: [] },
      context: { ...contextOf(agent, call), tool: `hook.${call.event}` },
      operation: `hook.${agent}`,
      args: { event: call.event, source: call.source ?? null },
      error,
      durationMs,
    });
  } catch {
    // nowhere to record it: the agent's session matters more than this record
  } finally {
    await opened?.close();
  }
}
