/**
 * The one place tests know how iam keeps its records in the store: users,
 * access keys, workload tokens and workload passwords, read and written as
 * iam's own code does. A test that must set up or break what no operation
 * makes (an account admin without bootstrap, a key switched off behind the
 * API's back, a token past its expiry) goes through these, so a change of
 * iam's stored layout changes this file only.
 */
import type { EngineRecord } from '../../src/lib/emulator/engine/records.js';
import { settledIn } from '../../src/lib/emulator/engine/timeline.js';
import { accessKeyView } from '../../src/lib/emulator/services/iam/keys.js';
import { KIND, type MachineUserRecord, type UserRecord, type WorkloadTokenRecord } from '../../src/lib/emulator/services/iam/records.js';
import type { Store } from '../../src/lib/emulator/store.js';
import type { AccessKeyView } from '../../src/lib/emulator/world/contracts.js';

export type { MachineUserRecord, UserRecord, WorkloadTokenRecord };

/** An access key as the API shows it, with the public half of its key pair (which iam keeps beside it). */
export interface AccessKeyRecord extends AccessKeyView {
  readonly crn: string;
  readonly creationDate: string;
}

/**
 * Stores a user as iam does: an engine record found by id and CRN, and by
 * its identity at its provider (its name), the user id it has there kept
 * with the request that made it.
 */
export function putUser(store: Store, user: UserRecord): void {
  const { userId: id, crn, identityProviderUserId, ...rest } = user;
  const idpUserId = typeof identityProviderUserId === 'string' ? identityProviderUserId : undefined;
  const name = `${Buffer.from(idpUserId ?? id).toString('hex')}|${user.identityProviderCrn}`;
  const rec: EngineRecord = {
    id,
    name,
    crn,
    scope: '',
    doc: { userId: id, crn, ...rest },
    ...(idpUserId !== undefined ? { data: { request: { identityProviderUserId: idpUserId } } } : {}),
    activity: settledIn('create', '', 0),
    createdAt: 0,
  };
  store.put(KIND.user, id, rec, { crn, name, parent: '' });
}

/** Stores a machine user as iam does (an engine record found by name and CRN). */
export function putMachineUser(store: Store, machineUser: MachineUserRecord): void {
  const { machineUserName: name, crn } = machineUser;
  const rec: EngineRecord = { id: name, name, crn, scope: '', doc: machineUser, activity: settledIn('create', '', 0), createdAt: 0 };
  store.put(KIND.machineUser, name, rec, { crn, name, parent: '' });
}

/** A user by id or CRN, as stored (what the API shows of it). */
export function storedUser(store: Store, ref: string): UserRecord | undefined {
  const rec = store.get<EngineRecord>(KIND.user, ref) ?? store.getByCrn<EngineRecord>(ref)?.doc;
  return rec?.doc as UserRecord | undefined;
}

/** An access key by id, as stored (its public key, status, owner). */
export function storedAccessKey(store: Store, accessKeyId: string): AccessKeyRecord | undefined {
  const rec = store.get<EngineRecord>(KIND.accessKey, accessKeyId);
  return rec ? { ...accessKeyView(rec), crn: String(rec.crn), creationDate: String(rec.doc.creationDate) } : undefined;
}

/** Stores an access key as iam does (an engine record found by id and CRN, its public key beside its document). */
export function putAccessKey(store: Store, key: AccessKeyRecord): void {
  const { publicKey, ...doc } = key;
  const kept = store.get<EngineRecord>(KIND.accessKey, key.accessKeyId);
  const rec: EngineRecord = {
    activity: settledIn('create', '', 0),
    createdAt: 0,
    ...kept,
    id: key.accessKeyId,
    crn: key.crn,
    scope: '',
    doc,
    data: { ...kept?.data, publicKey },
  };
  store.put(KIND.accessKey, key.accessKeyId, rec, { crn: key.crn, parent: '' });
}

/** How many access keys the account has (every user's and machine user's). */
export const accessKeyCount = (store: Store): number => store.count(KIND.accessKey);

/** A workload token by the hash of its text, as stored. */
export const storedWorkloadToken = (store: Store, hash: string): WorkloadTokenRecord | undefined =>
  store.get<WorkloadTokenRecord>(KIND.workloadToken, hash);

/** Stores a workload token as iam does (under its actor). */
export function putWorkloadToken(store: Store, token: WorkloadTokenRecord): void {
  store.put(KIND.workloadToken, token.hash, token, { parent: token.actorCrn });
}

/** Every workload password as stored (beside its user's or machine user's record), for a test that checks what is (not) kept of them. */
export const storedWorkloadPasswords = (store: Store): unknown =>
  [KIND.user, KIND.machineUser].flatMap((kind) => store.list<EngineRecord>(kind).map((r) => r.doc.data?.password ?? []));
