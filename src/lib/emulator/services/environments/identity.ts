/**
 * Who an environment knows and what it hands out: the account's users,
 * machine users and groups as iam tells the world (never changed here), a
 * digest of them that tells whether an environment's FreeIPA has the latest
 * (user sync state), and Kerberos and TLS material in the formats tools
 * read: an MIT keytab (format 0x0502) that `klist -k` lists, and a
 * self-signed X.509 certificate (the root certificate of an environment's
 * FreeIPA certificate authority, or an Azure app's certificate) that
 * openssl and node's X509Certificate parse and verify. Keys are made up:
 * the certificate's from a new key pair (its private key is thrown away),
 * the keytab's derived from the environment and the principal.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, notFound } from '../../errors.js';
import { der, pem } from '../../keys.js';
import type { BackendContext, Doc } from '../../types.js';
import { str, text } from '../../values.js';
import type { ActorView, Identities } from '../../world/contracts.js';
import { environmentOf, envOf, saveEnvironment, type R } from './backend.js';
import { ipaRequired, realmOf } from './freeipa.js';

type Scoped = Pick<BackendContext, 'store' | 'clock' | 'info' | 'world'>;

/** The account's users and machine users, as iam tells the world (world/contracts.ts `identities`). */
export const identitiesOf = (ctx: Scoped): Identities => ctx.world.in(ctx).identities;

/** A digest of the account's users, machine users, groups, memberships and workload passwords. */
export const usersFingerprint = (ctx: Scoped): string => identitiesOf(ctx).syncDigest();

/** A user or machine user of the account, by CRN, with the name it has in workloads. */
export function workloadActor(ctx: Scoped, actorCrn: string): ActorView {
  const actor = identitiesOf(ctx).actor(actorCrn);
  if (!actor) throw notFound(`actor ${actorCrn.slice(0, 200)} is not a user or machine user of this account`);
  return actor;
}

/** The keytab of a user or machine user (the caller by default) in an environment, base64. */
export function getKeytab(h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc {
  const e = envOf(h, rec);
  ipaRequired(e);
  const actorCrn = str(req.actorCrn) ?? h.ctx.caller.actorCrn;
  const actor = workloadActor(h.ctx, actorCrn);
  if (actor.status !== 'ACTIVE') throw failedPrecondition(`actor ${actorCrn} is ${actor.status}; only active users have keytabs`);
  // A new workload password gives new keys: the key version counts the passwords set.
  const kvno = 1 + identitiesOf(h.ctx).workloadPasswordsSet(actorCrn);
  const contents = keytab(actor.workloadUsername, realmOf(e), kvno, `${e.crn}/${actorCrn}/${kvno}`, h.ctx.clock.now());
  return { contents: contents.toString('base64') };
}

const DAY = 86_400_000;

/**
 * Code: the PEM root certificate of an environment's certificate authority,
 * made the first time it is asked for and kept with the environment; valid
 * for 20 years from a day before the environment was made (the margin
 * certificate authorities leave for clocks).
 */
export function getRootCertificate(h: Hook<R>, req: Doc): Doc {
  const e = environmentOf(h, text(req.environmentName));
  ipaRequired(e);
  if (!e.rootCertificate) {
    const organization = realmOf(e);
    e.rootCertificate = selfSignedCertificate({ commonName: 'Certificate Authority', organization }, Date.parse(e.created) - DAY, 20).pem;
    saveEnvironment(h, e);
  }
  return { contents: e.rootCertificate };
}

// Object identifiers, DER encoded.
const OID = {
  ecdsaWithSha256: '06082a8648ce3d040302',
  commonName: '0603550403',
  organization: '060355040a',
  basicConstraints: '0603551d13',
  keyUsage: '0603551d0f',
  subjectKeyIdentifier: '0603551d0e',
};

const hexBytes = (h: string): Buffer => Buffer.from(h, 'hex');
const seq = (...parts: Buffer[]): Buffer => der(0x30, Buffer.concat(parts));
const utf8 = (s: string): Buffer => der(0x0c, Buffer.from(s, 'utf8'));
const octets = (b: Buffer): Buffer => der(0x04, b);
const TRUE = der(0x01, Buffer.from([0xff]));

/** A time as X.509 writes it: UTCTime before 2050, GeneralizedTime from then on. */
function time(ms: number): Buffer {
  const iso = new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const year = Number(iso.slice(0, 4));
  return year < 2050 ? der(0x17, Buffer.from(`${iso.slice(2)}Z`)) : der(0x18, Buffer.from(`${iso}Z`));
}

const name = (commonName: string, organization: string): Buffer =>
  seq(der(0x31, seq(hexBytes(OID.organization), utf8(organization))), der(0x31, seq(hexBytes(OID.commonName), utf8(commonName))));

const extension = (oid: string, critical: boolean, value: Buffer): Buffer => seq(hexBytes(oid), ...(critical ? [TRUE] : []), octets(value));

export interface Certificate {
  readonly pem: string;
  readonly der: Buffer;
  readonly notAfter: number;
}

/** A self-signed certificate authority (ECDSA P-256) valid from `from` for `years`. */
export function selfSignedCertificate(subject: { commonName: string; organization: string }, from: number, years: number): Certificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const serial = randomBytes(8);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const notAfter = new Date(from);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + years);
  const sigAlg = seq(hexBytes(OID.ecdsaWithSha256));
  const subjectName = name(subject.commonName, subject.organization);
  const keyId = createHash('sha1').update(spki).digest();
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    sigAlg,
    subjectName,
    seq(time(from), time(notAfter.getTime())),
    subjectName,
    spki,
    der(
      0xa3,
      seq(
        extension(OID.basicConstraints, true, seq(TRUE)),
        // keyCertSign and cRLSign: bits 5 and 6.
        extension(OID.keyUsage, true, der(0x03, Buffer.from([0x01, 0x06]))),
        extension(OID.subjectKeyIdentifier, false, octets(keyId)),
      ),
    ),
  );
  const signature = sign('sha256', tbs, privateKey);
  const cert = seq(tbs, sigAlg, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return { pem: pem('CERTIFICATE', cert), der: cert, notAfter: notAfter.getTime() };
}

// ---- keytabs ----------------------------------------------------------------------

/** Encryption types a keytab holds a key of, with their key lengths. */
const ENCTYPES: ReadonlyArray<readonly [type: number, bytes: number]> = [
  [18, 32], // aes256-cts-hmac-sha1-96
  [17, 16], // aes128-cts-hmac-sha1-96
];

const u16 = (n: number): Buffer => Buffer.from([n >>> 8, n & 0xff]);
const u32 = (n: number): Buffer => Buffer.from([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
const counted = (b: Buffer): Buffer => Buffer.concat([u16(b.length), b]);

/**
 * The keytab of a principal (`user@REALM`): one entry per encryption type,
 * key version `kvno`, keys derived from `seed`.
 */
function keytab(principal: string, realm: string, kvno: number, seed: string, at: number): Buffer {
  const entries = ENCTYPES.map(([type, bytes]) => {
    const key = createHash('sha256').update(`${seed}/${type}`).digest().subarray(0, bytes);
    const body = Buffer.concat([
      u16(1),
      counted(Buffer.from(realm)),
      counted(Buffer.from(principal)),
      u32(1), // KRB5_NT_PRINCIPAL
      u32(Math.floor(at / 1000)),
      Buffer.from([kvno & 0xff]),
      u16(type),
      counted(key),
      u32(kvno),
    ]);
    return Buffer.concat([u32(body.length), body]);
  });
  return Buffer.concat([Buffer.from([0x05, 0x02]), ...entries]);
}
