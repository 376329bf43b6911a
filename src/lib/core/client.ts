/**
 * Calls operations of the model: endpoint, signing (or a workload token),
 * HTTP with retries, and error mapping. No CLI concerns live here.
 */
import type { Readable } from 'node:stream';
import { loadService, type Operation } from '../model/index.js';
import { loadProfile, resolveCredentials, permissionWarning, type Env, type ProfileSettings } from './config.js';
import { joinUrl, resolveEndpoint } from './endpoint.js';
import { CdpError, serviceError } from './errors.js';
import { DEFAULT_HTTP, HttpClient, type HttpOptions, type HttpResponse } from './http.js';
import { redact } from './redact.js';
import { parsePrivateKey, signRequest, type SigningKey } from './signing.js';
import { WorkloadTokens } from './workload.js';

export interface ClientSettings {
  readonly profile?: string;
  readonly endpointUrl?: string;
  readonly region?: string;
  readonly env: Env;
  readonly http?: Partial<Omit<HttpOptions, 'env' | 'debug'>>;
  readonly debug?: (line: string) => void;
  readonly warn?: (line: string) => void;
  /** A workload bearer token given by the user (skips the exchange). */
  readonly accessToken?: string;
}

export type Doc = Record<string, unknown>;

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
}

export class CdpClient {
  private settingsCache?: ProfileSettings;
  private keyCache?: SigningKey;
  private readonly httpClient: HttpClient;
  private tokens?: WorkloadTokens;

  constructor(readonly settings: ClientSettings) {
    this.httpClient = new HttpClient({ ...DEFAULT_HTTP, ...settings.http, env: settings.env, debug: settings.debug });
  }

  get profile(): ProfileSettings {
    this.settingsCache ??= loadProfile(this.settings.profile, this.settings.env);
    return this.settingsCache;
  }

  private signingKey(): SigningKey {
    if (!this.keyCache) {
      const creds = resolveCredentials(this.profile, this.settings.env);
      if (creds.source !== 'environment') {
        const warning = permissionWarning(this.profile.paths.credentials);
        if (warning) this.settings.warn?.(warning);
      }
      this.keyCache = parsePrivateKey(creds.accessKeyId, creds.privateKey);
    }
    return this.keyCache;
  }

  close(): void {
    this.httpClient.close();
  }

  baseUrl(kind: 'iam' | 'api'): string {
    return resolveEndpoint(kind, {
      endpointUrl: this.settings.endpointUrl,
      region: this.settings.region,
      config: this.profile.values,
      env: this.settings.env,
    });
  }

  /** Calls one operation; resolves with the response document. */
  async call(op: Operation, request: Doc, upload?: { open: () => Readable; headers: Record<string, string> }): Promise<Doc> {
    const svc = op.service;
    const label = `${svc.name} ${op.name}`;
    const debugBody = this.settings.debug ? JSON.stringify(redact(svc.shapes, op.input, request)) : undefined;
    let res: HttpResponse;
    if (svc.def.endpoint === 'workload') {
      const env = request.environmentCrn;
      if (typeof env !== 'string' || !env) {
        throw new CdpError({
          kind: 'usage',
          code: 'INVALID_INPUT',
          message: 'missing required field "environmentCrn" (--environment-crn)',
        });
      }
      const path = upload ? (op.cli.upload?.path ?? op.path) : op.path;
      const body = upload ? upload.open : Buffer.from(JSON.stringify(request));
      const sendWith = (auth: { origin: string; token: string }): Promise<HttpResponse> =>
        this.httpClient.send({
          url: joinUrl(auth.origin, path),
          headers: upload
            ? { 'content-type': 'application/octet-stream', ...upload.headers, authorization: `Bearer ${auth.token}` }
            : { 'content-type': 'application/json', authorization: `Bearer ${auth.token}` },
          body,
          mutating: op.mutating,
          operation: label,
          debugBody: upload ? '<file contents>' : debugBody,
        });
      res = await sendWith(await this.workloadAuth(env));
      if (res.status === 401 && !this.settings.accessToken) {
        // The token may have been revoked or the clock skewed: exchange once more.
        this.tokens?.forget(this.tokenScope(), env);
        res = await sendWith(await this.workloadAuth(env));
      }
    } else {
      const url = joinUrl(this.baseUrl(svc.def.endpoint), op.path);
      const key = this.signingKey();
      const body = Buffer.from(JSON.stringify(request));
      res = await this.httpClient.send({
        url,
        headers: { 'content-type': 'application/json' },
        body,
        mutating: op.mutating,
        operation: label,
        sign: () => signRequest(key, 'POST', 'application/json', url.pathname),
        debugBody,
      });
    }
    return this.parse(res, op, label);
  }

