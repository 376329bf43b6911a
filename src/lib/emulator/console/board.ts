/**
 * The emulator's console at /console: what the account holds, by
 * environment (every service's records that live in one, with their status,
 * updated live as the clock moves), the request log with filters, the clock
 * (pause, advance, resume) and the fault switches, and any resource's JSON at
 * a click. Behind the same sign-in as the console's other pages: a person
 * picks an active user of the account, and gets a session cookie
 * (HttpOnly, SameSite=Strict, path /console) that lives in this process only.
 *
 *   GET  /console                    the page (server-rendered; a small script keeps it live)
 *   GET  /console/signin             choose the user
 *   POST /console/signin             sign in: 303 to /console
 *   POST /console/signout
 *   GET  /console/app.js             the page's script
 *   GET  /console/part/{clock,resources,log}   a part of the page, rendered again (the script keeps the page live)
 *   GET  /console/api/state          JSON: account, clock, faults, environments and what runs in them
 *   GET  /console/api/log?service&operation&status&actor   JSON: the newest requests that match
 *   GET  /console/api/resource?ref   JSON: one record as its service shows it
 *   POST /console/api/clock          {pause} | {resume} | {advance: "15m"}
 *   POST /console/api/faults         {rate, kinds, latencyMs}
 *
 * Every request needs the console's secret (secret.ts: `?token=` in the
 * link `emulator start` prints, then the cookie it sets); every POST needs
 * the session and its token in `x-console-token` (a page of
 * another origin can send neither), and a form post to sign in needs the
 * one-time id of the page it came from. Every value shown is escaped on the
 * server, and set as text (never as markup) by the script.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseDuration } from '../clock.js';
import { ApiError } from '../errors.js';
import type { LogEntry } from '../request-log.js';
import type { FaultSettings } from '../http/faults.js';
import type { World } from '../world.js';
import { APP_SCRIPT, boardPage, boardSignInPage, clockPart, logPart, resourcesPart } from './board-page.js';
import { refuse, Refusal, type ConsoleFlows, type ConsoleHost } from './flows.js';
import { checkOrigin, pageHeaders, readSmallBody, redirect, requireSecret, sendJson, sendPage } from './http.js';
import { ConsoleGate, cookieOf, same } from './secret.js';

/** What the board needs of the emulator beyond the sign-in pages' host. */
export interface BoardHost extends ConsoleHost {
  readonly worldView: World;
  readonly faultSettings: FaultSettings;
  setFaults(f: FaultSettings): void;
  driveClock(change: { pause?: boolean; resume?: boolean; advanceMs?: number }): unknown;
  recentRequests(): readonly LogEntry[];
}

interface Session {
  readonly userCrn: string;
  readonly email: string;
  /** Sent back by the page with every change it asks for. */
  readonly token: string;
  readonly expiresAt: number;
}

const COOKIE = 'cdpctl_console';
/** A session lasts a working day, in real time. */
const SESSION_MS = 12 * 3_600_000;
const MAX_SESSIONS = 200;
/** Requests the log shows at most. */
const LOG_SHOWN = 200;
const BODY_LIMIT = 16 * 1024;

const HTML_HEADERS = pageHeaders(
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
);
/** JSON answers are not sniffed either. */
const JSON_HEADERS = { 'x-content-type-options': 'nosniff' };

const secret = (): string => randomBytes(24).toString('base64url');

export class ConsoleBoard {
  private readonly sessions = new Map<string, Session>();
  /** One-time ids of sign-in pages served (a form post must carry one). */
  private readonly signIns = new Map<string, number>();

  private readonly gate: ConsoleGate;

  constructor(
    private readonly host: BoardHost,
    private readonly flows: ConsoleFlows,
    private readonly now: () => number = Date.now,
  ) {
    this.gate = new ConsoleGate(host.consoleToken ?? '');
  }

  private session(req: IncomingMessage): Session | undefined {
    const id = cookieOf(req, COOKIE);
    const s = id ? this.sessions.get(id) : undefined;
    if (!s) return undefined;
    if (s.expiresAt <= this.now()) {
      this.sessions.delete(id ?? '');
      return undefined;
    }
    return s;
  }

