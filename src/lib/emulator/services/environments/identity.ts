/**
 * Who an environment knows: the account's users, machine users and groups as
 * iam tells the world (never changed here), a digest of
 * them that tells whether an environment's FreeIPA has the latest (user sync
 * state), and the Kerberos keytabs and certificate authority an environment
 * hands out.
 */
import { failedPrecondition, notFound } from '../../errors.js';
import type { BackendContext } from '../../types.js';
import type { ActorView, Identities, PasswordPolicy } from '../../world/contracts.js';
import { keytab, selfSignedCertificate } from './credentials.js';
import { realmOf } from './freeipa.js';
import type { EnvRecord } from './records.js';

type Scoped = Pick<BackendContext, 'store' | 'clock' | 'info' | 'world'>;

/** The account's users and machine users, as iam tells the world (world/contracts.ts `identities`). */
const identitiesOf = (ctx: Scoped): Identities => ctx.world.in(ctx).identities;

/** A digest of the account's users, machine users, groups, memberships and workload passwords. */
export const usersFingerprint = (ctx: Scoped): string => identitiesOf(ctx).syncDigest();

/** A user or machine user of the account, by CRN, with the name it has in workloads. */
export function workloadActor(ctx: Scoped, actorCrn: string): ActorView {
  const actor = identitiesOf(ctx).actor(actorCrn);
  if (!actor) throw notFound(`actor ${actorCrn.slice(0, 200)} is not a user or machine user of this account`);
  return actor;
}

/** Why a workload password breaks the account's policy (iam's), or undefined when it keeps it. */
export function workloadPasswordViolation(ctx: Scoped, password: string): string | undefined {
  const ids = identitiesOf(ctx);
  const policy: PasswordPolicy = ids.passwordPolicy();
  return ids.passwordViolation(password, policy);
}

/** The keytab of a user or machine user in an environment, base64. */
export function keytabOf(ctx: Scoped, e: EnvRecord, actorCrn: string): string {
  const actor = workloadActor(ctx, actorCrn);
  if (actor.status !== 'ACTIVE') throw failedPrecondition(`actor ${actorCrn} is ${actor.status}; only active users have keytabs`);
  const realm = realmOf(e);
  // A new workload password gives new keys: the key version counts the passwords set.
  const kvno = 1 + identitiesOf(ctx).workloadPasswordsSet(actorCrn);
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
