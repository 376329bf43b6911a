/**
 * The emulator's clock (clock.ts) on a wall clock the test moves: what
 * lifecycle.test.ts's driven-clock test does not cover. Pausing or
 * resuming twice changes nothing; it never moves backwards (not by a
 * negative, an infinite or a NaN advance) except by set(), which an import
 * uses; a state ahead of the wall clock resumes ahead of it; a frozen view
 * holds one instant while the clock runs on; durations are read and
 * written as people write them.
 */
import { describe, expect, test } from '@jest/globals';
import { Clock, formatDuration, parseDuration } from '../../../src/lib/emulator/clock.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const MIN = 60_000;

/** A clock on a wall clock the test moves. */
function driven(scale = 1, resume = {}): { clock: Clock; tick: (ms: number) => void } {
  let wall = T0;
  return { clock: new Clock(scale, resume, () => wall), tick: (ms) => void (wall += ms) };
}

describe('the clock', () => {
  test('pausing a paused clock or resuming a running one changes nothing', () => {
    const { clock, tick } = driven(60);
    clock.pause();
    tick(1000);
    clock.pause();
    expect(clock.now()).toBe(T0);
    clock.resume();
    tick(1000);
    clock.resume();
    tick(1000);
    expect(clock.now()).toBe(T0 + 2 * MIN);
    expect(clock.paused).toBe(false);
  });

  test('it moves forward only: a negative, infinite or NaN advance is a RangeError and moves nothing', () => {
    const { clock } = driven(1, { now: T0, paused: true });
    for (const ms of [-1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => clock.advance(ms)).toThrow(RangeError);
    expect(clock.now()).toBe(T0);
    clock.advance(0);
    expect(clock.now()).toBe(T0);
  });

  test('a state ahead of the wall clock resumes ahead of it, and runs on from there', () => {
    const { clock, tick } = driven(2, { now: T0 + 60 * MIN, paused: false });
    expect(clock.now()).toBe(T0 + 60 * MIN);
    tick(1000);
    expect(clock.now()).toBe(T0 + 60 * MIN + 2000);
    expect(clock.state()).toEqual({ now: T0 + 60 * MIN + 2000, paused: false });
  });

  test('set() puts it at an imported time, back in time included, running or paused as given', () => {
    const { clock, tick } = driven(1);
    tick(10 * MIN);
    clock.set({ now: T0 - MIN, paused: true });
    expect(clock.state()).toEqual({ now: T0 - MIN, paused: true });
    tick(MIN);
    expect(clock.now()).toBe(T0 - MIN);
    clock.set({ now: T0, paused: false });
    tick(1000);
    expect(clock.now()).toBe(T0 + 1000);
  });

  test('a frozen view holds one instant while the clock runs on; its iso() is of that instant', () => {
    const { clock, tick } = driven(60);
    tick(1000);
    const view = clock.frozen();
    tick(1000);
    clock.advance(MIN);
    expect(view.now()).toBe(T0 + MIN);
    expect(view.iso()).toBe('2026-03-01T12:01:00.000Z');
    expect(clock.now()).toBe(T0 + 3 * MIN);
    expect(view.scale).toBe(60);
  });
});

describe('durations', () => {
  test('parseDuration reads units and their sums, any case, decimals, ms before m', () => {
    expect(parseDuration('15m')).toBe(15 * MIN);
    expect(parseDuration('2h30m')).toBe(150 * MIN);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1d')).toBe(24 * 60 * MIN);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1m500ms')).toBe(MIN + 500);
    expect(parseDuration(' 1.5H ')).toBe(90 * MIN);
    expect(parseDuration('0.0001s')).toBe(0);
  });

  test('parseDuration answers undefined for what is not a duration', () => {
    for (const text of ['', '15', 'm', '15 m', '-5m', '1w', '1h-30m', '15m!', 'soon']) expect(parseDuration(text)).toBeUndefined();
  });

  test('formatDuration writes days, hours, minutes and seconds, whole seconds only', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(999)).toBe('0s');
    expect(formatDuration(61_000)).toBe('1m 1s');
    expect(formatDuration(3 * 60 * MIN)).toBe('3h');
    expect(formatDuration(26 * 60 * MIN + 4000)).toBe('1d 2h 4s');
    expect(formatDuration(-90_000)).toBe('-1m 30s');
  });
});
