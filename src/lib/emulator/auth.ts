/**
 * Authentication exactly as the control plane does it: the x-altus-auth
 * header names a key and method; the signature must verify over the
 * canonical string with the key's public key; the date must be within 15
 * minutes; key and owner must be active. Workload paths take Bearer tokens
 * issued by generateWorkloadAuthToken.
 */
import { createHash, createPublicKey, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { canonicalString, fromB64url } from '../core/signing.js';
import { forbidden, unauthenticated } from './errors.js';
import { AUTH_METHOD } from './keys.js';
import type { Caller } from './types.js';
import type { Identities } from './world/contracts.js';

const MAX_SKEW_MS = 15 * 60_000;
const keyCache = new Map<string, KeyObject>();
/** Signatures that verified: public key, canonical string and signature (see authenticateSigned). */
const verified = new Set<string>();

function publicKey(pem: string): KeyObject {
  let k = keyCache.get(pem);
  if (!k) {
    k = createPublicKey(pem);
    if (keyCache.size > 10_000) keyCache.clear();
    keyCache.set(pem, k);
  }
  return k;
}

function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  if (Array.isArray(v)) return undefined;
  return v;
}

interface AuthHead {
  access_key_id: string;
  auth_method: string;
}

function parseHead(text: string): AuthHead {
  let head: unknown;
  try {
    head = JSON.parse(fromB64url(text).toString('utf8'));
  } catch {
    throw unauthenticated('the x-altus-auth header is malformed');
  }
  const h = head as Partial<AuthHead>;
  if (typeof h !== 'object' || h === null || typeof h.access_key_id !== 'string' || typeof h.auth_method !== 'string') {
    throw unauthenticated('the x-altus-auth header is malformed');
  }
  return { access_key_id: h.access_key_id, auth_method: h.auth_method };
}

function verifySignature(method: string, key: KeyObject, data: Buffer, sig: Buffer): boolean {
  try {
    switch (method) {
      case 'ed25519v1':
        return verify(null, data, key, sig);
      case 'ecdsav1':
        return verify('sha512', data, key, sig);
      case 'rsav1':
        return verify('sha256', data, { key, padding: 1 }, sig);
      default:
        return false;
    }
  } catch {
    return false;
  }
}

/** The owner of a key or token must exist and be allowed in. */
function actor(identities: Identities, actorCrn: string): { kind: Caller['kind'] } {
  const who = identities.actor(actorCrn);
  if (!who) throw unauthenticated('the owner of this credential no longer exists');
  if (who.status === 'DEACTIVATED') throw forbidden('the owner of this credential is deactivated');
  if (who.status === 'CONTROL_PLANE_LOCKED_OUT') throw forbidden('the owner of this credential is locked out of the control plane');
  return { kind: who.kind };
}

/** A request signed with an access key (x-altus-auth), checked against the keys iam keeps (the world's `identities`). */
export function authenticateSigned(
  identities: Identities,
  accountId: string,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  now = Date.now(),
): Caller {
  const auth = single(headers, 'x-altus-auth');
  const date = single(headers, 'x-altus-date');
  if (!auth) throw unauthenticated('missing or repeated x-altus-auth header');
  if (!date) throw unauthenticated('missing or repeated x-altus-date header');
  const parts = auth.split('.');
  // Both halves are padded base64url, as the control plane's decoder insists.
  const padded = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}==|[A-Za-z0-9_-]{3}=)?$/;
  if (parts.length !== 2 || !parts[0] || !parts[1] || !padded.test(parts[0]) || !padded.test(parts[1])) {
    throw unauthenticated('the x-altus-auth header is malformed');
  }
  const head = parseHead(parts[0]);
  const when = Date.parse(date);
  if (!Number.isFinite(when)) throw unauthenticated('the x-altus-date header is not a date');
  if (Math.abs(now - when) > MAX_SKEW_MS) throw unauthenticated('the request date is more than 15 minutes away from the server time');
  // Every signed request reads its key and its owner: as kept, without copies.
  const key = identities.accessKey(head.access_key_id);
  if (!key) throw unauthenticated(`unknown access key ${head.access_key_id.slice(0, 64)}`);
  if (AUTH_METHOD[key.type] !== head.auth_method)
    throw unauthenticated(`access key ${key.accessKeyId} does not sign with ${head.auth_method.slice(0, 32)}`);
  const contentType = single(headers, 'content-type') ?? '';
  const text = canonicalString(method, contentType, date, path, head.auth_method);
  // A signature covers the date to the second, so a client's requests within
  // one second carry the same one (Ed25519 is deterministic): remember what
  // verified rather than verifying it again. Only successes are kept, keyed by
  // everything the verification saw.
  const memo = `${key.publicKey}\n${text}\n${parts[1]}`;
  if (!verified.has(memo)) {
    if (!verifySignature(head.auth_method, publicKey(key.publicKey), Buffer.from(text, 'utf8'), fromB64url(parts[1]))) {
      throw unauthenticated('the request signature does not match');
    }
    if (verified.size >= 4096) verified.clear();
    verified.add(memo);
  }
  if (key.status !== 'ACTIVE') throw unauthenticated(`access key ${key.accessKeyId} is inactive`);
  const owner = actor(identities, key.actorCrn);
  return { accountId, actorCrn: key.actorCrn, accessKeyId: key.accessKeyId, kind: owner.kind };
}

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * A Bearer token issued by generateWorkloadAuthToken, for the workload the
 * path belongs to (a DE token does not open DF paths).
 */
export function authenticateBearer(
  identities: Identities,
  accountId: string,
  headers: IncomingHttpHeaders,
  workload: string,
  now = Date.now(),
): Caller {
  const header = single(headers, 'authorization');
  const m = header ? /^Bearer ([A-Za-z0-9._~+/=-]{16,4096})$/.exec(header) : null;
  if (!m?.[1]) throw unauthenticated('missing or malformed bearer token');
  const hash = tokenHash(m[1]);
  const rec = identities.workloadToken(hash);
  if (!rec || !timingSafeEqual(Buffer.from(rec.hash), Buffer.from(hash))) throw unauthenticated('the bearer token was not issued here');
  if (rec.expireAt <= now) throw unauthenticated('the bearer token has expired');
  const owner = actor(identities, rec.actorCrn);
  if (rec.workloadName !== workload)
    throw forbidden(`the bearer token was issued for the ${rec.workloadName.slice(0, 64)} workload; this path needs a ${workload} token`);
  return {
    accountId,
    actorCrn: rec.actorCrn,
    kind: owner.kind,
    workload: { name: rec.workloadName, ...(rec.environmentCrn ? { environmentCrn: rec.environmentCrn } : {}) },
  };
}
