/**
 * Data Hub clusters: what the hooks of their actions and the code entries
 * compute (a new cluster's create is clusters.ts): scale (one
 * instance group's node count), delete instances, repair, upgrade (the image
 * or the runtime, on the paths the runtimes allow), vertical scaling, the
 * database upgrade and retry. Maintenance beside the status is in
 * maintenance.ts. Effects (new node counts, replaced instances, a new image)
 * are applied by the first read after the action succeeded. A cluster named
 * `fail-...` fails every action (`fail-<action>-...`: that action only,
 * once); a forced delete never fails.
 */
import { compareVersions } from '../../shared/runtimes.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import type { OperationRecord } from '../../engine/operations.js';
import type { CheckFn } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import type { CloudPlatform, EnvironmentView } from '../../world/contracts.js';
import type { Doc } from '../../types.js';
import { bool, hex, obj, str, strings, text } from '../../values.js';
import { DB_VERSIONS, DEFAULT_CATALOG, DEFAULT_DB_VERSION, IMAGES, newestImage, runtimeOf, UPGRADES, type Image } from './catalogue.js';
import {
  asCluster,
  FAILED_STATES,
  KIND,
  type ClusterRec,
  type DatahubHook,
  type R,
  type GroupRec,
  type InstanceRec,
  type VolumeRec,
} from './records.js';
import { running } from './maintenance.js';

export const DEFAULT_VOLUME: Readonly<Record<CloudPlatform, VolumeRec>> = {
  AWS: { count: 1, volumeType: 'gp3', size: 500 },
  AZURE: { count: 1, volumeType: 'StandardSSD_LRS', size: 500 },
  GCP: { count: 1, volumeType: 'pd-ssd', size: 500 },
};

const zoneOf = (env: EnvironmentView, i: number): string =>
  env.cloudPlatform === 'AWS'
    ? `${env.region}${'abc'[i % 3] ?? 'a'}`
    : env.cloudPlatform === 'GCP'
      ? `${env.region}-${'abc'[i % 3] ?? 'a'}`
      : String((i % 3) + 1);

/** The cluster a request names, by the field the operation names it with (name or CRN). */
export function clusterIn(h: DatahubHook, req: Doc, field: string): ClusterRec {
  const ref = str(req[field]);
  if (!ref) throw invalid(`give "${field}" to name the cluster`);
  return asCluster(h.records('cluster').get(ref));
}

/** A group of the cluster by name; NOT_FOUND naming the groups it has. */
export function groupNamed(c: ClusterRec, name: string): GroupRec {
  const g = c.doc.groups.find((x) => x.name === name);
  if (!g)
    throw notFound(`cluster ${c.doc.clusterName} has no instance group ${name}; it has ${c.doc.groups.map((x) => x.name).join(', ')}`);
  return g;
}

/** The instances of the cluster with these ids; NOT_FOUND naming the first that is not one of them. */
export function instancesNamed(c: ClusterRec, ids: readonly string[]): Array<{ group: GroupRec; instance: InstanceRec }> {
  if (ids.length === 0) throw invalid('give at least one instance id');
  return ids.map((id) => {
    for (const group of c.doc.groups) {
      const instance = group.instances.find((i) => i.id === id);
      if (instance) return { group, instance };
    }
    throw notFound(`cluster ${c.doc.clusterName} has no instance ${id}`);
  });
}

/** A Data Hub runs no newer runtime than its data lake; `instead` is the other way out than upgrading the lake. */
export function checkLake(h: DatahubHook, envCrn: string, runtime: string, what: string, instead: (lakeRuntime: string) => string): void {
  const lake = h.world.lakes.of(envCrn);
  if (lake?.runtime && compareVersions(runtime, lake.runtime) > 0)
    throw failedPrecondition(
      `data lake ${lake.name} runs runtime ${lake.runtime}; ${what} runtime ${runtime} needs the data lake on ${runtime} or newer first: upgrade the data lake (\`datalake upgrade start --datalake-name ${lake.name} --runtime ${runtime}\`), or ${instead(lake.runtime)}`,
    );
}

