/** The account's settings (sign-in switches, messages, workload password policies), workload passwords and workload tokens. */
import { randomBytes } from 'node:crypto';
import { tokenHash } from '../../auth.js';
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, invalid } from '../../errors.js';
import { isCrn } from '../../ids.js';
import { obj, text } from '../../values.js';
import { accountOf, actorOf, actorOrCaller, type Actor, type R } from './iam.js';
import { DEFAULT_POLICY, MAX_HISTORY, hashPassword, matches, policyFrom, policyViolation } from './passwords.js';
import { KIND, type WorkloadPasswordRecord, type WorkloadTokenRecord } from './records.js';

const DAY_MS = 86_400_000;
const TOKEN_LIFETIME_MS = 3_600_000;

// A change of the account's settings names no record: it is the account's one (`perAccount`), made by its first change.
const setting = (field: string, value: boolean) => (): Doc => ({ [field]: value });
export const ssoLoginOn = setting('clouderaSSOLoginEnabled', true);
export const ssoLoginOff = setting('clouderaSSOLoginEnabled', false);
export const passwordChangedNoticesOn = setting('userWorkloadPasswordChangedNotifications', true);
export const passwordChangedNoticesOff = setting('userWorkloadPasswordChangedNotifications', false);

/** setAccountMessages: the message it sets, or none (it is cleared). */
export const messagesSet = (_h: Hook<R>, req: Doc): Doc => ({
  contactYourAdministratorMessage:
    typeof req.contactYourAdministratorMessage === 'string' ? req.contactYourAdministratorMessage : undefined,
});

/** getAccountMessages: the message set, if any. */
export const accountMessages = (_h: Hook<R>, rec: Readonly<EngineRecord>): Doc => ({
  contactYourAdministratorMessage: rec.data?.contactYourAdministratorMessage,
});

/** The settings the account keeps beside what getAccount shows. */
const KEPT = ['userWorkloadPasswordChangedNotifications', 'contactYourAdministratorMessage', 'defaultIdentityProviderCrn'];
/** The settings getAccount shows that a change may take away (they are then the defaults again). */
const UNSET = ['machineUserWorkloadPasswordPolicy'];
const given = (req: Doc, names: readonly string[]): Doc => Object.fromEntries(names.filter((n) => n in req).map((n) => [n, req[n]]));

export const accountHooks: ResourceHooks<R> = {
  // A change's rewrite says what it sets: the settings shown are the request's fields, those kept beside them these.
  effect: { update: (_h, _rec, req) => given(req, UNSET) },
  keep: { update: (_h, _rec, req) => given(req, KEPT) },
};

const isObj = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** setWorkloadPasswordPolicy: the policies it sets, checked. */
export const policiesSet = (_h: Hook<R>, req: Doc): Doc => {
  const [global, machineUsers] = [req.globalPasswordPolicy, req.machineUsersPasswordPolicy].map((p) =>
    isObj(p) ? policyFrom(obj(p)) : undefined,
  );
  if (!global && !machineUsers) throw invalid('give globalPasswordPolicy, machineUsersPasswordPolicy or both');
  return {
    ...(global ? { workloadPasswordPolicy: global } : {}),
    ...(machineUsers ? { machineUserWorkloadPasswordPolicy: machineUsers } : {}),
  };
};

/** unsetWorkloadPasswordPolicy: the policies it takes back to their defaults (the machine users' then follow the global one). */
export function policiesUnset(_h: Hook<R>, req: Doc): Doc {
  const global = req.unsetGlobalPasswordPolicy === true;
  const machineUsers = req.unsetMachineUsersPasswordPolicy === true;
  if (!global && !machineUsers) throw invalid('nothing to unset: set unsetGlobalPasswordPolicy and/or unsetMachineUsersPasswordPolicy');
  return {
    ...(global ? { workloadPasswordPolicy: { ...DEFAULT_POLICY } } : {}),
    ...(machineUsers ? { machineUserWorkloadPasswordPolicy: undefined } : {}),
  };
}

