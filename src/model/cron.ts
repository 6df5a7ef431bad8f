/**
 * Cron schedules, for commitments and behaviors alike: five fields (minute hour day-of-month month day-of-week;
 * `*`, lists, ranges and steps) read in an IANA time zone. Two questions: the first firing inside a window
 * (commitments), and the latest firing at or before now (the behaviors' scheduler, one window per instant).
 * No dependency: both scans skip whole hours and days that cannot match, so a window of months costs a few
 * thousand steps.
 */
import { MemoryError } from './errors.ts';

export interface Cron {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Day-of-month and day-of-week both restricted: cron fires when either matches. */
  eitherDay: boolean;
}

const FIELDS: [string, number, number][] = [
  ['minute', 0, 59],
  ['hour', 0, 23],
  ['day of month', 1, 31],
  ['month', 1, 12],
  ['day of week', 0, 7],
];

/** Parses a five-field cron expression; `invalid_input` names the field, never echoes more than the field. */
export function parseCron(expression: string): Cron {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) {
    throw new MemoryError(
      'invalid_input',
      `a schedule has five fields (minute hour day month weekday), not ${parts.length}`,
    );
  }
  const sets = parts.map((part, i) => field(part, ...FIELDS[i]!));
  const weekdays = new Set([...sets[4]!].map((d) => d % 7));
  return {
    minutes: sets[0]!,
    hours: sets[1]!,
    days: sets[2]!,
    months: sets[3]!,
    weekdays,
    eitherDay: parts[2] !== '*' && parts[4] !== '*',
  };
}

/** Throws `invalid_input` unless the runtime knows the time zone. */
export function checkTimeZone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw new MemoryError('invalid_input', 'unknown time zone (use an IANA name such as Europe/Paris)', {
      details: { field: 'tz' },
    });
  }
}

/** The first minute in (from, to] at which the schedule fires, or null. */
export function firstFiring(cron: Cron, tz: string, from: string, to: string): string | null {
  const end = Date.parse(to);
  let t = Math.floor(Date.parse(from) / 60_000) * 60_000 + 60_000;
  const parts = partsIn(tz);
  for (let steps = 0; t <= end && steps < 200_000; steps++) {
    const p = parts(t);
    if (!cron.months.has(p.month) || !dayMatches(cron, p)) {
      t += ((23 - p.hour) * 60 + (60 - p.minute)) * 60_000;
    } else if (!cron.hours.has(p.hour)) {
      t += (60 - p.minute) * 60_000;
    } else if (!cron.minutes.has(p.minute)) {
      t += 60_000;
    } else {
      return new Date(t).toISOString();
    }
  }
  return null;
}

/**
 * The latest whole minute at or before `now` that the schedule names in `tz`, or null within a year and a day.
 * Steps back by the day or the hour when those fields do not match, so a daily schedule costs a few dozen steps.
 */
export function latestAtOrBefore(cron: Cron, tz: string, now: Date): Date | null {
  let t = Math.floor(now.getTime() / 60_000) * 60_000;
  const stop = t - 367 * 24 * 60 * 60_000;
  const parts = partsIn(tz);
  while (t > stop) {
    const p = parts(t);
    if (!cron.months.has(p.month) || !dayMatches(cron, p)) t -= (p.hour * 60 + p.minute + 1) * 60_000;
    else if (!cron.hours.has(p.hour)) t -= (p.minute + 1) * 60_000;
    else if (!cron.minutes.has(p.minute)) t -= 60_000;
    else return new Date(t);
  }
  return null;
}

interface LocalTime {
  month: number;
  day: number;
  weekday: number;
  hour: number;
  minute: number;
}

function dayMatches(cron: Cron, p: LocalTime): boolean {
  const day = cron.days.has(p.day);
  const weekday = cron.weekdays.has(p.weekday);
  return cron.eitherDay ? day || weekday : day && weekday;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function partsIn(tz: string): (t: number) => LocalTime {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    month: 'numeric',
    day: 'numeric',
    weekday: 'short',
    hour: 'numeric',
    minute: 'numeric',
  });
  return (t) => {
    const out: Record<string, string> = {};
    for (const part of format.formatToParts(t)) out[part.type] = part.value;
    return {
      month: Number(out.month),
      day: Number(out.day),
      weekday: WEEKDAYS.indexOf(out.weekday ?? ''),
      hour: Number(out.hour) % 24,
      minute: Number(out.minute),
    };
  };
}

function field(text: string, name: string, min: number, max: number): Set<number> {
  const out = new Set<number>();
  const bad = (): never => {
    throw new MemoryError(
      'invalid_input',
      `the schedule's ${name} field is not valid cron (${min}-${max}, *, lists, ranges, steps)`,
      {
        details: { field: name },
      },
    );
  };
  for (const item of text.split(',')) {
    const m = /^(\*|(\d{1,2})(?:-(\d{1,2}))?)(?:\/(\d{1,2}))?$/.exec(item);
    if (m === null) bad();
    const [lo, hi] = m![1] === '*' ? [min, max] : [Number(m![2]), Number(m![3] ?? (m![4] ? max : m![2]))];
    const step = Number(m![4] ?? 1);
    if (lo < min || hi > max || lo > hi || step < 1) bad();
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}
