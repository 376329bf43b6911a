/**
 * HTTP/1.1 on a connected socket: one request written, one answer read
 * (RFC 9112). This is what node:http did for cdpctl, without its cost at
 * start-up (node:http and its parser are ~6 ms of a call; see
 * docs/performance.md): a request is a head and a body (bytes, or a stream
 * sent with its Content-Length or chunked), an answer a status, headers and
 * a body framed by Content-Length, chunked coding or the end of the
 * connection. Interim 1xx answers are skipped. Anything that is not HTTP,
 * or is larger than the caller allows, is refused rather than guessed at.
 *
 * Connections, proxies, TLS, timeouts and retries are http.ts's.
 */
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/** Headers of an answer as node:http gives them: names in lower case, repeated ones joined (set-cookie a list). */
export type AnswerHeaders = Record<string, string | string[] | undefined>;

export interface Answer {
  readonly status: number;
  readonly headers: AnswerHeaders;
  readonly body: Buffer;
  /** The connection may carry another request (HTTP/1.1, no `Connection: close`, the body framed by its length). */
  readonly reusable: boolean;
}

export interface Outgoing {
  readonly method: string;
  /** The request target: a path, or an absolute URL for a plain-HTTP proxy. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body: bytes, or a stream (sent with the Content-Length the headers give, else chunked). */
  readonly body: Buffer | Readable;
}

/** Why an exchange failed: `code` as node names network errors, or ours (HPE_INVALID, UPLOAD_SHORT). */
export class ExchangeError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** An answer larger than the caller allows: not worth asking again. */
export class AnswerTooLarge extends Error {}

/** The most an answer's status line and headers may take. */
const MAX_HEAD_BYTES = 64 * 1024;
/** The most a chunk's size line (with its extensions) or a trailer line may take. */
const MAX_LINE_BYTES = 8 * 1024;

/** Characters a header value may hold (node:http's rule): no CR, LF or other controls. */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers node:http keeps the first of when repeated; the rest are joined with ', ' (set-cookie is a list). */
const FIRST_WINS = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/** The request's head: its line and headers, each checked so that no value can start another header. */
export function requestHead(out: Outgoing, framing: 'length' | 'chunked' | 'none'): string {
  if (!/^[A-Z]+$/.test(out.method) || !/^[!-~]+$/.test(out.target))
    throw new ExchangeError('a request that HTTP cannot carry', 'ERR_INVALID_REQUEST');
  let head = `${out.method} ${out.target} HTTP/1.1\r\n`;
  for (const [name, value] of Object.entries(out.headers)) {
    if (!TOKEN.test(name)) throw new ExchangeError(`"${name}" cannot be an HTTP header name`, 'ERR_INVALID_HTTP_TOKEN');
    if (BAD_VALUE.test(value)) throw new ExchangeError(`the ${name} header holds a character HTTP cannot carry`, 'ERR_INVALID_CHAR');
    head += `${name}: ${value}\r\n`;
  }
  if (framing === 'chunked') head += 'transfer-encoding: chunked\r\n';
  return head + '\r\n';
}

/**
 * Reads one answer from the bytes a connection delivers (feed them in
 * order; `end` when the peer closes). Resolves `done` once the answer is
 * whole; throws ExchangeError for what is not HTTP, AnswerTooLarge past
 * `maxBodyBytes`.
 */
export class AnswerReader {
  private pending: Buffer | undefined;
  private status = 0;
  private minor = 1;
  private headers: AnswerHeaders = {};
  private framing: 'length' | 'chunked' | 'close' | 'none' = 'none';
  /** Bytes still to come of the body (length) or of the current chunk (chunked). */
  private remaining = 0;
  private chunkState: 'size' | 'data' | 'crlf' | 'trailer' = 'size';
  private readonly body: Buffer[] = [];
  private bodyBytes = 0;
  /** A body of known length is read into one buffer of that length (no list of chunks to join). */
  private sized: Buffer | undefined;
  private inHead = true;
  /** Bytes of the answer seen at all (an exchange that saw none may be a stale kept-alive connection). */
  seen = 0;
  answer: Answer | undefined;

  constructor(
    private readonly maxBodyBytes: number,
    /** The request's method: a HEAD's answer has no body. */
    private readonly method = 'POST',
  ) {}

