/**
 * The library's client: every operation of every service as a typed method
 * (`client.iam.getUser({ userId })`), paging as async iterators
 * (`client.iam.paginate.listUsers()`), and the CLI's waiters
 * (`client.opdb.wait.createDatabase(...)`). Underneath it is the CLI's own
 * path: the same profile and credential resolution, the same checks before
 * sending, the same signing, retries, paging and polling (core/), so a
 * script and a command line behave alike. Loads no oclif and no command-line
 * code; a service's model is loaded when the service is first called.
 */
import { customizationOf } from '../customizations/index.js';
import { type Doc, OperationClient, type ClientSettings, type PagingOptions } from '../core/client.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Env } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import { openUpload } from '../core/files.js';
import type { Transport } from '../core/http.js';
import { validateRequest } from '../core/validate.js';
import { waitFor, firstFailure } from '../core/waiter.js';
import { loadService, type Operation } from '../model/index.js';
import { CATALOG } from './catalog.js';
import type { PaginateOptions, WaitOptions, WaitResult } from './options.js';
import type { ServiceClients } from './services.js';

/** Where and as whom a client calls; each unset option is resolved as the CLI resolves it. */
export interface ClientOptions {
  /** The profile of ~/.cdp/credentials and ~/.cdp/config (the CLI's --profile); default $CDP_PROFILE, else `default`. */
  readonly profile?: string;
  /** The control plane's base URL for every service (--endpoint-url); default the profile's, else the region's. */
  readonly endpointUrl?: string;
  /** The region (--cdp-region): us-west-1, eu-1, ap-1, usg-1; default the profile's, else us-west-1. */
  readonly region?: string;
  /** `public` or `private` (--form-factor). */
  readonly formFactor?: 'public' | 'private';
  /** A key pair to sign with instead of the profile's or $CDP_ACCESS_KEY_ID / $CDP_PRIVATE_KEY. */
  readonly credentials?: { readonly accessKeyId: string; readonly privateKey: string };
  /** A bearer token sent instead of signing (--access-token). */
  readonly accessToken?: string;
  /** The official CLI's JSON credentials file (--auth-config). */
  readonly authConfig?: string;
  /** The environment variables read (CDP_PROFILE, CDP_ACCESS_KEY_ID, HOME, proxies...); default process.env. */
  readonly env?: Env;
  /** Milliseconds to wait for a connection (--cli-connect-timeout); default 60 s. */
  readonly connectTimeoutMs?: number;
  /** Milliseconds a whole answer may take (--cli-read-timeout); default 60 s. */
  readonly readTimeoutMs?: number;
  /** Attempts per request, retries included; default 8 ($CDPCTL_MAX_ATTEMPTS). */
  readonly maxAttempts?: number;
  /** Check TLS certificates (--no-verify-tls sets false); default true. */
  readonly verifyTls?: boolean;
  /** A PEM file of certificate authorities to trust (--ca-bundle). */
  readonly caBundle?: string;
  /** Connect over IPv4 only (--force-ipv4). */
  readonly ipv4Only?: boolean;
  /** Told one line per request and answer, secrets redacted (--debug). */
  readonly debug?: (line: string) => void;
  /** Told warnings (a credentials file others can read, a deprecated operation); default none. */
  readonly warn?: (line: string) => void;
}

/** What the emulator library (and tests) give a client beyond its options; not part of the public API. */
export interface ClientInternals {
  /** Sends the requests (a fake in tests). */
  readonly transport?: Transport;
  /** Paces and measures waits: the emulator's makes a wait move its clock instead of sleeping. Signatures keep the system's time. */
  readonly waitClock?: Clock;
}

type Method = (request?: Doc) => Promise<Doc>;
type Iterate = (request?: Doc, options?: PaginateOptions) => AsyncIterableIterator<unknown>;
type Waiter = (request?: Doc, options?: WaitOptions) => Promise<WaitResult>;

