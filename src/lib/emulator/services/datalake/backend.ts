/**
 * Data lakes in the emulator: state and rules, no HTTP. Every long-running
 * action is a timeline of lake statuses on the emulator clock plus an
 * operation record with the same duration; both are read lazily, so nothing
 * runs in the background and state survives restarts. Effects of an action
 * (a new shape, runtime, instance count) are applied the first time the
 * lake is read after the action succeeded.
 *
 * Failing on purpose: a lake whose name starts with `fail-` ends every
 * long-running action in the failure status (creation in
 * PROVISIONING_FAILED, deletion in DELETE_FAILED unless forced); a backup
 * whose backupName starts with `fail-` fails; a restore whose
 * backupLocationOverride contains `fail-` fails.
 */
import { createHash } from 'node:crypto';
import { stateAt, timeline, type Timeline } from '../../clock.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { requireEnvironment } from '../../environments.js';
import { crn, isCrn, uuid } from '../../ids.js';
import type { Doc, RequestContext } from '../../types.js';

export const KIND = {
  lake: 'datalake.datalake',
  operation: 'datalake.operation',
  backup: 'datalake.backup',
  restore: 'datalake.restore',
  diagnostics: 'datalake.diagnostics',
} as const;

const MINUTE = 60_000;
const CERT_LIFETIME_DAYS = 365;
const CERT_WARNING_DAYS = 30;

// ---- catalogue -------------------------------------------------------------

export const RUNTIMES: ReadonlyArray<{ runtime: string; cm: string }> = [
  { runtime: '7.2.16', cm: '7.9.0' },
  { runtime: '7.2.17', cm: '7.11.3' },
  { runtime: '7.2.18', cm: '7.12.0' },
  { runtime: '7.3.1', cm: '7.13.1' },
];
export const DEFAULT_RUNTIME = '7.2.18';
const CATALOG = 'cdp-default';

interface Image {
  readonly imageId: string;
  readonly runtime: string;
  readonly cm: string;
  readonly index: number;
  readonly created: number;
}

