/**
 * datahub operations on clusters that are code (scaling, upgrades, retries,
 * cancelling diagnostics: each for the reason index.ts gives), and what reads
 * of a cluster answer beyond the cluster itself. A code entry's answer is
 * conformed to the operation's response shape here; an entry's `answer` by
 * the engine.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { paged } from '../../engine/paging.js';
import type { EngineRecord } from '../../engine/records.js';
import type { Doc } from '../../types.js';
import { bool, num, str, strings, text } from '../../values.js';
import { candidates, clusterIn, imageOf, retry, scale, target, upgrade } from './actions.js';
import { historyOf, rulesOf } from './autoscale.js';
import { findDefinition } from './blueprints.js';
import { VM_TYPES, type Image } from './catalogue.js';
import { cancelCollections, cmRoles, collections, secretTypes } from './maintenance.js';
import { asCluster, type DatahubHook } from './records.js';
import { autoscaleView, collectionView, hostStatuses, imageInfo, lifecycleEvents, scalingActivities, serviceStatuses } from './views.js';

const MINUTE = 60_000;

/** A code entry's answer, conformed to the operation's response shape (`scaleCluster` -> ScaleClusterResponse). */
const answerOf = (h: DatahubHook, doc: Doc): Doc => {
  const op = h.ctx.op.name;
  return h.conform(`${op.charAt(0).toUpperCase()}${op.slice(1)}Response`, doc, op);
};

export function retryCluster(h: DatahubHook, req: Doc): Doc {
  retry(h, clusterIn(h, req, 'clusterName'));
  return answerOf(h, {});
}

export function scaleCluster(h: DatahubHook, req: Doc): Doc {
  const c = clusterIn(h, req, 'clusterName');
  const preferred = [...strings(req.preferredSubnetIds), ...strings(req.preferredZones)];
  if (strings(req.preferredSubnetIds).length > 0 && c.doc.cloudPlatform !== 'AWS')
    throw invalid('preferredSubnetIds are for AWS clusters; Azure and GCP clusters take preferredZones');
  if (strings(req.preferredZones).length > 0 && c.doc.cloudPlatform === 'AWS')
    throw invalid('preferredZones are for Azure and GCP clusters; AWS clusters take preferredSubnetIds');
  const known = new Set(c.doc.groups.flatMap((g) => g.instances.flatMap((i) => [i.subnetId, i.availabilityZone])));
  const env = h.world.environments.require(c.doc.environmentCrn);
  for (const p of preferred)
    if (!known.has(p) && !env.network.subnetIds.includes(p))
      throw invalid(`${p} is not a subnet or zone of environment ${env.environmentName}`);
  return answerOf(h, { operationId: scale(h, c, text(req.instanceGroupName), num(req.instanceGroupDesiredCount) ?? 0) });
}

/** Upgrade candidates as the request asks to see them: all, or the newest of each runtime. */
const shown = (images: readonly Image[], latestPerRuntime: boolean): Image[] =>
  latestPerRuntime ? [...new Map(images.map((i) => [i.runtime, i])).values()] : [...images];

/** The upgrade candidates (listed), a dry run, or the upgrade itself, as the request asks. */
export function upgradeCluster(h: DatahubHook, req: Doc): Doc {
  const c = clusterIn(h, req, 'clusterName');
  const current = imageInfo(imageOf(c), c.doc.catalogName);
  const osOnly = bool(req.lockComponents);
  if (bool(req.showAvailableImages) || bool(req.showLatestAvailableImagePerRuntime)) {
    const { images, reason } = candidates(h, c, osOnly);
    const list = shown(images, bool(req.showLatestAvailableImagePerRuntime));
    return answerOf(h, { current, upgradeCandidates: list.map((i) => imageInfo(i, c.doc.catalogName)), ...(reason ? { reason } : {}) });
  }
  const to = target(h, c, { imageId: str(req.imageId), runtime: str(req.runtime), osOnly });
  const upgradeCandidates = [imageInfo(to, c.doc.catalogName)];
  if (bool(req.dryRun)) return answerOf(h, { current, upgradeCandidates, reason: 'dry run: the upgrade can be done' });
  return answerOf(h, { current, upgradeCandidates, operationId: upgrade(h, c, to) });
}

export function cancelDatahubDiagnostics(h: DatahubHook, req: Doc): Doc {
  cancelCollections(h, clusterIn(h, req, 'crn'));
  return answerOf(h, {});
}

type Answer = (h: DatahubHook, rec: Readonly<EngineRecord>, req: Doc) => Doc;

/** What reads of a cluster answer, beyond the cluster itself (`r.cluster.read({ answer })`). */
export const clusterAnswers = {
  // A sync of a cluster being deleted is refused; Cloudera Manager's state is the emulator's already.
  syncCluster: (h, rec) => {
    if (h.records('cluster').busy(rec) && rec.activity.action === 'delete')
      throw failedPrecondition(`cluster ${asCluster(rec).doc.clusterName} is being deleted`);
    return {};
  },
  listClusterLifecycleEvents: (h, rec, req) => paged(h.ctx, req, lifecycleEvents(h, asCluster(rec))),
  getClusterHostStatus: (h, rec) => ({ hosts: hostStatuses(h, asCluster(rec)) }),
  getClusterServiceStatus: (h, rec) => ({ services: serviceStatuses(h, asCluster(rec)) }),
  getCmRoles: (_h, rec) => ({ roles: cmRoles(asCluster(rec)) }),
  listDatahubSecretTypes: (_h, rec) => ({
    datahubSecretTypes: secretTypes(asCluster(rec)).map(([secretType, description]) => ({ secretType, description })),
  }),
  listDatahubDiagnostics: (h, rec) => ({ collections: collections(h, asCluster(rec)).map((w) => collectionView(h, asCluster(rec), w)) }),
  describeAutoScaleRules: (_h, rec) => {
    rulesOf(asCluster(rec));
    return { autoScaleRules: autoscaleView(asCluster(rec)) };
  },
  listAutoScaleHistory: (_h, rec, req) => ({
    historyEvents: historyOf(asCluster(rec), num(req.count)).map((e) => ({
      eventTime: new Date(e.at).toISOString(),
      eventMessage: e.message,
    })),
  }),
  listScalingActivities: (h, rec, req) => {
    const now = h.ctx.clock.now();
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
    const items = scalingActivities(h, asCluster(rec))
      .filter(({ op: o }) => o.tl.startedAt >= from && o.tl.startedAt <= to)
      .filter(({ doc }) => !failedOnly || doc.activityStatus === 'SCALING_FLOW_FAILED')
      .map(({ doc }) => doc);
    return paged(h.ctx, req, items);
  },
  describeScalingActivity: (h, rec, req) => {
    const id = text(req.operationId);
    const hit = scalingActivities(h, asCluster(rec)).find(({ op: o }) => o.operationId === id);
    if (!hit) throw notFound(`cluster ${asCluster(rec).doc.clusterName} has no scaling activity ${id.slice(0, 100)}`);
    return { scalingActivity: hit.doc };
  },
  startClusterVerticalScaling: (_h, rec, req) => ({
    result: `vertical scaling of instance group ${text(req.group)} started`,
    operationId: rec.activity.operationId,
  }),
  // The version a database upgrade goes to, as its check chose it.
  startDatabaseUpgrade: (_h, rec) => ({ targetVersion: rec.activity.effect?.dbVersion, operationId: rec.activity.operationId }),
} satisfies Record<string, Answer>;

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
