/**
 * Environments: one record per environment, shared by every emulated
 * service. A service that takes an environment (by name or CRN) looks it up
 * here and uses the record's one CRN, in the control plane's form
 * `crn:cdp:environments:<region>:<account>:environment:<uuid>`, so an
 * environment is the same thing in datalake, compute, dataflow, lakehouse,
 * datacatalog, datahub and the environments service itself
 * (services/environments/), which creates, stops, starts and deletes them.
 * The records keep the wire `Environment` shape, with the lifecycle's
 * `activity`; `status` is read off the clock on every lookup (ENVIRONMENT).
 *
 * The emulator pre-creates a few environments per account (PRE_CREATED),
 * with their credentials, the first time anything asks; their CRNs are
 * derived from the account, so they stay the same across restarts and
 * resets. An environment the emulator does not have (never created, or
 * deleted) is NOT_FOUND, as on the real control plane.
 */
import { notFound } from './errors.js';
import { crn, stableUuid } from './ids.js';
import { Resources, type EngineRecord } from './engine/records.js';
import { settledIn, type Activity, type EngineContext, type Lifecycle } from './engine/timeline.js';
import type { BackendContext } from './types.js';
import { EMPTY_ACCOUNT, PRE_CREATED, preCreatedEnvironmentCrn } from './shared/pre-created.js';

export const ENVIRONMENT_KIND = 'environments.environment';
export const CREDENTIAL_KIND = 'environments.credential';
/** Operation records of environment work (getOperation). */
export const ENVIRONMENT_OPERATION_KIND = 'environments.operation';

/**
 * What environments do, and how long it takes (emulated minutes); the state
 * names are the environment service's. A name starting with `fail-` fails
 * every action, `fail-<action>-` that action once (lifecycle.ts).
 */
export const ENVIRONMENT: Lifecycle = {
  create: {
    phases: [
      ['CREATION_INITIATED', 0.5],
      ['ENVIRONMENT_VALIDATION_IN_PROGRESS', 1],
      ['NETWORK_CREATION_IN_PROGRESS', 2],
      ['FREEIPA_CREATION_IN_PROGRESS', 8],
    ],
    success: 'AVAILABLE',
    failure: 'CREATE_FAILED',
    operation: 'CREATE',
  },
  stop: {
    from: ['AVAILABLE', 'STOP_FREEIPA_FAILED'],
    phases: [
      ['STOP_DATAHUB_STARTED', 2],
      ['STOP_DATALAKE_STARTED', 3],
      ['STOP_FREEIPA_STARTED', 2],
    ],
    success: 'ENV_STOPPED',
    failure: 'STOP_FREEIPA_FAILED',
    operation: 'STOP',
  },
  start: {
    from: ['ENV_STOPPED', 'START_FREEIPA_FAILED'],
    phases: [
      ['START_FREEIPA_STARTED', 3],
      ['START_DATALAKE_STARTED', 4],
      ['START_DATAHUB_STARTED', 2],
    ],
    success: 'AVAILABLE',
    failure: 'START_FREEIPA_FAILED',
    operation: 'START',
  },
  delete: {
    phases: [
      ['DELETE_INITIATED', 0.5],
      ['FREEIPA_DELETE_IN_PROGRESS', 3],
      ['NETWORK_DELETE_IN_PROGRESS', 1.5],
    ],
    success: 'ARCHIVED',
    failure: 'DELETE_FAILED',
    operation: 'DELETE',
    removes: true,
  },
};

export type CloudPlatform = 'AWS' | 'AZURE' | 'GCP';

/** The wire `Environment` of the environments service (the fields the emulator fills). */
export interface EnvironmentRecord {
  activity: Activity;
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
    endpointAccessGatewayScheme?: string;
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
  environmentType: 'PUBLIC_CLOUD' | 'HYBRID';
  tags: { userDefined: Record<string, string>; defaults: Record<string, string> };
  statusReason?: string;
  authentication?: { publicKey?: string; publicKeyId?: string; loginUserName: string };
  securityAccess?: { cidr?: string; securityGroupIdForKnox?: string; defaultSecurityGroupId?: string };
  proxyConfigName?: string;
  workloadAnalytics?: boolean;
  /** FreeIPA: instances per group (1 or 2) and whether they spread over zones. */
  freeipa: { instanceCountByGroup: number; multiAz: boolean; recipes: string[] };
}

