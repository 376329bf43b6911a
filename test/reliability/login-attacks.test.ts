/**
 * Login key fixation: during `cdpctl login` any local process or web page
 * can reach the localhost callback. It takes only the answer carrying the
 * sign-in's state, and a key only once it has signed a call as a user of
 * the account asked for; otherwise nothing is written. The emulator's
 * browser and device flows carry the state back and check it, and device
 * codes cannot be guessed: each client may enter a few a minute and is
 * locked out after repeated misses.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIni } from '../../src/lib/core/config.js';
import { MISSES_BEFORE_LOCK, CODE_ENTRIES_PER_MINUTE } from '../../src/lib/emulator/console/flows.js';
import { plainBrowser, urlCatcher, type UrlCatcher } from '../helpers/browser.js';
import { start, startEmulator, type TestEmulator } from '../helpers/cli.js';
import { startInProcess, type InProcessEmulator } from './helpers.js';

let T: TestEmulator;
let catcher: UrlCatcher;
let credentialsPath: string;

beforeAll(async () => {
  T = await startEmulator();
  catcher = await urlCatcher();
  credentialsPath = join(T.home, '.cdp', 'credentials');
});
afterAll(async () => {
  await catcher.close();
  await T.stop();
});

const origin = (): string => `http://localhost:${T.port}`;
const hidden = (html: string, name: string): string => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
/** The radio value of the account admin on a user list page. */
const adminValue = (html: string): string =>
  /value="([^"]+)"[^>]*>\s*<label[^>]*>(?:(?!<\/label>).)*admin@example\.com/s.exec(html)?.[1] ?? '';

/** Plain HTTP, keeping the cookies a page sets as a browser does (the console's secret rides in one). */
const { visit: get, submit: post } = plainBrowser();

/** An address of an in-process emulator's console, with its secret (console/secret.ts). */
const consoleAt = (emu: InProcessEmulator, path: string): string => {
  const url = new URL(`http://localhost:${emu.port}${path}`);
  url.searchParams.set('token', emu.emu.consoleToken);
  return url.href;
};

/** An access key of the emulator's account admin: a real, working key of account A. */
async function accountKey(): Promise<{ accessKeyId: string; privateKey: string }> {
  const made = await T.json<{ accessKey: { accessKeyId: string }; privateKey: string }>(['iam', 'access-keys', 'create']);
  return { accessKeyId: made.accessKey.accessKeyId, privateKey: made.privateKey };
}

const forged = (returnUrl: string, key: { accessKeyId: string; privateKey: string }, state?: string): string =>
  `${returnUrl}?${new URLSearchParams({ accessKeyId: key.accessKeyId, privateKey: key.privateKey, ...(state ? { state } : {}) })}`;

describe('the browser flow', () => {
  test("a forged callback without the sign-in's state is refused; the real sign-in still completes", async () => {
    const attacker = await accountKey();
    const login = start(['login', '--profile', 'emulator'], { home: T.home, env: { BROWSER: catcher.browser } });
    const url = new URL(await catcher.next());
    const returnUrl = url.searchParams.get('returnUrl') ?? '';
    const state = url.searchParams.get('state') ?? '';
    expect(state.length).toBeGreaterThanOrEqual(43);
    // The state also rides in the return address's path (a console that does not echo it still brings it back).
    expect(returnUrl).toBe(`${new URL(returnUrl).origin}/interactiveLogin/${state}`);
    // What a page or process that found the port would send: the official path with no state, or a guess.
    const known = `${new URL(returnUrl).origin}/interactiveLogin`;
    expect((await get(forged(known, attacker))).status).toBe(403);
    expect((await get(forged(known, attacker, 'a'.repeat(state.length)))).status).toBe(403);
    expect((await get(forged(`${known}/${'a'.repeat(state.length)}`, attacker))).status).toBe(403);
    expect((await get(`${known}?error=access_denied`)).status).toBe(403);
    await login.waitFor(/refused an answer at the sign-in listener/);
    // The person signs in: the console sends the state back, and that key is saved.
    const page = await get(url.href);
    const done = await post(`${origin()}/consoleauth/login`, {
      request: hidden(page.html, 'request'),
      user: adminValue(page.html),
      action: 'signin',
    });
    expect(done.status).toBe(200);
    const r = await login.done;
    expect(r.code).toBe(0);
    const saved = readIni(credentialsPath).emulator?.cdp_access_key_id;
    expect(saved).not.toBe(attacker.accessKeyId);
    expect(r.stderr).toContain(`the access key ${String(saved)} is saved`);
  });

  test('a key that signs for another account, or as a machine user, fails the login and nothing is written', async () => {
    const before = readFileSync(credentialsPath, 'utf8');
    // The user asks for account X; a key of account A arrives with the right state (a console that was lied to, or a stolen state).
    const otherAccount = '00000000-0000-4000-8000-000000000000';
    const login = start(['login', '--profile', 'emulator', '--account-id', otherAccount], {
      home: T.home,
      env: { BROWSER: catcher.browser },
    });
    const url = new URL(await catcher.next());
    const answer = await get(forged(url.searchParams.get('returnUrl') ?? '', await accountKey(), url.searchParams.get('state') ?? ''));
    expect(answer.status).toBe(500);
    // The page says why, as the terminal does.
    expect(answer.html).toMatch(/Sign-in failed[\s\S]*not as a user of account 00000000-0000-4000-8000-000000000000; it was not saved/);
    const r = await login.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`LOGIN_FAILED: .* not as a user of account ${otherAccount}; it was not saved`));
    expect(readFileSync(credentialsPath, 'utf8')).toBe(before);

    expect((await T.cli(['iam', 'machine-users', 'create', '--machine-user-name', 'planted'])).code).toBe(0);
    const bot = await T.json<{ accessKey: { accessKeyId: string }; privateKey: string }>([
      'iam',
      'access-keys',
      'create-for-machine-user',
      '--machine-user-name',
      'planted',
    ]);
    const again = start(['login', '--profile', 'emulator'], { home: T.home, env: { BROWSER: catcher.browser } });
    const url2 = new URL(await catcher.next());
    const key = { accessKeyId: bot.accessKey.accessKeyId, privateKey: bot.privateKey };
    expect((await get(forged(url2.searchParams.get('returnUrl') ?? '', key, url2.searchParams.get('state') ?? ''))).status).toBe(500);
    const r2 = await again.done;
    expect(r2.code).toBe(3);
    expect(r2.stderr).toMatch(/LOGIN_FAILED: .*machineUser:planted.* not as a user of account/);
    expect(readFileSync(credentialsPath, 'utf8')).toBe(before);
  });
});

