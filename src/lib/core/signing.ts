/**
 * Request signing as the control plane checks it (DESIGN "Request signing").
 * Pure node:crypto; the emulator uses the same canonical string to verify.
 */
import { createPrivateKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { cdpError } from './errors.js';

export type AuthMethod = 'ed25519v1' | 'ecdsav1' | 'rsav1';

export interface SigningKey {
  readonly accessKeyId: string;
  readonly method: AuthMethod;
  readonly key: KeyObject;
}

// PKCS#8 DER prefix for an Ed25519 private key: the 32-byte seed follows.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Accepts the CLI credential forms: a 44-char base64 Ed25519 seed, or PEM. */
export function parsePrivateKey(accessKeyId: string, text: string): SigningKey {
  const trimmed = text.replace(/\\n/g, '\n').trim();
  try {
    if (trimmed.length === 44 && !trimmed.includes('-----')) {
      const seed = Buffer.from(trimmed, 'base64');
      if (seed.length !== 32) throw new Error('seed is not 32 bytes');
      const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
      return { accessKeyId, method: 'ed25519v1', key };
    }
    const key = createPrivateKey({ key: trimmed, format: 'pem' });
    switch (key.asymmetricKeyType) {
      case 'ed25519':
        return { accessKeyId, method: 'ed25519v1', key };
      case 'ec':
        return { accessKeyId, method: 'ecdsav1', key };
      case 'rsa':
        return { accessKeyId, method: 'rsav1', key };
      default:
        throw new Error(`unsupported key type ${key.asymmetricKeyType ?? 'unknown'}`);
    }
  } catch (err) {
    throw cdpError({
      kind: 'auth',
      code: 'INVALID_PRIVATE_KEY',
      message: `the private key for access key ${accessKeyId} could not be read: ${(err as Error).message.split('\n')[0]}`,
      details: ['Expected a 44-character base64 Ed25519 key or a PKCS#8 PEM key (newlines may be written as \\n).'],
    });
  }
}

/** RFC 1123 date in GMT, as `x-altus-date` carries it. */
export function altusDate(now: Date = new Date()): string {
  return now.toUTCString();
}

export function canonicalString(method: string, contentType: string, date: string, path: string, authMethod: string): string {
  return `${method}\n${contentType}\n${date}\n${path}\n${authMethod}`;
}

/** base64url with `=` padding kept, as the control plane writes it. */
export function b64url(buf: Buffer): string {
  return buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

export function fromB64url(text: string): Buffer {
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** The JSON head of `x-altus-auth`, byte for byte as Python's json.dumps writes it. */
export function authHead(accessKeyId: string, method: string): string {
  return `{"access_key_id": ${JSON.stringify(accessKeyId)}, "auth_method": ${JSON.stringify(method)}}`;
}

export function signBytes(method: AuthMethod, key: KeyObject, data: Buffer): Buffer {
  switch (method) {
    case 'ed25519v1':
      return cryptoSign(null, data, key);
    case 'ecdsav1':
      return cryptoSign('sha512', data, key);
    case 'rsav1':
      return cryptoSign('sha256', data, { key, padding: 1 /* RSA_PKCS1_PADDING */ });
  }
}

/** The two headers a control-plane request carries. */
export function signRequest(
  signing: SigningKey,
  method: string,
  contentType: string,
  path: string,
  now: Date = new Date(),
): { 'x-altus-date': string; 'x-altus-auth': string } {
  const date = altusDate(now);
  const text = canonicalString(method, contentType, date, path, signing.method);
  const signature = signBytes(signing.method, signing.key, Buffer.from(text, 'utf8'));
  const head = b64url(Buffer.from(authHead(signing.accessKeyId, signing.method), 'utf8'));
  return { 'x-altus-date': date, 'x-altus-auth': `${head}.${b64url(signature)}` };
}

/**
 * Signs the requests of one key, giving the same headers again to a request
 * of the same method, content type and path within the same second: the
 * signature covers nothing else (the date only to the second), so those
 * headers verify as a fresh signature would. A listing of 200 pages signs
 * a few times rather than 200.
 */
export class RequestSigner {
  private last?: { readonly text: string; readonly headers: { 'x-altus-date': string; 'x-altus-auth': string } };

  constructor(readonly key: SigningKey) {}

  sign(method: string, contentType: string, path: string, now: Date = new Date()): { 'x-altus-date': string; 'x-altus-auth': string } {
    const text = canonicalString(method, contentType, altusDate(now), path, this.key.method);
    if (this.last?.text !== text) this.last = { text, headers: signRequest(this.key, method, contentType, path, now) };
    return this.last.headers;
  }
}
