/** The account's settings (sign-in switches, messages, workload password policies), workload passwords and workload tokens. */
import { randomBytes } from 'node:crypto';
import { tokenHash } from '../../auth.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { failedPrecondition, invalid } from '../../errors.js';
import { isCrn } from '../../ids.js';
import { obj, str, text } from '../../values.js';
import { iamOf, type Iam, type R } from './iam.js';
import { DEFAULT_POLICY, MAX_HISTORY, hashPassword, matches, policyFrom, policyViolation } from './passwords.js';
import { KIND, type AccountRecord, type WorkloadPasswordRecord, type WorkloadTokenRecord } from './records.js';

const DAY_MS = 86_400_000;
const TOKEN_LIFETIME_MS = 3_600_000;

function accountOut(a: AccountRecord): Doc {
  return {
    clouderaSSOLoginEnabled: a.clouderaSSOLoginEnabled,
    clouderaSSOAllLoginEnabled: a.clouderaSSOAllLoginEnabled,
    workloadPasswordPolicy: { ...a.workloadPasswordPolicy },
    ...(a.machineUserWorkloadPasswordPolicy ? { machineUserWorkloadPasswordPolicy: { ...a.machineUserWorkloadPasswordPolicy } } : {}),
  };
}

export const getAccount = (h: Hook<R>): Doc => ({ account: accountOut(iamOf(h).account()) });

// A change of the account's settings names no record: it is the account's one (`perAccount`), made by its first change.
export const ssoLoginOn = (): Doc => ({ clouderaSSOLoginEnabled: true });
export const ssoLoginOff = (): Doc => ({ clouderaSSOLoginEnabled: false });

/** Changes the account's settings: `change` edits them, and they are stored when it says they changed. */
function changeAccount(h: Hook<R>, change: (a: AccountRecord) => boolean | void): AccountRecord {
  const iam = iamOf(h);
  const a = iam.account();
  if (change(a) !== false) iam.putAccount(a);
  return a;
}

/** Changes one account switch; setting it to what it already is changes nothing. */
const setSwitch = (h: Hook<R>, name: 'clouderaSSOLoginEnabled' | 'userWorkloadPasswordChangedNotifications', on: boolean): AccountRecord =>
  changeAccount(h, (a) => {
    if (a[name] === on) return false;
    a[name] = on;
  });

export const enablePasswordChangedNotices = (h: Hook<R>): Doc => ({
  account: accountOut(setSwitch(h, 'userWorkloadPasswordChangedNotifications', true)),
});

export const disablePasswordChangedNotices = (h: Hook<R>): Doc => ({
  account: accountOut(setSwitch(h, 'userWorkloadPasswordChangedNotifications', false)),
});

export function getAccountMessages(h: Hook<R>): Doc {
  const m = iamOf(h).account().contactYourAdministratorMessage;
  return m !== undefined ? { contactYourAdministratorMessage: m } : {};
}

export function setAccountMessages(h: Hook<R>, req: Doc): Doc {
  changeAccount(h, (a) => {
    if (typeof req.contactYourAdministratorMessage === 'string') a.contactYourAdministratorMessage = req.contactYourAdministratorMessage;
    else delete a.contactYourAdministratorMessage;
  });
  return {};
}

// ---------------------------------------------------------------- workload passwords

const isObj = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** setWorkloadPasswordPolicy: the policies it sets, checked. */
export const policiesSet = (_h: Hook<R>, req: Doc): Doc => {
  if (!isObj(req.globalPasswordPolicy) && !isObj(req.machineUsersPasswordPolicy)) {
    throw invalid('give globalPasswordPolicy, machineUsersPasswordPolicy or both');
  }
  return {
    ...(isObj(req.globalPasswordPolicy) ? { workloadPasswordPolicy: policyFrom(obj(req.globalPasswordPolicy)) } : {}),
    ...(isObj(req.machineUsersPasswordPolicy)
      ? { machineUserWorkloadPasswordPolicy: policyFrom(obj(req.machineUsersPasswordPolicy)) }
      : {}),
  };
};

export function unsetWorkloadPasswordPolicy(h: Hook<R>, req: Doc): Doc {
  const global = req.unsetGlobalPasswordPolicy === true;
  const machineUsers = req.unsetMachineUsersPasswordPolicy === true;
  if (!global && !machineUsers) throw invalid('nothing to unset: set unsetGlobalPasswordPolicy and/or unsetMachineUsersPasswordPolicy');
  changeAccount(h, (a) => {
    if (global) a.workloadPasswordPolicy = { ...DEFAULT_POLICY };
    if (machineUsers) delete a.machineUserWorkloadPasswordPolicy;
  });
  return {};
}

