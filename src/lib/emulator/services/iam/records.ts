/**
 * How iam keeps the records that are not the engine's (users, memberships,
 * assignments, workload passwords and tokens, the account's settings):
 * their kinds and layouts. Machine users, groups, access keys, SSH keys,
 * identity providers and SCIM tokens are engine records of its resources
 * (index.ts; a machine user's document is a MachineUserRecord). The shared
 * auth layer reads users, machine users, access keys and workload tokens
 * through provides.ts only.
 *
 * Relations are stored as rows keyed by both ends (a membership is one row
 * under the group and one under the member), so every listing is one
 * indexed lookup and deleting an actor finds everything it holds.
 */
import type { Policy, StoredHash } from './passwords.js';

export type { AccessKeyType } from '../../world/contracts.js';

export const KIND = {
  user: 'iam.user',
  machineUser: 'iam.machineUser',
  accessKey: 'iam.accessKey',
  workloadToken: 'iam.workloadToken',
  group: 'iam.group',
  account: 'iam.account',
  workloadUsername: 'iam.workloadUsername',
} as const;

type Status = 'ACTIVE' | 'CONTROL_PLANE_LOCKED_OUT' | 'DEACTIVATED';

export interface UserRecord {
  userId: string;
  crn: string;
  email: string;
  firstName: string;
  lastName: string;
  creationDate: string;
  accountAdmin: boolean;
  identityProviderCrn: string;
  status: Status;
  workloadUsername: string;
  lastInteractiveLogin?: string;
  [more: string]: unknown;
}

/** A machine user as the API shows it: the document of its engine record. */
export interface MachineUserRecord {
  machineUserName: string;
  crn: string;
  creationDate: string;
  status: Status;
  workloadUsername: string;
  [more: string]: unknown;
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

export interface AccountRecord {
  clouderaSSOLoginEnabled: boolean;
  clouderaSSOAllLoginEnabled: boolean;
  workloadPasswordPolicy: Policy;
  machineUserWorkloadPasswordPolicy?: Policy;
  userWorkloadPasswordChangedNotifications: boolean;
  contactYourAdministratorMessage?: string;
  defaultIdentityProviderCrn?: string;
}

export interface WorkloadPasswordRecord {
  /** Newest first; history[0] is the current password. */
  history: StoredHash[];
  passwordExpirationDate?: string;
  passwordMinLifetimeDate?: string;
}