const hashId = (text: string): string => {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** Two images per runtime, older first; image order follows runtime order. */
export const IMAGES: readonly Image[] = RUNTIMES.flatMap((r, ri) =>
  [0, 1].map((index) => ({
    imageId: hashId(`image:${r.runtime}:${index}`),
    runtime: r.runtime,
    cm: r.cm,
    index,
    created: Date.UTC(2023, ri * 3 + index, 1) / 1000,
  })),
);
const imageOrder = (img: Image): number => IMAGES.indexOf(img);

const SECRET_TYPES: ReadonlyArray<readonly [string, string]> = [
  ['CM_ADMIN_PASSWORD', 'Password of the Cloudera Manager admin user'],
  ['CM_DB_PASSWORD', 'Password of the Cloudera Manager database user'],
  ['CM_SERVICES_DB_PASSWORD', 'Database passwords of the cluster services'],
  ['SALT_PASSWORD', 'Password of the orchestrator (Salt) API user'],
  ['SALT_BOOT_SECRETS', 'Bootstrap secrets of the orchestrator'],
  ['DATABASE_ROOT_PASSWORD', 'Root password of the external database server'],
  ['GATEWAY_CERT', 'Certificate of the Knox gateway'],
  ['CM_INTERMEDIATE_CA_CERT', 'Intermediate CA certificate of Cloudera Manager'],
];

const LOG_DESCRIPTORS: ReadonlyArray<readonly [string, string]> = [
  ['cm-server', '/var/log/cloudera-scm-server/cloudera-scm-server.log'],
  ['cm-agent', '/var/log/cloudera-scm-agent/cloudera-scm-agent.log'],
  ['ranger', '/var/log/ranger/admin/*.log'],
  ['atlas', '/var/log/atlas/*.log'],
  ['hms', '/var/log/hive/*.log'],
  ['solr', '/var/log/solr/*.log'],
  ['knox', '/var/log/knox/gateway/*.log'],
  ['idbroker', '/var/log/knox/idbroker/*.log'],
  ['salt', '/var/log/salt/minion'],
];

const CM_ROLES = [
  'ATLAS_SERVER',
  'HIVEMETASTORE',
  'RANGER_ADMIN',
  'RANGER_USERSYNC',
  'SOLR_SERVER',
  'KNOX_GATEWAY',
  'IDBROKER',
  'ZOOKEEPER_SERVER',
  'HBASE_MASTER',
  'REGIONSERVER',
  'KAFKA_BROKER',
];
const SERVICES = ['ZOOKEEPER', 'RANGER', 'ATLAS', 'HIVE', 'SOLR', 'HBASE', 'HDFS', 'KNOX', 'KAFKA'];
const SCALE_OUT_GROUPS = ['solr_scale_out', 'hms_scale_out', 'raz_scale_out', 'kafka_scale_out', 'storage_scale_out'];

type Shape = 'LIGHT_DUTY' | 'MEDIUM_DUTY_HA' | 'ENTERPRISE';
const SHAPE_GROUPS: Readonly<Record<Shape, ReadonlyArray<readonly [string, number, string]>>> = {
  LIGHT_DUTY: [
    ['master', 1, 'm5.2xlarge'],
    ['idbroker', 1, 't3.medium'],
  ],
  MEDIUM_DUTY_HA: [
    ['master', 2, 'm5.2xlarge'],
    ['gateway', 2, 'm5.2xlarge'],
    ['core', 3, 'm5.2xlarge'],
    ['auxiliary', 1, 'm5.2xlarge'],
    ['idbroker', 2, 't3.medium'],
  ],
  ENTERPRISE: [
    ['master', 2, 'm5.4xlarge'],
    ['gateway', 2, 'm5.2xlarge'],
    ['core', 3, 'r5.4xlarge'],
    ['auxiliary', 1, 'm5.2xlarge'],
    ['idbroker', 2, 't3.medium'],
  ],
};

// ---- records ---------------------------------------------------------------

interface InstanceRec {
  id: string;
  discoveryFQDN: string;
  privateIp: string;
  instanceVmType: string;
  availabilityZone: string;
  subnetId: string;
  clouderaManagerServer: boolean;
  volumes: { count: number; volumeType: string; size: number };
}

interface GroupRec {
  name: string;
  instances: InstanceRec[];
  recipes: string[];
}

/** An action in progress (or the last one): its timeline and what success changes. */
interface Activity {
  action: string;
  operationId: string;
  tl: Timeline;
  success: string;
  failure: string;
  effect?: Doc;
  applied?: boolean;
  reason?: string;
}

export interface LakeRec {
  id: string;
  crn: string;
  datalakeName: string;
  environmentName: string;
  environmentCrn: string;
  credentialCrn: string;
  cloudPlatform: 'AWS' | 'AZURE' | 'GCP';
  gov: boolean;
  region: string;
  createdAt: number;
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
  fail: boolean;
  activity: Activity;
}

interface OperationRec {
  operationId: string;
  operationName: string;
  lakeId: string;
  tl: Timeline;
  cancelledAt?: number;
}

interface StagePlan {
  section: 'adminOperations' | 'hbase' | 'solr' | 'database';
  name: string;
  start: number;
  minutes: number;
  skipped: boolean;
}

interface BrRec {
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
  startedAt: number;
  stages: StagePlan[];
  validationOnly: boolean;
  fail: boolean;
  cancel?: { at: number; force: boolean };
}

interface DiagRec {
  flowId: string;
  lakeId: string;
  kind: 'datalake' | 'cm';
  created: number;
  minutes: number;
  destination: string;
  description?: string;
  caseNumber?: string;
  fail: boolean;
  cancelledAt?: number;
}

// ---- helpers ---------------------------------------------------------------

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const bool = (v: unknown): boolean => v === true;
const iso = (ms: number): string => new Date(ms).toISOString();
const isFailed = (status: string): boolean => status.endsWith('_FAILED');
const minutesOf = (tl: Timeline): number => (tl.steps[tl.steps.length - 1]?.afterMs ?? 0) / MINUTE;

function makeGroups(name: string, shape: Shape, platform: LakeRec['cloudPlatform'], region: string, multiAz: boolean): GroupRec[] {
  return SHAPE_GROUPS[shape].map(([group, count, type]) => ({
    name: group,
    recipes: [],
    instances: Array.from({ length: count }, (_, i) =>
      makeInstance(name, group, i, type, platform, region, multiAz, group === 'master' && i === 0),
    ),
  }));
}

function makeInstance(
  lake: string,
  group: string,
  i: number,
  type: string,
  platform: LakeRec['cloudPlatform'],
  region: string,
  multiAz: boolean,
  cm: boolean,
): InstanceRec {
  const zones =
    platform === 'AZURE'
      ? ['1', '2', '3']
      : platform === 'GCP'
        ? ['a', 'b', 'c'].map((z) => `${region}-${z}`)
        : ['a', 'b', 'c'].map((z) => `${region}${z}`);
  const zone = multiAz ? zones[i % 3] : zones[0];
  const bytes = createHash('md5').update(`${lake}/${group}/${i}/${uuid()}`).digest();
  return {
    id: platform === 'AWS' ? `i-0${bytes.toString('hex').slice(0, 16)}` : `${lake}-${group}${i}-${bytes.toString('hex').slice(0, 6)}`,
    discoveryFQDN: `${lake}-${group}${i}.${lake}.xcu2-8y8x.wl.cloudera.site`,
    privateIp: `10.${bytes[0] ?? 0}.${bytes[1] ?? 0}.${((bytes[2] ?? 0) % 250) + 4}`,
    instanceVmType: type,
    availabilityZone: zone ?? '',
    subnetId: `subnet-${bytes.toString('hex').slice(6, 14)}`,
    clouderaManagerServer: cm,
    volumes: { count: 1, volumeType: platform === 'AWS' ? 'gp3' : platform === 'AZURE' ? 'StandardSSD_LRS' : 'pd-ssd', size: 100 },
  };
}

// ---- lookups and settling --------------------------------------------------

/** Applies a finished activity's effect once; deletes the lake when its deletion finished. */
function settle(ctx: RequestContext, lake: LakeRec): LakeRec | undefined {
  const act = lake.activity;
  const st = stateAt(act.tl, ctx.clock.now());
  if (!st.done || act.applied) return lake;
  if (st.state === 'DELETED') {
    ctx.store.delete(KIND.lake, lake.id);
    return undefined;
  }
  act.applied = true;
  if (st.state === act.success && act.effect) Object.assign(lake, act.effect);
  ctx.store.put(KIND.lake, lake.id, lake, { name: lake.datalakeName, crn: lake.crn });
  return lake;
}

export function statusOf(ctx: RequestContext, lake: LakeRec): string {
  return stateAt(lake.activity.tl, ctx.clock.now()).state;
}

function tryLake(ctx: RequestContext, ref: string): LakeRec | undefined {
  let lake: LakeRec | undefined;
  if (isCrn(ref)) {
    const hit = ctx.store.getByCrn<LakeRec>(ref);
    lake = hit?.kind === KIND.lake ? hit.doc : undefined;
  } else lake = ctx.store.getByName<LakeRec>(KIND.lake, ref);
  return lake ? settle(ctx, lake) : undefined;
}

export function getLake(ctx: RequestContext, ref: unknown): LakeRec {
  const name = str(ref);
  if (!name) throw invalid('the data lake name or CRN is missing');
  const lake = tryLake(ctx, name);
  if (!lake) throw notFound(`data lake ${name} not found`);
  return lake;
}

function save(ctx: RequestContext, lake: LakeRec): void {
  ctx.store.put(KIND.lake, lake.id, lake, { name: lake.datalakeName, crn: lake.crn });
}

function requireStatus(ctx: RequestContext, lake: LakeRec, allowed: readonly string[] | ((s: string) => boolean), what: string): void {
  const status = statusOf(ctx, lake);
  const ok = typeof allowed === 'function' ? allowed(status) : allowed.includes(status);
  if (!ok)
    throw failedPrecondition(
      `data lake ${lake.datalakeName} is ${status}; ${what} needs it ${typeof allowed === 'function' ? 'in another state' : allowed.join(' or ')}`,
    );
}

// ---- actions ---------------------------------------------------------------

interface ActionSpec {
  readonly phases: ReadonlyArray<readonly [string, number]>;
  readonly success: string;
  readonly failure: string;
  readonly operationName: string;
}

const ACTIONS: Readonly<Record<string, ActionSpec>> = {
  create: {
    phases: [
      ['REQUESTED', 0.5],
      ['EXTERNAL_DATABASE_CREATION_IN_PROGRESS', 3],
      ['STACK_CREATION_IN_PROGRESS', 6.5],
    ],
    success: 'RUNNING',
    failure: 'PROVISIONING_FAILED',
    operationName: 'PROVISION',
  },
  delete: {
    phases: [
      ['DELETE_REQUESTED', 0.5],
      ['STACK_DELETION_IN_PROGRESS', 2],
      ['EXTERNAL_DATABASE_DELETION_IN_PROGRESS', 1],
    ],
    success: 'DELETED',
    failure: 'DELETE_FAILED',
    operationName: 'DELETION',
  },
  start: { phases: [['START_IN_PROGRESS', 4]], success: 'RUNNING', failure: 'START_FAILED', operationName: 'START' },
  stop: { phases: [['STOP_IN_PROGRESS', 3]], success: 'STOPPED', failure: 'STOP_FAILED', operationName: 'STOP' },
  resize: { phases: [['RESIZE_IN_PROGRESS', 15]], success: 'RUNNING', failure: 'RESIZE_FAILED', operationName: 'RESIZE' },
  upgrade: {
    phases: [['DATALAKE_UPGRADE_IN_PROGRESS', 12]],
    success: 'RUNNING',
    failure: 'DATALAKE_UPGRADE_FAILED',
    operationName: 'UPGRADE',
  },
  prepareUpgrade: {
    phases: [['DATALAKE_UPGRADE_PREPARATION_IN_PROGRESS', 3]],
    success: 'RUNNING',
    failure: 'DATALAKE_UPGRADE_PREPARATION_FAILED',
    operationName: 'UPGRADE_PREPARATION',
  },
  databaseUpgrade: {
    phases: [['DATALAKE_UPGRADE_DATABASE_SERVER_IN_PROGRESS', 8]],
    success: 'RUNNING',
    failure: 'DATALAKE_UPGRADE_DATABASE_SERVER_FAILED',
    operationName: 'DATABASE_UPGRADE',
  },
  repair: { phases: [['REPAIR_IN_PROGRESS', 6]], success: 'RUNNING', failure: 'REPAIR_FAILED', operationName: 'REPAIR' },
  recover: { phases: [['RECOVERY_IN_PROGRESS', 8]], success: 'RUNNING', failure: 'RECOVERY_FAILED', operationName: 'RECOVERY' },
  scaleHorizontal: {
    phases: [['DATALAKE_HORIZONTAL_SCALE_IN_PROGRESS', 4]],
    success: 'RUNNING',
    failure: 'DATALAKE_HORIZONTAL_SCALE_FAILED',
    operationName: 'HORIZONTAL_SCALE',
  },
  scaleVertical: {
    phases: [['DATALAKE_VERTICAL_SCALE_IN_PROGRESS', 5]],
    success: 'RUNNING',
    failure: 'DATALAKE_VERTICAL_SCALE_FAILED',
    operationName: 'VERTICAL_SCALE',
  },
  restart: {
    phases: [['DATALAKE_RESTART_IN_PROGRESS', 3]],
    success: 'RUNNING',
    failure: 'DATALAKE_RESTART_FAILED',
    operationName: 'RESTART_INSTANCES',
  },
  renewCertificate: {
    phases: [['CERT_RENEWAL_IN_PROGRESS', 3]],
    success: 'RUNNING',
    failure: 'CERT_RENEWAL_FAILED',
    operationName: 'CERTIFICATE_RENEWAL',
  },
  rotateCertificates: {
    phases: [['CERT_ROTATION_IN_PROGRESS', 4]],
    success: 'RUNNING',
    failure: 'CERT_ROTATION_FAILED',
    operationName: 'CERTIFICATE_ROTATION',
  },
  rotateDbCertificate: {
    phases: [['DATABASE_CERT_ROTATION_IN_PROGRESS', 3]],
    success: 'RUNNING',
    failure: 'DATABASE_CERT_ROTATION_FAILED',
    operationName: 'DATABASE_CERTIFICATE_ROTATION',
  },
  rotateSecrets: {
    phases: [['SECRET_ROTATION_IN_PROGRESS', 3]],
    success: 'RUNNING',
    failure: 'SECRET_ROTATION_FAILED',
    operationName: 'SECRET_ROTATION',
  },
  javaVersion: {
    phases: [['CHANGE_JAVA_VERSION_IN_PROGRESS', 5]],
    success: 'RUNNING',
    failure: 'CHANGE_JAVA_VERSION_FAILED',
    operationName: 'SET_DEFAULT_JAVA_VERSION',
  },
  dns: {
    phases: [['PUBLIC_DNS_UPDATE_IN_PROGRESS', 1]],
    success: 'RUNNING',
    failure: 'PUBLIC_DNS_UPDATE_FAILED',
    operationName: 'UPDATE_PUBLIC_DNS',
  },
  imds: { phases: [['IMDS_UPDATE_IN_PROGRESS', 2]], success: 'RUNNING', failure: 'IMDS_UPDATE_FAILED', operationName: 'UPDATE_IMDS' },
  sync: {
    phases: [['SYNC_COMPONENT_VERSIONS_IN_PROGRESS', 1]],
    success: 'RUNNING',
    failure: 'SYNC_COMPONENT_VERSIONS_FAILED',
    operationName: 'SYNC',
  },
  orchestrator: {
    phases: [['SALT_UPDATE_IN_PROGRESS', 2]],
    success: 'RUNNING',
    failure: 'SALT_UPDATE_FAILED',
    operationName: 'SALT_UPDATE',
  },
  migrateSkus: {
    phases: [['SKU_MIGRATION_IN_PROGRESS', 4]],
    success: 'RUNNING',
    failure: 'SKU_MIGRATION_FAILED',
    operationName: 'SKU_MIGRATION',
  },
};

function newOperation(ctx: RequestContext, lake: LakeRec, name: string, minutes: number, fail: boolean): OperationRec {
  const op: OperationRec = {
    operationId: uuid(),
    operationName: name,
    lakeId: lake.id,
    tl: timeline(ctx.clock.now(), [
      ['RUNNING', minutes],
      [fail ? 'FAILED' : 'FINISHED', 0],
    ]),
  };
  ctx.store.put(KIND.operation, op.operationId, op, { parent: lake.id });
  return op;
}

/** Starts an action on a lake: its status timeline and its operation. */
function begin(ctx: RequestContext, lake: LakeRec, action: string, effect?: Doc, opts: { fail?: boolean; minutes?: number } = {}): string {
  const spec = ACTIONS[action];
  if (!spec) throw new Error(`unknown action ${action}`);
  const fail = opts.fail ?? lake.fail;
  const phases = opts.minutes !== undefined ? spec.phases.map(([s], i) => [s, i === 0 ? (opts.minutes ?? 0) : 0] as const) : spec.phases;
  const tl = timeline(ctx.clock.now(), [...phases, [fail ? spec.failure : spec.success, 0]]);
  const op = newOperation(ctx, lake, spec.operationName, minutesOf(tl), fail);
  lake.activity = {
    action,
    operationId: op.operationId,
    tl,
    success: spec.success,
    failure: spec.failure,
    effect,
    reason: fail
      ? `${spec.operationName.toLowerCase().replace(/_/g, ' ')} failed on purpose: the data lake name starts with "fail-"`
      : undefined,
  };
  save(ctx, lake);
  return op.operationId;
}

// ---- views -----------------------------------------------------------------

function instanceStatus(status: string): string {
  if (status === 'RUNNING' || status.endsWith('_IN_PROGRESS'))
    return status.startsWith('STACK_CREATION') ? 'REQUESTED' : 'SERVICES_HEALTHY';
  if (status === 'STOPPED') return 'STOPPED';
  if (status === 'REQUESTED' || status.startsWith('EXTERNAL_DATABASE_CREATION')) return 'REQUESTED';
  if (status === 'PROVISIONING_FAILED') return 'ORCHESTRATION_FAILED';
  if (status.startsWith('DELETE') || status.startsWith('STACK_DELETION')) return 'DELETE_REQUESTED';
  return 'SERVICES_UNHEALTHY';
}

function certState(ctx: RequestContext, lake: LakeRec): string {
  const age = ctx.clock.now() - lake.certIssuedAt;
  return age > (CERT_LIFETIME_DAYS - CERT_WARNING_DAYS) * 86_400_000 ? 'HOST_CERT_EXPIRING' : 'VALID';
}

function statusReason(ctx: RequestContext, lake: LakeRec, status: string): string {
  if (status === lake.activity.failure) return lake.activity.reason ?? `${lake.activity.action} failed`;
  if (status === 'RUNNING') return 'Datalake is running';
  if (status === 'STOPPED') return 'Datalake is stopped';
  return `${lake.activity.action} in progress`;
}

function imageInfo(lake: LakeRec): Doc {
  const img = IMAGES.find((i) => i.imageId === lake.imageId);
  return imageDoc(img ?? IMAGES[0]!, lake.catalogName);
}

function imageDoc(img: Image, catalog = CATALOG): Doc {
  return {
    imageName: `cdp-${img.runtime}-${img.index}`,
    imageId: img.imageId,
    imageCatalogName: catalog,
    created: img.created,
    componentVersions: {
      cm: img.cm,
      cmGBN: String(40_000_000 + imageOrder(img) * 1000),
      cdp: img.runtime,
      cdpGBN: String(50_000_000 + imageOrder(img) * 1000),
      os: 'redhat8',
      osPatchLevel: `2024-0${img.index + 1}`,
    },
  };
}

export function listItem(ctx: RequestContext, lake: LakeRec): Doc {
  const status = statusOf(ctx, lake);
  return {
    datalakeName: lake.datalakeName,
    crn: lake.crn,
    status,
    environmentCrn: lake.environmentCrn,
    creationDate: iso(lake.createdAt),
    statusReason: statusReason(ctx, lake, status),
    enableRangerRaz: lake.enableRangerRaz,
    certificateExpirationState: certState(ctx, lake),
    multiAz: lake.multiAz,
    tags: lake.tags,
  };
}

export function details(ctx: RequestContext, lake: LakeRec): Doc {
  const status = statusOf(ctx, lake);
  const running = status === 'RUNNING';
  const iStatus = instanceStatus(status);
  const cm = RUNTIMES.find((r) => r.runtime === lake.runtime)?.cm ?? '7.12.0';
  const gateway = `https://${lake.datalakeName}-gateway.${lake.datalakeName}.xcu2-8y8x.cloudera.site`;
  return {
    crn: lake.crn,
    datalakeName: lake.datalakeName,
    status,
    shape: lake.shape,
    environmentCrn: lake.environmentCrn,
    credentialCrn: lake.credentialCrn,
    cloudPlatform: lake.cloudPlatform,
    instanceGroups: lake.groups.map((g) => ({
      name: g.name,
      recipes: g.recipes,
      availabilityZones: [...new Set(g.instances.map((i) => i.availabilityZone))],
      instances: g.instances.map((i) => ({
        id: i.id,
        state: running ? 'HEALTHY' : iStatus === 'STOPPED' ? 'STOPPED' : 'UNHEALTHY',
        discoveryFQDN: i.discoveryFQDN,
        instanceStatus: iStatus,
        privateIp: i.privateIp,
        sshPort: 22,
        clouderaManagerServer: i.clouderaManagerServer,
        instanceGroup: g.name,
        instanceTypeVal: i.clouderaManagerServer ? 'GATEWAY_PRIMARY' : g.name === 'master' || g.name === 'gateway' ? 'GATEWAY' : 'CORE',
        attachedVolumes: [i.volumes],
        availabilityZone: i.availabilityZone,
        instanceVmType: i.instanceVmType,
        subnetId: i.subnetId,
      })),
    })),
    creationDate: iso(lake.createdAt),
    clouderaManager: {
      version: cm,
      clouderaManagerRepositoryURL: `https://archive.cloudera.com/p/cm7/${cm}/redhat8/yum/`,
      clouderaManagerServerURL: `${gateway}/${lake.datalakeName}/cdp-proxy/cmf/home/`,
    },
    productVersions: [
      { name: 'CDH', version: `${lake.runtime}-1.cdh${lake.runtime}.p0` },
      { name: 'CM', version: cm },
    ],
    region: lake.region,
    statusReason: statusReason(ctx, lake, status),
    ...(lake.cloudPlatform === 'AWS' ? { awsConfiguration: { instanceProfile: lake.identity } } : {}),
    ...(lake.cloudPlatform === 'AZURE' ? { azureConfiguration: { managedIdentity: lake.identity } } : {}),
    ...(lake.cloudPlatform === 'GCP' ? { gcpConfiguration: { serviceAccountEmail: lake.identity } } : {}),
    endpoints: {
      endpoints: ['CM-UI', 'RANGER', 'ATLAS', 'SOLR'].map((svc) => ({
        serviceName: svc,
        serviceUrl: `${gateway}/${lake.datalakeName}/cdp-proxy/${svc.toLowerCase()}/`,
        displayName: svc,
        knoxService: svc,
        mode: 'PAM',
        open: running,
      })),
    },
    cloudStorageBaseLocation: lake.storage,
    enableRangerRaz: lake.enableRangerRaz,
    imageDetails: imageInfo(lake),
    tags: lake.tags,
  };
}

// ---- creation and lifecycle ------------------------------------------------

export function createLake(ctx: RequestContext, req: Doc, platform: LakeRec['cloudPlatform'], gov = false): Doc {
  const name = String(req.datalakeName);
  const existing = tryLake(ctx, name);
  if (existing) throw alreadyExists(`a data lake named ${name} already exists`);
  const env = requireEnvironment(ctx, String(req.environmentName));
  const envGov = env.region.startsWith('us-gov-');
  if (env.cloudPlatform !== platform || envGov !== gov) {
    const kind = (p: string, g: boolean): string => (g ? 'AWS GovCloud' : p);
    throw invalid(
      `environment ${env.environmentName} is an ${kind(env.cloudPlatform, envGov)} environment; a ${kind(platform, gov)} data lake needs one of its own platform`,
    );
  }
  const cfg = (req.cloudProviderConfiguration ?? {}) as Doc;
  const image = (req.image ?? {}) as Doc;
  let runtime = str(req.runtime);
  let img: Image | undefined;
  if (str(image.id)) {
    img = IMAGES.find((i) => i.imageId === image.id);
    if (!img) throw invalid(`image ${String(image.id)} is not in the image catalog ${str(image.catalogName) ?? CATALOG}`);
    if (runtime && runtime !== img.runtime) throw invalid(`image ${img.imageId} is for runtime ${img.runtime}, not ${runtime}`);
    runtime = img.runtime;
  }
  runtime ??= DEFAULT_RUNTIME;
  if (!RUNTIMES.some((r) => r.runtime === runtime))
    throw invalid(`runtime ${runtime} is not supported; choose one of ${RUNTIMES.map((r) => r.runtime).join(', ')}`);
  img ??= IMAGES.filter((i) => i.runtime === runtime).pop();
  const shape = (str(req.scale) ?? 'LIGHT_DUTY') as Shape;
  const multiAz = bool(req.multiAz);
  const region = env.region;
  const groups = makeGroups(name, shape, platform, region, multiAz);
  const custom = Array.isArray(req.customInstanceGroups) ? (req.customInstanceGroups as Doc[]) : [];
  for (const c of custom) {
    const g = groups.find((x) => x.name === c.name);
    if (!g) throw invalid(`instance group ${String(c.name)} is not part of a ${shape} data lake`);
    if (str(c.instanceType)) for (const i of g.instances) i.instanceVmType = String(c.instanceType);
  }
  for (const r of Array.isArray(req.recipes) ? (req.recipes as Doc[]) : []) {
    const g = groups.find((x) => x.name === r.instanceGroupName);
    if (!g) throw invalid(`recipes name instance group ${String(r.instanceGroupName)}, which a ${shape} data lake does not have`);
    g.recipes = Array.isArray(r.recipeNames) ? (r.recipeNames as string[]) : [];
  }
  const id = uuid();
  const now = ctx.clock.now();
  const lake: LakeRec = {
    id,
    crn: crn('datalake', ctx.info.region, ctx.info.accountId, 'datalake', id),
    datalakeName: name,
    environmentName: env.environmentName,
    environmentCrn: env.crn,
    credentialCrn: crn('environments', ctx.info.region, ctx.info.accountId, 'credential', hashId(`cred:${env.credentialName}`)),
    cloudPlatform: platform,
    gov,
    region,
    createdAt: now,
    shape,
    runtime,
    imageId: img?.imageId ?? '',
    catalogName: str(image.catalogName) ?? CATALOG,
    enableRangerRaz: bool(req.enableRangerRaz),
    multiAz,
    tags: Array.isArray(req.tags) ? (req.tags as Array<{ key: string; value: string }>) : [],
    groups,
    storage: String(cfg.storageBucketLocation ?? cfg.storageLocation ?? ''),
    identity: String(cfg.instanceProfile ?? cfg.managedIdentity ?? cfg.serviceAccountEmail ?? ''),
    javaVersion: typeof req.javaVersion === 'number' ? req.javaVersion : 8,
    databaseVersion: 'VERSION_11',
    imds: 'v1',
    sku: platform === 'AZURE' ? String(req.loadBalancerSku ?? 'STANDARD') : 'NONE',
    certIssuedAt: now,
    fail: name.startsWith('fail-'),
    activity: {
      action: 'create',
      operationId: '',
      tl: timeline(now, [['REQUESTED', 0]]),
      success: 'RUNNING',
      failure: 'PROVISIONING_FAILED',
    },
  };
  ctx.store.put(KIND.lake, lake.id, lake, { name: lake.datalakeName, crn: lake.crn });
  const operationId = begin(ctx, lake, 'create');
  return { datalake: listItem(ctx, lake), operationId };
}

export function deleteLake(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  const status = statusOf(ctx, lake);
  if (lake.activity.action === 'delete' && !stateAt(lake.activity.tl, ctx.clock.now()).done)
    throw failedPrecondition(`data lake ${lake.datalakeName} is already being deleted`);
  const force = bool(req.force);
  const busy = !stateAt(lake.activity.tl, ctx.clock.now()).done;
  if (busy && !force) throw failedPrecondition(`data lake ${lake.datalakeName} is ${status}; wait for it to finish or delete with --force`);
  const operationId = begin(ctx, lake, 'delete', undefined, { fail: lake.fail && !force });
  return { operationId };
}

export function startLake(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  requireStatus(ctx, lake, ['STOPPED', 'START_FAILED'], 'starting');
  begin(ctx, lake, 'start');
  return {};
}

export function stopLake(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  requireStatus(ctx, lake, ['RUNNING', 'STOP_FAILED'], 'stopping');
  begin(ctx, lake, 'stop');
  return {};
}

export function retryLake(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  const status = statusOf(ctx, lake);
  if (!isFailed(status)) throw failedPrecondition(`data lake ${lake.datalakeName} is ${status}; only a failed operation can be retried`);
  return { operationId: begin(ctx, lake, lake.activity.action, lake.activity.effect) };
}

const RUNNING_ONLY = ['RUNNING'];

/** A simple action on a running lake answering with an operation id. */
export function simpleAction(ctx: RequestContext, ref: unknown, action: string, effect?: Doc, what = action): Doc {
  const lake = getLake(ctx, ref);
  requireStatus(ctx, lake, RUNNING_ONLY, what);
  return { operationId: begin(ctx, lake, action, effect) };
}

export function repairLake(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  requireStatus(ctx, lake, (s) => s === 'RUNNING' || (isFailed(s) && s !== 'DELETE_FAILED'), 'repair');
  const groups = [
    ...(Array.isArray(req.instanceGroupNames) ? (req.instanceGroupNames as string[]) : []),
    ...(str(req.instanceGroupName) ? [String(req.instanceGroupName)] : []),
  ];
  for (const g of groups)
    if (!lake.groups.some((x) => x.name === g)) throw notFound(`data lake ${lake.datalakeName} has no instance group ${g}`);
  const ids = Array.isArray((req.instances as Doc | undefined)?.instanceIds) ? ((req.instances as Doc).instanceIds as string[]) : [];
  for (const id of ids)
    if (!lake.groups.some((g) => g.instances.some((i) => i.id === id)))
      throw notFound(`data lake ${lake.datalakeName} has no instance ${id}`);
  return { operationId: begin(ctx, lake, 'repair') };
}

export function recoverLake(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  requireStatus(ctx, lake, ['DATALAKE_UPGRADE_FAILED', 'RESIZE_FAILED', 'RECOVERY_FAILED'], 'recovery');
  return { operationId: begin(ctx, lake, 'recover') };
}

export function resizeLake(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  requireStatus(ctx, lake, RUNNING_ONLY, 'resizing');
  const target = String(req.targetSize) as Shape;
  const multiAz = bool(req.multiAz);
  if (target === lake.shape && multiAz === lake.multiAz)
    throw failedPrecondition(`data lake ${lake.datalakeName} already has the ${target} shape`);
  const base = {
    datalakeName: lake.datalakeName,
    datalakeCrn: lake.crn,
    environmentCrn: lake.environmentCrn,
    runtime: lake.runtime,
    cloudbreakVersion: '2.92.0-b61',
    tags: lake.tags,
  };
  if (bool(req.validationOnly)) return { ...base, status: 'RUNNING', statusReason: `resize to ${target} is possible` };
  const groups = makeGroups(lake.datalakeName, target, lake.cloudPlatform, lake.region, multiAz);
  for (const t of Array.isArray(req.customInstanceTypes) ? (req.customInstanceTypes as Doc[]) : []) {
    const g = groups.find((x) => x.name === t.name);
    if (!g) throw invalid(`a ${target} data lake has no instance group ${String(t.name)}`);
    if (str(t.instanceType)) for (const i of g.instances) i.instanceVmType = String(t.instanceType);
  }
  for (const d of Array.isArray(req.customInstanceDisks) ? (req.customInstanceDisks as Doc[]) : []) {
    const g = groups.find((x) => x.name === d.name);
    if (!g) throw invalid(`a ${target} data lake has no instance group ${String(d.name)}`);
    if (typeof d.diskSize === 'number') for (const i of g.instances) i.volumes = { ...i.volumes, size: d.diskSize };
  }
  for (const g of groups) g.recipes = lake.groups.find((x) => x.name === g.name)?.recipes ?? [];
  const operationId = begin(ctx, lake, 'resize', { shape: target, multiAz, groups });
  return { ...base, status: statusOf(ctx, lake), statusReason: `resizing to ${target}`, operationId };
}

// ---- upgrades --------------------------------------------------------------

function candidates(lake: LakeRec, opts: { runtime?: string; lock?: boolean }): Image[] {
  const cur = IMAGES.find((i) => i.imageId === lake.imageId);
  const curOrder = cur ? imageOrder(cur) : -1;
  return IMAGES.filter((i) => imageOrder(i) > curOrder)
    .filter((i) => (opts.lock ? i.runtime === lake.runtime : true))
    .filter((i) => (opts.runtime ? i.runtime === opts.runtime : true));
}

export function upgradeLake(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  const lock = bool(req.lockComponents);
  let list = candidates(lake, { runtime: str(req.runtime), lock });
  if (str(req.runtime) && !RUNTIMES.some((r) => r.runtime === req.runtime))
    throw invalid(`runtime ${String(req.runtime)} is not supported`);
  if (str(req.imageId)) list = list.filter((i) => i.imageId === req.imageId);
  if (bool(req.showLatestAvailableImagePerRuntime))
    list = RUNTIMES.map((r) => list.filter((i) => i.runtime === r.runtime).pop()).filter((i): i is Image => !!i);
  const base = { current: imageInfo(lake), upgradeCandidates: list.map((i) => imageDoc(i, lake.catalogName)) };
  const reason =
    list.length === 0
      ? str(req.imageId)
        ? `image ${String(req.imageId)} is not an upgrade candidate`
        : 'no newer image is available'
      : undefined;
  if (bool(req.showAvailableImages) || bool(req.showLatestAvailableImagePerRuntime)) return { ...base, ...(reason ? { reason } : {}) };
  if (bool(req.dryRun)) return { ...base, reason: reason ?? 'the upgrade can run' };
  if (reason) throw failedPrecondition(`cannot upgrade data lake ${lake.datalakeName}: ${reason}`);
  requireStatus(ctx, lake, RUNNING_ONLY, 'upgrading');
  const target = list[list.length - 1]!;
  const operationId = begin(ctx, lake, 'upgrade', { imageId: target.imageId, runtime: target.runtime });
  return { ...base, upgradeCandidates: [imageDoc(target, lake.catalogName)], operationId };
}

export function prepareUpgrade(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalake);
  let list = candidates(lake, { runtime: str(req.runtime) });
  if (str(req.imageId)) list = list.filter((i) => i.imageId === req.imageId);
  const base = { current: imageInfo(lake), upgradeCandidates: list.map((i) => imageDoc(i, lake.catalogName)) };
  if (list.length === 0) return { ...base, reason: 'no upgrade candidate matches; nothing to prepare' };
  requireStatus(ctx, lake, RUNNING_ONLY, 'preparing an upgrade');
  return { ...base, operationId: begin(ctx, lake, 'prepareUpgrade') };
}