  /** Serves one request under /console; never throws. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/\/+$/, '') || '/console';
    const api = path.startsWith('/console/api/') || path.startsWith('/console/part/');
    try {
      // Every page and call asks for the console's secret (secret.ts), a signed-in one too.
      requireSecret(this.gate, req, url, res);
      const route = `${req.method ?? ''} ${path}`;
      if (route === 'GET /console/app.js')
        return sendPage(res, HTML_HEADERS, 200, APP_SCRIPT, { 'content-type': 'text/javascript; charset=utf-8' });
      if (route === 'GET /console/signin') return this.signInPage(res);
      if (route === 'POST /console/signin') return await this.signIn(req, res);
      const s = this.session(req);
      if (!s) {
        if (api) throw new Refusal(401, 'UNAUTHENTICATED', 'Not signed in', 'Sign in at /console/signin first.');
        return redirect(res, '/console/signin');
      }
      if (req.method === 'POST') this.checkToken(req, s);
      switch (route) {
        case 'GET /console':
          return this.page(
            res,
            200,
            boardPage(this.host.info, { ...this.state(), user: s.email, token: s.token }, this.log(url.searchParams), this.services()),
          );
        case 'GET /console/part/clock':
          return this.page(res, 200, clockPart(this.state().clock));
        case 'GET /console/part/resources':
          return this.page(res, 200, resourcesPart(this.state().environments));
        case 'GET /console/part/log':
          return this.page(res, 200, logPart(this.log(url.searchParams)));
        case 'POST /console/signout':
          this.sessions.delete(cookieOf(req, COOKIE) ?? '');
          res.writeHead(303, {
            location: '/console/signin',
            'set-cookie': `${COOKIE}=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict`,
          });
          return void res.end();
        case 'GET /console/api/state':
          return this.json(res, 200, this.state());
        case 'GET /console/api/log':
          return this.json(res, 200, { requests: this.log(url.searchParams) });
        case 'GET /console/api/resource':
          return this.json(res, 200, this.resource(url.searchParams.get('ref') ?? ''));
        case 'POST /console/api/clock':
          return this.json(res, 200, this.clock(await this.body(req)));
        case 'POST /console/api/faults':
          return this.json(res, 200, this.faults(await this.body(req)));
        default:
          throw refuse.notFound('Not found', `There is no page at ${path.slice(0, 200)}.`);
      }
    } catch (err) {
      const known = err instanceof ApiError;
      const status = known ? err.status : 500;
      const message = known ? err.message : 'The emulator failed to handle this request.';
      if (!res.headersSent) {
        if (api || req.method === 'POST') this.json(res, status, { code: known ? err.code : 'INTERNAL_ERROR', message });
        else this.page(res, status, boardSignInPage(this.host.info, { error: message, requestId: this.newSignIn(), users: [], total: 0 }));
      }
      if (!req.complete) req.resume();
    }
  }

  // ---- sign-in ---------------------------------------------------------------------

  private newSignIn(): string {
    const id = secret();
    while (this.signIns.size >= MAX_SESSIONS) this.signIns.delete(this.signIns.keys().next().value ?? '');
    this.signIns.set(id, this.now() + 10 * 60_000);
    return id;
  }

  private signInPage(res: ServerResponse): void {
    const { listed, total } = this.flows.users();
    this.page(res, 200, boardSignInPage(this.host.info, { requestId: this.newSignIn(), users: listed, total }));
  }

  private async signIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    checkOrigin(req, 'The sign-in form may only be sent from the console’s own page.');
    const form = new URLSearchParams(await readSmallBody(req, BODY_LIMIT, 'request'));
    const id = form.get('request') ?? '';
    const until = this.signIns.get(id);
    this.signIns.delete(id);
    if (until === undefined || until <= this.now())
      throw refuse.invalid('Sign-in expired', 'This sign-in page has expired or was used; open /console/signin again.');
    const user = this.flows.chosenUser(form.get('otherUser')?.trim() || form.get('user'));
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value ?? '');
    const sid = secret();
    this.sessions.set(sid, { userCrn: user.crn, email: user.email ?? user.id, token: secret(), expiresAt: this.now() + SESSION_MS });
    res.writeHead(303, {
      location: '/console',
      'set-cookie': `${COOKIE}=${sid}; Path=/console; Max-Age=${SESSION_MS / 1000}; HttpOnly; SameSite=Strict`,
      'cache-control': 'no-store',
    });
    res.end();
  }

  private checkToken(req: IncomingMessage, s: Session): void {
    const given = req.headers['x-console-token'];
    if (!same(typeof given === 'string' ? given : undefined, s.token))
      throw refuse.denied('Not allowed', 'Changes must come from the console page (its token is missing or wrong).');
  }

  // ---- what the page shows -----------------------------------------------------------

  /** The account as the page shows it: clock, faults, and every environment with what runs in it. */
  state() {
    const host = this.host;
    const scope = { store: host.store, clock: host.clock.frozen(), info: host.info };
    const { now, paused } = host.clock.state();
    return host.store.transaction(
      () => ({
        accountId: host.info.accountId,
        clock: { now: new Date(now).toISOString(), paused, timeScale: host.clock.scale },
        faults: host.faultSettings,
        environments: host.worldView
          .in(scope)
          .environments.all()
          .map((e) => ({
            name: e.environmentName,
            crn: e.crn,
            cloudPlatform: e.cloudPlatform,
            region: e.region,
            status: e.status,
            ref: `environment/${e.crn}`,
            resources: host.worldView
              .inEnvironment(scope, e.crn)
              .map((d) => ({ service: d.service, noun: d.noun, name: d.name, status: d.status, ref: d.ref })),
          })),
      }),
      { readOnly: true },
    );
  }

