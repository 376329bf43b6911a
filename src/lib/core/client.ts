/**
 * Calls operations of the model: endpoint, signing (or a workload token),
 * HTTP with retries, and error mapping. No CLI concerns live here.
 */
import type { Readable } from 'node:stream';
import { loadService, type Operation } from '../model/index.js';
import type { ServiceFacts } from '../model/types.js';
import type { Clock } from './clock.js';
import { loadProfile, resolveCredentials, permissionWarning, type Credentials, type Env, type ProfileSettings } from './config.js';
import { checkCleartext, checkFormFactor, joinUrl, resolveEndpoint, type EndpointInput } from './endpoint.js';
import { serviceError, cdpError } from './errors.js';
import { DEFAULT_HTTP, HttpClient, type HttpOptions, type HttpResponse, type Transport } from './http.js';
import { EMULATOR_TIME_SCALE } from './emulator-protocol.js';
import { redact } from './redact.js';
import { parsePrivateKey, RequestSigner } from './signing.js';
import { userAgent } from './user-agent.js';
import { WorkloadTokens } from './workload.js';

export interface ClientSettings {
  readonly profile?: string;
  readonly endpointUrl?: string;
  readonly region?: string;
  /** --form-factor: public or private. */
  readonly formFactor?: string;
  /** --auth-config: the official CLI's JSON credentials file. */
  readonly authConfig?: string;
  readonly env: Env;
  readonly http?: Partial<Omit<HttpOptions, 'env' | 'debug'>>;
  readonly debug?: (line: string) => void;
  readonly warn?: (line: string) => void;
  /** --access-token: sent as the bearer token instead of signing (workload services: instead of exchanging one). */
  readonly accessToken?: string;
  /**
   * A key to sign with instead of the profile's: login checks the key it
   * received before saving it (the profile may not exist yet; its endpoint
   * settings still apply).
   */
  readonly credentials?: { readonly accessKeyId: string; readonly privateKey: string };
  /** The profile's settings as the caller has read them (once for a whole run); default read from the files here. */
  readonly profileSettings?: () => ProfileSettings;
  /** Sends the requests: default an HttpClient made from `http`; tests give a fake. */
  readonly transport?: Transport;
  /** Dates the signatures; default the system's. */
  readonly clock?: Pick<Clock, 'now'>;
}

/** `Authorization` for a token given with or without its scheme: exactly one `Bearer `. */
export const bearer = (token: string): string => (/^\S+\s+\S/.test(token.trim()) ? token.trim() : `Bearer ${token.trim()}`);

/** The service's request id, for support: x-cdp-request-id, else x-altus-request-id. */
function requestIdOf(res: HttpResponse): string | undefined {
  const v = res.headers['x-cdp-request-id'] ?? res.headers['x-altus-request-id'];
  return Array.isArray(v) ? v.join(', ') : v;
}

export type Doc = Record<string, unknown>;

/** A file streamed as a request's body, its fields travelling as headers. */
export interface Upload {
  /** A fresh stream of the bytes (one per attempt). */
  readonly open: () => Readable;
  readonly headers: Readonly<Record<string, string>>;
  /** Where the bytes go: an absolute URL (e.g. a redirect's Location); default the operation's upload path on its endpoint. */
  readonly url?: string;
  /** Content-Type of the body (default application/octet-stream); signed requests sign it. */
  readonly contentType?: string;
}

export interface Page {
  readonly response: Doc;
  readonly items: readonly unknown[];
  readonly nextToken?: string;
}

export interface PagingOptions {
  /** Stop after this many items and report the token to resume. */
  readonly maxItems?: number;
  readonly pageSize?: number;
  readonly startingToken?: string;
  /** One call, as given. */
  readonly noPaginate?: boolean;
  /**
   * Ask for the next page while the caller works on this one (the CLI, which
   * writes every page it is given): the server's work and the caller's then
   * overlap. Never past --max-items or the last page.
   */
  readonly readAhead?: boolean;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Sends operations of the model for one set of call settings (a profile, an
 * endpoint, credentials): the one way every request leaves cdpctl. The CLI's
 * run context and the library's CdpClient (src/lib/sdk) both build on it.
 */
export class OperationClient {
  private settingsCache?: ProfileSettings;
  private credsCache?: Credentials;
  private signerCache?: RequestSigner;
  private readonly transport: Transport;
  private tokens?: WorkloadTokens;
  private readonly agent = userAgent();
  /**
   * How much faster than real time the control plane's long-running work
   * advances, as a local emulator says it in its answers (1 otherwise):
   * waiters poll that much more often when the user fixed no interval.
   */
  pace = 1;
  /** True once a local emulator has answered (it says its time scale): its clock can jump at any moment. */
  emulated = false;

