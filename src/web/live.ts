// Live review pulses: the /v1/review/events server-sent events, read with fetch because EventSource cannot send a bearer token.
import { authHeaders } from './api.ts';
import type { ReviewPulse } from './types.ts';

export type Pulse = Omit<ReviewPulse, 'changed'>;
export type LiveState = 'connecting' | 'live' | 'retrying' | 'off';

/**
 * Follows the stream until stopped: each `pulse` event goes to `onPulse`. The server ends a stream after a
 * few minutes on purpose; the watch reconnects (which checks the token again), and backs off on failures.
 * A refusal (401, 403) ends the watch: a console without the reviewer role has no queue to count.
 * @returns stop
 */
export function watchPulses(
  token: string,
  onPulse: (pulse: Pulse) => void,
  onState: (state: LiveState) => void = () => {},
): () => void {
  const control = new AbortController();
  let retryMs = 1000;
  let failures = 0;

  const connect = async (): Promise<void> => {
    onState(failures === 0 ? 'connecting' : 'retrying');
    try {
      const res = await fetch('/v1/review/events', {
        headers: { ...authHeaders(token), accept: 'text/event-stream' },
        signal: control.signal,
        credentials: 'omit',
        cache: 'no-store',
      });
      if (res.status === 401 || res.status === 403) {
        onState('off');
        return;
      }
      if (!res.ok || res.body === null) throw new Error(`HTTP ${res.status}`);
      failures = 0;
      onState('live');
      await readEvents(
        res.body,
        (event, data) => {
          if (event === 'pulse') onPulse(JSON.parse(data) as Pulse);
        },
        (ms) => {
          retryMs = ms;
        },
      );
    } catch {
      if (control.signal.aborted) return;
      failures++;
    }
    if (control.signal.aborted) return;
    const wait = failures === 0 ? retryMs : Math.min(10_000, retryMs * 2 ** failures);
    window.setTimeout(() => void connect(), wait);
  };
  void connect();
  return () => {
    control.abort();
    onState('off');
  };
}

/** The event-stream format: frames end with a blank line; `event:`, `data:` and `retry:` fields; `:` comments. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: string, data: string) => void,
  onRetry: (ms: number) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) continue;
        const at = line.indexOf(':');
        const field = at === -1 ? line : line.slice(0, at);
        const text = at === -1 ? '' : line.slice(at + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
        else if (field === 'retry' && /^\d+$/.test(text)) onRetry(Number(text));
      }
      if (data.length > 0) onEvent(event, data.join('\n'));
      end = buffer.indexOf('\n\n');
    }
  }
}
