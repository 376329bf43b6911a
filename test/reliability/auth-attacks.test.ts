/**
 * Attacks on the emulator's authentication: old or future dates, a
 * signature moved to another path or key, a key id swapped, truncated and
 * bit-flipped headers, inactive keys, stale bearer tokens; the loopback-only
 * listeners and the Host (DNS-rebinding) guard.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { authHead, b64url, parsePrivateKey, signRequest, type SigningKey } from '../../src/lib/core/signing.js';
import { createAdminKey } from '../../src/lib/emulator/bootstrap.js';
import { putAccessKey, putWorkloadToken, storedAccessKey, storedWorkloadToken } from '../helpers/iam-records.js';
import { tokenHash } from '../../src/lib/emulator/auth.js';
import { preCreatedEnvironmentCrn } from '../../src/lib/emulator/shared/pre-created.js';
import { send, sendRaw, signed, postJson, startInProcess, type InProcessEmulator, type Reply } from './helpers.js';

let E: InProcessEmulator;
let B: SigningKey;
let attempts = 0;
const PATH = '/iam/getUser';
const OTHER = '/iam/listGroups';

beforeAll(async () => {
  E = await startInProcess();
  const b = E.emu.store.transaction(() => createAdminKey(E.emu, E.adminCrn));
  B = parsePrivateKey(b.accessKeyId, b.privateKey);
});

afterAll(async () => {
  await E.stop();
  console.log(`reliability: auth attacks tried: ${attempts}, all refused`);
});

function attempt(headers: Record<string, string>, path = PATH, body = '{}'): Promise<Reply> {
  attempts++;
  return send(E.port, { path, headers, body });
}

function expectRefused(r: Reply, what: string, secret?: string): void {
  if (r.status !== 401 && r.status !== 403) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
  expect(typeof r.json?.code).toBe('string');
  // The answer never echoes the signature it refused.
  if (secret) expect(r.text).not.toContain(secret);
}

const sigOf = (h: Record<string, string>): string => (h['x-altus-auth'] ?? '').split('.')[1] ?? '';

describe('signed requests', () => {
  test('the genuine request works with either key', async () => {
    expect((await attempt(signed(E.key, PATH))).status).toBe(200);
    expect((await attempt(signed(B, PATH))).status).toBe(200);
  });

  test('replays with an old or future date', async () => {
    for (const offsetMin of [-16, -60, -24 * 60, 16, 24 * 60]) {
      const h = signed(E.key, PATH, { date: new Date(Date.now() + offsetMin * 60_000) });
      expectRefused(await attempt(h), `date ${offsetMin} min`, sigOf(h));
    }
    // A captured header with its date changed no longer verifies.
    const h = signed(E.key, PATH);
    expectRefused(await attempt({ ...h, 'x-altus-date': new Date(Date.now() + 1000).toUTCString() }), 'date edited');
  });

  test('a signature reused on another path, method or content type', async () => {
    const h = signed(E.key, PATH);
    expectRefused(await attempt(h, OTHER), 'other path', sigOf(h));
    const slash = await attempt(h, `${PATH}/`);
    expect(slash.status).toBe(404);
    expectRefused(await attempt({ ...h, 'content-type': 'application/json; charset=utf-8' }), 'content type changed');
    const wrongMethod = { 'content-type': 'application/json', ...signRequest(E.key, 'GET', 'application/json', PATH) };
    expectRefused(await attempt(wrongMethod), 'signed for GET');
  });

  test('a key id swapped, a signature from another key, a method claimed falsely, an unknown key', async () => {
    const h = signed(E.key, PATH);
    const sig = sigOf(h);
    const headWith = (id: string, method: string): string => b64url(Buffer.from(authHead(id, method), 'utf8'));
    expectRefused(await attempt({ ...h, 'x-altus-auth': `${headWith(B.accessKeyId, 'ed25519v1')}.${sig}` }), 'key id swapped', sig);
    const byB = signed(B, PATH);
    expectRefused(
      await attempt({ ...byB, 'x-altus-auth': `${headWith(E.key.accessKeyId, 'ed25519v1')}.${sigOf(byB)}` }),
      'signed by another key',
    );
    for (const m of ['rsav1', 'ecdsav1', 'none', '']) {
      expectRefused(await attempt({ ...h, 'x-altus-auth': `${headWith(E.key.accessKeyId, m)}.${sig}` }), `method ${m}`);
    }
    expectRefused(
      await attempt({ ...h, 'x-altus-auth': `${headWith('00000000-0000-0000-0000-000000000000', 'ed25519v1')}.${sig}` }),
      'unknown key',
    );
    expectRefused(await attempt({ ...h, 'x-altus-auth': `${headWith('x'.repeat(5000), 'ed25519v1')}.${sig}` }), 'huge key id');
  });

  test('truncated and bit-flipped headers', async () => {
    const h = signed(E.key, PATH);
    const auth = h['x-altus-auth'] ?? '';
    for (let cut = 0; cut < auth.length; cut += Math.max(1, Math.floor(auth.length / 25))) {
      expectRefused(await attempt({ ...h, 'x-altus-auth': auth.slice(0, cut) }), `auth cut at ${cut}`);
    }
    // The last signature character (not "=" padding: decoding ignores missing padding, the bytes are the same).
    const sigEnd = auth.replace(/=+$/, '');
    expectRefused(await attempt({ ...h, 'x-altus-auth': sigEnd.slice(0, -1) }), 'one character short');
    expectRefused(await attempt({ ...h, 'x-altus-date': (h['x-altus-date'] ?? '').slice(0, 10) }), 'date cut');
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 10_000 }), fc.integer({ min: 1, max: 255 }), async (at, flip) => {
        const fresh = signed(E.key, PATH);
        const [head = '', sig = ''] = (fresh['x-altus-auth'] ?? '').split('.');
        const raw = Buffer.from(sig.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
        const i = at % raw.length;
        raw[i] = (raw[i] ?? 0) ^ flip;
        expectRefused(await attempt({ ...fresh, 'x-altus-auth': `${head}.${b64url(raw)}` }), `bit flip at ${i}`);
      }),
      { numRuns: 40, seed: 3 },
    );
  });

  test('an inactive key is refused even with a good signature', async () => {
    const rec = storedAccessKey(E.emu.store, B.accessKeyId);
    if (!rec) throw new Error('no key record');
    putAccessKey(E.emu.store, { ...rec, status: 'INACTIVE' });
    expectRefused(await attempt(signed(B, PATH)), 'inactive key');
    putAccessKey(E.emu.store, rec);
    expect((await attempt(signed(B, PATH))).status).toBe(200);
  });
});

describe('bearer tokens', () => {
  const DF = '/dfx/api/rpc-v1/parameter-groups/describe-parameter-group';
  test('truncated, extended, expired and foreign tokens are refused', async () => {
    const r = await postJson(E.port, E.key, '/iam/generateWorkloadAuthToken', {
      workloadName: 'DF',
      environmentCrn: preCreatedEnvironmentCrn(E.accountId, E.emu.region, 'sales-env'),
    });
    expect(r.status).toBe(200);
    const token = String(r.json?.token);
    const h = (t: string): Record<string, string> => ({ 'content-type': 'application/json', authorization: `Bearer ${t}` });
    const ok = await attempt(h(token), DF);
    expect(ok.status).not.toBe(401);
    for (const t of [token.slice(0, -1), token.slice(0, 16), `${token}A`, token.toUpperCase(), 'A'.repeat(token.length), '']) {
      expectRefused(await attempt(h(t), DF), `token ${t.length}`, token);
    }
    expectRefused(await attempt({ 'content-type': 'application/json', authorization: token }, DF), 'no Bearer prefix', token);
    // Signed headers do not open a workload path.
    expectRefused(await attempt(signed(E.key, DF), DF), 'signed on a workload path');
    const hash = tokenHash(token);
    const rec = storedWorkloadToken(E.emu.store, hash);
    if (!rec) throw new Error('token not stored');
    putWorkloadToken(E.emu.store, { ...rec, expireAt: Date.now() - 1 });
    expectRefused(await attempt(h(token), DF), 'expired token', token);
  });
});

describe('where the emulator listens and whom it answers', () => {
  test('only loopback addresses accept connections', async () => {
    const outside = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && a.family === 'IPv4')
      .map((a) => a?.address ?? '');
    for (const host of outside) {
      attempts++;
      const outcome = await new Promise<string>((resolve) => {
        const s = connect({ host, port: E.port, timeout: 2000 });
        s.on('connect', () => {
          s.destroy();
          resolve('connected');
        });
        s.on('timeout', () => {
          s.destroy();
          resolve('timeout');
        });
        s.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
      });
      expect({ host, outcome }).not.toEqual({ host, outcome: 'connected' });
    }
    // And loopback does.
    expect((await send(E.port, { method: 'GET', path: '/_emulator/health' })).status).toBe(200);
  });

  test('a Host that is not a loopback name is refused (DNS rebinding)', async () => {
    const bad = [
      'evil.example',
      `evil.example:${E.port}`,
      'localhost.evil.example',
      `localhost.evil.example:${E.port}`,
      '127.0.0.1.nip.io',
      '127.0.0.2',
      '0.0.0.0',
      '[::2]',
      '',
      'localhost@evil.example',
      'evil.example#localhost',
    ];
    for (const host of bad) {
      for (const [method, path, headers] of [
        ['POST', PATH, signed(E.key, PATH)],
        ['GET', '/_emulator/health', {}],
      ] as const) {
        attempts++;
        const r = await send(E.port, { method, path, headers, body: method === 'POST' ? '{}' : undefined, host });
        expect({ host, path, status: r.status }).toEqual({ host, path, status: r.status >= 400 && r.status < 500 ? r.status : 'not 4xx' });
        expect(r.status === 403 || r.status === 400).toBe(true);
      }
    }
    // No Host at all (HTTP/1.0).
    attempts++;
    const raw = await sendRaw(E.port, `GET /_emulator/health HTTP/1.0\r\n\r\n`);
    expect(raw.status).toBe(403);
    for (const host of [`localhost:${E.port}`, `LOCALHOST:${E.port}`, `127.0.0.1:${E.port}`, `[::1]:${E.port}`, 'localhost']) {
      const r = await send(E.port, { method: 'GET', path: '/_emulator/health', host });
      expect({ host, status: r.status }).toEqual({ host, status: 200 });
    }
  });
});
