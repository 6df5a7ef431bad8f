/**
 * Signatures of both directions. Outgoing webhooks: `X-Memledger-Signature: v1=<hex>`, the HMAC-SHA256 with the
 * target's secret of `<X-Memledger-Timestamp>.<raw body>`, the timestamp in Unix seconds. Incoming Slack
 * requests: Slack's signing-secret scheme, `X-Slack-Signature: v0=<hex>` over `v0:<X-Slack-Request-Timestamp>:<raw
 * body>` with the app's signing secret. Both compare in constant time and refuse a timestamp more than five
 * minutes from now, so a captured request cannot be replayed later (Slack's own replay window).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Memledger-Signature';
export const TIMESTAMP_HEADER = 'X-Memledger-Timestamp';
export const DELIVERY_HEADER = 'X-Memledger-Delivery';
export const EVENT_HEADER = 'X-Memledger-Event';
export const SLACK_SIGNATURE_HEADER = 'X-Slack-Signature';
export const SLACK_TIMESTAMP_HEADER = 'X-Slack-Request-Timestamp';

/** Slack's window, and ours: a request signed more than this far from now is stale. */
export const REPLAY_WINDOW_S = 300;

/** `v1=<hex>` for a webhook body sent at `timestamp` (Unix seconds). */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${hmacHex(secret, `${timestamp}.${body}`)}`;
}

/**
 * How a receiver checks a memledger webhook: fresh timestamp, then the signature in constant time.
 * @example verifyWebhook(secret, req.headers['x-memledger-timestamp'], req.headers['x-memledger-signature'], raw, Date.now() / 1000)
 */
export function verifyWebhook(
  secret: string,
  timestamp: string | null | undefined,
  signature: string | null | undefined,
  body: string,
  nowSeconds: number,
): boolean {
  const ts = freshTimestamp(timestamp, nowSeconds);
  if (ts === null || typeof signature !== 'string') return false;
  return sameText(signature, signWebhook(secret, ts, body));
}

/** `v0=<hex>` as Slack signs a request body at `timestamp`. */
export function slackSignature(signingSecret: string, timestamp: string, rawBody: string): string {
  return `v0=${hmacHex(signingSecret, `v0:${timestamp}:${rawBody}`)}`;
}

/** Why a Slack request is refused before its signature is even compared; null when its timestamp is fresh. */
export function slackTimestampProblem(timestamp: string | null, nowSeconds: number): string | null {
  if (timestamp === null) return 'missing';
  return freshTimestamp(timestamp, nowSeconds) === null ? 'stale' : null;
}

/** Whether `signature` is Slack's for this body under `signingSecret`, compared in constant time. */
export function slackSignatureMatches(
  signingSecret: string,
  timestamp: string,
  rawBody: string,
  signature: string,
): boolean {
  return sameText(signature, slackSignature(signingSecret, timestamp, rawBody));
}

function freshTimestamp(timestamp: string | null | undefined, nowSeconds: number): number | null {
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) return null;
  const ts = Number(timestamp);
  return Math.abs(nowSeconds - ts) > REPLAY_WINDOW_S ? null : ts;
}

const hmacHex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

/** Constant time for equal lengths; a length differs only for a malformed signature, which says nothing. */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
