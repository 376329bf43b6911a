/**
 * The pinned wire fixtures (test/fixtures/wire/<service>.json, written by
 * scripts/pin-wire.mjs from what the official CLI sent) and the checks both
 * wire tests make of a request: the same path and body, and a signature the
 * control plane would accept (or the right bearer token).
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalString, fromB64url } from '../../src/lib/core/signing.js';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { ROOT } from './cli.js';

export interface PinnedRequest {
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body?: unknown;
  readonly bytes?: number;
}

export interface Entry {
  readonly operation: string;
  readonly argv: readonly string[];
  readonly files?: Readonly<Record<string, string>>;
  readonly requests: readonly PinnedRequest[];
  /** cdp refused the example (e.g. a form-factor-only argument): nothing to compare. */
  readonly cdpExit?: number;
}

export interface Fixture {
  readonly service: string;
  /**
   * Canned answers by path (e.g. the workload token exchange), `$BASE` standing for the server's URL;
   * `{"__status", "__headers", "__body"}` answers with another status (a redirect).
   */
  readonly replies?: Readonly<Record<string, unknown>>;
  /** cdp was pinned with a patch (scripts/pin-wire-cdp), and why. */
  readonly cdpPatch?: string;
  readonly entries: readonly Entry[];
}

const DIR = join(ROOT, 'test/fixtures/wire');

export const fixtures: readonly Fixture[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Fixture);

/** The key the examples are signed with, and the environment that makes cdpctl sign with it. */
export const pinnedKey = issueKey('V2');
const publicKey: KeyObject = createPublicKey(pinnedKey.publicKey);
export const PINNED_ENV = { CDP_ACCESS_KEY_ID: 'pinned-key', CDP_PRIVATE_KEY: pinnedKey.privateKey } as const;

/** A canned answer: a document, or another status with its headers and body. */
export interface CannedReply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body: unknown;
}

/** A fixture's canned answer for a path, `$BASE` standing for the server's URL; undefined where it has none. */
export function cannedReply(fixture: Fixture, base: string, path: string): CannedReply | undefined {
  const replies = JSON.parse(JSON.stringify(fixture.replies ?? {}).replaceAll('$BASE', base)) as Record<string, unknown>;
  const reply = replies[path.split('?')[0] ?? ''];
  if (reply === undefined) return undefined;
  const special = reply as { __status?: number; __headers?: Record<string, string>; __body?: unknown };
  return special.__status ? { status: special.__status, headers: special.__headers, body: special.__body ?? {} } : { body: reply };
}

/** A request as the fixtures pin it: method, path, content type, and the JSON body (or an upload's size). */
export function asPinned(method: string, path: string, contentType: string, body: string | Buffer | undefined): PinnedRequest {
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : (body ?? '');
  return {
    method,
    path,
    ...(contentType ? { contentType } : {}),
    ...(contentType.startsWith('application/json')
      ? { body: text ? (JSON.parse(text) as unknown) : undefined }
      : { bytes: Buffer.byteLength(text) }),
  };
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** Problems with one signature, or undefined when it verifies as the control plane would. */
export function signatureProblem(headers: Headers, path: string): string | undefined {
  const auth = String(headers['x-altus-auth'] ?? '');
  const [head, sig] = auth.split('.');
  if (!head || !sig) return 'no x-altus-auth';
  const meta = JSON.parse(fromB64url(head).toString('utf8')) as { access_key_id?: string; auth_method?: string };
  if (meta.access_key_id !== 'pinned-key') return `signed by ${meta.access_key_id}`;
  // The signed path leaves the query out (a redirect's upload URL carries one).
  const signed = canonicalString(
    'POST',
    String(headers['content-type'] ?? ''),
    String(headers['x-altus-date']),
    path.split('?')[0] ?? '',
    'ed25519v1',
  );
  return verify(null, Buffer.from(signed), publicKey, fromB64url(sig)) ? undefined : 'signature does not verify';
}

/**
 * Workload calls carry the token given with --access-token, else the one the
 * canned token exchange issued, prefixed with `Bearer ` once.
 */
export function bearerProblem(headers: Headers, entry: Entry, fixture: Fixture): string | undefined {
  const given = entry.argv.indexOf('--access-token');
  const exchanged = (fixture.replies?.['/iam/generateWorkloadAuthToken'] as { token?: string } | undefined)?.token;
  const token = given >= 0 ? entry.argv[given + 1] : exchanged;
  return headers.authorization === `Bearer ${token}` ? undefined : `authorization is ${String(headers.authorization)}`;
}

/** Every problem with a request as sent: not signed as the control plane checks, or the wrong bearer token. */
export const authProblem = (headers: Headers, path: string, entry: Entry, fixture: Fixture): string | undefined =>
  headers.authorization ? bearerProblem(headers, entry, fixture) : signatureProblem(headers, path);
