/**
 * What the emulated services read of each other: one contract a thing a
 * service knows of another's, each provided by exactly one service (its
 * `provides`), bound to the reading request (same store transaction, same
 * frozen clock) by the world (world.ts). A service reads another only
 * through these: no service imports another's folder (a lint rule keeps it
 * so). Types, and the list of their names; this file imports nothing.
 */

export type CloudPlatform = 'AWS' | 'AZURE' | 'GCP';

/** An environment as every service sees it: the environments service's wire `Environment` (the fields the emulator fills). */
export interface EnvironmentView {
  readonly environmentName: string;
  readonly crn: string;
  readonly status: string;
  /** The cloud region the environment runs in (not the control-plane region of its CRN). */
  readonly region: string;
  readonly cloudPlatform: CloudPlatform;
  readonly credentialName: string;
  readonly description: string;
  readonly created: string;
  readonly creator?: string;
  readonly network: {
    readonly networkName: string;
    readonly subnetIds: readonly string[];
    readonly networkCidr: string;
    readonly endpointAccessGatewayScheme?: string;
    readonly aws?: { readonly vpcId: string };
    readonly azure?: { readonly networkId: string; readonly resourceGroupName: string; readonly usePublicIp: boolean };
    readonly gcp?: { readonly networkName: string; readonly usePublicIp: boolean };
  };
  readonly logStorage: {
    readonly enabled: boolean;
    readonly awsDetails?: Readonly<Record<string, string>>;
    readonly azureDetails?: Readonly<Record<string, string>>;
    readonly gcpDetails?: Readonly<Record<string, string>>;
  };
  readonly computeClusterEnabled: boolean;
  readonly environmentType: 'PUBLIC_CLOUD' | 'HYBRID';
  readonly tags: { readonly userDefined: Readonly<Record<string, string>>; readonly defaults: Readonly<Record<string, string>> };
  readonly statusReason?: string;
  /** The SSH key its nodes take: by the id of a key pair, or as a public key (Data Warehouse pushes it to its clusters' nodes). */
  readonly authentication?: { readonly publicKeyId?: string; readonly publicKey?: string };
}

/** A credential of the environments service. */
export interface CredentialView {
  readonly credentialName: string;
  readonly crn: string;
  readonly cloudPlatform: CloudPlatform;
  readonly description?: string;
}

/** The environments of the account (the environments service). */
export interface Environments {
  /** By name (any case) or CRN, settled, with its status as of now. */
  find(ref: string): EnvironmentView | undefined;
  /** As find, or NOT_FOUND naming the environments the account has. */
  require(ref: string): EnvironmentView;
  /** Every one, in creation order. */
  all(): readonly EnvironmentView[];
  /** A credential by name or CRN. */
  credential(ref: string): CredentialView | undefined;
  /** Every credential of the account, in creation order. */
  credentials(): readonly CredentialView[];
  /** When an environment's FreeIPA ran (while the environment was up) and on how many instances (what its usage is billed by); by CRN. */
  freeipaRuns(crn: string): FreeipaRunsView | undefined;
}

/** When an environment's FreeIPA ran, and on how many instances. */
export interface FreeipaRunsView {
  readonly runs: readonly RunView[];
  readonly instances: number;
}

/** A user or machine user, as other services show who made or owns something. */
export interface ActorView {
  readonly crn: string;
  readonly kind: 'user' | 'machineUser';
  /** The user's id, or the machine user's name. */
  readonly id: string;
  readonly workloadUsername: string;
  readonly status: 'ACTIVE' | 'CONTROL_PLANE_LOCKED_OUT' | 'DEACTIVATED';
  readonly email?: string;
  readonly firstName?: string;
  readonly lastName?: string;
  /** A user: an account administrator. */
  readonly accountAdmin?: boolean;
  /** A user: the identity provider it signs in through. */
  readonly identityProviderCrn?: string;
}

/** The three kinds of access key: the signing method of each. */
export type AccessKeyType = 'V1' | 'V2' | 'V3';

