/**
 * Environments: one record per environment, shared by every emulated
 * service. A service that takes an environment (by name or CRN) looks it up
 * here and uses the record's one CRN, in the control plane's form
 * `crn:cdp:environments:<region>:<account>:environment:<uuid>`, so an
 * environment is the same thing in datalake, compute, dataflow, lakehouse
 * and datacatalog. The records keep the wire `Environment` shape of the
 * environments service, whose handlers can work on them as they are.
 *
 * The emulator pre-creates a few environments per account (PRE_CREATED),
 * the first time anything asks; their CRNs are derived from the account, so
 * they stay the same across restarts and resets. An environment the
 * emulator does not have is NOT_FOUND, as on the real control plane.
 */
import { notFound } from './errors.js';
import { crn, stableUuid } from './ids.js';
import type { Clock } from './clock.js';
import type { Store } from './store.js';
import type { EmulatorInfo } from './types.js';

export const ENVIRONMENT_KIND = 'environments.environment';

export type CloudPlatform = 'AWS' | 'AZURE' | 'GCP';

/** The wire `Environment` of the environments service (the fields the emulator fills). */
export interface EnvironmentRecord {
  environmentName: string;
  crn: string;
  status: string;
  /** The cloud region the environment runs in (not the control-plane region of its CRN). */
  region: string;
  cloudPlatform: CloudPlatform;
  credentialName: string;
  description: string;
  created: string;
  creator?: string;
  network: {
    networkName: string;
    subnetIds: string[];
    networkCidr: string;
    aws?: { vpcId: string };
    azure?: { networkId: string; resourceGroupName: string; usePublicIp: boolean };
    gcp?: { networkName: string; usePublicIp: boolean };
  };
  logStorage: {
    enabled: boolean;
    awsDetails?: Record<string, string>;
    azureDetails?: Record<string, string>;
    gcpDetails?: Record<string, string>;
  };
  computeClusterEnabled: boolean;
  environmentType: 'PUBLIC_CLOUD';
  tags: { userDefined: Record<string, string>; defaults: Record<string, string> };
}

/** The environments every emulated account starts with. */
export const PRE_CREATED: ReadonlyArray<{
  readonly name: string;
  readonly platform: CloudPlatform;
  readonly region: string;
  readonly about: string;
}> = [
  { name: 'sales-env', platform: 'AWS', region: 'us-west-2', about: 'AWS environment for sales analytics' },
  { name: 'gov-env', platform: 'AWS', region: 'us-gov-west-1', about: 'AWS GovCloud environment' },
  { name: 'ops-env', platform: 'AZURE', region: 'westus2', about: 'Azure environment for operations' },
  { name: 'ml-env', platform: 'GCP', region: 'us-west1', about: 'GCP environment for machine learning' },
  { name: 'lakehouse-aws', platform: 'AWS', region: 'us-west-2', about: 'AWS environment running the lakehouse optimizer' },
  { name: 'analytics-azure', platform: 'AZURE', region: 'westus2', about: 'Azure analytics environment' },
  { name: 'staging-aws', platform: 'AWS', region: 'us-east-1', about: 'AWS staging environment' },
];

/** What a lookup needs: the store, and the account and region CRNs are made in. */
export interface EnvironmentScope {
  readonly store: Store;
  readonly info: Pick<EmulatorInfo, 'accountId' | 'region'>;
  readonly clock?: Pick<Clock, 'iso'>;
}

/** The CRN a pre-created environment has in an account. */
export function preCreatedEnvironmentCrn(accountId: string, region: string, name: string): string {
  return crn('environments', region, accountId, 'environment', stableUuid(`${accountId}/env/${name}`));
}

