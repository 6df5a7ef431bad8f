/**
 * `POST /v1/slack/interactions`: a Slack button press, judged through the console's verdict path. The request
 * must carry Slack's signature (signing secret of a configured Slack target, timestamp within five minutes,
 * constant-time compare) and be seen for the first time (a replay is refused on every process of the store).
 * The Slack user must be mapped, by that target, to a memledger principal who holds a live token: the session
 * acts with that token's roles and grants, and `approve` / `reject` refuse anyone but a human reviewer (I7).
 * Every request is audited (I8): refusals before a session here, verdicts by the ledger as that person.
 */
import { performance } from 'node:perf_hooks';
import type { TokenStore } from '../auth/token-store.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { CallContext } from '../model/context.ts';
import { asMemoryError, MemoryError } from '../model/errors.ts';
import { MEMORY_ID_PATTERN } from '../model/ids.ts';
import { parseGrant, type Principal } from '../model/principal.ts';
import type { NotifyTarget } from '../store/notify-port.ts';
import { errorBody } from '../surfaces/http/errors.ts';
import { APPROVE_ACTION, REJECT_ACTION, slackOutcome } from './message.ts';
import {
  REPLAY_WINDOW_S,
  SLACK_SIGNATURE_HEADER,
  SLACK_TIMESTAMP_HEADER,
  slackSignatureMatches,
  slackTimestampProblem,
} from './sign.ts';

export const SLACK_INTERACTIONS_PATH = '/v1/slack/interactions';
const TOOL = `POST ${SLACK_INTERACTIONS_PATH}`;

export interface SlackInteractionOptions {
  ledger: Ledger;
  tokens: TokenStore;
  env?: NodeJS.ProcessEnv;
  /** Milliseconds since the epoch. Default Date.now. */
  clock?: () => number;
  fetch?: typeof fetch;
  /** Which `response_url`s the outcome is posted to. Default: Slack's own (https://hooks.slack.com/). */
  responseUrlAllowed?: (url: string) => boolean;
}

interface Action {
  user: string;
  verb: 'approve' | 'reject';
  memoryId: string;
  responseUrl: string | null;
}

/** Answers one interactive request: 200 once judged (the card is then replaced with the outcome), else an error. */
export async function handleSlackInteraction(req: Request, o: SlackInteractionOptions): Promise<Response> {
  const started = performance.now();
  const clock = o.clock ?? Date.now;
  const raw = await req.text();
  let action: Action | undefined;
  let target: NotifyTarget | undefined;
  const refuse = async (error: MemoryError) => {
    await o.ledger.recordSurfaceCall({
      context: context(),
      operation: 'slack.interaction',
      args: action === undefined ? {} : { user: action.user, verb: action.verb, id: action.memoryId },
      error,
      durationMs: performance.now() - started,
    });
    const { status, body } = errorBody(error);
    return json(body, status);
  };
  try {
    target = await verifiedTarget(o, req.headers, raw, clock());
    action = parseAction(raw);
    const signature = req.headers.get(SLACK_SIGNATURE_HEADER) ?? '';
    const now = clock();
    const first = await o.ledger.store.notify.firstSighting(
      signature,
      new Date(now).toISOString(),
      new Date(now - 2 * REPLAY_WINDOW_S * 1000).toISOString(),
    );
    if (!first)
      throw slackRefusal('this Slack request was seen before (a replay); nothing was judged', 'replayed');
  } catch (error) {
    return refuse(asMemoryError(error));
  }
  const ref = target.users[action.user];
  if (ref === undefined) {
    return refuse(slackRefusal(`Slack user ${action.user} is not mapped to a memledger person`, 'unmapped'));
  }
  let principal: { principal: Principal; tokenId: string };
  try {
    principal = await liveToken(o.tokens, ref);
  } catch (error) {
    return refuse(asMemoryError(error));
  }
  // From here the ledger audits the call, as the mapped person, through the same verbs as the console.
  const session = o.ledger.as(principal.principal, { ...context(), tokenId: principal.tokenId });
  let outcome: string;
  try {
    await (action.verb === 'approve'
      ? session.approve({ id: action.memoryId })
      : session.reject({ id: action.memoryId, reason: `rejected from Slack by ${ref}` }));
    outcome = action.verb === 'approve' ? 'Approved' : 'Rejected';
  } catch (error) {
    const e = asMemoryError(error);
    await postOutcome(o, action, slackOutcome(action.memoryId, `Not judged (${e.class})`, ref));
    const { status, body } = errorBody(e);
    return json(body, status);
  }
  await postOutcome(o, action, slackOutcome(action.memoryId, outcome, ref));
  return new Response(null, { status: 200 });
}

