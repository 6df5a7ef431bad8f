/**
 * Time in the query: finds one expression such as "yesterday", "last month", "in April 2022", "on Tuesday",
 * "three weeks ago" or "before March 2025" in a search text and resolves it against the query's reference time
 * into a half-open UTC interval [from, to). Search uses it as a preference, not a filter, and shows it in `why`.
 * Calendar units are UTC and weeks start on Monday (ISO 8601). An event named by another memory ("before the
 * move") needs a search of its own: search-event.ts.
 */

export interface QueryTime {
  /** The words of the query that named the time, as written. */
  expression: string;
  /** Inclusive start (ISO time); `0000-01-01T00:00:00.000Z` for an open start ("before April"). */
  from: string;
  /** Exclusive end (ISO time); `9999-12-31T23:59:59.999Z` for an open end ("after April"). */
  to: string;
  /** For an event ("before the move"): the memory whose time opens the interval (search-event.ts). */
  anchor?: string;
}

export interface ResolvedQuery {
  /** The query without the time expression, or the query itself when nothing else would be left to search. */
  text: string;
  time: QueryTime | null;
}

export const OPEN_START = '0000-01-01T00:00:00.000Z';
export const OPEN_END = '9999-12-31T23:59:59.999Z';

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
type Unit = 'day' | 'week' | 'month' | 'year';

const MONTH = `(${MONTHS.join('|')}|${MONTHS.map((m) => m.slice(0, 3)).join('|')})`;
const WEEKDAY = `(${WEEKDAYS.join('|')})`;
const COUNT = `(\\d{1,3}|${Object.keys(NUMBERS).join('|')})`;
const UNIT = '(day|week|month|year)s?';
const YEAR = '((?:19|20)\\d{2})';

/** A calendar point the patterns resolve to; `before`/`after` open it on one side. */
type Span = [from: Date, to: Date];

interface Pattern {
  re: RegExp;
  span: (m: RegExpExecArray, ref: Date) => Span | null;
  /**
   * A calendar name ("November", "April 2022", "2025-02-11") stays in the searched text: memories write it
   * ("launches a new title in November"). Relative words ("last", "month", "ago") are dropped: no memory says
   * "last month" about the month the caller means, and they would only match noise.
   */
  named?: true;
}

/** Most specific first: "the day before yesterday" before "yesterday", "April 2022" before "April". */
const PATTERNS: Pattern[] = [
  { re: /\bthe day before yesterday\b/, span: (_, r) => unit(r, 'day', -2) },
  { re: /\byesterday\b/, span: (_, r) => unit(r, 'day', -1) },
  { re: /\b(?:today|this morning|this afternoon|tonight)\b/, span: (_, r) => unit(r, 'day', 0) },
  {
    re: new RegExp(`\\b(?:in|during|over) the (?:last|past) ${COUNT} ${UNIT}\\b`),
    span: (m, r) => rolling(r, unitOf(m[2]!), count(m[1]!)),
  },
  {
    re: /\b(?:in|during|over) the (?:last|past) (day|week|month|year)\b/,
    span: (m, r) => rolling(r, unitOf(m[1]!), 1),
  },
  { re: new RegExp(`\\b${COUNT} ${UNIT} ago\\b`), span: (m, r) => unit(r, unitOf(m[2]!), -count(m[1]!)) },
  { re: /\b(?:last|previous) (week|month|year)\b/, span: (m, r) => unit(r, unitOf(m[1]!), -1) },
  { re: /\bthis (week|month|year)\b/, span: (m, r) => unit(r, unitOf(m[1]!), 0) },
  {
    re: new RegExp(`\\b(?:(?:in|during|on|since) )?${MONTH} (\\d{1,2})(?:st|nd|rd|th)?,? ${YEAR}\\b`),
    span: (m) => day(Number(m[3]), monthOf(m[1]!), Number(m[2])),
    named: true,
  },
  {
    re: new RegExp(`\\b(?:(?:in|during|of) )?${MONTH},? ${YEAR}\\b`),
    span: (m) => month(Number(m[2]), monthOf(m[1]!)),
    named: true,
  },
  {
    re: /\b(?:on )?(\d{4})-(\d{2})-(\d{2})\b/,
    span: (m) => day(Number(m[1]), Number(m[2]) - 1, Number(m[3])),
    named: true,
  },
  {
    // Not a month followed by a number the year pattern did not take ("in April 99999"): not this April.
    re: new RegExp(`\\b(?:in|during) ${MONTH}\\b(?![,\\s]*\\d)`),
    span: (m, r) => latestMonth(r, monthOf(m[1]!)),
    named: true,
  },
  { re: new RegExp(`\\b(?:in|during) ${YEAR}\\b`), span: (m) => year(Number(m[1])), named: true },
  { re: new RegExp(`\\b(?:on|last) ${WEEKDAY}\\b`), span: (m, r) => lastWeekday(r, WEEKDAYS.indexOf(m[1]!)) },
];

