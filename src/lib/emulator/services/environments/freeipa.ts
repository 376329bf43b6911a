/**
 * FreeIPA, the identity servers of an environment: its state (servers,
 * instance type, image, recipes, secrets) is a part of the environment's
 * document (`ipa`), and its own operations are work of the engine beside
 * the environment (the table's `freeipa` resource, each kind an action of
 * its facts' lifecycle), recorded under the environment. Its status is its
 * newest work's while that runs or after it failed, else its environment's
 * (creating, stopped, deleting...). Private cloud environments have none.
 *
 * Rules, as the service has them: FreeIPA work needs its environment
 * AVAILABLE (vertical scaling needs it stopped) and FreeIPA in a state the
 * kind starts from; scaling goes between one server (NON_HA), two
 * (TWO_NODE_BASED) and three (HA), and a downscale keeps two; a repair works
 * on failed servers unless forced; an upgrade goes to a newer image of the
 * same OS (the next OS with allowMajorOsUpgrade); a retry runs the last
 * failed operation again.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import type { CheckFn, Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { bool, docs, hex, iso, obj, str, strings, text } from '../../values.js';
import { environmentRecord, envOf, requireState, type R } from './backend.js';
import {
  DEFAULT_FREEIPA_IMAGE,
  FREEIPA_CATALOG,
  FREEIPA_IMAGES,
  FREEIPA_INSTANCE_TYPE,
  FREEIPA_SECRET_TYPES,
  INSTANCE_TYPE_PATTERN,
  OS_SERIES,
  type FreeipaImage,
} from './catalogue.js';
import { existing } from './environment.js';
import { ACTION_WORDS, ENVIRONMENT_WORK, FREEIPA_MINUTES } from './lifecycles.js';
import type { EnvRecord, FreeipaNode, IpaState } from './records.js';

type Rec = Readonly<EngineRecord>;
type AvailabilityType = 'NON_HA' | 'TWO_NODE_BASED' | 'HA';

const SERVERS: Readonly<Record<AvailabilityType, number>> = { NON_HA: 1, TWO_NODE_BASED: 2, HA: 3 };

const availabilityOf = (count: number): AvailabilityType => (count >= 3 ? 'HA' : count === 2 ? 'TWO_NODE_BASED' : 'NON_HA');

/** FreeIPA's status while its environment is in a state (AVAILABLE for the others). */
const BY_ENVIRONMENT: Readonly<Record<string, string>> = {
  CREATION_INITIATED: 'REQUESTED',
  ENVIRONMENT_VALIDATION_IN_PROGRESS: 'REQUESTED',
  NETWORK_CREATION_IN_PROGRESS: 'REQUESTED',
  FREEIPA_CREATION_IN_PROGRESS: 'CREATE_IN_PROGRESS',
  CREATE_FAILED: 'CREATE_FAILED',
  STOP_FREEIPA_STARTED: 'STOP_IN_PROGRESS',
  STOP_FREEIPA_FAILED: 'STOP_FAILED',
  ENV_STOPPED: 'STOPPED',
  START_FREEIPA_STARTED: 'START_IN_PROGRESS',
  START_FREEIPA_FAILED: 'START_FAILED',
  DELETE_INITIATED: 'DELETE_IN_PROGRESS',
  FREEIPA_DELETE_IN_PROGRESS: 'DELETE_IN_PROGRESS',
  NETWORK_DELETE_IN_PROGRESS: 'DELETE_COMPLETED',
  DELETE_FAILED: 'DELETE_FAILED',
  UPGRADE_CCM_ON_FREEIPA_IN_PROGRESS: 'UPDATE_IN_PROGRESS',
  UPGRADE_CCM_ON_FREEIPA_FAILED: 'UPDATE_FAILED',
};

/** Each server's status while FreeIPA is in a state (CREATED for the others). */
const NODE_STATUS: Readonly<Record<string, string>> = {
  REQUESTED: 'REQUESTED',
  CREATE_IN_PROGRESS: 'REQUESTED',
  CREATE_FAILED: 'FAILED',
  STOPPED: 'STOPPED',
  DELETE_COMPLETED: 'TERMINATED',
  DELETE_IN_PROGRESS: 'DELETE_REQUESTED',
  UPDATE_FAILED: 'UNHEALTHY',
};

