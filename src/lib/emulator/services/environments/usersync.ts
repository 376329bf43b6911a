/**
 * User sync: the account's users, machine users and groups (iam's records)
 * pushed into the FreeIPA of environments, and workload passwords set in
 * them. Each sync is an operation record of the resource engine (userSync),
 * REQUESTED, RUNNING, then COMPLETED, or FAILED when an environment could
 * not take it (not running, FreeIPA busy, or named `fail-...`: `fail-usersync-`
 * fails its first sync only); one that overlaps a running sync of the same
 * environment is REJECTED. `users sync-state` compares what iam has now with
 * what the environment last got: at its creation or start, or by its last
 * full sync.
 */
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { failsOnPurpose } from '../../engine/timeline.js';
import type { Doc } from '../../types.js';
import { compact, iso, str, strings, text } from '../../values.js';
import { allEnvironments, environmentOf, environmentRecord, envOf, type R } from './backend.js';
import { ipaRequired, ipaStatus } from './freeipa.js';
import { identitiesOf, usersFingerprint, workloadActor } from './identity.js';
import { ENVIRONMENT_WORK } from './lifecycles.js';
import type { EnvRecord } from './records.js';

type SyncType = 'USER_SYNC' | 'SET_PASSWORD';

interface Outcome {
  readonly crn: string;
  readonly name: string;
  /** Why it failed in this environment. */
  readonly failed?: string;
}

/** What a sync record keeps besides its status. */
interface SyncData {
  readonly type: SyncType;
  /** Every user of the account (syncAllUsers), or only `actor`. */
  readonly all: boolean;
  readonly actor?: string;
  /** iam's users and groups as the sync took them. */
  readonly fingerprint: string;
  readonly outcomes: readonly Outcome[];
  readonly rejected?: string;
}

/** A sync record's own data (only this module writes it). */
const dataOf = (rec: EngineRecord): SyncData => rec.data?.sync as SyncData;

const includes = (rec: EngineRecord, crn: string): boolean => dataOf(rec).outcomes.some((o) => o.crn === crn);

/** A sync as syncStatus (and the calls that start one) answer it. */
export function syncView(h: Hook<R>, rec: Readonly<EngineRecord>): Doc {
  const p = h.records('userSync').progress(rec);
  const d = dataOf(rec);
  const started = rec.activity.tl.startedAt;
  const failed = d.outcomes.filter((o) => o.failed);
  const what = d.type === 'SET_PASSWORD' ? 'set the workload password' : d.all ? 'synced the users and groups' : 'synced the user';
  return {
    operationId: rec.id,
    operationType: d.type,
    status: p.state,
    success:
      p.done && !d.rejected
        ? d.outcomes.filter((o) => !o.failed).map((o) => ({ environmentCrn: o.crn, message: `${what} in environment ${o.name}` }))
        : [],
    failure: p.done && !d.rejected ? failed.map((o) => ({ environmentCrn: o.crn, message: o.failed })) : [],
    ...(d.rejected
      ? { error: d.rejected }
      : p.failed
        ? { error: `failed in ${failed.map((o) => `${o.name} (${o.failed ?? ''})`).join(', ')}` }
        : {}),
    startTime: String(started),
    startDate: iso(started),
    ...(p.done ? { endTime: String(p.endsAt), endDate: iso(p.endsAt) } : {}),
  };
}

/** Newest first: the syncs of users (not passwords) that took in an environment. */
function syncsOf(h: Hook<R>, crn: string, all?: boolean): EngineRecord[] {
  return h
    .records('userSync')
    .all('')
    .filter((r) => dataOf(r).type === 'USER_SYNC' && includes(r, crn) && (all === undefined || dataOf(r).all === all))
    .reverse();
}

/** The environments a sync goes to: those named, else every running public cloud environment. */
function targets(h: Hook<R>, refs: readonly string[]): EnvRecord[] {
  if (refs.length > 0) return [...new Map(refs.map((r) => environmentOf(h, r)).map((e) => [e.crn, e])).values()];
  return allEnvironments(h).filter((e) => !e.privateCloud && e.status === 'AVAILABLE');
}

function outcome(h: Hook<R>, e: EnvRecord): Outcome {
  const at = { crn: e.crn, name: e.environmentName };
  if (e.privateCloud) return { ...at, failed: 'a private cloud environment takes its users from its Cloudera Manager' };
  if (e.status !== 'AVAILABLE') return { ...at, failed: `the environment is ${e.status}` };
  const ipa = ipaStatus(h, e, environmentRecord(h, e.crn));
  if (ipa !== 'AVAILABLE') return { ...at, failed: `its FreeIPA is ${ipa}` };
  const before = h
    .records('userSync')
    .all('')
    .some((r) => includes(r, e.crn));
  if (failsOnPurpose(e.environmentName, 'usersync', ENVIRONMENT_WORK, before))
    return { ...at, failed: 'user sync failed on purpose: the environment name starts with "fail-"' };
  return at;
}

