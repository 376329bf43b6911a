/**
 * Users and machine users: made (each with a workload username of its own),
 * changed, unlocked, deleted with everything they hold, listed, and moved
 * between identity providers; the account's first administrator.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid } from '../../errors.js';
import { isCrn, uuid } from '../../ids.js';
import { paged, storeListing } from '../../engine/paging.js';
import { strings, text, uniq } from '../../values.js';
import { addToGroup, leaveGroups } from './groups.js';
import { iamOf, type Iam, type R } from './iam.js';
import { dropKeysOf } from './keys.js';
import { BUILTIN_USERS_IDP, CLOUDERA_SSO_CRN, defaultIdentityProviderCrn, identityProviderCrn, samlProvider } from './providers.js';
import { KIND, type UserRecord, type WorkloadPasswordRecord } from './records.js';
import { unassignAll } from './roles.js';

const MACHINE_USER_NAME = /^(?!__)[A-Za-z0-9_-]{1,128}$/;

// ---------------------------------------------------------------- views

function passwordDetails(iam: Iam, actorCrn: string): Doc {
  const pw = iam.store.get<WorkloadPasswordRecord>(KIND.workloadPassword, actorCrn);
  if (!pw) return { isPasswordSet: false };
  return {
    isPasswordSet: true,
    ...(pw.passwordExpirationDate ? { passwordExpirationDate: pw.passwordExpirationDate } : {}),
    ...(pw.passwordMinLifetimeDate ? { passwordMinLifetimeDate: pw.passwordMinLifetimeDate } : {}),
  };
}

function userOut(iam: Iam, u: UserRecord): Doc {
  return {
    userId: u.userId,
    crn: u.crn,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    creationDate: u.creationDate,
    accountAdmin: u.accountAdmin,
    identityProviderCrn: u.identityProviderCrn === CLOUDERA_SSO_CRN ? BUILTIN_USERS_IDP : u.identityProviderCrn,
    ...(u.lastInteractiveLogin ? { lastInteractiveLogin: u.lastInteractiveLogin } : {}),
    workloadUsername: u.workloadUsername,
    status: u.status,
    workloadPasswordDetails: passwordDetails(iam, u.crn),
  };
}

export const putUser = (iam: Iam, rec: UserRecord): void =>
  void iam.store.put(KIND.user, rec.userId, rec, { crn: rec.crn, name: rec.userId });

// ---------------------------------------------------------------- workload usernames

function workloadUsernameTaken(iam: Iam, name: string): boolean {
  if (iam.store.get(KIND.workloadUsername, name)) return true;
  // The bootstrap admin predates the registry.
  const adminCrn = iam.store.meta('adminCrn');
  const admin = adminCrn ? iam.byCrn<UserRecord>(adminCrn, KIND.user) : undefined;
  return admin?.workloadUsername === name;
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

export function createUser(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const email = String(req.email);
  const idpUserId = String(req.identityProviderUserId);
  if (!idpUserId.trim()) throw invalid('identityProviderUserId cannot be empty');
  let idpCrn: string;
  let byEmail = false;
  if (typeof req.samlProviderName === 'string') {
    const p = samlProvider(h, req.samlProviderName);
    idpCrn = String(p.crn);
    byEmail = p.doc.generateWorkloadUsernameByEmail === true;
  } else {
    idpCrn = defaultIdentityProviderCrn(iam);
  }
  const identityKey = `${idpCrn}|${idpUserId}`;
  if (iam.store.get(KIND.identity, identityKey)) {
    throw alreadyExists(`a user with identity provider user ID ${idpUserId} already exists for ${idpCrn}`);
  }
  const userId = uuid();
  const userCrn = iam.crn('user', userId);
  const rec: UserRecord = {
    userId,
    crn: userCrn,
    email,
    firstName: typeof req.firstName === 'string' ? req.firstName : '',
    lastName: typeof req.lastName === 'string' ? req.lastName : '',
    creationDate: iam.now(),
    accountAdmin: false,
    identityProviderCrn: idpCrn,
    status: 'ACTIVE',
    workloadUsername: claimWorkloadUsername(iam, byEmail ? (email.split('@')[0] ?? email) : idpUserId, userCrn),
    identityProviderUserId: idpUserId,
  };
  putUser(iam, rec);
  iam.store.put(KIND.identity, identityKey, { userId });
  for (const name of uniq(strings(req.groups))) {
    // A CRN must name an existing group; a missing name is created.
    if (!isCrn(name) && !h.records('group').find(name)) h.perform('createGroup', { groupName: name });
    const g = iam.group(name);
    addToGroup(iam, g.crn, userCrn);
  }
  return { user: userOut(iam, rec) };
}

export function getUser(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  return { user: userOut(iam, iam.userOrCaller(req.userId)) };
}

export function updateUser(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  if (typeof req.active !== 'boolean') throw invalid('nothing to update: the request names no field to change');
  const u = iam.user(text(req.user));
  if (!req.active && u.crn === iam.caller.actorCrn) throw failedPrecondition('you cannot deactivate yourself');
  u.status = req.active ? 'ACTIVE' : 'DEACTIVATED';
  putUser(iam, u);
  return { user: userOut(iam, u) };
}

/** A user locked out of the control plane is let in again (any other status stays). */
export function unlockUser(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const u = iam.user(text(req.user));
  if (u.status === 'CONTROL_PLANE_LOCKED_OUT') {
    u.status = 'ACTIVE';
    putUser(iam, u);
  }
  return { user: userOut(iam, u) };
}

