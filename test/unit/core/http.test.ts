/**
 * `localhost` is connected to as the loopback addresses themselves (127.0.0.1,
 * then ::1), without a resolver, and the server still sees `Host: localhost`.
 * A server on one family only is reached either way; --force-ipv4 keeps to
 * IPv4; a streamed body is sent whole to the address that answers.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { DEFAULT_HTTP, HttpClient } from '../../../src/lib/core/http.js';
import { CdpError } from '../../../src/lib/core/errors.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

interface Seen {
  readonly host?: string;
  readonly family: string;
  readonly body: string;
}

/** A server on one loopback address; resolves with its port and what it saw. */
async function serveOn(address: string, port = 0): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ host: req.headers.host, family: req.socket.remoteFamily ?? '', body: Buffer.concat(chunks).toString() });
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, address, () => resolve()));
  return { port: (server.address() as AddressInfo).port, seen };
}

const client = (extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient =>
  new HttpClient({ ...DEFAULT_HTTP, maxAttempts: 1, env: {}, ...extra });

const post = (http: HttpClient, port: number, body: Buffer | (() => Readable) = Buffer.from('{"a":1}')) =>
  http.send({
    url: new URL(`http://localhost:${port}/iam/listUsers`),
    headers: { 'content-type': 'application/json' },
    body,
    mutating: false,
    operation: 'listUsers',
  });

describe('http://localhost', () => {
  test('an IPv4 server is reached at 127.0.0.1 and sees Host: localhost:PORT', async () => {
    const { port, seen } = await serveOn('127.0.0.1');
    const http = client();
    const res = await post(http, port);
    http.close();
    expect(res.status).toBe(200);
    expect(seen).toEqual([{ host: `localhost:${port}`, family: 'IPv4', body: '{"a":1}' }]);
  });

  test('a server on ::1 only is reached after 127.0.0.1 refuses, streamed body and all', async () => {
    const { port, seen } = await serveOn('::1');
    const http = client();
    const res = await post(http, port, () => Readable.from([Buffer.from('{"b":'), Buffer.from('2}')]));
    http.close();
    expect(res.status).toBe(200);
    expect(seen).toEqual([{ host: `localhost:${port}`, family: 'IPv6', body: '{"b":2}' }]);
  });

  test('--force-ipv4 does not go to ::1', async () => {
    const { port, seen } = await serveOn('::1');
    const http = client({ ipv4Only: true });
    await expect(post(http, port)).rejects.toThrow(CdpError);
    http.close();
    expect(seen).toEqual([]);
  });

  test('nothing listening on either family: connection refused', async () => {
    const { port } = await serveOn('127.0.0.1');
    await new Promise((r) => servers.pop()?.close(r));
    const http = client();
    await expect(post(http, port)).rejects.toThrow(/connection refused by localhost/);
    http.close();
  });
});
