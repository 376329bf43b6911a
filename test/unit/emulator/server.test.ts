/**
 * What the emulator's server does with bodies it must refuse, seen by a
 * client on the socket: a body over the size limit is answered 413 with the
 * wire's Error, and the connection goes on serving; a body that is not valid
 * UTF-8 is INVALID_ARGUMENT and nothing is stored (bytes are never replaced
 * by U+FFFD).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { connect } from 'node:net';
import { postJson, send, signed, startInProcess, type InProcessEmulator } from '../../reliability/helpers.js';

const LIMIT = 64 * 1024;
let E: InProcessEmulator;

beforeAll(async () => {
  E = await startInProcess({ maxBodyBytes: LIMIT });
});

afterAll(async () => {
  await E?.stop();
});

/**
 * Writes requests on one connection, the whole of each body before reading
 * (as a client that does not look at early answers does), and returns the
 * answers in order: status and JSON body.
 */
function onOneConnection(requests: Buffer[]): Promise<Array<{ status: number; body: Record<string, unknown> }>> {
  return new Promise((resolve, reject) => {
    const sock = connect(E.port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    const answers: Array<{ status: number; body: Record<string, unknown> }> = [];
    sock.on('error', reject);
    sock.on('data', (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      for (;;) {
        const head = buf.indexOf('\r\n\r\n');
        if (head < 0) return;
        const text = buf.subarray(0, head).toString('latin1');
        const len = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0);
        if (buf.length < head + 4 + len) return;
        answers.push({
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]),
          body: JSON.parse(buf.subarray(head + 4, head + 4 + len).toString('utf8')) as Record<string, unknown>,
        });
        buf = buf.subarray(head + 4 + len);
        if (answers.length === requests.length) {
          sock.end();
          resolve(answers);
          return;
        }
      }
    });
    void (async () => {
      for (const r of requests) if (!sock.write(r)) await new Promise((ok) => sock.once('drain', ok));
    })();
  });
}

function raw(path: string, body: Buffer, chunked = false): Buffer {
  const headers = { ...signed(E.key, path), host: `localhost:${E.port}` };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  lines.push(chunked ? 'transfer-encoding: chunked' : `content-length: ${body.length}`);
  const framed = chunked ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]) : body;
  return Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`), framed]);
}

const user = (email: string): Buffer => Buffer.from(JSON.stringify({ email, identityProviderUserId: email }));

describe('a body over the size limit', () => {
  test.each([
    ['declared by its length', false],
    ['found while reading a chunked body', true],
  ])('%s: the client sees 413 with an Error, and the connection serves the next request', async (_what, chunked) => {
    const big = user(`${'x'.repeat(LIMIT * 8)}@example.com`);
    const [over, next] = await onOneConnection([raw('/iam/createUser', big, chunked), raw('/iam/getUser', Buffer.from('{}'))]);
    expect(over).toEqual({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE', message: `the request body is over ${LIMIT} bytes` } });
    expect(next?.status).toBe(200);
    expect(E.emu.stats.errors).toBe(0);
  });
});

describe('a body that is not valid UTF-8', () => {
  test('is refused with INVALID_ARGUMENT and nothing is stored', async () => {
    const bad = Buffer.concat([
      Buffer.from('{"email":"broken-bytes'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('@example.com","identityProviderUserId":"b"}'),
    ]);
    const r = await send(E.port, { path: '/iam/createUser', headers: signed(E.key, '/iam/createUser'), body: bad });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ code: 'INVALID_ARGUMENT', message: 'the request body is not valid UTF-8' });
    const users = await postJson(E.port, E.key, '/iam/listUsers', {});
    const emails = ((users.json?.users ?? []) as Array<{ email: string }>).map((u) => u.email);
    expect(emails.some((e) => e.includes('broken-bytes') || e.includes('\ufffd'))).toBe(false);
  });

  test('valid UTF-8 beyond ASCII is taken as it is', async () => {
    const r = await postJson(E.port, E.key, '/iam/createUser', { email: 'zoë@example.com', identityProviderUserId: 'zoë' });
    expect(r.status).toBe(200);
    expect((r.json?.user as { email: string }).email).toBe('zoë@example.com');
  });
});
