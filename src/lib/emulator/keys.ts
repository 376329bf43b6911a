/**
 * Access key material for the keys the emulator issues, in the forms the
 * official CLI reads: V2 Ed25519 as the base64 of the 32-byte seed (44
 * characters), V1 RSA as PKCS#8 PEM, V3 ECDSA as PKCS#8 PEM whose inner
 * ECPrivateKey names its curve (OpenSSL's default leaves the curve only in
 * the outer algorithm identifier, which that CLI's parser rejects).
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { AccessKeyType } from './world/contracts.js';

/** The signing method each kind of access key signs with (x-altus-auth's `auth_method`). */
export const AUTH_METHOD: Readonly<Record<AccessKeyType, string>> = { V1: 'rsav1', V2: 'ed25519v1', V3: 'ecdsav1' };

export interface IssuedKey {
  readonly privateKey: string;
  /** SPKI PEM. */
  readonly publicKey: string;
}

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  while (n > 0) {
    bytes.unshift(n & 0xff);
    n >>= 8;
  }
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** A DER element: its tag, its length, its body. */
export const der = (tag: number, body: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);

// id-ecPublicKey and prime256v1 (P-256) object identifiers, DER encoded.
const OID_EC_PUBLIC_KEY = Buffer.from('06072a8648ce3d0201', 'hex');
const OID_P256 = Buffer.from('06082a8648ce3d030107', 'hex');

/** DER bytes as PEM text under a label (`CERTIFICATE`). */
export const pem = (label: string, body: Buffer): string =>
  `-----BEGIN ${label}-----\n${body
    .toString('base64')
    .match(/.{1,64}/g)
    ?.join('\n')}\n-----END ${label}-----\n`;

const spki = (key: KeyObject): string => key.export({ format: 'pem', type: 'spki' }).toString();

export function issueKey(type: AccessKeyType): IssuedKey {
  switch (type) {
    case 'V2': {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
      return { privateKey: pkcs8.subarray(pkcs8.length - 32).toString('base64'), publicKey: spki(publicKey) };
    }
    case 'V1': {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      return { privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicKey: spki(publicKey) };
    }
    case 'V3': {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      // SEC1 DER carries the curve ([0] parameters) inside ECPrivateKey; wrap it as PKCS#8.
      const sec1 = privateKey.export({ format: 'der', type: 'sec1' });
      const pkcs8 = der(
        0x30,
        Buffer.concat([der(0x02, Buffer.from([0])), der(0x30, Buffer.concat([OID_EC_PUBLIC_KEY, OID_P256])), der(0x04, sec1)]),
      );
      return { privateKey: pem('PRIVATE KEY', pkcs8), publicKey: spki(publicKey) };
    }
  }
}
