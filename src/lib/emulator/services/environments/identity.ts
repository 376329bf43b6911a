/**
 * Who an environment knows: the account's users, machine users and groups as
 * iam keeps them (read from iam's records, never changed here), a digest of
 * them that tells whether an environment's FreeIPA has the latest (user sync
 * state), and the Kerberos keytabs and certificate authority an environment
 * hands out.
 */
import { createHash } from 'node:crypto';
import { failedPrecondition, notFound } from '../../errors.js';
import { DEFAULT_POLICY, type Policy } from '../iam/passwords.js';
import { KIND as IAM, type MachineUserRecord, type UserRecord } from '../iam/records.js';
import type { BackendContext } from '../../types.js';
import { keytab, selfSignedCertificate } from './credentials.js';
import { realmOf } from './freeipa.js';
import type { EnvRecord } from './records.js';

/** What user sync carries into FreeIPA, as iam has it now. */
const SYNCED_KINDS = [IAM.user, IAM.machineUser, IAM.group, IAM.membership, IAM.workloadPassword];

/** A digest of the account's users, machine users, groups, memberships and workload passwords. */
export function usersFingerprint(ctx: Pick<BackendContext, 'store'>): string {
  const h = createHash('sha256');
  for (const kind of SYNCED_KINDS) {
    const docs = ctx.store.list<unknown>(kind).map((d) => `${d.id}=${JSON.stringify(d.doc)}`);
    h.update(`${kind}\n${docs.sort().join('\n')}\n`);
  }
  return h.digest('hex');
}

/** A user or machine user of the account, by CRN, with the name it has in workloads. */
export function workloadActor(ctx: Pick<BackendContext, 'store'>, actorCrn: string): { workloadUsername: string; status: string } {
  const hit = ctx.store.getByCrn<UserRecord | MachineUserRecord>(actorCrn);
  if (!hit || (hit.kind !== IAM.user && hit.kind !== IAM.machineUser))
    throw notFound(`actor ${actorCrn.slice(0, 200)} is not a user or machine user of this account`);
  return { workloadUsername: hit.doc.workloadUsername, status: hit.doc.status };
}

/** The workload password policy of the account (iam's). */
export function workloadPasswordPolicy(ctx: Pick<BackendContext, 'store' | 'info'>): Policy {
  const account = ctx.store.get<{ workloadPasswordPolicy?: Policy }>(IAM.account, ctx.info.accountId);
  return account?.workloadPasswordPolicy ?? DEFAULT_POLICY;
}

/** The keytab of a user or machine user in an environment, base64. */
export function keytabOf(ctx: Pick<BackendContext, 'store' | 'clock'>, e: EnvRecord, actorCrn: string): string {
  const actor = workloadActor(ctx, actorCrn);
  if (actor.status !== 'ACTIVE') throw failedPrecondition(`actor ${actorCrn} is ${actor.status}; only active users have keytabs`);
  const realm = realmOf(e);
  const pw = ctx.store.get<{ history?: unknown[] }>(IAM.workloadPassword, actorCrn);
  // A new workload password gives new keys: the key version counts the passwords set.
  const kvno = 1 + (pw?.history?.length ?? 0);
  return keytab(actor.workloadUsername, realm, kvno, `${e.crn}/${actorCrn}/${kvno}`, ctx.clock.now()).toString('base64');
}

const DAY = 86_400_000;

/**
 * The PEM root certificate of an environment's certificate authority: made
 * once, kept with the environment; valid for 20 years from a day before the
 * environment was made (the margin certificate authorities leave for clocks).
 */
export function rootCertificateOf(e: EnvRecord): { pem: string; made: boolean } {
  if (e.rootCertificate) return { pem: e.rootCertificate, made: false };
  const cert = selfSignedCertificate({ commonName: 'Certificate Authority', organization: realmOf(e) }, Date.parse(e.created) - DAY, 20);
  return { pem: cert.pem, made: true };
}