const DB_VERSIONS = ['VERSION_11', 'VERSION_14', 'VERSION_17'];

export function databaseUpgrade(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalake);
  const target = str(req.targetVersion) ?? DB_VERSIONS[DB_VERSIONS.length - 1]!;
  if (DB_VERSIONS.indexOf(target) < DB_VERSIONS.indexOf(lake.databaseVersion))
    throw failedPrecondition(`the database server is at ${lake.databaseVersion}; it cannot go back to ${target}`);
  if (target === lake.databaseVersion && !bool(req.force))
    throw failedPrecondition(`the database server is already at ${target}; use --force to run the upgrade again`);
  requireStatus(ctx, lake, RUNNING_ONLY, 'a database upgrade');
  return { targetVersion: target, operationId: begin(ctx, lake, 'databaseUpgrade', { databaseVersion: target }) };
}

// ---- scaling and instances -------------------------------------------------

export function scaleHorizontally(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  requireStatus(ctx, lake, RUNNING_ONLY, 'scaling');
  const groupName = String(req.instanceGroupName);
  if (!SCALE_OUT_GROUPS.includes(groupName)) throw invalid(`${groupName} is not a scale-out instance group`);
  const count = Number(req.instanceGroupDesiredCount);
  const groups = lake.groups.map((g) => ({ ...g, instances: [...g.instances] }));
  let group = groups.find((g) => g.name === groupName);
  if (!group) {
    group = { name: groupName, instances: [], recipes: [] };
    groups.push(group);
  }
  const type = groupName === 'storage_scale_out' ? 'r5.2xlarge' : 'm5.2xlarge';
  while (group.instances.length < count)
    group.instances.push(
      makeInstance(lake.datalakeName, groupName, group.instances.length, type, lake.cloudPlatform, lake.region, lake.multiAz, false),
    );
  group.instances.length = count;
  return { datalakeName: lake.datalakeName, operationId: begin(ctx, lake, 'scaleHorizontal', { groups }) };
}

