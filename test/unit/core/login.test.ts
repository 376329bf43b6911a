/**
 * The login flows' pieces without a browser: where the console is, the
 * sign-in address, how $BROWSER is read, how the key is saved, and the
 * listener and the device poll against small stand-in consoles.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, request, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserCommands, splitCommand } from '../../../src/lib/core/browser.js';
import { readIni, setCredentials } from '../../../src/lib/core/config.js';
import { CdpError, cdpError } from '../../../src/lib/core/errors.js';
import { DEFAULT_HTTP, HttpClient } from '../../../src/lib/core/http.js';
import {
  awaitDeviceKey,
  browserLogin,
  consoleAddress,
  requestDeviceCode,
  signInAddress,
  type ReceivedKey,
} from '../../../src/lib/core/login.js';

describe('the console address', () => {
  const at = (flow: 'browser' | 'device', config: Record<string, string> = {}, region?: string, explicit?: string): string =>
    consoleAddress(flow, { config, region, explicit, env: {} });

  it('follows the region when nothing is configured, as cdp does', () => {
    expect(at('browser')).toBe('https://consoleauth.altus.cloudera.com/login');
    expect(at('device')).toBe('https://consoleauth.altus.cloudera.com/deviceAuthorization');
    expect(at('browser', {}, 'eu-1')).toBe('https://console.eu-1.cdp.cloudera.com/consoleauth/login');
    expect(at('device', { cdp_region: 'ap-1' })).toBe('https://console.ap-1.cdp.cloudera.com/consoleauth/deviceAuthorization');
    expect(at('browser', {}, 'usg-1')).toBe('https://console.usg-1.cdp.clouderagovt.com/consoleauth/login');
  });

  it('takes login_url or device_login_url from the profile, and --login-url over both', () => {
    const config = {
      login_url: 'http://localhost:9/consoleauth/login',
      device_login_url: 'http://localhost:9/consoleauth/deviceAuthorization',
    };
    expect(at('browser', config)).toBe(config.login_url);
    expect(at('device', config)).toBe(config.device_login_url);
    expect(at('browser', config, undefined, 'https://sso.example.test/start')).toBe('https://sso.example.test/start');
  });

  it('refuses a configured address that is not http(s)', () => {
    expect(() => at('browser', { login_url: 'file:///etc/passwd' })).toThrow(/must start with http/);
    expect(() => at('browser', { login_url: 'not a url' })).toThrow(/not a URL/);
  });
});

describe('the sign-in address', () => {
  it('adds account, identity provider and client; the address itself wins, as in cdp', () => {
    const u = signInAddress('https://c.example.test/login?x=1', { accountId: 'acct', identityProvider: 'okta', clientId: 'c-1' });
    expect(Object.fromEntries(u.searchParams)).toEqual({ x: '1', accountId: 'acct', idp: 'okta', clientId: 'c-1' });
    const pinned = signInAddress('https://c.example.test/login?accountId=from-url&idp=from-url', {
      accountId: 'flag',
      identityProvider: 'flag',
    });
    expect(pinned.searchParams.get('accountId')).toBe('from-url');
    expect(pinned.searchParams.get('idp')).toBe('from-url');
  });

  it('needs an account (exit 2, with the way to set it once)', () => {
    let err: unknown;
    try {
      signInAddress('https://c.example.test/login', {});
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CdpError);
    expect((err as CdpError).exitCode).toBe(2);
    expect((err as CdpError).message).toMatch(/--account-id/);
    expect((err as CdpError).details.join('\n')).toMatch(/configure set account_id/);
  });
});

describe('$BROWSER and the platform opener', () => {
  it('splits a command line as a shell would, without expanding anything', () => {
    expect(splitCommand(`firefox --new-window`)).toEqual(['firefox', '--new-window']);
    expect(splitCommand(`'/opt/My Browser/run' "a b" c\\ d`)).toEqual(['/opt/My Browser/run', 'a b', 'c d']);
    expect(splitCommand(`echo $HOME "$(x)"`)).toEqual(['echo', '$HOME', '$(x)']);
    expect(splitCommand(`a '' b`)).toEqual(['a', '', 'b']);
  });

  it('runs $BROWSER entries in order, the URL for %s or appended', () => {
    const url = 'http://localhost:1/login?a=1&b=2';
    expect(browserCommands(url, { BROWSER: 'w3m' }, 'linux')).toEqual([['w3m', url]]);
    expect(browserCommands(url, { BROWSER: 'firefox --private-window %s:lynx' }, 'linux')).toEqual([
      ['firefox', '--private-window', url],
      ['lynx', url],
    ]);
    expect(browserCommands(url, { BROWSER: `"C:\\Program Files\\b.exe";edge` }, 'win32')).toEqual([
      ['C:\\Program Files\\b.exe', url],
      ['edge', url],
    ]);
  });

  it('uses the platform opener otherwise, and none on Linux without a display', () => {
    const url = 'http://localhost:1/';
    expect(browserCommands(url, {}, 'darwin')).toEqual([['open', url]]);
    expect(browserCommands(url, { DISPLAY: ':0' }, 'linux')).toEqual([['xdg-open', url]]);
    expect(browserCommands(url, { WAYLAND_DISPLAY: 'wayland-0' }, 'freebsd')).toEqual([['xdg-open', url]]);
    expect(browserCommands(url, {}, 'linux')).toEqual([]);
    expect(browserCommands(url, {}, 'win32')[0]?.slice(0, 3)).toEqual(['cmd', '/c', 'start']);
  });
});

describe('saving the key', () => {
  it('writes both values in one rewrite, keeps other profiles and keys, mode 0600, PEM newlines as \\n', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cdpctl-login-'));
    mkdirSync(join(home, '.cdp'));
    const path = join(home, '.cdp', 'credentials');
    writeFileSync(path, '[prod]\ncdp_access_key_id = prod-id\ncdp_private_key = prod-key\n[emulator]\nextra = kept\n', { mode: 0o644 });
    const pem = '-----BEGIN PRIVATE KEY-----\nAAAA\r\nBBBB\n-----END PRIVATE KEY-----\n';
    expect(await setCredentials('emulator', 'new-id', pem, { HOME: home })).toBe(path);
    const data = readIni(path);
    expect(data.prod).toEqual({ cdp_access_key_id: 'prod-id', cdp_private_key: 'prod-key' });
    expect(data.emulator).toEqual({
      extra: 'kept',
      cdp_access_key_id: 'new-id',
      cdp_private_key: '-----BEGIN PRIVATE KEY-----\\nAAAA\\nBBBB\\n-----END PRIVATE KEY-----\\n',
    });
    expect(readFileSync(path, 'utf8')).not.toMatch(/"/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // logout: blank values, the section stays.
    await setCredentials('emulator', '', '', { HOME: home });
    expect(readIni(path).emulator).toEqual({ extra: 'kept', cdp_access_key_id: '', cdp_private_key: '' });
  });
});

/** GET on the listener, as the browser does when the console redirects it. */
function get(url: string, host?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      { host: '127.0.0.1', port: u.port, path: u.pathname + u.search, headers: { host: host ?? u.host }, agent: false },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the browser flow listener', () => {
  const base = new URL('https://console.example.test/login?accountId=acct');
  const STATE = 'the-state-of-this-sign-in';

  /** Runs browserLogin; `visit` plays the console and browser with the full login address. */
  async function login(
    visit: (loginUrl: URL, returnUrl: string) => Promise<void>,
    opts: { signal?: AbortSignal; timeoutMs?: number; save?: (k: ReceivedKey) => Promise<void> } = {},
  ): Promise<{ key?: ReceivedKey; error?: CdpError; saved: ReceivedKey[] }> {
    const saved: ReceivedKey[] = [];
    let visiting: Promise<void> = Promise.resolve();
    try {
      const key = await browserLogin({
        loginUrl: base,
        state: STATE,
        timeoutMs: opts.timeoutMs ?? 30_000,
        signal: opts.signal,
        profile: 'p',
        save: opts.save ?? (async (k) => void saved.push(k)),
        onListening: (url) => {
          const ret = url.searchParams.get('returnUrl') ?? '';
          visiting = visit(url, ret);
        },
      });
      await visiting;
      return { key, saved };
    } catch (err) {
      await visiting;
      return { error: err as CdpError, saved };
    }
  }

  it('asks the console to come back to localhost, saves the key it brings, and answers with a closing page', async () => {
    let page = '';
    const r = await login(async (url, ret) => {
      expect(url.origin + url.pathname).toBe('https://console.example.test/login');
      expect(url.searchParams.get('accountId')).toBe('acct');
      // The state rides in the return address's path, so a console that only redirects there brings it back.
      expect(ret).toBe(`http://localhost:${new URL(ret).port}/interactiveLogin/${STATE}`);
      const plain = `${new URL(ret).origin}/interactiveLogin`;
      // Stray requests (a favicon, another path) are answered 404 and do not end the wait.
      expect((await get(`${new URL(ret).origin}/favicon.ico`)).status).toBe(404);
      // An answer without this sign-in's state (a forged key) is refused, and the wait goes on.
      expect((await get(`${plain}?accessKeyId=evil&privateKey=evil`)).status).toBe(403);
      expect((await get(`${plain}?accessKeyId=evil&privateKey=evil&state=guess`)).status).toBe(403);
      expect((await get(`${plain}/guess?accessKeyId=evil&privateKey=evil`)).status).toBe(403);
      const res = await get(`${ret}?accessKeyId=k-1&privateKey=${encodeURIComponent('a+b/c=')}`);
      page = res.body;
    });
    expect(r.key).toEqual({ accessKeyId: 'k-1', privateKey: 'a+b/c=' });
    expect(r.saved).toEqual([{ accessKeyId: 'k-1', privateKey: 'a+b/c=' }]);
    expect(page).toMatch(/window\.close\(\)/);
    expect(page).toMatch(/saved the access key k-1 to the profile &quot;p&quot;/);
  });

  it("reports the console's error as LOGIN_FAILED (exit 3) and saves nothing", async () => {
    // A console that echoes the state as a parameter is believed too.
    const r = await login(
      async (_url, ret) =>
        void (await get(`${new URL(ret).origin}/interactiveLogin?error=${encodeURIComponent('access_denied: <b>no</b>')}&state=${STATE}`)),
    );
    expect(r.error?.code).toBe('LOGIN_FAILED');
    expect(r.error?.exitCode).toBe(3);
    expect(r.error?.message).toMatch(/access_denied: <b>no<\/b>/);
    expect(r.saved).toEqual([]);
  });

  it('refuses requests addressed to another host name (DNS rebinding)', async () => {
    let status = 0;
    const r = await login(async (_url, ret) => {
      status = (await get(`${ret}?accessKeyId=k&privateKey=p&state=${STATE}`, 'evil.example.test')).status;
      await get(`${ret}?error=stop&state=${STATE}`);
    });
    expect(status).toBe(403);
    expect(r.saved).toEqual([]);
    expect(r.error?.code).toBe('LOGIN_FAILED');
  });

  it('stops on Ctrl-C (exit 130) and on timeout (exit 3), saving nothing', async () => {
    const ac = new AbortController();
    const cancelled = await login(async () => ac.abort(), { signal: ac.signal });
    expect(cancelled.error?.exitCode).toBe(130);
    expect(cancelled.saved).toEqual([]);
    const late = await login(async () => undefined, { timeoutMs: 50 });
    expect(late.error?.code).toBe('LOGIN_TIMEOUT');
    expect(late.error?.exitCode).toBe(3);
  });

  it('answers 500 and fails when the key cannot be saved, and the page says why', async () => {
    let page = { status: 0, body: '' };
    const r = await login(async (_url, ret) => void (page = await get(`${ret}?accessKeyId=k&privateKey=p&state=${STATE}`)), {
      save: async () => {
        throw cdpError({ kind: 'auth', code: 'INVALID_PRIVATE_KEY', message: 'bad <key>' });
      },
    });
    expect(page.status).toBe(500);
    expect(page.body).toContain('<h1>Sign-in failed</h1>');
    expect(page.body).toContain('cdpctl refused the access key the console sent: bad &lt;key&gt;');
    expect(r.error?.code).toBe('INVALID_PRIVATE_KEY');
  });
});

