/**
 * Data lakes on the engine's records: what the model's facts cannot say of
 * them. A new lake's instance groups, image and settings (fill), the rules
 * each action has beyond the states it starts in (check), what an action's
 * success sets (effect: a new shape, runtime, instance count), and the
 * operations no verb says: a resize that may only validate, upgrades among
 * the images newer than the lake's, a retry of a failed action with the
 * effect it had. A lake whose name starts with `fail-` ends every
 * long-running action in its failure state (`fail-<action>-...`: that action
 * only, once); a forced delete never fails.
 */
import { createHash } from 'node:crypto';
import type { resources } from '../../../model/services/datalake/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { crn, uuid } from '../../ids.js';
import { DEFAULT_RUNTIME, RUNTIMES } from '../../shared/runtimes.js';
import { bool, docs, num, obj, str, strings, text } from '../../values.js';
import {
  CATALOG,
  DB_VERSIONS,
  IMAGES,
  SCALE_OUT_GROUPS,
  SECRET_TYPES,
  SHAPE_GROUPS,
  hashId,
  imageOrder,
  type Image,
  type Shape,
} from './catalogue.js';
import { imageDoc, imageInfo, shown } from './views.js';

export type R = keyof typeof resources.resources;

/** A data lake as the engine keeps it; its document is what fillLake makes (and its effects change). */
export type Lake = Readonly<EngineRecord>;
export type LakeDoc = ReturnType<typeof fillLake>;
export const lakeDoc = (lake: Lake): LakeDoc => lake.doc as unknown as LakeDoc;

type CloudPlatform = 'AWS' | 'AZURE' | 'GCP';
type InstanceRec = ReturnType<typeof makeInstance>;
type GroupRec = ReturnType<typeof makeGroups>[number];

const RUNNING = ['RUNNING'];
const isFailed = (status: string): boolean => status.endsWith('_FAILED');
const versions = RUNTIMES.map((r) => r.version);

/** The answer of a lake's long-running action: the operation it started. */
export const operationOf = (_h: Hook<R>, lake: Lake): Doc => ({ operationId: lake.activity.operationId });

/** Where a lake's instances are: what making one reads of it. */
interface Site {
  readonly datalakeName: string;
  readonly cloudPlatform: CloudPlatform;
  readonly region: string;
  readonly multiAz: boolean;
}

function makeInstance(l: Site, group: string, i: number, type: string, cm: boolean) {
  const { datalakeName: lake, cloudPlatform: platform, region } = l;
  const zones =
    platform === 'AZURE'
      ? ['1', '2', '3']
      : platform === 'GCP'
        ? ['a', 'b', 'c'].map((z) => `${region}-${z}`)
        : ['a', 'b', 'c'].map((z) => `${region}${z}`);
  const bytes = createHash('md5').update(`${lake}/${group}/${i}/${uuid()}`).digest();
  return {
    id: platform === 'AWS' ? `i-0${bytes.toString('hex').slice(0, 16)}` : `${lake}-${group}${i}-${bytes.toString('hex').slice(0, 6)}`,
    discoveryFQDN: `${lake}-${group}${i}.${lake}.xcu2-8y8x.wl.cloudera.site`,
    privateIp: `10.${bytes[0] ?? 0}.${bytes[1] ?? 0}.${((bytes[2] ?? 0) % 250) + 4}`,
    instanceVmType: type,
    availabilityZone: (l.multiAz ? zones[i % 3] : zones[0]) ?? '',
    subnetId: `subnet-${bytes.toString('hex').slice(6, 14)}`,
    clouderaManagerServer: cm,
    volumes: { count: 1, volumeType: platform === 'AWS' ? 'gp3' : platform === 'AZURE' ? 'StandardSSD_LRS' : 'pd-ssd', size: 100 },
  };
}

function makeGroups(l: Site, shape: Shape) {
  return SHAPE_GROUPS[shape].map(([group, count, type]) => ({
    name: group,
    recipes: [] as string[],
    instances: Array.from({ length: count }, (_, i) => makeInstance(l, group, i, type, group === 'master' && i === 0)),
  }));
}