/** `count` instances of a group, numbered from `from`, spread over the subnets. */
export function instances(
  env: EnvironmentView,
  subnets: readonly string[],
  cluster: string,
  group: string,
  from: number,
  count: number,
): InstanceRec[] {
  const nets = subnets.length > 0 ? subnets : env.network.subnetIds;
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const seed = `${cluster}/${group}/${i}/${uuid()}`;
    const subnet = nets[i % Math.max(1, nets.length)] ?? '';
    const at = env.network.subnetIds.indexOf(subnet);
    return {
      id: `${env.cloudPlatform === 'AWS' ? 'i-0' : ''}${hex(seed, 16)}`,
      fqdn: `${cluster}-${group}${i}.${cluster}.${hex(env.crn, 4)}-${hex(`${env.crn}/d`, 4)}.cloudera.site`,
      privateIp: `10.${parseInt(hex(seed, 2), 16) % 250}.${parseInt(hex(`${seed}/b`, 2), 16) % 250}.${(i % 250) + 4}`,
      subnetId: subnet,
      // A subnet is in one zone: the environment's n-th subnet in its n-th zone.
      availabilityZone: zoneOf(env, at >= 0 ? at : i),
    };
  });
}

/** The image a new cluster launches from: the one asked for (of its runtime), else the runtime's newest. */
export function imageFor(runtime: string, asked: { readonly id?: string; readonly catalogName?: string }): Image {
  const newest = newestImage(runtime);
  if (!newest) throw invalid(`runtime ${runtime} has no images`);
  const id = asked.id;
  if (!id) return newest;
  const image = IMAGES.find((i) => i.imageId === id);
  if (image && image.runtime !== runtime)
    throw invalid(`image ${id} is an image of runtime ${image.runtime}; the cluster template is for ${runtime}`);
  if (image) return image;
  // An image of a custom catalog: the emulator knows only the default catalog's, and takes the runtime's versions for it.
  if ((asked.catalogName ?? DEFAULT_CATALOG) !== DEFAULT_CATALOG) return { ...newest, imageId: id };
  throw notFound(`image ${id} is not in image catalog ${DEFAULT_CATALOG}`);
}

// ---- status-changing actions ----------------------------------------------------------

/** FAILED_PRECONDITION while instances of the cluster are being restarted, stopped or started. */
function requireNoInstanceWork(h: DatahubHook, c: ClusterRec, what: string): void {
  const w = running(h, c, 'restart')[0];
  if (w)
    throw failedPrecondition(`cluster ${c.doc.clusterName} has instance work running (operation ${w.id}); ${what} waits for it to end`);
}

/** A stop waits for the cluster's maintenance to end (a stopped cluster is left as it is: the verb's `idempotent`). */
function checkStop(h: DatahubHook, c: ClusterRec): void {
  requireNoInstanceWork(h, c, 'stopping');
  const w = running(h, c)[0];
  if (w)
    throw failedPrecondition(
      `cluster ${c.doc.clusterName} is running ${h.records('cluster').model.work?.lifecycle?.[w.activity.action]?.operation ?? w.activity.action} (operation ${w.id}); stop it when that has ended`,
    );
}