/** The Slack target whose signing secret signed this request; refused when none did or the timestamp is stale. */
async function verifiedTarget(
  o: SlackInteractionOptions,
  headers: Headers,
  raw: string,
  now: number,
): Promise<NotifyTarget> {
  const timestamp = headers.get(SLACK_TIMESTAMP_HEADER);
  const signature = headers.get(SLACK_SIGNATURE_HEADER);
  const problem = slackTimestampProblem(timestamp, now / 1000);
  if (problem !== null || signature === null) {
    throw slackRefusal(
      `the Slack request timestamp is ${problem ?? 'fine but the signature is missing'}`,
      'signature',
    );
  }
  const env = o.env ?? process.env;
  for (const t of await o.ledger.store.notify.listTargets()) {
    if (t.kind !== 'slack') continue;
    const secret = env[t.secretEnv];
    if (secret === undefined || secret === '') continue;
    if (slackSignatureMatches(secret, timestamp!, raw, signature)) return t;
  }
  throw slackRefusal('the Slack request signature does not match a configured signing secret', 'signature');
}

/** Slack posts `payload=<JSON>` form-encoded; only our two buttons on a memory id are understood. */
function parseAction(raw: string): Action {
  const payload = new URLSearchParams(raw).get('payload');
  let p: {
    type?: unknown;
    user?: { id?: unknown };
    actions?: { action_id?: unknown; value?: unknown }[];
    response_url?: unknown;
  };
  try {
    p = JSON.parse(payload ?? '') as typeof p;
  } catch {
    throw new MemoryError('invalid_input', 'a Slack interaction carries a JSON payload field');
  }
  const a = Array.isArray(p?.actions) ? p.actions[0] : undefined;
  const user = p?.user?.id;
  const verb = a?.action_id === APPROVE_ACTION ? 'approve' : a?.action_id === REJECT_ACTION ? 'reject' : null;
  if (
    p?.type !== 'block_actions' ||
    verb === null ||
    typeof user !== 'string' ||
    !/^[UW][A-Z0-9]{2,20}$/.test(user)
  ) {
    throw new MemoryError('invalid_input', 'not a memledger Approve or Reject button press');
  }
  if (typeof a?.value !== 'string' || !MEMORY_ID_PATTERN.test(a.value)) {
    throw new MemoryError('invalid_input', 'the button names no memory id');
  }
  const responseUrl = typeof p.response_url === 'string' ? p.response_url : null;
  return { user, verb, memoryId: a.value, responseUrl };
}

/** The principal of the newest live token of `ref`: a person judges from Slack with the powers their token has. */
async function liveToken(
  tokens: TokenStore,
  ref: string,
): Promise<{ principal: Principal; tokenId: string }> {
  const t = (await tokens.list()).find((x) => x.principal === ref && x.revokedAt === null);
  if (t === undefined) throw slackRefusal(`${ref} holds no live memledger token`, 'no_token');
  return {
    tokenId: t.id,
    principal: { kind: t.kind, id: t.name, roles: t.roles, grants: t.grants.map(parseGrant) },
  };
}

/** Replaces the card with the outcome, on Slack's response URL only; a failure here changes no verdict. */
async function postOutcome(o: SlackInteractionOptions, a: Action, message: object): Promise<void> {
  const allowed = o.responseUrlAllowed ?? ((u: string) => u.startsWith('https://hooks.slack.com/'));
  if (a.responseUrl === null || !allowed(a.responseUrl)) return;
  try {
    const res = await (o.fetch ?? fetch)(a.responseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      redirect: 'manual',
      signal: AbortSignal.timeout(2_000),
    });
    await res.body?.cancel();
  } catch {
    // the verdict stands and is audited; the card keeps its buttons, and pressing again says it was decided
  }
}

const context = (): CallContext => ({ surface: 'http', tool: TOOL, client: 'slack' });

function slackRefusal(message: string, reason: string): MemoryError {
  return new MemoryError('permission', message, {
    details: reason === 'signature' ? { authentication: 'unknown', slack: reason } : { slack: reason },
  });
}

const json = (body: unknown, code: number) =>
  new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json' } });