  /** Takes the next bytes; true once the answer is complete (bytes past it are the server's mistake, and dropped). */
  feed(chunk: Buffer): boolean {
    if (this.answer) return true;
    this.seen += chunk.length;
    let data: Buffer = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    while (data.length > 0 && !this.answer) {
      if (this.inHead) {
        const end = headEnd(data);
        if (end < 0) {
          if (data.length > MAX_HEAD_BYTES) throw new ExchangeError('the answer has headers larger than 64 KiB', 'HPE_HEADER_OVERFLOW');
          this.pending = data;
          return false;
        }
        if (end > MAX_HEAD_BYTES) throw new ExchangeError('the answer has headers larger than 64 KiB', 'HPE_HEADER_OVERFLOW');
        this.readHead(data.toString('latin1', 0, end));
        data = data.subarray(end);
        continue;
      }
      data = this.framing === 'chunked' ? this.chunked(data) : this.plain(data);
    }
    return this.answer !== undefined;
  }

  /** The connection ended: the answer is complete only if its body runs to the end of the connection. */
  end(): boolean {
    if (this.answer) return true;
    if (!this.inHead && this.framing === 'close') {
      this.finish(false);
      return true;
    }
    return false;
  }

  private readHead(text: string): void {
    const lines = text.split(/\r?\n/);
    const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/.exec(lines[0] ?? '');
    if (!statusLine) throw new ExchangeError('the answer is not HTTP/1.x', 'HPE_INVALID_CONSTANT');
    const status = Number(statusLine[2]);
    const headers: AnswerHeaders = {};
    for (const line of lines.slice(1)) {
      if (line === '') continue;
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon).toLowerCase() : '';
      if (!TOKEN.test(name)) throw new ExchangeError('the answer has a header line that is not "name: value"', 'HPE_INVALID_HEADER_TOKEN');
      const value = line.slice(colon + 1).trim();
      const had = headers[name];
      if (name === 'set-cookie') headers[name] = [...((had as string[] | undefined) ?? []), value];
      else if (had === undefined) headers[name] = value;
      else if (!FIRST_WINS.has(name)) headers[name] = `${had as string}, ${value}`;
    }
    // 1xx answers come before the real one (101 would switch protocols, which no request here asks for).
    if (status >= 100 && status < 200) {
      if (status === 101) throw new ExchangeError('the server switched protocols unasked', 'HPE_INVALID_STATUS');
      return;
    }
    this.inHead = false;
    this.status = status;
    this.minor = Number(statusLine[1]);
    this.headers = headers;
    const te = headerText(headers['transfer-encoding']).toLowerCase();
    const length = headerText(headers['content-length']);
    // A CONNECT's answer is its head alone: a tunnel follows, or the connection is given up.
    if (status === 204 || status === 304 || this.method === 'HEAD' || this.method === 'CONNECT') this.framing = 'none';
    else if (te) this.framing = /(?:^|,)\s*chunked\s*$/.test(te) ? 'chunked' : 'close';
    else if (length !== '') {
      if (!/^\d{1,15}$/.test(length)) throw new ExchangeError('the answer has an invalid Content-Length', 'HPE_INVALID_CONTENT_LENGTH');
      this.framing = 'length';
      this.remaining = Number(length);
      if (this.remaining > this.maxBodyBytes) throw new AnswerTooLarge();
      this.sized = Buffer.allocUnsafe(this.remaining);
    } else this.framing = 'close';
    if (this.framing === 'none' || (this.framing === 'length' && this.remaining === 0)) this.finish(true);
  }

  /** A body framed by its length or by the end of the connection. */
  private plain(data: Buffer): Buffer {
    if (this.framing === 'close') {
      this.take(data);
      return data.subarray(data.length);
    }
    const n = Math.min(this.remaining, data.length);
    this.take(data.subarray(0, n));
    this.remaining -= n;
    if (this.remaining === 0) this.finish(true);
    return data.subarray(n);
  }

  /** Chunked coding: size lines, data, and trailers ending in an empty line. */
  private chunked(data: Buffer): Buffer {
    let at = 0;
    while (at < data.length && !this.answer) {
      if (this.chunkState === 'data') {
        const n = Math.min(this.remaining, data.length - at);
        this.take(data.subarray(at, at + n));
        this.remaining -= n;
        at += n;
        if (this.remaining === 0) this.chunkState = 'crlf';
        continue;
      }
      const nl = data.indexOf(10, at);
      if (nl < 0) {
        if (data.length - at > MAX_LINE_BYTES)
          throw new ExchangeError('the answer has a chunk line that is too long', 'HPE_INVALID_CHUNK_SIZE');
        this.pending = data.subarray(at);
        return data.subarray(data.length);
      }
      const line = data.toString('latin1', at, nl).replace(/\r$/, '');
      at = nl + 1;
      if (this.chunkState === 'crlf') {
        if (line !== '') throw new ExchangeError('the answer has a chunk longer than its size', 'HPE_INVALID_CHUNK_SIZE');
        this.chunkState = 'size';
      } else if (this.chunkState === 'size') {
        const size = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(line);
        if (!size) throw new ExchangeError('the answer has an invalid chunk size', 'HPE_INVALID_CHUNK_SIZE');
        this.remaining = parseInt(size[1] ?? '', 16);
        if (this.remaining === 0) this.chunkState = 'trailer';
        else {
          if (this.bodyBytes + this.remaining > this.maxBodyBytes) throw new AnswerTooLarge();
          this.chunkState = 'data';
        }
      } else if (line === '') this.finish(true);
    }
    return data.subarray(at);
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.sized) part.copy(this.sized, this.bodyBytes);
    this.bodyBytes += part.length;
    if (this.bodyBytes > this.maxBodyBytes) throw new AnswerTooLarge();
    if (!this.sized) this.body.push(part);
  }

  private finish(framed: boolean): void {
    const connection = headerText(this.headers.connection).toLowerCase();
    this.answer = {
      status: this.status,
      headers: this.headers,
      body: this.sized ?? (this.body.length === 1 ? (this.body[0] as Buffer) : Buffer.concat(this.body, this.bodyBytes)),
      reusable: framed && this.minor === 1 && !/(?:^|,)\s*close\s*(?:,|$)/.test(connection),
    };
  }
}

