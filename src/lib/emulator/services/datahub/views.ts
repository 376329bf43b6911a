/** Data Hub records -> wire documents (Cluster, ClusterSummary, instances, images, events, statuses, collections). */
import type { OperationRecord } from '../../engine/operations.js';
import type { EngineRecord } from '../../engine/records.js';
import type { Doc } from '../../types.js';
import { compact, iso } from '../../values.js';
import { imageOf, operationsOf } from './actions.js';
import { CATALOG_URL, CERT_LIFETIME_DAYS, CERT_WARNING_DAYS, DEFAULT_CATALOG, ENDPOINTS, runtimeOf, type Image } from './catalogue.js';
import { asCluster, HEALTHY_STATES, type ClusterRec, type DatahubHook, type GroupRec } from './records.js';

const DAY = 86_400_000;

/** An instance's state and Cloudera Manager status while its cluster is in a state. */
function instanceStates(status: string, stopped: boolean): { state: string; status: string } {
  if (stopped || status === 'STOPPED') return { state: 'STOPPED', status: 'STOPPED' };
  if (status === 'AVAILABLE') return { state: 'HEALTHY', status: 'SERVICES_HEALTHY' };
  if (status === 'REQUESTED' || status === 'CREATE_IN_PROGRESS') return { state: 'REQUESTED', status: 'REQUESTED' };
  if (status.endsWith('_FAILED')) return { state: 'UNHEALTHY', status: 'FAILED' };
  return { state: 'HEALTHY', status: 'SERVICES_RUNNING' };
}

function groupView(g: GroupRec, status: string): Doc {
  return {
    name: g.name,
    instances: g.instances.map((i, k) => {
      const st = instanceStates(status, i.stopped === true);
      return {
        id: i.id,
        state: st.state,
        instanceType: g.type === 'GATEWAY' ? (k === 0 ? 'GATEWAY_PRIMARY' : 'GATEWAY') : 'CORE',
        privateIp: i.privateIp,
        fqdn: i.fqdn,
        status: st.status,
        sshPort: 22,
        clouderaManagerServer: g.type === 'GATEWAY' && k === 0,
        instanceGroup: g.name,
        ...(g.volumes && g.volumes.count > 0 ? { attachedVolumes: [{ ...g.volumes }] } : {}),
        availabilityZone: i.availabilityZone,
        instanceVmType: g.instanceType,
        subnetId: i.subnetId,
      };
    }),
    subnetIds: [...new Set(g.instances.map((i) => i.subnetId))],
    availabilityZones: [...new Set(g.instances.map((i) => i.availabilityZone))],
    recipes: g.recipes,
  };
}

const nodeCount = (c: ClusterRec): number => c.doc.groups.reduce((n, g) => n + g.instances.length, 0);

/** The gateway host of a cluster: its Cloudera Manager host's name. */
const gatewayHost = (c: ClusterRec): string =>
  c.doc.groups.find((g) => g.type === 'GATEWAY')?.instances[0]?.fqdn ?? `${c.doc.clusterName}.cloudera.site`;

function endpoints(c: ClusterRec): Doc[] {
  const host = c.doc.loadBalancer ? `${c.doc.clusterName}-gateway.${gatewayHost(c).split('.').slice(1).join('.')}` : gatewayHost(c);
  const base = `https://${host}/${c.doc.clusterName}/cdp-proxy`;
  const endpoint = (knox: string, displayName: string, path: string, mode: string): Doc => ({
    serviceName: knox,
    serviceUrl: `${base}/${path}/`,
    displayName,
    knoxService: knox,
    mode,
    open: true,
  });
  const proxied = (c.doc.services ?? []).filter((s) => ENDPOINTS[s]).map((s) => ENDPOINTS[s] ?? [s, s]);
  return [
    endpoint('CM-UI', 'Cloudera Manager', 'cmf/home', 'PAM'),
    ...proxied.map(([knox, display]) => endpoint(knox, display, knox.toLowerCase(), 'SSO_PROVIDER')),
  ];
}

