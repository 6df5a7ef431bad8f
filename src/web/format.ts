// Words and times as the console shows them.

/** `2025-03-01 14:02` in the reader's local time, with the full ISO time as a tooltip. */
export function shortTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `3 min ago`, for recency at a glance. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (iso === null || iso === undefined) return '';
  const s = Math.round((now - Date.parse(iso)) / 1000);
  if (Number.isNaN(s)) return '';
  if (s < 45) return 'just now';
  if (s < 90 * 60) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

/** A JSON value as a reviewer reads it: pretty-printed, or nothing for null. */
export function jsonText(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** A client label (`name/version` or a browser's long User-Agent) short enough for a table cell. */
export function clientLabel(client: string | null | undefined): string {
  if (client === null || client === undefined) return '';
  const browser = /(HeadlessChrome|Chrome|Firefox|Safari|Edg)\/[\d.]+/.exec(client);
  return client.startsWith('Mozilla/') && browser !== null ? `browser (${browser[0]})` : truncate(client, 48);
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
