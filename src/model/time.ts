/** Timestamps: ISO-8601 UTC strings with milliseconds, which sort as text and parse everywhere. */
import { z } from 'zod';
import { MemoryError } from './errors.ts';

export const nowIso = (): string => new Date().toISOString();

// Every part is checked by hand below rather than by `Date.parse`, which rolls 2024-02-30 over to March 1st,
// reads a time without a zone as the server's local time, and maps years 0–99 to 1900–1999.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** ±18:00, the widest offset ISO 8601 and RFC 3339 parsers accept; real zones stay within −12:00…+14:00. */
const MAX_OFFSET_MINUTES = 18 * 60;
const EXAMPLES = 'e.g. 2024-05-01, 2024-05-01T10:00:00Z or 2024-05-01T10:00:00+02:00';

/**
 * A plain date (UTC midnight) or a date-time with a zone, as canonical ISO (`2024-05-01T08:00:00.000Z`).
 * Anything else is `invalid_input` with a message that says what to write: a date that is not in the calendar
 * (2024-02-30, month 13, hour 24), year 0000, or a date-time without `Z` or an offset. The value is quoted
 * back only when it has the shape of a time, so a message never carries other text.
 * @example toIso('2024-05-01T10:00+02:00', 'validFrom') // '2024-05-01T08:00:00.000Z'
 */
export function toIso(value: string, field: string): string {
  // Already canonical (what every export and every stored time is): the round trip through Date proves it is a
  // calendar date, so the full parse below is skipped. Year 0000 round-trips too and is left to the parse.
  if (CANONICAL.test(value) && !value.startsWith('0000')) {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms) && new Date(ms).toISOString() === value) return value;
  }
  const text = value.trim();
  const date = DATE.exec(text);
  const m = date ?? DATE_TIME.exec(text);
  if (m === null) {
    throw new MemoryError('invalid_input', `${field} must be an ISO-8601 date or date-time (${EXAMPLES})`, {
      details: { field },
    });
  }
  const fail = (problem: string): never => {
    throw new MemoryError('invalid_input', `${field} ${text} ${problem}`, { details: { field } });
  };
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year === 0) fail('is in year 0000, which the calendar does not have: years start at 0001');
  if (month < 1 || month > 12) fail(`has month ${m[2]}: months run from 01 to 12`);
  const days = daysInMonth(year, month);
  if (day < 1 || day > days) fail(`is not a calendar date: ${m[1]}-${m[2]} has days 01 to ${days}`);
  if (date === null) {
    if (hour > 23) fail(`has hour ${m[4]}: hours run from 00 to 23`);
    if (minute > 59) fail(`has minute ${m[5]}: minutes run from 00 to 59`);
    if (second > 59) fail(`has second ${m[6]}: seconds run from 00 to 59`);
    if (m[8] === undefined && m[9] === undefined) {
      fail('has no time zone: add Z for UTC or an offset like +02:00 (e.g. 2024-05-01T10:00:00Z)');
    }
  }
  const offset = m[9] === undefined ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  if (Number(m[11] ?? 0) > 59 || Math.abs(offset) > MAX_OFFSET_MINUTES) {
    fail(`has offset ${m[9]}${m[10]}:${m[11]}: offsets run from -18:00 to +18:00`);
  }
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years 0–99 as 1900–1999
  at.setUTCHours(hour, minute, second, Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3)));
  const iso = new Date(at.getTime() - offset * 60_000).toISOString();
  // An offset can push 9999-12-31 past the four-digit years, whose ISO form (+010000-…) would not sort as text.
  if (!/^\d{4}-/.test(iso) || iso.startsWith('0000-')) fail('is outside the years 0001 to 9999 in UTC');
  return iso;
}

/** A zod schema for a time field: validates and canonicalises. */
export const isoTime = (field: string) =>
  z
    .string()
    .max(64)
    .transform((v, ctx) => {
      try {
        return toIso(v, field);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