/** An actor's workload password, kept beside its record (`password`): hashes only. */
export const passwordOf = (rec: Readonly<EngineRecord>): WorkloadPasswordRecord | undefined =>
  rec.data?.password as WorkloadPasswordRecord | undefined;

/** Keeps an actor's workload password beside its record. */
const keepPassword = (h: Hook<R>, { resource, rec }: Actor, password: WorkloadPasswordRecord): void =>
  void h.records(resource).save({ ...rec, data: { ...rec.data, password } });

/** Sets an actor's workload password (the caller's own unless named): under its policy, not one of its recent ones, not too soon. */
export function setWorkloadPassword(h: Hook<R>, req: Doc): Doc {
  const password = text(req.password);
  const actor = actorOf(h, actorOrCaller(h, req));
  const a = accountOf(h);
  const policy =
    actor.resource === 'machineUser' ? (a.machineUserWorkloadPasswordPolicy ?? a.workloadPasswordPolicy) : a.workloadPasswordPolicy;
  const { clock } = h.ctx;
  const now = clock.now();
  const days = (n: number): string | undefined => (n > 0 ? clock.iso(now + n * DAY_MS) : undefined);
  const prev = passwordOf(actor.rec);
  if (prev?.passwordMinLifetimeDate && now < Date.parse(prev.passwordMinLifetimeDate))
    throw failedPrecondition(`the workload password cannot be changed before ${prev.passwordMinLifetimeDate}`);
  const violation = policyViolation(password, policy);
  if (violation) throw invalid(violation);
  const history = prev?.history ?? [];
  if (policy.passwordHistorySize > 0 && history.slice(0, policy.passwordHistorySize).some((p) => matches(password, p)))
    throw invalid(`the password was used recently: it must differ from the last ${policy.passwordHistorySize} passwords`);
  keepPassword(h, actor, {
    history: [hashPassword(password), ...history].slice(0, MAX_HISTORY),
    passwordExpirationDate: days(policy.maxPasswordLifetimeDays),
    passwordMinLifetimeDate: days(policy.minPasswordLifetimeDays),
  });
  return {};
}

export function unsetWorkloadPasswordMinLifetime(h: Hook<R>, req: Doc): Doc {
  const actor = actorOf(h, text(req.actorCrn));
  const pw = passwordOf(actor.rec);
  if (pw?.passwordMinLifetimeDate) keepPassword(h, actor, { ...pw, passwordMinLifetimeDate: undefined });
  return {};
}

/** A bearer token for a workload API; only its hash is stored. Tokens live one hour of real time. */
export function generateWorkloadAuthToken(h: Hook<R>, req: Doc): Doc {
  const { store, caller, info } = h.ctx;
  const workloadName = String(req.workloadName);
  const asked = typeof req.environmentCrn === 'string' && req.environmentCrn ? req.environmentCrn : undefined;
  if (workloadName === 'DF' && !asked) throw invalid('environmentCrn is required for the DF workload');
  if (asked && !isCrn(asked)) throw invalid('environmentCrn must be a CRN');
  // The token is scoped to the environment (the workload paths check it), which must exist.
  const environmentCrn = asked ? h.world.environments.require(asked).crn : undefined;
  const actorCrn = caller.actorCrn;
  const wall = Date.now();
  // Drop this actor's expired tokens so they do not pile up.
  for (const t of store.children<WorkloadTokenRecord>(KIND.workloadToken, actorCrn))
    if (t.doc.expireAt <= wall) store.delete(KIND.workloadToken, t.id);
  const token = randomBytes(32).toString('base64url');
  const hash = tokenHash(token);
  const rec: WorkloadTokenRecord = {
    hash,
    actorCrn,
    ...(environmentCrn ? { environmentCrn } : {}),
    workloadName,
    expireAt: wall + TOKEN_LIFETIME_MS,
  };
  store.put(KIND.workloadToken, hash, rec, { parent: actorCrn });
  const path = workloadName === 'DF' ? 'dfx' : workloadName.toLowerCase();
  return { endpointUrl: `${info.baseUrl}/${path}/`, token, expireAt: new Date(rec.expireAt).toISOString() };
}
