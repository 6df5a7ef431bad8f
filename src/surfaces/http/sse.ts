/** Server-sent events: review pulses as `event: pulse` frames, and a comment line as keep-alive when nothing changed. */
import type { ReviewPulse } from '../../ledger/review-watch.ts';

/** How long a client waits before reconnecting after the stream ends (the watch ends on purpose every few minutes). */
const RETRY_MS = 1000;

/** Each frame is one string without its final blank line: the streamer ends every item with a newline. */
export async function* sseFrames(pulses: AsyncIterable<ReviewPulse>): AsyncGenerator<string> {
  let first = true;
  for await (const pulse of pulses) {
    const retry = first ? `retry: ${RETRY_MS}\n` : '';
    first = false;
    const { changed: _changed, ...data } = pulse;
    yield pulse.changed ? `${retry}event: pulse\ndata: ${JSON.stringify(data)}\n` : `${retry}: keep-alive\n`;
  }
}