/** Sets one instance group's node count: instances are added (numbered on) or the newest removed. */
export function scale(h: DatahubHook, c: ClusterRec, groupName: string, count: number): string {
  const g = groupNamed(c, groupName);
  if (count < 0) throw invalid('instanceGroupDesiredCount must be 0 or more');
  if (g.type === 'GATEWAY') throw invalid(`instance group ${g.name} holds Cloudera Manager (GATEWAY) and cannot be scaled`);
  if (count === g.nodeCount) throw invalid(`instance group ${g.name} already has ${count} node(s)`);
  requireNoInstanceWork(h, c, 'scaling');
  const env = h.world.environments.require(c.doc.environmentCrn);
  const subnets = [...new Set(c.doc.groups.flatMap((x) => x.instances.map((i) => i.subnetId)))];
  const more = () => instances(env, subnets, c.doc.clusterName, g.name, g.instances.length, count - g.instances.length);
  const scaled = {
    ...g,
    nodeCount: count,
    instances: count < g.instances.length ? g.instances.slice(0, count) : [...g.instances, ...more()],
  };
  const up = count > g.nodeCount;
  const clusters = h.records('cluster');
  const id = clusters.begin(c, up ? 'upscale' : 'downscale', {
    effect: { groups: c.doc.groups.map((x) => (x === g ? scaled : x)) },
  }).operationId;
  const reason = `Manual ${up ? 'upscale' : 'downscale'} of instance group ${g.name} from ${g.nodeCount} to ${count} nodes`;
  c.data = { ...c.data, ...scalingReason(h, c, reason) };
  clusters.save(c);
  return id ?? '';
}

/** A delete of instances (a downscale of their groups) names instances of the cluster, none Cloudera Manager's host. */
function checkDeleteInstances(h: DatahubHook, c: ClusterRec, req: Doc): void {
  for (const { group, instance } of instancesNamed(c, strings(req.instanceIds)))
    if (group.type === 'GATEWAY') throw invalid(`instance ${instance.id} is in instance group ${group.name}, which holds Cloudera Manager`);
  requireNoInstanceWork(h, c, 'deleting instances');
}

/** The groups and instances a repair names, checked: its instance groups or instances must be the cluster's. */
function repairOf(c: ClusterRec, req: Doc): { groupNames: string[]; instanceIds: string[] } {
  const groupNames = strings(req.instanceGroupNames);
  const instanceIds = strings(obj(req.instances).instanceIds);
  for (const n of groupNames)
    if (!c.doc.groups.some((g) => g.name === n)) throw notFound(`cluster ${c.doc.clusterName} has no instance group ${n}`);
  const all = c.doc.groups.flatMap((g) => g.instances.map((i) => i.id));
  for (const id of instanceIds) if (!all.includes(id)) throw notFound(`cluster ${c.doc.clusterName} has no instance ${id}`);
  return { groupNames, instanceIds };
}

/** A repair names the cluster's groups or instances, and waits for instance work to end. */
function checkRepair(h: DatahubHook, c: ClusterRec, req: Doc): void {
  repairOf(c, req);
  requireNoInstanceWork(h, c, 'a repair');
}

/** The cluster's groups once repaired: the instances of the groups (or the instances) named replaced, every group's when none is named. */
function repaired(h: DatahubHook, c: ClusterRec, req: Doc): Doc {
  const { groupNames, instanceIds } = repairOf(c, req);
  const env = h.world.environments.require(c.doc.environmentCrn);
  const picked = (g: GroupRec, i: InstanceRec): boolean =>
    instanceIds.length > 0 ? instanceIds.includes(i.id) : groupNames.length === 0 || groupNames.includes(g.name);
  const renewed = (g: GroupRec, i: InstanceRec, k: number): InstanceRec[] =>
    bool(req.removeOnly) ? [] : instances(env, [i.subnetId], c.doc.clusterName, g.name, k, 1).map((n) => ({ ...n, fqdn: i.fqdn }));
  const groups = c.doc.groups.map((g) => {
    const kept = g.instances.flatMap((i, k) => (picked(g, i) ? renewed(g, i, k) : [i]));
    return { ...g, instances: kept, nodeCount: kept.length };
  });
  return { groups };
}

/** Runs the action that failed again, from where it failed. */
export function retry(h: DatahubHook, c: ClusterRec): void {
  const clusters = h.records('cluster');
  const state = clusters.state(c);
  if (!FAILED_STATES.includes(state) || !clusters.progress(c).failed)
    throw failedPrecondition(`cluster ${c.doc.clusterName} is ${state}; only a failed cluster operation can be retried`);
  const act = c.activity;
  clusters.begin(c, act.action, { retry: true, anyState: true, ...(act.effect ? { effect: act.effect } : {}) });
}

