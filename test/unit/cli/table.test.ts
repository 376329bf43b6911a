/**
 * Tables for --output table: wide characters keep the borders straight,
 * cells wrap at word and token boundaries (never inside a UUID), epoch
 * numbers in time fields read as times, a resource's nested objects are
 * indented rows, and a streamed list keeps the layout of its first page.
 */
import { describe, expect, test } from '@jest/globals';
import { columnsFor } from '../../../src/lib/cli/cells.js';
import { formatValue, type FormatOptions } from '../../../src/lib/cli/output.js';
import { chunks, ListTable, recordRows, textWidth, wrap } from '../../../src/lib/cli/table.js';

/** A value as --output table writes it. */
const formatTable = async (v: unknown, opts: FormatOptions): Promise<string> => (await formatValue(v, 'table', opts)).text;

const lines = (text: string): string[] => text.trimEnd().split('\n');
/** The display column of every border bar on a line. */
const bars = (line: string): number[] => {
  const at: number[] = [];
  let col = 0;
  for (const ch of line) {
    if (
      ch === '│' ||
      ch === '┼' ||
      ch === '┬' ||
      ch === '┴' ||
      ch === '├' ||
      ch === '┤' ||
      ch === '┌' ||
      ch === '┐' ||
      ch === '└' ||
      ch === '┘'
    )
      at.push(col);
    col += textWidth(ch);
  }
  return at;
};

describe('wide characters', () => {
  test('CJK and emoji take two columns and every border lines up, at 80 columns', async () => {
    const users = {
      users: [
        { userId: 'u-1', firstName: '山田太郎', lastName: 'Yamada', email: 'taro@example.jp' },
        { userId: 'u-2', firstName: 'Zoë 🚀', lastName: 'Ångström', email: 'zoe@example.com' },
        { userId: 'u-3', firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' },
      ],
    };
    const text = await formatTable(users, { listKey: 'users', width: 80, color: false, timeZone: 'UTC' });
    const rows = lines(text);
    const first = bars(rows[0] ?? '');
    expect(first.length).toBe(5);
    for (const row of rows) {
      expect(bars(row)).toEqual(first);
      expect(textWidth(row)).toBeLessThanOrEqual(80);
    }
    expect(text).toContain('山田太郎');
  });

  test('a narrow column of CJK text wraps between characters, never through one', () => {
    expect(wrap('山田太郎山田太郎', 5)).toEqual(['山田', '太郎', '山田', '太郎']);
    expect(textWidth('山田')).toBe(4);
  });
});

describe('wrapping at word and token boundaries', () => {
  const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
  test('a UUID is never cut; a CRN breaks after its separators', () => {
    const crn = `crn:cdp:iam:us-west-1:altus:user:${uuid}`;
    for (const width of [36, 40, 50]) {
      const out = wrap(crn, width);
      expect(out.join('')).toBe(crn);
      expect(out.some((l) => l.includes(uuid))).toBe(true);
      for (const l of out) expect(textWidth(l)).toBeLessThanOrEqual(width);
    }
    expect(chunks(crn)).toContain(uuid);
  });

  test('text wraps at spaces; dates and versions stay whole', () => {
    expect(wrap('the quick brown fox jumps', 10)).toEqual(['the quick', 'brown fox', 'jumps']);
    expect(chunks('2026-11-22')).toEqual(['2026-11-22']);
    expect(chunks('7.2.18')).toEqual(['7.2.18']);
  });

  test('an 80-column list table keeps the UUID column whole', async () => {
    const items = Array.from({ length: 3 }, (_, i) => ({
      crn: `crn:cdp:environments:us-west-1:altus:environment:${uuid}`,
      name: `env-${i}`,
      description: 'a long description of what this environment is for, with many words in it',
      status: 'AVAILABLE',
    }));
    const text = await formatTable({ environments: items }, { listKey: 'environments', width: 80, color: false });
    for (const row of lines(text)) expect(textWidth(row)).toBeLessThanOrEqual(80);
    expect(text).toContain(uuid);
  });
});

describe('times and nested objects', () => {
  test('epoch seconds and milliseconds in time fields read as local times; other numbers stay numbers', async () => {
    const text = await formatTable(
      { lakehouses: [{ name: 'lh', created: 1763800000, sizeBytes: 1763800000, updatedAt: 1763800000000 }] },
      { listKey: 'lakehouses', width: 120, color: false, timeZone: 'UTC' },
    );
    expect(text).toContain('2025-11-22 08:26:40 UTC');
    expect(text).toContain('1763800000 ');
    expect(text).not.toContain('1763800000000');
  });

  test('a describe table shows nested objects as indented key/value rows, lists as "- " items', () => {
    const rows = recordRows(
      { name: 'dl', network: { subnet: 's-1', security: { group: 'sg-1' } }, tags: ['a', 'b'], instances: [{ id: 'i-1' }, { id: 'i-2' }] },
      { timeZone: 'UTC' },
    );
    expect(rows).toEqual([
      ['name', 'dl'],
      ['network', ''],
      ['  subnet', 's-1'],
      ['  security', ''],
      ['    group', 'sg-1'],
      ['tags', 'a, b'],
      ['instances', ''],
      ['  - id', 'i-1'],
      ['  - id', 'i-2'],
    ]);
  });

  test('a describe table of a wrapped resource shows the resource, with no JSON blobs', async () => {
    const text = await formatTable({ datalake: { name: 'dl', network: { subnet: 's-1' } } }, { width: 80, color: false });
    expect(text).toMatch(/│ {3}subnet +│ s-1 +│/);
    expect(text).not.toContain('{');
  });
});

describe('streaming', () => {
  test('later pages keep the first page’s layout, wrapping what is longer', () => {
    const cols = columnsFor([{ id: 'a', note: 'short' }]);
    const table = new ListTable(cols, { width: 60, color: false });
    const first = table.page([{ id: 'a', note: 'short' }]);
    const later = table.page([{ id: 'b', note: 'a much longer note than the first page had' }]);
    const widths = bars(lines(first)[0] ?? '');
    for (const row of lines(later + table.end())) expect(bars(row)).toEqual(widths);
    expect(later.split('\n').length).toBeGreaterThan(2);
  });
});
