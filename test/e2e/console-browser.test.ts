/**
 * The emulator's console page (/console) in a real headless browser
 * (Debian's chromium driven by playwright-core): it signs in on the
 * console's sign-in page, sees a database created through the CLI change
 * status as the clock is advanced from the page, filters the request log,
 * pauses and resumes the clock, shows a record's JSON, and shows a hostile
 * name as text. Then, without a browser, what the page's API refuses.
 *
 * Without chromium the browser part is skipped with a message, except in CI
 * (CI=true), where it must run: .ci/run installs the chromium package. With
 * CDPCTL_SCREENSHOTS_DIR set, the pages are saved there as PNGs.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../helpers/browser.js';
import { consoleSecret, startEmulator, type TestEmulator } from '../helpers/cli.js';

const executable = chromiumPath();
const inCI = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';
if (!executable && !inCI)
  process.stderr.write('console-browser.test.ts: browser part skipped, no chromium found (apt-get install chromium); CI runs it\n');
const describeBrowser = executable || inCI ? describe : describe.skip;
const shots = process.env.CDPCTL_SCREENSHOTS_DIR;

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startEmulator({ timeScale: 60 });
  const ok = async (args: string[]): Promise<void> => {
    const r = await emu.cli(args);
    if (r.code !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  };
  await ok(['opdb', 'databases', 'create', '--environment-name', 'sales-env', '--database-name', 'orders']);
  // A name a hostile script would choose: it must show as text, never as markup.
  await ok(['opdb', 'databases', 'create', '--environment-name', 'ops-env', '--database-name', '<img src=x onerror=window.pwned=1>']);
  await emu.cli(['iam', 'groups', 'create', '--group-name', 'dup']);
  await emu.cli(['iam', 'groups', 'create', '--group-name', 'dup']); // refused: ALREADY_EXISTS, a 409 in the log
});
afterAll(async () => {
  await emu?.stop();
});

const base = (): string => `http://localhost:${emu.port}`;

/** The page's document, typed as little as these checks need (they run in the browser, where it is the global). */
interface PageDocument {
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
}

