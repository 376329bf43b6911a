/**
 * The access keys the emulator issues (keys.ts), in the forms the official
 * CLI reads: V2 Ed25519 as the base64 of its 32-byte seed, V1 RSA and V3
 * ECDSA as PKCS#8 PEM, the ECDSA one with its curve named inside the
 * ECPrivateKey; each signs what its public half verifies. And the DER and
 * PEM writers they are made with.
 */
import { describe, expect, test } from '@jest/globals';
import { createPrivateKey, createPublicKey, verify } from 'node:crypto';
import { parsePrivateKey, signBytes } from '../../../src/lib/core/signing.js';
import { der, issueKey, pem } from '../../../src/lib/emulator/keys.js';

const DATA = Buffer.from('POST\napplication/json\nSun, 01 Mar 2026 12:00:00 GMT\n/iam/getUser\ned25519v1');

describe('issued keys', () => {
  test('V2: the private key is the 44-character base64 of a 32-byte Ed25519 seed; it signs what the public key verifies', () => {
    const k = issueKey('V2');
    expect(k.privateKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(k.privateKey, 'base64')).toHaveLength(32);
    expect(createPublicKey(k.publicKey).asymmetricKeyType).toBe('ed25519');
    const signing = parsePrivateKey('id', k.privateKey);
    expect(signing.method).toBe('ed25519v1');
    expect(verify(null, DATA, createPublicKey(k.publicKey), signBytes('ed25519v1', signing.key, DATA))).toBe(true);
  });

  test('V3: PKCS#8 PEM whose inner ECPrivateKey names the P-256 curve; it signs with SHA-512 what the public key verifies', () => {
    const k = issueKey('V3');
    expect(k.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END PRIVATE KEY-----\n$/);
    const body = Buffer.from(k.privateKey.replace(/-----[A-Z ]+-----|\n/g, ''), 'base64');
    // [0] parameters holding prime256v1's OID, inside the ECPrivateKey that the outer OCTET STRING wraps.
    expect(body.includes(Buffer.from('a00a06082a8648ce3d030107', 'hex'))).toBe(true);
    expect(createPrivateKey(k.privateKey).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    const signing = parsePrivateKey('id', k.privateKey);
    expect(signing.method).toBe('ecdsav1');
    expect(verify('sha512', DATA, createPublicKey(k.publicKey), signBytes('ecdsav1', signing.key, DATA))).toBe(true);
  });

  test('V1: a 2048-bit RSA PKCS#8 PEM; it signs with SHA-256 and PKCS#1 v1.5 what the public key verifies', () => {
    const k = issueKey('V1');
    expect(k.privateKey.startsWith('-----BEGIN PRIVATE KEY-----\n')).toBe(true);
    expect(createPrivateKey(k.privateKey).asymmetricKeyDetails?.modulusLength).toBe(2048);
    const signing = parsePrivateKey('id', k.privateKey);
    expect(signing.method).toBe('rsav1');
    expect(verify('sha256', DATA, { key: createPublicKey(k.publicKey), padding: 1 }, signBytes('rsav1', signing.key, DATA))).toBe(true);
  });

  test('each issue is a new key pair', () => {
    expect(issueKey('V2').privateKey).not.toBe(issueKey('V2').privateKey);
  });
});

describe('DER and PEM', () => {
  test('der writes tag, length and body, the length in short form below 128 and long form from there', () => {
    expect(der(0x04, Buffer.from([1, 2, 3]))).toEqual(Buffer.from([0x04, 3, 1, 2, 3]));
    expect(der(0x04, Buffer.alloc(127)).subarray(0, 2)).toEqual(Buffer.from([0x04, 0x7f]));
    expect(der(0x04, Buffer.alloc(128)).subarray(0, 3)).toEqual(Buffer.from([0x04, 0x81, 0x80]));
    expect(der(0x30, Buffer.alloc(300)).subarray(0, 4)).toEqual(Buffer.from([0x30, 0x82, 0x01, 0x2c]));
  });

  test('pem wraps base64 at 64 characters between its labelled lines', () => {
    const text = pem('CERTIFICATE', Buffer.alloc(100, 0xff));
    const lines = text.split('\n');
    expect(lines[0]).toBe('-----BEGIN CERTIFICATE-----');
    expect(lines[1]).toHaveLength(64);
    expect(lines.at(-2)).toBe('-----END CERTIFICATE-----');
    expect(text.endsWith('\n')).toBe(true);
  });
});