/** The FreeIPA domain of an environment: `<name>.<hash>.cloudera.site`. */
export const domainOf = (e: { environmentName: string; crn: string }): string =>
  `${e.environmentName}.${hex(e.crn, 4)}-${hex(`${e.crn}/d`, 4)}.cloudera.site`;

/** Its Kerberos realm: the domain, upper case. */
export const realmOf = (e: { environmentName: string; crn: string }): string => domainOf(e).toUpperCase();

type Placed = Pick<EnvRecord, 'crn' | 'cloudPlatform' | 'network'>;

/** A FreeIPA server by its index: ids, host names and addresses made from the environment. */
function node(e: Placed & { environmentName: string }, index: number, generation = 0): FreeipaNode {
  const seed = generation === 0 ? `${e.crn}/ipa/${index}` : `${e.crn}/ipa/${index}/${generation}`;
  return {
    id: `${e.cloudPlatform === 'AWS' ? 'i-' : ''}${hex(seed, 17)}`,
    fqdn: `ipaserver${index}.${domainOf(e)}`,
    ip: `10.10.${index}.${10 + (parseInt(hex(`${e.crn}/ip/${index}`, 2), 16) % 200)}`,
    subnet: e.network.subnetIds[index % Math.max(1, e.network.subnetIds.length)] ?? '',
    index,
  };
}

/** The wire `ImageInfoResponse` of a FreeIPA image. */
const imageView = (i: FreeipaImage, catalog: string): Doc => ({
  catalog,
  ...i,
  catalogName: catalog === FREEIPA_CATALOG.url ? FREEIPA_CATALOG.name : 'custom',
});

const imageById = (id: string): FreeipaImage | undefined => FREEIPA_IMAGES.find((i) => i.id === id);

/** What an environment asks of its FreeIPA when it is created. */
type FreeipaSpec = EnvRecord['freeipa'] & { instanceType?: string; image?: { id?: string; os?: string; catalog?: string } };

/** The image a create asks for (by id, or the newest of an OS), or the default. */
function requestedImage(spec: FreeipaSpec['image']): FreeipaImage {
  if (spec?.id) {
    const found = imageById(spec.id);
    if (!found)
      throw invalid(`FreeIPA image ${spec.id} is not in the image catalog; images: ${FREEIPA_IMAGES.map((i) => i.id).join(', ')}`);
    return found;
  }
  if (spec?.os) {
    const ofOs = FREEIPA_IMAGES.filter((i) => i.os === spec.os);
    const newest = ofOs[ofOs.length - 1];
    if (!newest)
      throw invalid(`no FreeIPA image runs ${spec.os}; the catalog has ${[...new Set(FREEIPA_IMAGES.map((i) => i.os))].join(', ')}`);
    return newest;
  }
  return DEFAULT_FREEIPA_IMAGE;
}

/** The FreeIPA a new environment comes up with (its create shows FreeIPA's progress: no work of its own). */
export function newIpa(e: Placed & { environmentName: string }, spec: FreeipaSpec): IpaState {
  const count = Math.min(Math.max(1, spec.instanceCountByGroup), 3);
  return {
    instances: Array.from({ length: count }, (_, i) => node(e, i)),
    nextIndex: count,
    instanceType: spec.instanceType ?? FREEIPA_INSTANCE_TYPE[e.cloudPlatform] ?? 'm5.large',
    multiAz: spec.multiAz,
    recipes: [...spec.recipes],
    image: requestedImage(spec.image).id,
    ...(spec.image?.catalog ? { catalog: spec.image.catalog } : {}),
    imds: 'v2',
    secretsRotated: {},
  };
}

/** The FreeIPA of an environment, if it has one (one made before FreeIPA was a part of its document is made from its create's). */
function ipaOf(e: EnvRecord): IpaState | undefined {
  if (e.privateCloud) return undefined;
  return e.ipa ?? newIpa(e, e.freeipa);
}

/** The FreeIPA of an environment, or FAILED_PRECONDITION for a private cloud environment. */
export function ipaRequired(e: EnvRecord): IpaState {
  const f = ipaOf(e);
  if (!f) throw failedPrecondition(`environment ${e.environmentName} is a private cloud environment; it has no FreeIPA`);
  return f;
}

