/** What the console's pages share of HTTP: the headers every page carries, reading a small body, asking for the secret. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Refusal } from './flows.js';
import { NO_SECRET, type ConsoleGate } from './secret.js';

/** Refuses (403) a request that does not carry the console's secret (secret.ts). */
export function requireSecret(gate: ConsoleGate, req: IncomingMessage, url: URL, res: ServerResponse): void {
  if (!gate.admits(req, url, res)) throw new Refusal(403, 'PERMISSION_DENIED', NO_SECRET.title, NO_SECRET.message);
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
