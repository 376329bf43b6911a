/**
 * HTTP/1.1 answers read as node:http read them (http1.ts): framed by
 * Content-Length, chunked coding or the end of the connection, however the
 * bytes are split; interim 1xx answers skipped; repeated headers kept as
 * node keeps them; a connection reused only when HTTP/1.1 allows it. What
 * is not HTTP, or is larger than allowed, is refused; a request head never
 * carries a header value that would start another header.
 */
import { describe, expect, test } from '@jest/globals';
import { AnswerReader, AnswerTooLarge, ExchangeError, requestHead, type Answer } from '../../../src/lib/core/http1.js';

/** Feeds an answer `step` bytes at a time (1: every split there is); the answer once whole, else undefined. */
function read(text: string | Buffer, opts: { step?: number; max?: number; end?: boolean } = {}): Answer | undefined {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
  const reader = new AnswerReader(opts.max ?? 1 << 20);
  const step = opts.step ?? bytes.length;
  for (let at = 0; at < bytes.length; at += step) if (reader.feed(bytes.subarray(at, at + step))) return reader.answer;
  if (opts.end) reader.end();
  return reader.answer;
}

const everySplit = (text: string, opts: { end?: boolean } = {}): Array<Answer | undefined> =>
  [1, 2, 3, 7, 1000].map((step) => read(text, { ...opts, step }));

describe('answers', () => {
  test('a body framed by Content-Length, split anywhere', () => {
    const text = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"users":1}';
    for (const a of everySplit(text)) {
      expect(a?.status).toBe(200);
      expect(a?.headers['content-type']).toBe('application/json');
      expect(a?.body.toString()).toBe('{"users":1}');
      expect(a?.reusable).toBe(true);
    }
  });

  test('chunked coding, with chunk extensions and trailers, split anywhere', () => {
    const text = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\n{"a":\r\nA\r\n[1,2,3,4]}\r\n0\r\nx-trailer: yes\r\n\r\n';
    for (const a of everySplit(text)) {
      expect(a?.body.toString()).toBe('{"a":[1,2,3,4]}');
      expect(a?.reusable).toBe(true);
    }
  });

  test('a body that runs to the end of the connection is whole only then, and the connection is done', () => {
    const text = 'HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/plain\r\n\r\nbroken';
    expect(read(text)).toBeUndefined();
    const a = read(text, { end: true });
    expect(a?.body.toString()).toBe('broken');
    expect(a?.reusable).toBe(false);
  });

  test('interim answers (100 Continue, 103) come before the real one and are skipped', () => {
    const text =
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n{}';
    for (const a of everySplit(text)) {
      expect(a?.status).toBe(201);
      expect(a?.headers.link).toBeUndefined();
      expect(a?.body.toString()).toBe('{}');
    }
  });

  test('204 and 304 have no body, whatever their headers say', () => {
    expect(read('HTTP/1.1 204 No Content\r\ncontent-length: 10\r\n\r\n')?.body.length).toBe(0);
    expect(read('HTTP/1.1 304 Not Modified\r\n\r\n')?.status).toBe(304);
  });

  test('Connection: close, or HTTP/1.0, leaves the connection unusable', () => {
    expect(read('HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')?.reusable).toBe(false);
    expect(read('HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\ncontent-length: 0\r\n\r\n')?.reusable).toBe(false);
    expect(read('HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n')?.reusable).toBe(false);
  });

  test('repeated headers as node:http gives them: set-cookie a list, most joined, some the first only', () => {
    const a = read(
      'HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nx-cdp-request-id: r1\r\nX-CDP-Request-Id: r2\r\ncontent-type: a/b\r\ncontent-type: c/d\r\ncontent-length: 0\r\n\r\n',
    );
    expect(a?.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(a?.headers['x-cdp-request-id']).toBe('r1, r2');
    expect(a?.headers['content-type']).toBe('a/b');
  });

  test('lines ending in a bare LF are read too', () => {
    expect(read('HTTP/1.1 200 OK\ncontent-length: 2\n\n{}')?.body.toString()).toBe('{}');
  });
});

describe('what is not HTTP is refused', () => {
  const refused = (text: string): unknown => {
    try {
      read(text, { end: true });
    } catch (err) {
      return err;
    }
    return undefined;
  };

  test.each([
    ['not HTTP at all', 'SSH-2.0-OpenSSH_9.6\r\n\r\n'],
    ['a status that is no number', 'HTTP/1.1 2OO OK\r\n\r\n'],
    ['HTTP/2 on an HTTP/1.1 connection', 'HTTP/2 200\r\n\r\n'],
    ['a header line with no name', 'HTTP/1.1 200 OK\r\n: x\r\n\r\n'],
    ['a header line with no colon', 'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n'],
    ['a Content-Length that is no number', 'HTTP/1.1 200 OK\r\ncontent-length: 12abc\r\n\r\n'],
    ['a chunk size that is no number', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n'],
    ['a chunk longer than its size', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n'],
    ['a switch of protocols nobody asked for', 'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n'],
  ])('%s', (_what, text) => {
    expect(refused(text)).toBeInstanceOf(ExchangeError);
  });

  test('headers past 64 KiB, even with no end of them in sight', () => {
    const reader = new AnswerReader(1 << 20);
    expect(() => reader.feed(Buffer.from(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(70 * 1024)}`))).toThrow(ExchangeError);
  });

  test('a body larger than the limit, however it is framed', () => {
    const big = 'x'.repeat(2000);
    expect(() => read(`HTTP/1.1 200 OK\r\ncontent-length: 2000\r\n\r\n`, { max: 1000 })).toThrow(AnswerTooLarge);
    expect(() => read(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n7d0\r\n${big}\r\n0\r\n\r\n`, { max: 1000 })).toThrow(
      AnswerTooLarge,
    );
    expect(() => read(`HTTP/1.1 200 OK\r\n\r\n${big}`, { max: 1000, step: 100 })).toThrow(AnswerTooLarge);
  });
});

describe('request heads', () => {
  const out = (headers: Record<string, string>, target = '/iam/listUsers') => ({ method: 'POST', target, headers, body: Buffer.alloc(0) });

  test('the request line and headers as given', () => {
    expect(requestHead(out({ host: 'localhost:1', 'content-length': '0' }), 'none')).toBe(
      'POST /iam/listUsers HTTP/1.1\r\nhost: localhost:1\r\ncontent-length: 0\r\n\r\n',
    );
    expect(requestHead(out({ host: 'h' }), 'chunked')).toContain('transfer-encoding: chunked\r\n\r\n');
  });

  test('a value with CR or LF (which would start another header), a bad name or target, is refused', () => {
    expect(() => requestHead(out({ authorization: 'Bearer x\r\nx-evil: 1' }), 'none')).toThrow(ExchangeError);
    expect(() => requestHead(out({ 'bad name': 'x' }), 'none')).toThrow(ExchangeError);
    expect(() => requestHead(out({}, '/a b'), 'none')).toThrow(ExchangeError);
  });
});
