/** datalake's wire views: records in, wire documents out. */
import { crn } from '../../ids.js';
import type { Doc } from '../../types.js';
import { iso } from '../../values.js';
import type { DatalakeBackend } from './backend.js';
import { failReason, lastStage, totalMinutes } from './backups.js';
import { CATALOG, CERT_LIFETIME_DAYS, CERT_WARNING_DAYS, IMAGES, RUNTIMES, SERVICES, hashId, imageOrder, type Image } from './catalogue.js';
import type { BrRec, DiagRec, LakeRec, StagePlan } from './records.js';

const MINUTE = 60_000;

function instanceStatus(status: string): string {
  if (status === 'RUNNING' || status.endsWith('_IN_PROGRESS'))
    return status.startsWith('STACK_CREATION') ? 'REQUESTED' : 'SERVICES_HEALTHY';
  if (status === 'STOPPED') return 'STOPPED';
  if (status === 'REQUESTED' || status.startsWith('EXTERNAL_DATABASE_CREATION')) return 'REQUESTED';
  if (status === 'PROVISIONING_FAILED') return 'ORCHESTRATION_FAILED';
  if (status.startsWith('DELETE') || status.startsWith('STACK_DELETION')) return 'DELETE_REQUESTED';
  return 'SERVICES_UNHEALTHY';
}

function certState(now: number, lake: LakeRec): string {
  const age = now - lake.certIssuedAt;
  return age > (CERT_LIFETIME_DAYS - CERT_WARNING_DAYS) * 86_400_000 ? 'HOST_CERT_EXPIRING' : 'VALID';
}

function statusReason(lake: LakeRec, status: string): string {
  if (status === lake.activity.failure) return lake.activity.reason ?? `${lake.activity.action} failed`;
  if (status === 'RUNNING') return 'Datalake is running';
  if (status === 'STOPPED') return 'Datalake is stopped';
  return `${lake.activity.action} in progress`;
}

export function imageInfo(lake: LakeRec): Doc {
  const img = IMAGES.find((i) => i.imageId === lake.imageId);
  return imageDoc(img ?? IMAGES[0]!, lake.catalogName);
}

export function imageDoc(img: Image, catalog = CATALOG): Doc {
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

export function listItem(b: DatalakeBackend, lake: LakeRec): Doc {
  const status = b.lakes.status(lake);
  return {
    datalakeName: lake.datalakeName,
    crn: lake.crn,
    status,
    environmentCrn: lake.environmentCrn,
    creationDate: iso(lake.createdAt),
    statusReason: statusReason(lake, status),
    enableRangerRaz: lake.enableRangerRaz,
    certificateExpirationState: certState(b.now, lake),
    multiAz: lake.multiAz,
    tags: lake.tags,
  };
}

export function details(b: DatalakeBackend, lake: LakeRec): Doc {
  const status = b.lakes.status(lake);
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
    statusReason: statusReason(lake, status),
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

function stageStatus(r: BrRec, s: StagePlan, now: number): Doc {
  const predicted = String(s.minutes);
  if (s.skipped) return { status: 'SKIPPED', predictedDurationInMinutes: '0' };
  const startAt = r.activity.tl.startedAt + s.start * MINUTE;
  const endAt = startAt + s.minutes * MINUTE;
  const failing = s === lastStage(r) && r.activity.tl.steps[r.activity.tl.steps.length - 1]?.state === r.activity.failure;
  const c = r.activity.cancelledAt;
  if (c !== undefined) {
    if (startAt > c) return { status: 'CANCELLED', predictedDurationInMinutes: predicted };
    if (endAt > c && r.forced) return { status: 'CANCELLED', predictedDurationInMinutes: predicted };
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

export function brView(b: DatalakeBackend, r: BrRec, withPrediction: boolean): Doc {
  const now = b.now;
  const p = b.backups.progress(r);
  const status = p.state;
  const endAt = p.done ? p.endsAt : undefined;
  const running = b.backups.running(r);
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
    startTime: iso(r.activity.tl.startedAt),
    endTime: endAt !== undefined ? iso(endAt) : '',
    backupLocation: r.backupLocation,
    operationStates: states,
    runtimeVersion: r.runtimeVersion,
    ...(r.backupName !== undefined ? { backupName: r.backupName } : {}),
    ...(failed
      ? { failureReason: failReason(r) }
      : status === 'CANCELLED'
        ? { failureReason: `cancelled${r.forced ? ' (forced)' : ''}` }
        : {}),
    ...(withPrediction ? { totalPredictedDurationInMinutes: String(totalMinutes(r)) } : {}),
  };
}

/** A diagnostics collection with its progress and where its output goes. */
export function diagnosticsView(b: DatalakeBackend, lake: LakeRec, d: DiagRec): Doc {
  const p = b.diagnostics.progress(d);
  const status = p.state;
  const upTo = p.cancelled ? p.endsAt : b.now;
  return {
    status,
    flowId: d.flowId,
    flowState: status === 'RUNNING' ? 'SALT_COLLECTION_IN_PROGRESS' : `DIAGNOSTICS_${status}`,
    created: iso(d.created),
    progressPercentage: p.succeeded ? 100 : Math.min(99, Math.floor(((upTo - d.created) / (endOf(d) - d.created)) * 100)),
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
      accountId: b.info.accountId,
      resourceCrn: lake.crn,
      clusterVersion: lake.runtime,
    },
  };
}

/** When a collection would have ended had it not been cancelled. */
const endOf = (d: DiagRec): number => d.activity.tl.startedAt + (d.activity.tl.steps[d.activity.tl.steps.length - 1]?.afterMs ?? 0);

export function databaseServer(b: DatalakeBackend, lake: LakeRec): Doc {
  const status = b.lakes.status(lake);
  const dbStatus =
    status === 'RUNNING'
      ? 'AVAILABLE'
      : status === 'STOPPED'
        ? 'STOPPED'
        : status.includes('DATABASE')
          ? 'UPDATE_IN_PROGRESS'
          : 'AVAILABLE';
  return {
    crn: crn('redbeams', b.info.region, b.info.accountId, 'databaseServer', hashId(`db:${lake.id}`)),
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

export function hostStatus(b: DatalakeBackend, lake: LakeRec): Doc {
  const healthy = b.lakes.status(lake) === 'RUNNING';
  return {
    hosts: lake.groups.flatMap((g) =>
      g.instances.map((i) => ({ hostid: i.id, hostname: i.discoveryFQDN, healthSummary: healthy ? 'GOOD' : 'UNKNOWN' })),
    ),
  };
}

export function serviceStatus(b: DatalakeBackend, lake: LakeRec): Doc {
  const status = b.lakes.status(lake);
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
