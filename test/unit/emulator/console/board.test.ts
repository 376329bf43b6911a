/**
 * The console board at /console (console/board.ts), over HTTP against an
 * emulator the library starts in this process, beyond the refusals
 * test/e2e/console-browser.test.ts checks without a browser: what the
 * state shows (every environment with what runs in it and its status, the
 * clock, the faults), the log's filters (service, a part of the operation,
 * a status class or number, the caller), one record by its reference, the
 * clock driven from the page, the fault switches' checks, the page's parts,
 * changes sent only as JSON, an unknown page, and signing out.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../src/lib/sdk/emulator.js';
// The emulator loads the console on first use (a dynamic import); jest's module linker can fail two such imports
// made at once ("request for 'node:crypto' is not in cache"), so they are loaded here first. Node itself has no such trouble.
import '../../../../src/lib/emulator/console/board.js';
import '../../../../src/lib/emulator/console/index.js';

let emu: RunningEmulator;
let cookie = '';
let token = '';

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly headers: Headers;
}

/** An exchange with the board, carrying the console's secret as the cookie its link sets (console/secret.ts). */
async function http(method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const secret = `cdpctl_console_key_${emu.port}=${new URL(emu.consoleUrl).searchParams.get('token') ?? ''}`;
  const cookies = [secret, headers.cookie].filter(Boolean).join('; ');
  const res = await fetch(new URL(path, emu.endpoint), { method, headers: { ...headers, cookie: cookies }, body, redirect: 'manual' });
  return { status: res.status, text: await res.text(), headers: res.headers };
}
const json = async <T>(path: string, query = ''): Promise<T> => JSON.parse((await http('GET', `${path}${query}`, { cookie })).text) as T;
const change = (path: string, body: unknown, more: Record<string, string> = {}) =>
  http('POST', path, { cookie, 'content-type': 'application/json', 'x-console-token': token, ...more }, JSON.stringify(body));

interface Environment {
  readonly name: string;
  readonly status: string;
  readonly ref: string;
  readonly resources: ReadonlyArray<{ service: string; noun: string; name: string; status: string; ref: string }>;
}

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
  await emu.client.opdb.createDatabase({ environmentName: 'sales-env', databaseName: 'orders' });
  await emu.client.iam.getUser({ userId: 'no-such-user' }).catch(() => undefined);
  const page = await http('GET', '/console/signin');
  const request = /name="request" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const user = /name="user" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const signed = await http(
    'POST',
    '/console/signin',
    { 'content-type': 'application/x-www-form-urlencoded' },
    new URLSearchParams({ request, user, action: 'signin' }).toString(),
  );
  cookie = (signed.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const board = await http('GET', '/console', { cookie });
  token = /name="console-token" content="([^"]+)"/.exec(board.text)?.[1] ?? '';
});

afterAll(async () => {
  await emu?.stop();
});

describe('what the board shows', () => {
  test('the state: the account, the clock, the faults, every environment with what runs in it and its status', async () => {
    const state = await json<{
      accountId: string;
      clock: { paused: boolean; timeScale: number };
      faults: { rate: number };
      environments: Environment[];
    }>('/console/api/state');
    expect(state.accountId).toBe(emu.accountId);
    expect(state.clock).toMatchObject({ paused: true, timeScale: 60 });
    expect(state.faults.rate).toBe(0);
    const sales = state.environments.find((e) => e.name === 'sales-env');
    expect(sales).toMatchObject({ status: 'AVAILABLE', ref: expect.stringMatching(/^environment\/crn:cdp:environments:/) });
    expect(sales?.resources.map((r) => [r.service, r.noun, r.name, r.status])).toEqual([
      ['opdb', 'database', 'orders', 'REQUESTED'],
      ['df', 'DataFlow service', 'sales-env', 'GOOD_HEALTH'],
    ]);
    expect(state.environments.find((e) => e.name === 'staging-aws')?.resources).toEqual([]);
  });

  test('one record by its reference, as its service shows it; an environment by its; an unknown one is 404', async () => {
    const state = await json<{ environments: Environment[] }>('/console/api/state');
    const sales = state.environments.find((e) => e.name === 'sales-env');
    const db = await json<{ databaseName: string; status: string }>(
      '/console/api/resource?ref=',
      encodeURIComponent(sales?.resources.find((r) => r.service === 'opdb')?.ref ?? ''),
    );
    expect(db).toMatchObject({ databaseName: 'orders', status: 'REQUESTED' });
    const env = await json<{ environmentName: string }>('/console/api/resource?ref=', encodeURIComponent(sales?.ref ?? ''));
    expect(env.environmentName).toBe('sales-env');
    const missing = await http('GET', '/console/api/resource?ref=opdb.database/nothing', { cookie });
    expect([missing.status, JSON.parse(missing.text)]).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'Nothing is known as opdb.database/nothing.' },
    ]);
  });

  test('the log: newest first, filtered by service, a part of the operation, a status class or number, and the caller', async () => {
    type Log = { requests: Array<{ service: string; operation: string; status: number }> };
    const all = await json<Log>('/console/api/log');
    expect(all.requests[0]?.operation).toBe('getUser');
    expect((await json<Log>('/console/api/log', '?service=OPDB')).requests.map((r) => r.operation)).toEqual(['createDatabase']);
    expect((await json<Log>('/console/api/log', '?operation=database')).requests.map((r) => r.operation)).toEqual(['createDatabase']);
    expect((await json<Log>('/console/api/log', '?status=4xx')).requests.map((r) => [r.operation, r.status])).toEqual([['getUser', 404]]);
    expect((await json<Log>('/console/api/log', '?status=error')).requests.map((r) => r.status)).toEqual([404]);
    expect((await json<Log>('/console/api/log', '?status=200')).requests.map((r) => r.operation)).toEqual(['createDatabase']);
    expect((await json<Log>('/console/api/log', '?actor=nobody-at-all')).requests).toEqual([]);
  });

  test("the page's parts are rendered again on their own, as HTML", async () => {
    for (const part of ['clock', 'resources', 'log']) {
      const a = await http('GET', `/console/part/${part}`, { cookie });
      expect([a.status, a.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    }
    expect((await http('GET', '/console/part/resources', { cookie })).text).toContain('orders');
  });
});

