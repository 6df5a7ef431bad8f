/**
 * What a notification says, rendered when it is sent: the event's ids, scope, kind and who, the memory's state
 * now, and links to the console. The memory's body only when the target opted in (`includeBody`, default off:
 * the receiver sits outside scopes, erasure and the egress filter, see README "Notifications"). Slack messages
 * carry Approve / Reject buttons for a write still held; both call the console's verdict path
 * (slack-interactions.ts).
 */
import { maskSecrets } from '../guard/secrets.ts';
import type { Memory } from '../model/memory.ts';
import type { ClaimedDelivery, NotifyEvent } from '../store/notify-port.ts';

export const APPROVE_ACTION = 'memledger.approve';
export const REJECT_ACTION = 'memledger.reject';
/** Slack refuses a section text over 3,000 characters. */
const SLACK_TEXT_MAX = 2_900;

export interface MessageContext {
  /** The console's base URL, e.g. `https://memledger.example.com`. */
  consoleUrl: string;
  /** The memory the event is about, read at send time (null: none, or the event is about a run). */
  memory: Memory | null;
}

/** The generic webhook's JSON document. */
export function webhookPayload(d: ClaimedDelivery, m: MessageContext): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    id: d.id,
    type: d.event.type,
    at: d.event.at,
    attempt: d.attempts,
    event: d.event,
    state: m.memory?.state ?? null,
    links: links(d.event, m.consoleUrl),
  };
  const body = bodyOf(d, m);
  if (body !== null) payload.body = body;
  return payload;
}

/** Slack's incoming-webhook message: blocks, with buttons while the write is still held. */
export function slackMessage(d: ClaimedDelivery, m: MessageContext): Record<string, unknown> {
  const e = d.event;
  const l = links(e, m.consoleUrl);
  const lines = [`*${title(e)}* · ${code(e.kind ?? 'run')} in ${code(e.scope)}`, whoLine(e)];
  lines.push(`<${l.memory ?? l.review}|Open in the console> · ${code(e.ref)}`);
  const blocks: Record<string, unknown>[] = [section(lines.join('\n'))];
  const body = bodyOf(d, m);
  if (body !== null) {
    blocks.push({ type: 'section', text: { type: 'plain_text', text: body.slice(0, SLACK_TEXT_MAX) } });
  }
  if (e.type === 'held' && m.memory?.state === 'held') {
    blocks.push({
      type: 'actions',
      block_id: `memledger:${e.ref}`,
      elements: [
        button(APPROVE_ACTION, 'Approve', 'primary', e.ref),
        {
          ...button(REJECT_ACTION, 'Reject', 'danger', e.ref),
          confirm: {
            title: plain('Reject this write?'),
            text: plain('The same claim stays rejected in this scope when proposed again.'),
            confirm: plain('Reject'),
            deny: plain('Cancel'),
          },
        },
      ],
    });
  } else if (e.type === 'held' && m.memory !== null) {
    blocks.push(section(`_Already ${m.memory.state}._`));
  }
  // `text` is the notification's fallback (push, screen readers): never the body.
  return { text: `${title(e)}: ${e.kind ?? 'run'} in ${e.scope} by ${e.actor}`, blocks };
}

/** The message that replaces the card once someone judged it from Slack (or could not). */
export function slackOutcome(memoryId: string, outcome: string, by: string): Record<string, unknown> {
  const text = `${outcome} by ${by} · ${memoryId}`;
  return {
    replace_original: true,
    text,
    blocks: [section(`*${escapeSlack(outcome)}* by ${code(by)} · ${code(memoryId)}`)],
  };
}

function title(e: NotifyEvent): string {
  if (e.type === 'held') return 'Held for review';
  if (e.type === 'run_outputs_waiting') return `Outputs of ${e.behavior ?? 'a run'} wait for review`;
  return 'Commitment due';
}

function whoLine(e: NotifyEvent): string {
  if (e.type === 'held')
    return `Proposed by ${code(e.actor)}${e.rule === undefined ? '' : ` (rule ${code(e.rule)})`}`;
  if (e.type === 'run_outputs_waiting') return `${e.ids?.length ?? 0} outputs held · run by ${code(e.actor)}`;
  return `Owner ${code(e.actor)}${e.dueAt === undefined ? '' : ` · due ${code(e.dueAt)}`}`;
}

function links(e: NotifyEvent, base: string): { review: string; memory?: string } {
  const root = base.replace(/\/+$/, '');
  const out: { review: string; memory?: string } = { review: `${root}/review` };
  if (e.type !== 'run_outputs_waiting') out.memory = `${root}/memories/${e.ref}`;
  return out;
}

/** The body, only for a target that opted in, masked like every egress (I10); an erased body is blank. */
function bodyOf(d: ClaimedDelivery, m: MessageContext): string | null {
  if (!d.target.includeBody || m.memory === null || m.memory.state === 'erased') return null;
  return maskSecrets(m.memory.body);
}

const plain = (text: string) => ({ type: 'plain_text', text });
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const button = (action: string, label: string, style: string, value: string) => ({
  type: 'button',
  action_id: action,
  text: plain(label),
  style,
  value,
});
/** Ids, scopes and principal labels in code spans, escaped so no text can become a Slack mention or link. */
const code = (text: string) => `\`${escapeSlack(text).replace(/`/g, "'")}\``;
export const escapeSlack = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
