/**
 * Helpers of the reliability tests: an emulator in this process, raw HTTP
 * (including requests node's client would refuse to send), signing, and a
 * loopback server that records whatever reaches it.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readIni } from '../../src/lib/core/config.js';
import { parsePrivateKey, signRequest, type SigningKey } from '../../src/lib/core/signing.js';
import { bootstrap } from '../../src/lib/emulator/bootstrap.js';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { Emulator, type FaultSettings } from '../../src/lib/emulator/server.js';

export interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly json: Record<string, unknown> | undefined;
}

export interface InProcessEmulator {
  readonly emu: Emulator;
  readonly port: number;
  readonly home: string;
  readonly key: SigningKey;
  readonly accountId: string;
  readonly adminCrn: string;
  stop(): Promise<void>;
}

export async function startInProcess(opts: { faults?: FaultSettings; maxBodyBytes?: number } = {}): Promise<InProcessEmulator> {
  const home = mkdtempSync(join(tmpdir(), 'cdpctl-rel-emu-'));
  const env = { HOME: home };
  const emu = new Emulator({ dataDir: join(home, 'emu'), port: 0, timeScale: 1000, faults: opts.faults, maxBodyBytes: opts.maxBodyBytes });
  await emu.start();
  const boot = await bootstrap(emu, env);
  const creds = readIni(join(home, '.cdp', 'credentials')).emulator as Record<string, string>;
  const key = parsePrivateKey(String(creds.cdp_access_key_id), String(creds.cdp_private_key));
  return {
    emu,
    port: emu.port,
    home,
    key,
    accountId: boot.accountId,
    adminCrn: boot.adminCrn,
    async stop() {
      await emu.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export function parseReply(status: number, headers: IncomingHttpHeaders, text: string): Reply {
  let json: Record<string, unknown> | undefined;
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) json = v as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
}

/** One HTTP request with exactly these headers (Host included when given). */
export function send(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string | string[]>; body?: Buffer | string; host?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = { host: opts.host ?? `localhost:${port}`, ...(opts.headers ?? {}) };
    const body = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(opts.body);
    if (body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length' || h.toLowerCase() === 'transfer-encoding'))
      headers['content-length'] = String(body.length);
    const req = httpRequest(
      { host: '127.0.0.1', port, method: opts.method ?? 'POST', path: opts.path, headers, setHost: false, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(parseReply(res.statusCode ?? 0, res.headers, Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Writes raw bytes to the server and returns what comes back (status line parsed when there is one). */
export function sendRaw(port: number, bytes: Buffer | string, timeoutMs = 5000): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = (): void => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, text });
    };
    const timer = setTimeout(() => {
      sock.destroy();
      done();
    }, timeoutMs);
    sock.on('data', (c: Buffer) => {
      chunks.push(c);
      // One answer is enough: the server may keep the connection open.
      if (/\r\n\r\n/.test(Buffer.concat(chunks).toString('latin1'))) {
        const text = Buffer.concat(chunks).toString('latin1');
        const len = /content-length: (\d+)/i.exec(text);
        const bodyAt = text.indexOf('\r\n\r\n') + 4;
        if (!len || text.length - bodyAt >= Number(len[1])) {
          sock.destroy();
          done();
        }
      }
    });
    sock.on('error', () => undefined);
    sock.on('close', () => done());
    sock.end(bytes);
  });
}

/** Signed headers for a POST of JSON to `path`. */
export function signed(key: SigningKey, path: string, opts: { date?: Date; contentType?: string } = {}): Record<string, string> {
  const contentType = opts.contentType ?? 'application/json';
  return { 'content-type': contentType, ...signRequest(key, 'POST', contentType, path, opts.date) };
}

export function postJson(port: number, key: SigningKey, path: string, body: unknown): Promise<Reply> {
  return send(port, { path, headers: signed(key, path), body: JSON.stringify(body) });
}

/** A loopback server that answers 500 to everything and records what reached it. */
export async function recordingServer(): Promise<{ port: number; requests: string[]; connections: number; close(): Promise<void> }> {
  const requests: string[] = [];
  const state = { connections: 0 };
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method ?? ''} ${req.url ?? ''}`);
    req.resume();
    res.writeHead(500).end('{"code":"RECORDED","message":"this server only records"}');
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  return {
    port: typeof addr === 'object' && addr ? addr.port : 0,
    requests,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** An Error body as the wire defines it. */
export function isErrorBody(r: Reply): boolean {
  return typeof r.json?.code === 'string' && typeof r.json?.message === 'string';
}

/** A temporary HOME whose profile `ops` signs with a new key (for cdpctl runs against a scripted server). */
export function opsHome(prefix: string): string {
  const home = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(home, '.cdp'), { recursive: true });
  const key = issueKey('V2');
  writeFileSync(join(home, '.cdp', 'credentials'), `[ops]\ncdp_access_key_id = ops-key\ncdp_private_key = ${key.privateKey}\n`, {
    mode: 0o600,
  });
  return home;
}

/** `ml workspaces create --wait`, polling describeWorkspace without pause: a scripted server plays the states. */
export const WAIT_FOR_WORKSPACE = [
  'ml',
  'workspaces',
  'create',
  '--environment-name',
  'env',
  '--workspace-name',
  'ds',
  '--provision-k8s-request',
  '{"environmentName":"env","instanceGroups":[{"instanceType":"m5.2xlarge"}]}',
  '--wait',
  '--poll-interval',
  '0',
] as const;
