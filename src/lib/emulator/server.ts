/**
 * The emulator: a real HTTP control plane on loopback. It routes by path to
 * the model's operations, authenticates every request as the real service
 * does, checks it against the same model the CLI uses, and runs the
 * service's handler in one SQLite transaction.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createWriteStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { READ_LIMITS } from '../core/bounded-read.js';
import { EMULATOR_TIME_SCALE } from '../core/emulator-protocol.js';
import { CdpError } from '../core/errors.js';
import { deeperThan, suggest, validateRequest } from '../core/validate.js';
import { loadAllServices, type Operation, type Service } from '../model/index.js';
import type { ShapeIndex, Type } from '../model/shapes.js';
import { authenticateBearer, authenticateSigned } from './auth.js';
import { Clock, type ClockState } from './clock.js';
import { NOT_EMULATED, notEmulatedMessage } from './coverage.js';
import { serve } from './engine/index.js';
import { ApiError, forbidden, invalid, notFound } from './errors.js';
import { pagingOf, type Paging } from './paging.js';
import { RequestLog, type LogEntry } from './request-log.js';
import { appliedKey, SeedError, type SeedFile } from './seed.js';
import { loadServiceModule } from './services/index.js';
import {
  checkStateFormat,
  exportState,
  importState,
  loadClock,
  parseStateFile,
  saveClock,
  saveClockTime,
  type StateFile,
} from './state.js';
import { Store } from './store.js';
import { newUploadPath } from './uploads.js';
import type { Caller, CallObserver, Doc, EmulatorInfo, Handler, OperationRef, RequestContext, ServedCall } from './types.js';
import type { ConsoleBoard } from './console/board.js';
import type { ConsoleSite } from './console/index.js';
import { CHALLENGE_HEADER, proofOf } from './identity.js';
import { World, type DependentKind, type Providers } from './world.js';
import type { Identities } from './world/contracts.js';

export interface FaultSettings {
  /** Fraction (0..1) of API requests answered with a fault instead. */
  readonly rate: number;
  /** Extra milliseconds before every answer. */
  readonly latencyMs: number;
  /**
   * Which faults to draw from: 503, 429 (answered with Retry-After: 0), reset
   * (the request is read in full, then the connection is dropped without an
   * answer and without processing it: what a client sees when a server dies
   * mid-request). See docs/reliability.md.
   */
  readonly kinds: ReadonlyArray<'503' | '429' | 'reset'>;
}

export interface EmulatorOptions {
  readonly dataDir: string;
  readonly port?: number;
  readonly timeScale?: number;
  readonly region?: string;
  readonly faults?: FaultSettings;
  /** Largest JSON body accepted, in bytes. */
  readonly maxBodyBytes?: number;
  readonly log?: (line: string) => void;
  /** How long a console sign-in page or device code stays usable (console/; default 10 minutes). */
  readonly consoleTtlMs?: number;
  /** Keep the request log (request-log.ts) in the data directory; default true. */
  readonly requestLog?: boolean;
  /**
   * Keep the state in memory, not in the data directory's database (the
   * library's startEmulator): nothing survives stop, and the request log is
   * kept in memory only. The data directory still receives uploads.
   */
  readonly inMemory?: boolean;
  /** Runs after an import replaced the state of the running emulator (the profile and pid file follow it). */
  readonly onStateReplaced?: () => Promise<void>;
  /**
   * Operations (`<service> <operation>`, wire names) answered 501
   * NOT_EMULATED as if this emulator had no code for them: what a client
   * meets when its model is newer than the emulator (tests of that path).
   */
  readonly notEmulated?: readonly string[];
  /** The profile this instance writes (shown by health). */
  readonly profile?: string;
  /** Points the instance's profile at it again, when it names something else (`emulator start` on a running instance). */
  readonly repairProfile?: () => Promise<unknown>;
}

interface Route {
  readonly op: Operation;
  /** What handlers see of the operation (its paging). */
  readonly ref: OperationRef;
  readonly handler?: Handler;
  readonly upload: boolean;
  /** For a workload path: the workload name its Bearer tokens must carry (DF). */
  readonly workload?: string;
  /** Where the operation's file goes (a redirected upload, see ServiceModule): on its JSON route, the path; on that path, set. */
  readonly redirect?: string;
}

/** A checked request of a redirected upload, waiting for its file. */
interface UploadSession {
  readonly route: Route;
  readonly request: Doc;
  readonly actorCrn: string;
  readonly expires: number;
}

/** How long a redirected upload's session waits for its file (real time). */
const UPLOAD_SESSION_MS = 10 * 60_000;