  constructor(readonly settings: ClientSettings) {
    this.transport = settings.transport ?? new HttpClient({ ...DEFAULT_HTTP, ...settings.http, env: settings.env, debug: settings.debug });
  }

  get profile(): ProfileSettings {
    this.settingsCache ??=
      this.settings.profileSettings?.() ??
      loadProfile(this.settings.profile, this.settings.env, { missingOk: Boolean(this.settings.credentials) });
    return this.settingsCache;
  }

  /** The credentials calls are signed with (given ones, else the official CLI's order; see resolveCredentials). */
  credentials(): Credentials {
    const given = this.settings.credentials;
    if (given) return { ...given, source: 'given' };
    if (!this.credsCache) {
      const creds = resolveCredentials(this.profile, this.settings.env, { authConfig: this.settings.authConfig });
      if (creds.source.startsWith('profile ')) {
        const warning = permissionWarning(this.profile.paths.credentials);
        if (warning) this.settings.warn?.(warning);
      }
      this.credsCache = creds;
    }
    return this.credsCache;
  }

  private requestSigner(creds: Credentials): RequestSigner {
    this.signerCache ??= new RequestSigner(parsePrivateKey(creds.accessKeyId, creds.privateKey));
    return this.signerCache;
  }

  close(): void {
    this.transport.close();
  }

  private endpointInput(): EndpointInput {
    return {
      endpointUrl: this.settings.endpointUrl,
      region: this.settings.region,
      formFactor: this.settings.formFactor,
      config: this.profile.values,
      env: this.settings.env,
    };
  }

  /** The base URL of a service, by its facts (DESIGN "Credentials, config, endpoints"). */
  baseUrl(facts: ServiceFacts): string {
    return resolveEndpoint(facts, this.endpointInput());
  }

  /** Calls one operation; resolves with the response document. */
  async call(op: Operation, request: Doc, upload?: Upload): Promise<Doc> {
    return this.parse(await this.send(op, request, upload), op);
  }

  /** Notes an emulator's time scale; only a loopback server is believed (the real control plane says none). */
  private notePace(url: URL, res: HttpResponse): void {
    const said = Number(res.headers[EMULATOR_TIME_SCALE]);
    if (Number.isFinite(said) && said > 0 && LOOPBACK.has(url.hostname.toLowerCase())) {
      this.pace = said;
      this.emulated = true;
    }
  }

  /**
   * Sends a request the service answers with a redirect to where a file goes
   * (the official CLI's redirect step), and resolves with that absolute URL.
   */
  async redirectOf(op: Operation, request: Doc): Promise<string> {
    const res = await this.send(op, request);
    if (res.status >= 400) this.parse(res, op);
    const location = res.headers.location;
    const where = Array.isArray(location) ? location[0] : location;
    let url: URL | undefined;
    try {
      url = res.status >= 300 && res.status < 400 && where ? new URL(where) : undefined;
    } catch {
      url = undefined;
    }
    if (!url)
      throw cdpError({
        kind: 'service',
        code: 'NO_REDIRECT',
        message: `${op.service.name} ${op.name}: the answer has no (absolute) redirect to send the file to`,
        status: res.status,
        service: op.service.name,
        operation: op.name,
        requestId: requestIdOf(res),
      });
    return url.href;
  }