/** An access key, as the server checks a signature with it. */
export interface AccessKeyView {
  readonly accessKeyId: string;
  readonly actorCrn: string;
  readonly status: 'ACTIVE' | 'INACTIVE';
  readonly type: AccessKeyType;
  /** SPKI PEM of its public key. */
  readonly publicKey: string;
}

/** A workload (Bearer) token, as the server checks it: stored by the hash of its text. */
export interface WorkloadTokenView {
  readonly hash: string;
  readonly actorCrn: string;
  readonly environmentCrn?: string;
  readonly workloadName: string;
  /** Wall-clock ms. */
  readonly expireAt: number;
}

/** A workload password policy of the account. */
export interface PasswordPolicy {
  readonly maxPasswordLifetimeDays: number;
  readonly minPasswordLength: number;
  readonly mustIncludeUpperCaseCharacters: boolean;
  readonly mustIncludeLowerCaseCharacters: boolean;
  readonly mustIncludeNumbers: boolean;
  readonly mustIncludeSymbols: boolean;
  readonly minPasswordLifetimeDays: number;
  readonly passwordHistorySize: number;
}

/**
 * The account's users and machine users (the iam service): who calls, for
 * the server's authentication (keys and tokens, read as kept on every
 * request), for other services, and for the account's first start and the
 * console's sign-ins (the only writers here).
 */
export interface Identities {
  /** Who a CRN names (a user or a machine user of the account). */
  actor(crn: string): ActorView | undefined;
  /** The account's users, in creation order. */
  users(): readonly ActorView[];
  /** An access key by id. */
  accessKey(id: string): AccessKeyView | undefined;
  /** A workload token by the hash of its text. */
  workloadToken(hash: string): WorkloadTokenView | undefined;
  /** The account's workload password policy (the default when none was set). */
  passwordPolicy(): PasswordPolicy;
  /** Why a password breaks a policy, or undefined when it keeps it. */
  passwordViolation(password: string, policy: PasswordPolicy): string | undefined;
  /**
   * A digest of what user sync carries into an environment's FreeIPA (the
   * users, machine users, groups, memberships and workload passwords): it
   * changes whenever any of them does.
   */
  syncDigest(): string;
  /** How many workload passwords an actor has had set (0: none yet): the key version of its keytabs counts them. */
  workloadPasswordsSet(actorCrn: string): number;
  /** The CRN of an identity provider by name or CRN (NOT_FOUND when the account has none such). */
  identityProvider(ref: string): string;
  /** The account's first start: its administrator, made with this id. */
  createAdmin(userId: string): ActorView;
  /** The store kinds of what an account's first start makes (its administrator, its keys): what else an account holds is counted beside them. */
  firstStartKinds(): { readonly user: string; readonly accessKey: string };
  /** A new access key of an actor (the administrator's first, a console sign-in's): its id and private key, shown once. */
  issueAccessKey(actorCrn: string, opts?: { readonly signIn?: boolean }): { readonly accessKeyId: string; readonly privateKey: string };
}

/** A data lake as other services see it (the datalake service). */
export interface LakeView {
  readonly crn: string;
  readonly name: string;
  readonly environmentCrn: string;
  /** Its state now, as its service shows it (RUNNING, STOPPED...). */
  readonly status: string;
  /** The Cloudera Runtime it runs. */
  readonly runtime: string;
  /** Its hosts' names, Cloudera Manager's first. */
  readonly hosts: readonly string[];
  /** Its cloud storage base location, when it was given one. */
  readonly storage?: string;
}

/** The account's data lakes. */
export interface Lakes {
  /** The data lake of an environment, if it has one. */
  of(environmentCrn: string): LakeView | undefined;
  /** By name or CRN. */
  find(ref: string): LakeView | undefined;
  all(): readonly LakeView[];
}

