/** Five-field cron schedules: parsing (ranges, lists, steps, names) and fire times found walking back. */
import { describe, expect, test } from '@jest/globals';
import { CronError, firesBetween, parseCron } from '../../../src/lib/emulator/cron.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number[]): string[] => ms.map((m) => new Date(m).toISOString());

describe('parseCron', () => {
  test('numbers, *, lists, ranges, steps and names', () => {
    const c = parseCron('*/15 9-17/4 1,15 JAN-MAR mon-fri');
    expect([...c.minutes]).toEqual([0, 15, 30, 45]);
    expect([...c.hours]).toEqual([9, 13, 17]);
    expect([...c.days]).toEqual([1, 15]);
    expect([...c.months]).toEqual([1, 2, 3]);
    expect([...c.weekdays]).toEqual([1, 2, 3, 4, 5]);
    expect(c.eitherDay).toBe(true);
    expect([...parseCron('5/20 * * * 7').minutes]).toEqual([5, 25, 45]);
    expect([...parseCron('0 0 * * 7').weekdays]).toEqual([0]);
    expect(parseCron('0 0 * * 1').eitherDay).toBe(false);
  });

  test.each([
    ['', '5 fields'],
    ['* * * *', '5 fields'],
    ['* * * * * *', '5 fields'],
    ['60 * * * *', 'minute'],
    ['* 24 * * *', 'hour'],
    ['* * 0 * *', 'day of month'],
    ['* * * 13 *', 'month'],
    ['* * * * 8', 'day of week'],
    ['5-1 * * * *', 'backwards'],
    ['*/0 * * * *', 'step'],
    ['1,,2 * * * *', 'empty'],
    ['a * * * *', 'not a number'],
    ['1-2-3 * * * *', 'not a range'],
    ['*/2/3 * * * *', 'more than one step'],
  ])('%j is refused (%s)', (text, message) => {
    expect(() => parseCron(text)).toThrow(CronError);
    expect(() => parseCron(text)).toThrow(message);
  });
});

describe('firesBetween', () => {
  test('every 5 minutes, newest first, since excluded and until included', () => {
    const c = parseCron('*/5 * * * *');
    expect(iso(firesBetween(c, 0, at('2026-01-01T00:00:00Z'), at('2026-01-01T00:15:00Z'), 10))).toEqual([
      '2026-01-01T00:15:00.000Z',
      '2026-01-01T00:10:00.000Z',
      '2026-01-01T00:05:00.000Z',
    ]);
    expect(firesBetween(c, 0, at('2026-01-01T00:00:00Z'), at('2026-01-01T01:00:00Z'), 2)).toHaveLength(2);
  });

  test('days of month or week: either matches when both are given; weekdays alone otherwise', () => {
    // 2026-01-01 is a Thursday.
    const either = parseCron('0 12 1 * MON');
    expect(iso(firesBetween(either, 0, at('2026-01-01T00:00:00Z'), at('2026-01-13T00:00:00Z'), 10)).reverse()).toEqual([
      '2026-01-01T12:00:00.000Z',
      '2026-01-05T12:00:00.000Z',
      '2026-01-12T12:00:00.000Z',
    ]);
    const mondays = parseCron('30 6 * * 1');
    expect(iso(firesBetween(mondays, 0, at('2026-01-01T00:00:00Z'), at('2026-01-20T00:00:00Z'), 10)).reverse()).toEqual([
      '2026-01-05T06:30:00.000Z',
      '2026-01-12T06:30:00.000Z',
      '2026-01-19T06:30:00.000Z',
    ]);
  });

  test('a time zone offset reads the fields in local time', () => {
    // 02:00 in UTC-08:00 is 10:00 UTC.
    const c = parseCron('0 2 * * *');
    expect(iso(firesBetween(c, -480, at('2026-03-01T00:00:00Z'), at('2026-03-02T23:00:00Z'), 10))).toEqual([
      '2026-03-02T10:00:00.000Z',
      '2026-03-01T10:00:00.000Z',
    ]);
  });

  test('months and leap days: the 29th of February fires only in leap years', () => {
    const c = parseCron('0 0 29 2 *');
    expect(iso(firesBetween(c, 0, at('2023-01-01T00:00:00Z'), at('2029-01-01T00:00:00Z'), 10))).toEqual([
      '2028-02-29T00:00:00.000Z',
      '2024-02-29T00:00:00.000Z',
    ]);
    expect(firesBetween(parseCron('0 0 30 2 *'), 0, at('2020-01-01T00:00:00Z'), at('2030-01-01T00:00:00Z'), 10)).toEqual([]);
  });
});
