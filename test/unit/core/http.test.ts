/**
 * The transport (core/http.ts on http1.ts): `localhost` is connected to as
 * the loopback addresses themselves (127.0.0.1, then ::1), without a
 * resolver, and the server still sees `Host: localhost`. A server on one
 * family only is reached either way; --force-ipv4 keeps to IPv4; a streamed
 * body is sent whole to the address that answers. What node:http gave
 * cdpctl is still there: kept-alive connections, chunked answers and
 * uploads, TLS with --ca-bundle and --no-verify-tls, HTTP_PROXY (absolute
 * form) and HTTPS_PROXY (a CONNECT tunnel), NO_PROXY.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DEFAULT_HTTP, HttpClient } from '../../../src/lib/core/http.js';
import { CdpError } from '../../../src/lib/core/errors.js';
import { localhostCertificate } from '../../helpers/tls.js';

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

/** A server answering every request with `answer`; counts the connections it was opened. */
async function serveWith(
  answer: (req: IncomingMessage, body: string, res: import('node:http').ServerResponse) => void,
): Promise<{ port: number; connections: () => number; seen: Array<{ url?: string; headers: IncomingMessage['headers']; body: string }> }> {
  const seen: Array<{ url?: string; headers: IncomingMessage['headers']; body: string }> = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ url: req.url, headers: req.headers, body });
      answer(req, body, res);
    });
  });
  server.on('connection', () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.address() as AddressInfo).port, connections: () => connections, seen };
}

