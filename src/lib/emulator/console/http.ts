/** What the console's pages share of HTTP: the headers every page carries, answers, reading a small body, asking for the secret. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { refuse, Refusal } from './flows.js';
import { NO_SECRET, type ConsoleGate } from './secret.js';

/** Refuses (403) a request that does not carry the console's secret (secret.ts). */
export function requireSecret(gate: ConsoleGate, req: IncomingMessage, url: URL, res: ServerResponse): void {
  if (!gate.admits(req, url, res)) throw refuse.denied(NO_SECRET.title, NO_SECRET.message);
}

/** Headers of a console page: never cached, never framed, nothing from elsewhere beyond what `csp` allows. */
export function pageHeaders(csp: string): Readonly<Record<string, string>> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'content-security-policy': csp,
  };
}

/** A request's body as text, refused (413) past `limit` bytes. */
export function readSmallBody(req: IncomingMessage, limit: number, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Refusal(413, 'PAYLOAD_TOO_LARGE', 'Too large', `The ${what} is larger than the console accepts.`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A page (or script) with the site's headers; `headers` add to or replace them. */
export function sendPage(
  res: ServerResponse,
  base: Readonly<Record<string, string>>,
  status: number,
  text: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, { ...base, ...headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A JSON answer, never cached. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    ...headers,
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A 303 to `location`, never cached. */
export function redirect(res: ServerResponse, location: string, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(303, { location, 'cache-control': 'no-store', ...headers, 'content-length': 0 });
  res.end();
}

/** A form post must come from the site's own pages (or from no page at all), never from another origin. */
export function checkOrigin(req: IncomingMessage, refusal: string): void {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && origin !== `http://${req.headers.host ?? ''}`)
    throw refuse.denied('Not allowed', refusal);
}
