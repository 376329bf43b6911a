/**
 * IO with fake streams: colour only on a TTY (NO_COLOR, --color
 * on|off|auto), the terminal's size, who may be asked questions, and a pager
 * for long tables on a TTY (--no-pager).
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from '../../../src/lib/cli/render.js';
import { bufferIO, sixtyUsers as users } from '../../helpers/fakes.js';

const fakeIO = bufferIO;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

const tmp = mkdtempSync(join(tmpdir(), 'cdpctl-cli-output-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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