const passwordOf = (iam: Iam, actorCrn: string): WorkloadPasswordRecord | undefined =>
  iam.store.get<WorkloadPasswordRecord>(KIND.workloadPassword, actorCrn);

/** Sets an actor's workload password (the caller's own unless named): under its policy, not one of its recent ones, not too soon. */
export function setWorkloadPassword(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const actorCrn = str(req.actorCrn) ?? iam.caller.actorCrn;
  const password = text(req.password);
  const actor = iam.actor(actorCrn);
  const a = iam.account();
  const policy =
    actor.kind === 'machineUser' ? (a.machineUserWorkloadPasswordPolicy ?? a.workloadPasswordPolicy) : a.workloadPasswordPolicy;
  const now = iam.clock.now();
  const prev = passwordOf(iam, actorCrn);
  if (prev?.passwordMinLifetimeDate && now < Date.parse(prev.passwordMinLifetimeDate)) {
    throw failedPrecondition(`the workload password cannot be changed before ${prev.passwordMinLifetimeDate}`);
  }
  const violation = policyViolation(password, policy);
  if (violation) throw invalid(violation);
  const history = prev?.history ?? [];
  if (policy.passwordHistorySize > 0 && history.slice(0, policy.passwordHistorySize).some((p) => matches(password, p))) {
    throw invalid(`the password was used recently: it must differ from the last ${policy.passwordHistorySize} passwords`);
  }
  const rec: WorkloadPasswordRecord = {
    actorCrn,
    history: [hashPassword(password), ...history].slice(0, MAX_HISTORY),
    ...(policy.maxPasswordLifetimeDays > 0 ? { passwordExpirationDate: iam.clock.iso(now + policy.maxPasswordLifetimeDays * DAY_MS) } : {}),
    ...(policy.minPasswordLifetimeDays > 0
      ? { passwordMinLifetimeDate: iam.clock.iso(now + policy.minPasswordLifetimeDays * DAY_MS) }
      : {}),
  };
  iam.store.put(KIND.workloadPassword, actorCrn, rec);
  return {};
}

export function unsetWorkloadPasswordMinLifetime(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const actorCrn = text(req.actorCrn);
  iam.actor(actorCrn);
  const rec = passwordOf(iam, actorCrn);
  if (rec?.passwordMinLifetimeDate) {
    delete rec.passwordMinLifetimeDate;
    iam.store.put(KIND.workloadPassword, actorCrn, rec);
  }
  return {};
}

// ---------------------------------------------------------------- workload tokens

/** A bearer token for a workload API; only its hash is stored. Tokens live one hour of real time. */
export function generateWorkloadAuthToken(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const workloadName = String(req.workloadName);
  const asked = typeof req.environmentCrn === 'string' && req.environmentCrn ? req.environmentCrn : undefined;
  if (workloadName === 'DF' && !asked) throw invalid('environmentCrn is required for the DF workload');
  if (asked && !isCrn(asked)) throw invalid('environmentCrn must be a CRN');
  // The token is scoped to the environment (the workload paths check it), which must exist.
  const environmentCrn = asked ? h.world.environments.require(asked).crn : undefined;
  const actorCrn = iam.caller.actorCrn;
  const wall = Date.now();
  // Drop this actor's expired tokens so they do not pile up.
  for (const t of iam.store.children<WorkloadTokenRecord>(KIND.workloadToken, actorCrn)) {
    if (t.doc.expireAt <= wall) iam.store.delete(KIND.workloadToken, t.id);
  }
  const token = randomBytes(32).toString('base64url');
  const hash = tokenHash(token);
  const rec: WorkloadTokenRecord = {
    hash,
    actorCrn,
    ...(environmentCrn ? { environmentCrn } : {}),
    workloadName,
    expireAt: wall + TOKEN_LIFETIME_MS,
  };
  iam.store.put(KIND.workloadToken, hash, rec, { parent: actorCrn });
  const path = workloadName === 'DF' ? 'dfx' : workloadName.toLowerCase();
  return { endpointUrl: `${iam.info.baseUrl}/${path}/`, token, expireAt: new Date(rec.expireAt).toISOString() };
}
