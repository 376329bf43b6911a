/**
 * What the datahub service stores, and the two kinds of long-running work a
 * cluster does. A cluster is a record of the engine: its actions change its
 * status (the StackStatus values, in the model's facts): creating, starting,
 * stopping, scaling, repairing, upgrading, scaling vertically, upgrading its
 * database, deleting; one at a time. WORK is maintenance that runs beside the status while the cluster's
 * instances are up (certificates, secrets, DNS, IMDS, the orchestrator
 * state, Java, diagnostics, instance restarts, the KRaft migration...): each
 * is an operation record (RUNNING, then FINISHED or FAILED) and at most one
 * of a kind runs at a time.
 */
import { resources } from '../../../model/services/datahub/resources.js';
import type { Hook } from '../../engine/declare.js';
import type { CloudPlatform } from '../../world/contracts.js';
import type { Lifecycle } from '../../engine/timeline.js';
import type { EngineRecord, Tracked } from '../../engine/records.js';
import type { Doc } from '../../types.js';

/** The resources of datahub's operation table (the model's facts name them). */
export type R = keyof typeof resources.resources;
/** What datahub's hooks and code entries work with. */
export type DatahubHook = Hook<R>;

export const KIND = { operation: 'datahub.operation', work: 'datahub.work' } as const;

/** The states a failed action of a cluster ends in: a retry runs that action again. */
export const FAILED_STATES = ['CREATE_FAILED', 'STOP_FAILED', 'START_FAILED', 'UPDATE_FAILED', 'RECOVERY_FAILED'];

/** The states in which a cluster's instances are up and its services in good health: it is being scaled or repaired, or not. */
export const HEALTHY_STATES = ['AVAILABLE', 'UPDATE_REQUESTED', 'UPDATE_IN_PROGRESS', 'RECOVERY_REQUESTED', 'RECOVERY_IN_PROGRESS'];

/** The states in which a cluster's instances are up and maintenance can run. */
export const RUNNING_STATES = [...HEALTHY_STATES, 'UPDATE_FAILED', 'RECOVERY_FAILED', 'NODE_FAILURE'];

const work = (operation: string, minutes: number): Lifecycle[string] => ({
  phases: [['RUNNING', minutes]],
  success: 'FINISHED',
  failure: 'FAILED',
  operation,
});

/** Maintenance of a running cluster: the action's name (as `fail-<action>-` names it), its operation and length. */
export const WORK: Lifecycle = {
  prepare: work('UPGRADE_PREPARATION', 5),
  renew: work('CERTIFICATE_RENEWAL', 3),
  rotate: work('CERTIFICATE_ROTATION', 4),
  dbcert: work('DATABASE_CERTIFICATE_ROTATION', 3),
  secrets: work('SECRET_ROTATION', 3),
  dns: work('UPDATE_PUBLIC_DNS', 1),
  orchestrator: work('SALT_UPDATE', 2),
  imds: work('UPDATE_IMDS', 2),
  java: work('SET_DEFAULT_JAVA_VERSION', 5),
  sync: work('SYNC_COMPONENT_VERSIONS', 1),
  diagnostics: work('DIAGNOSTICS_COLLECTION', 5),
  cmdiagnostics: work('CM_DIAGNOSTICS_COLLECTION', 6),
  restart: work('RESTART_INSTANCES', 3),
  stopinstances: work('STOP_INSTANCES', 2),
  startinstances: work('START_INSTANCES', 3),
  kraft: work('ZOOKEEPER_TO_KRAFT_MIGRATION', 10),
  finalize: work('ZOOKEEPER_TO_KRAFT_MIGRATION_FINALIZATION', 3),
  rollback: work('ZOOKEEPER_TO_KRAFT_MIGRATION_ROLLBACK', 5),
  skus: work('SKU_MIGRATION', 4),
};

/** Work that cannot run beside each other: what acts on instances, and the steps of the KRaft migration. */
export const WORK_GROUP: Readonly<Record<string, string>> = {
  restart: 'instances',
  stopinstances: 'instances',
  startinstances: 'instances',
  kraft: 'kraft',
  finalize: 'kraft',
  rollback: 'kraft',
};