/** FreeIPA's newest work on an environment. */
const lastWork = (h: Hook<R>, env: Rec): EngineRecord | undefined => h.records('freeipa').all(env.id).at(-1);

/** FreeIPA's own state: its newest work's (AVAILABLE when it has had none). */
function ownState(h: Hook<R>, env: Rec): { state: string; done: boolean; work?: EngineRecord } {
  const w = lastWork(h, env);
  if (!w) return { state: 'AVAILABLE', done: true };
  const p = h.records('freeipa').progress(w);
  return { state: p.state, done: p.done, work: w };
}

/** Its status as getFreeipaStatus shows it: its own while it works or after it failed, else its environment's. */
export function ipaStatus(h: Hook<R>, e: EnvRecord, env: Rec): string {
  const own = ownState(h, env);
  if (!own.done) return own.state;
  const byEnv = BY_ENVIRONMENT[e.status] ?? 'AVAILABLE';
  if (byEnv !== 'AVAILABLE') return byEnv;
  return own.state === 'UPDATE_FAILED' ? 'UPDATE_FAILED' : 'AVAILABLE';
}

/** Each server's status: a repair under way reboots (or rebuilds) those it works on. */
function nodeStatuses(h: Hook<R>, e: EnvRecord, env: Rec, f: IpaState): Map<string, string> {
  const own = ownState(h, env);
  const repair = !own.done && own.work?.activity.action === 'repair' ? obj(own.work.data?.request) : undefined;
  const targets = repair ? strings(repair.instances) : [];
  const all = NODE_STATUS[ipaStatus(h, e, env)] ?? 'CREATED';
  const during = text(repair?.repairType) === 'REBUILD' ? 'REQUESTED' : 'REBOOTING';
  return new Map(f.instances.map((n) => [n.id, repair && (targets.length === 0 || targets.includes(n.id)) ? during : all]));
}

/** FAILED_PRECONDITION while FreeIPA works: `what` waits for it. */
export function ipaIdle(h: Hook<R>, e: EnvRecord, env: Rec, what: string): void {
  const own = ownState(h, env);
  if (own.done || !own.work) return;
  const action = own.work.activity.action;
  throw failedPrecondition(
    `FreeIPA of environment ${e.environmentName} is ${own.state} (${ACTION_WORDS[action] ?? action}); ${what} waits until it is done`,
  );
}

/** The status of an environment's FreeIPA and of each of its servers (getFreeipaStatus). */
export function freeipaStatus(h: Hook<R>, env: Rec): Doc {
  const e = envOf(h, env);
  const f = ipaRequired(e);
  const nodes = nodeStatuses(h, e, env, f);
  return {
    environmentCrn: e.crn,
    environmentName: e.environmentName,
    status: ipaStatus(h, e, env),
    instances: Object.fromEntries(f.instances.map((n) => [n.id, { hostname: n.fqdn, status: nodes.get(n.id), instanceId: n.id }])),
  };
}

/** The FreeIPA an environment's answers show, if it has one. */
export function freeipaDetails(h: Hook<R>, e: EnvRecord, env: Rec): Doc | undefined {
  const f = ipaOf(e);
  if (!f) return undefined;
  const nodes = nodeStatuses(h, e, env, f);
  const image = imageById(f.image) ?? DEFAULT_FREEIPA_IMAGE;
  return {
    crn: e.crn.replace(':environments:', ':freeipa:').replace(':environment:', ':freeipa:'),
    domain: domainOf(e),
    hostname: 'ipaserver',
    serverIP: f.instances.map((n) => n.ip),
    recipes: f.recipes,
    instanceCountByGroup: f.instances.length,
    multiAz: f.multiAz,
    imageDetails: { imageId: image.id, imageCatalogName: f.catalog ?? FREEIPA_CATALOG.name, imageOs: image.os },
    instances: f.instances.map((n) => ({
      instanceId: n.id,
      discoveryFQDN: n.fqdn,
      instanceGroup: 'master',
      instanceStatus: nodes.get(n.id),
      instanceType: 'GATEWAY_PRIMARY',
      instanceVmType: f.instanceType,
      privateIP: n.ip,
      sshPort: 22,
      subnetId: n.subnet,
    })),
  };
}

// ---- what each kind of work asks and changes ----------------------------------------------------------

