/**
 * Users and machine users: made (each with a workload username of its own),
 * changed, unlocked, deleted with everything they hold, listed, and moved
 * between identity providers; the account's first administrator.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { isCrn } from '../../ids.js';
import { str, strings, text, uniq } from '../../values.js';
import { addToGroup, leaveGroups } from './groups.js';
import { iamOf, type Iam, type R } from './iam.js';
import { dropKeysOf } from './keys.js';
import { BUILTIN_USERS_IDP, CLOUDERA_SSO_CRN, defaultIdentityProviderCrn, identityProviderCrn, samlProvider } from './providers.js';
import { passwordOf } from './account.js';
import { KIND } from './records.js';
import { keepsRelations } from './relations.js';
import { assignmentsOf } from './roles.js';

const MACHINE_USER_NAME = /^(?!__)[A-Za-z0-9_-]{1,128}$/;

// ---------------------------------------------------------------- views

/** Whether an actor has a workload password, and until when (its record keeps its hashes beside it). */
function passwordDetails(rec: Readonly<EngineRecord>): Doc {
  const pw = passwordOf(rec);
  if (!pw) return { isPasswordSet: false };
  return {
    isPasswordSet: true,
    ...(pw.passwordExpirationDate ? { passwordExpirationDate: pw.passwordExpirationDate } : {}),
    ...(pw.passwordMinLifetimeDate ? { passwordMinLifetimeDate: pw.passwordMinLifetimeDate } : {}),
  };
}

// ---------------------------------------------------------------- workload usernames

function workloadUsernameTaken(iam: Iam, name: string): boolean {
  if (iam.store.get(KIND.workloadUsername, name)) return true;
  // The bootstrap admin predates the registry.
  const adminCrn = iam.store.meta('adminCrn');
  return adminCrn !== undefined && adminCrn !== '' && iam.h.records('user').find(adminCrn)?.doc.workloadUsername === name;
}

function claimWorkloadUsername(iam: Iam, wanted: string, owner: string): string {
  const base =
    wanted
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '_')
      .slice(0, 60) || 'user';
  let name = base;
  for (let i = 1; workloadUsernameTaken(iam, name); i++) name = `${base}${i}`;
  iam.store.put(KIND.workloadUsername, name, { owner });
  return name;
}

// ---------------------------------------------------------------- users

/**
 * A user is found by its id or CRN, and by its identity at its provider:
 * its record's name, unique, `<its user id there, in hex>|<provider CRN>`
 * (names match in any case, user ids there do not; a name must not start
 * as a CRN does).
 */
const identityOf = (idpCrn: string, idpUserId: string): string => `${Buffer.from(idpUserId).toString('hex')}|${idpCrn}`;

/** The user id a user has at its identity provider (kept with its create's request). */
const idpUserIdOf = (rec: Readonly<EngineRecord>): string => text((rec.data?.request as Doc | undefined)?.identityProviderUserId) || rec.id;

/** createUser: the request as the user's fields, its identity provider found and its identity there free. */
export function userAsked(h: Hook<R>, sent: Doc): Doc {
  const idpUserId = text(sent.identityProviderUserId);
  if (!idpUserId.trim()) throw invalid('identityProviderUserId cannot be empty');
  const provider = typeof sent.samlProviderName === 'string' ? samlProvider(h, sent.samlProviderName) : undefined;
  const idpCrn = provider ? String(provider.crn) : defaultIdentityProviderCrn(iamOf(h));
  const name = identityOf(idpCrn, idpUserId);
  if (h.records('user').find(name)) throw alreadyExists(`a user with identity provider user ID ${idpUserId} already exists for ${idpCrn}`);
  const byEmail = provider?.doc.generateWorkloadUsernameByEmail === true;
  const email = text(sent.email);
  return {
    ...sent,
    name,
    identityProviderCrn: idpCrn,
    firstName: str(sent.firstName) ?? '',
    lastName: str(sent.lastName) ?? '',
    workloadUsername: byEmail ? (email.split('@')[0] ?? email) : idpUserId,
  };
}

