/**
 * Data lakes: their lifecycle (LAKE, on the emulator clock, read lazily),
 * creation, and every action on a lake, with the rules each has. Effects of
 * an action (a new shape, runtime, instance count) are applied by the first
 * read after the action succeeded. A lake whose name starts with `fail-` ends
 * every long-running action in its failure state (`fail-<action>-...`: that
 * action only, once); a forced delete never fails.
 */
import { createHash } from 'node:crypto';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { requireEnvironment } from '../../environments.js';
import { crn, uuid } from '../../ids.js';
import { Operations, Resources, type EngineContext, type Lifecycle, type OperationRecord } from '../../lifecycle.js';
import type { BackendContext, Doc } from '../../types.js';
import {
  CATALOG,
  DB_VERSIONS,
  DEFAULT_RUNTIME,
  IMAGES,
  RUNTIMES,
  SCALE_OUT_GROUPS,
  SECRET_TYPES,
  SHAPE_GROUPS,
  hashId,
  imageOrder,
  type Image,
  type Shape,
} from './catalogue.js';
import { KIND, type CloudPlatform, type GroupRec, type InstanceRec, type LakeRec } from './records.js';

const RUNNING = ['RUNNING'];

/** A one-phase action of a running lake: `<STATE>_IN_PROGRESS` for `minutes`, then RUNNING or `<STATE>_FAILED`. */
const onRunning = (state: string, minutes: number, operation: string): Lifecycle[string] => ({
  from: RUNNING,
  phases: [[`${state}_IN_PROGRESS`, minutes]],
  success: 'RUNNING',
  failure: `${state}_FAILED`,
  operation,
});

/** What data lakes do, and how long it takes (emulated minutes). */
export const LAKE: Lifecycle = {
  create: {
    phases: [
      ['REQUESTED', 0.5],
      ['EXTERNAL_DATABASE_CREATION_IN_PROGRESS', 3],
      ['STACK_CREATION_IN_PROGRESS', 6.5],
    ],
    success: 'RUNNING',
    failure: 'PROVISIONING_FAILED',
    operation: 'PROVISION',
  },
  delete: {
    phases: [
      ['DELETE_REQUESTED', 0.5],
      ['STACK_DELETION_IN_PROGRESS', 2],
      ['EXTERNAL_DATABASE_DELETION_IN_PROGRESS', 1],
    ],
    success: 'DELETED',
    failure: 'DELETE_FAILED',
    operation: 'DELETION',
    removes: true,
  },
  start: {
    from: ['STOPPED', 'START_FAILED'],
    phases: [['START_IN_PROGRESS', 4]],
    success: 'RUNNING',
    failure: 'START_FAILED',
    operation: 'START',
  },
  stop: {
    from: ['RUNNING', 'STOP_FAILED'],
    phases: [['STOP_IN_PROGRESS', 3]],
    success: 'STOPPED',
    failure: 'STOP_FAILED',
    operation: 'STOP',
  },
  resize: onRunning('RESIZE', 15, 'RESIZE'),
  upgrade: onRunning('DATALAKE_UPGRADE', 12, 'UPGRADE'),
  prepareUpgrade: onRunning('DATALAKE_UPGRADE_PREPARATION', 3, 'UPGRADE_PREPARATION'),
  databaseUpgrade: onRunning('DATALAKE_UPGRADE_DATABASE_SERVER', 8, 'DATABASE_UPGRADE'),
  repair: { phases: [['REPAIR_IN_PROGRESS', 6]], success: 'RUNNING', failure: 'REPAIR_FAILED', operation: 'REPAIR' },
  recover: {
    from: ['DATALAKE_UPGRADE_FAILED', 'RESIZE_FAILED', 'RECOVERY_FAILED'],
    phases: [['RECOVERY_IN_PROGRESS', 8]],
    success: 'RUNNING',
    failure: 'RECOVERY_FAILED',
    operation: 'RECOVERY',
  },
  scaleHorizontal: onRunning('DATALAKE_HORIZONTAL_SCALE', 4, 'HORIZONTAL_SCALE'),
  scaleVertical: onRunning('DATALAKE_VERTICAL_SCALE', 5, 'VERTICAL_SCALE'),
  restart: onRunning('DATALAKE_RESTART', 3, 'RESTART_INSTANCES'),
  renewCertificate: onRunning('CERT_RENEWAL', 3, 'CERTIFICATE_RENEWAL'),
  rotateCertificates: onRunning('CERT_ROTATION', 4, 'CERTIFICATE_ROTATION'),
  rotateDbCertificate: onRunning('DATABASE_CERT_ROTATION', 3, 'DATABASE_CERTIFICATE_ROTATION'),
  rotateSecrets: onRunning('SECRET_ROTATION', 3, 'SECRET_ROTATION'),
  javaVersion: onRunning('CHANGE_JAVA_VERSION', 5, 'SET_DEFAULT_JAVA_VERSION'),
  dns: onRunning('PUBLIC_DNS_UPDATE', 1, 'UPDATE_PUBLIC_DNS'),
  imds: onRunning('IMDS_UPDATE', 2, 'UPDATE_IMDS'),
  sync: onRunning('SYNC_COMPONENT_VERSIONS', 1, 'SYNC'),
  orchestrator: onRunning('SALT_UPDATE', 2, 'SALT_UPDATE'),
  migrateSkus: onRunning('SKU_MIGRATION', 4, 'SKU_MIGRATION'),
};

