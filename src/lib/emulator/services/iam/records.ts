/**
 * The iam records the shared auth layer reads (keys, users, machine users,
 * workload tokens). The iam backend owns them; their kinds are fixed here.
 */
export const KIND = {
  user: 'iam.user',
  machineUser: 'iam.machineUser',
  accessKey: 'iam.accessKey',
  workloadToken: 'iam.workloadToken',
  group: 'iam.group',
  /** Two rows per membership: one under the group, one under the member. */
  membership: 'iam.membership',
  roleAssignment: 'iam.roleAssignment',
  /** Two rows per assignment: one under the assignee, one under the resource. */
  resourceAssignment: 'iam.resourceAssignment',
  sshKey: 'iam.sshKey',
  samlProvider: 'iam.samlProvider',
  ldapProvider: 'iam.ldapProvider',
  scimToken: 'iam.scimToken',
  account: 'iam.account',
  workloadPassword: 'iam.workloadPassword',
  workloadUsername: 'iam.workloadUsername',
} as const;

export type { AccessKeyType } from '../../world/contracts.js';
import type { AccessKeyType } from '../../world/contracts.js';

export interface UserRecord {
  userId: string;
  crn: string;
  email: string;
  firstName: string;
  lastName: string;
  creationDate: string;
  accountAdmin: boolean;
  identityProviderCrn: string;
  status: 'ACTIVE' | 'CONTROL_PLANE_LOCKED_OUT' | 'DEACTIVATED';
  workloadUsername: string;
  lastInteractiveLogin?: string;
  [more: string]: unknown;
}

export interface MachineUserRecord {
  machineUserName: string;
  crn: string;
  creationDate: string;
  status: 'ACTIVE' | 'CONTROL_PLANE_LOCKED_OUT' | 'DEACTIVATED';
  workloadUsername: string;
  [more: string]: unknown;
}

export interface AccessKeyRecord {
  accessKeyId: string;
  crn: string;
  actorCrn: string;
  creationDate: string;
  status: 'ACTIVE' | 'INACTIVE';
  type: AccessKeyType;
  /** SPKI PEM of the public key; never returned on the wire. */
  publicKey: string;
  lastUsage?: { lastUsageDate: string; serviceName: string };
}

export interface WorkloadTokenRecord {
  /** sha256 of the token, hex; the token itself is not stored. */
  hash: string;
  actorCrn: string;
  environmentCrn?: string;
  workloadName: string;
  /** Wall-clock ms (tokens expire in real time, whatever the time scale). */
  expireAt: number;
}