/** A credential of the environments service (the wire `Credential`). */
export interface CredentialRecord {
  credentialName: string;
  crn: string;
  cloudPlatform: CloudPlatform;
  created: string;
  description?: string;
  awsCredentialProperties?: { roleArn: string; govCloud: boolean };
  azureCredentialProperties?: { subscriptionId?: string; tenantId?: string; appId?: string; authenticationType?: string };
  gcpCredentialProperties?: { keyType: string };
}

/** What a lookup needs: the state, the clock, and the account and region CRNs are made in. */
export type EnvironmentScope = EngineContext & Pick<BackendContext, 'info'>;

/** The network of an environment: given subnets, or three made-up ones named after it. */
export function networkOf(
  name: string,
  platform: CloudPlatform,
  given: { id?: string; subnets?: string[]; cidr?: string } = {},
): EnvironmentRecord['network'] {
  const subnets = given.subnets && given.subnets.length > 0 ? [...given.subnets] : ['a', 'b', 'c'].map((z) => `${name}-subnet-${z}`);
  const network: EnvironmentRecord['network'] = {
    networkName: `${name}-network`,
    subnetIds: subnets,
    networkCidr: given.cidr ?? '10.10.0.0/16',
  };
  if (platform === 'AWS') network.aws = { vpcId: given.id ?? `vpc-${stableUuid(name).slice(0, 8)}` };
  if (platform === 'AZURE') network.azure = { networkId: given.id ?? `${name}-vnet`, resourceGroupName: `${name}-rg`, usePublicIp: false };
  if (platform === 'GCP') network.gcp = { networkName: given.id ?? `${name}-network`, usePublicIp: false };
  return network;
}

function preCreated(scope: EnvironmentScope, e: (typeof PRE_CREATED)[number], created: string, creator?: string): EnvironmentRecord {
  const { accountId, region } = scope.info;
  const id = stableUuid(`${accountId}/env/${e.name}`).slice(0, 8);
  const network = networkOf(e.name, e.platform, e.platform === 'AWS' ? { id: `vpc-${id}` } : {});
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
    activity: settledIn('create', 'AVAILABLE', scope.clock.now()),
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
    freeipa: { instanceCountByGroup: 1, multiAz: false, recipes: [] },
  };
}

/** The credential a pre-created environment was made with, as the environments service's table keeps a credential. */
function preCreatedCredential(scope: EnvironmentScope, e: (typeof PRE_CREATED)[number], created: string): EngineRecord {
  const { accountId, region } = scope.info;
  const name = `${e.name}-credential`;
  const id = stableUuid(`${accountId}/credential/${name}`);
  const doc: CredentialRecord = {
    credentialName: name,
    crn: crn('environments', region, accountId, 'credential', id),
    cloudPlatform: e.platform,
    created,
    description: `Credential of ${e.name}`,
  };
  if (e.platform === 'AWS')
    doc.awsCredentialProperties = {
      roleArn: `arn:aws:iam::123456789012:role/${e.name}-cross-account`,
      govCloud: e.region.startsWith('us-gov-'),
    };
  if (e.platform === 'AZURE') doc.azureCredentialProperties = { appId: stableUuid(`${name}/app`), authenticationType: 'SECRET' };
  if (e.platform === 'GCP') doc.gcpCredentialProperties = { keyType: 'JSON' };
  const now = scope.clock.now();
  return { id, name, crn: doc.crn, scope: '', doc: { ...doc }, activity: settledIn('create', '', now), createdAt: now };
}

/** Creates the pre-created environments and their credentials once (the first time anything asks), unless the account was made empty. */
function ensure(scope: EnvironmentScope): void {
  const flag = `environments.seeded:${scope.info.accountId}`;
  if (scope.store.meta(flag)) {
    if (!scope.store.meta(TRACKED)) track(scope);
    return;
  }
  if (scope.store.meta(EMPTY_ACCOUNT) === '1') return;
  const created = scope.clock.iso();
  const creator = scope.store.meta('adminCrn');
  scope.store.transaction(() => {
    for (const e of PRE_CREATED) {
      const rec = preCreated(scope, e, created, creator);
      scope.store.put(ENVIRONMENT_KIND, rec.crn, rec, { name: rec.environmentName, crn: rec.crn });
      const cred = preCreatedCredential(scope, e, created);
      scope.store.put(CREDENTIAL_KIND, cred.id, cred, { name: cred.name, crn: cred.crn, parent: '' });
    }
    scope.store.setMeta(flag, '1');
    scope.store.setMeta(TRACKED, '1');
  });
}