/** A Data Hub cluster as other services see it (the datahub service). */
export interface HubView {
  readonly crn: string;
  readonly name: string;
  readonly environmentCrn: string;
  readonly status: string;
  /** The template it was built from. */
  readonly template: string;
  /** Its creation has ended: other services know of it (it may have failed or been stopped since). */
  readonly registered: boolean;
  /** Its hosts' names, the gateway group's (Cloudera Manager's) first. */
  readonly hosts: readonly string[];
}

/** The account's Data Hub clusters. */
export interface Hubs {
  find(ref: string): HubView | undefined;
  all(): readonly HubView[];
}

/** A data lake or Data Hub cluster as a replication endpoint (the replicationmanager service). */
export interface ClusterView {
  readonly crn: string;
  readonly name: string;
  /** A data lake (SDX) or a Data Hub cluster (DISTROX). */
  readonly type: 'SDX' | 'DISTROX';
  readonly environmentCrn: string;
  readonly environmentName: string;
  readonly cloudPlatform: string;
  /** The cloud region its environment runs in. */
  readonly region: string;
  /** Its state, as its own service shows it (RUNNING, AVAILABLE, STOPPED...). */
  readonly state: string;
  /** Running: its Cloudera Manager answers. */
  readonly up: boolean;
  /** Its creation has ended: other services know of it (it may have failed or been stopped since). */
  readonly registered: boolean;
  /** The Cloudera Runtime it runs (7.2.18). */
  readonly runtime: string;
  /** What it was built from: the Data Hub's template, `Data Lake` for a data lake. */
  readonly template: string;
  /** Its hosts' names; the first runs Cloudera Manager. */
  readonly hosts: readonly string[];
  /** A data lake's cloud storage base location. */
  readonly storage?: string;
}

/**
 * Data lakes and Data Hub clusters together, as clusters to replicate
 * between; and a place records live in (Replication Manager's policies in a
 * cluster, `lives: { in: 'world', place: 'clusters' }`).
 */
export interface Clusters {
  all(): readonly ClusterView[];
  find(crn: string): ClusterView | undefined;
  /** The data lake of an environment. */
  lakeOf(environmentCrn: string): ClusterView | undefined;
  /** The cluster a reference names as a place: its CRN as the scope of what lives in it, its words in messages (NOT_FOUND when none). */
  place(ref: string): { readonly scope: string; readonly where: string } | undefined;
}

/** An interval [from, to) of emulated ms. */
export interface RunView {
  readonly from: number;
  readonly to: number;
}

/** A compute cluster, with when it ran (the compute service). */
export interface ComputeClusterView {
  readonly crn: string;
  readonly name: string;
  readonly environmentCrn: string;
  readonly environmentName: string;
  readonly cloudPlatform: CloudPlatform;
  /** Its state now (RUNNING, SUSPENDED, DELETED...). */
  readonly status: string;
  readonly runs: readonly RunView[];
  readonly tags: Readonly<Record<string, string>>;
}

/** The account's compute clusters. */
export interface ComputeClusters {
  /** Every one, deleted ones too (they ran until they were deleted). */
  all(): readonly ComputeClusterView[];
  /** One by CRN, unless it is deleted. */
  find(crn: string): ComputeClusterView | undefined;
}

/** Where the action a deployment or a flow is in (or last went through) stands now: what DataFlow's events are made of. */
export interface DataflowWorkView {
  readonly action: string;
  readonly startedAt: number;
  /** When it ends, or ended (emulated ms). */
  readonly endsAt: number;
  /** Its state now, without the detailed state (DEPLOYING, GOOD_HEALTH...). */
  readonly state: string;
  readonly done: boolean;
  readonly failed: boolean;
  /** Why it failed, when it did and says. */
  readonly reason?: string;
}

/** A deployment's or a flow's status now, as the workload shows it. */
export interface DataflowStatusView {
  readonly state: string;
  readonly detailedState: string;
}