/** Sets what the request asks of each group it names by `name` (its instance type, its disk size), refusing one the shape lacks. */
function customise(groups: GroupRec[], asked: Doc[], missing: (name: string) => string, set: (i: InstanceRec, c: Doc) => void): void {
  for (const c of asked) {
    const g = groups.find((x) => x.name === text(c.name));
    if (!g) throw invalid(missing(text(c.name)));
    for (const i of g.instances) set(i, c);
  }
}
const instanceType = (i: InstanceRec, c: Doc): void => {
  i.instanceVmType = str(c.instanceType) ?? i.instanceVmType;
};

// ---- creating ----------------------------------------------------------------------

/** The platform each create operation makes a lake on (and whether in AWS GovCloud). */
const PLATFORMS: Readonly<Record<string, readonly [CloudPlatform, boolean]>> = {
  createAWSDatalake: ['AWS', false],
  createAWSGovCloudDatalake: ['AWS', true],
  createAzureDatalake: ['AZURE', false],
  createGCPDatalake: ['GCP', false],
};
const platformOf = (h: Hook<R>): readonly [CloudPlatform, boolean] => PLATFORMS[h.ctx.op.name] ?? ['AWS', false];

/** A lake's name is unique in the account, and it is made on its environment's own platform. */
function checkCreate(h: Hook<R>, lake: Lake, req: Doc): void {
  const name = text(req.datalakeName);
  if (h.records('datalake').find(name)) throw alreadyExists(`a data lake named ${name} already exists`);
  const env = h.world.environments.require(String(lake.env));
  const [platform, gov] = platformOf(h);
  const envGov = env.region.startsWith('us-gov-');
  if (env.cloudPlatform !== platform || envGov !== gov) {
    const kind = (p: string, g: boolean): string => (g ? 'AWS GovCloud' : p);
    throw invalid(
      `environment ${env.environmentName} is an ${kind(env.cloudPlatform, envGov)} environment; a ${kind(platform, gov)} data lake needs one of its own platform`,
    );
  }
}

/** A new lake: its runtime and image (the request's, else the default's newest), its shape's instance groups, its settings. */
export function fillLake(h: Hook<R>, lake: Readonly<EngineRecord>, req: Doc) {
  const name = text(req.datalakeName);
  const env = h.world.environments.require(String(lake.env));
  const [platform, gov] = platformOf(h);
  const image = obj(req.image);
  const imageId = str(image.id);
  const catalogName = str(image.catalogName);
  let runtime = str(req.runtime);
  let img: Image | undefined;
  if (imageId) {
    img = IMAGES.find((i) => i.imageId === imageId);
    if (!img) throw invalid(`image ${imageId} is not in the image catalog ${catalogName ?? CATALOG}`);
    if (runtime && runtime !== img.runtime) throw invalid(`image ${img.imageId} is for runtime ${img.runtime}, not ${runtime}`);
    runtime = img.runtime;
  }
  runtime ??= DEFAULT_RUNTIME;
  if (!versions.includes(runtime)) throw invalid(`runtime ${runtime} is not supported; choose one of ${versions.join(', ')}`);
  img ??= IMAGES.filter((i) => i.runtime === runtime).pop();
  const shape = (str(req.scale) as Shape | undefined) ?? 'LIGHT_DUTY';
  const multiAz = bool(req.multiAz);
  const groups = makeGroups({ datalakeName: name, cloudPlatform: platform, region: env.region, multiAz }, shape);
  customise(groups, docs(req.customInstanceGroups), (g) => `instance group ${g} is not part of a ${shape} data lake`, instanceType);
  for (const r of docs(req.recipes)) {
    const g = groups.find((x) => x.name === text(r.instanceGroupName));
    if (!g) throw invalid(`recipes name instance group ${text(r.instanceGroupName)}, which a ${shape} data lake does not have`);
    g.recipes = strings(r.recipeNames);
  }
  const cfg = obj(req.cloudProviderConfiguration);
  const { accountId, region } = h.ctx.info;
  return {
    crn: String(lake.crn),
    datalakeName: name,
    environmentName: env.environmentName,
    environmentCrn: env.crn,
    credentialCrn: crn('environments', region, accountId, 'credential', hashId(`cred:${env.credentialName}`)),
    cloudPlatform: platform,
    gov,
    region: env.region,
    shape,
    runtime,
    imageId: img?.imageId ?? '',
    catalogName: catalogName ?? CATALOG,
    enableRangerRaz: bool(req.enableRangerRaz),
    multiAz,
    tags: docs(req.tags).map((t) => ({ key: text(t.key), value: text(t.value) })),
    groups,
    storage: String(cfg.storageBucketLocation ?? cfg.storageLocation ?? ''),
    identity: String(cfg.instanceProfile ?? cfg.managedIdentity ?? cfg.serviceAccountEmail ?? ''),
    javaVersion: num(req.javaVersion) ?? 8,
    databaseVersion: 'VERSION_11',
    imds: 'v1',
    sku: platform === 'AZURE' ? (str(req.loadBalancerSku) ?? 'STANDARD') : 'NONE',
    certIssuedAt: h.ctx.clock.now(),
  };
}

