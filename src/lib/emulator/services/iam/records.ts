/**
 * The kinds iam keeps and the layouts of what they hold. Users, machine
 * users, groups, access keys, SSH keys, identity providers, SCIM tokens and
 * the account's settings are engine records of its resources (index.ts; a
 * user's document is a UserRecord, a machine user's a MachineUserRecord),
 * with what they relate beside them (relations.ts) and an actor's workload
 * password too. Workload tokens and claimed workload usernames are kinds of
 * iam's own. The shared auth layer reads users, machine users, access keys
 * and workload tokens through provides.ts only.
 */
import type { Policy, StoredHash } from './passwords.js';

export type { AccessKeyType } from '../../world/contracts.js';
import type { WorkloadTokenView } from '../../world/contracts.js';

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

/** A workload token as kept: the sha256 of its text (the token itself is not stored), and when it expires in wall-clock time (whatever the time scale). */
export type WorkloadTokenRecord = WorkloadTokenView;

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