const headerText = (v: string | string[] | undefined): string => (Array.isArray(v) ? v.join(', ') : (v ?? ''));

/** Where an answer's head ends (after its empty line), or -1 if it has not yet. */
function headEnd(data: Buffer): number {
  for (let i = data.indexOf(10); i >= 0 && i < data.length; i = data.indexOf(10, i + 1)) {
    if (data[i + 1] === 10) return i + 2;
    if (data[i + 1] === 13 && data[i + 2] === 10) return i + 3;
  }
  return -1;
}

/**
 * Writes a request on a socket: its head, then its body. `delivered` is
 * called once the last byte has been handed to the operating system. A
 * streamed body is sent with the Content-Length its headers give (exactly
 * that many bytes: a stream that ends short fails the exchange), else with
 * chunked coding. Returns a function that stops a streamed body.
 */
export function writeRequest(socket: Socket, out: Outgoing, delivered: () => void, fail: (err: Error) => void): () => void {
  const body = out.body;
  if (Buffer.isBuffer(body)) {
    const head = requestHead(out, 'none');
    socket.write(body.length > 0 ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1'), () => delivered());
    return () => undefined;
  }
  const declared = out.headers['content-length'];
  const length = declared !== undefined ? Number(declared) : undefined;
  socket.write(requestHead(out, length === undefined ? 'chunked' : 'none'), 'latin1');
  let sent = 0;
  let stopped = false;
  const onDrain = (): void => void body.resume();
  socket.on('drain', onDrain);
  const stop = (): void => {
    stopped = true;
    socket.removeListener('drain', onDrain);
    body.destroy();
  };
  body.on('data', (chunk: Buffer | string) => {
    if (stopped) return;
    let part = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (length !== undefined && sent + part.length > length) part = part.subarray(0, length - sent);
    sent += part.length;
    if (part.length === 0) return;
    const ok =
      length === undefined
        ? socket.write(`${part.length.toString(16)}\r\n`) && socket.write(part) && socket.write('\r\n')
        : socket.write(part);
    if (!ok) body.pause();
  });
  body.once('end', () => {
    if (stopped) return;
    socket.removeListener('drain', onDrain);
    if (length !== undefined && sent < length) {
      fail(new ExchangeError(`the upload ended ${length - sent} bytes short of the ${length} it was to send`, 'UPLOAD_SHORT'));
      return;
    }
    socket.write(length === undefined ? '0\r\n\r\n' : '', () => delivered());
  });
  body.once('error', (err) => fail(new ExchangeError(`could not read the upload: ${err.message}`, 'UPLOAD_READ')));
  return stop;
}
