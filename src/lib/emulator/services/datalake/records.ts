/**
 * What the datalake service stores: data lakes (engine records, whose
 * document is a LakeDoc), their backups and restores, diagnostics collections.
 */
import type { EngineRecord } from '../../engine/records.js';
import type { Activity } from '../../lifecycle.js';
import type { Shape } from './catalogue.js';

export const KIND = {
  operation: 'datalake.operation',
  backup: 'datalake.backup',
  restore: 'datalake.restore',
  diagnostics: 'datalake.diagnostics',
} as const;

export type CloudPlatform = 'AWS' | 'AZURE' | 'GCP';

export interface InstanceRec {
  id: string;
  discoveryFQDN: string;
  privateIp: string;
  instanceVmType: string;
  availabilityZone: string;
  subnetId: string;
  clouderaManagerServer: boolean;
  volumes: { count: number; volumeType: string; size: number };
}

export interface GroupRec {
  name: string;
  instances: InstanceRec[];
  recipes: string[];
}

/** A data lake's document: what its views are made of. */
export interface LakeDoc {
  crn: string;
  datalakeName: string;
  environmentName: string;
  environmentCrn: string;
  credentialCrn: string;
  cloudPlatform: CloudPlatform;
  gov: boolean;
  region: string;
  shape: Shape;
  runtime: string;
  imageId: string;
  catalogName: string;
  enableRangerRaz: boolean;
  multiAz: boolean;
  tags: Array<{ key: string; value: string }>;
  groups: GroupRec[];
  storage: string;
  identity: string;
  javaVersion: number;
  databaseVersion: string;
  imds: string;
  sku: string;
  certIssuedAt: number;
}

/** A data lake as the engine keeps it. */
export type Lake = Readonly<EngineRecord>;

/** A lake's document. */
export const lakeDoc = (lake: Lake): LakeDoc => lake.doc as unknown as LakeDoc;

/** One step of a backup or restore: when it starts (minutes in), how long it takes, whether the request skips it. */
export interface StagePlan {
  section: 'adminOperations' | 'hbase' | 'solr' | 'database';
  name: string;
  start: number;
  minutes: number;
  skipped: boolean;
}

export interface BrRec {
  kind: 'backup' | 'restore';
  id: string;
  backupId: string;
  restoreId?: string;
  backupName?: string;
  lakeId: string;
  datalakeName: string;
  accountId: string;
  userCrn: string;
  backupLocation: string;
  runtimeVersion: string;
  stages: StagePlan[];
  validationOnly: boolean;
  /** Its overall status on the clock (STARTED, IN_PROGRESS, then how it ended; cancelledAt once cancelled). */
  activity: Activity;
  /** Set when cancelled: with force, running steps are cancelled too. */
  forced?: boolean;
}

export interface DiagRec {
  flowId: string;
  lakeId: string;
  datalakeName: string;
  kind: 'datalake' | 'cm';
  created: number;
  destination: string;
  description?: string;
  caseNumber?: string;
  activity: Activity;
}