/**
 * @example resolveQueryTime('what broke last month', '2025-09-30T17:00:00Z')
 * // { text: 'what broke', time: { expression: 'last month', from: '2025-08-01T00:00:00.000Z', to: '2025-09-01T00:00:00.000Z' } }
 */
export function resolveQueryTime(query: string, reference: string): ResolvedQuery {
  const ref = new Date(reference);
  if (Number.isNaN(ref.getTime())) return { text: query, time: null };
  const lower = query.toLowerCase();
  for (const p of PATTERNS) {
    const m = p.re.exec(lower);
    if (m === null) continue;
    const span = p.span(m, ref);
    if (span === null || Number.isNaN(span[0].getTime()) || Number.isNaN(span[1].getTime())) continue;
    // "before April 2022" / "after the 3rd of May": the expression opens the interval on one side.
    const before = /\b(before|until|prior to)\s+$/.exec(lower.slice(0, m.index));
    const after = /\b(after|since)\s+$/.exec(lower.slice(0, m.index));
    const start = before?.index ?? after?.index ?? m.index;
    const end = m.index + m[0].length;
    let [from, to] = [span[0].toISOString(), span[1].toISOString()];
    if (before !== null) [from, to] = [OPEN_START, from];
    else if (after !== null) [from, to] = [to, OPEN_END];
    const rest = `${query.slice(0, start)} ${query.slice(end)}`.replace(/\s+/g, ' ').trim();
    return {
      text: p.named !== true && /[\p{L}\p{N}]/u.test(rest) ? rest : query,
      time: { expression: query.slice(start, end), from, to },
    };
  }
  return { text: query, time: null };
}

/** Does [start, end) overlap the interval? Missing ends are open. */
export function overlaps(time: QueryTime, start: string | null, end: string | null): boolean {
  return (start === null || start < time.to) && (end === null || end > time.from);
}

/** A count of units; "0 days" names no time (NaN: the span is invalid and the pattern is passed over). */
const count = (word: string): number => {
  const n = NUMBERS[word] ?? Number(word);
  return n > 0 ? n : Number.NaN;
};
const unitOf = (word: string): Unit => word.replace(/s$/, '') as Unit;
const monthOf = (word: string): number => MONTHS.findIndex((m) => m.startsWith(word.slice(0, 3)));
const utc = (y: number, mo: number, d: number): Date => new Date(Date.UTC(y, mo, d));

function day(y: number, mo: number, d: number): Span | null {
  const from = utc(y, mo, d);
  // Date.UTC rolls 2025-02-30 over to March 2: that is not the day the query named.
  if (mo < 0 || from.getUTCMonth() !== mo || from.getUTCDate() !== d) return null;
  return [from, utc(y, mo, d + 1)];
}
const month = (y: number, mo: number): Span | null => (mo < 0 ? null : [utc(y, mo, 1), utc(y, mo + 1, 1)]);
const year = (y: number): Span => [utc(y, 0, 1), utc(y + 1, 0, 1)];

/** The calendar day, week (Monday first), month or year `offset` units from the reference's own. */
function unit(ref: Date, u: Unit, offset: number): Span {
  const y = ref.getUTCFullYear();
  const mo = ref.getUTCMonth();
  const d = ref.getUTCDate();
  if (u === 'day') return [utc(y, mo, d + offset), utc(y, mo, d + offset + 1)];
  if (u === 'month') return [utc(y, mo + offset, 1), utc(y, mo + offset + 1, 1)];
  if (u === 'year') return [utc(y + offset, 0, 1), utc(y + offset + 1, 0, 1)];
  const monday = d - ((ref.getUTCDay() + 6) % 7);
  return [utc(y, mo, monday + 7 * offset), utc(y, mo, monday + 7 * offset + 7)];
}

/** The `n` units before the reference instant ("in the last 3 weeks"). */
function rolling(ref: Date, u: Unit, n: number): Span {
  const from = new Date(ref);
  if (u === 'day') from.setUTCDate(from.getUTCDate() - n);
  else if (u === 'week') from.setUTCDate(from.getUTCDate() - 7 * n);
  else if (u === 'month') from.setUTCMonth(from.getUTCMonth() - n);
  else from.setUTCFullYear(from.getUTCFullYear() - n);
  return [from, ref];
}

/** "in April" without a year: the latest April that began by the reference time (this one, if it is April). */
function latestMonth(ref: Date, mo: number): Span | null {
  const y = ref.getUTCFullYear() - (mo > ref.getUTCMonth() ? 1 : 0);
  return month(y, mo);
}

/** "on Tuesday": the latest Tuesday before the reference day (a week back when it is Tuesday today). */
function lastWeekday(ref: Date, weekday: number): Span {
  const back = (ref.getUTCDay() - weekday + 7) % 7 || 7;
  return unit(ref, 'day', -back);
}
