/**
 * Notification configuration as ledger calls: add a signed JSON webhook or a Slack incoming webhook, list,
 * remove, and read the delivery log. A target decides who may judge from Slack (its user map), so every call
 * needs a human admin (I7), and is audited (I8) with the arguments `notifyAuditArgs` leaves: no secret, no URL
 * path. Secrets are never stored: a target names the environment variables they are read from when used (I10).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { containsSecret } from '../guard/secrets.ts';
import { MemoryError } from '../model/errors.ts';
import { parsePrincipalRef } from '../model/principal.ts';
import { assertHumanWithRole } from '../policy/access.ts';
import type { Deps } from '../ledger/deps.ts';
import { parseInput } from '../ledger/parse.ts';
import {
  type Delivery,
  NOTIFY_EVENT_TYPES,
  type NotifyTarget,
  type TargetKind,
} from '../store/notify-port.ts';
import { ENV_NAME, isLoopbackUrl, shownUrl, URL_ENV_PREFIX } from './target-url.ts';

const envName = z.string().regex(ENV_NAME, 'an environment variable name is A-Z, 0-9 and _ (at most 64)');
const events = z.array(z.enum(NOTIFY_EVENT_TYPES)).min(1).max(NOTIFY_EVENT_TYPES.length);
const where = {
  /** A literal URL; a URL that is itself a credential goes in an environment variable (`urlEnv`). */
  url: z.string().max(2_000).optional(),
  urlEnv: envName.optional(),
};

export const webhookAddSchema = z
  .object({
    ...where,
    secretEnv: envName,
    events: events.default(['held']),
    includeBody: z.boolean().default(false),
  })
  .strict();
export type WebhookAddInput = z.input<typeof webhookAddSchema>;

export const SLACK_USER_PATTERN = /^[UW][A-Z0-9]{2,20}$/;
export const slackAddSchema = z
  .object({
    ...where,
    signingSecretEnv: envName,
    users: z
      .record(
        z.string().regex(SLACK_USER_PATTERN, 'a Slack user id looks like U0123ABCD'),
        z.string().max(140),
      )
      .default({}),
    events: events.default(['held']),
    includeBody: z.boolean().default(false),
  })
  .strict();
export type SlackAddInput = z.input<typeof slackAddSchema>;

export const deliveriesSchema = z
  .object({ failed: z.boolean().default(false), limit: z.number().int().min(1).max(1_000).default(50) })
  .strict();
export type DeliveriesInput = z.input<typeof deliveriesSchema>;

/** A target as listings show it: the URL without its path, so a Slack webhook URL never leaves the store. */
export type TargetView = Omit<NotifyTarget, 'url'> & { url: string };

export async function webhookAdd(deps: Deps, input: WebhookAddInput): Promise<TargetView> {
  assertHumanWithRole(deps.principal, 'admin', 'add a notification target');
  const w = parseInput(webhookAddSchema, input, 'webhook');
  return addTarget(deps, 'webhook', targetUrl(w), w.secretEnv, w.events, {}, w.includeBody);
}

export async function slackAdd(deps: Deps, input: SlackAddInput): Promise<TargetView> {
  assertHumanWithRole(deps.principal, 'admin', 'add a notification target');
  const s = parseInput(slackAddSchema, input, 'slack target');
  const users: Record<string, string> = {};
  for (const [slackUser, ref] of Object.entries(s.users)) {
    const { kind, id } = parsePrincipalRef(ref);
    // I7: only a person judges. The interactive endpoint refuses any other mapping too; this says so early.
    if (kind !== 'human') {
      throw new MemoryError(
        'invalid_input',
        `Slack user ${slackUser} must map to a human principal (human:NAME), not ${kind}:${id}: only humans judge`,
      );
    }
    users[slackUser] = `${kind}:${id}`;
  }
  return addTarget(deps, 'slack', targetUrl(s), s.signingSecretEnv, s.events, users, s.includeBody);
}