  /** The services of the requests kept, for the log's filter. */
  private services(): string[] {
    return [...new Set(this.host.recentRequests().map((r) => r.service))].filter((x) => x !== '-').sort();
  }

  /** The newest requests that match the filters (each a part of the field, any case), newest first. */
  log(q: URLSearchParams): LogEntry[] {
    const want = (k: string): string => (q.get(k) ?? '').trim().toLowerCase();
    const [service, operation, status, actor] = ['service', 'operation', 'status', 'actor'].map(want);
    const out: LogEntry[] = [];
    const all = this.host.recentRequests();
    for (let i = all.length - 1; i >= 0 && out.length < LOG_SHOWN; i--) {
      const e = all[i];
      if (!e) continue;
      if (service && e.service.toLowerCase() !== service) continue;
      if (operation && !e.operation.toLowerCase().includes(operation)) continue;
      if (status && !statusMatches(e.status, status)) continue;
      if (actor && !e.caller.toLowerCase().includes(actor)) continue;
      out.push(e);
    }
    return out;
  }

  /** One record as its service shows it: an environment, or something that runs in one. */
  resource(ref: string): unknown {
    const host = this.host;
    const scope = { store: host.store, clock: host.clock.frozen(), info: host.info };
    return host.store.transaction(
      () => {
        if (ref.startsWith('environment/')) {
          const env = host.worldView.in(scope).environments.find(ref.slice('environment/'.length));
          if (env) return env;
        } else
          for (const e of host.worldView.in(scope).environments.all()) {
            const hit = host.worldView.inEnvironment(scope, e.crn).find((d) => d.ref === ref);
            if (hit) return hit.view();
          }
        throw refuse.notFound('Not found', `Nothing is known as ${ref.slice(0, 200)}.`);
      },
      { readOnly: true },
    );
  }

  private clock(body: Record<string, unknown>): unknown {
    const advanceMs = typeof body.advance === 'string' ? parseDuration(body.advance) : undefined;
    if (body.advance !== undefined && advanceMs === undefined)
      throw refuse.invalid('Not a duration', 'advance takes a duration such as 30s, 15m, 2h or 1d.');
    this.host.driveClock({ pause: body.pause === true, resume: body.resume === true, ...(advanceMs !== undefined ? { advanceMs } : {}) });
    return this.state().clock;
  }

  private faults(body: Record<string, unknown>): FaultSettings {
    const rate = Number(body.rate ?? 0);
    const latencyMs = Number(body.latencyMs ?? 0);
    const kinds = Array.isArray(body.kinds) ? body.kinds.map(String) : [];
    if (!(rate >= 0 && rate <= 1)) throw refuse.invalid('Bad rate', 'The fault rate is a fraction between 0 and 1.');
    if (!(latencyMs >= 0 && latencyMs <= 60_000)) throw refuse.invalid('Bad latency', 'The latency is 0 to 60000 ms.');
    const known = ['503', '429', 'reset'] as const;
    const chosen = known.filter((k) => kinds.includes(k));
    if (chosen.length !== kinds.length) throw refuse.invalid('Bad kinds', 'Fault kinds are 503, 429 and reset.');
    if (rate > 0 && chosen.length === 0) throw refuse.invalid('No kind', 'Choose at least one kind of fault to inject.');
    this.host.setFaults({ rate, latencyMs, kinds: chosen });
    return this.host.faultSettings;
  }

  // ---- answers -----------------------------------------------------------------------

  private async body(req: IncomingMessage): Promise<Record<string, unknown>> {
    if ((req.headers['content-type'] ?? '').split(';')[0]?.trim() !== 'application/json')
      throw new Refusal(415, 'INVALID_ARGUMENT', 'Not JSON', 'Changes are sent as application/json.');
    let v: unknown;
    try {
      v = JSON.parse((await readSmallBody(req, BODY_LIMIT, 'request')) || '{}');
    } catch {
      throw refuse.invalid('Not JSON', 'The request body is not valid JSON.');
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw refuse.invalid('Not an object', 'The request body must be a JSON object.');
    return v as Record<string, unknown>;
  }

  private page(res: ServerResponse, status: number, html: string): void {
    sendPage(res, HTML_HEADERS, status, html);
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    sendJson(res, status, body, JSON_HEADERS);
  }
}

/** A status filter: `2xx`, `4xx`, `5xx`, `error` (any failure), or a status number. */
function statusMatches(status: number, filter: string): boolean {
  if (/^[1-5]xx$/.test(filter)) return Math.floor(status / 100) === Number(filter[0]);
  if (filter === 'error') return status === 0 || status >= 400;
  return String(status) === filter;
}
