/** The formatters of every output format: tables fit the terminal, jsonl and tab-separated text. */
import { describe, expect, it, test } from '@jest/globals';
import { formatterFor, formatValue, textObject, type FormatOptions, type OutputFormat } from '../../../src/lib/cli/output.js';
import { sixtyUsers as users } from '../../helpers/fakes.js';

/** A whole answer in a format, as render writes it. */
const formatted = async (v: unknown, format: OutputFormat, opts: FormatOptions = {}): Promise<string> =>
  (await formatValue(v, format, opts)).text;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const strip = (s: string): string => s.replace(ANSI, '');

describe('formatTable', () => {
  test.each([40, 60, 100, 160])('fits a %i-column terminal', async (width) => {
    const text = await formatted(users, 'table', { listKey: 'users', width, color: false, timeZone: 'UTC' });
    const longest = Math.max(...text.split('\n').map((l) => strip(l).length));
    expect(longest).toBeLessThanOrEqual(width);
    expect(text).toContain('user-59');
  });

  test('a single resource is a key/value table that fits', async () => {
    const text = await formatted({ user: users.users[0] }, 'table', { width: 60, color: false, timeZone: 'UTC' });
    expect(text).toMatch(/│ userId +│ user-0 +│/);
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(60);
  });

  test('colour only when asked', async () => {
    expect(await formatted(users, 'table', { listKey: 'users', width: 100, color: false })).not.toMatch(ANSI);
    expect(await formatted(users, 'table', { listKey: 'users', width: 100, color: true })).toMatch(ANSI);
  });

  test('an empty list says so', async () => {
    expect(await formatted({ users: [] }, 'table', { listKey: 'users', width: 80, color: false })).toBe('(no items)\n');
  });
});

describe('text output', () => {
  test('rows of a multi-select query are tab separated, like aws-cli', async () => {
    expect(
      await formatted(
        [
          ['a', 'crn:1'],
          ['b', 'crn:2'],
        ],
        'tsv',
      ),
    ).toBe('a\tcrn:1\nb\tcrn:2\n');
  });

  test('a list of scalars is one per line', async () => {
    expect(await formatted(['x', 'y'], 'tsv')).toBe('x\ny\n');
  });

  test('objects are columns of their scalar fields, in order', async () => {
    expect(await formatted([{ a: 1, b: 'two', nested: { x: 1 } }], 'tsv')).toBe('1\ttwo\n');
  });
});

describe('formatters', () => {
  const items = [
    { userId: 'a', email: 'a@x', nested: { k: 1 } },
    { userId: 'b', email: 'b@x', nested: { k: 2 } },
  ];
  it('writes jsonl and tab-separated text', async () => {
    expect(await formatted({ users: items }, 'jsonl', { listKey: 'users' })).toBe(
      '{"userId":"a","email":"a@x","nested":{"k":1}}\n{"userId":"b","email":"b@x","nested":{"k":2}}\n',
    );
    expect(await formatted(items, 'tsv')).toBe('a\ta@x\nb\tb@x\n');
    expect(await formatted(items, 'tsv', { columns: { id: 'userId', k: 'nested.k' } })).toBe('a\t1\nb\t2\n');
    expect(textObject({ a: { b: 1 }, c: [true] })).toBe('a.b\t1\nc[0]\ttrue\n');
  });
  it('fits tables to the terminal width', async () => {
    const wide = [{ id: 'x'.repeat(200), note: 'y'.repeat(200) }];
    const out = await formatted(wide, 'table', { width: 80, color: false });
    for (const line of out.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});

describe('a JSON listing written page by page', () => {
  const page = (from: number, n: number): unknown[] =>
    Array.from({ length: n }, (_, i) => ({ userId: `u${from + i}`, tags: ['a', { deep: [1, null, 'é'] }], empty: {}, none: [] }));

  test.each([
    ['pages of 3, 0 and 2, with other fields and the token', [3, 0, 2], { requestId: 'r' }, 'tok'],
    ['one page', [5], {}, undefined],
    ['no items at all', [0], { requestId: 'r' }, undefined],
  ])('%s: the bytes JSON.stringify writes for the whole answer', async (_what, sizes, fields, token) => {
    for (const ascii of [false, true]) {
      const listing = (await formatterFor('json', { ascii })).listing;
      let text = listing?.begin('users') ?? '';
      const all: unknown[] = [];
      let at = 0;
      for (const n of sizes) {
        const items = page(at, n);
        at += n;
        all.push(...items);
        text += listing?.items(items) ?? '';
      }
      text += listing?.end(fields, { field: 'nextToken', token }) ?? '';
      const whole = JSON.stringify({ users: all, ...fields, ...(token ? { nextToken: token } : {}) }, null, 2) + '\n';
      expect(text).toBe(ascii ? whole.replaceAll('é', '\\u00e9') : whole);
    }
  });
});
