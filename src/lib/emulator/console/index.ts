/**
 * The console's sign-in site under /consoleauth/, as `cdp login` and
 * `cdpctl login` reach it through the `emulator` profile's `login_url` and
 * `device_login_url`:
 *
 *   GET  /consoleauth/login?accountId&idp&returnUrl&state   the login page
 *   POST /consoleauth/login                           sign in (or cancel): 303 to returnUrl (with the state)
 *   GET  /consoleauth/deviceAuthorization?accountId&idp&clientId&state   JSON: a device code
 *   GET  /consoleauth/device                          the page to enter the code
 *   POST /consoleauth/device                          the code: choose the user (throttled per client)
 *   POST /consoleauth/device/approve                  approve (or deny) the device (throttled per client)
 *   POST /consoleauth/deviceAccessKey                 the CLI's poll (with the state): JSON
 *
 * Every one but the CLI's poll asks for the console's secret (secret.ts):
 * `?token=` in the link, or the cookie a page opened through one set.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../errors.js';
import { ConsoleFlows, refuse, Refusal, type ConsoleHost } from './flows.js';
import { checkOrigin, pageHeaders, readSmallBody, redirect, requireSecret, sendJson, sendPage } from './http.js';
import { ConsoleGate } from './secret.js';
import { deviceCodePage, deviceDonePage, deviceUserPage, errorPage, loginPage } from './pages.js';

const FORM_LIMIT = 64 * 1024;
const ORIGIN_REFUSAL = 'Sign-in forms may only be sent from the console’s own pages.';
/** The return address, which carries the key, is never told where the browser came from. */
const NO_REFERRER = { 'referrer-policy': 'no-referrer' };

/** Pages allow nothing from elsewhere; forms post here and may be sent on to the loopback return address. */
const PAGE_HEADERS = pageHeaders(
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self' http://localhost:* http://127.0.0.1:*; frame-ancestors 'none'; base-uri 'none'",
);

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    throw new Refusal(415, 'INVALID_ARGUMENT', 'Not a form', 'Expected a form post (application/x-www-form-urlencoded).');
  return new URLSearchParams(await readSmallBody(req, FORM_LIMIT, 'form'));
}

export class ConsoleSite {
  readonly flows: ConsoleFlows;
  readonly gate: ConsoleGate;

  constructor(
    private readonly host: ConsoleHost,
    ttlMs?: number,
    private readonly log?: (line: string) => void,
  ) {
    this.flows = new ConsoleFlows(host, ttlMs);
    this.gate = new ConsoleGate(host.consoleToken ?? '');
  }

  /** Serves one request under /consoleauth/; never throws. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = `${req.method ?? ''} ${url.pathname.replace(/\/+$/, '')}`;
    // Who enters device codes, for throttling guesses: the browser's address.
    const client = req.socket.remoteAddress ?? 'unknown';
    const wantsJson = url.pathname === '/consoleauth/deviceAuthorization' || url.pathname === '/consoleauth/deviceAccessKey';
    try {
      // The CLI's poll carries the device code, which only a caller with the secret was given.
      if (route !== 'POST /consoleauth/deviceAccessKey') requireSecret(this.gate, req, url, res);
      switch (route) {
        case 'GET /consoleauth/login': {
          const sr = this.flows.beginSignIn(url.searchParams);
          const { listed, total } = this.flows.users(sr.idpCrn);
          return sendPage(
            res,
            PAGE_HEADERS,
            200,
            loginPage(this.host.info, {
              requestId: sr.id,
              returnHost: sr.returnUrl.host,
              idp: url.searchParams.get('idp') ?? undefined,
              users: listed,
              total,
            }),
          );
        }
        case 'POST /consoleauth/login': {
          checkOrigin(req, ORIGIN_REFUSAL);
          const form = await readForm(req);
          if (form.get('action') === 'cancel') return redirect(res, this.flows.cancelSignIn(form.get('request')).href, NO_REFERRER);
          const user = form.get('otherUser')?.trim() || form.get('user');
          return redirect(res, this.flows.completeSignIn(form.get('request'), user).location.href, NO_REFERRER);
        }
        case 'GET /consoleauth/deviceAuthorization':
          return sendJson(res, 200, this.flows.authorizeDevice(url.searchParams));
        case 'POST /consoleauth/deviceAccessKey':
          return sendJson(res, 200, this.flows.collectDeviceKey(await readForm(req)));
        case 'GET /consoleauth/device':
          return sendPage(res, PAGE_HEADERS, 200, deviceCodePage(this.host.info));
        case 'POST /consoleauth/device': {
          checkOrigin(req, ORIGIN_REFUSAL);
          const form = await readForm(req);
          const typed = form.get('userCode') ?? '';
          let rec;
          try {
            rec = this.flows.deviceByUserCode(typed, client);
          } catch (err) {
            // A mistyped or stale code: the same page again, saying why.
            if (!(err instanceof Refusal)) throw err;
            return sendPage(res, PAGE_HEADERS, err.status, deviceCodePage(this.host.info, { error: err.message, typed }), err.headers);
          }
          const { listed, total } = this.flows.users(rec.idpCrn);
          return sendPage(res, PAGE_HEADERS, 200, deviceUserPage(this.host.info, { userCode: rec.userCode, users: listed, total }));
        }
        case 'POST /consoleauth/device/approve': {
          checkOrigin(req, ORIGIN_REFUSAL);
          const form = await readForm(req);
          if (form.get('action') === 'deny') {
            this.flows.denyDevice(form.get('userCode'), client);
            return sendPage(res, PAGE_HEADERS, 200, deviceDonePage(this.host.info, { approved: false }));
          }
          const { user } = this.flows.approveDevice(form.get('userCode'), form.get('otherUser')?.trim() || form.get('user'), client);
          return sendPage(res, PAGE_HEADERS, 200, deviceDonePage(this.host.info, { approved: true, who: user.email }));
        }
        default: {
          throw KNOWN.has(url.pathname.replace(/\/+$/, ''))
            ? new Refusal(405, 'METHOD_NOT_ALLOWED', 'Not allowed', `${req.method ?? ''} is not allowed at ${url.pathname}.`)
            : refuse.notFound('Not found', `There is no page at ${url.pathname.slice(0, 200)}.`);
        }
      }
    } catch (err) {
      const known = err instanceof ApiError;
      const status = known ? err.status : 500;
      const code = known ? err.code : 'INTERNAL_ERROR';
      const message = known ? err.message : 'The emulator failed to handle this request.';
      if (!known) this.log?.(`internal error in the console pages: ${(err as Error).stack ?? String(err)}`);
      if (!res.headersSent) {
        const headers = known ? err.headers : {};
        if (wantsJson) sendJson(res, status, { code, message: message.replace(/\{\{|\}\}/g, '') }, headers);
        else {
          const title = err instanceof Refusal ? err.title : known ? 'Sign-in refused' : 'Something went wrong';
          const again = url.pathname.startsWith('/consoleauth/device')
            ? { href: '/consoleauth/device', text: 'Enter a code again' }
            : undefined;
          sendPage(res, PAGE_HEADERS, status, errorPage(this.host.info, title, message, again), headers);
        }
      }
      if (!req.complete) req.resume();
    }
  }
}

/** The site's paths: another method at one of them is 405, not 404. */
const KNOWN = new Set([
  '/consoleauth/login',
  '/consoleauth/deviceAuthorization',
  '/consoleauth/deviceAccessKey',
  '/consoleauth/device',
  '/consoleauth/device/approve',
]);