describe('changes from the page', () => {
  test('the clock is advanced by a duration, resumed and paused; what runs moves with it', async () => {
    const advanced = JSON.parse((await change('/console/api/clock', { advance: '5m' })).text) as { paused: boolean };
    expect(advanced.paused).toBe(true);
    const state = await json<{ environments: Environment[] }>('/console/api/state');
    expect(state.environments.find((e) => e.name === 'sales-env')?.resources.find((r) => r.service === 'opdb')?.status).toBe('AVAILABLE');
    expect(JSON.parse((await change('/console/api/clock', { resume: true })).text)).toMatchObject({ paused: false });
    expect(JSON.parse((await change('/console/api/clock', { pause: true })).text)).toMatchObject({ paused: true });
    expect(emu.clock.paused).toBe(true);
  });

  test('the fault switches: a rate between 0 and 1, a latency of 0 to 60000 ms, known kinds, at least one kind for a rate', async () => {
    const refused = async (body: unknown): Promise<string> => {
      const a = await change('/console/api/faults', body);
      expect(a.status).toBe(400);
      return String((JSON.parse(a.text) as { message: string }).message);
    };
    expect(await refused({ rate: -0.1, kinds: ['503'] })).toBe('The fault rate is a fraction between 0 and 1.');
    expect(await refused({ rate: 0.1, kinds: ['503'], latencyMs: 60_001 })).toBe('The latency is 0 to 60000 ms.');
    expect(await refused({ rate: 0.1, kinds: ['500'] })).toBe('Fault kinds are 503, 429 and reset.');
    expect(await refused({ rate: 0.1, kinds: [] })).toBe('Choose at least one kind of fault to inject.');
    const set = await change('/console/api/faults', { rate: 0, kinds: ['reset', '503'], latencyMs: 5 });
    expect(JSON.parse(set.text)).toEqual({ rate: 0, latencyMs: 5, kinds: ['503', 'reset'] });
    await change('/console/api/faults', { rate: 0, kinds: [] });
  });

  test('changes are sent as JSON objects only (415, 400)', async () => {
    const form = await change('/console/api/clock', {}, { 'content-type': 'application/x-www-form-urlencoded' });
    expect([form.status, JSON.parse(form.text).message]).toEqual([415, 'Changes are sent as application/json.']);
    const list = await http('POST', '/console/api/clock', { cookie, 'content-type': 'application/json', 'x-console-token': token }, '[1]');
    expect([list.status, JSON.parse(list.text).message]).toEqual([400, 'The request body must be a JSON object.']);
    const broken = await http('POST', '/console/api/clock', { cookie, 'content-type': 'application/json', 'x-console-token': token }, '{');
    expect([broken.status, JSON.parse(broken.text).message]).toEqual([400, 'The request body is not valid JSON.']);
  });
});

describe('the session', () => {
  test('an unknown page is 404; signing out ends the session, and the board sends to sign-in again', async () => {
    expect((await http('GET', '/console/api/nothing', { cookie })).status).toBe(404);
    const out = await http('POST', '/console/signout', { cookie, 'x-console-token': token });
    expect([out.status, out.headers.get('location')]).toEqual([303, '/console/signin']);
    expect(out.headers.get('set-cookie')).toMatch(/^cdpctl_console=; Path=\/console; Max-Age=0/);
    const after = await http('GET', '/console', { cookie });
    expect([after.status, after.headers.get('location')]).toEqual([303, '/console/signin']);
    expect((await http('GET', '/console/api/state', { cookie })).status).toBe(401);
  });
});