  private async send(op: Operation, request: Doc, upload?: Upload): Promise<HttpResponse> {
    const svc = op.service;
    if (op.composed) throw new Error(`${svc.name} ${op.name} runs on the client (see customizations); it has no request of its own`);
    const where = { service: svc.name, operation: op.name };
    checkFormFactor(svc.def.facts, this.endpointInput());
    const debugBody = upload ? '<file contents>' : this.settings.debug ? JSON.stringify(redact(svc.shapes, op.input, request)) : undefined;
    const common = { 'user-agent': this.agent };
    const contentType = upload ? (upload.contentType ?? 'application/octet-stream') : 'application/json';
    const path = upload ? (op.cli.upload?.path ?? op.path) : op.path;
    const body = upload ? upload.open : Buffer.from(JSON.stringify(request));
    const headers = { ...common, 'content-type': contentType, ...upload?.headers };
    if (svc.def.endpoint === 'workload') {
      const env = request.environmentCrn;
      if (typeof env !== 'string' || !env) {
        throw cdpError({
          kind: 'usage',
          code: 'INVALID_INPUT',
          message: 'missing required field "environmentCrn" (--environment-crn)',
        });
      }
      const sendWith = (auth: { origin: string; token: string }): Promise<HttpResponse> =>
        this.transport.send({
          url: this.target(op, auth.origin, path, upload),
          headers: { ...headers, authorization: bearer(auth.token) },
          body,
          mutating: op.mutating,
          ...where,
          debugBody,
        });
      let auth = await this.workloadAuth(op, env);
      let res = await sendWith(auth);
      if (res.status === 401 && !this.settings.accessToken) {
        // The token may have been revoked or the clock skewed: exchange once more.
        this.tokens?.forget(await this.tokenScope(), env);
        auth = await this.workloadAuth(op, env);
        res = await sendWith(auth);
      }
      this.notePace(new URL(auth.origin), res);
      return res;
    }
    const url = this.target(op, this.baseUrl(svc.def.facts), path, upload);
    const token = this.settings.accessToken ?? this.credentials().accessToken;
    const sign = token ? undefined : this.signer(url, contentType);
    const res = await this.transport.send({
      url,
      headers: { ...headers, ...(token ? { authorization: bearer(token) } : {}) },
      body,
      mutating: op.mutating,
      ...where,
      sign,
      debugBody,
    });
    this.notePace(url, res);
    return res;
  }

  /**
   * Where a request goes: the operation's path on its base URL, or where the
   * control plane redirected an upload. A signature or token is made for
   * that one place, so a redirect may lead only within the same origin: one
   * to another origin (a compromised or confused control plane sending the
   * upload, signed, to a host of its choosing) is refused and nothing is
   * sent. Plain http:// to another machine is refused too (checkCleartext).
   */
  private target(op: Operation, base: string, path: string, upload?: Upload): URL {
    const origin = new URL(base).origin;
    const url = upload?.url ? new URL(upload.url) : joinUrl(base, path);
    if (url.origin !== origin) {
      throw cdpError({
        kind: 'service',
        code: 'REDIRECT_REFUSED',
        message: `${op.service.name} ${op.name}: the control plane redirected the request to ${url.origin}, another origin than ${origin}; a signed request is never sent there, so nothing was sent`,
        service: op.service.name,
        operation: op.name,
      });
    }
    checkCleartext(url, {
      allowed: this.settings.http?.verifyTls === false || this.profile.values.allow_http === 'true',
      warn: (line) => {
        if (this.warnedCleartext.has(url.origin)) return;
        this.warnedCleartext.add(url.origin);
        this.settings.warn?.(line);
      },
    });
    return url;
  }

  /** Origins the clear-text warning was given for (once each). */
  private readonly warnedCleartext = new Set<string>();

  /** Signs each attempt afresh with the credentials' key. */
  private signer(url: URL, contentType: string): () => Readonly<Record<string, string>> {
    const signer = this.requestSigner(this.credentials());
    const clock = this.settings.clock;
    return () => signer.sign('POST', contentType, url.pathname, clock ? new Date(clock.now()) : undefined);
  }

  private parse(res: HttpResponse, op: Operation): Doc {
    const where = { service: op.service.name, operation: op.name, requestId: requestIdOf(res) };
    const text = res.body.toString('utf8');
    let doc: unknown = {};
    if (text.trim()) {
      try {
        doc = JSON.parse(text);
      } catch {
        if (res.status === 200)
          throw cdpError({
            kind: 'service',
            code: 'BAD_RESPONSE',
            message: `${op.service.name} ${op.name}: the answer is not JSON`,
            status: res.status,
            ...where,
          });
        doc = {};
      }
    }
    const isObject = typeof doc === 'object' && doc !== null && !Array.isArray(doc);
    // Every operation answers an object: `[]`, `null` or `42` is a broken or hostile server, not an empty result.
    if (!isObject && res.status >= 200 && res.status < 300)
      throw cdpError({
        kind: 'service',
        code: 'BAD_RESPONSE',
        message: `${op.service.name} ${op.name}: the answer is not a JSON object (it is ${Array.isArray(doc) ? 'a list' : doc === null ? 'null' : `a ${typeof doc}`})`,
        status: res.status,
        ...where,
      });
    const obj = (isObject ? doc : {}) as Doc;
    if (this.settings.debug)
      this.settings.debug(`< body: ${JSON.stringify(res.status === 200 ? redact(op.service.shapes, op.output, obj) : obj)}`);
    if (res.status >= 200 && res.status < 300) return obj;
    const code = typeof obj.code === 'string' ? obj.code : `HTTP_${res.status}`;
    const message = typeof obj.message === 'string' ? obj.message : text.trim().slice(0, 200) || `HTTP ${res.status}`;
    throw serviceError({ status: res.status, code, message, ...where });
  }

