/**
 * What the environments service's code reads of its environments (the
 * table's `environment` records, whose documents are `EnvRecord`s:
 * records.ts): each with its status as of now, found by name or CRN, kept
 * again when code changes one; and credentials and proxy configurations by
 * name. What it tells the rest of the emulator (world/contracts.ts
 * `environments`) is the same: the account's environments, settled on the
 * clock (the pre-created ones made the first time anything asks), and its
 * credentials.
 */
import { notFound } from '../../errors.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import type { Doc } from '../../types.js';
import type { Environments } from '../../world/contracts.js';
import { createdAtOf, runsOf, spansOf } from '../../world.js';
import { ENVIRONMENT } from './lifecycles.js';
import { preCreate } from './pre-created.js';
import type { Hook } from '../../engine/declare.js';
import type { resources } from '../../../model/services/environments/resources.js';
import type { CredentialRec, EnvRecord } from './records.js';

/** The resources of the service's table (model/services/environments/resources.ts). */
export type R = keyof typeof resources.resources;

/** The store kind of the operation records of environments and their FreeIPA's work (getOperation). */
export const OPERATION_KIND = 'environments.operation';

/** The record each environment code read is the document of (save, busy, require). */
const recordOf = new WeakMap<EnvRecord, EngineRecord>();

/** A credential by name or CRN (the table's `credential` records). */
export const credentialOf = (h: Hook<R>, ref: string): CredentialRec => h.records('credential').get(ref).doc as unknown as CredentialRec;

/** The name of a proxy configuration a name (any case) or CRN names (the table's `proxyConfig` records). */
export const proxyName = (h: Hook<R>, ref: string): string => h.records('proxyConfig').get(ref).name ?? ref;

/** The record of the environment a name (any case) or CRN names, if the account has it. */
export function findEnvironment(h: Hook<R>, ref: string): EngineRecord | undefined {
  const rec = h.records('environment').find(ref);
  if (!rec || (ref.startsWith('crn:') && ref.split(':')[4] !== h.ctx.info.accountId)) return undefined;
  return rec;
}

/** The record of the environment a request names, or NOT_FOUND naming the environments there are. */
export function environmentRecord(h: Hook<R>, ref: string): EngineRecord {
  const rec = findEnvironment(h, ref);
  if (rec) return rec;
  const names = h
    .records('environment')
    .all()
    .map((e) => nameOf(e));
  throw notFound(`environment ${ref.slice(0, 200)} not found; this account has ${names.length > 0 ? names.join(', ') : 'none'}`);
}

/** An environment as code reads it: its document with its status as of now (and why it failed, when it did). */
export function envOf(h: Hook<R>, rec: Readonly<EngineRecord>): EnvRecord {
  const envs = h.records('environment');
  const e = { ...(rec.doc as unknown as EnvRecord), status: envs.state(rec as EngineRecord) };
  if (envs.progress(rec as EngineRecord).failed && rec.activity.reason) e.statusReason = rec.activity.reason;
  recordOf.set(e, rec as EngineRecord);
  return e;
}

/** The environment a request names, with its current status; NOT_FOUND naming the account's environments. */
export const environmentOf = (h: Hook<R>, ref: string): EnvRecord => envOf(h, environmentRecord(h, ref));

/** Every environment of the account with its current status, in creation order. */
export const allEnvironments = (h: Hook<R>): EnvRecord[] =>
  h
    .records('environment')
    .all()
    .map((r) => envOf(h, r));

/** Keeps what code changed of an environment it read. */
export function saveEnvironment(h: Hook<R>, e: EnvRecord): void {
  const rec = recordOf.get(e);
  if (!rec) throw new Error(`environment ${e.environmentName} was not read in this request`);
  // The status it settled in stays the engine's to write.
  const { status: _status, statusReason: _reason, ...doc } = e;
  const { status, statusReason } = rec.doc;
  rec.doc = { ...(doc as unknown as Doc), status, ...(statusReason !== undefined ? { statusReason } : {}) };
  h.records('environment').save(rec);
}

/** Whether an action of the environment is under way. */
export function busy(h: Hook<R>, e: EnvRecord): boolean {
  const rec = recordOf.get(e);
  return rec !== undefined && h.records('environment').busy(rec);
}

/** FAILED_PRECONDITION unless the environment is in one of the states. */
export function requireState(h: Hook<R>, e: EnvRecord, allowed: readonly string[], what: string): void {
  h.records('environment').require(recordOf.get(e) ?? environmentRecord(h, e.crn), allowed, what);
}

/** The world's `environments`. */
export function environments(h: Hook<R>): Environments {
  preCreate(h);
  const credentials = h.records('credential');
  return {
    find: (ref) => {
      const rec = findEnvironment(h, ref);
      return rec ? envOf(h, rec) : undefined;
    },
    require: (ref) => environmentOf(h, ref),
    all: () => allEnvironments(h),
    credential: (ref) => credentials.find(ref)?.doc as CredentialRec | undefined,
    credentials: () => credentials.all('').map((c) => c.doc as unknown as CredentialRec),
    freeipaRuns: (crn) => {
      const rec = findEnvironment(h, crn);
      if (!rec) return undefined;
      const now = h.ctx.clock.now();
      return {
        runs: runsOf(ENVIRONMENT, spansOf(ENVIRONMENT, rec.activity, now, createdAtOf(rec)), now),
        instances: (rec.doc as unknown as EnvRecord).freeipa.instanceCountByGroup,
      };
    },
  };
}
