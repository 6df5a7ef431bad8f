/** A column's short profile for the schema prompt: detected types (email, URL, UUID, ISO date), ranges, enums. */

const DETECTORS: { name: string; test: RegExp }[] = [
  { name: 'email', test: /^[^\s@]+@[^\s@]+\.[^\s@]+$/ },
  { name: 'URL', test: /^https?:\/\/\S+$/i },
  { name: 'UUID', test: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i },
  { name: 'ISO date', test: /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/ },
  { name: 'subject ref', test: /^(person|company|user|project|agent|org|team|thing):\S+$/ },
  { name: 'JSON', test: /^\s*[[{].*[\]}]\s*$/s },
];

/** `values` is a sample of the column (nulls included). Returns e.g. `email`, `int 1..40`, `enum(open|done)`. */
export function profileColumn(values: readonly unknown[]): string {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return 'all null';
  const nulls = values.length - present.length;
  const suffix = nulls > 0 ? `, ${Math.round((nulls / values.length) * 100)}% null` : '';
  if (present.every((v) => v instanceof Uint8Array)) return `blob${suffix}`;
  if (present.every((v) => typeof v === 'number' || typeof v === 'bigint')) {
    const nums = present.map(Number);
    const int = nums.every(Number.isInteger);
    return `${int ? 'int' : 'real'} ${Math.min(...nums)}..${Math.max(...nums)}${suffix}`;
  }
  const strings = present.map(String);
  for (const d of DETECTORS) {
    if (strings.every((s) => d.test.test(s))) {
      if (d.name !== 'ISO date') return `${d.name}${suffix}`;
      const sorted = [...strings].sort();
      return `ISO date ${sorted[0]!.slice(0, 10)}..${sorted.at(-1)!.slice(0, 10)}${suffix}`;
    }
  }
  const distinct = new Set(strings);
  if (distinct.size <= 6 && strings.length >= distinct.size * 2 && strings.every((s) => s.length <= 24)) {
    return `enum(${[...distinct].sort().join('|')})${suffix}`;
  }
  const avg = Math.round(strings.reduce((n, s) => n + s.length, 0) / strings.length);
  return `text ~${avg} chars${suffix}`;
}
