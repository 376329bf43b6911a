/**
 * Reading request values and writing answer values (values.ts): each reader
 * picks the value out in the type it has and answers its empty form (or
 * undefined) for anything else, so a handler never sees a value of the
 * wrong type; the writers make times, base64, stable made-up hex ids, and
 * documents without undefined fields.
 */
import { describe, expect, test } from '@jest/globals';
import {
  b64,
  bool,
  compact,
  docs,
  hex,
  iso,
  num,
  obj,
  optBool,
  str,
  stringMap,
  strings,
  text,
  uniq,
} from '../../../src/lib/emulator/values.js';

describe('readers', () => {
  test('str: a non-empty string, else undefined', () => {
    expect(str('a')).toBe('a');
    for (const v of ['', undefined, null, 1, true, ['a'], { a: 1 }]) expect(str(v)).toBeUndefined();
  });

  test("text: a string as it is, '' for absent, the text of anything else", () => {
    expect(text('a')).toBe('a');
    expect(text('')).toBe('');
    expect(text(undefined)).toBe('');
    expect(text(null)).toBe('');
    expect(text(42)).toBe('42');
    expect(text(false)).toBe('false');
  });

  test('bool is true only for true; optBool keeps a boolean and drops anything else', () => {
    expect([true, false, 'true', 1, undefined].map(bool)).toEqual([true, false, false, false, false]);
    expect([true, false, 'true', 0, undefined].map(optBool)).toEqual([true, false, undefined, undefined, undefined]);
  });

  test('num: a number, else undefined (a numeric string is not one)', () => {
    expect(num(0)).toBe(0);
    expect(num(2.5)).toBe(2.5);
    expect(num('3')).toBeUndefined();
    expect(num(undefined)).toBeUndefined();
  });

  test('docs, strings, obj and stringMap: their empty form for absent or wrong-typed values; strings keeps only strings', () => {
    expect(docs([{ a: 1 }])).toEqual([{ a: 1 }]);
    expect(docs({ a: 1 })).toEqual([]);
    expect(strings(['a', 1, null, 'b'])).toEqual(['a', 'b']);
    expect(strings('a')).toEqual([]);
    expect(obj({ a: 1 })).toEqual({ a: 1 });
    for (const v of [undefined, null, [1], 'a', 3]) expect(obj(v)).toEqual({});
    expect(stringMap({ team: 'data' })).toEqual({ team: 'data' });
    expect(stringMap(undefined)).toEqual({});
  });

  test('uniq keeps the first of each value, in order', () => {
    expect(uniq(['b', 'a', 'b', 'c', 'a'])).toEqual(['b', 'a', 'c']);
  });
});

describe('writers', () => {
  test('iso writes emulated ms as ISO 8601; b64 is base64 of UTF-8', () => {
    expect(iso(Date.UTC(2026, 2, 1, 12))).toBe('2026-03-01T12:00:00.000Z');
    expect(b64('é:')).toBe('w6k6');
  });

  test('hex gives the first n hex digits of sha256(seed): the same for the same seed', () => {
    expect(hex('', 12)).toBe('e3b0c44298fc');
    expect(hex('a', 8)).toMatch(/^[0-9a-f]{8}$/);
    expect(hex('a', 8)).toBe(hex('a', 8));
    expect(hex('b', 8)).not.toBe(hex('a', 8));
  });

  test('compact drops undefined fields and keeps every other value, null and falsy ones included', () => {
    expect(compact({ a: undefined, b: null, c: 0, d: '', e: false, f: 'x' })).toEqual({ b: null, c: 0, d: '', e: false, f: 'x' });
    expect(Object.keys(compact({ a: undefined }))).toEqual([]);
  });
});
