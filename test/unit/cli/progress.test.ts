/**
 * Progress on stderr, in-process with a fake clock: on a terminal a spinner
 * redrawn in place whose clock ticks, replaced at the end by one line that
 * says how the wait ended; elsewhere one plain line per change.
 */
import { describe, expect, test } from '@jest/globals';
import { startSpinner, WaitProgress } from '../../../src/lib/cli/progress.js';
import { bufferIO, FakeClock } from '../../helpers/fakes.js';

const ERASE = '\r\u001b[2K';

describe('WaitProgress off a terminal', () => {
  test('one line per change, no control characters, nothing at the end', () => {
    const { io, err } = bufferIO({ tty: false });
    const progress = new WaitProgress(io, 'datalake stop', new FakeClock());
    progress.update('STOP_IN_PROGRESS', 0);
    progress.update('STOPPED', 65_000);
    progress.end({ kind: 'done', state: 'STOPPED' });
    expect(err.text).toBe('datalake stop: STOP_IN_PROGRESS after 0 ms\ndatalake stop: STOPPED after 1m 05s\n');
  });

  test('a state the server named shows its control characters escaped', () => {
    const { io, err } = bufferIO({ tty: false });
    new WaitProgress(io, 'x', new FakeClock()).update('BAD\u001b[2J', 0);
    expect(err.text).toBe('x: BAD\\u001b[2J after 0 ms\n');
  });
});

describe('WaitProgress on a terminal', () => {
  test('the spinner line is redrawn as the clock ticks, then replaced by how it ended', () => {
    const clock = new FakeClock();
    const { io, err } = bufferIO({ tty: true, color: 'off', columns: 80 });
    const progress = new WaitProgress(io, 'datalake stop', clock);
    progress.update('STOP_IN_PROGRESS', 2000);
    expect(err.text).toBe(`${ERASE}⠋ Waiting for datalake stop: STOP_IN_PROGRESS (2s)`);
    clock.advance(1000);
    expect(err.text.endsWith(`${ERASE}⠙ Waiting for datalake stop: STOP_IN_PROGRESS (3s)`)).toBe(true);
    err.text = '';
    progress.end({ kind: 'done', state: 'STOPPED' }, 4200);
    expect(err.text).toBe(`${ERASE}✓ datalake stop: STOPPED after 4.2 s\n`);
    expect(clock.ticking).toBe(0);
  });

  test.each([
    [{ kind: 'failed', state: 'STOP_FAILED' } as const, '✗ x: failed (STOP_FAILED) after 1.0 s'],
    [{ kind: 'timeout' } as const, '✗ x: gave up waiting at RUNNING after 1.0 s'],
    [{ kind: 'interrupted' } as const, '✗ x: stopped waiting at RUNNING after 1.0 s'],
  ])('a wait that ends %o says so', (how, line) => {
    const { io, err } = bufferIO({ tty: true, color: 'off' });
    const progress = new WaitProgress(io, 'x', new FakeClock());
    progress.update('RUNNING', 1000);
    err.text = '';
    progress.end(how);
    expect(err.text).toBe(`${ERASE}${line}\n`);
  });

  test('a long line is cut to the terminal so that it can be redrawn in place', () => {
    const { io, err } = bufferIO({ tty: true, color: 'off', columns: 30 });
    new WaitProgress(io, 'a-rather-long-command-name', new FakeClock()).update('CREATE_IN_PROGRESS', 0);
    const drawn = err.text.slice(ERASE.length);
    expect([...drawn].length).toBeLessThanOrEqual(29);
    expect(drawn.endsWith('…')).toBe(true);
  });
});

describe('startSpinner', () => {
  test('on a terminal: a spinner, stopped once with a closing word', () => {
    const clock = new FakeClock();
    const { io, err } = bufferIO({ tty: true, color: 'off' });
    const stop = startSpinner(io, 'Waiting for you to sign in', clock);
    expect(err.text).toBe(`${ERASE}⠋ Waiting for you to sign in (0s)`);
    stop('done');
    stop('again');
    expect(err.text.endsWith(`${ERASE}Waiting for you to sign in... done\n`)).toBe(true);
    expect(clock.ticking).toBe(0);
  });

  test('elsewhere: the message once', () => {
    const { io, err } = bufferIO({ tty: false });
    startSpinner(io, 'Waiting', new FakeClock())('done');
    expect(err.text).toBe('Waiting…\n');
  });
});
