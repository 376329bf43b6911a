import { describe, expect, it } from '@jest/globals';
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { authHead, b64url, canonicalString, fromB64url, parsePrivateKey, signRequest } from '../../../src/lib/core/signing.js';
import { issueKey } from '../../../src/lib/emulator/keys.js';

const DATE = new Date('2026-11-22T10:00:00Z');

function check(privateText: string, method: string, verifyFn: (data: Buffer, sig: Buffer) => boolean): void {
  const key = parsePrivateKey('key-1', privateText);
  expect(key.method).toBe(method);
  const headers = signRequest(key, 'POST', 'application/json', '/iam/listUsers', DATE);
  expect(headers['x-altus-date']).toBe('Sun, 22 Nov 2026 10:00:00 GMT');
  const [head, sig] = headers['x-altus-auth'].split('.');
  expect(fromB64url(head ?? '').toString()).toBe(`{"access_key_id": "key-1", "auth_method": "${method}"}`);
  const data = Buffer.from(canonicalString('POST', 'application/json', 'Sun, 22 Nov 2026 10:00:00 GMT', '/iam/listUsers', method));
  expect(verifyFn(data, fromB64url(sig ?? ''))).toBe(true);
  // A different path must not verify with the same signature.
  const other = Buffer.from(canonicalString('POST', 'application/json', 'Sun, 22 Nov 2026 10:00:00 GMT', '/iam/getUser', method));
  expect(verifyFn(other, fromB64url(sig ?? ''))).toBe(false);
}

describe('request signing', () => {
  it('lays out x-altus-auth byte for byte: key order, spacing, base64url with padding', () => {
    expect(authHead('abc', 'ed25519v1')).toBe('{"access_key_id": "abc", "auth_method": "ed25519v1"}');
    const b = Buffer.from([0xfb, 0xff, 0xfe]);
    expect(b64url(b)).toBe('-__-');
    expect(b64url(Buffer.from('ab'))).toBe('YWI=');
    expect(fromB64url('-__-')).toEqual(b);
    expect(canonicalString('POST', 'application/json', 'D', '/p', 'm')).toBe('POST\napplication/json\nD\n/p\nm');
  });

  it('signs ed25519v1 from a 44-character base64 seed, verified by node:crypto', () => {
    const issued = issueKey('V2');
    expect(issued.privateKey).toHaveLength(44);
    const pub = createPublicKey(issued.publicKey);
    check(issued.privateKey, 'ed25519v1', (d, s) => verify(null, d, pub, s));
  });

  it('signs ed25519v1 from PKCS#8 PEM, including one-line PEM with \\n escapes', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    check(pem.replace(/\n/g, '\\n'), 'ed25519v1', (d, s) => verify(null, d, publicKey, s));
  });

  it('signs ecdsav1 with SHA-512 and a DER signature', () => {
    const issued = issueKey('V3');
    expect(issued.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const pub = createPublicKey(issued.publicKey);
    check(issued.privateKey, 'ecdsav1', (d, s) => verify('sha512', d, pub, s));
  });

  it('issues V3 keys whose inner ECPrivateKey names the P-256 curve', () => {
    const der = Buffer.from(issueKey('V3').privateKey.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
    // The prime256v1 OID appears twice: outer algorithm identifier and inner [0] parameters.
    const oid = Buffer.from('2a8648ce3d030107', 'hex');
    const first = der.indexOf(oid);
    expect(first).toBeGreaterThan(0);
    expect(der.indexOf(oid, first + 1)).toBeGreaterThan(first);
  });

  it('signs rsav1 with PKCS#1 v1.5 and SHA-256', () => {
    const issued = issueKey('V1');
    const pub = createPublicKey(issued.publicKey);
    check(issued.privateKey, 'rsav1', (d, s) => verify('sha256', d, { key: pub, padding: 1 }, s));
  });

  it('rejects an unreadable key with an auth error that never echoes the key', () => {
    let caught: unknown;
    try {
      parsePrivateKey('id', 'not-a-key-SECRETVALUE');
    } catch (err) {
      caught = err;
    }
    expect((caught as { exitCode: number }).exitCode).toBe(3);
    expect(String((caught as Error).message)).not.toContain('SECRETVALUE');
  });
});