// ---- rules of actions -----------------------------------------------------------------

const instanceOf = (lake: Lake, id: string): void => {
  if (!lakeDoc(lake).groups.some((g) => g.instances.some((i) => i.id === id)))
    throw notFound(`data lake ${nameOf(lake)} has no instance ${id}`);
};
const groupOf = (lake: Lake, name: string): GroupRec => {
  const g = lakeDoc(lake).groups.find((x) => x.name === name);
  if (!g) throw notFound(`data lake ${nameOf(lake)} has no instance group ${name}`);
  return g;
};

/** The database server's version after an upgrade (the newest when none is given); never back, the same one only with force. */
function databaseTarget(lake: Lake, req: Doc): string {
  const at = lakeDoc(lake).databaseVersion;
  const to = str(req.targetVersion) ?? DB_VERSIONS[DB_VERSIONS.length - 1] ?? at;
  if (DB_VERSIONS.indexOf(to) < DB_VERSIONS.indexOf(at))
    throw failedPrecondition(`the database server is at ${at}; it cannot go back to ${to}`);
  if (to === at && !bool(req.force))
    throw failedPrecondition(`the database server is already at ${to}; use --force to run the upgrade again`);
  return to;
}

/** Renewed or rotated certificates of the lake start their lifetime again. */
const reissued = (h: Hook<R>): Doc => ({ certIssuedAt: h.ctx.clock.now() });