describeBrowser('the console page in a real browser', () => {
  let context: BrowserContext;
  let page: Page;
  let profileDir: string;

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    profileDir = mkdtempSync(join(tmpdir(), 'cdpctl-chromium-'));
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: executable ?? '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
  });
  afterAll(async () => {
    await context?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  async function screenshot(name: string): Promise<void> {
    if (!shots) return;
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  }

  const statusOf = (name: string) =>
    page.locator('#resources tr', { has: page.getByRole('button', { name, exact: true }) }).locator('.badge');

  test('signs in, watches a database become AVAILABLE as the clock is advanced, and pauses and resumes the clock', async () => {
    // The console link `emulator start` prints carries the console's secret.
    await page.goto(`${base()}/console?token=${consoleSecret(emu.dataDir)}`);
    // Not signed in: the sign-in page, with the account's users.
    expect(page.url()).toMatch(/\/console\/signin$/);
    await screenshot('console-signin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console$/);
    expect(await page.locator('.who').textContent()).toMatch(/^signed in as admin@example\.com/);

    // Pause from the page: the clock says so, and a database created now stays in its first state.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.locator('#clock .now[data-paused="true"]').waitFor();
    expect(await page.locator('#clock .how').textContent()).toBe('paused');
    const created = await emu.cli(['opdb', 'databases', 'create', '--environment-name', 'sales-env', '--database-name', 'live-db']);
    expect(created.code).toBe(0);
    await statusOf('live-db').getByText('REQUESTED').waitFor();
    await screenshot('console-paused');

    // Advance from the page: the status changes without a reload.
    await page.locator('#advance').selectOption('15m');
    await page.getByRole('button', { name: 'Advance' }).click();
    await statusOf('live-db').getByText('AVAILABLE').waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.locator('#clock .now[data-paused="false"]').waitFor();
    expect(await page.locator('#clock .how').textContent()).toMatch(/^running 60× real time$/);
    await screenshot('console-board');
  });

  test('filters the request log by service and by status', async () => {
    await page.locator('#log-filters select[name="service"]').selectOption('opdb');
    await page.waitForFunction(() =>
      Array.from((globalThis as unknown as { document: PageDocument }).document.querySelectorAll('#log tbody tr td:nth-child(2)')).every(
        (td) => td.textContent === 'opdb',
      ),
    );
    const services = await page.locator('#log tbody tr td:nth-child(2)').allTextContents();
    expect(services.length).toBeGreaterThanOrEqual(3);
    expect(new Set(services)).toEqual(new Set(['opdb']));

    await page.locator('#log-filters select[name="service"]').selectOption('iam');
    await page.locator('#log-filters select[name="status"]').selectOption('error');
    await page.waitForFunction(
      () => (globalThis as unknown as { document: PageDocument }).document.querySelectorAll('#log tbody tr').length === 1,
    );
    expect(await page.locator('#log tbody tr').first().textContent()).toMatch(/createGroup.*409.*ALREADY_EXISTS/);
    await screenshot('console-log-filtered');
  });

  test("shows a record's JSON at a click, and a hostile name as text", async () => {
    await page.getByRole('button', { name: 'orders', exact: true }).click();
    await page.locator('#json[open]').waitFor();
    const text = await page.locator('#json-text').textContent();
    const record = JSON.parse(text ?? '{}') as { databaseName: string; status: string; environmentName: string };
    expect(record).toMatchObject({ databaseName: 'orders', environmentName: 'sales-env' });
    await screenshot('console-json');
    await page.getByRole('button', { name: 'Close' }).click();

    const hostile = page.getByRole('button', { name: '<img src=x onerror=window.pwned=1>', exact: true });
    await hostile.waitFor();
    expect(await page.evaluate("document.querySelectorAll('#resources img').length")).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
  });
});

/** A raw HTTP exchange with the emulator (no browser), with the console's secret as the cookie its link sets unless `secret` is false. */
function http(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
  secret = true,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  const cookie = [secret ? `cdpctl_console_key_${emu.port}=${consoleSecret(emu.dataDir)}` : '', headers.cookie ?? '']
    .filter(Boolean)
    .join('; ');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: emu.port,
        method,
        path,
        headers: { host: `localhost:${emu.port}`, ...headers, ...(cookie ? { cookie } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('what the console refuses', () => {
  test("without the console's secret every page and call is refused, sign-in first", async () => {
    for (const [method, path] of [
      ['GET', '/console'],
      ['GET', '/console/signin'],
      ['POST', '/console/signin'],
      ['GET', '/console/api/state'],
    ] as const) {
      const r = await http(method, path, {}, undefined, false);
      expect([method, path, r.status]).toEqual([method, path, 403]);
    }
    expect((await http('GET', `/console/signin?token=${'x'.repeat(43)}`, {}, undefined, false)).status).toBe(403);
    const opened = await http('GET', `/console/signin?token=${consoleSecret(emu.dataDir)}`, {}, undefined, false);
    expect(opened.status).toBe(200);
    expect(String(opened.headers['set-cookie'])).toMatch(
      new RegExp(`^cdpctl_console_key_${emu.port}=[\\w-]{43}; Path=/; HttpOnly; SameSite=Strict$`),
    );
  });

  test('no session: the page sends to sign-in, its parts and API answer 401', async () => {
    expect((await http('GET', '/console')).status).toBe(303);
    expect((await http('GET', '/console/part/resources')).status).toBe(401);
    expect((await http('GET', '/console/api/state')).status).toBe(401);
    expect((await http('POST', '/console/api/clock', { 'content-type': 'application/json' }, '{"pause":true}')).status).toBe(401);
  });

  test('a sign-in form from another origin, or without its page, is refused; a signed-in change needs the page token', async () => {
    const page = await http('GET', '/console/signin');
    const requestId = /name="request" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const user = /name="user" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const form = (id: string): string => new URLSearchParams({ request: id, user, action: 'signin' }).toString();
    const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await http('POST', '/console/signin', { ...formHeaders, origin: 'http://evil.example.test' }, form(requestId))).status).toBe(
      403,
    );
    expect((await http('POST', '/console/signin', formHeaders, form('made-up'))).status).toBe(400);
    const signed = await http('POST', '/console/signin', formHeaders, form(requestId));
    expect(signed.status).toBe(303);
    const cookie = String(signed.headers['set-cookie']).split(';')[0] ?? '';
    expect(String(signed.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    // The one-time page id was used.
    expect((await http('POST', '/console/signin', formHeaders, form(requestId))).status).toBe(400);

    const json = { cookie, 'content-type': 'application/json' };
    expect((await http('POST', '/console/api/clock', json, '{"pause":true}')).status).toBe(403);
    const board = await http('GET', '/console', { cookie });
    const token = /name="console-token" content="([^"]+)"/.exec(board.text)?.[1] ?? '';
    expect(board.headers['content-security-policy']).toMatch(/script-src 'self'/);
    const bad = await http('POST', '/console/api/clock', { ...json, 'x-console-token': token }, '{"advance":"soon"}');
    expect([bad.status, JSON.parse(bad.text).message]).toEqual([400, 'advance takes a duration such as 30s, 15m, 2h or 1d.']);
    const faults = await http('POST', '/console/api/faults', { ...json, 'x-console-token': token }, '{"rate":2,"kinds":["503"]}');
    expect(faults.status).toBe(400);
    const state = JSON.parse((await http('GET', '/console/api/state', { cookie })).text) as { environments: Array<{ name: string }> };
    expect(state.environments.map((e) => e.name)).toContain('sales-env');
  });
});