export function scaleVertically(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalake);
  requireStatus(ctx, lake, RUNNING_ONLY, 'vertical scaling');
  const groupName = String(req.group);
  const groups = structuredClone(lake.groups);
  const group = groups.find((g) => g.name === groupName);
  if (!group) throw notFound(`data lake ${lake.datalakeName} has no instance group ${groupName}`);
  const type = str((req.instanceTemplate as Doc | undefined)?.instanceType);
  const disks = req.diskOptions as Doc | undefined;
  const modify = disks?.modifyDisks as Doc | undefined;
  const add = disks?.addDisks as Doc | undefined;
  for (const i of group.instances) {
    if (type) i.instanceVmType = type;
    if (modify && typeof modify.size === 'number')
      i.volumes = { ...i.volumes, size: modify.size, volumeType: str(modify.volumeType) ?? i.volumes.volumeType };
    if (add && typeof add.numberOfDisks === 'number') i.volumes = { ...i.volumes, count: i.volumes.count + add.numberOfDisks };
  }
  const operationId = begin(ctx, lake, 'scaleVertical', { groups });
  return { result: `scaling instance group ${groupName}`, operationId };
}

export function restartInstances(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  const ids = (req.instances as string[]) ?? [];
  for (const id of ids)
    if (!lake.groups.some((g) => g.instances.some((i) => i.id === id)))
      throw notFound(`data lake ${lake.datalakeName} has no instance ${id}`);
  requireStatus(ctx, lake, RUNNING_ONLY, 'restarting instances');
  return { operationId: begin(ctx, lake, 'restart') };
}