/** A deployment of the DataFlow workload service (dfworkload), as DataFlow's control plane (df) reads it. */
export interface DataflowDeploymentView {
  readonly crn: string;
  readonly name: string;
  readonly environmentCrn: string;
  readonly projectCrn?: string;
  readonly creatorCrn: string;
  /** The workload user name of who deployed it. */
  readonly deployedBy: string;
  readonly created: number;
  readonly updated: number;
  readonly configurationVersion: number;
  readonly cfmNifiVersion: string;
  readonly kpis: readonly Readonly<Record<string, unknown>>[];
  readonly status: DataflowStatusView;
  readonly work: DataflowWorkView;
  /** The workload's own answer for it (RpcDeployment): its sizing, scaling, node counts and URLs. */
  shown(): Readonly<Record<string, unknown>>;
}

/** A flow of a deployment (dfworkload), as df reads it. */
export interface DataflowFlowView {
  readonly crn: string;
  readonly name: string;
  readonly deploymentCrn: string;
  readonly environmentCrn: string;
  readonly projectCrn?: string;
  readonly creatorCrn: string;
  readonly created: number;
  readonly updated: number;
  /** The catalog's flow definition it runs (`...:flow:<name>` or `...:readyFlow:<slug>`), at a version. */
  readonly flowCrn: string;
  readonly flowName: string;
  readonly flowVersion: number;
  readonly kpis: readonly Readonly<Record<string, unknown>>[];
  /** Its status, as its deployment's state makes it (DEPLOYMENT_SUSPENDED while that is suspended). */
  readonly status: DataflowStatusView;
  readonly work: DataflowWorkView;
}

/** What the control plane asks the workload to deploy: a flow version, as a new deployment or into one. */
export interface DataflowRequestSpec {
  /** The request's CRN (deploymentRequest or deployedFlowRequest), minted by df. */
  readonly crn: string;
  readonly kind: 'deployment' | 'flow';
  readonly environmentCrn: string;
  readonly flowCrn: string;
  readonly flowName: string;
  readonly flowVersion: number;
}

/**
 * The DataFlow workload's deployments and their flows (the dfworkload
 * service), for DataFlow's control plane (df): read settled, as the workload
 * shows them; and the two things the control plane starts there, a request
 * to deploy and the termination of a service's deployments as it is disabled.
 */
export interface Dataflows {
  /** Every deployment of the account that is not gone, in creation order. */
  deployments(): readonly DataflowDeploymentView[];
  /** A deployment by CRN, unless it is gone. */
  deployment(crn: string): DataflowDeploymentView | undefined;
  /** The flows of a deployment that are not gone. */
  flowsOf(deploymentCrn: string): readonly DataflowFlowView[];
  /** Every flow of every deployment (what runs each catalog version). */
  flows(): readonly DataflowFlowView[];
  /** Starts terminating a deployment with its flows (nothing when it already is). */
  terminate(deploymentCrn: string): void;
  /** Opens a request to deploy: the workload knows it from then on, and uses it once. */
  openRequest(spec: DataflowRequestSpec): void;
  /** The KPIs a deployment or flow can be watched by (the workload's KpiMetaData: scopes, metrics, units). */
  kpiMetadata(): Readonly<Record<string, unknown>>;
}

/** Every contract, by the name services read it under. */
export interface WorldReads {
  readonly environments: Environments;
  readonly identities: Identities;
  readonly lakes: Lakes;
  readonly hubs: Hubs;
  readonly clusters: Clusters;
  readonly computeClusters: ComputeClusters;
  readonly dataflows: Dataflows;
}

export type ContractName = keyof WorldReads;

const NAMES: { readonly [K in ContractName]: true } = {
  environments: true,
  identities: true,
  lakes: true,
  hubs: true,
  clusters: true,
  computeClusters: true,
  dataflows: true,
};

/** The name of every contract: the world checks at start that each has one provider. */
export const CONTRACTS = Object.keys(NAMES) as readonly ContractName[];

/** The contracts that are places records of other services live in. */
export type PlaceName = { [K in ContractName]: WorldReads[K] extends { place(ref: string): unknown } ? K : never }[ContractName];
