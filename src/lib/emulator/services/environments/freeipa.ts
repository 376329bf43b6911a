/**
 * FreeIPA, the identity servers of an environment: its own record (by the
 * environment's CRN) with its servers, instance type, image, recipes and
 * secrets, and its own operations (FREEIPA in lifecycles.ts), one at a time,
 * recorded under the environment. Its status is its own while an operation
 * runs or after one failed, else its environment's (creating, stopped,
 * deleting...). Private cloud environments have none.
 *
 * Rules, as the service has them: FreeIPA work needs its environment
 * AVAILABLE (vertical scaling needs it stopped); scaling goes between one
 * server (NON_HA), two (TWO_NODE_BASED) and three (HA), and a downscale keeps
 * two; a repair works on failed servers unless forced; an upgrade goes to a
 * newer image of the same OS (the next OS with allowMajorOsUpgrade); a retry
 * runs the last failed operation again.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { Resources } from '../../engine/records.js';
import { crnId } from '../../ids.js';
import { settledIn } from '../../engine/timeline.js';
import { type OperationRecord } from '../../engine/operations.js';
import { hex, iso } from '../../values.js';
import { OPERATION_KIND, type EnvironmentsBackend } from './backend.js';
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
import { ACTION_WORDS, ENVIRONMENT_WORK } from './lifecycles.js';
import { FREEIPA_KIND, type CloudPlatform, type EnvRecord, type FreeipaNode, type FreeipaRecord } from './records.js';

export type AvailabilityType = 'NON_HA' | 'TWO_NODE_BASED' | 'HA';

const SERVERS: Readonly<Record<AvailabilityType, number>> = { NON_HA: 1, TWO_NODE_BASED: 2, HA: 3 };

export const availabilityOf = (count: number): AvailabilityType => (count >= 3 ? 'HA' : count === 2 ? 'TWO_NODE_BASED' : 'NON_HA');

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

/** A FreeIPA server by its index: ids, host names and addresses made from the environment. */
function node(e: EnvRecord, index: number, generation = 0): FreeipaNode {
  const seed = generation === 0 ? `${e.crn}/ipa/${index}` : `${e.crn}/ipa/${index}/${generation}`;
  return {
    id: `${e.cloudPlatform === 'AWS' ? 'i-' : ''}${hex(seed, 17)}`,
    fqdn: `ipaserver${index}.${domainOf(e)}`,
    ip: `10.10.${index}.${10 + (parseInt(hex(`${e.crn}/ip/${index}`, 2), 16) % 200)}`,
    subnet: e.network.subnetIds[index % Math.max(1, e.network.subnetIds.length)] ?? '',
    index,
  };
}

export const imageById = (id: string): FreeipaImage | undefined => FREEIPA_IMAGES.find((i) => i.id === id);

/** What an environment asks of its FreeIPA when it is created. */
export interface FreeipaSpec {
  readonly instanceCountByGroup: number;
  readonly multiAz: boolean;
  readonly recipes: readonly string[];
  readonly instanceType?: string;
  readonly image?: { id?: string; os?: string; catalog?: string };
}

