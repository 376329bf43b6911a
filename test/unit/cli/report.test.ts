/**
 * Errors as a user sees them, in-process: `code: message` with its details
 * (or one JSON line with --output json) on stderr, one line each with its
 * control characters escaped, and the exit code of its kind.
 */
import { describe, expect, test } from '@jest/globals';
import { reportError, toCdpError } from '../../../src/lib/cli/report.js';
import { ExitCode, serviceError, usageError, cdpError } from '../../../src/lib/core/errors.js';
import { bufferIO } from '../../helpers/fakes.js';

const report = (err: unknown, opts: { json?: boolean; debug?: boolean; color?: boolean } = {}) => {
  const { io, out, err: stderr } = bufferIO();
  const code = reportError(err, { json: false, debug: false, ...opts, io });
  return { code, stderr: stderr.text, stdout: out.text };
};

describe('reportError', () => {
  test('a usage error: its code and message, then its details indented (exit 2)', () => {
    expect(report(usageError('--group-name is required', ['--sync is not a flag']))).toEqual({
      code: ExitCode.usage,
      stderr: 'INVALID_INPUT: --group-name is required\n  --sync is not a flag\n',
      stdout: '',
    });
  });

  test('a service error says where it came from (exit 1)', () => {
    const e = serviceError({
      status: 404,
      code: 'NOT_FOUND',
      message: 'group ops not found',
      service: 'iam',
      operation: 'deleteGroup',
      requestId: 'r-1',
    });
    const { code, stderr } = report(e);
    expect(code).toBe(1);
    expect(stderr).toBe(
      'NOT_FOUND: group ops not found\n  (Status Code: 404; Error Code: NOT_FOUND; Service: iam; Operation: deleteGroup; Request ID: r-1)\n',
    );
  });

  test('with --output json, one JSON line', () => {
    const e = serviceError({ status: 404, code: 'NOT_FOUND', message: 'gone', service: 'iam', operation: 'getUser' });
    expect(JSON.parse(report(e, { json: true }).stderr)).toEqual({
      error: { code: 'NOT_FOUND', message: 'gone', status: 404, service: 'iam', operation: 'getUser' },
    });
  });

  test('control characters from a server are shown escaped, and a message stays on one line', () => {
    const e = cdpError({ kind: 'service', code: 'BAD\u001b[31m', message: 'line one\nline two \u0007' });
    expect(report(e).stderr).toBe('BAD\\u001b[31m: line one\\u000aline two \\u0007\n');
  });

  test('the code is red only when colour is on', () => {
    expect(report(usageError('no'), { color: true }).stderr).toBe('\u001b[31mINVALID_INPUT\u001b[39m: no\n');
    expect(report(usageError('no'), { color: false }).stderr).toBe('INVALID_INPUT: no\n');
  });

  test('an unexpected error is INTERNAL_ERROR (exit 1); its stack only with --debug', () => {
    const boom = new Error('boom');
    expect(report(boom)).toEqual({ code: 1, stderr: 'INTERNAL_ERROR: boom\n', stdout: '' });
    const debug = report(boom, { debug: true }).stderr.split('\n');
    expect(debug[0]).toBe('INTERNAL_ERROR: boom');
    expect(debug[1]).toBe('Error: boom');
    expect(debug[2]).toMatch(/^ {4}at /);
  });

  test('a reader that went away (EPIPE) is no error: nothing is said, exit 0', () => {
    expect(report(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toEqual({ code: 0, stderr: '', stdout: '' });
  });
});

describe('toCdpError', () => {
  test('a CdpError is itself; anything else is an internal error that keeps its cause', () => {
    const e = usageError('x');
    expect(toCdpError(e)).toBe(e);
    const cause = new TypeError('nope');
    expect(toCdpError(cause)).toMatchObject({ code: 'INTERNAL_ERROR', message: 'nope', kind: 'service', cause });
    expect(toCdpError('text')).toMatchObject({ code: 'INTERNAL_ERROR', message: 'text' });
  });
});
