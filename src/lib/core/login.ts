/**
 * Signing in through the console, as `cdp login` does: the browser flow (a
 * one-shot listener on localhost receives the access key the console sends
 * back) and the device flow (ask the console for a code, let the user enter
 * it in any browser, poll for the key). No oclif, no terminal output: the
 * command shows progress and saves through the callbacks it passes.
 *
 * Each sign-in carries a `state` (OAuth 2.0's defence against login CSRF,
 * RFC 6749 section 10.12): a random value sent to the console with the
 * sign-in, and made part of the return address's path, so that it comes back
 * with the key whether the console echoes it or only redirects to the
 * address it was given. The listener takes a
 * key only with that value, so no other local process or web page can plant
 * its own key during the login window; the device flow checks it in the
 * console's answer too. The key itself is then checked by the command
 * before it is saved (it must sign a call as a user of the account asked for).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Env } from './config.js';
import { resolveRegion } from './endpoint.js';
import { CdpError, usageError, cdpError } from './errors.js';
import type { Transport } from './http.js';
import { printable } from './validate.js';

/** Seconds `cdp login` waits for the browser before giving up. */
export const DEFAULT_LOGIN_TIMEOUT_S = 600;
/** Seconds between polls of the device flow when the console names no interval. */
export const DEVICE_POLL_INTERVAL_S = 5;
/** The path of the return address the console redirects the browser to. */
export const RETURN_PATH = '/interactiveLogin';

export type LoginFlow = 'browser' | 'device';

export interface ReceivedKey {
  readonly accessKeyId: string;
  readonly privateKey: string;
}

/**
 * The console address to start from: --login-url, else the profile's
 * `login_url` (`device_login_url` for the device flow), else the region's
 * console (`consoleauth.altus.cloudera.com` for us-west-1,
 * `console.<region>.cdp.cloudera.com/consoleauth` elsewhere, the
 * `clouderagovt.com` domain for usg-1).
 */
