/**
 * A self-signed certificate for `localhost` (and 127.0.0.1) with its key,
 * made in the test's process: what a TLS server of a test presents, and
 * what `--ca-bundle` trusts.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { der, pem } from '../../src/lib/emulator/keys.js';

export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
}

const hex = (h: string): Buffer => Buffer.from(h, 'hex');
const seq = (...parts: Buffer[]): Buffer => der(0x30, Buffer.concat(parts));
const utcTime = (ms: number): Buffer => der(0x17, Buffer.from(`${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`));

export function localhostCertificate(): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const ecdsaWithSha256 = seq(hex('06082a8648ce3d040302'));
  const subject = seq(der(0x31, seq(hex('0603550403'), der(0x0c, Buffer.from('localhost')))));
  const serial = randomBytes(8);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  // subjectAltName: DNS localhost, IP 127.0.0.1.
  const altNames = seq(der(0x82, Buffer.from('localhost')), der(0x87, Buffer.from([127, 0, 0, 1])));
  const extensions = der(0xa3, seq(seq(hex('0603551d11'), der(0x04, altNames))));
  const now = Date.now();
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    ecdsaWithSha256,
    subject,
    seq(utcTime(now - 60_000), utcTime(now + 86_400_000)),
    subject,
    publicKey.export({ format: 'der', type: 'spki' }),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  const cert = seq(tbs, ecdsaWithSha256, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return { cert: pem('CERTIFICATE', cert), key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() };
}
