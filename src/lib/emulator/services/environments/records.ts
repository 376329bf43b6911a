/**
 * What the environments service stores beyond the shared environment record
 * (../../environments.ts): the fields of an environment only this service
 * reads, an environment's FreeIPA (its own record, with its own operations),
 * and the account's settings (telemetry, Azure image terms, system-wide
 * settings). An environment's parts are stored under its CRN and go with it
 * (ENVIRONMENT_PARTS in environments.ts).
 */
import type { CredentialRecord, EnvironmentRecord } from '../../environments.js';
import type { Tracked } from '../../engine/records.js';

export const FREEIPA_KIND = 'environments.freeipa';
export const ACCOUNT_KIND = 'environments.account';

/** How the control plane reaches an environment's hosts. */
export type Tunnel = 'DIRECT' | 'CCM' | 'CCMV2' | 'CCMV2_JUMPGATE';

/** A cross-realm trust with Active Directory, as its setup gave it (the secret is never kept). */
export interface TrustRecord {
  realm: string;
  kdcServers: Array<{ fqdn: string; ip: string }>;
  dnsServerIps: string[];
  remoteEnvironmentCrn: string;
  /** Whether setup finished: the trust is in use. */
  active: boolean;
}

/** A private cloud environment: the Cloudera Manager and Kubernetes cluster it was registered with. */
export interface PrivateCloudRecord {
  address: string;
  user: string;
  clusterNames: string[];
  platform: string;
  namespacePrefix: string;
  domain?: string;
  storageClass?: string;
  quota?: { cpuQuota?: number; memoryQuota?: number; gpuQuota?: number };
}

/** The iam users and groups as a user sync saw them: a digest, and when. */
export interface UsersSeen {
  fingerprint: string;
  at: number;
}

/** An environment as the environments service stores it: the shared record and this service's own fields. */
export interface EnvRecord extends EnvironmentRecord {
  network: EnvironmentRecord['network'] & {
    endpointAccessGatewaySubnetIds?: string[];
    azure?: { databasePrivateDnsZoneId?: string; aksPrivateDnsZoneId?: string; flexibleServerSubnetIds?: string[] };
  };
  tunnel?: Tunnel;
  /** null once cancelled (an action's effect is stored as JSON, which has no undefined). */
  trust?: TrustRecord | null;
  /** Configuration settings (settings set). */
  settings?: Record<string, string>;
  /** The iam users and groups the environment's FreeIPA last had (at creation or start). */
  usersSeen?: UsersSeen;
  /** PEM of its certificate authority, made the first time it is asked for. */
  rootCertificate?: string;
  privateCloud?: PrivateCloudRecord;
  availabilityZones?: string[];
  encryptionKeyArn?: string;
  customDockerRegistry?: { crn: string };
  dataServices?: { azure?: { sharedManagedIdentity: string } };
  awsComputeClusterConfiguration?: ComputeClusterConfiguration;
  azureComputeClusterConfiguration?: ComputeClusterConfiguration;
  azureDetails?: { resourceGroupName?: string; resourceEncryptionParameters?: AzureEncryption };
}

export interface ComputeClusterConfiguration {
  privateCluster?: boolean;
  kubeApiAuthorizedIpRanges?: string[];
  workerNodeSubnets?: string[];
  outboundType?: string;
}

export interface AzureEncryption {
  encryptionKeyUrl: string;
  encryptionKeyResourceGroupName?: string;
  encryptionUserManagedIdentity?: string;
  diskEncryptionSetId?: string;
}

/** A credential with what its updates say of it. */
export type CredentialRec = CredentialRecord & { skipOrgPolicyDecisions?: boolean; verifyPermissions?: boolean };

export interface FreeipaNode {
  id: string;
  fqdn: string;
  ip: string;
  subnet: string;
  /** The index its host name and made-up values come from. */
  index: number;
}

/** The FreeIPA servers of an environment, by its CRN; their operations are the environment's. */
export interface FreeipaRecord extends Tracked {
  environmentCrn: string;
  environmentName: string;
  instances: FreeipaNode[];
  /** The next index a new server gets. */
  nextIndex: number;
  instanceType: string;
  multiAz: boolean;
  recipes: string[];
  /** Id of the image the servers run. */
  image: string;
  /** The image catalog it takes images from, when one was set. */
  catalog?: string;
  imds: 'v1' | 'v2';
  /** When each secret type was last rotated. */
  secretsRotated: Record<string, string>;
  /** Instances a repair under way works on, and how (null once it is done). */
  repairing?: { instances: string[]; rebuild: boolean } | null;
}

/** Anonymization rule of account telemetry. */
export interface AnonymizationRule {
  value: string;
  replacement: string;
}

/** The account's own settings, by account id. */
export interface AccountSettings {
  /** System-wide settings (settings set without an environment). */
  settings?: Record<string, string>;
}