/** Starts a sync (or password change) in environments; answers its record's view. */
function startSync(h: Hook<R>, type: SyncType, all: boolean, refs: readonly string[], actor?: string): Doc {
  const envs = targets(h, refs);
  const syncs = h.records('userSync');
  const running =
    type === 'USER_SYNC'
      ? syncs.all('').find((r) => syncs.busy(r) && dataOf(r).type === 'USER_SYNC' && envs.some((e) => includes(r, e.crn)))
      : undefined;
  const outcomes = envs.map((e) => outcome(h, e));
  const names = running && dataOf(running).outcomes.map((o) => o.name);
  const rejected = running && `a user sync (${running.id}) is already running in ${names?.join(', ')}`;
  const data = compact({ type, all, actor, fingerprint: usersFingerprint(h.ctx), outcomes, rejected });
  const id = uuid();
  const rec = syncs.create(
    { id, scope: '', doc: { operationId: id, operationType: type }, data: { sync: data } },
    running ? 'reject' : 'create',
    { fail: outcomes.some((o) => o.failed) },
  );
  return syncView(h, rec);
}

/** The caller, as a workload user. */
const callerOf = (h: Hook<R>): string => {
  const actor = h.ctx.caller.actorCrn;
  workloadActor(h.ctx, actor);
  return actor;
};

/** Why a sync failed in an environment, if it did. */
const failedIn = (rec: EngineRecord, crn: string): string | undefined =>
  dataOf(rec).rejected ? undefined : dataOf(rec).outcomes.find((o) => o.crn === crn)?.failed;

/** What an environment's FreeIPA has of iam now: the newer of its own baseline (creation, start) and its last full sync. */
function syncState(h: Hook<R>, e: EnvRecord): { state: string; last?: EngineRecord } {
  const syncs = h.records('userSync');
  const mine = syncsOf(h, e.crn);
  const last = mine[0];
  if (last && syncs.busy(last)) return { state: 'SYNC_IN_PROGRESS', last };
  const full = mine.find((r) => dataOf(r).all && !dataOf(r).rejected && !failedIn(r, e.crn));
  const seen: Array<NonNullable<EnvRecord['usersSeen']>> = [
    ...(e.usersSeen ? [e.usersSeen] : []),
    ...(full ? [{ fingerprint: dataOf(full).fingerprint, at: full.activity.tl.startedAt }] : []),
  ];
  const newest = seen.sort((a, b) => b.at - a.at)[0];
  if (last && failedIn(last, e.crn) && last.activity.tl.startedAt >= (newest?.at ?? 0)) return { state: 'SYNC_FAILED', last };
  return { state: newest?.fingerprint === usersFingerprint(h.ctx) ? 'UP_TO_DATE' : 'STALE', ...(last ? { last } : {}) };
}

const PENDING: Readonly<Record<string, string>> = {
  UP_TO_DATE: 'SYNCED',
  STALE: 'SYNC_PENDING',
  SYNC_IN_PROGRESS: 'SYNC_PENDING',
  SYNC_FAILED: 'SYNC_HALTED',
};

/** Syncs every user of the account into environments (those named, else every running one). */
export const syncAllUsers = (h: Hook<R>, req: Doc): Doc => startSync(h, 'USER_SYNC', true, strings(req.environmentNames));

/** Syncs the caller into every running environment. */
export const syncUser = (h: Hook<R>): Doc => startSync(h, 'USER_SYNC', false, [], callerOf(h));

/** Sets the caller's workload password in environments, when it keeps the account's policy. */
export function setPassword(h: Hook<R>, req: Doc): Doc {
  const actor = callerOf(h);
  const ids = identitiesOf(h.ctx);
  const violation = ids.passwordViolation(text(req.password), ids.passwordPolicy());
  if (violation) throw invalid(violation);
  return startSync(h, 'SET_PASSWORD', false, strings(req.environmentCRNs), actor);
}

/** lastSyncStatus names its environment by either field (the account's environments named when it has none of that name). */
export function syncedEnvironment(h: Hook<R>, sent: Doc): Doc {
  const ref = str(sent.environment) ?? str(sent.envNameOrCrn);
  if (!ref) throw invalid('give --environment to name the environment');
  environmentRecord(h, ref);
  return { environment: ref };
}

/** The newest sync that reached an environment. */
export function lastSync(h: Hook<R>, rec: Readonly<EngineRecord>): Doc {
  const last = syncsOf(h, rec.crn ?? '')[0];
  if (!last) throw notFound(`no user sync has run in environment ${nameOf(rec)}; run environments users sync`);
  return syncView(h, last);
}

/** Whether an environment's FreeIPA has the account's users as iam has them now. */
export function userSyncState(h: Hook<R>, rec: Readonly<EngineRecord>): Doc {
  const e = envOf(h, rec);
  ipaRequired(e);
  const { state, last } = syncState(h, e);
  return { state, ...(last ? { userSyncOperationId: last.id } : {}) };
}

/** Whether an environment waits for a sync, and how its last one went. */
export function automatedSyncStatus(h: Hook<R>, rec: Readonly<EngineRecord>): Doc {
  const e = envOf(h, rec);
  if (e.privateCloud) return { environmentCrn: e.crn, syncPendingState: 'UNKNOWN' };
  const { state, last } = syncState(h, e);
  const p = last ? h.records('userSync').progress(last) : undefined;
  const failed = last ? failedIn(last, e.crn) : undefined;
  return {
    environmentCrn: e.crn,
    syncPendingState: PENDING[state] ?? 'UNKNOWN',
    ...(last && p
      ? {
          lastSyncStatus: {
            timestamp: iso(p.done ? p.endsAt : last.activity.tl.startedAt),
            status: !p.done ? 'UNKNOWN' : failed ? 'FAILED' : 'SUCCESS',
            statusMessages: [failed ?? (p.done ? `synced by operation ${last.id}` : `operation ${last.id} is ${p.state}`)],
          },
        }
      : {}),
  };
}