export function replaceRecipes(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalake);
  const attached: Doc[] = [];
  const detached: Doc[] = [];
  for (const r of (req.instanceGroupRecipes as Doc[]) ?? []) {
    const g = lake.groups.find((x) => x.name === r.instanceGroupName);
    if (!g) throw notFound(`data lake ${lake.datalakeName} has no instance group ${String(r.instanceGroupName)}`);
    const next = [...new Set(Array.isArray(r.recipeNames) ? (r.recipeNames as string[]) : [])];
    const add = next.filter((n) => !g.recipes.includes(n));
    const drop = g.recipes.filter((n) => !next.includes(n));
    if (add.length) attached.push({ instanceGroupName: g.name, recipeNames: add });
    if (drop.length) detached.push({ instanceGroupName: g.name, recipeNames: drop });
    g.recipes = next;
  }
  save(ctx, lake);
  return { attachedRecipes: attached, detachedRecipes: detached };
}

// ---- operations ------------------------------------------------------------

function operationView(ctx: RequestContext, op: OperationRec): Doc {
  const st = stateAt(op.tl, ctx.clock.now());
  const cancelled = op.cancelledAt !== undefined && (!st.done || op.cancelledAt < op.tl.startedAt + (op.tl.steps[1]?.afterMs ?? 0));
  const status = cancelled ? 'CANCELLED' : st.state;
  const ended = cancelled ? op.cancelledAt : st.done ? op.tl.startedAt + (op.tl.steps[1]?.afterMs ?? 0) : undefined;
  return {
    operationId: op.operationId,
    operationName: op.operationName,
    operationStatus: status,
    started: iso(op.tl.startedAt),
    ...(ended !== undefined ? { ended: iso(ended) } : {}),
  };
}

