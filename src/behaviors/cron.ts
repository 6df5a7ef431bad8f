/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week) in a time zone, written here rather
 * than taken from a library: the whole of it is field parsing and a backward search for the latest instant at or
 * before now, which is all the scheduler asks (one window per instant, named by it).
 */
import { MemoryError } from '../model/errors.ts';

export interface Cron {
  minute: Set<number>;
  hour: Set<number>;
  dom: Set<number>;
  month: Set<number>;
  dow: Set<number>;
  /** Both day fields restricted: a day matches either (classic cron). */
  eitherDay: boolean;
}

const BOUNDS: readonly [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

export function parseCron(text: string): Cron {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 5) throw new MemoryError('invalid_input', 'cron needs five fields');
  const sets = parts.map((p, i) => field(p, BOUNDS[i]![0], BOUNDS[i]![1]));
  const dow = sets[4]!;
  if (dow.has(7)) dow.add(0);
  return {
    minute: sets[0]!,
    hour: sets[1]!,
    dom: sets[2]!,
    month: sets[3]!,
    dow,
    eitherDay: parts[2] !== '*' && parts[4] !== '*',
  };
}

function field(text: string, lo: number, hi: number): Set<number> {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
    if (m === null) throw new MemoryError('invalid_input', 'cron field is not a number, range, list or step');
    const from = m[1] === '*' ? lo : Number(m[2]);
    const to = m[1] === '*' ? hi : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? hi : from;
    const step = m[4] === undefined ? 1 : Number(m[4]);
    if (from < lo || to > hi || from > to || step < 1)
      throw new MemoryError('invalid_input', 'cron field out of range');
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

/** The wall clock of an instant in a zone: what cron's fields are matched against. */
function wall(
  at: Date,
  tz: string,
): { minute: number; hour: number; dom: number; month: number; dow: number } {
  const parts = formatter(tz).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  return {
    minute: Number(get('minute')),
    hour: Number(get('hour')) % 24,
    dom: Number(get('day')),
    month: Number(get('month')),
    dow: days.indexOf(get('weekday')),
  };
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

const MINUTE = 60_000;

/**
 * The latest whole minute at or before `now` that the expression names in `tz`, or null within a year and a day.
 * Steps back by the day or the hour when those fields do not match, so a daily schedule costs a few dozen steps.
 */
export function latestAtOrBefore(cron: Cron, tz: string, now: Date): Date | null {
  let t = Math.floor(now.getTime() / MINUTE) * MINUTE;
  const stop = t - 367 * 24 * 60 * MINUTE;
  while (t > stop) {
    const w = wall(new Date(t), tz);
    const domOk = cron.dom.has(w.dom);
    const dowOk = cron.dow.has(w.dow);
    const dayOk = cron.month.has(w.month) && (cron.eitherDay ? domOk || dowOk : domOk && dowOk);
    if (!dayOk) t -= (w.hour * 60 + w.minute + 1) * MINUTE;
    else if (!cron.hour.has(w.hour)) t -= (w.minute + 1) * MINUTE;
    else if (!cron.minute.has(w.minute)) t -= MINUTE;
    else return new Date(t);
  }
  return null;
}
