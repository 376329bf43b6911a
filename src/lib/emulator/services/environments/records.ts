/**
 * What the environments service stores: an environment (the engine record
 * of the `environment` resource, whose document is an `EnvRecord`: the wire
 * `Environment`'s fields the emulator fills, and this service's own),
 * its FreeIPA (a part of its document, `ipa`; its work is the engine's), and the
 * account's settings (system-wide settings). An environment's parts are
 * stored under its id or CRN and go with it (the resource's `goneWith`).
 */
import type { CredentialView, EnvironmentView } from '../../world/contracts.js';

export type { CloudPlatform } from '../../world/contracts.js';

export const ACCOUNT_KIND = 'environments.account';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A cross-realm trust with Active Directory, as its setup gave it (the secret is never kept). */
export interface TrustRecord {
  realm: string;
  kdcServers: Array<{ fqdn: string; ip: string }>;
  dnsServerIps: string[];
  remoteEnvironmentCrn: string;
  /** Whether setup finished: the trust is in use. */
  active: boolean;
}

/** An environment as the environments service stores it (the document of its engine record): what the world sees of it, and its own. */
export interface EnvRecord extends Writable<EnvironmentView> {
  network: {
    networkName: string;
    subnetIds: string[];
    networkCidr: string;
    endpointAccessGatewayScheme?: string;
    endpointAccessGatewaySubnetIds?: string[];
    aws?: { vpcId: string };
    azure?: {
      networkId: string;
      resourceGroupName: string;
      usePublicIp: boolean;
      databasePrivateDnsZoneId?: string;
      aksPrivateDnsZoneId?: string;
      flexibleServerSubnetIds?: string[];
    };
    gcp?: { networkName: string; usePublicIp: boolean };
  };
  authentication?: { publicKey?: string; publicKeyId?: string; loginUserName: string };
  securityAccess?: { cidr?: string; securityGroupIdForKnox?: string; defaultSecurityGroupId?: string };
  proxyConfigName?: string;
  workloadAnalytics?: boolean;
  /** FreeIPA as it was asked for: instances per group (1 to 3) and whether they spread over zones. */
  freeipa: { instanceCountByGroup: number; multiAz: boolean; recipes: string[] };
  /** Its FreeIPA as it is now (one made before it was kept here is made from `freeipa`: freeipa.ts). */
  ipa?: IpaState;
  /** How the control plane reaches its hosts. */
  tunnel?: 'DIRECT' | 'CCM' | 'CCMV2' | 'CCMV2_JUMPGATE';
  /** null once cancelled (an action's effect is stored as JSON, which has no undefined). */
  trust?: TrustRecord | null;
  /** Configuration settings (settings set). */
  settings?: Record<string, string>;
  /** The iam users and groups (a digest) the environment's FreeIPA last had, and when: at creation or start. */
  usersSeen?: { fingerprint: string; at: number };
  /** PEM of its certificate authority, made the first time it is asked for. */
  rootCertificate?: string;
  /** A private cloud environment: the Cloudera Manager and Kubernetes cluster it was registered with. */
  privateCloud?: Record<string, unknown>;
  availabilityZones?: string[];
  encryptionKeyArn?: string;
  customDockerRegistry?: { crn: string };
  dataServices?: { azure?: { sharedManagedIdentity: string } };
  awsComputeClusterConfiguration?: ComputeClusterConfiguration;
  azureComputeClusterConfiguration?: ComputeClusterConfiguration;
  azureDetails?: {
    resourceGroupName?: string;
    resourceEncryptionParameters?: {
      encryptionKeyUrl: string;
      encryptionKeyResourceGroupName?: string;
      encryptionUserManagedIdentity?: string;
      diskEncryptionSetId?: string;
    };
  };
}

export interface ComputeClusterConfiguration {
  privateCluster?: boolean;
  kubeApiAuthorizedIpRanges?: string[];
  workerNodeSubnets?: string[];
  outboundType?: string;
}

/** A credential of the environments service (the wire `Credential`), with what its updates say of it. */
export interface CredentialRec extends Writable<CredentialView> {
  created: string;
  awsCredentialProperties?: { roleArn: string; govCloud: boolean };
  azureCredentialProperties?: { subscriptionId?: string; tenantId?: string; appId?: string; authenticationType?: string };
  gcpCredentialProperties?: { keyType: string };
  skipOrgPolicyDecisions?: boolean;
  verifyPermissions?: boolean;
}

export interface FreeipaNode {
  id: string;
  fqdn: string;
  ip: string;
  subnet: string;
  /** The index its host name and made-up values come from. */
  index: number;
}

/** The FreeIPA of an environment, as a part of its document: what its work changes. */
export interface IpaState {
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
}