describe('the device flow', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
  });

  /** A stand-in console answering the poll with the given statuses in turn. */
  async function console_(polls: Array<[number, unknown]>): Promise<{ url: URL; bodies: string[] }> {
    const bodies: string[] = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const port = (server?.address() as { port: number }).port;
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              deviceCode: 'dev-1',
              userCode: 'BCDF-GHJK',
              expiresIn: { low: 600, high: 0 },
              verificationUrl: `http://localhost:${port}/device`,
              accessKeyUrl: `http://localhost:${port}/key`,
              interval: 1,
            }),
          );
          return;
        }
        bodies.push(`${req.headers['content-type']} ${body}`);
        const [status, doc] = polls.shift() ?? [500, {}];
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(doc));
      });
    });
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
    return { url: new URL(`http://localhost:${(server.address() as { port: number }).port}/auth?accountId=a&clientId=c-1`), bodies };
  }

  const http = (): HttpClient => new HttpClient({ ...DEFAULT_HTTP, maxAttempts: 1, env: {} });

  it('gets a code, polls with the form fields while pending (401/404), and returns the key', async () => {
    const c = await console_([
      [401, { code: 'AUTHORIZATION_PENDING' }],
      [404, {}],
      [200, { accessKeyId: 'k-9', privateKey: 'pk' }],
    ]);
    const client = http();
    const code = await requestDeviceCode(client, c.url);
    expect(code).toMatchObject({ deviceCode: 'dev-1', userCode: 'BCDF-GHJK', expiresInS: 600, intervalS: 1 });
    expect(await awaitDeviceKey(client, code, 'c-1')).toEqual({ accessKeyId: 'k-9', privateKey: 'pk' });
    expect(c.bodies).toHaveLength(3);
    expect(c.bodies[0]).toBe('application/x-www-form-urlencoded clientId=c-1&deviceCode=dev-1&userCode=BCDF-GHJK');
    client.close();
  });

  it("sends the sign-in's state with each poll, and refuses a key whose answer carries another", async () => {
    const c = await console_([
      [401, {}],
      [200, { accessKeyId: 'k-9', privateKey: 'pk', state: 'someone-else' }],
    ]);
    const client = http();
    const code = await requestDeviceCode(client, c.url);
    const err = (await awaitDeviceKey(client, code, 'c-1', { state: 'mine' }).catch((e: unknown) => e)) as CdpError;
    expect(err.code).toBe('DEVICE_LOGIN_FAILED');
    expect(err.message).toMatch(/does not belong to this sign-in/);
    expect(c.bodies[0]).toBe('application/x-www-form-urlencoded clientId=c-1&deviceCode=dev-1&userCode=BCDF-GHJK&state=mine');
    client.close();
  });

  it("stops with the console's words on any other answer (exit 3)", async () => {
    const c = await console_([[410, { code: 'EXPIRED', message: 'The code BCDF-GHJK expired.' }]]);
    const client = http();
    const code = await requestDeviceCode(client, c.url);
    const err = (await awaitDeviceKey(client, code, 'c-1').catch((e: unknown) => e)) as CdpError;
    expect(err.code).toBe('DEVICE_LOGIN_FAILED');
    expect(err.exitCode).toBe(3);
    expect(err.message).toMatch(/HTTP 410\): EXPIRED: The code BCDF-GHJK expired\./);
    client.close();
  });

  it('stops on Ctrl-C between polls (exit 130)', async () => {
    const c = await console_([[401, {}]]);
    const client = http();
    const code = await requestDeviceCode(client, c.url);
    const ac = new AbortController();
    const waiting = awaitDeviceKey(client, code, 'c-1', { signal: ac.signal }).catch((e: unknown) => e);
    while (c.bodies.length === 0) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    expect(((await waiting) as CdpError).exitCode).toBe(130);
    client.close();
  });
});
