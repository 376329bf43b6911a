/**
 * The HTTP client: HTTP/1.1 (http1.ts) on node's own TCP and TLS sockets,
 * with connections kept alive, connect and read timeouts, TLS options,
 * proxies, and retries with exponential backoff and full jitter (DESIGN
 * "HTTP"). Not node:http: it and its parser cost ~6 ms of every call to load
 * (a fetch wrapper far more: node-fetch ~77 ms), and what cdpctl asks of
 * HTTP (a request, its answer, bodies streamed from files) is small.
 */
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { byteSize, READ_LIMITS, readBounded } from './bounded-read.js';
import { isLoopbackHost } from './endpoint.js';
import { CdpError, fileProblem, usageError, cdpError } from './errors.js';
import { AnswerReader, AnswerTooLarge, ExchangeError, requestHead, writeRequest, type AnswerHeaders } from './http1.js';
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
  readonly headers: AnswerHeaders;
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

/** How a request reaches its server: straight, through a plain-HTTP proxy (absolute-form), or tunnelled (CONNECT). */
interface Route {
  /** Connections kept alive are shared by requests of the same route. */
  readonly key: string;
  readonly secure: boolean;
  readonly host: string;
  readonly port: number;
  readonly proxy?: URL;
  /** An https:// request through a proxy: a CONNECT tunnel, TLS inside it. */
  readonly tunnel: boolean;
}

/** A kept-alive connection waiting for its next request. */
interface Idle {
  readonly socket: Socket;
  readonly since: number;
  readonly forget: () => void;
}

/**
 * How long a kept-alive connection is reused: below the 5 s after which
 * node's servers (the emulator's among them) close an idle one, so that a
 * request is not sent on a connection the server is closing.
 */
const IDLE_REUSE_MS = 4_000;

const defaultPort = (url: URL): number => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

/** A proxy variable's URL (`proxy:3128` means http://proxy:3128, as curl reads it). */
function proxyUrl(text: string, variable: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(text.includes('://') ? text : `http://${text}`);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw usageError(`${variable} is not an http:// or https:// proxy URL: ${text}`);
  return url;
}