/** The image a create asks for (by id, or the newest of an OS), or the default. */
export function requestedImage(spec: FreeipaSpec['image']): FreeipaImage {
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

export class Freeipa {
  readonly records: Resources<FreeipaRecord>;

  constructor(private readonly b: EnvironmentsBackend) {
    this.records = new Resources<FreeipaRecord>(b.ctx, {
      kind: FREEIPA_KIND,
      noun: 'FreeIPA of environment',
      lifecycle: ENVIRONMENT_WORK,
      operations: OPERATION_KIND,
      // Its operations are its environment's (getOperation names the environment), whose id ends its CRN.
      operationOwner: (f) => crnId(f.environmentCrn),
      id: (f) => f.environmentCrn,
      name: (f) => f.environmentName,
      keys: (f) => ({ parent: f.environmentCrn }),
    });
  }

  private get now(): number {
    return this.b.ctx.clock.now();
  }

  /** Makes the FreeIPA of a new environment. */
  create(e: EnvRecord, spec: FreeipaSpec): FreeipaRecord {
    const count = Math.min(Math.max(1, spec.instanceCountByGroup), 3);
    const image = requestedImage(spec.image);
    const f: FreeipaRecord = {
      activity: settledIn('create', 'AVAILABLE', this.now),
      environmentCrn: e.crn,
      environmentName: e.environmentName,
      instances: Array.from({ length: count }, (_, i) => node(e, i)),
      nextIndex: count,
      instanceType: spec.instanceType ?? FREEIPA_INSTANCE_TYPE[e.cloudPlatform] ?? 'm5.large',
      multiAz: spec.multiAz,
      recipes: [...spec.recipes],
      image: image.id,
      ...(spec.image?.catalog ? { catalog: spec.image.catalog } : {}),
      imds: 'v2',
      secretsRotated: {},
    };
    // It comes up with its environment (whose create shows FreeIPA's progress): no work, no operation of its own.
    return this.records.save(f);
  }

  /** The FreeIPA of an environment, if it has one (one made before FreeIPA had a record of its own is made now). */
  find(e: EnvRecord): FreeipaRecord | undefined {
    if (e.privateCloud) return undefined;
    return this.records.byId(e.crn) ?? this.create(e, e.freeipa);
  }

  /** The FreeIPA of an environment, or FAILED_PRECONDITION for a private cloud environment. */
  of(e: EnvRecord): FreeipaRecord {
    const f = this.find(e);
    if (!f) throw failedPrecondition(`environment ${e.environmentName} is a private cloud environment; it has no FreeIPA`);
    return f;
  }

  /** Its status as getFreeipaStatus shows it: its own while it works or after it failed, else its environment's. */
  status(e: EnvRecord, f: FreeipaRecord): string {
    const own = this.records.progress(f);
    if (!own.done) return own.state;
    const byEnv = BY_ENVIRONMENT[e.status] ?? 'AVAILABLE';
    if (byEnv !== 'AVAILABLE') return byEnv;
    return own.state === 'UPDATE_FAILED' ? 'UPDATE_FAILED' : 'AVAILABLE';
  }

  /** A server's status. */
  nodeStatus(e: EnvRecord, f: FreeipaRecord, n: FreeipaNode): string {
    const busy = this.records.busy(f);
    if (busy && f.repairing?.instances.includes(n.id)) return f.repairing.rebuild ? 'REQUESTED' : 'REBOOTING';
    return NODE_STATUS[this.status(e, f)] ?? 'CREATED';
  }

  /** Whether FreeIPA has an operation under way. */
  busy(e: EnvRecord): boolean {
    const f = this.find(e);
    return f !== undefined && this.records.busy(f);
  }

  /** The FreeIPA of a running environment, for an operation (`what`) to begin on. */
  private ready(ref: string, what: string, environmentState = 'AVAILABLE'): { e: EnvRecord; f: FreeipaRecord } {
    const e = this.b.environment(ref);
    const f = this.of(e);
    this.b.require(e, [environmentState], what);
    return { e, f };
  }

  private begin(f: FreeipaRecord, action: string, effect: Partial<FreeipaRecord>, anyState = false): string {
    const from = ENVIRONMENT_WORK[action]?.from;
    if (from && !anyState) this.records.require(f, from, ACTION_WORDS[action] ?? action);
    return this.records.begin(f, action, { effect, anyState: true }).operationId ?? '';
  }

  // ---- scaling ------------------------------------------------------------------

  upscale(ref: string, target: AvailabilityType): { original: AvailabilityType; operationId: string } {
    const { e, f } = this.ready(ref, 'a FreeIPA upscale');
    const have = f.instances.length;
    const want = SERVERS[target];
    if (want <= have)
      throw failedPrecondition(
        `FreeIPA of environment ${e.environmentName} has ${have} servers (${availabilityOf(have)}); an upscale to ${target} needs fewer`,
      );
    const added = Array.from({ length: want - have }, (_, i) => node(e, f.nextIndex + i));
    const operationId = this.begin(f, 'upscale', { instances: [...f.instances, ...added], nextIndex: f.nextIndex + added.length });
    return { original: availabilityOf(have), operationId };
  }

  downscale(
    ref: string,
    opts: { target?: AvailabilityType; instances: readonly string[]; force: boolean },
  ): { original: AvailabilityType; target: AvailabilityType; operationId: string } {
    const { e, f } = this.ready(ref, 'a FreeIPA downscale');
    const have = f.instances.length;
    for (const id of opts.instances)
      if (!f.instances.some((n) => n.id === id))
        throw notFound(
          `instance ${id} is not a FreeIPA server of environment ${e.environmentName}; servers: ${f.instances.map((n) => n.id).join(', ')}`,
        );
    const removed = new Set(opts.instances);
    let keep = f.instances.filter((n) => !removed.has(n.id));
    if (opts.target) {
      const want = SERVERS[opts.target];
      if (opts.instances.length > 0 && keep.length !== want)
        throw invalid(`removing ${opts.instances.length} of ${have} servers leaves ${keep.length}, not ${opts.target} (${want})`);
      if (want >= have)
        throw failedPrecondition(
          `FreeIPA of environment ${e.environmentName} has ${have} servers (${availabilityOf(have)}); a downscale to ${opts.target} needs more`,
        );
      keep = keep.slice(0, want);
    } else if (opts.instances.length === 0) throw invalid('say what to remove: give --target-availability-type or --instances');
    if (keep.length < SERVERS.TWO_NODE_BASED)
      throw failedPrecondition(
        `a FreeIPA downscale keeps at least two servers (TWO_NODE_BASED); environment ${e.environmentName} would keep ${keep.length}`,
      );
    const operationId = this.begin(f, 'downscale', { instances: keep }, opts.force && !this.records.busy(f));
    return { original: availabilityOf(have), target: availabilityOf(keep.length), operationId };
  }

  verticalScale(ref: string, instanceType: string | undefined, volumes: number): { from: string; to: string; operationId: string } {
    const { e, f } = this.ready(ref, 'FreeIPA vertical scaling', 'ENV_STOPPED');
    const platform: CloudPlatform = e.cloudPlatform;
    if (!instanceType && volumes === 0) throw invalid('say what to change: give instanceType or attachedVolumes in --instance-template');
    if (instanceType && !INSTANCE_TYPE_PATTERN[platform].test(instanceType))
      throw invalid(`${instanceType} is not an instance type of ${platform} (FreeIPA runs ${f.instanceType})`);
    if (instanceType === f.instanceType && volumes === 0)
      throw failedPrecondition(`FreeIPA of environment ${e.environmentName} already runs ${instanceType}`);
    const to = instanceType ?? f.instanceType;
    return { from: f.instanceType, to, operationId: this.begin(f, 'verticalscale', { instanceType: to }) };
  }

  // ---- repair and retry -----------------------------------------------------------

  repair(ref: string, opts: { force: boolean; instances: readonly string[]; rebuild: boolean }): string {
    const e = this.b.environment(ref);
    const f = this.of(e);
    this.b.require(e, ['AVAILABLE'], 'a FreeIPA repair');
    for (const id of opts.instances)
      if (!f.instances.some((n) => n.id === id))
        throw notFound(`instance ${id} is not a FreeIPA server of environment ${e.environmentName}`);
    const failed = this.records.state(f) === 'UPDATE_FAILED';
    if (!failed && !opts.force)
      throw failedPrecondition(`the FreeIPA servers of environment ${e.environmentName} are healthy; repair them anyway with --force`);
    const targets = opts.instances.length > 0 ? [...opts.instances] : f.instances.map((n) => n.id);
    const instances = f.instances.map((n) =>
      opts.rebuild && targets.includes(n.id) ? { ...node(e, n.index, this.now), index: n.index } : n,
    );
    f.repairing = { instances: targets, rebuild: opts.rebuild };
    return this.begin(f, 'repair', { instances, repairing: null });
  }

  /** A repair's operation record, by its id. */
  repairOperation(operationId: string): OperationRecord {
    const op = this.b.operations.get(operationId);
    if (op.operationName !== 'REPAIR') throw notFound(`operation ${operationId} is not a FreeIPA repair (it is ${op.operationName})`);
    return op;
  }

  /** Why the FreeIPA operation `operationId` failed, when it is the last one and did. */
  failure(environmentCrn: string, operationId: string): string | undefined {
    const f = this.records.byId(environmentCrn);
    if (!f || f.activity.operationId !== operationId || !this.records.progress(f).failed) return undefined;
    return f.activity.reason;
  }

  retry(ref: string): string {
    const e = this.b.environment(ref);
    const f = this.of(e);
    this.b.require(e, ['AVAILABLE', 'ENV_STOPPED'], 'a FreeIPA retry');
    const last = f.activity;
    if (!this.records.progress(f).failed)
      throw failedPrecondition(
        `nothing to retry: the last FreeIPA operation of environment ${e.environmentName} (${last.action}) did not fail`,
      );
    return (
      this.records.begin(f, last.action, { retry: true, anyState: true, ...(last.effect ? { effect: last.effect } : {}) }).operationId ?? ''
    );
  }

  // ---- images -----------------------------------------------------------------------

  /** The images FreeIPA can upgrade to: newer ones of its OS, and of the next OS when allowed. */
  upgradeOptions(ref: string, allowMajorOsUpgrade: boolean): { current: FreeipaImage; images: FreeipaImage[]; catalog: string } {
    const e = this.b.environment(ref);
    const f = this.of(e);
    const current = imageById(f.image) ?? DEFAULT_FREEIPA_IMAGE;
    const series = OS_SERIES.indexOf(current.os);
    const images = FREEIPA_IMAGES.filter(
      (i) => i.date > current.date && (i.os === current.os || (allowMajorOsUpgrade && OS_SERIES.indexOf(i.os) === series + 1)),
    );
    return { current, images, catalog: f.catalog ?? FREEIPA_CATALOG.url };
  }

  upgrade(
    ref: string,
    imageId: string | undefined,
    allowMajorOsUpgrade: boolean,
  ): { original: FreeipaImage; target: FreeipaImage; operationId: string } {
    const { e, f } = this.ready(ref, 'a FreeIPA upgrade');
    const options = this.upgradeOptions(e.crn, allowMajorOsUpgrade);
    const target = imageId ? options.images.find((i) => i.id === imageId) : options.images[options.images.length - 1];
    if (!target) {
      if (imageId)
        throw failedPrecondition(
          `image ${imageId} is not an upgrade of FreeIPA of environment ${e.environmentName} (${options.current.imageName}); see environments freeipa upgrade-options${allowMajorOsUpgrade ? '' : ' (--allow-major-os-upgrade for the next OS)'}`,
        );
      throw failedPrecondition(
        `FreeIPA of environment ${e.environmentName} runs the newest image of ${options.current.os} (${options.current.imageName})${allowMajorOsUpgrade ? '' : '; --allow-major-os-upgrade takes it to the next OS'}`,
      );
    }
    return { original: options.current, target, operationId: this.begin(f, 'upgrade', { image: target.id }) };
  }

  setCatalog(ref: string, catalog: string): void {
    const e = this.b.environment(ref);
    const f = this.of(e);
    if (!/^https?:\/\/[^\s/]+/.test(catalog)) throw invalid(`${catalog.slice(0, 200)} is not the URL of an image catalog`);
    f.catalog = catalog;
    this.records.save(f);
  }

  // ---- maintenance --------------------------------------------------------------------

  rotateSecrets(ref: string, types: readonly string[]): string {
    const { f } = this.ready(ref, 'a FreeIPA secret rotation');
    if (types.length === 0) throw invalid('give the secret types to rotate (see environments freeipa secrets list-types)');
    const known = FREEIPA_SECRET_TYPES.map((t) => t.secretType);
    const unknown = types.filter((t) => !known.includes(t));
    if (unknown.length > 0) throw invalid(`unknown FreeIPA secret type ${unknown.join(', ')}; types: ${known.join(', ')}`);
    const at = iso(this.now);
    return this.begin(f, 'rotatesecrets', { secretsRotated: { ...f.secretsRotated, ...Object.fromEntries(types.map((t) => [t, at])) } });
  }

  imds(ref: string, version: 'v1' | 'v2'): string {
    const { e, f } = this.ready(ref, `a FreeIPA IMDS${version} update`);
    if (e.cloudPlatform !== 'AWS')
      throw failedPrecondition(
        `environment ${e.environmentName} runs on ${e.cloudPlatform}; the instance metadata service version is AWS's`,
      );
    return this.begin(f, 'imds', { imds: version });
  }

  updateOrchestratorState(ref: string): string {
    const { f } = this.ready(ref, 'a FreeIPA orchestrator state update');
    return this.begin(f, 'saltupdate', {});
  }

  // ---- recipes ------------------------------------------------------------------------

  attachRecipes(ref: string, names: readonly string[]): void {
    const e = this.b.environment(ref);
    const f = this.of(e);
    if (names.length === 0) throw invalid('give the recipes to attach');
    for (const n of names) if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(n)) throw invalid(`${n.slice(0, 100)} is not a recipe name`);
    f.recipes = [...new Set([...f.recipes, ...names])];
    this.records.save(f);
  }

  detachRecipes(ref: string, names: readonly string[]): void {
    const e = this.b.environment(ref);
    const f = this.of(e);
    const missing = names.filter((n) => !f.recipes.includes(n));
    if (missing.length > 0)
      throw notFound(
        `recipe ${missing.join(', ')} is not attached to FreeIPA of environment ${e.environmentName}; attached: ${f.recipes.join(', ') || 'none'}`,
      );
    f.recipes = f.recipes.filter((r) => !names.includes(r));
    this.records.save(f);
  }
}
