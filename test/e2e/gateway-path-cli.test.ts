/**
 * Issue 28 items 1 and 6 beyond test/e2e/gateway-path.test.ts. Through the
 * CLI at a private endpoint (a numeric loopback address, each service under
 * the form factor it is offered in), every service reaches the gateway path
 * `/api/v1/<service>/<operation>` with the same answer as at the emulator's
 * profile: its own path is of that form, or (iam) the endpoint's base is
 * `/api/v1`. (`cdp` 0.9.158 sends iam's own path under --form-factor private
 * too: its pvcapipath extension edits a copy of the model it does not send
 * from; cdpctl does the same.) Bad input to the gateway
 * path answers a clear 4xx in the error body, and changes nothing: an
 * unknown service, an unknown or miscased operation, a path too short or
 * too long, a body that is not a JSON object, a GET.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { readIni } from '../../src/lib/core/config.js';
import { parsePrivateKey, type SigningKey } from '../../src/lib/core/signing.js';
import { loadAllServices, type Operation, type Service } from '../../src/lib/model/index.js';
import { startEmulator, type TestEmulator } from '../helpers/cli.js';
import { postJson, send, signed } from '../reliability/helpers.js';

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

/** A read of the service that needs no input (a list where there is one). */
function readWithoutInput(svc: Service): Operation | undefined {
  const reads = svc
    .operations()
    .filter((op) => !op.composed && !op.mutating && !op.cli.upload)
    .filter((op) => svc.requestFields(op).every((f) => !f.required));
  return reads.find((op) => op.name.startsWith('list')) ?? reads[0];
}