/** The Proxy-Authorization a proxy URL's user and password make (Basic), if it has them. */
function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {};
  const pair = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(pair).toString('base64')}` };
}

/**
 * The transport of every request: HTTP/1.1 (http1.ts) on node's own
 * sockets, connections kept alive between requests, TLS, proxies from the
 * environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), connect and read
 * timeouts, and retries.
 */
export class HttpClient implements Transport {
  private readonly idle = new Map<string, Idle[]>();
  private readonly busy = new Set<Socket>();
  // Loaded with the first connection, not with the library: importing cdpctl loads no network code.
  private netModule?: Promise<typeof import('node:net')>;
  private tlsModule?: Promise<typeof import('node:tls')>;
  /** Once closed, a request still under way (a page read ahead) ends rather than connect again. */
  private closed = false;

  constructor(private readonly opts: HttpOptions) {}

  /** Straight to the server, or through the proxy the environment names for its scheme (unless NO_PROXY). */
  private routeFor(url: URL): Route {
    const secure = url.protocol === 'https:';
    const variable = secure ? 'HTTPS_PROXY' : 'HTTP_PROXY';
    const given = noProxy(url.hostname, this.opts.env)
      ? undefined
      : secure
        ? (this.opts.env.HTTPS_PROXY ?? this.opts.env.https_proxy)
        : (this.opts.env.HTTP_PROXY ?? this.opts.env.http_proxy);
    const proxy = given ? proxyUrl(given, variable) : undefined;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return {
      key: `${url.protocol}//${url.host} ${proxy?.href ?? ''}`,
      secure,
      host,
      port: defaultPort(url),
      proxy,
      tunnel: Boolean(proxy) && secure,
    };
  }

  close(): void {
    this.closed = true;
    for (const list of this.idle.values()) for (const c of list) c.socket.destroy();
    this.idle.clear();
    for (const socket of this.busy) socket.destroy();
    this.busy.clear();
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
        if (this.closed) throw cdpError({ kind: 'network', code: 'NETWORK_ERROR', message: `${label(req)}: the client was closed` });
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
  private async attempt(req: HttpRequest, headers: Readonly<Record<string, string>>): Promise<HttpResponse> {
    const route = this.routeFor(req.url);
    const loopback = !route.proxy && route.host.toLowerCase() === 'localhost';
    const addresses = loopback ? (this.opts.ipv4Only ? ['127.0.0.1'] : ['127.0.0.1', '::1']) : [undefined];
    for (let i = 0; ; i++) {
      try {
        return await this.attemptTo(req, headers, route, addresses[i]);
      } catch (err) {
        const refused = err instanceof AttemptError && err.code === 'ECONNREFUSED' && !err.delivered;
        if (!refused || i + 1 >= addresses.length) throw err;
      }
    }
  }

  private attemptTo(
    req: HttpRequest,
    headers: Readonly<Record<string, string>>,
    route: Route,
    address: string | undefined,
  ): Promise<HttpResponse> {
    const body = req.body;
    const method = req.method ?? 'POST';
    const key = `${route.key} ${address ?? ''}`;
    return new Promise<HttpResponse>((resolve, reject) => {
      let delivered = false;
      let settled = false;
      let socket: Socket | undefined;
      let answerTimer: NodeJS.Timeout | undefined;
      let stopUpload: (() => void) | undefined;
      const connectTimer = setTimeout(
        () => fail(`could not connect to ${req.url.host} within ${this.opts.connectTimeoutMs} ms`, 'CONNECT_TIMEOUT', true),
        this.opts.connectTimeoutMs,
      );
      const settle = (): void => {
        settled = true;
        clearTimeout(connectTimer);
        clearTimeout(answerTimer);
        if (socket) {
          socket.removeListener('data', onData);
          socket.removeListener('end', onEnd);
          socket.removeListener('close', onEnd);
          socket.removeListener('error', onError);
          socket.removeListener('timeout', onIdle);
          socket.setTimeout(0);
          this.busy.delete(socket);
        }
      };
      const fail = (message: string, code: string, timeout = false): void => {
        if (settled) return;
        settle();
        stopUpload?.();
        socket?.destroy();
        reject(new AttemptError(message, code, delivered, timeout));
      };
      /** Not an attempt's failure: asking again would get the same. */
      const tooLarge = (): void => {
        if (settled) return;
        settle();
        stopUpload?.();
        socket?.destroy();
        reject(
          cdpError({
            kind: 'service',
            code: 'BAD_RESPONSE',
            message: `${label(req)}: the answer from ${req.url.host} is larger than ${byteSize(MAX_ANSWER_BYTES)}`,
            service: req.service,
            operation: req.operation,
          }),
        );
      };
      /** The answer must be complete this long after the request was sent (or the answer began, if sooner). */
      const startAnswerClock = (): void => {
        answerTimer ??= setTimeout(
          () => fail(`no complete answer from ${req.url.host} within ${this.opts.readTimeoutMs} ms`, 'READ_TIMEOUT', true),
          this.opts.readTimeoutMs,
        );
      };
      const reader = new AnswerReader(MAX_ANSWER_BYTES, method);
      const finished = (): void => {
        const answer = reader.answer;
        if (settled || !answer || !socket) return;
        const s = socket;
        settle();
        // An answer that came before the whole request went (an early refusal) leaves the connection unusable.
        if (answer.reusable && delivered && !s.destroyed) this.release(key, s);
        else {
          stopUpload?.();
          s.destroy();
        }
        resolve({ status: answer.status, headers: answer.headers, body: answer.body });
      };
      const onData = (chunk: Buffer): void => {
        startAnswerClock();
        try {
          if (reader.feed(chunk)) finished();
        } catch (err) {
          if (err instanceof AnswerTooLarge) tooLarge();
          else if (err instanceof ExchangeError) fail(`the answer from ${req.url.host} is not valid HTTP: ${err.message}`, err.code);
          else throw err;
        }
      };
      const onEnd = (): void => {
        if (settled) return;
        if (reader.end()) return finished();
        if (reader.seen > 0) fail('the connection closed before the answer was complete', 'ECONNRESET');
        else fail(describeNetError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), req.url), 'ECONNRESET');
      };
      const onError = (err: NodeJS.ErrnoException): void => fail(describeNetError(err, req.url), err.code ?? 'ERROR');
      const onIdle = (): void => fail(`no answer from ${req.url.host} within ${this.opts.readTimeoutMs} ms`, 'READ_TIMEOUT', true);
      this.connection(route, key, address).then(
        (s) => {
          if (settled) {
            s.destroy();
            return;
          }
          clearTimeout(connectTimer);
          socket = s;
          this.busy.add(s);
          s.on('data', onData);
          s.on('end', onEnd);
          s.on('close', onEnd);
          s.on('error', onError);
          s.on('timeout', onIdle);
          s.setTimeout(this.opts.readTimeoutMs);
          const viaProxy = Boolean(route.proxy) && !route.tunnel;
          try {
            stopUpload = writeRequest(
              s,
              {
                method,
                target: viaProxy ? req.url.href : req.url.pathname + req.url.search,
                headers: {
                  host: req.url.host,
                  ...headers,
                  ...(viaProxy && route.proxy ? proxyAuthorization(route.proxy) : {}),
                  ...(Buffer.isBuffer(body) ? { 'content-length': String(body.length) } : {}),
                },
                body: Buffer.isBuffer(body) ? body : body(),
              },
              () => {
                delivered = true;
                startAnswerClock();
              },
              (err) => fail(err.message, err instanceof ExchangeError ? err.code : 'UPLOAD_READ'),
            );
          } catch (err) {
            if (!(err instanceof ExchangeError)) throw err;
            settle();
            s.destroy();
            // A header no HTTP request can carry: the user's input, not the network.
            reject(usageError(`${label(req)}: ${err.message}; nothing was sent`));
          }
        },
        (err: NodeJS.ErrnoException) => {
          if (err instanceof CdpError) {
            if (settled) return;
            settle();
            reject(err);
          } else fail(describeNetError(err, req.url), err.code ?? 'ERROR');
        },
      );
    });
  }

  /** A connection for the route: one kept alive from an earlier request, or a new one. */
  private async connection(route: Route, key: string, address: string | undefined): Promise<Socket> {
    const list = this.idle.get(key);
    for (let c = list?.pop(); c; c = list?.pop()) {
      c.forget();
      if (!c.socket.destroyed && c.socket.readyState === 'open' && Date.now() - c.since < IDLE_REUSE_MS) {
        c.socket.ref();
        return c.socket;
      }
      c.socket.destroy();
    }
    const proxy = route.proxy;
    if (!proxy) {
      const host = address ?? route.host;
      return route.secure ? this.secureOver(undefined, host, route.port, route.host) : this.plain(host, route.port);
    }
    const proxyHost = proxy.hostname.replace(/^\[|\]$/g, '');
    const first =
      proxy.protocol === 'https:'
        ? await this.secureOver(undefined, proxyHost, defaultPort(proxy), proxyHost)
        : await this.plain(proxyHost, defaultPort(proxy));
    if (!route.tunnel) return first;
    try {
      await this.tunnel(first, route, proxy);
    } catch (err) {
      first.destroy();
      throw err;
    }
    return this.secureOver(first, route.host, route.port, route.host);
  }

  /** A kept-alive connection waits for the next request of its route, not holding the process open. */
  private release(key: string, socket: Socket): void {
    const list = this.idle.get(key) ?? [];
    this.idle.set(key, list);
    const drop = (): void => {
      const i = list.findIndex((c) => c.socket === socket);
      if (i >= 0) list.splice(i, 1);
      socket.destroy();
    };
    socket.once('end', drop);
    socket.once('close', drop);
    socket.on('error', drop);
    const forget = (): void => {
      socket.removeListener('end', drop);
      socket.removeListener('close', drop);
      socket.removeListener('error', drop);
    };
    socket.unref();
    list.push({ socket, since: Date.now(), forget });
  }

  /** A TCP connection, once connected. */
  private async plain(host: string, port: number): Promise<Socket> {
    this.netModule ??= import('node:net');
    const { connect } = await this.netModule;
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port, ...(this.opts.ipv4Only ? { family: 4 } : {}) });
      socket.setNoDelay(true);
      socket.once('connect', () => {
        socket.removeListener('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  }

  /** TLS to `host` (on a connection already made, or a new one), once the handshake has checked its certificate. */
  private async secureOver(over: Socket | undefined, host: string, port: number, name: string): Promise<Socket> {
    this.tlsModule ??= import('node:tls');
    this.netModule ??= import('node:net');
    const [tls, { isIP }] = await Promise.all([this.tlsModule, this.netModule]);
    const ca = this.opts.caBundle ? readCaBundle(this.opts.caBundle) : undefined;
    return new Promise((resolve, reject) => {
      const socket = tls.connect({
        ...(over ? { socket: over } : { host, port, ...(this.opts.ipv4Only ? { family: 4 } : {}) }),
        // The name the certificate must carry (and SNI, which takes no IP address).
        host: name,
        ...(isIP(name) === 0 ? { servername: name } : {}),
        rejectUnauthorized: this.opts.verifyTls,
        ...(ca ? { ca } : {}),
        ALPNProtocols: ['http/1.1'],
      });
      socket.setNoDelay(true);
      socket.once('secureConnect', () => {
        socket.removeListener('error', reject);
        resolve(socket);
      });
      socket.once('error', (err) => {
        over?.destroy();
        reject(err);
      });
    });
  }

  /** Asks a proxy for a tunnel to the route's server (CONNECT); resolves once the proxy says yes. */
  private tunnel(socket: Socket, route: Route, proxy: URL): Promise<void> {
    // Only an IPv6 address has a colon in it.
    const authority = `${route.host.includes(':') ? `[${route.host}]` : route.host}:${route.port}`;
    return new Promise((resolve, reject) => {
      const reader = new AnswerReader(64 * 1024, 'CONNECT');
      const done = (err?: Error): void => {
        socket.removeListener('data', onData);
        socket.removeListener('error', done);
        socket.removeListener('end', onEnd);
        if (err) reject(err);
        else resolve();
      };
      const onData = (chunk: Buffer): void => {
        try {
          if (!reader.feed(chunk) || !reader.answer) return;
        } catch (err) {
          return done(err instanceof Error ? err : new Error(String(err)));
        }
        const status = reader.answer.status;
        if (status >= 200 && status < 300) return done();
        done(
          status === 407
            ? usageError(
                `the proxy ${proxy.host} wants credentials (HTTP 407): give them in the proxy URL (http://user:password@host:port)`,
              )
            : Object.assign(new Error(`the proxy ${proxy.host} refused a tunnel to ${authority} (HTTP ${status})`), {
                code: 'PROXY_REFUSED',
              }),
        );
      };
      const onEnd = (): void => done(Object.assign(new Error(`the proxy ${proxy.host} closed the connection`), { code: 'ECONNRESET' }));
      socket.on('data', onData);
      socket.once('error', done);
      socket.once('end', onEnd);
      socket.write(
        requestHead(
          { method: 'CONNECT', target: authority, headers: { host: authority, ...proxyAuthorization(proxy) }, body: Buffer.alloc(0) },
          'none',
        ),
        'latin1',
      );
    });
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
