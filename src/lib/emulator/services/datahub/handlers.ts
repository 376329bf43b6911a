/**
 * datahub operations on clusters, written by hand: unpack the wire request,
 * call the backend (backend.ts, maintenance.ts, autoscale.ts), build the
 * wire answer (views.ts), conformed to the operation's response shape. The
 * engine's lookups (templates, definitions, recipes, custom configurations)
 * are at hand through the Hook.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { paged } from '../../engine/paging.js';
import type { Doc } from '../../types.js';
import { bool, num, str, strings, text } from '../../values.js';
import { DatahubBackend } from './backend.js';
import { historyOf, rulesOf } from './autoscale.js';
import { answerOf, findDefinition } from './blueprints.js';
import { VM_TYPES, type Image } from './catalogue.js';
import { cancelCollections, cmRoles, collections, secretTypes } from './maintenance.js';
import { asCluster, type ClusterRec, type DatahubHook } from './records.js';
import type { EngineRecord } from '../../engine/records.js';
import { autoscaleView, collectionView, hostStatuses, imageInfo, lifecycleEvents, scalingActivities, serviceStatuses } from './views.js';

type Served = (b: DatahubBackend, req: Doc) => Doc;

/** A handler: a backend for the request, the answer conformed to the operation's response shape. */
const op =
  (fn: Served) =>
  (h: DatahubHook, req: Doc): Doc => {
    const b = new DatahubBackend(h);
    return answerOf(h, fn(b, req));
  };

/** The cluster a request names, by the field the operation names it with (name or CRN). */
const ref = (req: Doc, field: string): string => {
  const v = str(req[field]);
  if (!v) throw invalid(`give "${field}" to name the cluster`);
  return v;
};

/** Upgrade candidates as the request asks to see them: all, or the newest of each runtime. */
function shown(images: readonly Image[], latestPerRuntime: boolean): Image[] {
  if (!latestPerRuntime) return [...images];
  const newest = new Map<string, Image>();
  for (const i of images) newest.set(i.runtime, i);
  return [...newest.values()];
}

const MINUTE = 60_000;

/** The operations on clusters that are code: each over the backend, its answer conformed. */
export const clusterCode = {
  retryCluster: op((b, req) => {
    b.retry(ref(req, 'clusterName'));
    return {};
  }),
  scaleCluster: op((b, req) => {
    const c = b.cluster(ref(req, 'clusterName'));
    const preferred = [...strings(req.preferredSubnetIds), ...strings(req.preferredZones)];
    if (strings(req.preferredSubnetIds).length > 0 && c.doc.cloudPlatform !== 'AWS')
      throw invalid('preferredSubnetIds are for AWS clusters; Azure and GCP clusters take preferredZones');
    if (strings(req.preferredZones).length > 0 && c.doc.cloudPlatform === 'AWS')
      throw invalid('preferredZones are for Azure and GCP clusters; AWS clusters take preferredSubnetIds');
    const known = new Set(c.doc.groups.flatMap((g) => g.instances.flatMap((i) => [i.subnetId, i.availabilityZone])));
    const env = b.environment(c.doc.environmentCrn);
    for (const p of preferred)
      if (!known.has(p) && !env.network.subnetIds.includes(p))
        throw invalid(`${p} is not a subnet or zone of environment ${env.environmentName}`);
    return { operationId: b.scale(c.id, text(req.instanceGroupName), num(req.instanceGroupDesiredCount) ?? 0) };
  }),
  // ---- instances
  // ---- upgrades
  upgradeCluster: op((b, req) => {
    const c = b.cluster(ref(req, 'clusterName'));
    const current = imageInfo(b.image(c), c.doc.catalogName);
    const osOnly = bool(req.lockComponents);
    if (bool(req.showAvailableImages) || bool(req.showLatestAvailableImagePerRuntime)) {
      const { images, reason } = b.candidates(c, osOnly);
      const list = shown(images, bool(req.showLatestAvailableImagePerRuntime));
      return { current, upgradeCandidates: list.map((i) => imageInfo(i, c.doc.catalogName)), ...(reason ? { reason } : {}) };
    }
    const to = b.target(c, { imageId: str(req.imageId), runtime: str(req.runtime), osOnly });
    if (bool(req.dryRun))
      return { current, upgradeCandidates: [imageInfo(to, c.doc.catalogName)], reason: 'dry run: the upgrade can be done' };
    return { current, upgradeCandidates: [imageInfo(to, c.doc.catalogName)], operationId: b.upgrade(c, to) };
  }),
  // ---- diagnostics
  cancelDatahubDiagnostics: op((b, req) => {
    cancelCollections(b.h, b.cluster(ref(req, 'crn')));
    return {};
  }),
} satisfies Record<string, (h: DatahubHook, req: Doc) => Doc>;