interface Ready {
  readonly e: EnvRecord;
  readonly f: IpaState;
  /** The environment's record. */
  readonly env: Rec;
}

const ipaOfRec = (h: Hook<R>, env: Rec): Ready => {
  const e = envOf(h, env);
  return { e, f: ipaRequired(e), env };
};

/** The environment and its FreeIPA, for work of a kind: the environment in its state, FreeIPA in a state the kind starts from. */
const ready =
  (kind: string, rules?: (x: Ready, req: Doc, h: Hook<R>) => void, environmentState = 'AVAILABLE'): CheckFn<R> =>
  (h, rec, req) => {
    const x = ipaOfRec(h, rec);
    const what = ACTION_WORDS[kind] ?? kind;
    requireState(h, x.e, [environmentState], what);
    rules?.(x, req, h);
    const e = x.e;
    const from = ENVIRONMENT_WORK[kind]?.from ?? [];
    const own = ownState(h, rec);
    if (kind === 'downscale' && bool(req.force) && own.done) return;
    if (!from.includes(own.state))
      throw failedPrecondition(`FreeIPA of environment ${e.environmentName} is ${own.state}; ${what} needs it ${from.join(' or ')}`);
  };

/** A kind's effect: the FreeIPA its work leaves, which reaches the environment when it succeeds. */
const leaves =
  (change: (x: Ready, req: Doc, h: Hook<R>) => Partial<IpaState>) =>
  (h: Hook<R>, env: Rec, req: Doc): Doc => {
    const x = ipaOfRec(h, env);
    return { ipa: { ...x.f, ...change(x, req, h) } };
  };

function upscaled({ e, f }: Ready, req: Doc): FreeipaNode[] {
  const target = text(req.targetAvailabilityType) as AvailabilityType;
  const have = f.instances.length;
  const want = SERVERS[target];
  if (want <= have)
    throw failedPrecondition(
      `FreeIPA of environment ${e.environmentName} has ${have} servers (${availabilityOf(have)}); an upscale to ${target} needs fewer`,
    );
  return [...f.instances, ...Array.from({ length: want - have }, (_, i) => node(e, f.nextIndex + i))];
}

function downscaled({ e, f }: Ready, req: Doc): FreeipaNode[] {
  const have = f.instances.length;
  const ids = strings(req.instances);
  const target = str(req.targetAvailabilityType) as AvailabilityType | undefined;
  for (const id of ids)
    if (!f.instances.some((n) => n.id === id))
      throw notFound(
        `instance ${id} is not a FreeIPA server of environment ${e.environmentName}; servers: ${f.instances.map((n) => n.id).join(', ')}`,
      );
  let keep = f.instances.filter((n) => !ids.includes(n.id));
  if (target) {
    const want = SERVERS[target];
    if (ids.length > 0 && keep.length !== want)
      throw invalid(`removing ${ids.length} of ${have} servers leaves ${keep.length}, not ${target} (${want})`);
    if (want >= have)
      throw failedPrecondition(
        `FreeIPA of environment ${e.environmentName} has ${have} servers (${availabilityOf(have)}); a downscale to ${target} needs more`,
      );
    keep = keep.slice(0, want);
  } else if (ids.length === 0) throw invalid('say what to remove: give --target-availability-type or --instances');
  if (keep.length < SERVERS.TWO_NODE_BASED)
    throw failedPrecondition(
      `a FreeIPA downscale keeps at least two servers (TWO_NODE_BASED); environment ${e.environmentName} would keep ${keep.length}`,
    );
  return keep;
}

/** The instance type vertical scaling moves FreeIPA to. */
function scaledTo({ e, f }: Ready, req: Doc): string {
  const template = obj(req.instanceTemplate);
  const instanceType = str(template.instanceType);
  const volumes = docs(template.attachedVolumes).length;
  if (!instanceType && volumes === 0) throw invalid('say what to change: give instanceType or attachedVolumes in --instance-template');
  if (instanceType && !INSTANCE_TYPE_PATTERN[e.cloudPlatform].test(instanceType))
    throw invalid(`${instanceType} is not an instance type of ${e.cloudPlatform} (FreeIPA runs ${f.instanceType})`);
  if (instanceType === f.instanceType && volumes === 0)
    throw failedPrecondition(`FreeIPA of environment ${e.environmentName} already runs ${instanceType}`);
  return instanceType ?? f.instanceType;
}