export function getOperation(ctx: RequestContext, req: Doc): Doc {
  const ref = str(req.datalakeName) ?? str(req.crn);
  const lake = ref ? tryLake(ctx, ref) : undefined;
  const id = str(req.operationId);
  if (id) {
    const op = ctx.store.get<OperationRec>(KIND.operation, id);
    if (!op || (lake && op.lakeId !== lake.id))
      throw notFound(`operation ${id} not found${lake ? ` for data lake ${lake.datalakeName}` : ''}`);
    return operationView(ctx, op);
  }
  if (!lake) throw notFound(`data lake ${ref ?? ''} not found`);
  const ops = ctx.store.children<OperationRec>(KIND.operation, lake.id);
  const last = ops[ops.length - 1];
  if (!last) throw notFound(`data lake ${lake.datalakeName} has no operations`);
  return operationView(ctx, last.doc);
}

// ---- backup and restore ----------------------------------------------------

type Stage = readonly [StagePlan['section'], string, number];

function plan(stages: ReadonlyArray<Stage & { 3?: boolean }>, skip: (s: Stage) => boolean): StagePlan[] {
  let t = 0;
  return stages.map((s) => {
    const skipped = skip(s);
    const p: StagePlan = { section: s[0], name: s[1], start: t, minutes: s[2], skipped };
    if (!skipped) t += s[2];
    return p;
  });
}

function backupStages(req: Doc, validationOnly: boolean): StagePlan[] {
  const stages: Stage[] = [
    ['adminOperations', 'precheckStoragePermission', 0.25],
    ['adminOperations', 'rangerAuditCollectionValidation', 0.25],
    ...(validationOnly ? ([['adminOperations', 'dryRunValidation', 0.5]] as Stage[]) : []),
    ['adminOperations', 'stopServices', 0.25],
    ['database', 'database', 1.25],
    ['hbase', 'atlasEntityAuditEventTable', 0.75],
    ['hbase', 'atlasJanusTable', 0.75],
    ['solr', 'edgeIndexCollection', 0.25],
    ['solr', 'fulltextIndexCollection', 0.25],
    ['solr', 'rangerAuditsCollection', 0.5],
    ['solr', 'vertexIndexCollection', 0.25],
    ['adminOperations', 'startServices', 0.25],
  ];
  return plan(stages, ([section, name]) => {
    if (validationOnly) return !(section === 'adminOperations' && name !== 'stopServices' && name !== 'startServices');
    if (name === 'precheckStoragePermission' || name === 'rangerAuditCollectionValidation') return bool(req.skipValidation);
    if (name === 'stopServices' || name === 'startServices') return req.closeDbConnections === false;
    if (section === 'database') return bool(req.skipRangerHmsMetadata);
    if (section === 'hbase') return bool(req.skipAtlasMetadata);
    if (name === 'rangerAuditsCollection') return bool(req.skipRangerAudits);
    if (section === 'solr') return bool(req.skipAtlasIndexes);
    return false;
  });
}

function restoreStages(req: Doc, validationOnly: boolean): StagePlan[] {
  const solr: Stage[] = ['edgeIndexCollection', 'fulltextIndexCollection', 'rangerAuditsCollection', 'vertexIndexCollection'].flatMap(
    (c) =>
      [
        ['solr', `${c}Delete`, 0.25],
        ['solr', c, c === 'rangerAuditsCollection' ? 0.5 : 0.25],
      ] as Stage[],
  );
  const stages: Stage[] = [
    ['adminOperations', 'precheckStoragePermission', 0.25],
    ['adminOperations', 'rangerAuditCollectionValidation', 0.25],
    ...(validationOnly ? ([['adminOperations', 'dryRunValidation', 0.5]] as Stage[]) : []),
    ['adminOperations', 'stopServices', 0.25],
    ['database', 'database', 1.25],
    ['hbase', 'atlasEntityAuditEventTable', 0.75],
    ['hbase', 'atlasJanusTable', 0.75],
    ...solr,
    ['adminOperations', 'startServices', 0.25],
  ];
  return plan(stages, ([section, name]) => {
    if (validationOnly) return !(section === 'adminOperations' && name !== 'stopServices' && name !== 'startServices');
    if (name === 'precheckStoragePermission' || name === 'rangerAuditCollectionValidation') return bool(req.skipValidation);
    if (section === 'database') return bool(req.skipRangerHmsMetadata);
    if (section === 'hbase') return bool(req.skipAtlasMetadata);
    if (name.startsWith('rangerAuditsCollection')) return bool(req.skipRangerAudits);
    if (section === 'solr') return bool(req.skipAtlasIndexes);
    return false;
  });
}

const totalMinutes = (r: BrRec): number => r.stages.filter((s) => !s.skipped).reduce((a, s) => Math.max(a, s.start + s.minutes), 0);
const lastStage = (r: BrRec): StagePlan | undefined => r.stages.filter((s) => !s.skipped).pop();
const SUCCESS_OF = (r: BrRec): string => (r.validationOnly ? 'VALIDATION_SUCCESSFUL' : 'SUCCESSFUL');
const FAILURE_OF = (r: BrRec): string => (r.validationOnly ? 'VALIDATION_FAILED' : 'FAILED');

/** The status of a backup or restore at a time, with when it ended. */
function brStatus(r: BrRec, now: number): { status: string; endAt?: number; running?: StagePlan } {
  const elapsed = (now - r.startedAt) / MINUTE;
  const total = totalMinutes(r);
  if (r.cancel) return { status: 'CANCELLED', endAt: r.cancel.at };
  if (elapsed >= total) return { status: r.fail ? FAILURE_OF(r) : SUCCESS_OF(r), endAt: r.startedAt + total * MINUTE };
  const running = r.stages.find((s) => !s.skipped && elapsed >= s.start && elapsed < s.start + s.minutes);
  return { status: elapsed < 0.5 ? 'STARTED' : 'IN_PROGRESS', running };
}

function stageStatus(r: BrRec, s: StagePlan, now: number): Doc {
  const predicted = String(s.minutes);
  if (s.skipped) return { status: 'SKIPPED', predictedDurationInMinutes: '0' };
  const startAt = r.startedAt + s.start * MINUTE;
  const endAt = startAt + s.minutes * MINUTE;
  const failing = r.fail && s === lastStage(r);
  if (r.cancel) {
    const c = r.cancel.at;
    if (startAt > c) return { status: 'CANCELLED', predictedDurationInMinutes: predicted };
    if (endAt > c && r.cancel.force) return { status: 'CANCELLED', predictedDurationInMinutes: predicted };
  }
  if (now < startAt) return { status: 'INIT', predictedDurationInMinutes: predicted };
  if (now < endAt) return { status: 'IN_PROGRESS', predictedDurationInMinutes: predicted };
  return {
    status: failing ? 'FAILED' : 'SUCCESSFUL',
    durationInMinutes: String(s.minutes),
    predictedDurationInMinutes: predicted,
    ...(failing ? { failureReason: failReason(r) } : {}),
  };
}

function failReason(r: BrRec): string {
  return r.kind === 'backup'
    ? `writing to ${r.backupLocation} failed (the backup name starts with "fail-")`
    : `reading the backup from ${r.backupLocation} failed (the location contains "fail-")`;
}

function brView(ctx: RequestContext, r: BrRec, withPrediction: boolean): Doc {
  const now = ctx.clock.now();
  const { status, endAt, running } = brStatus(r, now);
  const states: Record<string, Record<string, Doc>> = { adminOperations: {}, hbase: {}, solr: {}, database: {} };
  for (const s of r.stages) states[s.section]![s.name] = stageStatus(r, s, now);
  // Required stage entries a plan left out (validation-only runs have no data stages).
  for (const name of ['stopServices', 'startServices', 'precheckStoragePermission', 'rangerAuditCollectionValidation'])
    states.adminOperations![name] ??= { status: 'SKIPPED' };
  for (const name of ['atlasEntityAuditEventTable', 'atlasJanusTable']) states.hbase![name] ??= { status: 'SKIPPED' };
  for (const name of ['edgeIndexCollection', 'fulltextIndexCollection', 'rangerAuditsCollection', 'vertexIndexCollection'])
    states.solr![name] ??= { status: 'SKIPPED' };
  states.database!.database ??= { status: 'SKIPPED' };
  const failed = status === 'FAILED' || status === 'VALIDATION_FAILED';
  return {
    accountId: r.accountId,
    ...(r.restoreId ? { restoreId: r.restoreId } : {}),
    backupId: r.backupId,
    userCrn: r.userCrn,
    internalState: running ? `${running.section}.${running.name}: IN_PROGRESS` : status,
    status,
    startTime: iso(r.startedAt),
    endTime: endAt !== undefined ? iso(endAt) : '',
    backupLocation: r.backupLocation,
    operationStates: states,
    runtimeVersion: r.runtimeVersion,
    ...(r.backupName !== undefined ? { backupName: r.backupName } : {}),
    ...(failed
      ? { failureReason: failReason(r) }
      : status === 'CANCELLED'
        ? { failureReason: `cancelled${r.cancel?.force ? ' (forced)' : ''}` }
        : {}),
    ...(withPrediction ? { totalPredictedDurationInMinutes: String(totalMinutes(r)) } : {}),
  };
}

