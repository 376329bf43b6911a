/**
 * The HTTP client: node:http/https with a keep-alive agent, connect and read
 * timeouts, TLS options, proxies, and retries with exponential backoff and
 * full jitter (DESIGN "HTTP"). node's own client is used rather than a fetch
 * wrapper because it costs a few milliseconds to load (node-fetch costs ~77 ms
 * per process start) and streams request bodies from files natively.
 */
import type { Agent, ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { byteSize, READ_LIMITS, readBounded } from './bounded-read.js';
import { isLoopbackHost } from './endpoint.js';
import { CdpError, fileProblem, usageError, cdpError } from './errors.js';
import { redactUrl } from './redact.js';

export interface HttpOptions {
  /** Milliseconds to wait for a connection. */
  readonly connectTimeoutMs: number;
  /**
   * Milliseconds the whole answer may take once the request is sent (and
   * the most silence allowed while it is being sent): a server that drips
   * its answer a byte at a time is cut off all the same.
   */
  readonly readTimeoutMs: number;
  readonly verifyTls: boolean;
  readonly caBundle?: string;
  readonly maxAttempts: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Receives one line per request/response when --debug is on. */
  readonly debug?: (line: string) => void;
  /** Connect over IPv4 only (--force-ipv4). */
  readonly ipv4Only?: boolean;
}

export interface HttpRequest {
  /** POST unless said otherwise (every API operation is a POST; the console's device login also GETs). */
  readonly method?: 'GET' | 'POST';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** The body, or a function that opens a fresh stream for every attempt. */
  readonly body: Buffer | (() => Readable);
  /** Mutating calls are not retried once fully delivered, except on 429/503. */
  readonly mutating: boolean;
  /** Wire service and operation names, for messages and errors (no service for other requests, e.g. the console's). */
  readonly service?: string;
  readonly operation: string;
  /** Re-signs per attempt (the signature carries the date). */
  readonly sign?: () => Readonly<Record<string, string>>;
  /** A redacted rendering of the body for --debug. */
  readonly debugBody?: string;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

/**
 * What carries a request to its server and brings the answer back: the
 * HttpClient below, or, in tests, a fake that answers from a script.
 */
export interface Transport {
  send(req: HttpRequest): Promise<HttpResponse>;
  /** Lets go of connections kept open. */
  close(): void;
}

const REDACTED_HEADERS = new Set(['x-altus-auth', 'authorization']);

/** The largest answer read: far above any page of JSON, far below what would exhaust memory. */
const MAX_ANSWER_BYTES = 128 * 1024 * 1024;

export const DEFAULT_HTTP: Omit<HttpOptions, 'env'> = {
  connectTimeoutMs: 60_000,
  readTimeoutMs: 60_000,
  verifyTls: true,
  maxAttempts: 8,
};

class AttemptError extends Error {
  constructor(
    message: string,
    readonly code: string,
    /** The request body reached the socket completely. */
    readonly delivered: boolean,
    readonly timeout: boolean,
  ) {
    super(message);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `iam getUser`, or the request's own name when it is not a service operation. */
const label = (req: HttpRequest): string => (req.service ? `${req.service} ${req.operation}` : req.operation);

function noProxy(host: string, env: HttpOptions['env']): boolean {
  if (isLoopbackHost(host)) return true;
  const list = (env.NO_PROXY ?? env.no_proxy ?? '').split(',').map((s) => s.trim().toLowerCase());
  return list.some((e) => e === '*' || (e !== '' && (host === e.replace(/^\./, '') || host.endsWith(e.startsWith('.') ? e : `.${e}`))));
}

export class HttpClient implements Transport {
  private agents = new Map<string, Agent>();

  constructor(private readonly opts: HttpOptions) {}

  private async agentFor(url: URL): Promise<{ agent: Agent; viaProxy: boolean }> {
    const secure = url.protocol === 'https:';
    const proxy = noProxy(url.hostname, this.opts.env)
      ? undefined
      : secure
        ? (this.opts.env.HTTPS_PROXY ?? this.opts.env.https_proxy)
        : (this.opts.env.HTTP_PROXY ?? this.opts.env.http_proxy);
    const key = `${url.protocol}${proxy ?? ''}`;
    const hit = this.agents.get(key);
    if (hit) return { agent: hit, viaProxy: Boolean(proxy) && !secure };
    let agent: Agent;
    const tls = { rejectUnauthorized: this.opts.verifyTls, ca: this.opts.caBundle ? readCaBundle(this.opts.caBundle) : undefined };
    if (proxy && secure) {
      const { HttpsProxyAgent } = await import('https-proxy-agent');
      agent = new HttpsProxyAgent(proxy, { keepAlive: true, ...tls }) as unknown as Agent;
    } else if (secure) {
      const https = await import('node:https');
      agent = new https.Agent({ keepAlive: true, ...tls });
    } else {
      const http = await import('node:http');
      agent = new http.Agent({ keepAlive: true });
    }
    this.agents.set(key, agent);
    return { agent, viaProxy: Boolean(proxy) && !secure };
  }

  close(): void {
    for (const a of this.agents.values()) a.destroy();
    this.agents.clear();
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const debug = this.opts.debug;
    for (let attempt = 1; ; attempt++) {
      const headers = { ...req.headers, ...(req.sign ? req.sign() : {}) };
      if (debug) {
        const shown = Object.entries(headers).map(([k, v]) => `${k}: ${REDACTED_HEADERS.has(k.toLowerCase()) ? '<redacted>' : v}`);
        debug(`> ${req.method ?? 'POST'} ${redactUrl(req.url)} (attempt ${attempt})`);
        for (const h of shown) debug(`>   ${h}`);
        if (req.debugBody !== undefined) debug(`>   body: ${req.debugBody}`);
      }
      const started = Date.now();
      let retryAfterMs: number | undefined;
      try {
        const res = await this.attempt(req, headers);
        debug?.(`< ${res.status} ${label(req)} in ${Date.now() - started} ms`);
        // 501 (not implemented) is an answer, not a fault: asking again cannot change it.
        const retryable = res.status === 429 || res.status === 503 || (!req.mutating && res.status >= 500 && res.status !== 501);
        if (!retryable || attempt >= this.opts.maxAttempts) return res;
        const after = Number(res.headers['retry-after']);
        if (Number.isFinite(after) && after >= 0) retryAfterMs = Math.min(after * 1000, 30_000);
      } catch (err) {
        if (!(err instanceof AttemptError)) throw err;
        debug?.(`< ${err.code} ${err.message} after ${Date.now() - started} ms`);
        // A mutating request that fully reached the server may have been
        // carried out: sending it again could do it twice.
        const retryable = !err.timeout && (!req.mutating || !err.delivered);
        if (!retryable || attempt >= this.opts.maxAttempts) {
          throw cdpError({
            kind: 'network',
            code: err.timeout ? 'TIMEOUT' : 'NETWORK_ERROR',
            message: `${label(req)}: ${err.message}${attempt > 1 ? ` (after ${attempt} attempts)` : ''}${
              !err.timeout && req.mutating && err.delivered
                ? '; not sent again: the request had reached the server and may have been carried out'
                : ''
            }`,
            service: req.service,
            operation: req.operation,
          });
        }
      }
      const backoff = Math.random() * Math.min(2000, 100 * 2 ** (attempt - 1));
      await sleep(retryAfterMs ?? backoff);
    }
  }

  /**
   * One attempt. `localhost` is connected to as the loopback addresses
   * themselves, 127.0.0.1 then ::1 (as curl and browsers do: RFC 6761 keeps
   * it loopback), so no resolver runs and node's costly check of whether the
   * host is an IP address is skipped; the Host header still says localhost.
   */
  private async attempt(req: HttpRequest, headers: OutgoingHttpHeaders): Promise<HttpResponse> {
    const { agent, viaProxy } = await this.agentFor(req.url);
    const loopback = !viaProxy && req.url.hostname.toLowerCase() === 'localhost';
    const addresses = loopback ? (this.opts.ipv4Only ? ['127.0.0.1'] : ['127.0.0.1', '::1']) : [undefined];
    for (let i = 0; ; i++) {
      try {
        return await this.attemptTo(req, headers, agent, viaProxy, addresses[i]);
      } catch (err) {
        const refused = err instanceof AttemptError && err.code === 'ECONNREFUSED' && !err.delivered;
        if (!refused || i + 1 >= addresses.length) throw err;
      }
    }
  }

  private async attemptTo(
    req: HttpRequest,
    headers: OutgoingHttpHeaders,
    agent: Agent,
    viaProxy: boolean,
    address: string | undefined,
  ): Promise<HttpResponse> {
    const mod = req.url.protocol === 'https:' ? await import('node:https') : await import('node:http');
    const body = req.body;
    return new Promise<HttpResponse>((resolve, reject) => {
      let delivered = false;
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      let answerTimer: NodeJS.Timeout | undefined;
      let upload: Readable | undefined;
      const stop = (): void => {
        settled = true;
        clearTimeout(connectTimer);
        clearTimeout(answerTimer);
        r.destroy();
        upload?.destroy();
      };
      const fail = (message: string, code: string, timeout = false): void => {
        if (settled) return;
        stop();
        reject(new AttemptError(message, code, delivered, timeout));
      };
      /** The answer must be complete this long after the request was sent (or the answer began, if sooner). */
      const startAnswerClock = (): void => {
        answerTimer ??= setTimeout(
          () => fail(`no complete answer from ${req.url.host} within ${this.opts.readTimeoutMs} ms`, 'READ_TIMEOUT', true),
          this.opts.readTimeoutMs,
        );
      };
      const r: ClientRequest = mod.request({
        ...this.target(req.url, viaProxy),
        ...(address ? { hostname: address, servername: req.url.hostname } : {}),
        method: req.method ?? 'POST',
        agent,
        ...(this.opts.ipv4Only ? { family: 4 } : {}),
        headers: {
          ...headers,
          ...(viaProxy || address ? { host: req.url.host } : {}),
          ...(Buffer.isBuffer(body) ? { 'content-length': String(body.length) } : {}),
        },
        rejectUnauthorized: this.opts.verifyTls,
      });
      r.on('socket', (socket) => {
        if (socket.connecting) {
          connectTimer = setTimeout(
            () => fail(`could not connect to ${req.url.host} within ${this.opts.connectTimeoutMs} ms`, 'CONNECT_TIMEOUT', true),
            this.opts.connectTimeoutMs,
          );
          socket.once('connect', () => clearTimeout(connectTimer));
        }
      });
      r.setTimeout(this.opts.readTimeoutMs, () =>
        fail(`no answer from ${req.url.host} within ${this.opts.readTimeoutMs} ms`, 'READ_TIMEOUT', true),
      );
      r.on('finish', () => {
        delivered = true;
        startAnswerClock();
      });
      r.on('error', (err: NodeJS.ErrnoException) => fail(describeNetError(err, req.url), err.code ?? 'ERROR'));
      r.on('response', (res) => {
        clearTimeout(connectTimer);
        startAnswerClock();
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(c);
          else {
            // Not an attempt's failure: asking again would get the same.
            if (settled) return;
            stop();
            reject(
              cdpError({
                kind: 'service',
                code: 'BAD_RESPONSE',
                message: `${label(req)}: the answer from ${req.url.host} is larger than ${byteSize(MAX_ANSWER_BYTES)}`,
                service: req.service,
                operation: req.operation,
              }),
            );
          }
        });
        res.on('error', (err: NodeJS.ErrnoException) => fail(describeNetError(err, req.url), err.code ?? 'ERROR'));
        res.on('aborted', () => fail('the connection closed before the answer was complete', 'ECONNRESET'));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(answerTimer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
      });
      if (Buffer.isBuffer(body)) r.end(body);
      else {
        upload = body();
        upload.on('error', (err) => fail(`could not read the upload: ${err.message}`, 'UPLOAD_READ'));
        upload.pipe(r);
      }
    });
  }

  /** Where the request goes: the server itself, or a plain-HTTP proxy given the absolute URL. */
  private target(url: URL, viaProxy: boolean): { protocol: string; hostname: string; port: string; path: string } {
    if (!viaProxy) {
      return { protocol: url.protocol, hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, path: url.pathname + url.search };
    }
    const proxy = new URL(this.opts.env.HTTP_PROXY ?? this.opts.env.http_proxy ?? '');
    return { protocol: proxy.protocol, hostname: proxy.hostname, port: proxy.port, path: url.href };
  }
}

/** The certificates of --ca-bundle: a regular file within the settings cap. */
function readCaBundle(path: string): Buffer {
  try {
    return readBounded(path, { label: '--ca-bundle', maxBytes: READ_LIMITS.settings });
  } catch (err) {
    if (err instanceof CdpError) throw err;
    throw usageError(`--ca-bundle: cannot read ${path}: ${fileProblem(err)}`);
  }
}

export function describeNetError(err: NodeJS.ErrnoException, url: URL): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${url.host} (is the server running?)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve host ${url.hostname}`;
    case 'ECONNRESET':
      return `the connection to ${url.host} was reset`;
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return `TLS certificate of ${url.host} not trusted (${err.code}); use --ca-bundle or --no-verify-tls`;
    default:
      return err.message;
  }
}