/** What refuses the cluster's actions, by action. */
export const actionChecks = {
  stop: (h, rec) => checkStop(h, asCluster(rec)),
  downscale: (h, rec, req) => checkDeleteInstances(h, asCluster(rec), req),
  repair: (h, rec, req) => checkRepair(h, asCluster(rec), req),
  databaseUpgrade: (h, rec, req) => void databaseTarget(h, asCluster(rec), req),
  verticalScale: (h, rec, req) => void verticallyScaled(h, asCluster(rec), req),
} satisfies Record<string, CheckFn<R>>;

/** What the cluster's actions set once they have succeeded, by action. */
export const actionEffects = {
  downscale: (_h, rec, req) => withoutInstances(asCluster(rec), req),
  repair: (h, rec, req) => repaired(h, asCluster(rec), req),
  databaseUpgrade: (h, rec, req) => ({ dbVersion: databaseTarget(h, asCluster(rec), req) }),
  verticalScale: (h, rec, req) => verticallyScaled(h, asCluster(rec), req),
} satisfies Record<string, (h: DatahubHook, rec: Readonly<EngineRecord>, req: Doc) => Doc>;

/** Every operation of a cluster, oldest first. */
export const operationsOf = (h: DatahubHook, c: ClusterRec): OperationRecord[] =>
  h.ctx.store.children<OperationRecord>(KIND.operation, c.id).map((x) => x.doc);

// ---- upgrades --------------------------------------------------------------------------

/** The cluster's image now. */
export function imageOf(c: ClusterRec): Image {
  const runtime = c.doc.runtime ?? '7.2.18';
  const known = IMAGES.find((i) => i.imageId === c.doc.imageId);
  const newest = newestImage(runtime);
  if (known) return known;
  if (!newest) throw new Error(`no image of runtime ${runtime}`);
  return c.doc.imageId ? { ...newest, imageId: c.doc.imageId } : newest;
}

/**
 * The images the cluster can be upgraded to: newer images of its runtime
 * (an OS upgrade), and the images of the runtimes its runtime upgrades to
 * (unless `osOnly`), no newer than its data lake's runtime.
 */
export function candidates(h: DatahubHook, c: ClusterRec, osOnly: boolean): { images: Image[]; reason?: string } {
  const current = imageOf(c);
  const lake = h.world.lakes.of(c.doc.environmentCrn);
  const next = osOnly ? [] : (UPGRADES[current.runtime] ?? []);
  const os = IMAGES.filter((i) => i.runtime === current.runtime && i.created > current.created);
  const runtimes = IMAGES.filter((i) => next.includes(i.runtime));
  const allowed = runtimes.filter((i) => !lake?.runtime || compareVersions(i.runtime, lake.runtime) <= 0);
  const images = [...os, ...allowed];
  if (images.length > 0) return { images };
  const held = runtimes.length > allowed.length ? `; runtime ${next.join(', ')} needs data lake ${lake?.name} upgraded first` : '';
  return {
    images,
    reason: `cluster ${c.doc.clusterName} runs the newest image of runtime ${current.runtime}${osOnly ? '' : ` and no runtime it can be upgraded to${held ? '' : ' is available'}`}${held}`,
  };
}