/** Removes everything an actor holds (keys, memberships, assignments, SSH keys, password, tokens) and says what went. */
function removeActorState(iam: Iam, actorCrn: string): Doc {
  const accessKeysDeleted = dropKeysOf(iam, actorCrn);
  const groupsModified = leaveGroups(iam, actorCrn);
  const { rolesUnassigned, resourcesUnassigned } = unassignAll(iam, actorCrn);
  for (const r of iam.store.children(KIND.workloadToken, actorCrn)) iam.store.delete(KIND.workloadToken, r.id);
  const sshKeys = iam.h.records('sshPublicKey');
  for (const k of sshKeys.all()) if ((k.data?.request as Doc | undefined)?.actorCrn === actorCrn) sshKeys.remove(k);
  iam.store.delete(KIND.workloadPassword, actorCrn);
  return { accessKeysDeleted, groupsModified, rolesUnassigned, resourcesUnassigned };
}

export function deleteUser(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const u = iam.user(text(req.userId));
  if (u.crn === iam.caller.actorCrn) throw failedPrecondition('you cannot delete yourself');
  const out = removeActorState(iam, u.crn);
  iam.store.delete(KIND.user, u.userId);
  if (typeof u.identityProviderUserId === 'string') iam.store.delete(KIND.identity, `${u.identityProviderCrn}|${u.identityProviderUserId}`);
  iam.store.delete(KIND.workloadUsername, u.workloadUsername);
  return out;
}

export function listUsers(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const ids = uniq(strings(req.userIds));
  // The users named (each must exist), or every user in creation order.
  const users = ids.length > 0 ? ids.map((id) => iam.user(id)) : storeListing<UserRecord>(iam.store, KIND.user);
  return paged(h.ctx, req, users, (u) => userOut(iam, u));
}

export function migrateUsers(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const source = identityProviderCrn(iam, text(req.originalProviderName));
  const target = identityProviderCrn(iam, text(req.newProviderName));
  if (source === target) throw invalid('the original and new identity providers are the same');
  let n = 0;
  for (const { doc: u } of iam.store.list<UserRecord>(KIND.user)) {
    if (u.identityProviderCrn !== source) continue;
    const idpUserId = typeof u.identityProviderUserId === 'string' ? u.identityProviderUserId : u.userId;
    if (iam.store.get(KIND.identity, `${target}|${idpUserId}`)) {
      throw alreadyExists(`the new identity provider already has a user with identity provider user ID ${idpUserId}`);
    }
    iam.store.delete(KIND.identity, `${source}|${idpUserId}`);
    iam.store.put(KIND.identity, `${target}|${idpUserId}`, { userId: u.userId });
    u.identityProviderCrn = target;
    putUser(iam, u);
    n++;
  }
  return { numberOfUpdatedUsers: n };
}

/** The account's first administrator (its first start, bootstrap.ts), with this id. */
export function createAdmin(iam: Iam, userId: string): UserRecord {
  const admin: UserRecord = {
    userId,
    crn: iam.crn('user', userId),
    email: 'admin@example.com',
    firstName: 'Account',
    lastName: 'Admin',
    creationDate: iam.now(),
    accountAdmin: true,
    identityProviderCrn: CLOUDERA_SSO_CRN,
    status: 'ACTIVE',
    workloadUsername: 'admin',
  };
  putUser(iam, admin);
  return admin;
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
  show: (h, rec) => ({ workloadPasswordDetails: passwordDetails(iamOf(h), String(rec.crn)) }),
};

/** unlockMachineUserInControlPlane: a machine user locked out of the control plane is let in again (any other status stays). */
export function machineUserUnlocked(h: Hook<R>, sent: Doc): Doc {
  const m = iamOf(h).machineUser(text(sent.machineUser));
  return { machineUser: sent.machineUser, ...(m.status === 'CONTROL_PLANE_LOCKED_OUT' ? { status: 'ACTIVE' } : {}) };
}

/** deleteMachineUser: with everything it holds; says what went. */
export function deleteMachineUser(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const m = h.records('machineUser').get(text(req.machineUserName));
  if (m.crn === iam.caller.actorCrn) throw failedPrecondition('a machine user cannot delete itself');
  const out = removeActorState(iam, String(m.crn));
  h.records('machineUser').remove(m);
  iam.store.delete(KIND.workloadUsername, String(m.doc.workloadUsername));
  return out;
}

/** listMachineUsers: the machine users named (each must exist), or all. */
export function machineUsersNamed(h: Hook<R>, req: Doc): EngineRecord[] {
  const names = uniq(strings(req.machineUserNames));
  const all = h.records('machineUser');
  return names.length > 0 ? names.map((n) => all.get(n)) : all.all();
}