/** An answer computed from the cluster a read finds (`r.cluster.read({ answer })`). */
const shows =
  (fn: (b: DatahubBackend, c: ClusterRec, req: Doc) => Doc) =>
  (h: DatahubHook, rec: Readonly<EngineRecord>, req: Doc): Doc =>
    fn(new DatahubBackend(h), asCluster(rec as EngineRecord), req);

/** What reads of a cluster answer, beyond the cluster itself. */
export const clusterAnswers = {
  // A sync of a cluster being deleted is refused; Cloudera Manager's state is the emulator's already.
  syncCluster: shows((b, c) => {
    if (b.clusters.busy(c) && c.activity.action === 'delete') throw failedPrecondition(`cluster ${c.doc.clusterName} is being deleted`);
    return {};
  }),
  listClusterLifecycleEvents: shows((b, c, req) => paged(b.ctx, req, lifecycleEvents(b, c))),
  getClusterHostStatus: shows((b, c) => ({ hosts: hostStatuses(b, c) })),
  getClusterServiceStatus: shows((b, c) => ({ services: serviceStatuses(b, c) })),
  getCmRoles: shows((_b, c) => ({ roles: cmRoles(c) })),
  listDatahubSecretTypes: shows((_b, c) => ({
    datahubSecretTypes: secretTypes(c).map(([secretType, description]) => ({ secretType, description })),
  })),
  listDatahubDiagnostics: shows((b, c) => ({ collections: collections(b.h, c).map((w) => collectionView(b, c, w)) })),
  describeAutoScaleRules: shows((b, c) => {
    rulesOf(c);
    return { autoScaleRules: autoscaleView(c) };
  }),
  listAutoScaleHistory: shows((b, c, req) => ({
    historyEvents: historyOf(c, num(req.count)).map((e) => ({ eventTime: new Date(e.at).toISOString(), eventMessage: e.message })),
  })),
  listScalingActivities: shows((b, c, req) => {
    const now = b.ctx.clock.now();
    const duration = num(req.duration);
    const startTime = num(req.startTime);
    const endTime = num(req.endTime);
    if (duration === undefined && (startTime === undefined || endTime === undefined))
      throw invalid('say which activities: give duration (minutes back from now), or startTime with endTime');
    if (duration !== undefined && startTime !== undefined) throw invalid('give duration or a startTime/endTime range, not both');
    const from = duration !== undefined ? now - duration * MINUTE : (startTime ?? 0);
    const to = duration !== undefined ? now : (endTime ?? now);
    if (from > to) throw invalid('startTime is after endTime');
    const failedOnly = bool(req.onlyFailedScalingActivities);
    const items = scalingActivities(b, c)
      .filter(({ op: o }) => o.tl.startedAt >= from && o.tl.startedAt <= to)
      .filter(({ doc }) => !failedOnly || doc.activityStatus === 'SCALING_FLOW_FAILED')
      .map(({ doc }) => doc);
    return paged(b.ctx, req, items);
  }),
  describeScalingActivity: shows((b, c, req) => {
    const id = text(req.operationId);
    const hit = scalingActivities(b, c).find(({ op: o }) => o.operationId === id);
    if (!hit) throw notFound(`cluster ${c.doc.clusterName} has no scaling activity ${id.slice(0, 100)}`);
    return { scalingActivity: hit.doc };
  }),
  startClusterVerticalScaling: (_h: DatahubHook, rec: Readonly<EngineRecord>, req: Doc): Doc => ({
    result: `vertical scaling of instance group ${text(req.group)} started`,
    operationId: rec.activity.operationId,
  }),
  // The version a database upgrade goes to, as its check chose it.
  startDatabaseUpgrade: (_h: DatahubHook, rec: Readonly<EngineRecord>): Doc => ({
    targetVersion: rec.activity.effect?.dbVersion,
    operationId: rec.activity.operationId,
  }),
};

/** The instance types of the credential's cloud, for a template (read by the entry) and, if named, a definition. */
export function vmTypes(h: DatahubHook, _template: Readonly<EngineRecord>, req: Doc): Doc {
  const definition = str(req.clusterDefinitionName);
  if (definition && !findDefinition(h, definition)) throw notFound(`cluster definition ${definition.slice(0, 200)} not found`);
  const cref = text(req.credential);
  const credential = h.world.environments.credential(cref);
  if (!credential) throw notFound(`credential ${cref.slice(0, 200)} not found; see \`environments credentials list\``);
  const types = VM_TYPES[credential.cloudPlatform].all;
  return {
    vmTypes: types.map(([name]) => name),
    vmTypesWithMetadata: types.map(([name, cpu, memory]) => ({
      name,
      properties: JSON.stringify({ Cpu: cpu, Memory: memory, region: text(req.region) }),
    })),
  };
}
