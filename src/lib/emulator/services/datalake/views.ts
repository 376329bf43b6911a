/** datalake's wire views: records in, wire documents out. */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { crn } from '../../ids.js';
import { runtimeOf } from '../../shared/runtimes.js';
import { iso } from '../../values.js';
import { CATALOG, CERT_LIFETIME_DAYS, CERT_WARNING_DAYS, IMAGES, SERVICES, hashId, imageOrder, type Image } from './catalogue.js';
import { lakeDoc, type Lake, type R } from './lakes.js';

function instanceStatus(status: string): string {
  if (status === 'RUNNING' || status.endsWith('_IN_PROGRESS'))
    return status.startsWith('STACK_CREATION') ? 'REQUESTED' : 'SERVICES_HEALTHY';
  if (status === 'STOPPED') return 'STOPPED';
  if (status === 'REQUESTED' || status.startsWith('EXTERNAL_DATABASE_CREATION')) return 'REQUESTED';
  if (status === 'PROVISIONING_FAILED') return 'ORCHESTRATION_FAILED';
  if (status.startsWith('DELETE') || status.startsWith('STACK_DELETION')) return 'DELETE_REQUESTED';
  return 'SERVICES_UNHEALTHY';
}

function certState(now: number, lake: Lake): string {
  const age = now - lakeDoc(lake).certIssuedAt;
  return age > (CERT_LIFETIME_DAYS - CERT_WARNING_DAYS) * 86_400_000 ? 'HOST_CERT_EXPIRING' : 'VALID';
}

function statusReason(lake: Lake, status: string): string {
  if (status === lake.activity.failure) return lake.activity.reason ?? `${lake.activity.action} failed`;
  if (status === 'RUNNING') return 'Datalake is running';
  if (status === 'STOPPED') return 'Datalake is stopped';
  return `${lake.activity.action} in progress`;
}

export function imageInfo(lake: Lake): Doc {
  const l = lakeDoc(lake);
  const img = IMAGES.find((i) => i.imageId === l.imageId);
  return imageDoc(img ?? IMAGES[0]!, l.catalogName);
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

const stateOf = (h: Hook<R>, lake: Lake): string => h.records('datalake').state(lake);

/** The field of its cloud's configuration that names a lake's identity. */
const IDENTITY = { AWS: 'instanceProfile', AZURE: 'managedIdentity', GCP: 'serviceAccountEmail' } as const;

/**
 * What a lake shows beyond its document and status, in every view: its list item (Datalake) keeps when it was made,
 * why it is in its state and its certificates' state; describe's DatalakeDetails the rest.
 */
export function shown(h: Hook<R>, rec: Lake): Doc {
  const status = stateOf(h, rec);
  const lake = lakeDoc(rec);
  const running = status === 'RUNNING';
  const iStatus = instanceStatus(status);
  const cm = runtimeOf(lake.runtime)?.cm ?? '7.12.0';
  const gateway = `https://${lake.datalakeName}-gateway.${lake.datalakeName}.xcu2-8y8x.cloudera.site`;
  return {
    creationDate: iso(rec.createdAt),
    statusReason: statusReason(rec, status),
    certificateExpirationState: certState(h.ctx.clock.now(), rec),
    instanceGroups: lake.groups.map((g) => ({
      ...g,
      availabilityZones: [...new Set(g.instances.map((i) => i.availabilityZone))],
      instances: g.instances.map((i) => ({
        ...i,
        state: running ? 'HEALTHY' : iStatus === 'STOPPED' ? 'STOPPED' : 'UNHEALTHY',
        instanceStatus: iStatus,
        sshPort: 22,
        instanceGroup: g.name,
        instanceTypeVal: i.clouderaManagerServer ? 'GATEWAY_PRIMARY' : g.name === 'master' || g.name === 'gateway' ? 'GATEWAY' : 'CORE',
        attachedVolumes: [i.volumes],
      })),
    })),
    clouderaManager: {
      version: cm,
      clouderaManagerRepositoryURL: `https://archive.cloudera.com/p/cm7/${cm}/redhat8/yum/`,
      clouderaManagerServerURL: `${gateway}/${lake.datalakeName}/cdp-proxy/cmf/home/`,
    },
    productVersions: [
      { name: 'CDH', version: `${lake.runtime}-1.cdh${lake.runtime}.p0` },
      { name: 'CM', version: cm },
    ],
    [`${lake.cloudPlatform.toLowerCase()}Configuration`]: { [IDENTITY[lake.cloudPlatform]]: lake.identity },
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
    imageDetails: imageInfo(rec),
  };
}

export function databaseServer(h: Hook<R>, rec: Lake): Doc {
  const status = stateOf(h, rec);
  const lake = lakeDoc(rec);
  const dbStatus = status === 'STOPPED' ? 'STOPPED' : status.includes('DATABASE') ? 'UPDATE_IN_PROGRESS' : 'AVAILABLE';
  return {
    crn: crn('redbeams', h.ctx.info.region, h.ctx.info.accountId, 'databaseServer', hashId(`db:${rec.id}`)),
    name: `${lake.datalakeName}-db`,
    description: `Database server of data lake ${lake.datalakeName}`,
    environmentCrn: lake.environmentCrn,
    host: `${lake.datalakeName}-db.${lake.region}.rds.example.internal`,
    port: 5432,
    databaseVendor: 'postgres',
    databaseVendorDisplayName: 'PostgreSQL',
    creationDate: iso(rec.createdAt),
    resourceStatus: 'SERVICE_MANAGED',
    status: dbStatus,
    statusReason: '',
    clusterCrn: lake.crn,
    sslConfig: { sslCertificates: [], sslCertificateType: 'CLOUD_PROVIDER_OWNED', sslMode: 'ENABLED' },
  };
}

export function hostStatus(h: Hook<R>, lake: Lake): Doc {
  const healthy = stateOf(h, lake) === 'RUNNING';
  return {
    hosts: lakeDoc(lake).groups.flatMap((g) =>
      g.instances.map((i) => ({ hostid: i.id, hostname: i.discoveryFQDN, healthSummary: healthy ? 'GOOD' : 'UNKNOWN' })),
    ),
  };
}

export function serviceStatus(h: Hook<R>, lake: Lake): Doc {
  const status = stateOf(h, lake);
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