/** A lake's hooks: the rules each change has beyond the states it starts in, a new lake's fields, its views' and what each action's success sets. */
export const hooks: ResourceHooks<R> = {
  check: {
    create: checkCreate,
    /** A delete while other work runs only with force; never a second one. */
    delete: (h, lake, req) => {
      const lakes = h.records('datalake');
      const busy = lakes.busy(lake);
      if (busy && lake.activity.action === 'delete') throw failedPrecondition(`data lake ${lake.name} is already being deleted`);
      if (busy && !bool(req.force))
        throw failedPrecondition(`data lake ${lake.name} is ${lakes.state(lake)}; wait for it to finish or delete with --force`);
    },
    /** A repair from RUNNING or a failed state (not a failed delete), of groups and instances the lake has. */
    repair: (h, lake, req) => {
      const state = h.records('datalake').state(lake);
      if (!(state === 'RUNNING' || (isFailed(state) && state !== 'DELETE_FAILED')))
        throw failedPrecondition(`data lake ${lake.name} is ${state}; repair needs it in another state`);
      for (const g of [...strings(req.instanceGroupNames), ...(str(req.instanceGroupName) ? [text(req.instanceGroupName)] : [])])
        groupOf(lake, g);
      for (const id of strings(obj(req.instances).instanceIds)) instanceOf(lake, id);
    },
    restart: (_h, lake, req) => {
      for (const id of strings(req.instances)) instanceOf(lake, id);
    },
    /** Scaling out needs the lake RUNNING, and names a scale-out group. */
    scaleHorizontal: (h, lake, req) => {
      h.records('datalake').require(lake, RUNNING, 'scaling');
      const group = text(req.instanceGroupName);
      if (!SCALE_OUT_GROUPS.includes(group)) throw invalid(`${group} is not a scale-out instance group`);
    },
    /** Scaling up needs the lake RUNNING, and names a group it has. */
    scaleVertical: (h, lake, req) => {
      h.records('datalake').require(lake, RUNNING, 'vertical scaling');
      groupOf(lake, text(req.group));
    },
    imds: (_h, lake) => {
      const platform = lakeDoc(lake).cloudPlatform;
      if (platform !== 'AWS') throw failedPrecondition(`data lake ${lake.name} runs on ${platform}; IMDS settings are for AWS`);
    },
    migrateSkus: (_h, lake, req) => {
      const l = lakeDoc(lake);
      if (l.cloudPlatform !== 'AZURE')
        throw failedPrecondition(`data lake ${lake.name} runs on ${l.cloudPlatform}; SKU migration is for Azure`);
      if (l.sku === 'STANDARD' && !bool(req.force)) throw failedPrecondition(`data lake ${lake.name} already uses the STANDARD SKU`);
    },
    rotateSecrets: (_h, _lake, req) => {
      const known = new Set(SECRET_TYPES.map(([t]) => t));
      const bad = strings(req.secretTypes).filter((t) => !known.has(t));
      if (bad.length) throw invalid(`unknown secret type ${bad.join(', ')}; see listDatalakeSecretTypes`);
    },
  },
  fill: fillLake,
  show: shown,
  effect: {
    /** Sets the instance count of a scale-out group (made when missing). */
    scaleHorizontal: (_h, lake, req) => {
      const groupName = text(req.instanceGroupName);
      const count = Number(req.instanceGroupDesiredCount);
      const l = lakeDoc(lake);
      const groups = l.groups.map((g) => ({ ...g, instances: [...g.instances] }));
      const group = groups.find((g) => g.name === groupName) ?? { name: groupName, instances: [], recipes: [] };
      if (!groups.includes(group)) groups.push(group);
      const type = groupName === 'storage_scale_out' ? 'r5.2xlarge' : 'm5.2xlarge';
      while (group.instances.length < count) group.instances.push(makeInstance(l, groupName, group.instances.length, type, false));
      group.instances.length = count;
      return { groups };
    },
    /** A group's new instance type and disks. */
    scaleVertical: (_h, lake, req) => {
      const disks = obj(req.diskOptions);
      const modify = obj(disks.modifyDisks);
      const instanceType = str(obj(req.instanceTemplate).instanceType);
      const size = num(modify.size);
      const volumeType = str(modify.volumeType);
      const addDisks = num(obj(disks.addDisks).numberOfDisks);
      const groups = structuredClone(lakeDoc(lake).groups);
      for (const i of groups.find((g) => g.name === text(req.group))?.instances ?? []) {
        if (instanceType) i.instanceVmType = instanceType;
        if (size !== undefined) i.volumes = { ...i.volumes, size, volumeType: volumeType ?? i.volumes.volumeType };
        if (addDisks !== undefined) i.volumes = { ...i.volumes, count: i.volumes.count + addDisks };
      }
      return { groups };
    },
    renewCertificate: reissued,
    rotateCertificates: reissued,
    imds: (h) => ({ imds: h.ctx.op.name === 'updateToAwsImdsV1' ? 'v1' : 'v2' }),
    migrateSkus: () => ({ sku: 'STANDARD' }),
    databaseUpgrade: (_h, lake, req) => ({ databaseVersion: databaseTarget(lake, req) }),
    /** setCatalog: the image catalog the lake's upgrades read (no field of its shape: an update's request fields do not reach it). */
    update: (_h, _lake, req) => ({ catalogName: text(req.catalogName) }),
    /** The default Java version a change sets (8, 11, 17 or 21). */
    javaVersion: (_h, _lake, req) => {
      const version = Number(req.javaVersion);
      if (![8, 11, 17, 21].includes(version)) throw invalid(`Java ${version} is not supported; choose 8, 11, 17 or 21`);
      return { javaVersion: version };
    },
  },
};