/** The simple actions of a running lake (no arguments beyond the lake). */
export type SimpleAction = 'sync' | 'orchestrator' | 'dns' | 'rotateSecrets';
export type CertificateAction = 'renewCertificate' | 'rotateCertificates' | 'rotateDbCertificate';

const isFailed = (status: string): boolean => status.endsWith('_FAILED');

export interface LakeSpec {
  readonly name: string;
  readonly environment: string;
  readonly platform: CloudPlatform;
  readonly gov: boolean;
  readonly runtime?: string;
  readonly image?: { readonly id?: string; readonly catalogName?: string };
  readonly scale?: Shape;
  readonly multiAz: boolean;
  readonly enableRangerRaz: boolean;
  readonly customInstanceGroups: ReadonlyArray<{ readonly name: string; readonly instanceType?: string }>;
  readonly recipes: ReadonlyArray<{ readonly instanceGroupName: string; readonly recipeNames: readonly string[] }>;
  readonly tags: ReadonlyArray<{ key: string; value: string }>;
  readonly storage: string;
  readonly identity: string;
  readonly javaVersion?: number;
  readonly loadBalancerSku?: string;
}

export interface ResizeSpec {
  readonly target: Shape;
  readonly multiAz: boolean;
  readonly instanceTypes: ReadonlyArray<{ readonly name: string; readonly instanceType?: string }>;
  readonly disks: ReadonlyArray<{ readonly name: string; readonly diskSize?: number }>;
}

export interface UpgradeQuery {
  readonly runtime?: string;
  readonly imageId?: string;
  readonly lockComponents?: boolean;
  readonly latestPerRuntime?: boolean;
}

export interface VerticalScale {
  readonly group: string;
  readonly instanceType?: string;
  readonly modifyDisks?: { readonly size?: number; readonly volumeType?: string };
  readonly addDisks?: number;
}