  private parse(res: HttpResponse, op: Operation, label: string): Doc {
    const text = res.body.toString('utf8');
    let doc: unknown = {};
    if (text.trim()) {
      try {
        doc = JSON.parse(text);
      } catch {
        if (res.status === 200)
          throw new CdpError({
            kind: 'service',
            code: 'BAD_RESPONSE',
            message: `${label}: the answer is not JSON`,
            status: res.status,
            operation: label,
          });
        doc = {};
      }
    }
    const obj = (typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? doc : {}) as Doc;
    if (this.settings.debug)
      this.settings.debug(`< body: ${JSON.stringify(res.status === 200 ? redact(op.service.shapes, op.output, obj) : obj)}`);
    if (res.status >= 200 && res.status < 300) return obj;
    const code = typeof obj.code === 'string' ? obj.code : `HTTP_${res.status}`;
    const message = typeof obj.message === 'string' ? obj.message : text.trim().slice(0, 200) || `HTTP ${res.status}`;
    throw serviceError(res.status, code, message, label);
  }

  /** Tokens are cached per profile and control plane (a profile may point elsewhere later). */
  private tokenScope(): string {
    return `${this.profile.profile} ${this.baseUrl('iam')}`;
  }

  private async workloadAuth(environmentCrn: string): Promise<{ origin: string; token: string }> {
    if (this.settings.accessToken) {
      const base = this.settings.endpointUrl ?? this.baseUrl('api');
      return { origin: base, token: this.settings.accessToken };
    }
    this.tokens ??= new WorkloadTokens(this.settings.env);
    const profile = this.tokenScope();
    const cached = this.tokens.get(profile, environmentCrn);
    if (cached) return cached;
    const iam = await loadService('iam');
    const res = await this.call(iam.operation('generateWorkloadAuthToken'), { workloadName: 'DF', environmentCrn });
    const token = typeof res.token === 'string' ? res.token : '';
    const endpointUrl = typeof res.endpointUrl === 'string' ? res.endpointUrl : '';
    if (!token || !endpointUrl) {
      throw new CdpError({ kind: 'auth', code: 'NO_WORKLOAD_TOKEN', message: 'generateWorkloadAuthToken returned no token or endpoint' });
    }
    const origin = new URL(endpointUrl).origin;
    const expireAt = typeof res.expireAt === 'string' ? Date.parse(res.expireAt) : Date.now() + 5 * 60_000;
    this.tokens.put(profile, environmentCrn, { origin, token, expireAt });
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
    const pageSize = opts.pageSize ?? paging.defaultMaxItems;
    for (;;) {
      const size = Math.min(pageSize, remaining);
      const req: Doc = { ...request, [paging.pageSize]: size };
      if (token) req[paging.inputToken] = token;
      const response = await this.call(op, req);
      const all = Array.isArray(response[paging.result]) ? (response[paging.result] as unknown[]) : [];
      const items = all.length > remaining ? all.slice(0, remaining) : all;
      remaining -= items.length;
      const next = response[paging.outputToken];
      token = typeof next === 'string' && next ? next : undefined;
      yield { response, items, nextToken: token };
      if (!token || remaining <= 0) return;
    }
  }
}
