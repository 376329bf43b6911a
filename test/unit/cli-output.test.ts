/**
 * Output polish over the pure formatters and IO with fake streams: tables fit
 * the terminal, colour only on a TTY (NO_COLOR, --color on|off|auto), a pager
 * for long tables on a TTY (--no-pager), times in the user's zone in tables
 * while json keeps the wire value, and who may be asked questions.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cell, localTime } from '../../src/lib/cli/cells.js';
import { formatValue, type FormatOptions, type OutputFormat } from '../../src/lib/cli/output.js';
import { render } from '../../src/lib/cli/render.js';
import { bufferIO } from '../helpers/fakes.js';

/** A whole answer in a format, as render writes it. */
const formatted = async (v: unknown, format: OutputFormat, opts: FormatOptions = {}): Promise<string> =>
  (await formatValue(v, format, opts)).text;

const fakeIO = bufferIO;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const strip = (s: string): string => s.replace(ANSI, '');

const tmp = mkdtempSync(join(tmpdir(), 'cdpctl-cli-output-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const users = {
  users: Array.from({ length: 60 }, (_, i) => ({
    userId: `user-${i}`,
    crn: `crn:altus:iam:us-west-1:0f5e8c3a-7d7b-4f0e-9b8e-3f1c2d4e5a6b:user:${String(i).padStart(8, '0')}-aaaa-bbbb-cccc-dddddddddddd`,
    email: `user-${i}@a-rather-long-domain-name.example.com`,
    creationDate: '2026-11-22T10:00:00.000Z',
  })),
};

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

describe('IO: colour', () => {
  test('auto: on a terminal only', () => {
    expect(fakeIO({ tty: true }).io.colorOn()).toBe(true);
    expect(fakeIO({ tty: false }).io.colorOn()).toBe(false);
    expect(fakeIO({ tty: true, color: 'auto' }).io.colorOn('err')).toBe(true);
  });

  test('NO_COLOR turns it off, even on a terminal', () => {
    expect(fakeIO({ tty: true, env: { NO_COLOR: '1' } }).io.colorOn()).toBe(false);
    expect(fakeIO({ tty: true, env: { NO_COLOR: '' } }).io.colorOn()).toBe(false);
  });

  test('--color on and off win', () => {
    expect(fakeIO({ tty: false, color: 'on' }).io.colorOn()).toBe(true);
    expect(fakeIO({ tty: true, color: 'off' }).io.colorOn()).toBe(false);
    expect(fakeIO({ tty: false, color: 'on', env: { NO_COLOR: '1' } }).io.colorOn()).toBe(true);
  });

  test('FORCE_COLOR turns it on off a terminal', () => {
    expect(fakeIO({ tty: false, env: { FORCE_COLOR: '1' } }).io.colorOn()).toBe(true);
    expect(fakeIO({ tty: false, env: { FORCE_COLOR: '0' } }).io.colorOn()).toBe(false);
  });

  test('render: a table on a terminal is coloured, piped it is not', async () => {
    const tty = fakeIO({ tty: true, columns: 100, rows: 1000 });
    await render(tty.io, users, { format: 'table', listKey: 'users' });
    expect(tty.out.text).toMatch(ANSI);
    const piped = fakeIO({ tty: false, columns: 100 });
    await render(piped.io, users, { format: 'table', listKey: 'users' });
    expect(piped.out.text).not.toMatch(ANSI);
  });

  test('warnings go to stderr, coloured only on a terminal', () => {
    const tty = fakeIO({ tty: true });
    tty.io.warn('careful');
    expect(tty.err.text).toMatch(ANSI);
    expect(tty.out.text).toBe('');
    const piped = fakeIO();
    piped.io.warn('careful');
    expect(piped.err.text).toBe('warning: careful\n');
  });
});

describe('IO: terminal size', () => {
  test('columns: $COLUMNS, else the terminal, else 100', () => {
    expect(fakeIO({ columns: 80 }).io.columns).toBe(80);
    expect(fakeIO({ columns: 80, env: { COLUMNS: '120' } }).io.columns).toBe(120);
    expect(fakeIO({}).io.columns).toBe(100);
    expect(fakeIO({ columns: 0 }).io.columns).toBe(100);
  });
});

describe('IO: who may be asked', () => {
  test('only with stdin and stdout on a terminal, no --no-input and no CI', () => {
    expect(fakeIO({ tty: true }).io.canPrompt).toBe(true);
    expect(fakeIO({ tty: true, stdinTTY: false }).io.canPrompt).toBe(false);
    expect(fakeIO({ tty: false, stdinTTY: true }).io.canPrompt).toBe(false);
    expect(fakeIO({ tty: true, noInput: true }).io.canPrompt).toBe(false);
    expect(fakeIO({ tty: true, env: { CI: 'true' } }).io.canPrompt).toBe(false);
    expect(fakeIO({ tty: true, env: { CI: '1' } }).io.canPrompt).toBe(false);
    expect(fakeIO({ tty: true, env: { CI: 'false' } }).io.canPrompt).toBe(true);
  });
});

describe('IO: pager', () => {
  const long = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') + '\n';
  const pagerTo = (file: string): string => `cat > '${file}'`;

  test('off a terminal, text is written as it is', async () => {
    const file = join(tmp, 'never');
    const { io, out } = fakeIO({ tty: false, rows: 20, env: { PAGER: pagerTo(file) } });
    await io.page(long);
    expect(out.text).toBe(long);
  });

  test('on a terminal, long text goes through $PAGER', async () => {
    const file = join(tmp, 'paged');
    const { io, out } = fakeIO({ tty: true, rows: 20, env: { PAGER: pagerTo(file), PATH: process.env.PATH } });
    await io.page(long);
    expect(out.text).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(long);
  });

  test('CDPCTL_PAGER wins over PAGER', async () => {
    const file = join(tmp, 'cdpctl-pager');
    const { io } = fakeIO({ tty: true, rows: 20, env: { PAGER: 'false', CDPCTL_PAGER: pagerTo(file), PATH: process.env.PATH } });
    await io.page(long);
    expect(readFileSync(file, 'utf8')).toBe(long);
  });

  test('text shorter than the screen is not paged', async () => {
    const file = join(tmp, 'short');
    const { io, out } = fakeIO({ tty: true, rows: 200, env: { PAGER: pagerTo(file), PATH: process.env.PATH } });
    await io.page(long);
    expect(out.text).toBe(long);
  });

  test('--no-pager, an empty PAGER or cat write directly', async () => {
    for (const [opts, env] of [
      [{ pager: false }, { PAGER: pagerTo(join(tmp, 'nopager')) }],
      [{}, { PAGER: '' }],
      [{}, { CDPCTL_PAGER: 'cat' }],
    ] as const) {
      const { io, out } = fakeIO({ tty: true, rows: 20, ...opts, env: { ...env, PATH: process.env.PATH } });
      await io.page(long);
      expect(out.text).toBe(long);
    }
  });

  test('a pager that cannot start falls back to writing', async () => {
    const { io, out } = fakeIO({ tty: true, rows: 20, env: { PAGER: 'no-such-pager-cdpctl-test', PATH: process.env.PATH } });
    await io.page(long);
    expect(out.text).toBe(long);
  });

  test('without PAGER and without less on PATH, nothing is spawned', async () => {
    const { io, out } = fakeIO({ tty: true, rows: 20, env: { PATH: tmp } });
    expect(io.pagerCommand()).toBeUndefined();
    await io.page(long);
    expect(out.text).toBe(long);
  });

  test('render pages long tables on a terminal', async () => {
    const file = join(tmp, 'table');
    const { io, out } = fakeIO({ tty: true, rows: 20, columns: 100, color: 'off', env: { PAGER: pagerTo(file), PATH: process.env.PATH } });
    await render(io, users, { format: 'table', listKey: 'users' });
    expect(out.text).toBe('');
    expect(readFileSync(file, 'utf8')).toContain('user-59');
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