export function consoleAddress(
  flow: LoginFlow,
  input: { readonly explicit?: string; readonly config: Readonly<Record<string, string>>; readonly region?: string; readonly env?: Env },
): string {
  const path = flow === 'device' ? 'deviceAuthorization' : 'login';
  const configured = input.explicit || (flow === 'device' ? input.config.device_login_url : input.config.login_url);
  if (configured) {
    let url: URL;
    try {
      url = new URL(configured);
    } catch {
      throw usageError(`the login address "${printable(configured, 200)}" is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw usageError(`the login address "${printable(configured, 200)}" must start with http:// or https://`);
    }
    return configured;
  }
  const region = resolveRegion({ region: input.region, config: input.config, env: input.env });
  if (region === 'us-west-1') return `https://consoleauth.altus.cloudera.com/${path}`;
  const domain = region === 'usg-1' ? 'cdp.clouderagovt.com' : 'cdp.cloudera.com';
  return `https://console.${region}.${domain}/consoleauth/${path}`;
}

/**
 * The address with the sign-in parameters added. Parameters the address
 * already carries win over flags and config (as in `cdp login`); the account
 * is required from one of them.
 */
export function signInAddress(
  base: string,
  params: {
    readonly accountId?: string;
    readonly identityProvider?: string;
    readonly returnUrl?: string;
    readonly clientId?: string;
    /** The sign-in's state (newLoginState), which the console sends back with the key. */
    readonly state?: string;
  },
): URL {
  const url = new URL(base);
  const q = url.searchParams;
  if (!q.has('accountId')) {
    if (!params.accountId) {
      throw usageError('the account to sign in to is needed: give --account-id', [
        'Or set it once for the profile: cdpctl configure set account_id <account-id> --profile <name>',
      ]);
    }
    q.set('accountId', params.accountId);
  }
  if (!q.has('idp') && params.identityProvider) q.set('idp', params.identityProvider);
  if (params.clientId !== undefined) q.set('clientId', params.clientId);
  if (params.returnUrl !== undefined) q.set('returnUrl', params.returnUrl);
  if (params.state !== undefined) q.set('state', params.state);
  return url;
}

/** A new sign-in's state: 256 random bits, URL-safe. */
export const newLoginState = (): string => randomBytes(32).toString('base64url');

/** Whether an answer carries this sign-in's state (compared in constant time). */
export function sameState(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The console refused or failed the sign-in (exit 3). */
export function loginError(code: string, message: string, details?: readonly string[]): CdpError {
  return cdpError({ kind: 'auth', code, message, details });
}

/** Ctrl-C while waiting (exit 130); nothing has been saved. */
export function interrupted(): CdpError {
  return cdpError({ kind: 'interrupted', code: 'INTERRUPTED', message: 'sign-in cancelled; nothing was saved' });
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The small page the listener answers the browser with; it closes itself when the browser lets it. */
export function listenerPage(title: string, lines: readonly string[], close: boolean): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(title)} - cdpctl</title>`,
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}h1{font-size:1.4rem}</style>',
    '</head>',
    `<body${close ? ' onload="window.close()"' : ''}>`,
    '<main>',
    `<h1>${escapeHtml(title)}</h1>`,
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export interface BrowserLoginOptions {
  /** The console's login address with everything but the return address. */
  readonly loginUrl: URL;
  /** Port of the listener; 0 (the default) picks a free one. */
  readonly port?: number;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Called once the listener is up, with the complete address to open. */
  readonly onListening: (url: URL) => void | Promise<void>;
  /** Checks and saves the key; runs before the browser is answered, so the page tells the truth. */
  readonly save: (key: ReceivedKey) => Promise<void>;
  /** Named on the closing page. */
  readonly profile: string;
  /** The state sent with the sign-in (in loginUrl); only an answer carrying it is taken. */
  readonly state: string;
  /** Told of an answer refused for not carrying the state (someone else's, or forged); the wait goes on. */
  readonly onForeignAnswer?: () => void;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.removeListener('error', reject);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

function answer(res: ServerResponse, status: number, html: string, done?: () => void): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(html, done);
}

/**
 * The browser flow: listens on localhost (both loopback families, one port),
 * hands the full login address to onListening, and waits for the console to
 * send the browser back to `http://localhost:<port>/interactiveLogin` with
 * `accessKeyId` and `privateKey` (saved, then answered with a page that
 * closes itself) or with `error` (a LOGIN_FAILED error). Rejects on timeout
 * and when the signal aborts; the listener is closed in every case.
 */
export async function browserLogin(opts: BrowserLoginOptions): Promise<ReceivedKey> {
  if (opts.signal?.aborted) throw interrupted();
  let settle!: { resolve: (k: ReceivedKey) => void; reject: (e: unknown) => void };
  const outcome = new Promise<ReceivedKey>((resolve, reject) => (settle = { resolve, reject }));
  let settled = false;
  let port = 0;
  const servers: Server[] = [];
  const finish = (err: unknown, key?: ReceivedKey): void => {
    if (settled) return;
    settled = true;
    if (key) settle.resolve(key);
    else settle.reject(err);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Only this machine's browser, addressing us by a loopback name (no DNS rebinding).
    const host = (req.headers.host ?? '').toLowerCase();
    if (host !== `localhost:${port}` && host !== `127.0.0.1:${port}` && host !== `[::1]:${port}`) {
      answer(res, 403, listenerPage('Not allowed', ['This listener only answers requests addressed to localhost.'], false));
      return;
    }
    const url = new URL(req.url ?? '/', `http://localhost:${port}`);
    // The state comes back in the return address's path (where no console needs to echo it), or as `state`.
    const inPath = url.pathname.startsWith(`${RETURN_PATH}/`) ? decodeURIComponent(url.pathname.slice(RETURN_PATH.length + 1)) : undefined;
    if (req.method !== 'GET' || (url.pathname !== RETURN_PATH && inPath === undefined) || settled) {
      answer(res, 404, listenerPage('Not found', ['cdpctl is waiting for the console to send you back here after signing in.'], false));
      return;
    }
    // Only the sign-in this listener started: anything else (a forged key, a forged error) is refused and the wait goes on.
    if (!sameState(inPath, opts.state) && !sameState(url.searchParams.get('state'), opts.state)) {
      answer(
        res,
        403,
        listenerPage('Not this sign-in', ['This answer does not belong to the sign-in cdpctl started. Nothing was saved.'], false),
      );
      opts.onForeignAnswer?.();
      return;
    }
    const error = url.searchParams.get('error');
    if (error !== null) {
      const shown = printable(error || 'no reason given', 300);
      answer(
        res,
        200,
        listenerPage('Sign-in failed', [`The console said: ${shown}`, 'Nothing was saved. Return to your terminal.'], false),
        () => finish(loginError('LOGIN_FAILED', `the console refused the sign-in: ${shown}`)),
      );
      return;
    }
    const accessKeyId = url.searchParams.get('accessKeyId');
    const privateKey = url.searchParams.get('privateKey');
    if (!accessKeyId || !privateKey) {
      answer(res, 400, listenerPage('Sign-in failed', ['The console sent no access key. Nothing was saved.'], false), () =>
        finish(loginError('LOGIN_FAILED', 'the console sent the browser back without an access key')),
      );
      return;
    }
    const key = { accessKeyId, privateKey };
    try {
      await opts.save(key);
    } catch (err) {
      // The browser is told why, as the terminal is: a page that only says it failed leaves the person guessing.
      const why = printable(err instanceof Error ? err.message : String(err), 600);
      answer(
        res,
        500,
        listenerPage('Sign-in failed', [`cdpctl refused the access key the console sent: ${why}`, 'Return to your terminal.'], false),
        () => finish(err),
      );
      return;
    }
    answer(
      res,
      200,
      listenerPage(
        'Signed in',
        [`cdpctl saved the access key ${accessKeyId} to the profile "${opts.profile}".`, 'It is safe to close this window.'],
        true,
      ),
      () => finish(undefined, key),
    );
  };

  const make = (): Server => {
    const s = createServer((req, res) => {
      handle(req, res).catch((err: unknown) => finish(err));
    });
    servers.push(s);
    return s;
  };
  try {
    port = await listen(make(), opts.port ?? 0, '127.0.0.1');
  } catch (err) {
    for (const s of servers) s.close();
    throw loginError('LOGIN_FAILED', `could not listen on localhost:${opts.port ?? 0} for the console's answer: ${(err as Error).message}`);
  }
  // Browsers may resolve localhost to ::1 first; answer there too when the system has IPv6.
  await listen(make(), port, '::1').catch(() => servers.pop()?.close());

  const timer = setTimeout(
    () =>
      finish(
        loginError('LOGIN_TIMEOUT', `no sign-in arrived within ${Math.round(opts.timeoutMs / 1000)} s; nothing was saved`, [
          'Run the command again, or use --use-device-code where no browser can reach this machine.',
        ]),
      ),
    opts.timeoutMs,
  );
  const onAbort = (): void => finish(interrupted());
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const url = new URL(opts.loginUrl.href);
    // The state rides in the return address too: a console that sends the browser back to it unchanged carries it,
    // whether or not it knows to echo a `state` parameter.
    url.searchParams.set('returnUrl', `http://localhost:${port}${RETURN_PATH}/${opts.state}`);
    await opts.onListening(url);
    return await outcome;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    for (const s of servers) {
      s.close();
      s.closeAllConnections();
    }
  }
}

export interface DeviceCode {
  readonly deviceCode: string;
  readonly userCode: string;
  readonly expiresInS: number;
  readonly verificationUrl: string;
  readonly accessKeyUrl: string;
  readonly intervalS: number;
}

/** The console's own words from an error answer: its JSON message, else the text. */
function consoleMessage(body: Buffer, status: number): string {
  const text = body.toString('utf8').trim();
  try {
    const doc = JSON.parse(text) as { message?: unknown; code?: unknown; error?: unknown };
    const msg = typeof doc.message === 'string' ? doc.message : typeof doc.error === 'string' ? doc.error : undefined;
    if (msg) return printable(typeof doc.code === 'string' ? `${doc.code}: ${msg}` : msg, 300);
  } catch {
    // Not JSON: the text itself.
  }
  return printable(text || `HTTP ${status}`, 300);
}

function jsonObject(body: Buffer, what: string): Record<string, unknown> {
  try {
    const doc = JSON.parse(body.toString('utf8')) as unknown;
    if (doc && typeof doc === 'object' && !Array.isArray(doc)) return doc as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw loginError('DEVICE_LOGIN_FAILED', `the console's answer to ${what} is not a JSON object`);
}

/** `expiresIn` arrives as protobuf's Long (`{low, high}`) or as a plain number. */
function seconds(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : v && typeof v === 'object' ? (v as { low?: unknown }).low : undefined;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Asks the console for a device code (GET on the device login address). */
export async function requestDeviceCode(http: Transport, url: URL): Promise<DeviceCode> {
  const res = await http.send({
    method: 'GET',
    url,
    headers: { accept: 'application/json' },
    body: Buffer.alloc(0),
    mutating: false,
    operation: 'device login',
  });
  if (res.status !== 200) {
    throw loginError(
      'DEVICE_LOGIN_FAILED',
      `the console refused the device sign-in (HTTP ${res.status}): ${consoleMessage(res.body, res.status)}`,
    );
  }
  const doc = jsonObject(res.body, 'the device sign-in');
  const str = (k: string): string => {
    const v = doc[k];
    if (typeof v !== 'string' || !v) throw loginError('DEVICE_LOGIN_FAILED', `the console's device sign-in answer has no ${k}`);
    return v;
  };
  const interval = typeof doc.interval === 'number' && doc.interval >= 1 && doc.interval <= 60 ? doc.interval : DEVICE_POLL_INTERVAL_S;
  return {
    deviceCode: str('deviceCode'),
    userCode: str('userCode'),
    verificationUrl: str('verificationUrl'),
    accessKeyUrl: str('accessKeyUrl'),
    expiresInS: seconds(doc.expiresIn) ?? DEFAULT_LOGIN_TIMEOUT_S,
    intervalS: interval,
  };
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(interrupted());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(interrupted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Polls the console's access key address (a form POST of clientId,
 * deviceCode and userCode) until it answers 200 with the key; 401 and 404
 * mean nobody has entered the code yet. Gives up when the code expires.
 */
export async function awaitDeviceKey(
  http: Transport,
  code: DeviceCode,
  clientId: string,
  opts: {
    readonly signal?: AbortSignal;
    /** The state sent with the device authorization: sent with each poll, and required in the answer with the key. */
    readonly state?: string;
  } = {},
): Promise<ReceivedKey> {
  const url = new URL(code.accessKeyUrl);
  const form = new URLSearchParams({ clientId, deviceCode: code.deviceCode, userCode: code.userCode });
  if (opts.state !== undefined) form.set('state', opts.state);
  const body = Buffer.from(form.toString());
  const deadline = Date.now() + code.expiresInS * 1000;
  for (;;) {
    if (opts.signal?.aborted) throw interrupted();
    const res = await http.send({
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      mutating: true,
      operation: 'device login',
    });
    if (opts.signal?.aborted) throw interrupted();
    if (res.status === 200) {
      const doc = jsonObject(res.body, 'the access key request');
      const accessKeyId = doc.accessKeyId;
      const privateKey = doc.privateKey;
      if (typeof accessKeyId !== 'string' || !accessKeyId || typeof privateKey !== 'string' || !privateKey) {
        throw loginError('DEVICE_LOGIN_FAILED', 'the console answered without an access key');
      }
      if (opts.state !== undefined && !sameState(typeof doc.state === 'string' ? doc.state : undefined, opts.state)) {
        throw loginError(
          'DEVICE_LOGIN_FAILED',
          "the console's answer does not belong to this sign-in (its state differs); nothing was saved",
        );
      }
      return { accessKeyId, privateKey };
    }
    if (res.status !== 401 && res.status !== 404) {
      throw loginError(
        'DEVICE_LOGIN_FAILED',
        `the console refused the device sign-in (HTTP ${res.status}): ${consoleMessage(res.body, res.status)}`,
      );
    }
    // One last poll at the deadline, then give up.
    const left = deadline - Date.now();
    if (left <= 0) {
      throw loginError('LOGIN_TIMEOUT', `the code ${code.userCode} expired before anyone signed in with it; nothing was saved`, [
        'Run the command again for a new code.',
      ]);
    }
    await pause(Math.min(code.intervalS * 1000, left), opts.signal);
  }
}
