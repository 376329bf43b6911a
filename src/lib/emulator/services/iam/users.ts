/**
 * Users and machine users: made (each with a workload username of its own),
 * changed, unlocked, deleted with everything they hold, listed, and moved
 * between identity providers; the account's first administrator.
 */
import type { Doc } from '../../engine/context.js';
import type { CheckFn, Hook, ResourceHooks } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { isCrn } from '../../ids.js';
import { str, strings, text, uniq } from '../../values.js';
import { addToGroup, leaveGroups } from './groups.js';
import { accountOf, crnOf, keepsRelations, type R } from './iam.js';
import { keysOf } from './keys.js';
import { BUILTIN_USERS_IDP, CLOUDERA_SSO_CRN, identityProviderCrn } from './providers.js';
import { passwordOf } from './account.js';
import { KIND } from './records.js';
import { assignmentsOf } from './roles.js';

const MACHINE_USER_NAME = /^(?!__)[A-Za-z0-9_-]{1,128}$/;

/** A delete's check: an actor does not delete itself. */
const notSelf =
  (message: string): CheckFn<R> =>
  (h, rec) => {
    if (rec.crn === h.ctx.caller.actorCrn) throw failedPrecondition(message);
  };

/** Whether an actor has a workload password, and until when (its record keeps its hashes beside it). */
const passwordDetails = (rec: Readonly<EngineRecord>): Doc => {
  const pw = passwordOf(rec);
  return { isPasswordSet: pw !== undefined, ...pw, history: undefined };
};

function workloadUsernameTaken(h: Hook<R>, name: string): boolean {
  if (h.ctx.store.get(KIND.workloadUsername, name)) return true;
  // The bootstrap admin predates the registry.
  const adminCrn = h.ctx.store.meta('adminCrn');
  return adminCrn !== undefined && adminCrn !== '' && h.records('user').find(adminCrn)?.doc.workloadUsername === name;
}

/** The workload username wanted (made safe), or the first free one after it: claimed for its owner. */
function claimWorkloadUsername(h: Hook<R>, wanted: string, owner: string): string {
  const base =
    wanted
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '_')
      .slice(0, 60) || 'user';
  let name = base;
  for (let i = 1; workloadUsernameTaken(h, name); i++) name = `${base}${i}`;
  h.ctx.store.put(KIND.workloadUsername, name, { owner });
  return name;
}

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
  const provider = typeof sent.samlProviderName === 'string' ? h.records('samlProvider').get(sent.samlProviderName) : undefined;
  const idpCrn = provider ? String(provider.crn) : (accountOf(h).defaultIdentityProviderCrn ?? CLOUDERA_SSO_CRN);
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
    workloadUsername: claimWorkloadUsername(h, text(req.workloadUsername), String(rec.crn)),
  }),
  // A user of the built-in provider shows the name the API documents for it, not its CRN.
  show: (h, rec, view) => ({
    ...(view.identityProviderCrn === CLOUDERA_SSO_CRN ? { identityProviderCrn: BUILTIN_USERS_IDP } : {}),
    workloadPasswordDetails: passwordDetails(rec),
  }),
  check: { delete: notSelf('you cannot delete yourself') },
  ...keepsRelations,
};

/** createUser: the new user joins the groups its request names (a CRN must name an existing group; a missing name is created). */
export function userJoined(h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc {
  for (const name of uniq(strings(req.groups))) {
    if (!isCrn(name) && !h.records('group').find(name)) h.perform('createGroup', { groupName: name });
    addToGroup(h, name, String(rec.crn));
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
  if (!sent.active && crnOf(h, 'user', text(sent.user)) === h.ctx.caller.actorCrn)
    throw failedPrecondition('you cannot deactivate yourself');
  return { user: sent.user, status: sent.active ? 'ACTIVE' : 'DEACTIVATED' };
}

/**
 * unlockUserInControlPlane, unlockMachineUserInControlPlane: an actor
 * locked out of the control plane is let in again (any other status stays).
 */
const unlocked =
  (resource: 'user' | 'machineUser') =>
  (h: Hook<R>, sent: Doc): Doc => ({
    [resource]: sent[resource],
    ...(h.records(resource).get(text(sent[resource])).doc.status === 'CONTROL_PLANE_LOCKED_OUT' ? { status: 'ACTIVE' } : {}),
  });
export const userUnlocked = unlocked('user');
export const machineUserUnlocked = unlocked('machineUser');

/**
 * deleteUser, deleteMachineUser: the answer, as everything the actor held
 * goes with it (keys, memberships, SSH keys, tokens; its roles and password
 * with its record) and its workload username is free again.
 */
export function actorStateRemoved(h: Hook<R>, rec: Readonly<EngineRecord>): Doc {
  const { store } = h.ctx;
  const actorCrn = String(rec.crn);
  store.delete(KIND.workloadUsername, text(rec.doc.workloadUsername));
  const accessKeysDeleted = keysOf(h, actorCrn).map((k) => {
    h.records('accessKey').remove(k);
    return String(k.crn);
  });
  const groupsModified = leaveGroups(h, actorCrn);
  for (const r of store.children(KIND.workloadToken, actorCrn)) store.delete(KIND.workloadToken, r.id);
  const sshKeys = h.records('sshPublicKey');
  for (const k of sshKeys.all()) if ((k.data?.request as Doc | undefined)?.actorCrn === actorCrn) sshKeys.remove(k);
  return { accessKeysDeleted, groupsModified, ...assignmentsOf(rec) };
}

export function migrateUsers(h: Hook<R>, req: Doc): Doc {
  const source = identityProviderCrn(h, text(req.originalProviderName));
  const target = identityProviderCrn(h, text(req.newProviderName));
  if (source === target) throw invalid('the original and new identity providers are the same');
  const users = h.records('user');
  const moving = users.all().filter((u) => u.doc.identityProviderCrn === source);
  for (const u of moving) {
    const idpUserId = idpUserIdOf(u);
    if (users.find(identityOf(target, idpUserId)))
      throw alreadyExists(`the new identity provider already has a user with identity provider user ID ${idpUserId}`);
    users.save({ ...u, name: identityOf(target, idpUserId), doc: { ...u.doc, identityProviderCrn: target } });
  }
  return { numberOfUpdatedUsers: moving.length };
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

/** createMachineUser: a machine user's name rule, and the words of its ALREADY_EXISTS (checked before the verb). */
export function machineUserNameChecked(h: Hook<R>, sent: Doc): Doc {
  const name = text(sent.machineUserName);
  if (!MACHINE_USER_NAME.test(name))
    throw invalid('machine user names use letters, digits, "-" and "_", do not start with "__", and are at most 128 characters');
  if (h.records('machineUser').find(name)) throw alreadyExists(`a machine user named ${name} already exists`);
  return sent;
}

export const machineUserHooks: ResourceHooks<R> = {
  // Its workload username is claimed as it is made: srv_<name>, or the first free one after it.
  fill: (h, rec) => ({ status: 'ACTIVE', workloadUsername: claimWorkloadUsername(h, `srv_${rec.name ?? ''}`, String(rec.crn)) }),
  show: (_h, rec) => ({ workloadPasswordDetails: passwordDetails(rec) }),
  check: { delete: notSelf('a machine user cannot delete itself') },
  ...keepsRelations,
};
