/**
 * Bad requests to the emulator: malformed JSON, wrong content types, bodies
 * over the limit, unknown paths, wrong methods, missing/duplicated/garbage
 * headers, raw garbage on the socket, and fuzzed documents for every
 * operation. Each gets a 4xx (an Error body where it reaches the emulator's
 * code); nothing answers 500 for a bad request and the server keeps serving.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { preCreatedEnvironmentCrn } from '../../src/lib/emulator/shared/pre-created.js';
import { loadAllServices, type Operation } from '../../src/lib/model/index.js';
import { defectArb, noiseArb, type Doc } from './fuzz.js';
import { isErrorBody, postJson, send, sendRaw, signed, startInProcess, type InProcessEmulator, type Reply } from './helpers.js';

let E: InProcessEmulator;
let ops: Operation[] = [];
let bearer = '';
const tried = { http: 0, fuzzed: 0, random: 0 };
const statuses = new Map<number, number>();
const RUNS = Number(process.env.RELIABILITY_EMU_RUNS ?? 3);

beforeAll(async () => {
  E = await startInProcess({ maxBodyBytes: 64 * 1024 });
  // Composed operations (cdp df create-deployment...) run on the client: they have no path to send to.
  ops = (await loadAllServices()).flatMap((s) => s.operations()).filter((op) => !op.composed);
  const r = await postJson(E.port, E.key, '/iam/generateWorkloadAuthToken', {
    workloadName: 'DF',
    environmentCrn: preCreatedEnvironmentCrn(E.accountId, E.emu.region, 'sales-env'),
  });
  expect(r.status).toBe(200);
  bearer = String(r.json?.token ?? '');
});

afterAll(async () => {
  const alive = await send(E.port, { method: 'GET', path: '/_emulator/health' });
  expect(alive.status).toBe(200);
  expect(E.emu.stats.errors).toBe(0);
  await E.stop();
  console.log(
    `reliability: emulator bad input: ${tried.http} malformed HTTP requests, ${tried.fuzzed} defective documents, ${tried.random} random documents; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
});

function count(r: { status: number }): void {
  statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
}

/** 4xx with the wire's Error body. */
function expect4xx(r: Reply, what: string): void {
  count(r);
  if (r.status < 400 || r.status >= 500 || !isErrorBody(r)) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
}

function headersFor(op: Operation): Record<string, string> {
  return op.service.def.endpoint === 'workload'
    ? { 'content-type': 'application/json', authorization: `Bearer ${bearer}` }
    : signed(E.key, op.path);
}

const iamPath = '/iam/getUser';

