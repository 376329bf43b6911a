/**
 * `cdpctl login` in a real headless browser (Debian's chromium driven by
 * playwright-core): $BROWSER hands the address cdpctl opens to the test, the
 * browser signs in on the emulator's console pages, and the key cdpctl saved
 * must sign `iam getUser` as the user chosen there. The device flow the same
 * way, with the browser typing the printed code.
 *
 * Without chromium the tests are skipped with a message, except in CI
 * (CI=true), where they must run: .ci/run installs the chromium package.
 * With CDPCTL_SCREENSHOTS_DIR set, each page is saved there as a PNG.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { readIni } from '../../src/lib/core/config.js';
import { CHROMIUM_ARGS, chromiumPath, urlCatcher, type UrlCatcher } from '../helpers/browser.js';
import { consoleSecret, start, startEmulator, type TestEmulator } from '../helpers/cli.js';

const executable = chromiumPath();
const inCI = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';
if (!executable && !inCI) {
  process.stderr.write(
    'login-browser.test.ts: skipped, no chromium found (apt-get install chromium, or set CDPCTL_CHROMIUM); CI runs it\n',
  );
}
const describeBrowser = executable || inCI ? describe : describe.skip;

const shots = process.env.CDPCTL_SCREENSHOTS_DIR;

async function screenshot(page: Page, name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

describeBrowser('signing in with a real browser', () => {
  let emu: TestEmulator;
  let catcher: UrlCatcher;
  let context: BrowserContext;
  let profileDir: string;

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    profileDir = mkdtempSync(join(tmpdir(), 'cdpctl-chromium-'));
    [emu, catcher, context] = await Promise.all([
      startEmulator(),
      urlCatcher(),
      // A fresh profile directory each run; Debian's chromium at its path, never a downloaded one.
      chromium.launchPersistentContext(profileDir, {
        executablePath: executable ?? '/usr/bin/chromium',
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: { width: 900, height: 760 },
      }),
    ]);
    for (const [email, id, first, last] of [
      ['alice@example.com', 'alice', 'Alice', 'Archer'],
      ['bob@example.com', 'bob', 'Bob', 'Baker'],
    ] as const) {
      const r = await emu.cli([
        'iam',
        'users',
        'create',
        '--email',
        email,
        '--identity-provider-user-id',
        id,
        '--first-name',
        first,
        '--last-name',
        last,
      ]);
      expect(r.code).toBe(0);
    }
  });

  afterAll(async () => {
    await context?.close();
    await catcher?.close();
    await emu?.stop();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  const whoAmI = async (): Promise<string> => (await emu.json<{ user: { email: string } }>(['iam', 'users', 'get'])).user.email;

  test('browser flow: the chosen user signs in by keyboard; the saved key signs iam getUser as that user', async () => {
    const login = start(['login', '--profile', 'emulator'], { home: emu.home, env: { BROWSER: catcher.browser } });
    const page = await context.newPage();
    await page.goto(await catcher.next());
    expect(await page.title()).toBe('Sign in to the command line · CDP emulator');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    // Every choice is a labelled radio; the first is chosen and has the focus.
    const form = await page.locator('form').ariaSnapshot();
    expect(form).toContain('group "Sign in as"');
    expect(form).toMatch(/radio "Alice Archer alice@example\.com"/);
    expect(form).toMatch(/button "Sign in"/);
    expect(form).toMatch(/button "Cancel"/);
    expect(await page.locator(':focus').getAttribute('value')).toMatch(/:user:/);
    await screenshot(page, 'login');

    // Keyboard only: the arrow moves the choice to Alice (admins first, then by email), Tab reaches Sign in, Enter sends.
    await page.keyboard.press('ArrowDown');
    expect(await page.getByLabel(/alice@example\.com/).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('Sign in');
    await Promise.all([page.waitForURL(/\/interactiveLogin[/?]/), page.keyboard.press('Enter')]);
    // cdpctl's own closing page (the window may close itself; headless keeps it for the picture).
    expect(await page.locator('h1').textContent()).toBe('Signed in');
    await screenshot(page, 'closing');
    await page.close();

    const r = await login.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Signed in as alice@example\.com \(user\)/);
    expect(await whoAmI()).toBe('alice@example.com');
  });

  test('device flow: the browser enters the printed code and signs in as the chosen user', async () => {
    const login = start(['login', '--profile', 'emulator', '--use-device-code'], { home: emu.home });
    const [, verificationUrl = '', userCode = ''] = await login.waitFor(
      /open the page (\S+) and enter the code ([A-Z]{4}-[A-Z]{4}) to authenticate/,
    );
    const page = await context.newPage();
    await page.goto(verificationUrl);
    expect(await page.locator(':focus').getAttribute('id')).toBe('user-code');
    await screenshot(page, 'device-code');
    // A mistyped code is refused on the page, which says why next to the field.
    await page.keyboard.type('BBBB-BBBB');
    await page.keyboard.press('Enter');
    // The same address answers the post: wait for what the answer shows.
    await page.getByRole('alert').waitFor();
    const field = page.getByLabel('Code');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').textContent()).toMatch(/No sign-in is waiting for the code BBBB-BBBB/);
    await screenshot(page, 'device-wrong-code');

    await field.fill(userCode.toLowerCase());
    await field.press('Enter');
    await page.getByRole('heading', { name: 'Confirm the device sign-in' }).waitFor();
    expect(await page.locator('main').textContent()).toContain(userCode);
    await page.getByLabel(/bob@example\.com/).check();
    await screenshot(page, 'device-confirm');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/consoleauth\/device\/approve$/);
    expect(await page.locator('h1').textContent()).toBe('Device signed in');
    await screenshot(page, 'device-done');
    await page.close();

    const r = await login.done;
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Device login is successful.');
    expect(await whoAmI()).toBe('bob@example.com');
  });

  test('a refused sign-in shows an error page', async () => {
    const page = await context.newPage();
    const res = await page.goto(
      `http://localhost:${emu.port}/consoleauth/login?accountId=no-such-account&returnUrl=${encodeURIComponent('http://localhost:9/interactiveLogin')}&token=${consoleSecret(emu.dataDir)}`,
    );
    expect(res?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Unknown account');
    expect(await page.getByRole('alert').textContent()).toMatch(/There is no account no-such-account here/);
    await screenshot(page, 'error-unknown-account');
    const account = String(readIni(join(emu.home, '.cdp', 'config'))['profile emulator']?.account_id);
    const bad = await page.goto(
      `http://localhost:${emu.port}/consoleauth/login?accountId=${account}&returnUrl=${encodeURIComponent('http://evil.example.test:80/steal')}&token=${consoleSecret(emu.dataDir)}`,
    );
    expect(bad?.status()).toBe(400);
    expect(await page.locator('h1').textContent()).toBe('This return address is not allowed');
    await screenshot(page, 'error-return-address');
    await page.close();
  });
});