/** Whether the cluster's host certificates are in their last month. */
export function certificateState(h: DatahubHook, c: ClusterRec): string {
  const issued = c.doc.certIssuedAt ?? Date.parse(c.doc.creationDate);
  const left = issued + CERT_LIFETIME_DAYS * DAY - h.ctx.clock.now();
  return left < CERT_WARNING_DAYS * DAY ? 'HOST_CERT_EXPIRING' : 'VALID';
}

/**
 * What a cluster shows beyond its document, in every answer and listing (its
 * `show`): the wire Cluster's computed fields (its instances, image, Cloudera
 * Manager and endpoints) and ClusterSummary's.
 */
export function clusterShown(h: DatahubHook, rec: Readonly<EngineRecord>): Doc {
  const c = asCluster(rec);
  const status = h.records('cluster').state(c);
  const image = imageOf(c);
  return {
    status,
    nodeCount: nodeCount(c),
    instanceGroups: c.doc.groups.map((g) => groupView(g, status)),
    // The image by id and OS; upgrade answers (ImageInfo) name it.
    imageDetails: { id: image.imageId, os: image.os, catalogUrl: CATALOG_URL, catalogName: c.doc.catalogName ?? DEFAULT_CATALOG },
    clouderaManager: { version: image.cm, platformVersion: image.runtime },
    endpoints: status === 'AVAILABLE' ? { endpoints: endpoints(c) } : undefined,
    environmentName: h.world.environments.find(c.doc.environmentCrn)?.environmentName,
    certificateExpirationState: certificateState(h, c),
  };
}

/** An image's name in the catalog. */
const imageName = (i: Image): string => `cdh-${i.runtime}-${i.os}-${i.patch}`;

/** The wire `ImageInfo`. */
export function imageInfo(i: Image, catalog = DEFAULT_CATALOG): Doc {
  return {
    imageName: imageName(i),
    imageId: i.imageId,
    imageCatalogName: catalog,
    created: i.created,
    componentVersions: { cm: runtimeOf(i.runtime)?.cm ?? i.cm, cdp: i.runtime, os: i.os, osPatchLevel: i.patch },
  };
}

/** The lifecycle events of a cluster: each of its operations began, and ended (ClusterLifecycleEvents). */
export function lifecycleEvents(h: DatahubHook, c: ClusterRec): Doc[] {
  const status = h.records('cluster').state(c);
  const base = {
    cloudType: c.doc.cloudPlatform,
    region: c.doc.region,
    clusterName: c.doc.clusterName,
    stackCrn: c.crn,
    stackName: c.doc.clusterName,
    blueprintName: c.doc.clusterTemplateName,
    nodeCount: nodeCount(c),
  };
  const ops = operationsOf(h, c);
  return ops.flatMap((op, n) => {
    const { status: opStatus, ended } = h.records('cluster').operations().status(op);
    const words = op.operationName.toLowerCase().replace(/_/g, ' ');
    const event = (at: number, how: string, notificationType: string): Doc => {
      const eventMessage = `${words} ${how}`;
      return { ...base, eventType: op.operationName, eventTimestamp: iso(at), eventMessage, notificationType };
    };
    const events = [event(op.tl.startedAt, 'started', 'IN_PROGRESS')];
    const how = opStatus === 'FINISHED' ? 'finished' : opStatus === 'CANCELLED' ? 'was cancelled' : 'failed';
    if (ended !== undefined) events.push(event(ended, how, opStatus === 'FINISHED' ? 'SUCCESS' : 'ERROR'));
    // The newest event carries the cluster's status now.
    return n === ops.length - 1 ? events.map((e, i) => (i === events.length - 1 ? { ...e, stackStatus: status } : e)) : events;
  });
}

const SCALING = ['UPSCALE', 'DOWNSCALE'];

