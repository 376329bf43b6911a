/**
 * `cdpctl login`, `logout` and `auth status` through the real binary against
 * the emulator's console pages, with plain HTTP standing in for the browser:
 * the refusals, Ctrl-C, a console error, no browser at hand, the device
 * flow's denial and expiry, and what each leaves in ~/.cdp. The same flows
 * in a real browser are in login-browser.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIni } from '../../src/lib/core/config.js';
import { bootstrap } from '../../src/lib/emulator/bootstrap.js';
import { Emulator } from '../../src/lib/emulator/server.js';
import { BIN, baseEnv, start, startEmulator, tempHome, type TestEmulator } from '../helpers/cli.js';
import { plainBrowser, urlCatcher, type UrlCatcher } from '../helpers/browser.js';
import { plain, ptyAvailable, spawnPty, KEYS } from '../helpers/pty.js';

let emu: TestEmulator;
let catcher: UrlCatcher;
let credentialsPath: string;

const credentials = (): Record<string, Record<string, unknown>> => readIni(credentialsPath);

beforeAll(async () => {
  emu = await startEmulator();
  catcher = await urlCatcher();
  credentialsPath = join(emu.home, '.cdp', 'credentials');
  // Another profile, which every login and logout must leave alone.
  const creds = readFileSync(credentialsPath, 'utf8');
  writeFileSync(credentialsPath, `${creds}\n[keep]\ncdp_access_key_id = keep-id\ncdp_private_key = keep-key\n`, { mode: 0o600 });
  const made = await emu.cli([
    'iam',
    'users',
    'create',
    '--email',
    'bob@example.com',
    '--identity-provider-user-id',
    'bob',
    '--first-name',
    'Bob',
  ]);
  expect(made.code).toBe(0);
});

afterAll(async () => {
  await catcher.close();
  await emu.stop();
});

/** What a browser would see at an address (without following redirects), and its form posts (following them, to cdpctl's listener). */
const { visit, submit } = plainBrowser();

const hidden = (html: string, name: string): string => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';

/** The radio value of the user whose label shows this email. */
const userValue = (html: string, email: string): string =>
  new RegExp(`value="([^"]+)"[^>]*>\\s*<label[^>]*>(?:(?!</label>).)*${email.replace('.', '\\.')}`, 's').exec(html)?.[1] ?? '';

const origin = (): string => `http://localhost:${emu.port}`;
/** The console's secret, as the profile's login address carries it (console/secret.ts). */
const secret = (): string =>
  new URL(String(readIni(join(emu.home, '.cdp', 'config'))['profile emulator']?.login_url)).searchParams.get('token') ?? '';

const keyCount = async (): Promise<number> =>
  ((await emu.json(['iam', 'access-keys', 'list'])) as { accessKeys: unknown[] }).accessKeys.length;

