/** Values, and date-times, as Python prints them: the official CLI's text output. */
import { describe, expect, it } from '@jest/globals';
import { formatText, pyDateTime, pyFloat, pyStr } from '../../../src/lib/cli/text.js';

describe('values as Python prints them', () => {
  it('str() of scalars and containers', () => {
    expect([true, false, null, 0, -3, 1.5, 'x'].map(pyStr)).toEqual(['True', 'False', 'None', '0', '-3', '1.5', 'x']);
    expect(pyStr({ a: [1, "it's", null], b: { c: 'q"' } })).toBe(`{'a': [1, "it's", None], 'b': {'c': 'q"'}}`);
    expect(pyStr(['tab\t', 'é'])).toBe("['tab\\t', 'é']");
  });

  it('repr() of floats: shortest digits, exponents below 1e-4 and from 1e16', () => {
    expect([0.1, 2.5, 1e-5, 0.0001, 1.5e-7, 1e16, 1.25e20, 3].map(pyFloat)).toEqual([
      '0.1',
      '2.5',
      '1e-05',
      '0.0001',
      '1.5e-07',
      '1e+16',
      '1.25e+20',
      '3.0',
    ]);
  });

  it('date-times as Python prints the parsed datetime', () => {
    expect(pyDateTime('2026-11-22T11:13:37.702Z')).toBe('2026-11-22 11:13:37.702000+00:00');
    expect(pyDateTime('2026-11-22T11:13:37.000Z')).toBe('2026-11-22 11:13:37+00:00');
    expect(pyDateTime('2026-11-22T11:13:37.1234567+0530')).toBe('2026-11-22 11:13:37.123456+05:30');
    expect(pyDateTime('2026-11-22T11:13')).toBe('2026-11-22 11:13:00');
    expect(pyDateTime('2026-11-22')).toBe('2026-11-22 00:00:00');
    expect(pyDateTime('not a time')).toBe('not a time');
  });

  it('the text layout: scalars first, nested values after, lists of dicts over the union of keys', () => {
    expect(formatText({ b: 1, a: 'x', n: { z: true }, l: [1, 2] })).toBe('x\t1\nL\t1\nL\t2\nN\tTrue\n');
    expect(formatText([{ a: 1 }, { b: 2, c: [3] }])).toBe('1\t\n\t2\nC\t3\n');
    expect(formatText([[1, 2], 3])).toBe('3\n1\t2\n');
    expect(formatText([])).toBe('');
    expect(formatText({})).toBe('');
    expect(formatText(null)).toBe('None\n');
  });
});