/** Every action name, for the fail- rule (`fail-rotate-...` fails certificate rotations only). */
export const ALL_ACTIONS: readonly string[] = [...Object.keys(resources.resources.cluster.lifecycle), ...Object.keys(WORK)];

export interface InstanceRec {
  id: string;
  fqdn: string;
  privateIp: string;
  subnetId: string;
  availabilityZone: string;
  /** Stopped on its own (stopInstances) while its cluster runs. */
  stopped?: boolean;
}

export interface VolumeRec {
  count: number;
  volumeType: string;
  size: number;
}

export interface GroupRec {
  name: string;
  /** GATEWAY (the Cloudera Manager host) or CORE. */
  type: string;
  instanceType: string;
  nodeCount: number;
  recipes: string[];
  instances: InstanceRec[];
  volumes?: VolumeRec;
  rootVolumeSize?: number;
}

export interface AutoscaleRec {
  enabled: boolean;
  /** The policies as the response shows them (identifiers made up where the request had none). */
  policies: Doc[];
}

/** Where a Kafka cluster's metadata lives: ZooKeeper, both (migrated, not finalized), or KRaft. */
export type KraftState = 'ZOOKEEPER' | 'MIGRATED' | 'KRAFT';

/** A cluster as it is kept: the engine's record (its id, name, CRN, its environment as its scope, its lifecycle) and this document. */
export interface ClusterDoc {
  clusterName: string;
  crn: string;
  environmentCrn: string;
  cloudPlatform: CloudPlatform;
  region: string;
  datalakeCrn?: string;
  credentialCrn?: string;
  clusterTemplateName: string;
  clusterTemplateCrn: string;
  clusterDefinitionName?: string;
  workloadType: string;
  creationDate: string;
  multiAz: boolean;
  groups: GroupRec[];
  statusReason?: string;
  // Set by clusters made before these were kept: views fall back to the defaults.
  runtime?: string;
  imageId?: string;
  catalogName?: string;
  services?: string[];
  /** External database: HA, NON_HA or NONE (embedded). */
  database?: string;
  dbVersion?: string;
  javaVersion?: number;
  /** AWS: the instance metadata service version the instances require (v1 or v2). */
  imds?: string;
  /** Azure: the SKU of its load balancers and public IPs. */
  lbSku?: string;
  loadBalancer?: boolean;
  customConfigurations?: string;
  tags?: Array<{ key: string; value: string }>;
  kraft?: KraftState;
  /** When its certificates were last issued (emulated ms). */
  certIssuedAt?: number;
  /** The image an upgrade preparation readied the cluster for. */
  prepared?: string;
  autoscale?: AutoscaleRec;
  autoscaleHistory?: Array<{ at: number; message: string }>;
  /** Why each scaling operation ran, by operation id. */
  scalingReasons?: Record<string, string>;
}

/** A cluster record of the engine, its document as datahub keeps it. */
export type ClusterRec = EngineRecord & { doc: ClusterDoc };

/** A cluster record as datahub reads it. */
export const asCluster = (rec: EngineRecord): ClusterRec => rec as ClusterRec;

/** What a finished piece of work changes on its cluster. */
export interface WorkEffect {
  /** Fields set as they are. */
  readonly fields?: Partial<ClusterDoc>;
  /** Instances stopped, or started again. */
  readonly stop?: readonly string[];
  readonly start?: readonly string[];
}

/** A piece of maintenance of a cluster; its operation record has the same id. */
export interface WorkRec extends Tracked {
  operationId: string;
  /** The engine id of its cluster (whose operations its operation record is among). */
  clusterId: string;
  clusterName: string;
  created: number;
  effect?: WorkEffect;
  /** Set once its effect is on the cluster (or it ended without one). */
  done?: boolean;
  /** What a diagnostics collection was asked for. */
  details?: Doc;
}