export function makeInstance(
  lake: string,
  group: string,
  i: number,
  type: string,
  platform: CloudPlatform,
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

function makeGroups(name: string, shape: Shape, platform: CloudPlatform, region: string, multiAz: boolean): GroupRec[] {
  return SHAPE_GROUPS[shape].map(([group, count, type]) => ({
    name: group,
    recipes: [],
    instances: Array.from({ length: count }, (_, i) =>
      makeInstance(name, group, i, type, platform, region, multiAz, group === 'master' && i === 0),
    ),
  }));
}

/** The data lakes of a request: lookups settle what they read. */
export function lakeResources(ctx: EngineContext): Resources<LakeRec> {
  return new Resources<LakeRec>(ctx, {
    kind: KIND.lake,
    noun: 'data lake',
    lifecycle: LAKE,
    id: (l) => l.id,
    name: (l) => l.datalakeName,
    keys: (l) => ({ name: l.datalakeName, crn: l.crn }),
    operations: KIND.operation,
  });
}

export class Lakes {
  readonly store: Resources<LakeRec>;
  readonly operations: Operations;

  constructor(private readonly ctx: BackendContext) {
    this.store = lakeResources(ctx);
    this.operations = new Operations(ctx, KIND.operation);
  }

  /** A lake by name or CRN, or NOT_FOUND. */
  lake(ref: string | undefined): LakeRec {
    if (!ref) throw invalid('the data lake name or CRN is missing');
    return this.store.get(ref);
  }

  find(ref: string): LakeRec | undefined {
    return this.store.find(ref);
  }

  status(lake: LakeRec): string {
    return this.store.state(lake);
  }

  /** The account's lakes, in an environment (name or CRN) and with a name or CRN when given. */
  list(filter: { environment?: string; name?: string }): LakeRec[] {
    const env = filter.environment ? requireEnvironment(this.ctx, filter.environment).crn : undefined;
    const name = filter.name?.toLowerCase();
    return this.store
      .all()
      .filter((l) => !env || l.environmentCrn === env)
      .filter((l) => !name || l.datalakeName.toLowerCase() === name || l.crn === filter.name);
  }

  private begin(lake: LakeRec, action: string, opts: { effect?: Doc; fail?: boolean; minutes?: number; anyState?: boolean } = {}): string {
    return this.store.begin(lake, action, opts).operationId ?? '';
  }

  create(spec: LakeSpec): LakeRec {
    if (this.find(spec.name)) throw alreadyExists(`a data lake named ${spec.name} already exists`);
    const env = requireEnvironment(this.ctx, spec.environment);
    const envGov = env.region.startsWith('us-gov-');
    if (env.cloudPlatform !== spec.platform || envGov !== spec.gov) {
      const kind = (p: string, g: boolean): string => (g ? 'AWS GovCloud' : p);
      throw invalid(
        `environment ${env.environmentName} is an ${kind(env.cloudPlatform, envGov)} environment; a ${kind(spec.platform, spec.gov)} data lake needs one of its own platform`,
      );
    }
    let runtime = spec.runtime;
    let img: Image | undefined;
    if (spec.image?.id) {
      img = IMAGES.find((i) => i.imageId === spec.image?.id);
      if (!img) throw invalid(`image ${spec.image.id} is not in the image catalog ${spec.image.catalogName ?? CATALOG}`);
      if (runtime && runtime !== img.runtime) throw invalid(`image ${img.imageId} is for runtime ${img.runtime}, not ${runtime}`);
      runtime = img.runtime;
    }
    runtime ??= DEFAULT_RUNTIME;
    if (!RUNTIMES.some((r) => r.runtime === runtime))
      throw invalid(`runtime ${runtime} is not supported; choose one of ${RUNTIMES.map((r) => r.runtime).join(', ')}`);
    img ??= IMAGES.filter((i) => i.runtime === runtime).pop();
    const shape = spec.scale ?? 'LIGHT_DUTY';
    const groups = makeGroups(spec.name, shape, spec.platform, env.region, spec.multiAz);
    for (const c of spec.customInstanceGroups) {
      const g = groups.find((x) => x.name === c.name);
      if (!g) throw invalid(`instance group ${c.name} is not part of a ${shape} data lake`);
      if (c.instanceType) for (const i of g.instances) i.instanceVmType = c.instanceType;
    }
    for (const r of spec.recipes) {
      const g = groups.find((x) => x.name === r.instanceGroupName);
      if (!g) throw invalid(`recipes name instance group ${r.instanceGroupName}, which a ${shape} data lake does not have`);
      g.recipes = [...r.recipeNames];
    }
    const id = uuid();
    const now = this.ctx.clock.now();
    const { accountId, region } = this.ctx.info;
    return this.store.create(
      {
        id,
        crn: crn('datalake', region, accountId, 'datalake', id),
        datalakeName: spec.name,
        environmentName: env.environmentName,
        environmentCrn: env.crn,
        credentialCrn: crn('environments', region, accountId, 'credential', hashId(`cred:${env.credentialName}`)),
        cloudPlatform: spec.platform,
        gov: spec.gov,
        region: env.region,
        createdAt: now,
        shape,
        runtime,
        imageId: img?.imageId ?? '',
        catalogName: spec.image?.catalogName ?? CATALOG,
        enableRangerRaz: spec.enableRangerRaz,
        multiAz: spec.multiAz,
        tags: [...spec.tags],
        groups,
        storage: spec.storage,
        identity: spec.identity,
        javaVersion: spec.javaVersion ?? 8,
        databaseVersion: 'VERSION_11',
        imds: 'v1',
        sku: spec.platform === 'AZURE' ? (spec.loadBalancerSku ?? 'STANDARD') : 'NONE',
        certIssuedAt: now,
      },
      'create',
    );
  }

  /** Deletes a lake; while other work runs only with force, which also never fails. */
  delete(lake: LakeRec, force: boolean): string {
    const busy = this.store.busy(lake);
    if (lake.activity.action === 'delete' && busy) throw failedPrecondition(`data lake ${lake.datalakeName} is already being deleted`);
    if (busy && !force)
      throw failedPrecondition(`data lake ${lake.datalakeName} is ${this.status(lake)}; wait for it to finish or delete with --force`);
    return this.begin(lake, 'delete', force ? { fail: false } : {});
  }

  start(lake: LakeRec): string {
    return this.begin(lake, 'start');
  }

  stop(lake: LakeRec): string {
    return this.begin(lake, 'stop');
  }

  /** Runs a failed action again, with the effect it had. */
  retry(lake: LakeRec): string {
    const status = this.status(lake);
    if (!isFailed(status)) throw failedPrecondition(`data lake ${lake.datalakeName} is ${status}; only a failed operation can be retried`);
    return this.store.begin(lake, lake.activity.action, { effect: lake.activity.effect, retry: true, anyState: true }).operationId ?? '';
  }

  /** One of the simple actions of a running lake. */
  act(lake: LakeRec, action: SimpleAction): string {
    return this.begin(lake, action);
  }

  repair(lake: LakeRec, groups: readonly string[], instanceIds: readonly string[]): string {
    this.store.require(lake, (s) => s === 'RUNNING' || (isFailed(s) && s !== 'DELETE_FAILED'), 'repair');
    for (const g of groups)
      if (!lake.groups.some((x) => x.name === g)) throw notFound(`data lake ${lake.datalakeName} has no instance group ${g}`);
    for (const id of instanceIds) this.instance(lake, id);
    return this.begin(lake, 'repair', { anyState: true });
  }

  recover(lake: LakeRec): string {
    return this.begin(lake, 'recover');
  }

  private instance(lake: LakeRec, id: string): void {
    if (!lake.groups.some((g) => g.instances.some((i) => i.id === id)))
      throw notFound(`data lake ${lake.datalakeName} has no instance ${id}`);
  }

  /** Checks a resize; unless only validating, starts it (the new shape applies when it succeeds). */
  resize(lake: LakeRec, spec: ResizeSpec, validationOnly: boolean): string | undefined {
    this.store.require(lake, RUNNING, 'resizing');
    if (spec.target === lake.shape && spec.multiAz === lake.multiAz)
      throw failedPrecondition(`data lake ${lake.datalakeName} already has the ${spec.target} shape`);
    if (validationOnly) return undefined;
    const groups = makeGroups(lake.datalakeName, spec.target, lake.cloudPlatform, lake.region, spec.multiAz);
    for (const t of spec.instanceTypes) {
      const g = groups.find((x) => x.name === t.name);
      if (!g) throw invalid(`a ${spec.target} data lake has no instance group ${t.name}`);
      if (t.instanceType) for (const i of g.instances) i.instanceVmType = t.instanceType;
    }
    for (const d of spec.disks) {
      const g = groups.find((x) => x.name === d.name);
      if (!g) throw invalid(`a ${spec.target} data lake has no instance group ${d.name}`);
      if (d.diskSize !== undefined) for (const i of g.instances) i.volumes = { ...i.volumes, size: d.diskSize };
    }
    for (const g of groups) g.recipes = lake.groups.find((x) => x.name === g.name)?.recipes ?? [];
    return this.begin(lake, 'resize', { effect: { shape: spec.target, multiAz: spec.multiAz, groups } });
  }

  // ---- upgrades

  /** The images newer than the lake's, as a query narrows them. */
  candidates(lake: LakeRec, q: UpgradeQuery): Image[] {
    const cur = IMAGES.find((i) => i.imageId === lake.imageId);
    const curOrder = cur ? imageOrder(cur) : -1;
    let list = IMAGES.filter((i) => imageOrder(i) > curOrder)
      .filter((i) => (q.lockComponents ? i.runtime === lake.runtime : true))
      .filter((i) => (q.runtime ? i.runtime === q.runtime : true));
    if (q.imageId) list = list.filter((i) => i.imageId === q.imageId);
    if (q.latestPerRuntime) list = RUNTIMES.map((r) => list.filter((i) => i.runtime === r.runtime).pop()).filter((i): i is Image => !!i);
    return list;
  }

  requireRuntime(runtime: string): void {
    if (!RUNTIMES.some((r) => r.runtime === runtime)) throw invalid(`runtime ${runtime} is not supported`);
  }

  /** Upgrades to the newest of the candidates. */
  upgrade(lake: LakeRec, candidates: readonly Image[], reason?: string): { target: Image; operationId: string } {
    if (reason) throw failedPrecondition(`cannot upgrade data lake ${lake.datalakeName}: ${reason}`);
    const target = candidates[candidates.length - 1];
    if (!target) throw failedPrecondition(`cannot upgrade data lake ${lake.datalakeName}: no newer image is available`);
    return { target, operationId: this.begin(lake, 'upgrade', { effect: { imageId: target.imageId, runtime: target.runtime } }) };
  }

  prepareUpgrade(lake: LakeRec): string {
    return this.begin(lake, 'prepareUpgrade');
  }

  /** Upgrades the database server (to the newest version when none is given); never back, the same one only with force. */
  databaseUpgrade(lake: LakeRec, target: string | undefined, force: boolean): { target: string; operationId: string } {
    const to = target ?? DB_VERSIONS[DB_VERSIONS.length - 1] ?? lake.databaseVersion;
    if (DB_VERSIONS.indexOf(to) < DB_VERSIONS.indexOf(lake.databaseVersion))
      throw failedPrecondition(`the database server is at ${lake.databaseVersion}; it cannot go back to ${to}`);
    if (to === lake.databaseVersion && !force)
      throw failedPrecondition(`the database server is already at ${to}; use --force to run the upgrade again`);
    return { target: to, operationId: this.begin(lake, 'databaseUpgrade', { effect: { databaseVersion: to } }) };
  }

  // ---- scaling, instances, recipes

  /** Sets the instance count of a scale-out group (made when missing). */
  scaleHorizontally(lake: LakeRec, groupName: string, count: number): string {
    this.store.require(lake, RUNNING, 'scaling');
    if (!SCALE_OUT_GROUPS.includes(groupName)) throw invalid(`${groupName} is not a scale-out instance group`);
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
    return this.begin(lake, 'scaleHorizontal', { effect: { groups } });
  }

  scaleVertically(lake: LakeRec, s: VerticalScale): string {
    this.store.require(lake, RUNNING, 'vertical scaling');
    const groups = structuredClone(lake.groups);
    const group = groups.find((g) => g.name === s.group);
    if (!group) throw notFound(`data lake ${lake.datalakeName} has no instance group ${s.group}`);
    for (const i of group.instances) {
      if (s.instanceType) i.instanceVmType = s.instanceType;
      if (s.modifyDisks?.size !== undefined)
        i.volumes = { ...i.volumes, size: s.modifyDisks.size, volumeType: s.modifyDisks.volumeType ?? i.volumes.volumeType };
      if (s.addDisks !== undefined) i.volumes = { ...i.volumes, count: i.volumes.count + s.addDisks };
    }
    return this.begin(lake, 'scaleVertical', { effect: { groups } });
  }

  restartInstances(lake: LakeRec, ids: readonly string[]): string {
    for (const id of ids) this.instance(lake, id);
    return this.begin(lake, 'restart');
  }

  /** Sets each named group's recipes; returns what was attached and detached per group. */
  replaceRecipes(
    lake: LakeRec,
    wanted: ReadonlyArray<{ readonly group: string; readonly recipes: readonly string[] }>,
  ): { attached: Doc[]; detached: Doc[] } {
    const attached: Doc[] = [];
    const detached: Doc[] = [];
    for (const w of wanted) {
      const g = lake.groups.find((x) => x.name === w.group);
      if (!g) throw notFound(`data lake ${lake.datalakeName} has no instance group ${w.group}`);
      const next = [...new Set(w.recipes)];
      const add = next.filter((n) => !g.recipes.includes(n));
      const drop = g.recipes.filter((n) => !next.includes(n));
      if (add.length) attached.push({ instanceGroupName: g.name, recipeNames: add });
      if (drop.length) detached.push({ instanceGroupName: g.name, recipeNames: drop });
      g.recipes = next;
    }
    this.store.save(lake);
    return { attached, detached };
  }

  // ---- settings and certificates

  setCatalog(lake: LakeRec, catalogName: string): void {
    lake.catalogName = catalogName;
    this.store.save(lake);
  }

  /** Certificate work; renewals and rotations of the lake's own certificates restart their lifetime. */
  certificates(lake: LakeRec, action: CertificateAction): string {
    return this.begin(lake, action, action === 'rotateDbCertificate' ? {} : { effect: { certIssuedAt: this.ctx.clock.now() } });
  }

  setJava(lake: LakeRec, version: number, rollingRestart: boolean): string {
    if (![8, 11, 17, 21].includes(version)) throw invalid(`Java ${version} is not supported; choose 8, 11, 17 or 21`);
    return this.begin(lake, 'javaVersion', { effect: { javaVersion: version }, minutes: rollingRestart ? 10 : 5 });
  }

  imds(lake: LakeRec, version: 'v1' | 'v2'): string {
    if (lake.cloudPlatform !== 'AWS')
      throw failedPrecondition(`data lake ${lake.datalakeName} runs on ${lake.cloudPlatform}; IMDS settings are for AWS`);
    return this.begin(lake, 'imds', { effect: { imds: version } });
  }

  migrateSkus(lake: LakeRec, force: boolean): string {
    if (lake.cloudPlatform !== 'AZURE')
      throw failedPrecondition(`data lake ${lake.datalakeName} runs on ${lake.cloudPlatform}; SKU migration is for Azure`);
    if (lake.sku === 'STANDARD' && !force) throw failedPrecondition(`data lake ${lake.datalakeName} already uses the STANDARD SKU`);
    return this.begin(lake, 'migrateSkus', { effect: { sku: 'STANDARD' } });
  }

  /** The secret types a lake has (no database root password on GCP). */
  secretTypes(lake: LakeRec): ReadonlyArray<readonly [string, string]> {
    return SECRET_TYPES.filter(([t]) => t !== 'DATABASE_ROOT_PASSWORD' || lake.cloudPlatform !== 'GCP');
  }

  rotateSecrets(lake: LakeRec, types: readonly string[]): string {
    const known = new Set(SECRET_TYPES.map(([t]) => t));
    const bad = types.filter((t) => !known.has(t));
    if (bad.length) throw invalid(`unknown secret type ${bad.join(', ')}; see listDatalakeSecretTypes`);
    return this.begin(lake, 'rotateSecrets');
  }

  // ---- operations

  /** An operation by id (of the lake, when one is given), or the lake's latest. */
  operation(lake: LakeRec | undefined, id: string | undefined, ref?: string): OperationRecord {
    if (id) {
      const op = this.operations.find(id);
      if (!op || (lake && op.owner !== lake.id))
        throw notFound(`operation ${id} not found${lake ? ` for data lake ${lake.datalakeName}` : ''}`);
      return op;
    }
    if (!lake) throw notFound(`data lake ${ref ?? ''} not found`);
    const last = this.operations.latest(lake.id);
    if (!last) throw notFound(`data lake ${lake.datalakeName} has no operations`);
    return last;
  }
}