/** The image an upgrade (or its preparation) goes to, as the request picks it; FAILED_PRECONDITION when none fits. */
export function target(h: DatahubHook, c: ClusterRec, ask: { imageId?: string; runtime?: string; osOnly: boolean }): Image {
  const current = imageOf(c);
  if (ask.osOnly && ask.runtime) throw invalid('--lock-components upgrades the OS only; do not combine it with --runtime');
  if (ask.runtime && !runtimeOf(ask.runtime))
    throw invalid(
      `runtime ${ask.runtime} does not exist; runtimes: ${IMAGES.map((i) => i.runtime)
        .filter((r, i, a) => a.indexOf(r) === i)
        .join(', ')}`,
    );
  if (ask.runtime && compareVersions(ask.runtime, current.runtime) < 0)
    throw failedPrecondition(`cluster ${c.doc.clusterName} runs runtime ${current.runtime}; it cannot go back to ${ask.runtime}`);
  const { images, reason } = candidates(h, c, ask.osOnly);
  if (ask.imageId) {
    const hit = images.find((i) => i.imageId === ask.imageId);
    if (hit) return hit;
    if (!IMAGES.some((i) => i.imageId === ask.imageId))
      throw notFound(`image ${ask.imageId} is not in image catalog ${c.doc.catalogName ?? DEFAULT_CATALOG}`);
    throw failedPrecondition(
      `image ${ask.imageId} is not an upgrade candidate of cluster ${c.doc.clusterName}${reason ? `: ${reason}` : ''}`,
    );
  }
  const pool = ask.runtime ? images.filter((i) => i.runtime === ask.runtime) : images;
  const pick = pool.at(-1);
  if (pick) return pick;
  if (ask.runtime && ask.runtime !== current.runtime && !(UPGRADES[current.runtime] ?? []).includes(ask.runtime))
    throw failedPrecondition(
      `cluster ${c.doc.clusterName} runs runtime ${current.runtime}, which upgrades to ${(UPGRADES[current.runtime] ?? []).join(', ') || 'no newer runtime'}; not to ${ask.runtime}`,
    );
  throw failedPrecondition(reason ?? `no upgrade of cluster ${c.doc.clusterName} to runtime ${ask.runtime} is available`);
}

/** Starts the upgrade of a cluster to an image. */
export function upgrade(h: DatahubHook, c: ClusterRec, to: Image): string {
  if (running(h, c, 'prepare')[0])
    throw failedPrecondition(`cluster ${c.doc.clusterName} is still preparing an upgrade; wait for it to end`);
  requireNoInstanceWork(h, c, 'an upgrade');
  checkLake(h, c.doc.environmentCrn, to.runtime, 'an upgrade to', (r) => `upgrade the cluster to ${r} at most`);
  return (
    h.records('cluster').begin(c, 'upgrade', { effect: { runtime: to.runtime, imageId: to.imageId, prepared: undefined } }).operationId ??
    ''
  );
}

// ---- vertical scaling, database ----------------------------------------------------------

/** The cluster's groups once a group's instance type (on a stopped cluster) and/or the disks of its instances have changed, as the request asks. */
function verticallyScaled(h: DatahubHook, c: ClusterRec, req: Doc): Doc {
  const instanceType = req.instanceTemplate === undefined ? undefined : str(obj(req.instanceTemplate).instanceType);
  if (req.instanceTemplate !== undefined && !instanceType) throw invalid('instanceTemplate needs an instanceType');
  const disks = req.diskOptions === undefined ? undefined : obj(req.diskOptions);
  if (instanceType === undefined && !disks) throw invalid('nothing to change: give instanceTemplate and/or diskOptions');
  const g = groupNamed(c, text(req.group));
  const state = h.records('cluster').state(c);
  if (instanceType !== undefined && state !== 'STOPPED')
    throw failedPrecondition(`cluster ${c.doc.clusterName} is ${state}; changing the instance type needs it STOPPED (stop it first)`);
  if (instanceType !== undefined && instanceType === g.instanceType)
    throw invalid(`instance group ${g.name} already runs on ${instanceType}`);
  const volumes = { ...(g.volumes ?? DEFAULT_VOLUME[c.doc.cloudPlatform]) };
  let rootVolumeSize = g.rootVolumeSize;
  if (disks) {
    const add = disks.addDisks as Doc | undefined;
    const modify = disks.modifyDisks as Doc | undefined;
    const remove = disks.deleteDisks === true;
    if ([add, modify, remove || undefined].filter(Boolean).length !== 1)
      throw invalid('diskOptions: give one of addDisks, modifyDisks or deleteDisks');
    if (add) {
      const size = Number(add.size);
      if (size < 1) throw invalid('diskOptions.addDisks.size must be 1 GB or more');
      volumes.count += Number(add.numberOfDisks);
      volumes.size = size;
      volumes.volumeType = String(add.volumeType);
    }
    if (modify) {
      const size = Number(modify.size);
      if (modify.diskType === 'ROOT_DISK') {
        if (size <= (g.rootVolumeSize ?? 100))
          throw invalid(`the root disks of ${g.name} are ${g.rootVolumeSize ?? 100} GB; they can only grow`);
        rootVolumeSize = size;
      } else {
        if (volumes.count === 0) throw failedPrecondition(`instance group ${g.name} has no attached disks to modify`);
        if (size < volumes.size) throw invalid(`the disks of ${g.name} are ${volumes.size} GB; they can only grow`);
        volumes.size = size;
        if (str(modify.volumeType)) volumes.volumeType = String(modify.volumeType);
      }
    }
    if (remove) {
      if (volumes.count === 0) throw failedPrecondition(`instance group ${g.name} has no attached disks to delete`);
      volumes.count = 0;
    }
  }
  requireNoInstanceWork(h, c, 'vertical scaling');
  const groups = c.doc.groups.map((x) =>
    x.name !== g.name ? x : { ...x, instanceType: instanceType ?? x.instanceType, volumes, ...(rootVolumeSize ? { rootVolumeSize } : {}) },
  );
  return { groups };
}