/** The secret types a lake has (no database root password on GCP). */
export const secretTypes = (_h: Hook<R>, lake: Lake): Doc => ({
  datalakeSecretTypes: SECRET_TYPES.filter(([t]) => t !== 'DATABASE_ROOT_PASSWORD' || lakeDoc(lake).cloudPlatform !== 'GCP').map(
    ([secretType, description]) => ({ secretType, description }),
  ),
});

export const databaseUpgradeStarted = (_h: Hook<R>, lake: Lake): Doc => ({
  targetVersion: lake.activity.effect?.databaseVersion,
  operationId: lake.activity.operationId,
});

// ---- operations no verb says -----------------------------------------------------------

const lakeNamed = (h: Hook<R>, req: Doc, field: string): Lake => {
  const ref = str(req[field]);
  if (!ref) throw invalid('the data lake name or CRN is missing');
  return h.records('datalake').get(ref);
};

/** The account's lakes, in an environment (name or CRN) and with a name (any case) or CRN when given. */
export function lakesListed(h: Hook<R>, req: Doc): EngineRecord[] {
  const envRef = str(req.environmentName);
  const env = envRef ? h.world.environments.require(envRef).crn : undefined;
  const name = str(req.datalakeName)?.toLowerCase();
  return h
    .records('datalake')
    .all()
    .filter((l) => (!env || l.env === env) && (!name || l.name?.toLowerCase() === name || l.crn === req.datalakeName));
}

/** Runs a failed action again, with the effect it had (code: the action is the one that failed, whichever it was). */
export function retryDatalake(h: Hook<R>, req: Doc): Doc {
  const lakes = h.records('datalake');
  const lake = lakeNamed(h, req, 'datalakeName');
  const status = lakes.state(lake);
  if (!isFailed(status)) throw failedPrecondition(`data lake ${lake.name} is ${status}; only a failed operation can be retried`);
  const act = lakes.begin(lake, lake.activity.action, { effect: lake.activity.effect, retry: true, anyState: true });
  return { operationId: act.operationId };
}

/**
 * Checks a resize; unless only validating, starts it (the new shape applies
 * when it succeeds). Code: a validation answers without starting anything.
 */
export function resizeDatalake(h: Hook<R>, req: Doc): Doc {
  const lakes = h.records('datalake');
  const lake = lakeNamed(h, req, 'datalakeName');
  const l = lakeDoc(lake);
  const target = text(req.targetSize) as Shape;
  const multiAz = bool(req.multiAz);
  lakes.require(lake, RUNNING, 'resizing');
  if (target === l.shape && multiAz === l.multiAz) throw failedPrecondition(`data lake ${l.datalakeName} already has the ${target} shape`);
  const base = {
    datalakeName: l.datalakeName,
    datalakeCrn: lake.crn,
    environmentCrn: l.environmentCrn,
    runtime: l.runtime,
    cloudbreakVersion: '2.92.0-b61',
    tags: l.tags,
  };
  if (bool(req.validationOnly)) return { ...base, status: 'RUNNING', statusReason: `resize to ${target} is possible` };
  const groups = makeGroups({ ...l, multiAz }, target);
  const missing = (g: string): string => `a ${target} data lake has no instance group ${g}`;
  customise(groups, docs(req.customInstanceTypes), missing, instanceType);
  customise(groups, docs(req.customInstanceDisks), missing, (i, d) => {
    i.volumes = { ...i.volumes, size: num(d.diskSize) ?? i.volumes.size };
  });
  for (const g of groups) g.recipes = l.groups.find((x) => x.name === g.name)?.recipes ?? [];
  const act = lakes.begin(lake, 'resize', { effect: { shape: target, multiAz, groups } });
  return { ...base, status: lakes.state(lake), statusReason: `resizing to ${target}`, operationId: act.operationId };
}

