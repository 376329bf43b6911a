/**
 * SSH public keys of an actor (a user or machine user: the caller unless
 * the request names one), and OpenSSH public keys (the one-line `type
 * base64 [comment]` form, RFC 4253 wire blob inside). Only RSA and Ed25519
 * are accepted; the fingerprint is what `ssh-keygen -l` prints: SHA256: and
 * the unpadded base64 of the blob's sha256.
 */
import { createHash } from 'node:crypto';
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, invalid, notFound } from '../../errors.js';
import { isCrn } from '../../ids.js';
import { text } from '../../values.js';
import { actorOf, actorOrCaller, type R } from './iam.js';

/** The next length-prefixed field of an SSH wire blob, from `at` on (which it moves past it). */
function field(blob: Buffer, at: { n: number }): Buffer {
  const start = at.n + 4;
  const end = start + (start > blob.length ? 0 : blob.readUInt32BE(at.n));
  if (start > blob.length || end > blob.length) throw invalid('the public key blob is truncated');
  at.n = end;
  return blob.subarray(start, end);
}

/** A public key's type, its text (`type base64 [comment]`, whitespace normalised) and fingerprint. */
export function parseSshPublicKey(input: string): { type: string; text: string; fingerprint: string } {
  const parts = input.trim().split(/\s+/);
  const [type, body, ...comment] = parts;
  if (!type || !body) throw invalid('the public key must be one line: "<type> <base64> [comment]"');
  if (type === 'ssh-dss' || type.startsWith('ecdsa-') || type.startsWith('sk-'))
    throw invalid(`unsupported SSH key type ${type}: only RSA and ED25519 keys are accepted`);
  if (type !== 'ssh-rsa' && type !== 'ssh-ed25519') throw invalid(`unsupported SSH key type ${type.slice(0, 64)}`);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw invalid('the public key body is not base64');
  const blob = Buffer.from(body, 'base64');
  const at = { n: 0 };
  if (field(blob, at).toString('latin1') !== type) throw invalid(`the key body does not hold a ${type} key`);
  if (type === 'ssh-rsa') {
    const e = field(blob, at);
    const n = field(blob, at);
    // mpint: a leading zero byte keeps the number positive; it is not part of the size.
    const bits = (n[0] === 0 ? n.length - 1 : n.length) * 8;
    if (e.length === 0 || bits < 1024) throw invalid('RSA keys must be at least 1024 bits');
  } else if (field(blob, at).length !== 32) throw invalid('an ED25519 public key is 32 bytes');
  if (at.n !== blob.length) throw invalid('the public key blob has trailing data');
  return {
    type,
    text: [type, body, ...comment].join(' '),
    fingerprint: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`,
  };
}

/** Whose a key is: the actor its add named (sshActorNamed put it in the request). */
const ownerOf = (rec: Readonly<EngineRecord>): unknown => (rec.data?.request as Doc | undefined)?.actorCrn;

/** An actor's keys (the actor must exist). */
function keysOf(h: Hook<R>, actorCrn: string): EngineRecord[] {
  actorOf(h, actorCrn);
  return h
    .records('sshPublicKey')
    .all()
    .filter((k) => ownerOf(k) === actorCrn);
}

/** addSshPublicKey: the request with the actor it is for, the caller unless it names one. */
export const sshActorNamed = (h: Hook<R>, sent: Doc): Doc => ({ ...sent, actorCrn: actorOrCaller(h, sent) });

/** describeSshPublicKey, deleteSshPublicKey: the key of the actor by CRN or fingerprint, by its id. */
export function sshKeyNamed(h: Hook<R>, sent: Doc): Doc {
  const actorCrn = actorOrCaller(h, sent);
  const ref = text(sent.crnOrFingerprint);
  const found = isCrn(ref) ? h.records('sshPublicKey').find(ref) : keysOf(h, actorCrn).find((k) => k.doc.publicKeyFingerprint === ref);
  if (!found || ownerOf(found) !== actorCrn) throw notFound(`SSH public key ${ref} not found for ${actorCrn}`);
  return { crnOrFingerprint: found.id };
}

/** listSshPublicKeys: the actor's keys. */
export const sshKeysOfActor = (h: Hook<R>, req: Doc): EngineRecord[] => keysOf(h, actorOrCaller(h, req));

export const sshPublicKeyHooks: ResourceHooks<R> = {
  check: {
    create: (h, _rec, req) => {
      const actorCrn = text(req.actorCrn);
      const { fingerprint } = parseSshPublicKey(text(req.publicKey));
      if (keysOf(h, actorCrn).some((k) => k.doc.publicKeyFingerprint === fingerprint))
        throw alreadyExists(`the SSH key ${fingerprint} is already registered for ${actorCrn}`);
    },
  },
  fill: (_h, _rec, req) => {
    const parsed = parseSshPublicKey(text(req.publicKey));
    return { publicKeyFingerprint: parsed.fingerprint, publicKey: parsed.text };
  },
};