describe('malformed HTTP', () => {
  test('bodies: malformed JSON, not an object, wrong content types, over the limit', async () => {
    const bodies: Array<[string, string | Buffer, string?]> = [
      ['truncated', '{"userId": '],
      ['trailing garbage', '{} x'],
      ['invalid utf-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
      ['array', '[]'],
      ['number', '42'],
      ['string', '"x"'],
      ['null', 'null'],
      ['deep', '['.repeat(100_000) + ']'.repeat(100_000)],
      ['deep object', '{"userId":' + '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_001)],
      ['proto', '{"__proto__": {"x": 1}}'],
      ['text/plain', '{}', 'text/plain'],
      ['form', 'a=1', 'application/x-www-form-urlencoded'],
      ['octet-stream', '{}', 'application/octet-stream'],
      ['json with charset', '{"zzz": 1}', 'application/json; charset=utf-8'],
      ['empty content type', '{}', ''],
    ];
    for (const [what, body, contentType] of bodies) {
      tried.http++;
      const r = await send(E.port, { path: iamPath, headers: signed(E.key, iamPath, { contentType }), body });
      expect4xx(r, what);
    }
    // Declared over the limit: refused before reading.
    tried.http++;
    const big = Buffer.alloc(64 * 1024 + 1, 0x20);
    expect4xx(await send(E.port, { path: iamPath, headers: signed(E.key, iamPath), body: big }), 'over the limit');
    expect((await send(E.port, { path: iamPath, headers: signed(E.key, iamPath), body: big })).status).toBe(413);
    // Chunked, so the limit is found while reading.
    tried.http++;
    const chunked = await send(E.port, {
      path: iamPath,
      headers: { ...signed(E.key, iamPath), 'transfer-encoding': 'chunked' },
      body: Buffer.alloc(200 * 1024, 0x20),
    });
    expect(chunked.status).toBe(413);
    count(chunked);
  });

  test('paths, methods and headers', async () => {
    const cases: Array<[string, Parameters<typeof send>[1]]> = [
      ['unknown path', { path: '/iam/noSuchOperation', headers: signed(E.key, '/iam/noSuchOperation'), body: '{}' }],
      ['root', { path: '/', body: '{}' }],
      ['traversal', { path: '/iam/../etc/passwd', body: '{}' }],
      ['encoded', { path: '/iam/%67etUser%00', body: '{}' }],
      ['huge path', { path: '/' + 'a'.repeat(6000), body: '{}' }],
      ['GET', { method: 'GET', path: iamPath }],
      ['PUT', { method: 'PUT', path: iamPath, body: '{}' }],
      ['DELETE', { method: 'DELETE', path: iamPath }],
      ['OPTIONS', { method: 'OPTIONS', path: iamPath }],
      ['no auth', { path: iamPath, headers: { 'content-type': 'application/json' }, body: '{}' }],
      [
        'no date',
        {
          path: iamPath,
          headers: { 'content-type': 'application/json', 'x-altus-auth': signed(E.key, iamPath)['x-altus-auth'] ?? '' },
          body: '{}',
        },
      ],
      [
        'duplicated auth',
        {
          path: iamPath,
          headers: { ...signed(E.key, iamPath), 'x-altus-auth': [signed(E.key, iamPath)['x-altus-auth'] ?? '', 'x.y'] },
          body: '{}',
        },
      ],
      [
        'duplicated date',
        { path: iamPath, headers: { ...signed(E.key, iamPath), 'x-altus-date': ['Mon, 01 Jan 2024 00:00:00 GMT', 'x'] }, body: '{}' },
      ],
      ['garbage auth', { path: iamPath, headers: { ...signed(E.key, iamPath), 'x-altus-auth': '%%%.!!!' }, body: '{}' }],
      [
        'auth not json',
        {
          path: iamPath,
          headers: { ...signed(E.key, iamPath), 'x-altus-auth': `${Buffer.from('nope').toString('base64')}.AAAA` },
          body: '{}',
        },
      ],
      [
        'auth json wrong types',
        {
          path: iamPath,
          headers: {
            ...signed(E.key, iamPath),
            'x-altus-auth': `${Buffer.from('{"access_key_id": 1, "auth_method": []}').toString('base64')}.AAAA`,
          },
          body: '{}',
        },
      ],
      ['garbage date', { path: iamPath, headers: { ...signed(E.key, iamPath), 'x-altus-date': 'yesterday-ish' }, body: '{}' }],
      ['huge header', { path: iamPath, headers: { ...signed(E.key, iamPath), 'x-altus-auth': 'A'.repeat(12_000) }, body: '{}' }],
      [
        'bearer on a signed path',
        { path: iamPath, headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` }, body: '{}' },
      ],
      [
        'garbage bearer',
        {
          path: '/dfx/api/rpc-v1/parameter-groups/describe-parameter-group',
          headers: { 'content-type': 'application/json', authorization: 'Bearer !!!!!!!!!!!!!!!!!!!!!!!!' },
          body: '{}',
        },
      ],
      [
        'basic auth',
        {
          path: '/dfx/api/rpc-v1/parameter-groups/describe-parameter-group',
          headers: { 'content-type': 'application/json', authorization: 'Basic YTpi' },
          body: '{}',
        },
      ],
      ['bad host', { path: iamPath, headers: signed(E.key, iamPath), body: '{}', host: 'evil.example' }],
      ['admin without token', { path: '/_emulator/faults', body: '{"rate":1}' }],
      ['admin wrong token', { path: '/_emulator/faults', headers: { 'x-emulator-admin': 'f'.repeat(48) }, body: '{"rate":1}' }],
      ['admin unknown', { method: 'GET', path: '/_emulator/nothing' }],
    ];
    for (const [what, opts] of cases) {
      tried.http++;
      const r = await send(E.port, opts);
      count(r);
      // node answers 431 itself for headers over its limit (no JSON body there).
      if (what === 'huge header' || what === 'huge path') {
        expect(r.status).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
        continue;
      }
      expect4xx(r, what);
    }
    // The signed path is the URL path without the query (as the control plane signs it).
    expect((await send(E.port, { path: `${iamPath}?x=1`, headers: signed(E.key, iamPath), body: '{}' })).status).toBe(200);
    // Faults are still off: the admin calls above changed nothing.
    expect((await postJson(E.port, E.key, iamPath, {})).status).toBe(200);
  });

  test('raw bytes on the socket', async () => {
    const raw = [
      'GARBAGE\r\n\r\n',
      '\u0000\u0001\u0002\u0003',
      'POST /iam/getUser HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n',
      'POST /iam/getUser HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}',
      'POST /iam/getUser HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n',
      'POST /iam/getUser HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
      'POST /iam/getUser HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}',
      'POST /iam/getUser HTTP/1.1\r\nHost: localhost\r\nHost: evil\r\nContent-Length: 2\r\n\r\n{}',
      'POST /iam/getUser HTTP/1.1\r\nHost: localhost\r\nX-Altus-Auth: a\u0000b\r\nContent-Length: 2\r\n\r\n{}',
      'POST /iam/getUser HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\n{}',
    ];
    for (const bytes of raw) {
      tried.http++;
      // Nothing, or a 4xx: never a 5xx, never a hang past the timeout.
      const r = await sendRaw(E.port, bytes, 2000);
      count(r);
      if (r.status !== 0) expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
  });

  test('a field holding lists nested 5,000 deep gets 400, not 500 (the audit trail keeps refused calls too)', async () => {
    const errors = E.emu.stats.errors;
    for (const depth of [5_000, 30_000]) {
      tried.http++;
      const path = '/iam/createGroup';
      const r = await send(E.port, { path, headers: signed(E.key, path), body: `{"groupName": ${'['.repeat(depth)}${']'.repeat(depth)}}` });
      expect4xx(r, `${depth} nested lists`);
      expect([r.status, r.json?.code, r.json?.message]).toEqual([
        400,
        'INVALID_ARGUMENT',
        'the request body is nested more than 64 levels deep',
      ]);
    }
    expect(E.emu.stats.errors).toBe(errors);
  });
});

describe('fuzzed request documents for every operation', () => {
  test('a document with a defect is rejected by validation with 400', async () => {
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(noiseArb(op), defectArb(op), async (noise, { defect, value }) => {
          const doc: Doc = { ...noise };
          if (defect.kind === 'missing') delete doc[defect.path];
          else doc[defect.field] = value;
          tried.fuzzed++;
          const body = JSON.stringify(doc);
          const r = await send(E.port, { path: op.path, headers: headersFor(op), body });
          if (body.length > 64 * 1024) {
            expect(r.status).toBe(413);
            count(r);
            return;
          }
          expect4xx(r, `${op.service.name} ${op.name} ${defect.kind} ${defect.path}`);
          expect({ op: op.name, status: r.status, code: r.json?.code }).toEqual({ op: op.name, status: 400, code: 'INVALID_ARGUMENT' });
        }),
        { numRuns: RUNS, seed: 7 },
      );
    }
  });

  test('arbitrary documents never get a 500', async () => {
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(noiseArb(op), async (doc) => {
          tried.random++;
          const r = await send(E.port, { path: op.path, headers: headersFor(op), body: JSON.stringify(doc) });
          count(r);
          if (r.status >= 500 && r.status !== 501)
            throw new Error(`${op.service.name} ${op.name}: ${r.status} ${r.text.slice(0, 300)} for ${JSON.stringify(doc).slice(0, 300)}`);
          if (r.status !== 200) expect(isErrorBody(r)).toBe(true);
        }),
        { numRuns: RUNS, seed: 11 },
      );
    }
  });
});