/*
 * The class defines one property a service at run time (from the generated
 * catalog); this interface, merged with it, gives them their generated
 * types. A merge, not 19 hand-written fields: the services are data.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface CdpClient extends ServiceClients {}

/** A client of the whole control plane: `client.<service>.<operation>(request)`, services by their official names. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class CdpClient {
  private readonly core: OperationClient;
  private readonly waitClock: Clock;
  private readonly warn: (line: string) => void;

  constructor(options: ClientOptions = {}, internals: ClientInternals = {}) {
    const env = options.env ?? process.env;
    const fromEnv = Number(env.CDPCTL_MAX_ATTEMPTS);
    const maxAttempts = options.maxAttempts ?? (Number.isFinite(fromEnv) && fromEnv >= 1 ? Math.floor(fromEnv) : undefined);
    const settings: ClientSettings = {
      profile: options.profile,
      endpointUrl: options.endpointUrl,
      region: options.region,
      formFactor: options.formFactor,
      authConfig: options.authConfig,
      accessToken: options.accessToken,
      credentials: options.credentials,
      env,
      http: {
        ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
        ...(options.readTimeoutMs !== undefined ? { readTimeoutMs: options.readTimeoutMs } : {}),
        ...(maxAttempts !== undefined ? { maxAttempts } : {}),
        ...(options.verifyTls !== undefined ? { verifyTls: options.verifyTls } : {}),
        ...(options.caBundle !== undefined ? { caBundle: options.caBundle } : {}),
        ...(options.ipv4Only ? { ipv4Only: true } : {}),
      },
      debug: options.debug,
      warn: options.warn,
      transport: internals.transport,
    };
    this.core = new OperationClient(settings);
    this.waitClock = internals.waitClock ?? systemClock;
    this.warn = options.warn ?? (() => undefined);
    for (const service of Object.keys(CATALOG)) {
      let made: unknown;
      Object.defineProperty(this, service, {
        enumerable: true,
        get: () => (made ??= this.serviceClient(service)),
      });
    }
  }

  /** Calls an operation by its service's official name and the operation's API name: the way to reach one the types do not know. */
  async call(service: string, operation: string, request: Doc = {}): Promise<Doc> {
    return this.send(await this.operation(service, operation), request);
  }

  /** Lets go of the connections kept open (keep-alive): a script that is done may call it to exit at once. */
  close(): void {
    this.core.close();
  }

  private serviceClient(service: string): unknown {
    const entry = CATALOG[service];
    if (!entry) throw new Error(`unknown service ${service}`);
    const methods: Record<string, Method> = {};
    for (const name of entry.operations) methods[name] = async (request = {}) => this.send(await this.operation(service, name), request);
    const paginate: Record<string, Iterate> = {};
    const pages: Record<string, Iterate> = {};
    for (const name of entry.paged) {
      paginate[name] = (request = {}, options = {}) => this.items(service, name, request, options);
      pages[name] = (request = {}, options = {}) => this.pagesOf(service, name, request, options);
    }
    const wait: Record<string, Waiter> = {};
    for (const name of entry.waiters) wait[name] = async (request = {}, options = {}) => this.callAndWait(service, name, request, options);
    return Object.freeze({ ...methods, paginate: Object.freeze(paginate), pages: Object.freeze(pages), wait: Object.freeze(wait) });
  }

  private async operation(service: string, name: string): Promise<Operation> {
    const entry = CATALOG[service];
    if (!entry)
      throw new UsageError({
        code: 'UNKNOWN_SERVICE',
        message: `unknown service "${service}"; services: ${Object.keys(CATALOG).join(', ')}`,
      });
    if (!entry.operations.includes(name))
      throw new UsageError({ code: 'UNKNOWN_OPERATION', message: `${service} has no operation "${name}"`, service });
    return (await loadService(service)).operation(name);
  }

  /** The request as it will be sent: a copy, completed as the CLI completes it, then checked; a refusal sends nothing. */
  private prepared(op: Operation, request: Doc, paged = false): Doc {
    if (typeof request !== 'object' || request === null || Array.isArray(request))
      throw new UsageError({
        code: 'INVALID_INPUT',
        message: `${op.service.name} ${op.name}: the request must be an object`,
        ...where(op),
      });
    const copy = structuredClone(request) as Doc;
    if (op.wire.deprecated)
      this.warn(`${op.service.name} ${op.name} is deprecated${op.cli.replacement ? `; use ${op.cli.replacement}` : ''}`);
    op.cli.prepare?.(copy);
    const issues = validateRequest(op.service.shapes, op.input, paged ? withPage(op, copy) : copy, op.cli.rules);
    if (issues.length > 0) {
      const [first, ...rest] = issues.map((i) => i.message);
      throw new UsageError({
        code: 'INVALID_INPUT',
        message: `${op.service.name} ${op.name}: ${first ?? 'invalid request'}; nothing was sent`,
        details: rest,
        ...where(op),
      });
    }
    return copy;
  }

  private async send(op: Operation, request: Doc): Promise<Doc> {
    const checked = this.prepared(op, request);
    const custom = await customizationOf(op)?.();
    if (custom) return custom.run({ client: this.core, op, request: checked, warn: this.warn });
    if (op.cli.assetUploads) {
      const { uploadAssetReferences } = await import('../core/asset-uploads.js');
      await uploadAssetReferences(this.core, op, checked, {
        open: openUpload,
        check: (o, r) => void this.prepared(o, r),
      });
    }
    return this.core.call(op, checked, op.cli.upload ? openUpload(op, checked) : undefined);
  }

  private async *pagesOf(service: string, name: string, request: Doc, options: PaginateOptions): AsyncGenerator<Doc> {
    const op = await this.operation(service, name);
    const checked = this.prepared(op, request, true);
    for await (const page of this.core.pages(op, checked, pagingOptions(op, options))) yield page.response;
  }

  /** Every item of every page, one page in memory at a time. */
  private async *items(service: string, name: string, request: Doc, options: PaginateOptions): AsyncGenerator<unknown> {
    const op = await this.operation(service, name);
    const checked = this.prepared(op, request, true);
    for await (const page of this.core.pages(op, checked, pagingOptions(op, options))) yield* page.items;
  }

  private async callAndWait(service: string, name: string, request: Doc, options: WaitOptions): Promise<WaitResult> {
    const op = await this.operation(service, name);
    const checked = this.prepared(op, request);
    const response = options.response ?? (await this.send(op, checked));
    const failed = await firstFailure(op, response);
    if (failed) throw failed;
    const outcome = await waitFor(this.core, op, checked, response, {
      timeoutSec: options.timeoutSeconds,
      intervalSec: options.intervalSeconds,
      onState: options.onState,
      signal: options.signal,
      clock: this.waitClock,
    });
    return { final: outcome.final, state: outcome.state, response, polls: outcome.polls, elapsedMs: outcome.elapsedMs };
  }
}