describe('the browser flow', () => {
  test('signs in as the chosen user: a new key in the profile, other profiles kept, mode 0600', async () => {
    const login = start(['login', '--profile', 'emulator'], { home: emu.home, env: { BROWSER: catcher.browser } });
    const url = new URL(await catcher.next());
    expect(url.origin + url.pathname).toBe(`${origin()}/consoleauth/login`);
    const page = await visit(url.href);
    expect(page.status).toBe(200);
    expect(page.html).toContain('bob@example.com');
    const closing = await submit(`${origin()}/consoleauth/login`, {
      request: hidden(page.html, 'request'),
      user: userValue(page.html, 'bob@example.com'),
      action: 'signin',
    });
    expect(closing.html).toMatch(/Signed in[\s\S]*window\.close\(\)|window\.close\(\)[\s\S]*Signed in/);
    const r = await login.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Signed in as bob@example\.com \(user\) in account/);
    const saved = credentials();
    expect(saved.keep).toEqual({ cdp_access_key_id: 'keep-id', cdp_private_key: 'keep-key' });
    expect(closing.html).toContain(String(saved.emulator?.cdp_access_key_id));
    expect(statSync(credentialsPath).mode & 0o777).toBe(0o600);
    const me = await emu.json<{ user: { email: string } }>(['iam', 'users', 'get']);
    expect(me.user.email).toBe('bob@example.com');
  });

  test('prints the address when no browser can be opened, and the sign-in still works', async () => {
    const login = start(['login', '--profile', 'emulator'], {
      home: emu.home,
      env: { BROWSER: '/nonexistent/browser --flag', DISPLAY: undefined, WAYLAND_DISPLAY: undefined },
    });
    const m = await login.waitFor(/Could not open a web browser\. To sign in, open this address in one:\s+(http\S+)/);
    const page = await visit(m[1] ?? '');
    await submit(`${origin()}/consoleauth/login`, {
      request: hidden(page.html, 'request'),
      user: userValue(page.html, 'admin@example.com'),
      action: 'signin',
    });
    const r = await login.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Signed in as admin@example\.com \(user, account admin\)/);

    // No $BROWSER and no display to open a window on (an SSH session): the address, not a text browser.
    const bare = start(['login', '--profile', 'emulator'], {
      home: emu.home,
      env: { BROWSER: undefined, DISPLAY: undefined, WAYLAND_DISPLAY: undefined },
    });
    await bare.waitFor(/open this address in one:\s+http:\/\/localhost:\d+\/consoleauth\/login\?\S+/);
    bare.child.kill('SIGINT');
    expect((await bare.done).code).toBe(130);
  });

  test('Cancel on the page: the console error is reported, exit 3, nothing saved', async () => {
    const before = readFileSync(credentialsPath, 'utf8');
    const login = start(['login', '--profile', 'emulator'], { home: emu.home, env: { BROWSER: catcher.browser } });
    const page = await visit(await catcher.next());
    const shown = await submit(`${origin()}/consoleauth/login`, { request: hidden(page.html, 'request'), action: 'cancel' });
    expect(shown.html).toContain('Sign-in failed');
    const r = await login.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/LOGIN_FAILED: the console refused the sign-in: access_denied: the sign-in was cancelled in the browser/);
    expect(readFileSync(credentialsPath, 'utf8')).toBe(before);
  });

  test('Ctrl-C while waiting exits 130 and writes nothing; an unknown account is refused by the page', async () => {
    const before = readFileSync(credentialsPath, 'utf8');
    const login = start(['login', '--profile', 'emulator', '--account-id', 'no-such-account'], {
      home: emu.home,
      env: { BROWSER: catcher.browser },
    });
    const refused = await visit(await catcher.next());
    expect(refused.status).toBe(404);
    expect(refused.html).toMatch(/Unknown account[\s\S]*There is no account <code>no-such-account<\/code> here/);
    await login.waitFor(/Waiting for you to sign in/);
    login.child.kill('SIGINT');
    const r = await login.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/INTERRUPTED: sign-in cancelled; nothing was saved/);
    expect(readFileSync(credentialsPath, 'utf8')).toBe(before);
  });

  test('the console refuses a returnUrl that is not http://localhost:<port>/ or http://127.0.0.1:<port>/, and makes no key', async () => {
    const keys = await keyCount();
    const acct = readIni(join(emu.home, '.cdp', 'config'))['profile emulator']?.account_id;
    for (const returnUrl of [
      'http://evil.example.test:8080/interactiveLogin',
      'https://localhost:8080/interactiveLogin',
      'http://localhost/interactiveLogin',
      'http://localhost:8080@evil.example.test/interactiveLogin',
      'http://127.1:8080/interactiveLogin',
    ]) {
      const page = await visit(
        `${origin()}/consoleauth/login?${new URLSearchParams({ accountId: String(acct), returnUrl, token: secret() })}`,
      );
      expect([returnUrl, page.status]).toEqual([returnUrl, 400]);
      expect(page.html).toContain('This return address is not allowed');
      expect(page.html).not.toContain('name="request"');
    }
    const ok = await visit(
      `${origin()}/consoleauth/login?${new URLSearchParams({ accountId: String(acct), returnUrl: 'http://127.0.0.1:8080/x', token: secret() })}`,
    );
    expect(ok.status).toBe(200);
    // A form post from another site's page is refused too, the console's secret notwithstanding.
    const res = await fetch(`${origin()}/consoleauth/login?token=${secret()}`, {
      method: 'POST',
      headers: { origin: 'http://evil.example.test' },
      body: new URLSearchParams({ request: hidden(ok.html, 'request'), user: userValue(ok.html, 'admin@example.com'), action: 'signin' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(await keyCount()).toBe(keys);
  });

  test('needs an account: exit 2 with the way to set one, and no profile is made', async () => {
    const r = await emu.raw(['login', '--profile', 'fresh'], { env: { BROWSER: catcher.browser } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--account-id/);
    expect(r.stderr).toMatch(/configure set account_id/);
    expect(credentials().fresh).toBeUndefined();
  });
});

describe('the device flow', () => {
  test('Deny in the browser: exit 3 and nothing saved; a wrong code is refused on the page', async () => {
    const before = readFileSync(credentialsPath, 'utf8');
    const login = start(['login', '--profile', 'emulator', '--use-device-code'], { home: emu.home });
    const m = await login.waitFor(/open the page (\S+) and enter the code ([A-Z]{4}-[A-Z]{4}) to authenticate\./);
    // The page's address carries the console's secret.
    expect(m[1]).toBe(`${origin()}/consoleauth/device?token=${secret()}`);
    const wrong = await submit(m[1] ?? '', { userCode: 'BBBB-BBBB' });
    expect(wrong.status).toBe(404);
    expect(wrong.html).toMatch(/No sign-in is waiting for the code <code>BBBB-BBBB<\/code>/);
    expect(wrong.html).toMatch(/aria-invalid="true"/);
    const choose = await submit(m[1] ?? '', { userCode: (m[2] ?? '').toLowerCase() });
    expect(choose.status).toBe(200);
    const done = await submit(`${origin()}/consoleauth/device/approve`, { userCode: hidden(choose.html, 'userCode'), action: 'deny' });
    expect(done.html).toContain('Sign-in denied');
    const r = await login.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/DEVICE_LOGIN_FAILED: .*ACCESS_DENIED: The sign-in was denied in the browser/);
    expect(readFileSync(credentialsPath, 'utf8')).toBe(before);
  });

  test('an expired code is refused by the page and ends the wait with exit 3', async () => {
    // An emulator in this process whose codes live 1.5 s.
    const home = tempHome('cdpctl-login-ttl-');
    const short = new Emulator({ dataDir: join(home, 'emu'), port: 0, timeScale: 1000, consoleTtlMs: 1500 });
    await short.start();
    await bootstrap(short, { HOME: home });
    try {
      const path = join(home, '.cdp', 'credentials');
      const before = readFileSync(path, 'utf8');
      const login = start(['login', '--profile', 'emulator', '--use-device-code'], { home });
      const m = await login.waitFor(/open the page (\S+) and enter the code ([A-Z]{4}-[A-Z]{4})/);
      const r = await login.done;
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/the code [A-Z]{4}-[A-Z]{4} expired before anyone signed in with it/i);
      const late = await submit(m[1] ?? '', { userCode: m[2] ?? '' });
      expect(late.status).toBe(410);
      expect(late.html).toContain(`The code <code>${m[2] ?? ''}</code> has expired`);
      expect(readFileSync(path, 'utf8')).toBe(before);
    } finally {
      await short.stop();
    }
  });
});

describe('logout and auth status', () => {
  test('auth status shows the user, account, key and endpoint (text and json)', async () => {
    const text = await emu.cli(['auth', 'status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`^Profile "emulator" at http://localhost:${emu.port}/\\n  ✓ Signed in as \\S+@example\\.com \\(user`),
    );
    expect(text.stdout).toMatch(/- Account: [0-9a-f-]{36}\n/);
    expect(text.stdout).toMatch(/- Access key: [0-9a-f-]{36} \(V2, Ed25519\) from .*credentials\n/);
    const json = await emu.json<Record<string, unknown>>(['auth', 'status']);
    expect(json).toMatchObject({
      profile: 'emulator',
      endpoint: `http://localhost:${emu.port}/`,
      keyWorks: true,
      accessKey: { type: 'V2', authMethod: 'ed25519v1' },
      identity: { kind: 'user' },
    });
  });

  test('auth status names a machine user, and says when a key no longer works (exit 3)', async () => {
    expect((await emu.cli(['iam', 'machine-users', 'create', '--machine-user-name', 'ci-bot'])).code).toBe(0);
    const key = await emu.json<{ accessKey: { accessKeyId: string }; privateKey: string }>([
      'iam',
      'access-keys',
      'create-for-machine-user',
      '--machine-user-name',
      'ci-bot',
    ]);
    // The profile by CDP_PROFILE, not --profile: as with cdp, a profile named by the flag wins over these variables.
    const env = { CDP_ACCESS_KEY_ID: key.accessKey.accessKeyId, CDP_PRIVATE_KEY: key.privateKey, CDP_PROFILE: 'emulator' };
    const bot = await emu.raw(['auth', 'status', '--output', 'json'], { env });
    expect(bot.code).toBe(0);
    expect(JSON.parse(bot.stdout)).toMatchObject({
      keyWorks: true,
      identity: { kind: 'machineUser', name: 'ci-bot' },
      accessKey: { source: 'environment' },
    });
    expect((await emu.raw(['auth', 'status'], { env })).stdout).toMatch(/✓ Signed in as ci-bot \(machine user\)/);

    expect((await emu.cli(['iam', 'access-keys', 'delete', '--access-key-id', key.accessKey.accessKeyId, '--yes'])).code).toBe(0);
    const dead = await emu.raw(['auth', 'status'], { env });
    expect(dead.code).toBe(3);
    expect(dead.stdout).toMatch(/✗ The key does not work: UNAUTHENTICATED: /);
    expect(dead.stdout).toMatch(/To sign in: cdpctl login --profile emulator/);
  });

  test("logout blanks the profile's key and keeps the rest; auth status then says not signed in", async () => {
    const before = credentials().emulator?.cdp_access_key_id;
    const out = await emu.cli(['logout']);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`Removed the access key ${String(before)} of profile "emulator"`);
    expect(out.stderr).toMatch(/iam access-keys delete --access-key-id/);
    const after = credentials();
    expect(after.emulator).toEqual({ cdp_access_key_id: '', cdp_private_key: '' });
    expect(after.keep).toEqual({ cdp_access_key_id: 'keep-id', cdp_private_key: 'keep-key' });
    expect(readIni(join(emu.home, '.cdp', 'config'))['profile emulator']?.login_url).toBe(
      `${origin()}/consoleauth/login?token=${secret()}`,
    );
    expect(secret()).toMatch(/^[\w-]{43}$/);
    expect(statSync(credentialsPath).mode & 0o777).toBe(0o600);
    const status = await emu.cli(['auth', 'status', '--output', 'json']);
    expect(status.code).toBe(3);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'emulator', keyWorks: false, error: { code: 'NO_CREDENTIALS' } });
    expect((await emu.cli(['auth', 'status'])).stdout).toMatch(/✗ Not signed in: NO_CREDENTIALS/);
    const again = await emu.cli(['logout']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/has no access key .*nothing to remove/);
  });
});

const describePty = ptyAvailable() ? describe : describe.skip;

describePty('on a terminal', () => {
  test('a spinner shows while waiting, and Ctrl-C stops it with exit 130 and nothing written', async () => {
    const home = tempHome('cdpctl-login-pty-');
    mkdirSync(join(home, '.cdp'));
    writeFileSync(join(home, '.cdp', 'config'), `[profile p]\naccount_id = acct\nlogin_url = ${origin()}/consoleauth/login\n`);
    const s = spawnPty([process.execPath, BIN, 'login', '--profile', 'p'], {
      env: { ...baseEnv(home), CI: undefined, BROWSER: catcher.browser },
    });
    await catcher.next();
    await s.expect('Waiting for you to sign in (Ctrl-C to cancel)');
    s.type(KEYS.ctrlC);
    expect(await s.exit()).toBe(130);
    const shown = plain(s.output());
    // oclif's spinner: the message, then the closing word on the same line.
    expect(shown).toMatch(/Waiting for you to sign in \(Ctrl-C to cancel\)\.{3} cancelled/);
    expect(shown).toContain('INTERRUPTED: sign-in cancelled; nothing was saved');
    expect(() => statSync(join(home, '.cdp', 'credentials'))).toThrow();
  });
});