export async function targetList(deps: Deps): Promise<TargetView[]> {
  assertHumanWithRole(deps.principal, 'admin', 'list notification targets');
  return (await deps.store.notify.listTargets()).map(view);
}

export async function targetRemove(deps: Deps, id: string): Promise<{ removed: boolean }> {
  assertHumanWithRole(deps.principal, 'admin', 'remove a notification target');
  if (!/^(wh|sl)_[0-9a-f]{12}$/.test(id))
    throw new MemoryError('invalid_input', 'a target id looks like wh_… or sl_…');
  const removed = await deps.store.notify.removeTarget(id);
  if (!removed) throw new MemoryError('not_found', `no notification target ${id}`);
  return { removed };
}

export async function deliveryLog(deps: Deps, input: DeliveriesInput = {}): Promise<Delivery[]> {
  assertHumanWithRole(deps.principal, 'admin', 'read the delivery log');
  const f = parseInput(deliveriesSchema, input, 'deliveries');
  return deps.store.notify.deliveries({ status: f.failed ? 'failed' : undefined, limit: f.limit });
}

async function addTarget(
  deps: Deps,
  kind: TargetKind,
  url: string,
  secretEnv: string,
  types: NotifyTarget['events'],
  users: Record<string, string>,
  includeBody: boolean,
): Promise<TargetView> {
  const target: NotifyTarget = {
    id: `${kind === 'slack' ? 'sl' : 'wh'}_${randomBytes(6).toString('hex')}`,
    kind,
    url,
    events: [...new Set(types)],
    secretEnv,
    users,
    includeBody,
    createdAt: deps.now(),
    createdBy: `${deps.principal.kind}:${deps.principal.id}`,
  };
  await deps.store.notify.addTarget(target);
  return view(target);
}

/** The URL to store: `env:NAME`, or a literal https URL (http only to this machine) that is no credential (I10). */
function targetUrl(w: { url?: string; urlEnv?: string }): string {
  if ((w.url === undefined) === (w.urlEnv === undefined)) {
    throw new MemoryError('invalid_input', 'give the target a URL or --url-env NAME, one of the two');
  }
  if (w.urlEnv !== undefined) return `${URL_ENV_PREFIX}${w.urlEnv}`;
  let parsed: URL;
  try {
    parsed = new URL(w.url!);
  } catch {
    throw new MemoryError('invalid_input', 'the target URL is not a URL');
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackUrl(parsed))) {
    throw new MemoryError('invalid_input', 'a target URL is https (plain http only to this machine)');
  }
  if (parsed.username !== '' || parsed.password !== '' || containsSecret(w.url!)) {
    throw new MemoryError(
      'invalid_input',
      'this URL carries a credential (a Slack webhook URL is one): put it in an environment variable and pass --url-env NAME',
    );
  }
  return parsed.href;
}

const view = (t: NotifyTarget): TargetView => ({ ...t, url: shownUrl(t.url) });

/** Every notify call by its operation name (`notify.<op>` in the audit): its input and its result. */
export interface NotifyOps {
  'add-webhook': [WebhookAddInput, TargetView];
  'add-slack': [SlackAddInput, TargetView];
  list: [Record<string, never>, TargetView[]];
  remove: [{ id: string }, { removed: boolean }];
  deliveries: [DeliveriesInput, Delivery[]];
}
export type NotifyOp = keyof NotifyOps;

export function runNotifyOp<O extends NotifyOp>(
  deps: Deps,
  op: O,
  input: NotifyOps[O][0],
): Promise<NotifyOps[O][1]> {
  const i = input as never;
  const run: { [K in NotifyOp]: () => Promise<NotifyOps[K][1]> } = {
    'add-webhook': () => webhookAdd(deps, i),
    'add-slack': () => slackAdd(deps, i),
    list: () => targetList(deps),
    remove: () => targetRemove(deps, (input as { id: string }).id),
    deliveries: () => deliveryLog(deps, i),
  };
  return run[op]() as Promise<NotifyOps[O][1]>;
}