describe('HTTP/1.1 on node sockets', () => {
  test('requests of one client share a kept-alive connection', async () => {
    const s = await serveWith((_req, body, res) => res.end(body));
    const http = client();
    for (let i = 0; i < 5; i++) expect((await post(http, s.port, Buffer.from(`{"n":${i}}`))).body.toString()).toBe(`{"n":${i}}`);
    expect(s.connections()).toBe(1);
    expect(s.seen.map((r) => r.headers['content-length'])).toEqual(['7', '7', '7', '7', '7']);
    http.close();
  });

  test('a chunked answer, written in parts, is read whole', async () => {
    const s = await serveWith((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"users":[');
      setTimeout(() => res.end('1,2,3]}'), 20);
    });
    const http = client();
    const res = await post(http, s.port);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(JSON.parse(res.body.toString())).toEqual({ users: [1, 2, 3] });
    http.close();
  });

  test('a streamed body goes chunked, or as exactly the Content-Length it was given', async () => {
    const s = await serveWith((_req, body, res) => res.end(body));
    const http = client();
    const stream = () => Readable.from([Buffer.from('abc'), Buffer.from('def')]);
    expect((await post(http, s.port, stream)).body.toString()).toBe('abcdef');
    expect(s.seen[0]?.headers['transfer-encoding']).toBe('chunked');
    const res = await http.send({
      url: new URL(`http://localhost:${s.port}/upload`),
      headers: { 'content-type': 'application/octet-stream', 'content-length': '6' },
      body: stream,
      mutating: true,
      operation: 'upload',
    });
    expect(res.body.toString()).toBe('abcdef');
    expect(s.seen[1]?.headers['content-length']).toBe('6');
    http.close();
  });

  test('a stream that ends short of its Content-Length fails the attempt rather than hang', async () => {
    const s = await serveWith((_req, body, res) => res.end(body));
    const http = client({ readTimeoutMs: 60_000 });
    await expect(
      http.send({
        url: new URL(`http://localhost:${s.port}/upload`),
        headers: { 'content-length': '10' },
        body: () => Readable.from([Buffer.from('abc')]),
        mutating: true,
        operation: 'upload',
      }),
    ).rejects.toThrow(/7 bytes short/);
    http.close();
  });

  test('an answer cut off in the middle is an error, not a short body', async () => {
    const s = await serveWith((_req, _body, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const http = client();
    await expect(post(http, s.port)).rejects.toThrow(/closed before the answer was complete/);
    http.close();
  });

  test('a header value that would start another header is refused before anything is sent', async () => {
    const s = await serveWith((_req, body, res) => res.end(body));
    const http = client();
    await expect(
      http.send({
        url: new URL(`http://localhost:${s.port}/x`),
        headers: { authorization: 'Bearer a\r\nx-injected: 1' },
        body: Buffer.from('{}'),
        mutating: false,
        operation: 'x',
      }),
    ).rejects.toThrow(/nothing was sent/);
    expect(s.seen).toEqual([]);
    http.close();
  });
});

describe('TLS', () => {
  const cert = localhostCertificate();
  async function serveTls(): Promise<number> {
    const server = createHttpsServer({ cert: cert.cert, key: cert.key }, (_req, res) => res.end('{"secure":true}'));
    servers.push(server as unknown as Server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return (server.address() as AddressInfo).port;
  }
  const get = (http: HttpClient, url: string) =>
    http.send({ url: new URL(url), headers: {}, body: Buffer.from('{}'), mutating: false, operation: 'x' });

  test('a certificate nobody vouches for is refused, with what to do', async () => {
    const port = await serveTls();
    const http = client();
    await expect(get(http, `https://localhost:${port}/`)).rejects.toThrow(/not trusted.*--ca-bundle or --no-verify-tls/);
    http.close();
  });

  test('--ca-bundle trusts it, by name and by address; --no-verify-tls takes it as it is', async () => {
    const port = await serveTls();
    const bundle = join(mkdtempSync(join(tmpdir(), 'cdpctl-ca-')), 'ca.pem');
    writeFileSync(bundle, cert.cert);
    const trusting = client({ caBundle: bundle });
    expect((await get(trusting, `https://localhost:${port}/`)).body.toString()).toBe('{"secure":true}');
    expect((await get(trusting, `https://127.0.0.1:${port}/`)).body.toString()).toBe('{"secure":true}');
    trusting.close();
    const trustingAll = client({ verifyTls: false });
    expect((await get(trustingAll, `https://localhost:${port}/`)).status).toBe(200);
    trustingAll.close();
  });

  test('HTTPS_PROXY: a CONNECT tunnel, the proxy credentials from its URL, TLS to the server inside it', async () => {
    const port = await serveTls();
    const asked: string[] = [];
    const proxy = createNetServer((client) => {
      client.once('data', (head: Buffer) => {
        const text = head.toString('latin1');
        asked.push(text.split('\r\n\r\n')[0] ?? '');
        const target = /^CONNECT ([^ ]+) /.exec(text)?.[1] ?? '';
        const upstream = connect(Number(target.split(':').pop()), '127.0.0.1', () => {
          client.write('HTTP/1.1 200 Connection established\r\n\r\n');
          client.pipe(upstream).pipe(client);
        });
      });
    });
    servers.push(proxy as unknown as Server);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
    const proxyPort = (proxy.address() as AddressInfo).port;
    const http = client({ verifyTls: false, env: { HTTPS_PROXY: `http://me:p%40ss@127.0.0.1:${proxyPort}` } });
    expect((await get(http, `https://api.example.test:${port}/`)).body.toString()).toBe('{"secure":true}');
    http.close();
    expect(asked[0]).toMatch(new RegExp(`^CONNECT api\\.example\\.test:${port} HTTP/1\\.1\\r\\n`));
    expect(asked[0]).toContain(`proxy-authorization: Basic ${Buffer.from('me:p@ss').toString('base64')}`);
  });
});

describe('HTTP_PROXY', () => {
  test('a plain-HTTP request goes to the proxy, in absolute form; NO_PROXY and loopback go straight', async () => {
    const proxy = await serveWith((_req, _body, res) => res.end('{"via":"proxy"}'));
    const direct = await serveWith((_req, _body, res) => res.end('{"via":"direct"}'));
    const env = { HTTP_PROXY: `127.0.0.1:${proxy.port}`, NO_PROXY: '.internal.test' };
    const http = client({ env });
    const send = (url: string) => http.send({ url: new URL(url), headers: {}, body: Buffer.from('{}'), mutating: false, operation: 'x' });
    expect((await send('http://api.example.test/iam/listUsers')).body.toString()).toBe('{"via":"proxy"}');
    expect(proxy.seen[0]?.url).toBe('http://api.example.test/iam/listUsers');
    expect(proxy.seen[0]?.headers.host).toBe('api.example.test');
    expect((await send(`http://localhost:${direct.port}/x`)).body.toString()).toBe('{"via":"direct"}');
    await expect(send('http://db.internal.test:9/x')).rejects.toThrow(CdpError);
    expect(proxy.seen).toHaveLength(1);
    http.close();
  });

  test('a proxy variable that is no URL is said so, and nothing is sent', async () => {
    const http = client({ env: { HTTP_PROXY: 'ftp://proxy:21' } });
    await expect(
      http.send({ url: new URL('http://api.example.test/x'), headers: {}, body: Buffer.from('{}'), mutating: false, operation: 'x' }),
    ).rejects.toThrow(/HTTP_PROXY is not an http:\/\/ or https:\/\/ proxy URL/);
    http.close();
  });
});
