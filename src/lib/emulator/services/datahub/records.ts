/**
 * What a Data Hub cluster keeps, and the states its actions pass. A cluster
 * is a record of the engine: its actions change its status (the StackStatus
 * values, in the model's facts), one at a time; its maintenance runs beside
 * the status as work of the engine (maintenance.ts).
 */
import type { resources } from '../../../model/services/datahub/resources.js';
import type { Hook } from '../../engine/declare.js';
import type { CloudPlatform } from '../../world/contracts.js';
import type { EngineRecord } from '../../engine/records.js';
import type { Doc } from '../../types.js';

/** The resources of datahub's operation table (the model's facts name them). */
export type R = keyof typeof resources.resources;
/** What datahub's hooks and code entries work with. */
export type DatahubHook = Hook<R>;

export const KIND = { operation: 'datahub.operation' } as const;

/** The states a failed action of a cluster ends in: a retry runs that action again. */
export const FAILED_STATES = ['CREATE_FAILED', 'STOP_FAILED', 'START_FAILED', 'UPDATE_FAILED', 'RECOVERY_FAILED'];

/** The states in which a cluster's instances are up and its services in good health: it is being scaled or repaired, or not. */
export const HEALTHY_STATES = ['AVAILABLE', 'UPDATE_REQUESTED', 'UPDATE_IN_PROGRESS', 'RECOVERY_REQUESTED', 'RECOVERY_IN_PROGRESS'];

/** The states in which a cluster's instances are up and maintenance can run. */
export const RUNNING_STATES = [...HEALTHY_STATES, 'UPDATE_FAILED', 'RECOVERY_FAILED', 'NODE_FAILURE'];

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
  /** What the last replaceRecipes attached and detached (its answer). */
  recipesReplaced?: Doc;
}

/** A cluster record of the engine, its document as datahub keeps it. */
export type ClusterRec = EngineRecord & { doc: ClusterDoc };

/** A cluster record as datahub reads it. */
export const asCluster = (rec: Readonly<EngineRecord>): ClusterRec => rec as ClusterRec;
