/**
 * Server-sent events: review pulses as `event: pulse` frames, a comment line as keep-alive when nothing changed,
 * and an `event: end` frame with the error when the watch stops on a failure (a revoked token) once streaming.
 */
import type { ReviewPulse } from '../../ledger/review-watch.ts';
import { errorBody } from './errors.ts';

/** How long a client waits before reconnecting after the stream ends (the watch ends on purpose every few minutes). */
const RETRY_MS = 1000;

/** Each frame is one string without its final blank line: the streamer ends every item with a newline. */
export async function* sseFrames(pulses: AsyncIterable<ReviewPulse>): AsyncGenerator<string> {
  let first = true;
  try {
    for await (const pulse of pulses) {
      const retry = first ? `retry: ${RETRY_MS}\n` : '';
      first = false;
      const { changed: _changed, ...data } = pulse;
      yield pulse.changed
        ? `${retry}event: pulse\ndata: ${JSON.stringify(data)}\n`
        : `${retry}: keep-alive\n`;
    }
  } catch (error) {
    // Before the first frame a failure is the response's status (401, 403); after it, the stream ends cleanly
    // with the reason, and a client that reconnects gets that status then.
    if (first) throw error;
    yield `event: end\ndata: ${JSON.stringify(errorBody(error).body)}\n`;
  }
}
