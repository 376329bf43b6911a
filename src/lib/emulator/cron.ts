/**
 * Standard five-field cron schedules (minute hour day-of-month month
 * day-of-week), as maintenance policies carry them: numbers, `*`, lists
 * (`1,15`), ranges (`1-5`), steps (`*\/5`, `0-30/10`, `5/15`), and month and
 * weekday names (`JAN`, `MON`). Day-of-week 0 and 7 are Sunday; when both
 * day fields are restricted, a day matching either one fires (as cron does).
 *
 * Fire times are found walking back from a time, skipping whole months,
 * days and hours that cannot match, so no background timer is needed: the
 * emulator asks which runs fell between two instants when it is read.
 */

export interface Cron {
  readonly text: string;
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly days: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly weekdays: ReadonlySet<number>;
  /** Whether day-of-month and day-of-week are both restricted (then either may match). */
  readonly eitherDay: boolean;
}

interface FieldSpec {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
  { name: 'day of week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

export class CronError extends Error {}

function value(text: string, f: FieldSpec): number {
  const byName = f.names?.indexOf(text.toUpperCase()) ?? -1;
  if (byName >= 0) return byName + (f.name === 'month' ? 1 : 0);
  if (!/^\d+$/.test(text)) throw new CronError(`the ${f.name} field has "${text}", which is not a number`);
  const n = Number(text);
  if (n < f.min || n > f.max) throw new CronError(`the ${f.name} field has ${n}, outside ${f.min}-${f.max}`);
  return n;
}

function field(text: string, f: FieldSpec): Set<number> {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    if (item === '') throw new CronError(`the ${f.name} field has an empty list item`);
    const [range = '', stepText, extra] = item.split('/');
    if (extra !== undefined) throw new CronError(`the ${f.name} field has "${item}" with more than one step`);
    if (stepText !== undefined && (!/^\d+$/.test(stepText) || Number(stepText) < 1))
      throw new CronError(`the ${f.name} field has step "${stepText}"; a step is a whole number of at least 1`);
    const step = Number(stepText ?? 1);
    const [a = '', b, more] = range === '*' ? [String(f.min), String(f.max)] : range.split('-');
    if (more !== undefined) throw new CronError(`the ${f.name} field has "${range}", which is not a range`);
    const lo = value(a, f);
    // `5/15` means from 5 to the end in steps of 15.
    const hi = b !== undefined ? value(b, f) : stepText !== undefined ? f.max : lo;
    if (lo > hi) throw new CronError(`the ${f.name} field has the range ${range}, which runs backwards`);
    for (let v = lo; v <= hi; v += step) out.add(f.name === 'day of week' && v === 7 ? 0 : v);
  }
  return out;
}

/** Parses a five-field cron expression; throws CronError saying what is wrong. */
export function parseCron(text: string): Cron {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 5 || parts[0] === '')
    throw new CronError(
      `a schedule has 5 fields (minute hour day-of-month month day-of-week); "${text}" has ${parts[0] === '' ? 0 : parts.length}`,
    );
  const sets = parts.map((p, i) => field(p, FIELDS[i] as FieldSpec));
  const [minutes, hours, days, months, weekdays] = sets as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  return { text, minutes, hours, days, months, weekdays, eitherDay: !parts[2]?.startsWith('*') && !parts[4]?.startsWith('*') };
}

const MINUTE = 60_000;

/** The largest member of a set at or below a value, or -1. */
function atOrBelow(set: ReadonlySet<number>, v: number): number {
  for (let x = v; x >= 0; x--) if (set.has(x)) return x;
  return -1;
}

function dayMatches(c: Cron, d: Date): boolean {
  const dom = c.days.has(d.getUTCDate());
  const dow = c.weekdays.has(d.getUTCDay());
  return c.eitherDay ? dom || dow : dom && dow;
}

/**
 * The times a schedule fires after `since` and up to `until` (epoch ms),
 * newest first, at most `max` of them. `offsetMinutes` is the time zone's
 * offset from UTC: the fields are read in local time.
 */
export function firesBetween(c: Cron, offsetMinutes: number, since: number, until: number, max: number): number[] {
  const off = offsetMinutes * MINUTE;
  const stop = since + off;
  let t = Math.floor((until + off) / MINUTE) * MINUTE;
  const out: number[] = [];
  while (t > stop && out.length < max) {
    const d = new Date(t);
    const y = d.getUTCFullYear();
    const mo = d.getUTCMonth();
    const day = d.getUTCDate();
    const h = d.getUTCHours();
    const hour = atOrBelow(c.hours, h);
    const minute = atOrBelow(c.minutes, d.getUTCMinutes());
    // Back to the end of the month, day or hour before when nothing in this one can match.
    if (!c.months.has(mo + 1)) t = Date.UTC(y, mo, 1) - MINUTE;
    else if (!dayMatches(c, d) || hour < 0) t = Date.UTC(y, mo, day) - MINUTE;
    else if (hour < h) t = Date.UTC(y, mo, day, hour, 59);
    else if (minute < 0) t = Date.UTC(y, mo, day, h) - MINUTE;
    else {
      t = Date.UTC(y, mo, day, h, minute);
      if (t <= stop) break;
      out.push(t - off);
      t -= MINUTE;
    }
  }
  return out;
}