function busyWithBackupOrRestore(ctx: RequestContext, lake: LakeRec): BrRec | undefined {
  const now = ctx.clock.now();
  for (const kind of [KIND.backup, KIND.restore]) {
    for (const { doc } of ctx.store.children<BrRec>(kind, lake.id)) {
      const s = brStatus(doc, now).status;
      if (s === 'STARTED' || s === 'IN_PROGRESS') return doc;
    }
  }
  return undefined;
}

export function backup(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  requireStatus(ctx, lake, RUNNING_ONLY, 'a backup');
  const busy = busyWithBackupOrRestore(ctx, lake);
  if (busy) throw failedPrecondition(`data lake ${lake.datalakeName} is busy with ${busy.kind} ${busy.restoreId ?? busy.backupId}`);
  const validationOnly = bool(req.validationOnly);
  const name = str(req.backupName);
  const id = uuid();
  const rec: BrRec = {
    kind: 'backup',
    id,
    backupId: id,
    backupName: name,
    lakeId: lake.id,
    datalakeName: lake.datalakeName,
    accountId: ctx.info.accountId,
    userCrn: ctx.caller.actorCrn,
    backupLocation: `${str(req.backupLocation) ?? `${lake.storage.replace(/\/$/, '')}/backups`}/${id}`,
    runtimeVersion: lake.runtime,
    startedAt: ctx.clock.now(),
    stages: backupStages(req, validationOnly),
    validationOnly,
    fail: name?.startsWith('fail-') ?? false,
  };
  ctx.store.put(KIND.backup, id, rec, { parent: lake.id });
  return brView(ctx, rec, false);
}

function findBackup(ctx: RequestContext, lake: LakeRec, req: Doc): BrRec {
  const id = str(req.backupId);
  if (id) {
    const rec = ctx.store.get<BrRec>(KIND.backup, id);
    if (!rec || rec.lakeId !== lake.id) throw notFound(`backup ${id} of data lake ${lake.datalakeName} not found`);
    return rec;
  }
  const all = ctx.store.children<BrRec>(KIND.backup, lake.id).map((r) => r.doc);
  const name = str(req.backupName);
  const hit = (name ? all.filter((b) => b.backupName === name) : all).pop();
  if (!hit)
    throw notFound(name ? `backup ${name} of data lake ${lake.datalakeName} not found` : `data lake ${lake.datalakeName} has no backups`);
  return hit;
}

export function backupStatus(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  return brView(ctx, findBackup(ctx, lake, req), true);
}

export function listBackups(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  return {
    backups: ctx.store.children<BrRec>(KIND.backup, lake.id).map(({ doc }) => {
      const v = brView(ctx, doc, false);
      return {
        backupName: doc.backupName ?? '',
        accountId: v.accountId,
        userCrn: v.userCrn,
        backupId: v.backupId,
        internalState: v.internalState,
        status: v.status,
        startTime: v.startTime,
        endTime: v.endTime,
        backupLocation: v.backupLocation,
        failureReason: v.failureReason ?? '',
      };
    }),
  };
}

function cancelBr(ctx: RequestContext, kind: string, id: string, force: boolean, what: string): Doc {
  const rec = ctx.store.get<BrRec>(kind, id);
  if (!rec) throw notFound(`${what} ${id} not found`);
  const now = ctx.clock.now();
  const { status } = brStatus(rec, now);
  if (status !== 'STARTED' && status !== 'IN_PROGRESS')
    throw failedPrecondition(`${what} ${id} is ${status}; only a ${what} that is STARTED or IN_PROGRESS can be cancelled`);
  rec.cancel = { at: now, force };
  ctx.store.put(kind, id, rec, { parent: rec.lakeId });
  return {
    result: force
      ? `${what} ${id} cancelled; unfinished steps were marked cancelled`
      : `${what} ${id} cancelled; pending steps were marked cancelled`,
  };
}

export function cancelBackup(ctx: RequestContext, req: Doc): Doc {
  return cancelBr(ctx, KIND.backup, String(req.backupId), bool(req.force), 'backup');
}

export function cancelRestore(ctx: RequestContext, req: Doc): Doc {
  return cancelBr(ctx, KIND.restore, String(req.restoreId), bool(req.force), 'restore');
}

export function restore(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  requireStatus(ctx, lake, RUNNING_ONLY, 'a restore');
  const busy = busyWithBackupOrRestore(ctx, lake);
  if (busy) throw failedPrecondition(`data lake ${lake.datalakeName} is busy with ${busy.kind} ${busy.restoreId ?? busy.backupId}`);
  let source: BrRec;
  const backupId = str(req.backupId);
  if (backupId) {
    // A backup id may name a backup of another lake (moving metadata between lakes).
    const rec = ctx.store.get<BrRec>(KIND.backup, backupId);
    if (!rec) throw notFound(`backup ${backupId} not found`);
    source = rec;
  } else if (str(req.backupName)) {
    source = findBackup(ctx, lake, { backupName: req.backupName });
  } else {
    const ok = ctx.store
      .children<BrRec>(KIND.backup, lake.id)
      .map((r) => r.doc)
      .filter((b) => brStatus(b, ctx.clock.now()).status === 'SUCCESSFUL')
      .pop();
    if (!ok) throw failedPrecondition(`data lake ${lake.datalakeName} has no successful backup to restore`);
    source = ok;
  }
  const sourceStatus = brStatus(source, ctx.clock.now()).status;
  if (sourceStatus !== 'SUCCESSFUL')
    throw failedPrecondition(`backup ${source.backupId} is ${sourceStatus}; only a SUCCESSFUL backup can be restored`);
  const validationOnly = bool(req.validationOnly);
  const location = str(req.backupLocationOverride) ?? source.backupLocation;
  const id = uuid();
  const rec: BrRec = {
    kind: 'restore',
    id,
    backupId: source.backupId,
    restoreId: id,
    backupName: source.backupName,
    lakeId: lake.id,
    datalakeName: lake.datalakeName,
    accountId: ctx.info.accountId,
    userCrn: ctx.caller.actorCrn,
    backupLocation: location,
    runtimeVersion: source.runtimeVersion,
    startedAt: ctx.clock.now(),
    stages: restoreStages(req, validationOnly),
    validationOnly,
    fail: location.includes('fail-'),
  };
  ctx.store.put(KIND.restore, id, rec, { parent: lake.id });
  return brView(ctx, rec, false);
}

export function restoreStatus(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  const id = str(req.restoreId);
  let rec: BrRec | undefined;
  if (id) {
    rec = ctx.store.get<BrRec>(KIND.restore, id);
    if (!rec || rec.lakeId !== lake.id) throw notFound(`restore ${id} of data lake ${lake.datalakeName} not found`);
  } else {
    rec = ctx.store.children<BrRec>(KIND.restore, lake.id).pop()?.doc;
    if (!rec) throw notFound(`data lake ${lake.datalakeName} has no restores`);
  }
  return brView(ctx, rec, true);
}

// ---- diagnostics -----------------------------------------------------------

export function collectDiagnostics(ctx: RequestContext, req: Doc, kind: 'datalake' | 'cm'): Doc {
  const lake = getLake(ctx, req.crn);
  const minutes = kind === 'cm' ? 6 : 4;
  const op = newOperation(ctx, lake, kind === 'cm' ? 'CM_DIAGNOSTICS_COLLECTION' : 'DIAGNOSTICS_COLLECTION', minutes, lake.fail);
  const rec: DiagRec = {
    flowId: op.operationId,
    lakeId: lake.id,
    kind,
    created: ctx.clock.now(),
    minutes,
    destination: String(req.destination),
    description: str(req.description),
    caseNumber: str(req.caseNumber),
    fail: lake.fail,
  };
  ctx.store.put(KIND.diagnostics, rec.flowId, rec, { parent: lake.id });
  return { operationId: op.operationId };
}

