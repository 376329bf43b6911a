/**
 * The one place tests know how iam keeps its records in the store: users,
 * access keys, workload tokens and workload passwords, read and written as
 * iam's own code does. A test that must set up or break what no operation
 * makes (an account admin without bootstrap, a key switched off behind the
 * API's back, a token past its expiry) goes through these, so a change of
 * iam's stored layout changes this file only.
 */
import type { Store } from '../../src/lib/emulator/store.js';
import {
  KIND,
  type AccessKeyRecord,
  type MachineUserRecord,
  type UserRecord,
  type WorkloadTokenRecord,
} from '../../src/lib/emulator/services/iam/records.js';

export type { AccessKeyRecord, MachineUserRecord, UserRecord, WorkloadTokenRecord };

/** Stores a user as iam does (found by id, CRN and name). */
export function putUser(store: Store, user: UserRecord): void {
  store.put(KIND.user, user.userId, user, { crn: user.crn, name: user.userId });
}

/** Stores a machine user as iam does (found by name and CRN). */
export function putMachineUser(store: Store, machineUser: MachineUserRecord): void {
  store.put(KIND.machineUser, machineUser.machineUserName, machineUser, { crn: machineUser.crn, name: machineUser.machineUserName });
}

/** A user by id, as stored. */
export const storedUser = (store: Store, userId: string): UserRecord | undefined => store.get<UserRecord>(KIND.user, userId);

/** An access key by id, as stored (its public key, status, owner). */
export const storedAccessKey = (store: Store, accessKeyId: string): AccessKeyRecord | undefined =>
  store.get<AccessKeyRecord>(KIND.accessKey, accessKeyId);

/** Stores an access key as iam does (found by id and CRN). */
export function putAccessKey(store: Store, key: AccessKeyRecord): void {
  store.put(KIND.accessKey, key.accessKeyId, key, { crn: key.crn, parent: key.actorCrn });
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

/** Every workload password record as stored, for a test that checks what is (not) kept of them. */
export const storedWorkloadPasswords = (store: Store): unknown => store.list(KIND.workloadPassword);