function preCreated(scope: EnvironmentScope, e: (typeof PRE_CREATED)[number], created: string, creator?: string): EnvironmentRecord {
  const { accountId, region } = scope.info;
  const id = stableUuid(`${accountId}/env/${e.name}`).slice(0, 8);
  const subnets = ['a', 'b', 'c'].map((z) => `${e.name}-subnet-${z}`);
  const network: EnvironmentRecord['network'] = { networkName: `${e.name}-network`, subnetIds: subnets, networkCidr: '10.10.0.0/16' };
  if (e.platform === 'AWS') network.aws = { vpcId: `vpc-${id}` };
  if (e.platform === 'AZURE') network.azure = { networkId: `${e.name}-vnet`, resourceGroupName: `${e.name}-rg`, usePublicIp: false };
  if (e.platform === 'GCP') network.gcp = { networkName: `${e.name}-network`, usePublicIp: false };
  const logs =
    e.platform === 'AWS'
      ? {
          awsDetails: {
            storageLocationBase: `s3a://${e.name}-logs/`,
            instanceProfile: `arn:aws:iam::123456789012:instance-profile/${e.name}-logs`,
          },
        }
      : e.platform === 'AZURE'
        ? {
            azureDetails: {
              storageLocationBase: `abfs://logs@${e.name.replace(/-/g, '')}.dfs.core.windows.net`,
              managedIdentity: `${e.name}-logger`,
            },
          }
        : { gcpDetails: { storageLocationBase: `gs://${e.name}-logs/`, serviceAccountEmail: `logger@${e.name}.iam.gserviceaccount.com` } };
  return {
    environmentName: e.name,
    crn: preCreatedEnvironmentCrn(accountId, region, e.name),
    status: 'AVAILABLE',
    region: e.region,
    cloudPlatform: e.platform,
    credentialName: `${e.name}-credential`,
    description: e.about,
    created,
    ...(creator ? { creator } : {}),
    network,
    logStorage: { enabled: true, ...logs },
    computeClusterEnabled: e.platform !== 'GCP',
    environmentType: 'PUBLIC_CLOUD',
    tags: { userDefined: {}, defaults: { owner: 'emulator' } },
  };
}

/** Creates the pre-created environments of the account once (the first time anything asks). */
function ensure(scope: EnvironmentScope): void {
  const flag = `environments.seeded:${scope.info.accountId}`;
  if (scope.store.meta(flag)) return;
  const created = scope.clock?.iso() ?? new Date().toISOString();
  const creator = scope.store.meta('adminCrn');
  scope.store.transaction(() => {
    for (const e of PRE_CREATED) {
      const rec = preCreated(scope, e, created, creator);
      scope.store.put(ENVIRONMENT_KIND, rec.crn, rec, { name: rec.environmentName, crn: rec.crn });
    }
    scope.store.setMeta(flag, '1');
  });
}

/** Every environment of the account, in creation order. */
export function environments(scope: EnvironmentScope): EnvironmentRecord[] {
  ensure(scope);
  return scope.store.list<EnvironmentRecord>(ENVIRONMENT_KIND).map((r) => r.doc);
}

/** The environment a name (any case) or CRN names, if the account has it. */
export function findEnvironment(scope: EnvironmentScope, ref: string): EnvironmentRecord | undefined {
  ensure(scope);
  if (ref.startsWith('crn:')) {
    const hit = scope.store.getByCrn<EnvironmentRecord>(ref);
    return hit?.kind === ENVIRONMENT_KIND && hit.doc.crn.split(':')[4] === scope.info.accountId ? hit.doc : undefined;
  }
  return scope.store.getByName<EnvironmentRecord>(ENVIRONMENT_KIND, ref);
}

/** The environment a request names, or NOT_FOUND naming the environments there are. */
export function requireEnvironment(scope: EnvironmentScope, ref: string): EnvironmentRecord {
  const env = findEnvironment(scope, ref);
  if (env) return env;
  const names = environments(scope).map((e) => e.environmentName);
  throw notFound(`environment ${ref.slice(0, 200)} not found; this account has ${names.join(', ')}`);
}