  /** Tokens are cached per profile and issuing control plane (a profile may point elsewhere later). */
  private async tokenScope(): Promise<string> {
    const iam = await loadService('iam');
    return `${this.profile.profile} ${this.baseUrl(iam.def.facts)}`;
  }

  private async workloadAuth(op: Operation, environmentCrn: string): Promise<{ origin: string; token: string }> {
    // A token given by the user is sent to the service's own endpoint, as the official CLI does.
    if (this.settings.accessToken) return { origin: this.baseUrl(op.service.def.facts), token: this.settings.accessToken };
    this.tokens ??= new WorkloadTokens(this.settings.env);
    const scope = await this.tokenScope();
    const cached = this.tokens.get(scope, environmentCrn);
    if (cached) return cached;
    const iam = await loadService('iam');
    const res = await this.call(iam.operation('generateWorkloadAuthToken'), { workloadName: 'DF', environmentCrn });
    const token = typeof res.token === 'string' ? res.token : '';
    const endpointUrl = typeof res.endpointUrl === 'string' ? res.endpointUrl : '';
    if (!token || !endpointUrl) {
      throw cdpError({ kind: 'auth', code: 'NO_WORKLOAD_TOKEN', message: 'generateWorkloadAuthToken returned no token or endpoint' });
    }
    const origin = new URL(endpointUrl).origin;
    const expireAt = typeof res.expireAt === 'string' ? Date.parse(res.expireAt) : Date.now() + 5 * 60_000;
    this.tokens.put(scope, environmentCrn, { origin, token, expireAt });
    return { origin, token };
  }

  /** Pages through a paged operation (DESIGN "Paging"), yielding each page as it arrives. */
  async *pages(op: Operation, request: Doc, opts: PagingOptions = {}): AsyncGenerator<Page> {
    const paging = op.paging;
    if (!paging || opts.noPaginate) {
      const response = await this.call(op, request);
      const items = paging && Array.isArray(response[paging.result]) ? (response[paging.result] as unknown[]) : [];
      const next = paging ? response[paging.outputToken] : undefined;
      yield { response, items, nextToken: typeof next === 'string' && next ? next : undefined };
      return;
    }
    let token = opts.startingToken;
    let remaining = opts.maxItems ?? Infinity;
    // As cdp asks: --page-size, else --max-items up to the service's largest page, else the default.
    const largest = op.service.requestShape(op).byName.get(paging.pageSize)?.max ?? Infinity;
    const pageSize = opts.pageSize ?? (opts.maxItems !== undefined ? Math.min(opts.maxItems, largest) : paging.defaultMaxItems);
    const page = (from: string | undefined): Promise<Doc> => {
      const req: Doc = { ...request, [paging.pageSize]: Math.min(pageSize, remaining) };
      if (from) req[paging.inputToken] = from;
      return this.call(op, req);
    };
    let coming: Promise<Doc> = page(token);
    for (;;) {
      const response: Doc = await coming;
      const all = Array.isArray(response[paging.result]) ? (response[paging.result] as unknown[]) : [];
      const items = all.length > remaining ? all.slice(0, remaining) : all;
      remaining -= items.length;
      const next = response[paging.outputToken];
      token = typeof next === 'string' && next ? next : undefined;
      const more = token !== undefined && remaining > 0;
      const ahead = more && opts.readAhead ? page(token) : undefined;
      // A caller that stops early leaves a page read ahead unread: its failure is nobody's.
      ahead?.catch(() => undefined);
      yield { response, items, nextToken: token };
      if (!more) return;
      coming = ahead ?? page(token);
    }
  }
}
