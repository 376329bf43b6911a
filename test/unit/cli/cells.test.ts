/** Cells: times in the user's zone in tables, while json, text and plain cells keep the wire value. */
import { describe, expect, test } from '@jest/globals';
import { cell, localTime } from '../../../src/lib/cli/cells.js';
import { formatValue, type FormatOptions, type OutputFormat } from '../../../src/lib/cli/output.js';
import { render } from '../../../src/lib/cli/render.js';
import { bufferIO } from '../../helpers/fakes.js';

/** A whole answer in a format, as render writes it. */
const formatted = async (v: unknown, format: OutputFormat, opts: FormatOptions = {}): Promise<string> =>
  (await formatValue(v, format, opts)).text;

const fakeIO = bufferIO;

describe('times', () => {
  test('tables show wire times in the given zone, with the zone named', () => {
    expect(localTime('2026-11-22T10:00:00.000Z', 'UTC')).toBe('2026-11-22 10:00:00 UTC');
    expect(localTime('2026-11-22T10:00:00Z', 'Europe/Berlin')).toBe('2026-11-22 11:00:00 GMT+1');
    expect(localTime('2026-07-01T23:30:00+00:00', 'America/New_York')).toBe('2026-07-01 19:30:00 EDT');
    expect(cell('2026-11-22T10:00:00.000Z', { timeZone: 'Asia/Tokyo' })).toBe('2026-11-22 19:00:00 GMT+9');
  });

  test('json, text and plain cells keep the wire value', async () => {
    const v = { users: [{ userId: 'u', creationDate: '2026-11-22T10:00:00.000Z' }] };
    expect(cell('2026-11-22T10:00:00.000Z')).toBe('2026-11-22T10:00:00.000Z');
    expect(await formatted(v, 'json')).toContain('"2026-11-22T10:00:00.000Z"');
    expect(await formatted(v.users, 'tsv')).toBe('u\t2026-11-22T10:00:00.000Z\n');
  });

  test('strings that only look like times are left alone', () => {
    expect(cell('2026-11-22', true)).toBe('2026-11-22');
    expect(cell('not a date', true)).toBe('not a date');
  });

  test('render: a table shows local time, json the wire value', async () => {
    const v = { users: [{ userId: 'u', creationDate: '2026-11-22T10:00:00.000Z' }] };
    const table = fakeIO({ columns: 100 });
    await render(table.io, v, { format: 'table', listKey: 'users' });
    expect(table.out.text).not.toContain('2026-11-22T10:00:00.000Z');
    expect(table.out.text).toMatch(/2026-11-2[23] \d\d:\d\d:00/);
    const json = fakeIO();
    await render(json.io, v, { format: 'json', listKey: 'users' });
    expect(JSON.parse(json.out.text)).toEqual(v);
  });
});