/** Answers without what differs between two calls (request ids, times). */
const same = (text: string): unknown => JSON.parse(text.replace(/"(requestId|timestamp|generatedAt)":"[^"]*"/g, '"$1":"-"'));

describe('the CLI at a private endpoint reaches the gateway path', () => {
  test('every service answers at /api/v1/<service>/<operation> as at the emulator profile, each under its form factor', async () => {
    const reached: string[] = [];
    const root = `http://127.0.0.1:${em.port}`;
    for (const svc of services) {
      const op = readWithoutInput(svc);
      const gatewayPath = `/api/v1/${svc.name}/${op?.name ?? ''}`;
      // Own paths are the gateway's for all but iam (/iam/<operation>: a base of /api/v1 makes it so), environments
      // (/api/v1/environments2/: only raw HTTP sends its gateway form) and dfworkload (its own API); the last two are left out.
      const base = op?.path === gatewayPath ? root : op?.path === `/${svc.name}/${op?.name ?? ''}` ? `${root}/api/v1` : undefined;
      if (!op || !base) continue;
      const command = op.commandId.split(' ');
      const formFactor = svc.def.facts.formFactors.includes('private') ? 'private' : 'public';
      const own = await em.cli([...command, '--form-factor', formFactor, '--output', 'json']);
      // A command the CLI asks more of (a flag its own rules require) is not this test's.
      if (own.code === 2) continue;
      const gateway = await em.cli([...command, '--endpoint-url', base, '--form-factor', formFactor, '--debug', '--output', 'json']);
      const line = `${svc.name} ${op.name}`;
      expect({ line, code: gateway.code }).toEqual({ line, code: own.code });
      // --debug names each request: the gateway path on the private endpoint.
      expect(gateway.stderr).toContain(`POST ${root}${gatewayPath} `);
      if (own.code === 0) expect(same(gateway.stdout)).toEqual(same(own.stdout));
      reached.push(svc.name);
    }
    expect(reached).toEqual(
      expect.arrayContaining(['iam', 'datahub', 'datalake', 'opdb', 'compute', 'de', 'dw', 'df', 'drscp', 'audit', 'imagecatalog']),
    );
    expect(reached.length).toBeGreaterThanOrEqual(13);
  });

  test('a base that is not the gateway (/api/v2) is answered 404 NOT_FOUND, plainly, with no stack', async () => {
    const r = await em.cli(['iam', 'users', 'list', '--endpoint-url', `http://127.0.0.1:${em.port}/api/v2`, '--form-factor', 'private']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('NOT_FOUND');
    expect(r.stderr).toContain('/api/v2/iam/listUsers');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('bad input to the gateway path', () => {
  test.each([
    ['an unknown service', '/api/v1/nosuch/listUsers'],
    ['a service without an operation', '/api/v1/iam'],
    ['a service and a slash', '/api/v1/iam/'],
    ['the bare gateway', '/api/v1/'],
    ['an operation and more', '/api/v1/iam/listUsers/extra'],
    ['an empty service', '/api/v1//listUsers'],
    ['a miscased service', '/api/v1/IAM/listUsers'],
    ['a miscased operation', '/api/v1/iam/listusers'],
    ['an own path under the gateway', '/api/v1/api/v1/de/listServices'],
  ])('%s (%s): 404 NOT_FOUND naming the path', async (_what, path) => {
    const r = await postJson(em.port, key, path, {});
    expect([r.status, r.json?.code]).toEqual([404, 'NOT_FOUND']);
    expect(String(r.json?.message)).toContain(path);
  });

  test.each([
    ['an unknown service', '/api/v1/nosuch/listUsers', 'there is no service nosuch; the services are audit, '],
    ['a miscased service', '/api/v1/IAM/listUsers', 'the service is iam, in that case'],
    ['a miscased operation', '/api/v1/iam/listusers', 'the operation is listUsers, in that case'],
    ['an unknown operation', '/api/v1/iam/listWidgets', 'iam has no operation listWidgets'],
  ])('%s under the gateway is told what it could have been (%s)', async (_what, path, told) => {
    const r = await postJson(em.port, key, path, {});
    expect([r.status, r.json?.code]).toEqual([404, 'NOT_FOUND']);
    expect(String(r.json?.message)).toContain(told);
  });

  test('an operation that would change something, at a wrong path, changes nothing', async () => {
    const r = await postJson(em.port, key, '/api/v1/iam/createGroups', { groupName: 'never-made' });
    expect([r.status, r.json?.code]).toEqual([404, 'NOT_FOUND']);
    const listed = await postJson(em.port, key, '/api/v1/iam/listGroups', {});
    expect((listed.json?.groups as Array<{ groupName: string }>).map((g) => g.groupName)).not.toContain('never-made');
  });

  test('a body that is not JSON, or not an object, is 400 INVALID_ARGUMENT; a GET is 405; nothing is made', async () => {
    const path = '/api/v1/iam/createGroup';
    const notJson = await send(em.port, { method: 'POST', path, headers: signed(key, path), body: '{"groupName": "half' });
    expect([notJson.status, notJson.json?.code, notJson.json?.message]).toEqual([
      400,
      'INVALID_ARGUMENT',
      'the request body is not valid JSON',
    ]);
    const list = await send(em.port, { method: 'POST', path, headers: signed(key, path), body: '[{"groupName":"in-a-list"}]' });
    expect([list.status, list.json?.code]).toEqual([400, 'INVALID_ARGUMENT']);
    const unknown = await postJson(em.port, key, path, { groupName: 'with-extra', colour: 'blue' });
    expect([unknown.status, unknown.json?.code]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(String(unknown.json?.message)).toContain('colour');
    const get = await send(em.port, { method: 'GET', path, headers: signed(key, path), body: '' });
    expect([get.status, get.json?.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
    const listed = await postJson(em.port, key, '/api/v1/iam/listGroups', {});
    const names = (listed.json?.groups as Array<{ groupName: string }>).map((g) => g.groupName);
    expect(names.filter((n) => ['half', 'in-a-list', 'with-extra'].includes(n))).toEqual([]);
  });

  test('an unsigned request to an unknown service is 404 too, and to a known operation 401: the route decides first', async () => {
    const headers = { 'content-type': 'application/json' };
    const unknown = await send(em.port, { method: 'POST', path: '/api/v1/nosuch/listUsers', headers, body: '{}' });
    expect([unknown.status, unknown.json?.code]).toEqual([404, 'NOT_FOUND']);
    const known = await send(em.port, { method: 'POST', path: '/api/v1/iam/listUsers', headers, body: '{}' });
    expect(known.status).toBe(401);
  });
});