/** Arrivals of one mutating request (path + exact body); see Emulator.deliveries. */
export interface Delivery {
  readonly path: string;
  readonly sha256: string;
  /** Times it arrived in full. */
  received: number;
  /** Answered with an injected 503 or 429 (a client may send it again). */
  retryable: number;
  /** Dropped by an injected reset, unprocessed (a client must not send it again). */
  reset: number;
  /** Handed to validation and the handler. */
  processed: number;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export class Emulator {
  readonly store: Store;
  readonly clock: Clock;
  readonly adminToken = randomBytes(24).toString('hex');
  /** The secret the console's pages ask for, made at start (console/secret.ts, loaded with the console). */
  readonly consoleToken = randomBytes(32).toString('base64url');
  private readonly routes = new Map<string, Route>();
  /** Routes by `<service> <operation>` (wire names), for seeds. */
  private readonly byName = new Map<string, Route>();
  private services: Service[] = [];
  /** What every service's records have to do with environments (world.ts); made at start from the service modules. */
  private world = World.empty;
  /** The modules that see every mutating call (the audit trail). */
  private observers: CallObserver[] = [];
  private readonly requestLog?: RequestLog;
  private servers: Server[] = [];
  private portNumber = 0;
  private accountId = '';
  readonly region: string;
  private faults: FaultSettings;
  /** Counts for tests and benchmarks. */
  readonly stats = { requests: 0, faults: 0, errors: 0 };
  /**
   * How often each mutating JSON request (path + exact body) arrived, was
   * answered with an injected 503/429, was dropped by an injected reset, and
   * was processed. Lets tests show a mutating request is never delivered
   * again after an arrival that was not answered with a retryable status
   * (GET /_emulator/deliveries). Bounded: the oldest entries are dropped.
   */
  private readonly deliveries = new Map<string, Delivery>();

  constructor(private readonly opts: EmulatorOptions) {
    this.store = new Store(opts.inMemory ? ':memory:' : join(opts.dataDir, 'state.db'));
    try {
      checkStateFormat(this.store, opts.dataDir);
    } catch (err) {
      this.store.close();
      throw err;
    }
    this.clock = new Clock(opts.timeScale ?? 1, loadClock(this.store));
    if (opts.requestLog !== false) this.requestLog = new RequestLog(opts.inMemory ? undefined : opts.dataDir);
    this.region = opts.region ?? 'us-west-1';
    this.faults = opts.faults ?? { rate: 0, latencyMs: 0, kinds: [] };
  }

  get port(): number {
    return this.portNumber;
  }

  get info(): EmulatorInfo {
    return { accountId: this.accountId, region: this.region, baseUrl: `http://localhost:${this.portNumber}`, dataDir: this.opts.dataDir };
  }

  get account(): string {
    return this.accountId;
  }

  /** Loads the model and service modules and opens the loopback listeners. */
  async start(): Promise<void> {
    this.services = await loadAllServices();
    const dependents: DependentKind[] = [];
    const provided: Array<{ service: string; provides: Providers }> = [];
    for (const svc of this.services) {
      const mod = await loadServiceModule(svc.topic);
      const served = serve(svc, mod);
      const handlers = served.handlers;
      dependents.push(...served.dependents);
      provided.push({ service: svc.name, provides: served.provides });
      if (mod.observe) this.observers.push(mod.observe);
      for (const op of svc.operations()) {
        if (op.composed) continue; // run on the client: no path of its own
        const workload = svc.def.endpoint === 'workload' ? (mod?.workloadName ?? svc.name) : undefined;
        const ref: OperationRef = { service: svc.name, name: op.name, paging: pagingOf(op) };
        const served = !this.opts.notEmulated?.includes(`${svc.name} ${op.name}`);
        const redirect = mod.redirectedUploads?.[op.name];
        const route: Route = {
          op,
          ref,
          handler: served ? handlers[op.name] : undefined,
          upload: false,
          workload,
          ...(redirect ? { redirect } : {}),
        };
        this.routes.set(op.path, route);
        // The API gateway's form of every path, which clients of the private cloud and the
        // Ansible collection post to: the same route, authentication and checks.
        this.routes.set(gatewayPath(svc.name, op.name), route);
        this.byName.set(`${svc.name} ${op.name}`, route);
        if (op.cli.upload) this.routes.set(op.cli.upload.path, { ...route, upload: true });
        if (redirect) this.routes.set(redirect, { ...route, upload: true });
      }
    }
    this.world = World.of(dependents, provided);
    this.setAccount(this.store.meta('accountId') ?? '');
    await this.listen(this.opts.port ?? 0);
  }

  /** Records the account once bootstrapped (see bootstrap.ts). */
  setAccount(accountId: string): void {
    this.accountId = accountId;
    this.store.account = accountId;
  }

  private async listen(port: number): Promise<void> {
    const make = (): Server => {
      const s = createServer((req, res) => void this.handle(req, res));
      s.keepAliveTimeout = 65_000;
      s.headersTimeout = 70_000;
      s.requestTimeout = 120_000;
      return s;
    };
    const v4 = make();
    await new Promise<void>((resolve, reject) => {
      v4.once('error', reject);
      v4.listen(port, '127.0.0.1', () => resolve());
    });
    const addr = v4.address();
    this.portNumber = typeof addr === 'object' && addr ? addr.port : port;
    this.servers.push(v4);
    // The profile names `localhost`, which may resolve to ::1 first.
    const v6 = make();
    await new Promise<void>((resolve) => {
      v6.once('error', () => resolve());
      v6.listen(this.portNumber, '::1', () => {
        this.servers.push(v6);
        resolve();
      });
    });
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeAllConnections();
          }),
      ),
    );
    this.servers = [];
    await this.requestLog?.close();
    saveClock(this.store, this.clock.state());
    this.store.close();
  }

  setFaults(f: FaultSettings): void {
    this.faults = f;
  }

  /** The faults injected now. */
  get faultSettings(): FaultSettings {
    return this.faults;
  }

  /** The requests this process answered last, oldest first (the console's log). */
  recentRequests(): readonly LogEntry[] {
    return this.requestLog?.recent() ?? [];
  }

  /** What every service's records have to do with environments. */
  get worldView(): World {
    return this.world;
  }

  /** iam's keys, tokens and their owners, as every request is authenticated with them (made once: they read only the store). */
  private authIdentities?: Identities;

  private identities(): Identities {
    this.authIdentities ??= this.world.in({ store: this.store, clock: this.clock, info: this.info }).identities;
    return this.authIdentities;
  }

  /** The request id of an API answer (given with its headers: a setHeader before writeHead makes node take its slow path). */
  private readonly requestIds = new WeakMap<ServerResponse, string>();

  /**
   * Answers. With `drained` (a request whose body is still arriving) the
   * whole answer is written at once, for a client that reads while it
   * writes, but the exchange ends only once the rest of the body has been
   * read and dropped: ending earlier would close a `Connection: close`
   * socket under a client that is still writing, which then gets a reset
   * (EPIPE) instead of the answer. A body past the drain cap is cut off.
   */
  private send(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Readonly<Record<string, string>> = {},
    drained?: Promise<boolean>,
  ): void {
    if (res.headersSent || res.destroyed) return;
    const text = JSON.stringify(body);
    // Every answer carries a request id, as the control plane's do (clients show it with errors); an API answer's is in the request log.
    // The time scale lets a waiting client poll in emulated time (core/waiter.ts).
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'x-cdp-request-id': this.requestIds.get(res) ?? randomUUID(),
      [EMULATOR_TIME_SCALE]: String(this.clock.scale),
      ...headers,
    });
    if (!drained) {
      res.end(text);
      return;
    }
    res.write(text);
    void drained.then((whole) => res.end(() => (whole ? undefined : res.socket?.destroy())));
  }

  /** Answers with the error (see send for `drained`); returns its code. */
  private fail(res: ServerResponse, err: unknown, route?: Route, drained?: Promise<boolean>): string {
    if (err instanceof ApiError) {
      this.send(res, err.status, { code: err.code, message: err.message }, err.headers, drained);
      return err.code;
    }
    this.stats.errors++;
    this.opts.log?.(`internal error in ${route?.op.name ?? 'request'}: ${(err as Error).stack ?? String(err)}`);
    this.send(res, 500, { code: 'INTERNAL_ERROR', message: 'the emulator failed to handle this request' }, {}, drained);
    return 'INTERNAL_ERROR';
  }

  private delivery(path: string, body: Buffer): Delivery {
    const key = createHash('sha256').update(path).update('\n').update(body).digest('hex');
    let d = this.deliveries.get(key);
    if (!d) {
      if (this.deliveries.size >= 10_000) this.deliveries.delete(this.deliveries.keys().next().value ?? '');
      d = { path, sha256: key, received: 0, retryable: 0, reset: 0, processed: 0 };
      this.deliveries.set(key, d);
    }
    return d;
  }

  /**
   * What a path that names no operation is told. Under the gateway
   * (`/api/v1/<service>/<operation>`) it says which part is unknown and what
   * it could have been, since a client's typo there (a service's endpoint
   * name for its wire name, an operation's case) is otherwise a bare 404.
   */
  private noOperation(pathname: string): ApiError {
    const shown = `no operation at ${pathname.slice(0, 200)}`;
    const gateway = /^\/api\/v1\/([^/]+)\/([^/]+)$/.exec(pathname);
    if (!gateway) return notFound(shown);
    const [, service = '', operation = ''] = gateway;
    const services = [...new Set([...this.byName.keys()].map((k) => k.split(' ')[0] ?? ''))].sort();
    const sameService = services.find((s) => s.toLowerCase() === service.toLowerCase());
    if (sameService === undefined)
      return notFound(`${shown}: there is no service ${service.slice(0, 60)}; the services are ${services.join(', ')}`);
    if (sameService !== service) return notFound(`${shown}: the service is ${sameService}, in that case`);
    const operations = [...this.byName.keys()].filter((k) => k.startsWith(`${service} `)).map((k) => k.slice(service.length + 1));
    const sameOperation = operations.find((o) => o.toLowerCase() === operation.toLowerCase());
    return notFound(
      sameOperation
        ? `${shown}: the operation is ${sameOperation}, in that case`
        : `${shown}: ${service} has no operation ${operation.slice(0, 100)}`,
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let route: Route | undefined;
    let delivery: Delivery | undefined;
    let caller: Caller | undefined;
    let api = false;
    let code: string | undefined;
    const arrived = performance.now();
    const requestId = randomUUID();
    try {
      // DNS-rebinding guard: only loopback names may address this server.
      const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
      if (!LOOPBACK_HOSTS.has(host)) throw new ApiError(403, 'PERMISSION_DENIED', 'requests must address a loopback host name');
      const url = { pathname: pathOf(req.url ?? '/') };
      if (url.pathname.startsWith('/_emulator/')) return await this.admin(req, res, url.pathname);
      if (url.pathname.startsWith('/consoleauth/')) return await this.consolePages(req, res);
      if (url.pathname === '/console' || url.pathname.startsWith('/console/')) return await this.consoleBoard(req, res);
      api = true;
      this.requestIds.set(res, requestId);
      route = this.routes.get(url.pathname);
      if (!route) throw this.noOperation(url.pathname);
      if (req.method !== 'POST') throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method ?? ''} is not allowed; operations are POST`);
      this.stats.requests++;
      const limit = this.opts.maxBodyBytes ?? 4 * 1024 * 1024;
      // Mutating JSON requests are read first, so that every arrival is counted by its content.
      let body: Buffer | undefined;
      if (route.op.mutating && !route.upload) {
        body = await readBody(req, limit);
        delivery = this.delivery(url.pathname, body);
        delivery.received++;
      }
      // Latency after the request has arrived: a client that gives up meanwhile may still have it carried out.
      if (this.faults.latencyMs > 0) await new Promise((r) => setTimeout(r, this.faults.latencyMs));
      if (this.faults.rate > 0 && Math.random() < this.faults.rate && this.faults.kinds.length > 0) {
        const kind = this.faults.kinds[Math.floor(Math.random() * this.faults.kinds.length)];
        this.stats.faults++;
        if (kind === 'reset') {
          // The whole request has arrived; drop it unprocessed, with no answer.
          if (!route.upload && !body) await readBody(req, limit);
          if (delivery) delivery.reset++;
          req.socket.destroy();
          return;
        }
        if (delivery) delivery.retryable++;
        throw new ApiError(kind === '429' ? 429 : 503, kind === '429' ? 'TOO_MANY_REQUESTS' : 'SERVICE_UNAVAILABLE', 'injected fault', {
          'retry-after': '0',
        });
      }
      const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      const identities = this.identities();
      caller = route.workload
        ? authenticateBearer(identities, this.accountId, req.headers, route.workload)
        : authenticateSigned(identities, this.accountId, 'POST', url.pathname, req.headers);
      if (route.upload) return await this.upload(req, res, route, caller);
      if (contentType !== 'application/json') throw invalid('Content-Type must be application/json');
      body ??= await readBody(req, limit);
      const request = parseJson(body);
      if (delivery) delivery.processed++;
      if (route.redirect) return this.redirectUpload(res, route, request, caller);
      this.send(res, 200, this.dispatch(route, request, caller, origin(req, requestId)));
    } catch (err) {
      // An unread body (a 413, a refusal before the body was read) is read and dropped before the exchange ends.
      code = this.fail(res, err, route, req.complete ? undefined : drain(req, DRAIN_LIMIT));
    } finally {
      if (api && this.requestLog) this.logRequest({ requestId, arrived, route, caller, res, code });
    }
  }

  /** One line of the request log: who asked for what and how it ended; never a body. */
  private logRequest(r: { requestId: string; arrived: number; route?: Route; caller?: Caller; res: ServerResponse; code?: string }): void {
    const { requestId, arrived, route, caller, res } = r;
    const status = res.headersSent ? res.statusCode : 0;
    this.requestLog?.write({
      time: new Date(performance.timeOrigin + arrived).toISOString(),
      requestId,
      service: route?.ref.service ?? '-',
      operation: route?.ref.name ?? '-',
      caller: caller?.actorCrn ?? '-',
      status,
      ...(status === 0 ? { code: 'CONNECTION_DROPPED' } : r.code ? { code: r.code } : {}),
      durationMs: Math.round((performance.now() - arrived) * 100) / 100,
    });
  }

  /**
   * Validates and runs one request; the store transaction makes it
   * all-or-nothing. A mutating call is shown to the modules that observe
   * calls (the audit trail): a served one inside its transaction, a refused
   * one after it rolled back, in a transaction of its own.
   */
  private dispatch(route: Route, request: unknown, caller: Caller, how: CallOrigin, upload?: RequestContext['upload']): Doc {
    const op = route.op;
    const clock = this.clock.frozen();
    const observed = (result: ServedCall['result']): ServedCall => ({
      service: op.service.name,
      operation: op.name,
      requestId: how.requestId,
      caller,
      request: withoutSecrets(op, request),
      result,
      at: clock.now(),
      ...(how.sourceIp ? { sourceIp: how.sourceIp } : {}),
      ...(how.userAgent ? { userAgent: how.userAgent } : {}),
    });
    const scope = { store: this.store, clock, info: this.info };
    try {
      const handler = this.check(route, request, caller);
      const ctx: RequestContext = { store: this.store, clock, caller, info: this.info, world: this.world, upload, op: route.ref };
      return this.store.transaction(
        () => {
          const out = handler(request as Doc, ctx);
          if (op.mutating) {
            saveClockTime(this.store, clock.now());
            for (const o of this.observers) o(observed({ code: 'SUCCESS' }), scope);
          }
          return out;
        },
        { readOnly: !op.mutating },
      );
    } catch (err) {
      if (op.mutating && err instanceof ApiError && this.observers.length > 0 && !this.store.db.inTransaction)
        this.store.transaction(() => {
          for (const o of this.observers) o(observed({ code: err.code, message: err.message }), scope);
        });
      throw err;
    }
  }

  /** Checks a request against the model (and a workload token's scope); returns the handler that serves it. */
  private check(route: Route, request: unknown, caller: Caller): Handler {
    const op = route.op;
    const issues = validateRequest(op.service.shapes, op.input, request, op.cli.rules);
    if (issues.length > 0) throw invalid(issues.map((i) => i.message).join('; '));
    checkWorkloadScope(caller, request);
    if (!route.handler) throw new ApiError(501, NOT_EMULATED, notEmulatedMessage(op.service.name, op.name));
    return route.handler;
  }

  /** Checked requests of redirected uploads waiting for their files, by session. */
  private readonly uploadSessions = new Map<string, UploadSession>();

  /** The first half of a redirected upload: the request is checked, then redirected to where its file goes. */
  private redirectUpload(res: ServerResponse, route: Route, request: unknown, caller: Caller): void {
    this.check(route, request, caller);
    const now = Date.now();
    for (const [id, s] of this.uploadSessions) if (s.expires < now || this.uploadSessions.size > 1000) this.uploadSessions.delete(id);
    const session = randomBytes(12).toString('hex');
    this.uploadSessions.set(session, { route, request: request as Doc, actorCrn: caller.actorCrn, expires: now + UPLOAD_SESSION_MS });
    this.send(res, 307, {}, { location: `${this.info.baseUrl}${route.redirect ?? ''}?session=${session}` });
  }

  /** Whether an operation takes a file (an upload, or a redirected one): such an operation cannot be called in this process. */
  takesFile(service: string, operation: string): boolean {
    const route = this.byName.get(`${service} ${operation}`);
    return Boolean(route?.op.cli.upload || route?.redirect);
  }

  /** The route of `<service> <operation>`: wire names, a CLI topic, or a cdp-style kebab operation name. */
  private routeOf(service: string, operation: string): Route {
    const svc = this.services.find((s) => s.name === service || s.topic === service);
    if (!svc) {
      const names = this.services.map((s) => s.name);
      throw new SeedError(`unknown service "${service}"${suggest(service, names) ?? ''}; services: ${names.join(', ')}`);
    }
    const op = svc.findByName(operation);
    if (!op) throw new SeedError(`${svc.name} has no operation "${operation}"${suggest(operation, svc.operationNames()) ?? ''}`);
    const route = this.byName.get(`${svc.name} ${op.name}`);
    if (!route) throw new SeedError(`${svc.name} ${op.name} is not served here`);
    if (op.cli.upload || route.redirect) throw new SeedError(`${svc.name} ${op.name} takes a file upload, which a seed cannot give`);
    return route;
  }

  /**
   * Runs one operation in this process as the account admin, checked like
   * any request (seeds, tests). Service and operation as routeOf takes them.
   */
  call(service: string, operation: string, request: unknown): Doc {
    const adminCrn = this.store.meta('adminCrn');
    if (!adminCrn) throw new Error('the emulator has no account yet (bootstrap first)');
    const caller: Caller = { accountId: this.accountId, actorCrn: adminCrn, kind: 'user' };
    return this.dispatch(this.routeOf(service, operation), request, caller, { requestId: randomUUID() });
  }

  /** The paged operations this emulator serves with a handler. */
  pagedOperations(): Array<{ service: string; operation: string; paging: Paging }> {
    return [...this.byName.values()]
      .filter((r) => r.handler && r.ref.paging)
      .map((r) => ({ service: r.ref.service, operation: r.ref.name, paging: r.ref.paging as Paging }));
  }

  /**
   * Applies a seed file as the account admin: every item checked and run
   * like a request, all in one transaction, so an error in any item (named
   * with its line) leaves nothing of the file behind. A file already applied
   * to this state is skipped; returns whether it was applied now.
   */
  applySeed(file: SeedFile): boolean {
    if (this.store.meta(appliedKey(file))) return false;
    this.store.transaction(() => {
      for (const step of file.steps) {
        const where = `${file.name} line ${step.line}: ${step.service} ${step.operation}`;
        try {
          this.call(step.service, step.operation, step.request);
        } catch (err) {
          if (err instanceof ApiError) throw new SeedError(`${where}: ${err.code}: ${err.message}`);
          if (err instanceof SeedError) throw new SeedError(`${file.name} line ${step.line}: ${err.message}`);
          throw err;
        }
      }
      this.store.setMeta(appliedKey(file), new Date().toISOString());
      saveClockTime(this.store, this.clock.now());
    });
    return true;
  }

  /** The whole state, as `cdpctl emulator export` writes it. */
  exportState(): StateFile {
    return this.store.transaction(() => exportState(this.store, this.opts.dataDir, this.clock.state()), { readOnly: true });
  }

  /** Replaces the whole state with an export's (all or nothing), the clock included. */
  async importState(file: StateFile): Promise<void> {
    const clock = importState(this.store, this.opts.dataDir, file);
    this.clock.set(clock);
    this.setAccount(this.store.meta('accountId') ?? '');
    await this.opts.onStateReplaced?.();
  }

  /** Drives the clock: pause, resume, advance (in that order); the new state is stored at once. */
  driveClock(change: { pause?: boolean; resume?: boolean; advanceMs?: number }): ClockState {
    if (change.pause && change.resume) throw invalid('pause and resume cannot be asked for together');
    if (change.advanceMs !== undefined && !(Number.isFinite(change.advanceMs) && change.advanceMs >= 0))
      throw invalid('advance takes a duration of 0 or more; the clock never runs backwards');
    if (change.pause) this.clock.pause();
    if (change.resume) this.clock.resume();
    if (change.advanceMs) this.clock.advance(change.advanceMs);
    const state = this.clock.state();
    this.store.transaction(() => saveClock(this.store, state));
    return state;
  }

  private clockView(): Doc {
    const { now, paused } = this.clock.state();
    return {
      now: new Date(now).toISOString(),
      nowMs: Math.round(now),
      paused,
      timeScale: this.clock.scale,
      aheadMs: Math.round(now - Date.now()),
    };
  }

  /** Streams an upload's body into the uploads directory. */
  private async receive(req: IncomingMessage): Promise<{ path: string; size: number }> {
    const path = newUploadPath(this.opts.dataDir);
    let size = 0;
    req.on('data', (c: Buffer) => (size += c.length));
    // A new file (O_EXCL): nothing planted under its name is written through.
    await pipeline(req, createWriteStream(path, { mode: 0o600, flags: 'wx' }));
    return { path, size };
  }

  /** The second half of a redirected upload: the file, any content type, for the request its session carries. */
  private async redirectedUpload(req: IncomingMessage, res: ServerResponse, route: Route, caller: Caller): Promise<void> {
    const id = new URL(req.url ?? '/', 'http://localhost').searchParams.get('session') ?? '';
    const session = this.uploadSessions.get(id);
    if (!session || session.route.op !== route.op || session.expires < Date.now())
      throw notFound('no upload is waiting here (it may have expired); send the request again to be redirected');
    if (session.actorCrn !== caller.actorCrn) throw forbidden('this upload was started by another caller');
    this.uploadSessions.delete(id);
    const { path, size } = await this.receive(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    try {
      const answer = this.dispatch(route, session.request, caller, origin(req, this.requestIds.get(res) ?? randomUUID()), {
        path,
        size,
        headers,
      });
      this.send(res, 200, answer);
    } catch (err) {
      rmSync(path, { force: true });
      throw err;
    }
  }

  private async upload(req: IncomingMessage, res: ServerResponse, route: Route, caller: Caller): Promise<void> {
    if (route.redirect) return this.redirectedUpload(req, res, route, caller);
    const spec = route.op.cli.upload;
    if (!spec) throw notFound('no upload here');
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (contentType !== 'application/octet-stream') throw invalid('Content-Type must be application/octet-stream');
    const { path, size } = await this.receive(req);
    const headers: Record<string, string> = {};
    const request: Doc = {};
    for (const [field, header] of Object.entries(spec.headers)) {
      const v = req.headers[header.toLowerCase()];
      // Values arrive as sent (not URL-encoded), like the real service takes them.
      if (typeof v === 'string') {
        headers[header] = v;
        request[field] = v;
      }
    }
    // The environment is the one the bearer token was issued for: the official CLI sends no header for it.
    const tokenEnv = caller.workload?.environmentCrn;
    if (tokenEnv && request.environmentCrn === undefined && this.requestShapeHas(route, 'environmentCrn'))
      request.environmentCrn = tokenEnv;
    try {
      this.send(
        res,
        200,
        this.dispatch(route, request, caller, origin(req, this.requestIds.get(res) ?? randomUUID()), { path, size, headers }),
      );
    } catch (err) {
      rmSync(path, { force: true });
      throw err;
    }
  }

  /** The console's sign-in pages (console/), loaded on first use. */
  private consoleSite?: Promise<ConsoleSite>;

  private async consolePages(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await (await this.site()).handle(req, res);
  }

  private site(): Promise<ConsoleSite> {
    this.consoleSite ??= import('./console/index.js').then((m) => new m.ConsoleSite(this, this.opts.consoleTtlMs, this.opts.log));
    return this.consoleSite;
  }

  /** The console page (console/board.ts), signed in through the same users as the sign-in pages. */
  private board?: Promise<ConsoleBoard>;

  private async consoleBoard(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // One after the other: the two share modules, which jest's module linker cannot load twice at once.
    this.board ??= this.site().then(async (site) => new (await import('./console/board.js')).ConsoleBoard(this, site.flows));
    await (await this.board).handle(req, res);
  }

  private requestShapeHas(route: Route, field: string): boolean {
    return route.op.service.requestShape(route.op).byName.has(field);
  }

  /** The health answer's proof that this process holds the admin token, when a prober sent a challenge (identity.ts). */
  private identityProof(req: IncomingMessage): { proof?: string } {
    const challenge = req.headers[CHALLENGE_HEADER];
    const proof = proofOf(this.adminToken, typeof challenge === 'string' ? challenge : undefined, process.pid);
    return proof ? { proof } : {};
  }

  private async admin(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (path === '/_emulator/health' && req.method === 'GET') {
      this.send(res, 200, {
        ok: true,
        pid: process.pid,
        port: this.portNumber,
        ...(this.opts.profile ? { profile: this.opts.profile } : {}),
        accountId: this.accountId,
        region: this.region,
        dataDir: this.opts.dataDir,
        timeScale: this.clock.scale,
        clock: this.clockView(),
        stats: this.stats,
        ...this.identityProof(req),
      });
      return;
    }
    const token = req.headers['x-emulator-admin'];
    const ok =
      typeof token === 'string' &&
      token.length === this.adminToken.length &&
      timingSafeEqual(Buffer.from(token), Buffer.from(this.adminToken));
    if (!ok) throw new ApiError(403, 'PERMISSION_DENIED', 'admin requests need the token from the pid file');
    const route = `${req.method ?? ''} ${path}`;
    switch (route) {
      case 'GET /_emulator/deliveries':
        return this.send(res, 200, { deliveries: [...this.deliveries.values()] });
      case 'POST /_emulator/faults': {
        const body = adminJson(await readBody(req, 4096)) as Partial<FaultSettings>;
        this.setFaults({ rate: Number(body.rate ?? 0), latencyMs: Number(body.latencyMs ?? 0), kinds: body.kinds ?? ['503', '429'] });
        return this.send(res, 200, { faults: this.faults });
      }
      case 'POST /_emulator/profile': {
        if (!this.opts.repairProfile) throw notFound('this emulator writes no profile');
        return this.send(res, 200, (await this.opts.repairProfile()) as Doc);
      }
      case 'GET /_emulator/clock':
        return this.send(res, 200, this.clockView());
      case 'POST /_emulator/clock': {
        const body = adminJson(await readBody(req, 4096));
        const advance = body.advanceMs;
        if (advance !== undefined && typeof advance !== 'number') throw invalid('advanceMs must be a number of milliseconds');
        this.driveClock({ pause: body.pause === true, resume: body.resume === true, advanceMs: advance });
        return this.send(res, 200, this.clockView());
      }
      case 'GET /_emulator/state':
        return this.send(res, 200, this.exportState());
      case 'POST /_emulator/state': {
        let file: StateFile;
        try {
          file = parseStateFile((await readBody(req, READ_LIMITS.state)).toString('utf8'), 'the state');
        } catch (err) {
          if (err instanceof ApiError) throw err;
          throw invalid((err as Error).message);
        }
        try {
          await this.importState(file);
        } catch (err) {
          // The data directory refused a file (a link planted among its uploads): nothing was imported, and the answer says why.
          if (err instanceof CdpError && err.kind === 'usage') throw invalid(err.message);
          throw err;
        }
        return this.send(res, 200, { imported: file.documents.length, accountId: this.accountId, clock: this.clockView() });
      }
      default:
        throw notFound(`no admin operation at ${path}`);
    }
  }
}

/** `/api/v1/<service>/<operation>`: where the control plane's gateway answers every operation (for most services, its own path). */
export const gatewayPath = (service: string, operation: string): string => `/api/v1/${service}/${operation}`;

/** A JSON request nested deeper than this is refused before anything walks it (validation refuses past 32 levels anyway). */
const MAX_REQUEST_DEPTH = 64;

/** An admin request's JSON object body. */
function adminJson(body: Buffer): Doc {
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8') || '{}');
  } catch {
    throw invalid('the request body is not valid JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid('the request body must be a JSON object');
  return v as Doc;
}

/** Where a request came from, for the calls observed. */
interface CallOrigin {
  readonly requestId: string;
  readonly sourceIp?: string;
  readonly userAgent?: string;
}

function origin(req: IncomingMessage, requestId: string): CallOrigin {
  const agent = req.headers['user-agent'];
  return { requestId, ...(req.socket.remoteAddress ? { sourceIp: req.socket.remoteAddress } : {}), ...(agent ? { userAgent: agent } : {}) };
}

/** A request as an observer may keep it: the fields the model marks secret left out, at any depth (a password inside a configuration object too). */
function withoutSecrets(op: Operation, request: unknown): Doc {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return {};
  return stripSecrets(op.service.shapes, { kind: 'ref', ref: op.input }, request, 0) as Doc;
}

function stripSecrets(shapes: ShapeIndex, type: Type, value: unknown, depth: number): unknown {
  if (depth > 40 || typeof value !== 'object' || value === null) return value;
  const t = shapes.resolve(type);
  if (Array.isArray(value))
    return t.kind === 'list' ? value.map((v) => stripSecrets(shapes, t.of ?? { kind: 'string' }, v, depth + 1)) : value;
  if (t.kind === 'map')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripSecrets(shapes, t.of ?? { kind: 'string' }, v, depth + 1)]));
  const struct = shapes.struct(t);
  if (!struct) return value;
  const out: Doc = {};
  for (const [k, v] of Object.entries(value)) {
    const field = struct.byName.get(k);
    if (!field?.secret) out[k] = field ? stripSecrets(shapes, field.type, v, depth + 1) : v;
  }
  return out;
}

/** A workload token works only for the environment it was issued for. */
function checkWorkloadScope(caller: Caller, request: unknown): void {
  const tokenEnv = caller.workload?.environmentCrn;
  if (!tokenEnv || typeof request !== 'object' || request === null) return;
  const asked = (request as Doc).environmentCrn;
  if (typeof asked === 'string' && asked !== '' && asked !== tokenEnv)
    throw forbidden(
      `the workload token was issued for environment ${tokenEnv}, not ${asked.slice(0, 200)}; get a token for that environment`,
    );
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A JSON body as the control plane takes it: UTF-8 (invalid bytes are refused, never replaced), then JSON. */
function parseJson(body: Buffer): unknown {
  if (body.length === 0) return {};
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw invalid('the request body is not valid UTF-8');
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw invalid('the request body is not valid JSON');
  }
  // Validation, the audit trail's copy and the store all walk a document recursively: a deep one is refused here, as a 400.
  if (deeperThan(v, MAX_REQUEST_DEPTH)) throw invalid(`the request body is nested more than ${MAX_REQUEST_DEPTH} levels deep`);
  return v;
}

/** The path of a request target; plain paths skip URL parsing (the hot path), others are normalised by URL. */
function pathOf(target: string): string {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  return /^\/[A-Za-z0-9_/-]*$/.test(path) && !path.includes('//') ? path : new URL(target, 'http://localhost').pathname;
}

/** The most of a refused request's body read and dropped before the connection is cut: a client that writes first gets its answer. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/** Reads and drops the rest of a request body, up to `limit` bytes; resolves whether it all arrived. */
function drain(req: IncomingMessage, limit: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    let size = 0;
    const finish = (whole: boolean): void => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('close', onClose);
      req.removeListener('error', onError);
      resolve(whole);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(false);
    };
    const onEnd = (): void => finish(true);
    const onClose = (): void => finish(req.complete);
    const onError = (): void => finish(false);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', onError);
    req.resume();
  });
}

/** Reads the whole body with plain listeners (an async iterator costs several times more per request). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(new ApiError(413, 'PAYLOAD_TOO_LARGE', `the request body is over ${limit} bytes`));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: Error): void => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      req.removeListener('close', onClose);
      if (err) reject(err);
      else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        done(new ApiError(413, 'PAYLOAD_TOO_LARGE', `the request body is over ${limit} bytes`));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => done();
    const onError = (err: Error): void => done(err);
    const onClose = (): void => done(new Error('the connection closed before the request body was complete'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