function repairable({ e, f, env }: Ready, req: Doc, h: Hook<R>): void {
  for (const id of strings(req.instances))
    if (!f.instances.some((n) => n.id === id)) throw notFound(`instance ${id} is not a FreeIPA server of environment ${e.environmentName}`);
  if (ownState(h, env).state !== 'UPDATE_FAILED' && !bool(req.force))
    throw failedPrecondition(`the FreeIPA servers of environment ${e.environmentName} are healthy; repair them anyway with --force`);
}

/** The servers a repair leaves: those it rebuilds are new servers at the same index. */
function repaired({ e, f }: Ready, req: Doc, now: number): FreeipaNode[] {
  const targets = strings(req.instances);
  const rebuild = text(req.repairType) === 'REBUILD';
  return f.instances.map((n) => (rebuild && (targets.length === 0 || targets.includes(n.id)) ? node(e, n.index, now) : n));
}

/** The images FreeIPA can upgrade to: newer ones of its OS, and of the next OS when allowed. */
function upgradeOptions(f: IpaState, allowMajorOsUpgrade: boolean): { current: FreeipaImage; images: FreeipaImage[] } {
  const current = imageById(f.image) ?? DEFAULT_FREEIPA_IMAGE;
  const series = OS_SERIES.indexOf(current.os);
  const images = FREEIPA_IMAGES.filter(
    (i) => i.date > current.date && (i.os === current.os || (allowMajorOsUpgrade && OS_SERIES.indexOf(i.os) === series + 1)),
  );
  return { current, images };
}

function upgradeTarget({ e, f }: Ready, req: Doc): FreeipaImage {
  const imageId = str(req.imageId);
  const major = bool(req.allowMajorOsUpgrade);
  const options = upgradeOptions(f, major);
  const target = imageId ? options.images.find((i) => i.id === imageId) : options.images[options.images.length - 1];
  if (target) return target;
  if (imageId)
    throw failedPrecondition(
      `image ${imageId} is not an upgrade of FreeIPA of environment ${e.environmentName} (${options.current.imageName}); see environments freeipa upgrade-options${major ? '' : ' (--allow-major-os-upgrade for the next OS)'}`,
    );
  throw failedPrecondition(
    `FreeIPA of environment ${e.environmentName} runs the newest image of ${options.current.os} (${options.current.imageName})${major ? '' : '; --allow-major-os-upgrade takes it to the next OS'}`,
  );
}

function secretTypes(_x: Ready, req: Doc): void {
  const types = strings(req.secretTypes);
  if (types.length === 0) throw invalid('give the secret types to rotate (see environments freeipa secrets list-types)');
  const known = FREEIPA_SECRET_TYPES.map((t) => t.secretType);
  const unknown = types.filter((t) => !known.includes(t));
  if (unknown.length > 0) throw invalid(`unknown FreeIPA secret type ${unknown.join(', ')}; types: ${known.join(', ')}`);
}

const imdsVersion = (h: Hook<R>): 'v1' | 'v2' => (h.ctx.op.name === 'updateFreeipaToAwsImdsV1' ? 'v1' : 'v2');

function onAws({ e }: Ready): void {
  if (e.cloudPlatform !== 'AWS')
    throw failedPrecondition(`environment ${e.environmentName} runs on ${e.cloudPlatform}; the instance metadata service version is AWS's`);
}

/**
 * FreeIPA's work beside its environment, as a resource of the table: one at
 * a time, refused by its `check` (naming FreeIPA's state, as the service
 * does) rather than by the engine.
 */
