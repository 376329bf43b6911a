/**
 * The client in-process, over a fake transport and a fake clock: where a
 * call goes and how it is signed, paging, the service's errors, answers that
 * are no answer, the emulator's pace, workload tokens, and refused redirects.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { OperationClient, type ClientSettings } from '../../../src/lib/core/client.js';
import { CdpError } from '../../../src/lib/core/errors.js';
import { altusDate, canonicalString, fromB64url } from '../../../src/lib/core/signing.js';
import { issueKey } from '../../../src/lib/emulator/keys.js';
import { loadService, type Operation } from '../../../src/lib/model/index.js';
import { FakeClock, FakeTransport, fakeProfile, type Reply } from '../../helpers/fakes.js';

const key = issueKey('V2');
const BASE = 'http://localhost:8080/';
const tmp = mkdtempSync(join(tmpdir(), 'cdpctl-client-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let listUsers: Operation;
let getUser: Operation;
let listFlowDrafts: Operation;
beforeAll(async () => {
  const iam = await loadService('iam');
  listUsers = iam.operation('listUsers');
  getUser = iam.operation('getUser');
  listFlowDrafts = (await loadService('dataflow')).operation('listFlowDrafts');
});

function client(transport: FakeTransport, settings: Partial<ClientSettings> = {}, clock = new FakeClock()): OperationClient {
  return new OperationClient({
    endpointUrl: BASE,
    env: { CDP_ACCESS_KEY_ID: 'test-key', CDP_PRIVATE_KEY: key.privateKey, CDPCTL_TOKEN_CACHE: join(tmp, 'tokens.json') },
    profileSettings: () => fakeProfile(),
    transport,
    clock,
    ...settings,
  });
}

const page = (users: string[], nextToken?: string): Reply => ({
  body: { users: users.map((userId) => ({ userId })), ...(nextToken ? { nextToken } : {}) },
});

describe('a call', () => {
  test('goes to the operation path on the endpoint as JSON, signed for the clock’s date', async () => {
    const transport = new FakeTransport(() => ({ body: { user: { userId: 'u1' } } }));
    const clock = new FakeClock();
    const answer = await client(transport, {}, clock).call(getUser, { userId: 'u1' });
    expect(answer).toEqual({ user: { userId: 'u1' } });
    const [sent] = transport.sent;
    expect(sent?.url.href).toBe('http://localhost:8080/iam/getUser');
    expect(sent?.body).toEqual({ userId: 'u1' });
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers['x-altus-date']).toBe(altusDate(new Date(clock.now())));
    const [head = '', signature = ''] = (sent?.headers['x-altus-auth'] ?? '').split('.');
    expect(JSON.parse(fromB64url(head).toString('utf8'))).toEqual({ access_key_id: 'test-key', auth_method: 'ed25519v1' });
    const signed = canonicalString('POST', 'application/json', altusDate(new Date(clock.now())), '/iam/getUser', 'ed25519v1');
    expect(verify(null, Buffer.from(signed), createPublicKey(key.publicKey), fromB64url(signature))).toBe(true);
  });

  test('a service error becomes a CdpError with its code, status and request id', async () => {
    const transport = new FakeTransport(() => ({
      status: 404,
      body: { code: 'NOT_FOUND', message: 'user u9 not found' },
      headers: { 'x-cdp-request-id': 'req-1' },
    }));
    const err = await client(transport)
      .call(getUser, { userId: 'u9' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CdpError);
    expect(err).toMatchObject({ code: 'NOT_FOUND', message: 'user u9 not found', status: 404, requestId: 'req-1', exitCode: 1 });
  });

  test.each([
    ['[]', 'a list'],
    ['null', 'null'],
    ['42', 'a number'],
  ])('an answer of %s is a bad response, not an empty result', async (body, what) => {
    const transport = new FakeTransport(() => ({ body }));
    await expect(client(transport).call(getUser, {})).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: `iam getUser: the answer is not a JSON object (it is ${what})`,
    });
  });

  test('an upload redirected to another origin is refused and nothing is sent', async () => {
    const transport = new FakeTransport();
    const upload = { open: () => Readable.from([Buffer.from('x')]), headers: {}, url: 'http://elsewhere.example:9/upload' };
    await expect(client(transport).call(getUser, {}, upload)).rejects.toMatchObject({ code: 'REDIRECT_REFUSED' });
    expect(transport.sent).toEqual([]);
  });

  test('close lets the transport go', () => {
    const transport = new FakeTransport();
    client(transport).close();
    expect(transport.closed).toBe(1);
  });
});

describe('paging', () => {
  test('follows the token until the service gives none, asking the default page size', async () => {
    const transport = FakeTransport.byPath({ '/iam/listUsers': [page(['a', 'b'], 't1'), page(['c'])] });
    const pages = [];
    for await (const p of client(transport).pages(listUsers, {})) pages.push(p.items);
    expect(pages).toEqual([[{ userId: 'a' }, { userId: 'b' }], [{ userId: 'c' }]]);
    expect(transport.sent.map((s) => s.body)).toEqual([{ pageSize: 100 }, { pageSize: 100, startingToken: 't1' }]);
  });

  test('--max-items asks for what is still needed and keeps the token to resume from', async () => {
    const transport = FakeTransport.byPath({ '/iam/listUsers': [page(['a', 'b'], 't1'), page(['c', 'd'], 't2')] });
    const pages = [];
    for await (const p of client(transport).pages(listUsers, {}, { maxItems: 3 })) pages.push(p);
    expect(pages.map((p) => p.items.length)).toEqual([2, 1]);
    expect(pages[1]?.nextToken).toBe('t2');
    expect(transport.sent.map((s) => s.body)).toEqual([{ pageSize: 3 }, { pageSize: 1, startingToken: 't1' }]);
  });

  test('read ahead: the next page is asked for before the caller is done with this one, never past --max-items', async () => {
    const transport = FakeTransport.byPath({ '/iam/listUsers': [page(['a', 'b'], 't1'), page(['c', 'd'], 't2'), page(['e'])] });
    const askedWhileHolding: number[] = [];
    for await (const _ of client(transport).pages(listUsers, {}, { readAhead: true, maxItems: 4, pageSize: 2 })) {
      await new Promise((r) => setImmediate(r));
      askedWhileHolding.push(transport.sent.length);
    }
    // Holding page 1, page 2 was already asked for; holding page 2 (the 4th item), nothing more.
    expect(askedWhileHolding).toEqual([2, 2]);
    expect(transport.sent.map((s) => s.body)).toEqual([{ pageSize: 2 }, { pageSize: 2, startingToken: 't1' }]);
  });

  test('without read ahead, a page is asked for only when the caller wants it', async () => {
    const transport = FakeTransport.byPath({ '/iam/listUsers': [page(['a'], 't1'), page(['b'])] });
    const asked: number[] = [];
    for await (const _ of client(transport).pages(listUsers, {})) {
      await new Promise((r) => setImmediate(r));
      asked.push(transport.sent.length);
    }
    expect(asked).toEqual([1, 2]);
  });

  test('every page of one second carries the same signature; the next second signs anew', async () => {
    const clock = new FakeClock();
    const transport = FakeTransport.byPath({ '/iam/listUsers': [page(['a'], 't1'), page(['b'], 't2'), page(['c'])] });
    // ECDSA signatures differ every time they are made: equal ones were made once.
    const ecdsa = issueKey('V3');
    const env = { CDP_ACCESS_KEY_ID: 'test-key', CDP_PRIVATE_KEY: ecdsa.privateKey };
    const pages = client(transport, { env }, clock).pages(listUsers, {});
    await pages.next();
    await pages.next();
    clock.advance(1000);
    await pages.next();
    const [first, second, third] = transport.sent.map((s) => s.headers['x-altus-auth']);
    expect(second).toBe(first);
    expect(third).not.toBe(first);
    expect(transport.sent[2]?.headers['x-altus-date']).toBe(altusDate(new Date(clock.now())));
  });

  test('--no-paginate makes one call as given', async () => {
    const transport = FakeTransport.byPath({ '/iam/listUsers': page(['a'], 't1') });
    const pages = [];
    for await (const p of client(transport).pages(listUsers, { pageSize: 1 }, { noPaginate: true })) pages.push(p);
    expect(pages).toEqual([{ response: { users: [{ userId: 'a' }], nextToken: 't1' }, items: [{ userId: 'a' }], nextToken: 't1' }]);
    expect(transport.sent.map((s) => s.body)).toEqual([{ pageSize: 1 }]);
  });
});

describe('the emulator’s pace', () => {
  test('a loopback server’s time scale is believed; another server’s is not', async () => {
    const fast = { headers: { 'x-cdp-emulator-time-scale': '1000' } };
    const local = client(new FakeTransport(() => fast));
    await local.call(getUser, {});
    expect(local.pace).toBe(1000);
    const remote = client(new FakeTransport(() => fast), { endpointUrl: 'https://api.example.com/' });
    await remote.call(getUser, {});
    expect(remote.pace).toBe(1);
  });
});

describe('workload services', () => {
  test('exchange a token once, then call the workload endpoint with it; a 401 exchanges again', async () => {
    let exchanged = 0;
    const transport = new FakeTransport((req) => {
      if (req.url.pathname === '/iam/generateWorkloadAuthToken') {
        exchanged++;
        return { body: { token: `tok-${exchanged}`, endpointUrl: 'http://localhost:9090/dfx/', expireAt: '2099-01-01T00:00:00Z' } };
      }
      return req.headers.authorization === 'Bearer tok-1'
        ? { status: 401, body: { code: 'UNAUTHENTICATED', message: 'no' } }
        : { body: {} };
    });
    await client(transport).call(listFlowDrafts, { environmentCrn: 'crn:env' });
    expect(transport.sent.map((s) => [s.url.href, s.headers.authorization])).toEqual([
      ['http://localhost:8080/iam/generateWorkloadAuthToken', undefined],
      ['http://localhost:9090/dfx/api/rpc-v1/fd-proxy/list-flow-drafts', 'Bearer tok-1'],
      ['http://localhost:8080/iam/generateWorkloadAuthToken', undefined],
      ['http://localhost:9090/dfx/api/rpc-v1/fd-proxy/list-flow-drafts', 'Bearer tok-2'],
    ]);
    expect(transport.sent[0]?.body).toEqual({ workloadName: 'DF', environmentCrn: 'crn:env' });
  });

  test('a token given with --access-token goes to the service’s own endpoint, unexchanged', async () => {
    const transport = new FakeTransport();
    await client(transport, { accessToken: 'given' }).call(listFlowDrafts, { environmentCrn: 'crn:env' });
    expect(transport.sent.map((s) => [s.url.href, s.headers.authorization])).toEqual([
      ['http://localhost:8080/dfx/api/rpc-v1/fd-proxy/list-flow-drafts', 'Bearer given'],
    ]);
  });
});