/** The version a database upgrade goes to: the one asked for, else the next; the same one only with force. */
function databaseTarget(h: DatahubHook, c: ClusterRec, req: Doc): string {
  if ((c.doc.database ?? 'NON_HA') === 'NONE')
    throw failedPrecondition(`cluster ${c.doc.clusterName} has no external database (created with --datahub-database NONE)`);
  const current = c.doc.dbVersion ?? DEFAULT_DB_VERSION;
  const at = DB_VERSIONS.indexOf(current);
  const to = str(req.targetVersion) ?? DB_VERSIONS[at + 1];
  if (!to) throw failedPrecondition(`the database of cluster ${c.doc.clusterName} is already at the newest version, ${current}`);
  const diff = DB_VERSIONS.indexOf(to) - at;
  if (diff < 0) throw failedPrecondition(`the database of cluster ${c.doc.clusterName} is at ${current}; it cannot go back to ${to}`);
  if (diff === 0 && !bool(req.force))
    throw failedPrecondition(`the database of cluster ${c.doc.clusterName} is already at ${to}; use --force to run the upgrade again`);
  requireNoInstanceWork(h, c, 'a database upgrade');
  return to;
}

/** What uses templates, recipes and custom configurations: the clusters of the account. */
export function clustersUsing(h: DatahubHook, what: 'template' | 'recipe' | 'customConfigurations', name: string): string[] {
  const lc = name.toLowerCase();
  const uses = (c: ClusterRec): boolean =>
    what === 'template'
      ? c.doc.clusterTemplateName.toLowerCase() === lc
      : what === 'recipe'
        ? c.doc.groups.some((g) => g.recipes.some((r) => r.toLowerCase() === lc))
        : (c.doc.customConfigurations ?? '').toLowerCase() === lc;
  return h
    .records('cluster')
    .all()
    .map(asCluster)
    .filter(uses)
    .map((c) => c.doc.clusterName);
}

/** Why the scaling that starts now runs, kept beside the cluster by the time it starts (its operation's start). */
export const scalingReason = (h: DatahubHook, c: ClusterRec, reason: string): Doc => ({
  scalingReasons: { ...(c.data?.scalingReasons as Record<string, string> | undefined), [String(h.ctx.clock.now())]: reason },
});

/** The groups of a cluster once the instances a delete names are gone. */
function withoutInstances(c: ClusterRec, req: Doc): Doc {
  const ids = strings(req.instanceIds);
  return {
    groups: c.doc.groups.map((g) => {
      const kept = g.instances.filter((i) => !ids.includes(i.id));
      return { ...g, instances: kept, nodeCount: kept.length };
    }),
  };
}