export const freeipaWork: Resource<R> = {
  keys: ['operationId'],
  noun: 'FreeIPA operation',
  lives: { in: 'parent', parent: 'environment', part: true },
  work: { named: 'operation', refusedBy: 'check' },
  minutes: FREEIPA_MINUTES,
  hooks: {
    check: {
      upscale: ready('upscale', (x, req) => void upscaled(x, req)),
      downscale: ready('downscale', (x, req) => void downscaled(x, req)),
      verticalscale: ready('verticalscale', (x, req) => void scaledTo(x, req), 'ENV_STOPPED'),
      repair: ready('repair', repairable),
      upgrade: ready('upgrade', (x, req) => void upgradeTarget(x, req)),
      rotatesecrets: ready('rotatesecrets', secretTypes),
      imds: ready('imds', onAws),
      saltupdate: ready('saltupdate'),
    },
    effect: {
      upscale: leaves((x, req) => {
        const instances = upscaled(x, req);
        return { instances, nextIndex: x.f.nextIndex + instances.length - x.f.instances.length };
      }),
      downscale: leaves((x, req) => ({ instances: downscaled(x, req) })),
      verticalscale: leaves((x, req) => ({ instanceType: scaledTo(x, req) })),
      repair: leaves((x, req, h) => ({ instances: repaired(x, req, h.ctx.clock.now()) })),
      upgrade: leaves((x, req) => ({ image: upgradeTarget(x, req).id })),
      rotatesecrets: leaves(({ f }, req, h) => {
        const at = iso(h.ctx.clock.now());
        return { secretsRotated: { ...f.secretsRotated, ...Object.fromEntries(strings(req.secretTypes).map((t) => [t, at])) } };
      }),
      imds: leaves((_x, _req, h) => ({ imds: imdsVersion(h) })),
    },
  },
};

// ---- answers --------------------------------------------------------------------------------------------

/** An availability type a response shape's enum allows, else nothing (the wire has no value for it). */
const onlyIf = (allowed: readonly string[], field: string, value: string): Doc => (allowed.includes(value) ? { [field]: value } : {});

/** The operation of the work an entry just began. */
const begun = (h: Hook<R>, rec: Rec): string => lastWork(h, rec)?.id ?? '';

/** The answer of work beside FreeIPA: what `fields` says of it, and the operation it began. */
const answering =
  (fields: (x: Ready, req: Doc) => Doc) =>
  (h: Hook<R>, rec: Rec, req: Doc): Doc => ({ ...fields(ipaOfRec(h, rec), req), operationId: begun(h, rec) });

export const upscaleAnswer = answering(({ f }, req) => ({
  originalAvailabilityType: availabilityOf(f.instances.length),
  ...onlyIf(['HA'], 'targetAvailabilityType', text(req.targetAvailabilityType)),
}));

export const downscaleAnswer = answering((x, req) => ({
  ...onlyIf(['HA'], 'originalAvailabilityType', availabilityOf(x.f.instances.length)),
  targetAvailabilityType: availabilityOf(downscaled(x, req).length),
}));

export const verticalScaleAnswer = answering((x, req) => ({ result: `FreeIPA moves from ${x.f.instanceType} to ${scaledTo(x, req)}` }));

export const upgradeAnswer = answering((x, req) => {
  const catalog = x.f.catalog ?? FREEIPA_CATALOG.url;
  return {
    originalImage: imageView(imageById(x.f.image) ?? DEFAULT_FREEIPA_IMAGE, catalog),
    targetImage: imageView(upgradeTarget(x, req), catalog),
  };
});

/** Work that answers its operation alone. */
export const operationAnswer = (h: Hook<R>, rec: Rec): Doc => ({ operationId: begun(h, rec) });

/** rotateSaltPassword is a secret rotation of the salt password. */
export const saltPassword = (h: Hook<R>, sent: Doc): Doc => ({ ...existing(h, sent), secretTypes: ['SALT_PASSWORD'] });

const REPAIR_STATUS: Readonly<Record<string, string>> = {
  RUNNING: 'RUNNING',
  FINISHED: 'COMPLETED',
  FAILED: 'FAILED',
  CANCELLED: 'FAILED',
};

/** A repair as getRepairFreeipaStatus (and repairFreeipa) answers it, from its operation record. */
function repairView(h: Hook<R>, env: Rec, operationId: string): Doc {
  const ops = h.records('environment').operations();
  const op = ops.get(operationId);
  if (op.operationName !== 'REPAIR') throw notFound(`operation ${operationId} is not a FreeIPA repair (it is ${op.operationName})`);
  const { status, ended } = ops.status(op);
  const state = REPAIR_STATUS[status] ?? 'RUNNING';
  const environmentCrn = env.crn ?? '';
  const work = h.records('freeipa').byId(operationId);
  const failed = work && state === 'FAILED' ? (work.activity.reason ?? 'the repair failed') : undefined;
  return {
    operationId,
    status: state,
    successfulOperationDetails:
      state === 'COMPLETED' ? [{ environmentCrn, message: 'repaired the FreeIPA servers of the environment' }] : [],
    failureOperationDetails: failed ? [{ environmentCrn, message: failed }] : [],
    ...(failed ? { error: failed } : {}),
    startDate: iso(op.tl.startedAt),
    ...(ended !== undefined ? { endDate: iso(ended) } : {}),
  };
}

