/**
 * `memledger notify add-webhook | add-slack | list | remove | deliveries`: who is told about held writes (and
 * later run outputs and due commitments), and what was sent. A human admin's verbs; adding and removing are
 * judging verbs on the CLI (a Slack target decides who may judge from Slack), listing is not, like `token list`.
 * Secrets are named by environment variable, never given on the command line.
 */
import type { TargetView } from '../../../notify/admin.ts';
import type { Delivery } from '../../../store/notify-port.ts';
import { MemoryError } from '../../../model/errors.ts';
import { defined, optFlag, optInt, optString, optStrings } from '../args.ts';
import { defineCommand, type Values } from '../command.ts';
import { shortTime, table } from '../render.ts';

const EVENTS_HELP = 'held, run_outputs_waiting, commitment_due (comma-separated)';

export const notifyAddWebhook = defineCommand<TargetView>({
  name: 'notify add-webhook',
  summary: 'send signed JSON to a URL when a write is held (or other events)',
  usage: `memledger notify add-webhook URL --secret-env VAR [--events held,...] [--include-body]
memledger notify add-webhook --url-env VAR --secret-env VAR ...
  Each POST carries X-Memledger-Timestamp and X-Memledger-Signature: v1=HMAC-SHA256(secret, "TIMESTAMP.BODY"),
  hex; the receiver recomputes it (README, Notifications). The secret is read from VAR when sent.
  --secret-env VAR   the environment variable of \`memledger serve\` holding the HMAC secret
  --url-env VAR      read the URL from VAR instead (for a URL that is itself a credential)
  --events LIST      ${EVENTS_HELP}; default held
  --include-body     put the memory's body in the message (default off: the receiver is outside scopes and erasure)`,
  positionals: { min: 0, max: 1 },
  judgement: true,
  options: {
    'secret-env': { type: 'string' },
    'url-env': { type: 'string' },
    events: { type: 'string' },
    'include-body': { type: 'boolean' },
  },
  async run(ctx, [url], values) {
    return ctx.session().notify(
      'add-webhook',
      defined({
        url,
        urlEnv: optString(values, 'url-env'),
        secretEnv: required(values, 'secret-env'),
        events: eventList(values),
        includeBody: optFlag(values, 'include-body'),
      }) as never,
    );
  },
  render: (t) => `added ${t.id}: ${t.kind} ${t.url} for ${t.events.join(', ')}\n`,
});

export const notifyAddSlack = defineCommand<TargetView>({
  name: 'notify add-slack',
  summary: 'post held writes to Slack with Approve / Reject buttons',
  usage: `memledger notify add-slack --url-env VAR --signing-secret-env VAR [--user SLACK_ID=human:NAME ...]
  --url-env VAR             the variable holding the Slack incoming-webhook URL (it is a credential)
  --signing-secret-env VAR  the variable holding the Slack app's signing secret, to verify button presses
                            at POST /v1/slack/interactions (the app's Interactivity Request URL)
  --user U0123=human:alice  who a Slack user judges as (repeatable); they need a live memledger token with
                            the reviewer role; an unmapped user's press is refused
  --events LIST             ${EVENTS_HELP}; default held
  --include-body            put the memory's body in the card (default off)`,
  positionals: { min: 0, max: 1 },
  judgement: true,
  options: {
    'url-env': { type: 'string' },
    'signing-secret-env': { type: 'string' },
    user: { type: 'string', multiple: true },
    events: { type: 'string' },
    'include-body': { type: 'boolean' },
  },
  async run(ctx, [url], values) {
    const users: Record<string, string> = {};
    for (const pair of optStrings(values, 'user') ?? []) {
      const at = pair.indexOf('=');
      if (at <= 0) throw new MemoryError('invalid_input', '--user takes SLACK_ID=human:NAME');
      users[pair.slice(0, at)] = pair.slice(at + 1);
    }
    return ctx.session().notify(
      'add-slack',
      defined({
        url,
        urlEnv: optString(values, 'url-env'),
        signingSecretEnv: required(values, 'signing-secret-env'),
        users,
        events: eventList(values),
        includeBody: optFlag(values, 'include-body'),
      }) as never,
    );
  },
  render: (t) =>
    `added ${t.id}: slack ${t.url} for ${t.events.join(', ')}, ${Object.keys(t.users).length} Slack users mapped\n`,
});

export const notifyList = defineCommand<{ targets: TargetView[] }>({
  name: 'notify list',
  summary: 'list notification targets (URLs without their path, secrets by variable name)',
  usage: 'memledger notify list',
  async run(ctx) {
    return { targets: await ctx.session().notify('list', {}) };
  },
  render: ({ targets }) => {
    if (targets.length === 0)
      return 'no notification targets; add one: memledger notify add-webhook URL --secret-env VAR\n';
    const rows = targets.map((t) => [
      t.id,
      t.kind,
      t.events.join(','),
      t.secretEnv,
      t.includeBody ? 'yes' : 'no',
      Object.entries(t.users)
        .map(([u, p]) => `${u}=${p}`)
        .join(' '),
      t.url,
    ]);
    const head = ['id', 'kind', 'events', 'secret from', 'body', 'slack users', 'url'].map((header) => ({
      header,
    }));
    return `${table(head, rows)}\n`;
  },
});

export const notifyRemove = defineCommand<{ removed: boolean }>({
  name: 'notify remove',
  summary: 'remove a notification target and its pending deliveries (the log stays)',
  usage: 'memledger notify remove ID',
  positionals: { min: 1, max: 1 },
  judgement: true,
  async run(ctx, [id]) {
    return ctx.session().notify('remove', { id: id! });
  },
  render: () => 'removed\n',
});

export const notifyDeliveries = defineCommand<{ deliveries: Delivery[] }>({
  name: 'notify deliveries',
  summary: 'the delivery log: attempts, status codes and error classes, newest first',
  usage: `memledger notify deliveries [--failed] [--limit 50]
  --failed    only deliveries that gave up (after the attempt cap, or a final 4xx answer)`,
  options: { failed: { type: 'boolean' }, limit: { type: 'string' } },
  async run(ctx, _args, values) {
    const input = defined({ failed: optFlag(values, 'failed'), limit: optInt(values, 'limit') });
    return { deliveries: await ctx.session().notify('deliveries', input) };
  },
  render: ({ deliveries }) => {
    if (deliveries.length === 0) return 'no deliveries\n';
    const rows = deliveries.map((d) => [
      d.id,
      d.targetId,
      d.event.type,
      d.event.ref,
      d.status,
      String(d.attempts),
      d.lastStatus === null ? '' : String(d.lastStatus),
      d.lastError ?? '',
      shortTime(d.status === 'pending' ? d.nextAt : (d.deliveredAt ?? d.lastAttemptAt)),
    ]);
    const head = ['id', 'target', 'event', 'about', 'status', 'tries', 'code', 'error', 'when'].map(
      (header) => ({ header }),
    );
    return `${table(head, rows)}\n`;
  },
});

function required(values: Values, name: string): string {
  const v = optString(values, name);
  if (v === undefined) throw new MemoryError('invalid_input', `--${name} is required`);
  return v;
}

function eventList(values: Values): string[] | undefined {
  return optString(values, 'events')
    ?.split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
}