const where = (op: Operation): { service: string; operation: string } => ({ service: op.service.name, operation: op.name });

/** A paged request is checked with the page size the client will send (some services require one). */
function withPage(op: Operation, request: Doc): Doc {
  const paging = op.paging;
  if (!paging || request[paging.pageSize] !== undefined) return request;
  return { ...request, [paging.pageSize]: paging.defaultMaxItems };
}

function pagingOptions(op: Operation, options: PaginateOptions): PagingOptions {
  for (const [key, value] of Object.entries({ maxItems: options.maxItems, pageSize: options.pageSize })) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 1))
      throw new UsageError({
        code: 'INVALID_INPUT',
        message: `${key} must be a whole number of 1 or more; got ${String(value)}`,
        ...where(op),
      });
  }
  const limits = op.service.requestShape(op).byName.get(op.paging?.pageSize ?? '');
  const size = options.pageSize;
  if (size !== undefined && limits && ((limits.min !== undefined && size < limits.min) || (limits.max !== undefined && size > limits.max)))
    throw new UsageError({
      code: 'INVALID_INPUT',
      message: `pageSize must be between ${limits.min ?? 1} and ${limits.max ?? '∞'}; got ${size}`,
      ...where(op),
    });
  return { maxItems: options.maxItems, pageSize: options.pageSize, startingToken: options.startingToken };
}