describe("the emulator's console", () => {
  let emu: InProcessEmulator;
  beforeAll(async () => {
    emu = await startInProcess();
  });
  afterAll(async () => emu.stop());
  const at = (path: string): string => consoleAt(emu, path);

  test('the browser flow sends the state back with the key and with a cancel; a malformed state is refused', async () => {
    const begin = (state: string): Promise<{ status: number; html: string }> =>
      get(
        at(
          `/consoleauth/login?${new URLSearchParams({ accountId: emu.accountId, returnUrl: 'http://localhost:9/interactiveLogin', state })}`,
        ),
      );
    const page = await begin('s-1');
    const signed = await post(
      at('/consoleauth/login'),
      { request: hidden(page.html, 'request'), user: adminValue(page.html), action: 'signin' },
      false,
    );
    expect(signed.status).toBe(303);
    const back = new URL(signed.location ?? '');
    expect(back.searchParams.get('state')).toBe('s-1');
    expect(back.searchParams.get('accessKeyId')).toMatch(/^\S+$/);
    const page2 = await begin('s-2');
    const cancelled = await post(at('/consoleauth/login'), { request: hidden(page2.html, 'request'), action: 'cancel' }, false);
    expect(new URL(cancelled.location ?? '').searchParams.get('state')).toBe('s-2');
    expect((await begin('<script>')).status).toBe(400);
  });

  test('the device flow keeps the key for the poll that carries the state, and answers with it', async () => {
    const auth = (await (
      await fetch(
        at(`/consoleauth/deviceAuthorization?${new URLSearchParams({ accountId: emu.accountId, clientId: 'c-1', state: 'dev-state' })}`),
      )
    ).json()) as Record<string, string>;
    const chose = await post(at('/consoleauth/device'), { userCode: auth.userCode ?? '' });
    expect(chose.status).toBe(200);
    const approved = await post(at('/consoleauth/device/approve'), {
      userCode: auth.userCode ?? '',
      user: adminValue(chose.html),
      action: 'approve',
    });
    expect(approved.status).toBe(200);
    const poll = (state?: string): Promise<Response> =>
      fetch(at('/consoleauth/deviceAccessKey'), {
        method: 'POST',
        body: new URLSearchParams({
          clientId: 'c-1',
          deviceCode: auth.deviceCode ?? '',
          userCode: auth.userCode ?? '',
          ...(state ? { state } : {}),
        }),
      });
    expect((await poll()).status).toBe(403);
    expect((await poll('another-state')).status).toBe(403);
    const ok = await poll('dev-state');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ state: 'dev-state', accessKeyId: expect.any(String) });
  });

  test(`device codes: ${MISSES_BEFORE_LOCK} wrong ones lock the client out, the right one included`, async () => {
    const auth = (await (
      await fetch(at(`/consoleauth/deviceAuthorization?${new URLSearchParams({ accountId: emu.accountId, clientId: 'c-2' })}`))
    ).json()) as Record<string, string>;
    for (let i = 0; i < MISSES_BEFORE_LOCK; i++) {
      expect((await post(at('/consoleauth/device'), { userCode: `BBBB-BBB${'BCDFG'[i] ?? 'B'}` })).status).toBe(404);
    }
    const locked = await fetch(at('/consoleauth/device'), { method: 'POST', body: new URLSearchParams({ userCode: auth.userCode ?? '' }) });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(await locked.text()).toContain('Too many wrong codes');
    // The approve form is throttled the same way.
    expect((await post(at('/consoleauth/device/approve'), { userCode: auth.userCode ?? '', action: 'deny' })).status).toBe(429);
  });
});

test(`device codes: a client may enter ${CODE_ENTRIES_PER_MINUTE} codes a minute`, async () => {
  const emu = await startInProcess();
  try {
    const at = (path: string): string => consoleAt(emu, path);
    const auth = (await (
      await fetch(at(`/consoleauth/deviceAuthorization?${new URLSearchParams({ accountId: emu.accountId, clientId: 'c-3' })}`))
    ).json()) as Record<string, string>;
    for (let i = 0; i < CODE_ENTRIES_PER_MINUTE; i++)
      expect((await post(at('/consoleauth/device'), { userCode: auth.userCode ?? '' })).status).toBe(200);
    const fast = await post(at('/consoleauth/device'), { userCode: auth.userCode ?? '' });
    expect(fast.status).toBe(429);
    expect(fast.html).toContain('Codes are entered too fast');
  } finally {
    await emu.stop();
  }
});