/** The images newer than the lake's, as a query narrows them. */
function candidates(lake: Lake, q: { runtime?: string; imageId?: string; lockComponents?: boolean; latestPerRuntime?: boolean }): Image[] {
  const l = lakeDoc(lake);
  const cur = IMAGES.find((i) => i.imageId === l.imageId);
  const curOrder = cur ? imageOrder(cur) : -1;
  let list = IMAGES.filter((i) => imageOrder(i) > curOrder)
    .filter((i) => (q.lockComponents ? i.runtime === l.runtime : true))
    .filter((i) => (q.runtime ? i.runtime === q.runtime : true));
  if (q.imageId) list = list.filter((i) => i.imageId === q.imageId);
  if (q.latestPerRuntime) list = versions.map((v) => list.filter((i) => i.runtime === v).pop()).filter((i): i is Image => !!i);
  return list;
}

/** Checks what an upgrade could go to and starts the preparation (code: with no candidate it answers why and starts nothing). */
export function prepareDatalakeUpgrade(h: Hook<R>, req: Doc): Doc {
  const lake = lakeNamed(h, req, 'datalake');
  const list = candidates(lake, { runtime: str(req.runtime), imageId: str(req.imageId) });
  const base = { current: imageInfo(lake), upgradeCandidates: list.map((i) => imageDoc(i, lakeDoc(lake).catalogName)) };
  if (list.length === 0) return { ...base, reason: 'no upgrade candidate matches; nothing to prepare' };
  return { ...base, operationId: h.records('datalake').begin(lake, 'prepareUpgrade').operationId };
}

/**
 * Shows the candidates, checks an upgrade (dry run) or upgrades to the
 * newest of them (code: one operation that lists, checks or starts).
 */
export function upgradeDatalake(h: Hook<R>, req: Doc): Doc {
  const lake = lakeNamed(h, req, 'datalakeName');
  const catalog = lakeDoc(lake).catalogName;
  const latestPerRuntime = bool(req.showLatestAvailableImagePerRuntime);
  const imageId = str(req.imageId);
  const runtime = str(req.runtime);
  if (runtime && !versions.includes(runtime)) throw invalid(`runtime ${runtime} is not supported`);
  const list = candidates(lake, { runtime, imageId, lockComponents: bool(req.lockComponents), latestPerRuntime });
  const base = { current: imageInfo(lake), upgradeCandidates: list.map((i) => imageDoc(i, catalog)) };
  const reason = list.length === 0 ? (imageId ? `image ${imageId} is not an upgrade candidate` : 'no newer image is available') : undefined;
  if (bool(req.showAvailableImages) || latestPerRuntime) return { ...base, ...(reason ? { reason } : {}) };
  if (bool(req.dryRun)) return { ...base, reason: reason ?? 'the upgrade can run' };
  const target = list[list.length - 1];
  if (reason || !target) throw failedPrecondition(`cannot upgrade data lake ${lake.name}: ${reason ?? 'no newer image is available'}`);
  const act = h.records('datalake').begin(lake, 'upgrade', { effect: { imageId: target.imageId, runtime: target.runtime } });
  return { ...base, upgradeCandidates: [imageDoc(target, catalog)], operationId: act.operationId };
}

/** Sets each named group's recipes; answers what was attached and detached per group (code: a change with no lifecycle of its own). */
export function replaceRecipes(h: Hook<R>, req: Doc): Doc {
  const lakes = h.records('datalake');
  const lake = lakeNamed(h, req, 'datalake');
  const attached: Doc[] = [];
  const detached: Doc[] = [];
  for (const w of docs(req.instanceGroupRecipes)) {
    const g = groupOf(lake, text(w.instanceGroupName));
    const next = [...new Set(strings(w.recipeNames))];
    const add = next.filter((n) => !g.recipes.includes(n));
    const drop = g.recipes.filter((n) => !next.includes(n));
    if (add.length) attached.push({ instanceGroupName: g.name, recipeNames: add });
    if (drop.length) detached.push({ instanceGroupName: g.name, recipeNames: drop });
    g.recipes = next;
  }
  lakes.save(lake);
  return { attachedRecipes: attached, detachedRecipes: detached };
}

/** Whether a storage location can be written (code: the answer depends on the location only). */
export function validateCloudStorage(_h: Hook<R>, req: Doc): Doc {
  const loc = text(req.storageLocation);
  return loc.includes('fail-') ? { status: 'ERROR', error: `the data access role cannot write to ${loc}` } : { status: 'OK' };
}