/** The scaling activities of a cluster (its upscale and downscale operations), oldest first. */
export function scalingActivities(h: DatahubHook, c: ClusterRec): Array<{ op: OperationRecord; doc: Doc }> {
  return operationsOf(h, c)
    .filter((op) => SCALING.includes(op.operationName))
    .map((op) => {
      const { status } = h.records('cluster').operations().status(op);
      const end = op.tl.startedAt + (op.tl.steps.at(-1)?.afterMs ?? 0);
      return {
        op,
        doc: {
          operationId: op.operationId,
          startTime: iso(op.tl.startedAt),
          endTime: iso(end),
          scalingActivityReason:
            (c.data?.scalingReasons as Record<string, string> | undefined)?.[String(op.tl.startedAt)] ??
            `${op.operationName.toLowerCase()} of cluster ${c.doc.clusterName}`,
          activityStatus:
            status === 'RUNNING' ? 'SCALING_FLOW_IN_PROGRESS' : status === 'FINISHED' ? 'SCALING_FLOW_SUCCESS' : 'SCALING_FLOW_FAILED',
        },
      };
    });
}

/** Cloudera Manager's health of each host. */
export function hostStatuses(h: DatahubHook, c: ClusterRec): Doc[] {
  const status = h.records('cluster').state(c);
  return c.doc.groups.flatMap((g) =>
    g.instances.map((i) => ({
      hostid: i.id,
      hostname: i.fqdn,
      healthSummary: health(status, i.stopped === true),
    })),
  );
}

function health(status: string, stopped = false): string {
  if (stopped || status === 'STOPPED') return 'DISABLED';
  if (HEALTHY_STATES.includes(status)) return 'GOOD';
  if (status.endsWith('_FAILED') || status === 'NODE_FAILURE') return 'BAD';
  return 'NOT_AVAILABLE';
}

/** Cloudera Manager's state and health of each service. */
export function serviceStatuses(h: DatahubHook, c: ClusterRec): Doc[] {
  const status = h.records('cluster').state(c);
  const state = status === 'STOPPED' ? 'STOPPED' : HEALTHY_STATES.includes(status) ? 'STARTED' : 'UNKNOWN';
  const summary = health(status);
  return (c.doc.services ?? []).map((s) => ({
    type: s,
    state,
    healthSummary: summary,
    healthChecks: [{ name: `${s}_HEALTH`, summary }],
  }));
}

/** A diagnostics collection (DatahubDiagnosticsCollectionResponse). */
export function collectionView(h: DatahubHook, c: ClusterRec, w: EngineRecord): Doc {
  const p = h.records('work').progress(w);
  const total = p.endsAt - w.activity.tl.startedAt;
  const done = Math.min(1, total > 0 ? (h.ctx.clock.now() - w.activity.tl.startedAt) / total : 1);
  const status = p.cancelled ? 'CANCELLED' : !p.done ? 'RUNNING' : p.failed ? 'FAILED' : 'FINISHED';
  const d = (w.data?.request ?? {}) as Doc;
  const destination = String(d.destination ?? 'LOCAL');
  const logs = h.world.environments.require(c.doc.environmentCrn).logStorage;
  const base = logs.awsDetails?.storageLocationBase ?? logs.azureDetails?.storageLocationBase ?? logs.gcpDetails?.storageLocationBase;
  const output =
    destination === 'CLOUD_STORAGE'
      ? `${String(base ?? '').replace(/\/?$/, '/')}diagnostics/${w.id}`
      : destination === 'LOCAL'
        ? `/var/lib/filecollector/${w.id}.tar.gz`
        : `${destination.toLowerCase()}://${w.id}`;
  return {
    status,
    flowId: w.id,
    flowState:
      status === 'RUNNING'
        ? w.activity.action === 'cmdiagnostics'
          ? 'CM_DIAGNOSTICS_COLLECTION_STATE'
          : 'DIAGNOSTICS_COLLECTION_STATE'
        : `DIAGNOSTICS_${status}_STATE`,
    created: iso(w.createdAt),
    progressPercentage: status === 'FINISHED' ? 100 : Math.floor(done * 100),
    collectionDetails: compact({
      case: d.caseNumber,
      output,
      destination,
      description: d.description,
      accountId: h.ctx.info.accountId,
      resourceCrn: c.crn,
      clusterVersion: c.doc.runtime ?? '7.2.18',
    }),
  };
}

/** The wire AutoScaleRulesResponse. */
export function autoscaleView(c: ClusterRec): Doc {
  return { clusterName: c.doc.clusterName, enabled: c.doc.autoscale?.enabled ?? false, autoScalePolicies: c.doc.autoscale?.policies ?? [] };
}
