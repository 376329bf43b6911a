/** A loopback server that records every request and answers from a script, for wire-level CLI tests. */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** What `x-altus-auth` of a signed request looks like: a base64url JSON head, a dot, a base64url signature. */
export const SIGNED = /^[\w-]+=*\.[\w-]+=*$/;

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly json: Record<string, unknown>;
}

export type Responder = (req: Recorded) => { status?: number; body?: unknown; headers?: Record<string, string> } | undefined;

export interface RecordingServer {
  /** http://127.0.0.1:PORT/ (a private-cloud URL to the official CLI's form-factor test). */
  readonly url: string;
  /** http://localhost:PORT/ (a public-cloud URL to that test); the server answers on ::1 too. */
  readonly localUrl: string;
  readonly requests: Recorded[];
  close(): Promise<void>;
}

export async function startRecordingServer(respond: Responder = () => undefined): Promise<RecordingServer> {
  const requests: Recorded[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      } catch {
        json = {};
      }
      const rec: Recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json };
      requests.push(rec);
      const answer = respond(rec) ?? {};
      const text = JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(text);
    });
  };
  const server: Server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  // `localhost` may resolve to ::1 first: answer there too when the host has IPv6 loopback.
  const servers = [server];
  const v6: Server = createServer(handler);
  await new Promise<void>((r) => {
    v6.once('error', () => r());
    v6.listen(port, '::1', () => {
      servers.push(v6);
      r();
    });
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    localUrl: `http://localhost:${port}/`,
    requests,
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((r) => {
              s.close(() => r());
              s.closeAllConnections();
            }),
        ),
      ).then(() => undefined),
  };
}

export interface Reply {
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** A recording server that plays the control plane from a script of answers. */
export interface ScriptedServer extends RecordingServer {
  /**
   * The answers, by whole path (`/api/v1/dw/describeCluster`) or by operation
   * name (the last path segment): each call takes the next answer and the last
   * one repeats; a call without answers gets `{}`. Tests may add to it between
   * commands.
   */
  readonly script: Record<string, readonly Reply[]>;
  /** Forgets the requests and answers so far and answers from `script` on. */
  play(script?: Readonly<Record<string, readonly Reply[]>>): void;
  /** The JSON bodies sent to an operation, in order; `prefix` narrows it to one service's paths. */
  sent(operation: string, prefix?: string): Array<Record<string, unknown>>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const script: Record<string, readonly Reply[]> = {};
  // Counted per list of answers, so that a list put in place mid-test starts from its first answer.
  let calls = new WeakMap<readonly Reply[], number>();
  const opOf = (path: string): string => path.split('?')[0]?.split('/').pop() ?? '';
  const server = await startRecordingServer((req) => {
    const path = req.path.split('?')[0] ?? '';
    const key = path in script ? path : opOf(path);
    const answers = script[key];
    if (!answers?.length) return { body: {} };
    const n = calls.get(answers) ?? 0;
    calls.set(answers, n + 1);
    return answers[Math.min(n, answers.length - 1)];
  });
  return {
    ...server,
    script,
    play(next = {}) {
      server.requests.length = 0;
      calls = new WeakMap();
      for (const k of Object.keys(script)) delete script[k];
      Object.assign(script, next);
    },
    sent: (operation, prefix = '') =>
      server.requests.filter((r) => r.path.startsWith(prefix) && opOf(r.path) === operation).map((r) => r.json),
  };
}
