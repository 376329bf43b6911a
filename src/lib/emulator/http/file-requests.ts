/**
 * Requests that carry a file: an upload sent to its operation's upload path
 * (the request in headers, the file as the body), and a redirected upload
 * (a JSON request checked and answered with a redirect, then the file sent
 * where it points, with the session the redirect carried). The file is
 * streamed into the data directory's uploads (uploads.ts) and removed again
 * when the operation refuses it.
 */
import type { IncomingMessage } from 'node:http';
import { createWriteStream, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { forbidden, invalid, notFound } from '../errors.js';
import { newUploadPath } from '../uploads.js';
import type { Caller, Doc, RequestContext } from '../types.js';
import { originOf, type CallOrigin } from './calls.js';
import type { Route } from './routes.js';

/** How long a redirected upload's session waits for its file (real time). */
const UPLOAD_SESSION_MS = 10 * 60_000;

/** A checked request of a redirected upload, waiting for its file. */
interface UploadSession {
  readonly route: Route;
  readonly request: Doc;
  readonly actorCrn: string;
  readonly expires: number;
}

/** What serving a file needs of the emulator. */
export interface FileRequestHost {
  readonly dataDir: string;
  readonly baseUrl: string;
  /** Checks a request against the model, as any request is checked. */
  check(route: Route, request: unknown, caller: Caller): void;
  /** Runs a checked request with its file. */
  dispatch(route: Route, request: unknown, caller: Caller, how: CallOrigin, upload: RequestContext['upload']): Doc;
}

export class FileRequests {
  /** Checked requests of redirected uploads waiting for their files, by session. */
  private readonly sessions = new Map<string, UploadSession>();

  constructor(private readonly host: FileRequestHost) {}

  /** The first half of a redirected upload: the request is checked; returns where its file goes. */
  redirect(route: Route, request: unknown, caller: Caller): string {
    this.host.check(route, request, caller);
    const now = Date.now();
    for (const [id, s] of this.sessions) if (s.expires < now || this.sessions.size > 1000) this.sessions.delete(id);
    const session = randomBytes(12).toString('hex');
    this.sessions.set(session, { route, request: request as Doc, actorCrn: caller.actorCrn, expires: now + UPLOAD_SESSION_MS });
    return `${this.host.baseUrl}${route.redirect ?? ''}?session=${session}`;
  }

  /** A file sent to an upload route: runs its operation with it and returns the answer. */
  async serve(req: IncomingMessage, route: Route, caller: Caller, requestId: string): Promise<Doc> {
    const { request, headers } = route.redirect ? this.waiting(req, route, caller) : this.fromHeaders(req, route, caller);
    const { path, size } = await this.receive(req);
    try {
      return this.host.dispatch(route, request, caller, originOf(req, requestId), { path, size, headers });
    } catch (err) {
      rmSync(path, { force: true });
      throw err;
    }
  }

  /** The second half of a redirected upload: any content type, for the request its session carries. */
  private waiting(req: IncomingMessage, route: Route, caller: Caller): { request: Doc; headers: Record<string, string> } {
    const id = new URL(req.url ?? '/', 'http://localhost').searchParams.get('session') ?? '';
    const session = this.sessions.get(id);
    if (!session || session.route.op !== route.op || session.expires < Date.now())
      throw notFound('no upload is waiting here (it may have expired); send the request again to be redirected');
    if (session.actorCrn !== caller.actorCrn) throw forbidden('this upload was started by another caller');
    this.sessions.delete(id);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    return { request: session.request, headers };
  }

  /** An upload's request, from the headers its operation names (values as sent, not URL-encoded, as the real service takes them). */
  private fromHeaders(req: IncomingMessage, route: Route, caller: Caller): { request: Doc; headers: Record<string, string> } {
    const spec = route.op.cli.upload;
    if (!spec) throw notFound('no upload here');
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (contentType !== 'application/octet-stream') throw invalid('Content-Type must be application/octet-stream');
    const headers: Record<string, string> = {};
    const request: Doc = {};
    for (const [field, header] of Object.entries(spec.headers)) {
      const v = req.headers[header.toLowerCase()];
      if (typeof v === 'string') {
        headers[header] = v;
        request[field] = v;
      }
    }
    // The environment is the one the bearer token was issued for: the official CLI sends no header for it.
    const tokenEnv = caller.workload?.environmentCrn;
    if (tokenEnv && request.environmentCrn === undefined && route.op.service.requestShape(route.op).byName.has('environmentCrn'))
      request.environmentCrn = tokenEnv;
    return { request, headers };
  }

  /** Streams a body into the uploads directory. */
  private async receive(req: IncomingMessage): Promise<{ path: string; size: number }> {
    const path = newUploadPath(this.host.dataDir);
    let size = 0;
    req.on('data', (c: Buffer) => (size += c.length));
    // A new file (O_EXCL): nothing planted under its name is written through.
    await pipeline(req, createWriteStream(path, { mode: 0o600, flags: 'wx' }));
    return { path, size };
  }
}
