/**
 * The environments every emulated account starts with, unless it was made
 * empty (`emulator start --empty`): the environments service makes them
 * (with their credentials) the first time anything asks, and DataFlow is
 * enabled in those that say so from the start (df's seed, which reads the
 * state only, not the world: it knows them by this list). Their CRNs are
 * derived from the account, so they stay the same across restarts and
 * resets.
 */
import { crn, stableUuid } from '../ids.js';
import type { CloudPlatform } from '../world/contracts.js';

export const PRE_CREATED: ReadonlyArray<{
  readonly name: string;
  readonly platform: CloudPlatform;
  readonly region: string;
  readonly about: string;
  /** DataFlow is enabled in it from the start (staging-aws, gov-env and ml-env are left bare, so a whole teardown can be tried). */
  readonly dataflow?: boolean;
}> = [
  { name: 'sales-env', platform: 'AWS', region: 'us-west-2', about: 'AWS environment for sales analytics', dataflow: true },
  { name: 'gov-env', platform: 'AWS', region: 'us-gov-west-1', about: 'AWS GovCloud environment' },
  { name: 'ops-env', platform: 'AZURE', region: 'westus2', about: 'Azure environment for operations', dataflow: true },
  { name: 'ml-env', platform: 'GCP', region: 'us-west1', about: 'GCP environment for machine learning' },
  { name: 'lakehouse-aws', platform: 'AWS', region: 'us-west-2', about: 'AWS environment running the lakehouse optimizer', dataflow: true },
  { name: 'analytics-azure', platform: 'AZURE', region: 'westus2', about: 'Azure analytics environment', dataflow: true },
  { name: 'staging-aws', platform: 'AWS', region: 'us-east-1', about: 'AWS staging environment' },
];

/** Set in a store whose account was made empty (`emulator start --empty`): nothing is pre-created in it. */
export const EMPTY_ACCOUNT = 'account.empty';

/** The CRN a pre-created environment has in an account: it ends with its id. */
export function preCreatedEnvironmentCrn(accountId: string, region: string, name: string): string {
  return crn('environments', region, accountId, 'environment', stableUuid(`${accountId}/env/${name}`));
}
