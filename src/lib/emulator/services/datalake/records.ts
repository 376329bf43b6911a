/**
 * What the datalake service keeps: data lakes, their backups and restores
 * (engine records: their documents' layouts are here) and diagnostics
 * collections (work beside a lake, its request their document).
 */
import type { EngineRecord } from '../../engine/records.js';
import type { Activity } from '../../engine/timeline.js';
import type { Shape } from './catalogue.js';

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

/** A backup's or restore's document (an engine record in its lake). */
export interface BrDoc {
  kind: 'backup' | 'restore';
  backupId: string;
  restoreId?: string;
  backupName?: string;
  datalakeName: string;
  accountId: string;
  userCrn: string;
  backupLocation: string;
  runtimeVersion: string;
  stages: StagePlan[];
  validationOnly: boolean;
  /** Set when cancelled: with force, running steps are cancelled too. */
  forced?: boolean;
}

/** A backup or restore as read: its document, id, lake, and its overall status on the clock (cancelledAt once cancelled). */
export interface BrRec extends BrDoc {
  readonly id: string;
  readonly lakeId: string;
  readonly activity: Activity;
}