export function listDiagnostics(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.crn);
  const now = ctx.clock.now();
  return {
    collections: ctx.store.children<DiagRec>(KIND.diagnostics, lake.id).map(({ doc: d }) => {
      const end = d.created + d.minutes * MINUTE;
      const cancelled = d.cancelledAt !== undefined && d.cancelledAt < end;
      const done = now >= end;
      const status = cancelled ? 'CANCELLED' : done ? (d.fail ? 'FAILED' : 'FINISHED') : 'RUNNING';
      const upTo = cancelled ? (d.cancelledAt ?? now) : now;
      return {
        status,
        flowId: d.flowId,
        flowState: status === 'RUNNING' ? 'SALT_COLLECTION_IN_PROGRESS' : `DIAGNOSTICS_${status}`,
        created: iso(d.created),
        progressPercentage:
          done && !cancelled && !d.fail ? 100 : Math.min(99, Math.floor(((upTo - d.created) / (d.minutes * MINUTE)) * 100)),
        collectionDetails: {
          case: d.caseNumber,
          output:
            d.destination === 'CLOUD_STORAGE'
              ? `${lake.storage.replace(/\/$/, '')}/diagnostics/${d.flowId}.tar.gz`
              : d.destination === 'LOCAL'
                ? `/var/lib/filecollector/${d.flowId}.tar.gz`
                : `support case ${d.caseNumber ?? '(none)'}`,
          destination: d.destination,
          description: d.description,
          accountId: ctx.info.accountId,
          resourceCrn: lake.crn,
          clusterVersion: lake.runtime,
        },
      };
    }),
  };
}

export function cancelDiagnostics(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.crn);
  const now = ctx.clock.now();
  for (const { doc: d } of ctx.store.children<DiagRec>(KIND.diagnostics, lake.id)) {
    if (d.cancelledAt !== undefined || now >= d.created + d.minutes * MINUTE) continue;
    d.cancelledAt = now;
    ctx.store.put(KIND.diagnostics, d.flowId, d, { parent: lake.id });
    const op = ctx.store.get<OperationRec>(KIND.operation, d.flowId);
    if (op) ctx.store.put(KIND.operation, op.operationId, { ...op, cancelledAt: now }, { parent: lake.id });
  }
  return {};
}

// ---- small reads -----------------------------------------------------------

export function listLakes(ctx: RequestContext, req: Doc): Doc {
  const envRef = str(req.environmentName);
  const env = envRef ? requireEnvironment(ctx, envRef).crn : undefined;
  const name = str(req.datalakeName);
  const lakes = ctx.store
    .list<LakeRec>(KIND.lake)
    .map((r) => settle(ctx, r.doc))
    .filter((l): l is LakeRec => !!l)
    .filter((l) => !env || l.environmentCrn === env)
    .filter((l) => !name || l.datalakeName.toLowerCase() === name.toLowerCase() || l.crn === name);
  return { datalakes: lakes.map((l) => listItem(ctx, l)) };
}

export const listRuntimes = (): Doc => ({
  versions: RUNTIMES.map((r) => ({ runtimeVersion: r.runtime, defaultRuntimeVersion: r.runtime === DEFAULT_RUNTIME })),
});

export function listSecretTypes(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalake);
  return {
    datalakeSecretTypes: SECRET_TYPES.filter(([t]) => t !== 'DATABASE_ROOT_PASSWORD' || lake.cloudPlatform !== 'GCP').map(
      ([secretType, description]) => ({
        secretType,
        description,
      }),
    ),
  };
}

export function rotateSecrets(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalake);
  const known = new Set(SECRET_TYPES.map(([t]) => t));
  const bad = ((req.secretTypes as string[]) ?? []).filter((t) => !known.has(t));
  if (bad.length) throw invalid(`unknown secret type ${bad.join(', ')}; see listDatalakeSecretTypes`);
  requireStatus(ctx, lake, RUNNING_ONLY, 'secret rotation');
  return { operationId: begin(ctx, lake, 'rotateSecrets') };
}

export const logDescriptors = (): Doc => ({ logs: LOG_DESCRIPTORS.map(([label, path]) => ({ label, path })) });

export function cmRoles(ctx: RequestContext, req: Doc): Doc {
  getLake(ctx, req.crn);
  return { roles: CM_ROLES };
}

export function hostStatus(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.clusterName);
  const healthy = statusOf(ctx, lake) === 'RUNNING';
  return {
    hosts: lake.groups.flatMap((g) =>
      g.instances.map((i) => ({ hostid: i.id, hostname: i.discoveryFQDN, healthSummary: healthy ? 'GOOD' : 'UNKNOWN' })),
    ),
  };
}

export function serviceStatus(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.clusterName);
  const status = statusOf(ctx, lake);
  const healthy = status === 'RUNNING';
  return {
    services: SERVICES.map((type) => ({
      type,
      state: healthy ? 'STARTED' : status === 'STOPPED' ? 'STOPPED' : 'UNKNOWN',
      healthSummary: healthy ? 'GOOD' : 'DISABLED',
      healthChecks: healthy ? [{ name: `${type}_HEALTH`, summary: 'GOOD' }] : [],
    })),
  };
}

export function databaseServer(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.clusterCrn);
  const status = statusOf(ctx, lake);
  const dbStatus =
    status === 'RUNNING'
      ? 'AVAILABLE'
      : status === 'STOPPED'
        ? 'STOPPED'
        : status.includes('DATABASE')
          ? 'UPDATE_IN_PROGRESS'
          : 'AVAILABLE';
  return {
    crn: crn('redbeams', ctx.info.region, ctx.info.accountId, 'databaseServer', hashId(`db:${lake.id}`)),
    name: `${lake.datalakeName}-db`,
    description: `Database server of data lake ${lake.datalakeName}`,
    environmentCrn: lake.environmentCrn,
    host: `${lake.datalakeName}-db.${lake.region}.rds.example.internal`,
    port: 5432,
    databaseVendor: 'postgres',
    databaseVendorDisplayName: 'PostgreSQL',
    creationDate: iso(lake.createdAt),
    resourceStatus: 'SERVICE_MANAGED',
    status: dbStatus,
    statusReason: '',
    clusterCrn: lake.crn,
    sslConfig: { sslCertificates: [], sslCertificateType: 'CLOUD_PROVIDER_OWNED', sslMode: 'ENABLED' },
  };
}

export function setCatalog(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalake);
  lake.catalogName = String(req.catalogName);
  save(ctx, lake);
  return {};
}

export function renewOrRotate(
  ctx: RequestContext,
  ref: unknown,
  action: 'renewCertificate' | 'rotateCertificates' | 'rotateDbCertificate',
): Doc {
  return simpleAction(
    ctx,
    ref,
    action,
    action === 'rotateDbCertificate' ? undefined : { certIssuedAt: ctx.clock.now() },
    'certificate work',
  );
}

export function setJava(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.crn);
  const version = Number(req.javaVersion);
  if (![8, 11, 17, 21].includes(version)) throw invalid(`Java ${String(req.javaVersion)} is not supported; choose 8, 11, 17 or 21`);
  requireStatus(ctx, lake, RUNNING_ONLY, 'changing the Java version');
  const operationId = begin(ctx, lake, 'javaVersion', { javaVersion: version }, { minutes: bool(req.rollingRestart) ? 10 : 5 });
  return { operationId };
}

export function imds(ctx: RequestContext, req: Doc, version: 'v1' | 'v2'): Doc {
  const lake = getLake(ctx, req.crn);
  if (lake.cloudPlatform !== 'AWS')
    throw failedPrecondition(`data lake ${lake.datalakeName} runs on ${lake.cloudPlatform}; IMDS settings are for AWS`);
  return simpleAction(ctx, lake.crn, 'imds', { imds: version }, 'changing the IMDS version');
}

export function migrateSkus(ctx: RequestContext, req: Doc): Doc {
  const lake = getLake(ctx, req.datalakeName);
  if (lake.cloudPlatform !== 'AZURE')
    throw failedPrecondition(`data lake ${lake.datalakeName} runs on ${lake.cloudPlatform}; SKU migration is for Azure`);
  if (lake.sku === 'STANDARD' && !bool(req.force)) throw failedPrecondition(`data lake ${lake.datalakeName} already uses the STANDARD SKU`);
  return simpleAction(ctx, lake.crn, 'migrateSkus', { sku: 'STANDARD' }, 'SKU migration');
}

export function validateStorage(_ctx: RequestContext, req: Doc): Doc {
  const loc = String(req.storageLocation);
  const bad = loc.includes('fail-');
  return bad ? { status: 'ERROR', error: `the data access role cannot write to ${loc}` } : { status: 'OK' };
}
