/**
 * The gateway path: every operation of every service also answers at
 * `/api/v1/<service>/<operation>`, the form the private cloud's clients and
 * the Ansible collection's own HTTP client post to, with the same
 * authentication and checks as its own path. Driven by raw signed HTTP (and
 * Bearer tokens for the workload service), and by the CLI at a private
 * endpoint.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { readIni } from '../../src/lib/core/config.js';
import { parsePrivateKey, type SigningKey } from '../../src/lib/core/signing.js';
import { loadAllServices, type Operation, type Service } from '../../src/lib/model/index.js';
import { startEmulator, type TestEmulator } from '../helpers/cli.js';
import { postJson, send } from '../reliability/helpers.js';

let em: TestEmulator;
let key: SigningKey;
let services: Service[];

beforeAll(async () => {
  em = await startEmulator();
  const creds = readIni(join(em.home, '.cdp', 'credentials')).emulator as Record<string, string>;
  key = parsePrivateKey(String(creds.cdp_access_key_id), String(creds.cdp_private_key));
  services = await loadAllServices();
});

afterAll(async () => {
  await em?.stop();
});

/** A read of the service that needs no input: a list or describe with no required field. */
function readWithoutInput(svc: Service): Operation | undefined {
  return svc
    .operations()
    .filter((op) => !op.composed && !op.mutating && !op.cli.upload)
    .find((op) => svc.requestFields(op).every((f) => !f.required));
}

/** Answers without what differs between two calls of the same read (request ids, times asked). */
const same = (text: string): unknown => JSON.parse(text.replace(/"(requestId|timestamp|generatedAt)":"[^"]*"/g, '"$1":"-"'));

const bearer = async (environmentCrn: string): Promise<string> => {
  const r = await postJson(em.port, key, '/iam/generateWorkloadAuthToken', { workloadName: 'DF', environmentCrn });
  expect(r.status).toBe(200);
  return String(r.json?.token);
};

describe('/api/v1/<service>/<operation>', () => {
  test('every signed service answers a read there as at its own path', async () => {
    const checked: string[] = [];
    for (const svc of services) {
      if (svc.def.endpoint === 'workload') continue;
      const op = readWithoutInput(svc);
      if (!op) continue;
      const own = await postJson(em.port, key, op.path, {});
      const gateway = await postJson(em.port, key, `/api/v1/${svc.name}/${op.name}`, {});
      expect({ op: `${svc.name} ${op.name}`, status: gateway.status }).toEqual({ op: `${svc.name} ${op.name}`, status: own.status });
      expect(same(gateway.text)).toEqual(same(own.text));
      checked.push(svc.name);
    }
    // The three whose own paths are of another form are among them.
    expect(checked).toEqual(expect.arrayContaining(['iam', 'environments', 'datalake', 'dw', 'de', 'df']));
    expect(checked.length).toBeGreaterThanOrEqual(16);
  });

  test('every operation of every service has its route there (none answers 404)', async () => {
    let routed = 0;
    for (const svc of services) {
      for (const op of svc.operations().filter((o) => !o.composed)) {
        // Unsigned: refused by authentication (401), which only a route reaches; an unknown path is 404.
        const r = await send(em.port, {
          method: 'POST',
          path: `/api/v1/${svc.name}/${op.name}`,
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect({ op: `${svc.name} ${op.name}`, status: r.status }).toEqual({ op: `${svc.name} ${op.name}`, status: 401 });
        routed++;
      }
    }
    expect(routed).toBe(779);
    const unknown = await postJson(em.port, key, '/api/v1/iam/getUserz', {});
    expect([unknown.status, unknown.json?.code]).toEqual([404, 'NOT_FOUND']);
  });

  test('the same checks: a bad request is 400 and a signature for another path is refused', async () => {
    const bad = await postJson(em.port, key, '/api/v1/iam/createGroup', {});
    expect([bad.status, bad.json?.code]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(String(bad.json?.message)).toContain('groupName');
    // Signed for /iam/listUsers, sent to the gateway path: the signature covers the path.
    const { signed } = await import('../reliability/helpers.js');
    const r = await send(em.port, { method: 'POST', path: '/api/v1/iam/listUsers', headers: signed(key, '/iam/listUsers'), body: '{}' });
    expect(r.status).toBe(401);
    const made = await postJson(em.port, key, '/api/v1/iam/createGroup', { groupName: 'through-the-gateway' });
    expect(made.status).toBe(200);
    const listed = await postJson(em.port, key, '/iam/listGroups', { groupNames: ['through-the-gateway'] });
    expect((listed.json?.groups as unknown[]).length).toBe(1);
  });

  test('the workload service (dfworkload) answers there with its Bearer token, as at its own path', async () => {
    const envs = await postJson(em.port, key, '/api/v1/environments2/listEnvironments', {});
    const envCrn = String((envs.json?.environments as Array<{ crn: string }>)[0]?.crn);
    const df = services.find((s) => s.name === 'dfworkload');
    const op = df?.operation('listNifiVersions');
    if (!op) throw new Error('dfworkload listNifiVersions is missing from the model');
    const token = await bearer(envCrn);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const body = JSON.stringify({ environmentCrn: envCrn });
    const own = await send(em.port, { method: 'POST', path: op.path, headers, body });
    const gateway = await send(em.port, { method: 'POST', path: '/api/v1/dfworkload/listNifiVersions', headers, body });
    expect(gateway.status).toBe(own.status);
    expect(same(gateway.text)).toEqual(same(own.text));
    const signedOnly = await postJson(em.port, key, '/api/v1/dfworkload/listNifiVersions', { environmentCrn: envCrn });
    expect(signedOnly.status).toBe(401);
  });

  test('the CLI at a private endpoint (a numeric loopback address with /api/v1 as its base) reaches iam there', async () => {
    const r = await em.cli(['iam', 'users', 'list', '--endpoint-url', `http://127.0.0.1:${em.port}/api/v1`, '--output', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ users: [expect.objectContaining({ email: 'admin@example.com' })] });
    const log = await em.cli(['iam', 'users', 'list', '--form-factor', 'private', '--output', 'json']);
    expect(log.code).toBe(0);
  });
});