export const userHooks: ResourceHooks<R> = {
  // Its workload username is claimed as it is made: the one asked for (userAsked), or the first free one after it.
  fill: (h, rec, req) => ({
    accountAdmin: false,
    status: 'ACTIVE',
    workloadUsername: claimWorkloadUsername(iamOf(h), text(req.workloadUsername), String(rec.crn)),
  }),
  // A user of the built-in provider shows the name the API documents for it, not its CRN.
  show: (h, rec, view) => ({
    ...(view.identityProviderCrn === CLOUDERA_SSO_CRN ? { identityProviderCrn: BUILTIN_USERS_IDP } : {}),
    workloadPasswordDetails: passwordDetails(rec),
  }),
  check: {
    delete: (h, rec) => {
      if (rec.crn === h.ctx.caller.actorCrn) throw failedPrecondition('you cannot delete yourself');
    },
  },
  ...keepsRelations,
};

/** createUser: the new user joins the groups its request names (a CRN must name an existing group; a missing name is created). */
export function userJoined(h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc {
  for (const name of uniq(strings(req.groups))) {
    if (!isCrn(name) && !h.records('group').find(name)) h.perform('createGroup', { groupName: name });
    addToGroup(iamOf(h), name, String(rec.crn));
  }
  return { user: h.records('user').view(rec as EngineRecord) };
}

/** getUser: the user named, or the caller (by an index lookup: the engine's read finds it). */
export function userNamedOrCaller(h: Hook<R>, sent: Doc): Doc {
  const me = h.ctx.caller.actorCrn;
  if (str(sent.userId)) return { userId: sent.userId };
  if (h.ctx.store.idByCrn(me)?.kind === KIND.machineUser) throw notFound(`the caller ${me} is a machine user, not a user`);
  return { userId: me };
}

/** updateUser: a user switched on or off (not the caller itself). */
export function userSwitched(h: Hook<R>, sent: Doc): Doc {
  if (typeof sent.active !== 'boolean') throw invalid('nothing to update: the request names no field to change');
  const u = iamOf(h).user(text(sent.user));
  if (!sent.active && u.crn === h.ctx.caller.actorCrn) throw failedPrecondition('you cannot deactivate yourself');
  return { user: sent.user, status: sent.active ? 'ACTIVE' : 'DEACTIVATED' };
}

/** unlockUserInControlPlane: a user locked out of the control plane is let in again (any other status stays). */
export function userUnlocked(h: Hook<R>, sent: Doc): Doc {
  const u = iamOf(h).user(text(sent.user));
  return { user: sent.user, ...(u.status === 'CONTROL_PLANE_LOCKED_OUT' ? { status: 'ACTIVE' } : {}) };
}

/** Removes everything an actor holds (keys, memberships, SSH keys, tokens) and says what went, with the roles that go with it (and its password). */
function removeActorState(iam: Iam, rec: Readonly<EngineRecord>): Doc {
  const actorCrn = String(rec.crn);
  const accessKeysDeleted = dropKeysOf(iam, actorCrn);
  const groupsModified = leaveGroups(iam, actorCrn);
  for (const r of iam.store.children(KIND.workloadToken, actorCrn)) iam.store.delete(KIND.workloadToken, r.id);
  const sshKeys = iam.h.records('sshPublicKey');
  for (const k of sshKeys.all()) if ((k.data?.request as Doc | undefined)?.actorCrn === actorCrn) sshKeys.remove(k);
  return { accessKeysDeleted, groupsModified, ...assignmentsOf(rec) };
}

/** deleteUser, deleteMachineUser: the answer, as everything the actor held goes with it (its workload username is free again). */
export function actorStateRemoved(h: Hook<R>, rec: Readonly<EngineRecord>): Doc {
  const iam = iamOf(h);
  iam.store.delete(KIND.workloadUsername, text(rec.doc.workloadUsername));
  return removeActorState(iam, rec);
}

/** listUsers: the users named (each must exist), or all of them (the engine's own listing, a page at a time). */
export function usersNamed(h: Hook<R>, req: Doc): EngineRecord[] | undefined {
  const ids = uniq(strings(req.userIds));
  return ids.length > 0 ? ids.map((id) => h.records('user').get(id)) : undefined;
}

export function migrateUsers(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const source = identityProviderCrn(iam, text(req.originalProviderName));
  const target = identityProviderCrn(iam, text(req.newProviderName));
  if (source === target) throw invalid('the original and new identity providers are the same');
  const users = h.records('user');
  let n = 0;
  for (const u of users.all()) {
    if (u.doc.identityProviderCrn !== source) continue;
    const idpUserId = idpUserIdOf(u);
    if (users.find(identityOf(target, idpUserId))) {
      throw alreadyExists(`the new identity provider already has a user with identity provider user ID ${idpUserId}`);
    }
    users.save({ ...u, name: identityOf(target, idpUserId), doc: { ...u.doc, identityProviderCrn: target } });
    n++;
  }
  return { numberOfUpdatedUsers: n };
}

/** The account's first administrator (its first start, bootstrap.ts), with this id. */
export function createAdmin(h: Hook<R>, userId: string): EngineRecord {
  const crn = h.crn('user', userId);
  const doc: Doc = {
    userId,
    crn,
    email: 'admin@example.com',
    firstName: 'Account',
    lastName: 'Admin',
    creationDate: h.ctx.clock.iso(),
    accountAdmin: true,
    identityProviderCrn: CLOUDERA_SSO_CRN,
    status: 'ACTIVE',
    workloadUsername: 'admin',
  };
  return h.records('user').create({ id: userId, crn, name: identityOf(CLOUDERA_SSO_CRN, userId), scope: '', doc });
}

// ---------------------------------------------------------------- machine users

/** createMachineUser: a machine user's name rule, and the words of its ALREADY_EXISTS (checked before the verb). */
export function machineUserNameChecked(h: Hook<R>, sent: Doc): Doc {
  const name = text(sent.machineUserName);
  if (!MACHINE_USER_NAME.test(name)) {
    throw invalid('machine user names use letters, digits, "-" and "_", do not start with "__", and are at most 128 characters');
  }
  if (h.records('machineUser').find(name)) throw alreadyExists(`a machine user named ${name} already exists`);
  return sent;
}

export const machineUserHooks: ResourceHooks<R> = {
  // Its workload username is claimed as it is made: srv_<name>, or the first free one after it.
  fill: (h, rec) => ({ status: 'ACTIVE', workloadUsername: claimWorkloadUsername(iamOf(h), `srv_${rec.name ?? ''}`, String(rec.crn)) }),
  show: (_h, rec) => ({ workloadPasswordDetails: passwordDetails(rec) }),
  check: {
    delete: (h, rec) => {
      if (rec.crn === h.ctx.caller.actorCrn) throw failedPrecondition('a machine user cannot delete itself');
    },
  },
  ...keepsRelations,
};

/** unlockMachineUserInControlPlane: a machine user locked out of the control plane is let in again (any other status stays). */
export function machineUserUnlocked(h: Hook<R>, sent: Doc): Doc {
  const m = iamOf(h).machineUser(text(sent.machineUser));
  return { machineUser: sent.machineUser, ...(m.status === 'CONTROL_PLANE_LOCKED_OUT' ? { status: 'ACTIVE' } : {}) };
}

/** listMachineUsers: the machine users named (each must exist), or all of them (the engine's own listing). */
export function machineUsersNamed(h: Hook<R>, req: Doc): EngineRecord[] | undefined {
  const names = uniq(strings(req.machineUserNames));
  return names.length > 0 ? names.map((n) => h.records('machineUser').get(n)) : undefined;
}
