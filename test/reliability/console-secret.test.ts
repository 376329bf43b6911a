/**
 * The console's sign-in secret and device-code guessing, over real sockets:
 *
 * - a local process that has not read the user's data directory or profile
 *   (on a shared runner, another user's) cannot walk deviceAuthorization ->
 *   device -> approve -> deviceAccessKey to an account admin's key, nor
 *   sign in to the console that drives the clock and the faults; the user
 *   who started the emulator is shown the link that carries the secret, and
 *   `cdpctl login` against it keeps working (its profile's links carry it);
 * - wrong device codes are throttled per code and for every client
 *   together, not only per source address: 30 loopback addresses get no
 *   more guesses judged than one client a quarter of an hour.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { readIni } from '../../src/lib/core/config.js';
import { ALL_MISSES_BEFORE_LOCK, MISSES_PER_CODE } from '../../src/lib/emulator/console/flows.js';
import { plainBrowser } from '../helpers/browser.js';
import { run, start, startEmulatorProcess, type TestEmulator } from '../helpers/cli.js';
import { startInProcess, type InProcessEmulator } from './helpers.js';

/** One exchange from a given loopback address, as any local process can make it. */
function from(
  address: string,
  port: number,
  method: string,
  path: string,
  form?: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        localAddress: address,
        agent: false,
        headers: { host: `localhost:${port}`, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe("the console's sign-in secret", () => {
  let em: TestEmulator;
  beforeAll(async () => {
    em = await startEmulatorProcess();
  });
  afterAll(async () => em?.stop());

  const pidFile = (): { consoleToken: string; accountId: string } =>
    JSON.parse(readFileSync(join(em.dataDir, 'emulator.json'), 'utf8')) as { consoleToken: string; accountId: string };

  test("a process that has not read the user's files cannot walk the device flow to an admin key, nor open the console", async () => {
    const { accountId } = pidFile();
    const port = em.port;
    const local = (method: string, path: string, form?: Record<string, string>) => from('127.0.0.1', port, method, path, form);
    // The walk of the issue: health answers, then every step of the sign-in is refused.
    expect((await local('GET', '/_emulator/health')).status).toBe(200);
    const authorize = await local('GET', `/consoleauth/deviceAuthorization?${new URLSearchParams({ accountId, clientId: 'evil' })}`);
    expect(authorize.status).toBe(403);
    expect(authorize.text).not.toContain('deviceCode');
    expect(JSON.parse(authorize.text)).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect((await local('POST', '/consoleauth/device', { userCode: 'BCDF-GHJK' })).status).toBe(403);
    expect((await local('POST', '/consoleauth/device/approve', { userCode: 'BCDF-GHJK', action: 'approve' })).status).toBe(403);
    expect((await local('GET', `/consoleauth/login?${new URLSearchParams({ accountId, returnUrl: 'http://localhost:9/x' })}`)).status).toBe(
      403,
    );
    // A guessed secret is no secret; the console's own sign-in is behind it too.
    const guess = 'A'.repeat(43);
    expect(
      (await local('GET', `/consoleauth/deviceAuthorization?${new URLSearchParams({ accountId, clientId: 'evil', token: guess })}`)).status,
    ).toBe(403);
    for (const path of ['/console', '/console/signin', '/console/api/state'])
      expect([path, (await local('GET', path)).status]).toEqual([path, 403]);
  });

  test('the secret is made at start, kept 0600 in the data directory, shown to whoever started the emulator, and in the profile', async () => {
    const { consoleToken } = pidFile();
    expect(consoleToken).toMatch(/^[\w-]{43}$/);
    expect(statSync(join(em.dataDir, 'emulator.json')).mode & 0o777).toBe(0o600);
    const config = readIni(join(em.home, '.cdp', 'config'))['profile emulator'];
    expect(config?.login_url).toBe(`http://localhost:${em.port}/consoleauth/login?token=${consoleToken}`);
    expect(config?.device_login_url).toBe(`http://localhost:${em.port}/consoleauth/deviceAuthorization?token=${consoleToken}`);
    // Starting what runs says where the console is, with its secret.
    const again = await run(['emulator', 'start', '--detach', '--port', '0', '--data-dir', em.dataDir], { home: em.home });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`console: http://localhost:${em.port}/console?token=${consoleToken} `);
  });

  test('cdpctl login --use-device-code against the emulator still signs in: the page it names carries the secret', async () => {
    const login = start(['login', '--profile', 'emulator', '--use-device-code'], { home: em.home });
    const [, page = '', code = ''] = await login.waitFor(/open the page (\S+) and enter the code ([A-Z]{4}-[A-Z]{4}) to authenticate\./);
    expect(page).toBe(`http://localhost:${em.port}/consoleauth/device?token=${pidFile().consoleToken}`);
    const browser = plainBrowser();
    const choose = await browser.submit(page, { userCode: code });
    expect(choose.status).toBe(200);
    const user = /name="user" value="([^"]+)"/.exec(choose.html)?.[1] ?? '';
    // The approve form is posted without the secret in its address: the cookie the page set carries it.
    const approved = await browser.submit(`http://localhost:${em.port}/consoleauth/device/approve`, {
      userCode: code,
      user,
      action: 'approve',
    });
    expect(approved.status).toBe(200);
    const r = await login.done;
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Device login is successful.');
  });
});

describe('device-code guessing', () => {
  let emu: InProcessEmulator;
  beforeAll(async () => {
    emu = await startInProcess();
  });
  afterAll(async () => emu.stop());

  test('is throttled for every client together and per code, not only per source address', async () => {
    const token = emu.emu.consoleToken;
    const at = (path: string, params: Record<string, string> = {}): string => `${path}?${new URLSearchParams({ ...params, token })}`;
    const auth = JSON.parse(
      (await from('127.0.0.1', emu.port, 'GET', at('/consoleauth/deviceAuthorization', { accountId: emu.accountId, clientId: 'cli' })))
        .text,
    ) as { deviceCode: string; userCode: string };
    // 30 loopback addresses, six wrong codes each: per address alone, 150 of these 180 guesses would be judged.
    const statuses: number[] = [];
    for (let round = 0; round < 6; round++)
      for (let host = 2; host < 32; host++) {
        const wrong = `BBBB-${'BCDFGHJKLMNPQRSTVWXZ'[host % 20] ?? 'B'}BB${'BCDFGH'[round] ?? 'B'}`;
        statuses.push((await from(`127.0.0.${host}`, emu.port, 'POST', at('/consoleauth/device'), { userCode: wrong })).status);
      }
    const judged = statuses.filter((s) => s === 404).length;
    expect(judged).toBeLessThanOrEqual(ALL_MISSES_BEFORE_LOCK);
    expect(statuses.filter((s) => s !== 404 && s !== 429)).toEqual([]);
    // Code entry is locked for everyone now, the right code from a new address included...
    expect((await from('127.0.0.40', emu.port, 'POST', at('/consoleauth/device'), { userCode: auth.userCode })).status).toBe(429);
    // ...and the code that waited through more than MISSES_PER_CODE wrong guesses was withdrawn: its CLI is told to start again.
    expect(judged).toBeGreaterThanOrEqual(MISSES_PER_CODE);
    const poll = await from('127.0.0.1', emu.port, 'POST', '/consoleauth/deviceAccessKey', {
      clientId: 'cli',
      deviceCode: auth.deviceCode,
      userCode: auth.userCode,
    });
    expect(poll.status).toBe(403);
    expect(JSON.parse(poll.text)).toMatchObject({
      code: 'ACCESS_DENIED',
      message: expect.stringMatching(/withdrawn; run the sign-in again/),
    });
  });
});
