/**
 * What the console's pages share of HTTP (console/http.ts): the headers
 * every page carries (never cached, framed or sniffed, no referrer, its
 * content security policy), and a small body read whole, refused with 413
 * past its limit.
 */
import { describe, expect, test } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { Refusal } from '../../../../src/lib/emulator/console/flows.js';
import { pageHeaders, readSmallBody } from '../../../../src/lib/emulator/console/http.js';

/** A request whose body is these chunks. */
function request(...chunks: string[]): IncomingMessage {
  const s = new PassThrough();
  setImmediate(() => {
    for (const c of chunks) s.write(c);
    s.end();
  });
  return s as unknown as IncomingMessage;
}

describe('page headers', () => {
  test('HTML in UTF-8, never stored, framed, sniffed or followed by a referrer; the policy given', () => {
    expect(pageHeaders("default-src 'none'")).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
    });
  });
});

describe('small bodies', () => {
  test('read whole, as UTF-8, however they arrive; an empty one is empty', async () => {
    expect(await readSmallBody(request('user=a', '&action=', 'signin'), 64, 'form')).toBe('user=a&action=signin');
    expect(await readSmallBody(request('é'), 64, 'form')).toBe('é');
    expect(await readSmallBody(request(), 64, 'form')).toBe('');
  });

  test('one exactly at the limit is read; one past it is refused with 413, naming what it was', async () => {
    expect(await readSmallBody(request('x'.repeat(16)), 16, 'form')).toHaveLength(16);
    const refused = await readSmallBody(request('x'.repeat(10), 'x'.repeat(10)), 16, 'sign-in form').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      title: 'Too large',
      message: 'The sign-in form is larger than the console accepts.',
    });
  });
});