export const repairAnswer = (h: Hook<R>, rec: Rec): Doc => repairView(h, rec, begun(h, rec));

/** getRepairFreeipaStatus: the repair an operation id names, under its environment. */
export const repairStatus = (h: Hook<R>, rec: Rec, req: Doc): Doc => {
  const { operationId: _id, ...view } = repairView(h, rec, text(req.operationId));
  return view;
};

/** Code: a retry runs FreeIPA's last failed work again, as it was asked for (its request and what its success sets). */
export function retryFreeipa(h: Hook<R>, req: Doc): Doc {
  const env = environmentRecord(h, text(req.environment));
  const e = envOf(h, env);
  ipaRequired(e);
  requireState(h, e, ['AVAILABLE', 'ENV_STOPPED'], 'a FreeIPA retry');
  const own = ownState(h, env);
  const last = own.work;
  if (!last || !h.records('freeipa').progress(last).failed)
    throw failedPrecondition(
      `nothing to retry: the last FreeIPA operation of environment ${e.environmentName} (${last?.activity.action ?? 'none'}) did not fail`,
    );
  const id = uuid();
  h.records('freeipa').create(
    { id, scope: env.id, ...(env.env ? { env: env.env } : {}), doc: {}, ...(last.data ? { data: last.data } : {}) },
    last.activity.action,
    { retry: true, operationId: id, ...(last.activity.effect ? { effect: last.activity.effect } : {}) },
  );
  return { operationId: id };
}

/** The images an environment's FreeIPA can be upgraded to. */
export const upgradeOptionsAnswer = (h: Hook<R>, rec: Rec, req: Doc): Doc => {
  const { f } = ipaOfRec(h, rec);
  const o = upgradeOptions(f, bool(req.allowMajorOsUpgrade));
  const own = f.catalog ?? FREEIPA_CATALOG.url;
  const catalog = str(req.catalog) ?? own;
  return { currentImage: imageView(o.current, own), images: o.images.map((i) => imageView(i, catalog)) };
};

// ---- changes at once: catalog and recipes (changes of the environment: CHANGES in environment.ts) ---------

/** What a change of FreeIPA at once sets on its environment (refused for a private cloud environment). */
const ipaChanged = (e: EnvRecord, change: (f: IpaState) => Partial<IpaState>): Partial<EnvRecord> => {
  const f = ipaRequired(e);
  return { ipa: { ...f, ...change(f) } };
};

export const catalogSet = (e: EnvRecord, req: Doc): Partial<EnvRecord> =>
  ipaChanged(e, () => {
    const catalog = text(req.catalog);
    if (!/^https?:\/\/[^\s/]+/.test(catalog)) throw invalid(`${catalog.slice(0, 200)} is not the URL of an image catalog`);
    return { catalog };
  });

export const recipesAttached = (e: EnvRecord, req: Doc): Partial<EnvRecord> =>
  ipaChanged(e, (f) => {
    const names = strings(req.recipes);
    if (names.length === 0) throw invalid('give the recipes to attach');
    for (const n of names) if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(n)) throw invalid(`${n.slice(0, 100)} is not a recipe name`);
    return { recipes: [...new Set([...f.recipes, ...names])] };
  });

export const recipesDetached = (e: EnvRecord, req: Doc): Partial<EnvRecord> =>
  ipaChanged(e, (f) => {
    const names = strings(req.recipes);
    const missing = names.filter((n) => !f.recipes.includes(n));
    if (missing.length > 0)
      throw notFound(
        `recipe ${missing.join(', ')} is not attached to FreeIPA of environment ${e.environmentName}; attached: ${f.recipes.join(', ') || 'none'}`,
      );
    return { recipes: f.recipes.filter((r) => !names.includes(r)) };
  });
