/**
 * The emulator: a real HTTP control plane on loopback. It routes by path to
 * the model's operations (http/routes.ts), authenticates every request as the
 * real service does (auth.ts), checks it against the same model the CLI
 * uses, and runs the service's operation in one SQLite transaction. The
 * parts of HTTP beside that are in http/: bodies, injected faults, requests
 * carrying a file, and the emulator's own admin API.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { EMULATOR_TIME_SCALE } from '../core/emulator-protocol.js';
import { validateRequest } from '../core/validate.js';
import { loadAllServices, type Service } from '../model/index.js';
import { authenticateBearer, authenticateSigned } from './auth.js';
import { Clock, type ClockState } from './clock.js';
import { NOT_EMULATED, notEmulatedMessage } from './coverage.js';
import { serve } from './engine/index.js';
import { ApiError, invalid } from './errors.js';
import { adminAnswer, type AdminHost } from './http/admin.js';
import { drain, DRAIN_LIMIT, parseJson, pathOf, readBody } from './http/body.js';
import { checkWorkloadScope, originOf, withoutSecrets, type CallOrigin } from './http/calls.js';
import { Deliveries, drawFault, NO_FAULTS, type Delivery, type FaultSettings } from './http/faults.js';
import { FileRequests } from './http/file-requests.js';
import { Routes, type Route } from './http/routes.js';
import { pagingOf, type Paging } from './engine/paging.js';
import { RequestLog, type LogEntry } from './request-log.js';
import { appliedKey, SeedError, type SeedFile } from './seed.js';
import { loadServiceModule } from './services/index.js';
import { checkStateFormat, exportState, importState, loadClock, saveClock, saveClockTime, type StateFile } from './state.js';
import { Store } from './store.js';
import type { Caller, CallObserver, Doc, EmulatorInfo, Handler, OperationRef, RequestContext, ServedCall } from './types.js';
import type { ConsoleBoard } from './console/board.js';
import type { ConsoleSite } from './console/index.js';
import { proofOf } from './identity.js';
import { World, type DependentKind, type Providers } from './world.js';
import type { Identities } from './world/contracts.js';

export type { Delivery, FaultSettings } from './http/faults.js';
export { gatewayPath } from './http/routes.js';

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

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export class Emulator implements AdminHost {
  readonly store: Store;
  readonly clock: Clock;
  readonly adminToken = randomBytes(24).toString('hex');
  /** The secret the console's pages ask for, made at start (console/secret.ts, loaded with the console). */
  readonly consoleToken = randomBytes(32).toString('base64url');
  private readonly routes = new Routes();
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
  /** How often each mutating JSON request arrived and how each arrival ended (http/faults.ts). */
  private readonly arrivals = new Deliveries();
  /** Requests that carry a file, and redirected uploads' sessions. */
  private readonly files = new FileRequests(this);

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
    this.faults = opts.faults ?? NO_FAULTS;
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
        this.routes.add({
          op,
          ref,
          handler: served ? handlers[op.name] : undefined,
          upload: false,
          workload,
          ...(redirect ? { redirect } : {}),
        });
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

  deliveries(): Delivery[] {
    return this.arrivals.all();
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
      if (url.pathname.startsWith('/_emulator/')) return this.send(res, 200, await adminAnswer(this, req, url.pathname));
      if (url.pathname.startsWith('/consoleauth/')) return await this.consolePages(req, res);
      if (url.pathname === '/console' || url.pathname.startsWith('/console/')) return await this.consoleBoard(req, res);
      api = true;
      this.requestIds.set(res, requestId);
      route = this.routes.at(url.pathname);
      if (!route) throw this.routes.unknown(url.pathname);
      if (req.method !== 'POST') throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method ?? ''} is not allowed; operations are POST`);
      this.stats.requests++;
      const limit = this.opts.maxBodyBytes ?? 4 * 1024 * 1024;
      // Mutating JSON requests are read first, so that every arrival is counted by its content.
      let body: Buffer | undefined;
      if (route.op.mutating && !route.upload) {
        body = await readBody(req, limit);
        delivery = this.arrivals.of(url.pathname, body);
        delivery.received++;
      }
      // Latency after the request has arrived: a client that gives up meanwhile may still have it carried out.
      if (this.faults.latencyMs > 0) await new Promise((r) => setTimeout(r, this.faults.latencyMs));
      const kind = drawFault(this.faults);
      if (kind) {
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
      if (route.upload) return this.send(res, 200, await this.files.serve(req, route, caller, requestId));
      if (contentType !== 'application/json') throw invalid('Content-Type must be application/json');
      body ??= await readBody(req, limit);
      const request = parseJson(body);
      if (delivery) delivery.processed++;
      if (route.redirect) return this.send(res, 307, {}, { location: this.files.redirect(route, request, caller) });
      this.send(res, 200, this.dispatch(route, request, caller, originOf(req, requestId)));
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
  dispatch(route: Route, request: unknown, caller: Caller, how: CallOrigin, upload?: RequestContext['upload']): Doc {
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
  check(route: Route, request: unknown, caller: Caller): Handler {
    const op = route.op;
    const issues = validateRequest(op.service.shapes, op.input, request, op.cli.rules);
    if (issues.length > 0) throw invalid(issues.map((i) => i.message).join('; '));
    checkWorkloadScope(caller, request);
    if (!route.handler) throw new ApiError(501, NOT_EMULATED, notEmulatedMessage(op.service.name, op.name));
    return route.handler;
  }

  /** Whether an operation takes a file (an upload, or a redirected one): such an operation cannot be called in this process. */
  takesFile(service: string, operation: string): boolean {
    const route = this.routes.named(service, operation);
    return Boolean(route?.op.cli.upload || route?.redirect);
  }

  /**
   * Runs one operation in this process as the account admin, checked like
   * any request (seeds, tests). Service and operation as routeOf takes them.
   */
  call(service: string, operation: string, request: unknown): Doc {
    const adminCrn = this.store.meta('adminCrn');
    if (!adminCrn) throw new Error('the emulator has no account yet (bootstrap first)');
    const caller: Caller = { accountId: this.accountId, actorCrn: adminCrn, kind: 'user' };
    return this.dispatch(this.routes.forCall(this.services, service, operation), request, caller, { requestId: randomUUID() });
  }

  /** The paged operations this emulator serves with a handler. */
  pagedOperations(): Array<{ service: string; operation: string; paging: Paging }> {
    return this.routes.paged();
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

  clockView(): Doc {
    const { now, paused } = this.clock.state();
    return {
      now: new Date(now).toISOString(),
      nowMs: Math.round(now),
      paused,
      timeScale: this.clock.scale,
      aheadMs: Math.round(now - Date.now()),
    };
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

  /** The health answer, with the proof that this process holds the admin token when a prober sent a challenge (identity.ts). */
  health(challenge: string | undefined): Doc {
    const proof = proofOf(this.adminToken, challenge, process.pid);
    return {
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
      ...(proof ? { proof } : {}),
    };
  }

  get repairProfile(): (() => Promise<unknown>) | undefined {
    return this.opts.repairProfile;
  }

  get dataDir(): string {
    return this.opts.dataDir;
  }

  get baseUrl(): string {
    return this.info.baseUrl;
  }
}