/** Set once every environment record carries its lifecycle activity. */
const TRACKED = 'environments.tracked';

/** State kept before environments had a lifecycle: its records (all pre-created, all available) get one, once. */
function track(scope: EnvironmentScope): void {
  scope.store.transaction(() => {
    for (const { id, doc } of scope.store.list<Partial<EnvironmentRecord> & { crn: string; environmentName: string }>(ENVIRONMENT_KIND)) {
      if (doc.activity) continue;
      const rec = {
        ...doc,
        activity: settledIn('create', 'AVAILABLE', scope.clock.now()),
        freeipa: doc.freeipa ?? { instanceCountByGroup: 1, multiAz: false, recipes: [] },
      };
      scope.store.put(ENVIRONMENT_KIND, id, rec, { name: doc.environmentName, crn: doc.crn });
    }
    scope.store.setMeta(TRACKED, '1');
  });
}

/**
 * The environments of a request, as lifecycle resources: lookups settle
 * what they read (a deletion that has succeeded removes the record, with
 * its ID Broker mappings), and every record read has its current `status`.
 */
export function environmentResources(scope: EnvironmentScope): Resources<EnvironmentRecord> {
  ensure(scope);
  return new Resources<EnvironmentRecord>(scope, {
    kind: ENVIRONMENT_KIND,
    noun: 'environment',
    lifecycle: ENVIRONMENT,
    operations: ENVIRONMENT_OPERATION_KIND,
    id: (e) => e.crn,
    name: (e) => e.environmentName,
    keys: (e) => ({ name: e.environmentName, crn: e.crn }),
    ended: (e, end) => {
      e.status = end.state;
      if (end.failed) e.statusReason = e.activity.reason;
      else delete e.statusReason;
    },
    remove: (e) => {
      scope.store.delete(ENVIRONMENT_KIND, e.crn);
      for (const kind of ENVIRONMENT_PARTS) {
        scope.store.delete(kind, e.crn);
        for (const part of scope.store.children(kind, e.crn)) scope.store.delete(kind, part.id);
      }
    },
  });
}

/** ID Broker mappings of an environment (the environments table's `idBrokerMappings`), in its CRN's scope. */
export const ID_BROKER_KIND = 'environments.idBrokerMappings';

/**
 * Kinds of the environments service's records that are parts of one
 * environment, stored under its CRN (as their id or their parent): its ID
 * Broker mappings, its FreeIPA, FreeIPA's log collections and its operation
 * records. They go when it goes.
 */
export const ENVIRONMENT_PARTS: readonly string[] = [
  ID_BROKER_KIND,
  'environments.freeipa',
  'environments.freeipaDiagnostics',
  ENVIRONMENT_OPERATION_KIND,
];

/** The record with its status as of now. */
function current(all: Resources<EnvironmentRecord>, e: EnvironmentRecord): EnvironmentRecord {
  e.status = all.state(e);
  if (all.progress(e).failed) e.statusReason = e.activity.reason;
  return e;
}

/** Every environment of the account, in creation order. */
export function environments(scope: EnvironmentScope): EnvironmentRecord[] {
  const all = environmentResources(scope);
  return all.all().map((e) => current(all, e));
}

/** The environment a name (any case) or CRN names, if the account has it. */
export function findEnvironment(scope: EnvironmentScope, ref: string): EnvironmentRecord | undefined {
  const all = environmentResources(scope);
  const e = all.find(ref);
  if (!e || (ref.startsWith('crn:') && e.crn.split(':')[4] !== scope.info.accountId)) return undefined;
  return current(all, e);
}

/** The environment a request names, or NOT_FOUND naming the environments there are. */
export function requireEnvironment(scope: EnvironmentScope, ref: string): EnvironmentRecord {
  const env = findEnvironment(scope, ref);
  if (env) return env;
  const names = environments(scope).map((e) => e.environmentName);
  throw notFound(`environment ${ref.slice(0, 200)} not found; this account has ${names.length > 0 ? names.join(', ') : 'none'}`);
}
