/** The one transformation every audit sink applies to a failure message before storing it (I8: no content). */
import { maskSecrets } from '../guard/secrets.ts';

/** Error messages are ours, but may quote a fragment of input: drop quoted spans and anything secret-shaped. */
export function scrubMessage(message: string): string {
  return maskSecrets(message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"')).slice(0, 300);
}
