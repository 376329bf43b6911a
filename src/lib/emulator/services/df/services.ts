/**
 * The DataFlow service (`df`) of an environment, an engine record of the
 * resource `service`: one per environment, its id the environment CRN's and
 * its CRN the one the workload API names it by (dfworkload views:
 * serviceMeta). Every environment the emulator pre-creates with DataFlow has
 * it enabled from the start (setup); others are enabled with enableService
 * (the environment must be AVAILABLE). Its actions are the model's
 * (model/services/df/resources.ts); work in an environment whose name starts
 * with `fail-` fails (BAD_HEALTH), and a service whose enable failed is not
 * enabled: it can be reset (forgotten) or disabled. A disabled service is
 * kept, NOT_ENABLED, described and listed, until resetService forgets it or
 * enableService enables it again under the same CRN; nothing runs on it, so
 * its actions are refused (FAILED_PRECONDITION, as they were while it was
 * disabling), and once its environment is gone it is forgotten. A service
 * keeps the cloud users allowed to reach its Kubernetes cluster and who
 * started each of its actions (its events' users).
 */
import type { resources } from '../../../model/services/df/resources.js';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf, type Records } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { crnId, stableUuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { bool, num, str, stringMap, strings, text } from '../../values.js';
import type { EnvironmentView } from '../../world/contracts.js';
import { kubeconfig } from '../../shared/kubeconfig.js';
import { EMPTY_ACCOUNT, PRE_CREATED, preCreatedEnvironmentCrn } from '../../shared/pre-created.js';
import { sorted } from './listing.js';

export type R = keyof typeof resources.resources;
export type Rec = Readonly<EngineRecord>;

/** What a service takes of its environment. */
type Place = Pick<EnvironmentView, 'crn' | 'environmentName' | 'cloudPlatform' | 'region'>;

/** The states of a healthy service (and of a healthy deployment or flow). */
export const HEALTHY: readonly string[] = ['GOOD_HEALTH', 'CONCERNING_HEALTH'];

/** The states a service's cluster runs in (its nodes count, its metrics move). */
export const UP: readonly string[] = [...HEALTHY, 'UPDATING', 'UPGRADING', 'RENEWING_CERTS', 'ROTATING_PASSWORD', 'COLLECTING_DIAGNOSTICS'];

/** The workload version a service runs, and the one an upgrade brings. */
export const WORKLOAD_VERSIONS = ['2.9.0-b120', '2.10.0-b85'] as const;

/** What a service keeps beside its document. */
interface ServiceData {
  /** Who started each action, by the time it started. */
  actors?: Record<string, string>;
}

const dataOf = (rec: Rec): ServiceData => (rec.data ?? {}) as ServiceData;

/** Who started the action a service began at `at` (a user CRN). */
export const actorAt = (rec: Rec, at: number): string | undefined => dataOf(rec).actors?.[String(at)];

/** Who started the service's actions, with the caller as who starts one now (what an action keeps beside the record). */
function actorsWith(h: Hook<R>, rec: Rec): Doc {
  const actors = Object.entries(dataOf(rec).actors ?? {}).slice(-49);
  return { actors: Object.fromEntries([...actors, [String(h.ctx.clock.now()), h.ctx.caller.actorCrn]]) };
}

/** Notes the caller as who starts an action of the service now, for code that begins one. */
function noteActor(h: Hook<R>, rec: EngineRecord): void {
  rec.data = { ...rec.data, ...actorsWith(h, rec) };
}

/** A user as DataFlow shows them (authors, events): their workload user name, else their CRN's id. */
export function userNameOf(h: Hook<R>, actorCrn: string): string {
  return h.world.identities.actor(actorCrn)?.workloadUsername ?? actorCrn.split(':').pop() ?? actorCrn;
}

const services = (h: Hook<R>): Records => h.records('service');

/** The records of a resource in a scope (a parent's id; '' in the account), or in every scope. */
export const recordsIn = (h: Hook<R>, resource: R, scope?: string): EngineRecord[] => h.records(resource).all(scope);

/** The state a service is in now. */
export const stateOf = (h: Hook<R>, rec: Rec): string => services(h).state(rec as EngineRecord);

/** Whether a service never got enabled: its enable failed. */
export const notEnabled = (h: Hook<R>, rec: Rec): boolean =>
  rec.activity.action === 'enable' && services(h).progress(rec as EngineRecord).failed;

/** FAILED_PRECONDITION unless the service is healthy. */
export const requireHealthy = (h: Hook<R>, rec: Rec, what: string): void => services(h).require(rec as EngineRecord, HEALTHY, what);

/** The service a CRN names (a disabled one too, until it is reset), or NOT_FOUND. */
export function serviceNamed(h: Hook<R>, serviceCrn: string): EngineRecord {
  if (!serviceCrn.startsWith('crn:')) throw invalid(`serviceCrn must be a CRN; got "${serviceCrn.slice(0, 100)}"`);
  return services(h).get(serviceCrn);
}

/** The service a record lives in (a project, a diagnostics collection, a user's access). */
export function serviceOf(h: Hook<R>, rec: Rec): EngineRecord {
  const s = services(h).byId(rec.scope);
  if (!s) throw notFound(`DataFlow service ${rec.scope.slice(0, 200)} not found`);
  return s;
}

/** Every service of the account (disabled ones too), in the order they were first enabled. */
export const allServices = (h: Hook<R>): EngineRecord[] => services(h).all();

// ---- setup: DataFlow in the pre-created environments; disabled services of deleted environments forgotten ----

/** A new service record of an environment, with what enableService takes. */
function newService(h: Hook<R>, env: Place, given: Doc): Omit<EngineRecord, 'activity' | 'createdAt'> {
  const id = crnId(env.crn);
  const crn = h.crn('service', id);
  const name = env.environmentName;
  const place = { environmentCrn: env.crn, name, cloudPlatform: env.cloudPlatform, region: env.region };
  return { id, name, crn, scope: env.crn, env: env.crn, doc: { ...given, crn, ...place, workloadVersion: WORKLOAD_VERSIONS[0] } };
}

/**
 * DataFlow enabled, once, in the pre-created environments that say so
 * (unless the account was made empty): the first time df is called or the
 * world reads what lives in an environment (the engine's seed; it reads the
 * state only, not the world, so it knows them by the shared list). That is
 * before any of them can be deleted: a delete reads what lives in its
 * environment first.
 */
export function preEnable(h: Hook<R>): void {
  const { accountId, region } = h.ctx.info;
  const flag = `df.seeded:${accountId}`;
  if (h.ctx.store.meta(flag)) return;
  const all = services(h);
  const empty = h.ctx.store.meta(EMPTY_ACCOUNT) === '1';
  for (const e of empty ? [] : PRE_CREATED.filter((x) => x.dataflow)) {
    const env: Place = {
      crn: preCreatedEnvironmentCrn(accountId, region, e.name),
      environmentName: e.name,
      cloudPlatform: e.platform,
      region: e.region,
    };
    // Enabled from the start: its enable ended as it was made.
    if (!all.byId(crnId(env.crn))) all.create(newService(h, env, PRE_ENABLED), 'enable', { minutes: 0 });
  }
  h.ctx.store.setMeta(flag, '1');
}

/** Before each operation: a disabled service whose environment has since been deleted is forgotten. */
export function forgetOrphans(h: Hook<R>): void {
  const all = services(h);
  for (const s of all.all()) if (s.deleted && !h.world.environments.find(s.scope)) all.remove(s);
}

// ---- enable and reset: code (a service's id and CRN are its environment's; enabled again, it is the same record) ----

const count = (v: unknown, field: string): number => {
  const n = num(v);
  if (n === undefined) throw invalid(`${field} is required`);
  return n;
};

function nodeCounts(req: Doc): { minK8sNodeCount: number; maxK8sNodeCount: number } {
  const min = count(req.minK8sNodeCount, 'minK8sNodeCount');
  const max = count(req.maxK8sNodeCount, 'maxK8sNodeCount');
  if (min < 1 || max < min) throw invalid('minK8sNodeCount must be at least 1 and no more than maxK8sNodeCount');
  return { minK8sNodeCount: min, maxK8sNodeCount: max };
}

const FLAGS = ['usePublicLoadBalancer', 'privateCluster', 'userDefinedRouting', 'enforceProject'];
const TEXTS = ['instanceType', 'podCidr', 'serviceCidr'];
const LISTS = ['kubeApiAuthorizedIpRanges', 'loadBalancerAuthorizedIpRanges', 'clusterSubnets', 'loadBalancerSubnets'];

/** The settings of a service, as enableService takes them: those not given are off, or empty. */
const settings = (req: Doc): Doc => ({
  ...nodeCounts(req),
  ...Object.fromEntries(FLAGS.map((k) => [k, bool(req[k])])),
  ...Object.fromEntries(TEXTS.filter((k) => str(req[k])).map((k) => [k, str(req[k])])),
  ...Object.fromEntries(LISTS.map((k) => [k, strings(req[k])])),
  tags: stringMap(req.tags),
});

/** The settings of the pre-created environments' services. */
const PRE_ENABLED = settings({ minK8sNodeCount: 3, maxK8sNodeCount: 10, usePublicLoadBalancer: true });

/** A service as an answer shows it. */
const shown = (h: Hook<R>, rec: EngineRecord): Doc => h.conform('Service', services(h).view(rec), rec.id);

/**
 * Enables DataFlow in an AVAILABLE environment (once: an environment has one
 * service). Code: the service's id is its environment's, and a disabled one
 * is enabled again as it is asked now, under its CRN, keeping its history.
 */
export function enableService(h: Hook<R>, req: Doc): Doc {
  const given = settings(req);
  const env = h.world.environments.require(text(req.environmentCrn));
  const all = services(h);
  const there = all.byId(crnId(env.crn));
  if (there && notEnabled(h, there))
    throw failedPrecondition(`DataFlow service ${nameOf(there)} failed to enable; reset it (df services reset) or disable it first`);
  if (there && !there.deleted) throw alreadyExists(`DataFlow is already enabled in environment ${env.environmentName}`);
  if (env.status !== 'AVAILABLE')
    throw failedPrecondition(`environment ${env.environmentName} is ${env.status}; DataFlow can be enabled in an AVAILABLE environment`);
  const made = newService(h, env, given);
  let rec: EngineRecord;
  if (!there) rec = all.create({ ...made, data: actorsWith(h, made as Rec) }, 'enable');
  else {
    there.doc = made.doc;
    delete there.deleted;
    noteActor(h, there);
    all.begin(there, 'enable');
    rec = there;
  }
  return { service: shown(h, rec) };
}

/**
 * Forgets a service that is not enabled (disabled, or its enable failed),
 * without cleaning up its cloud resources: "Only not-enabled services can be
 * reset". Code: it is not the service's delete (disableService is).
 */
export function resetService(h: Hook<R>, req: Doc): Doc {
  const rec = serviceNamed(h, text(req.serviceCrn));
  if (!notEnabled(h, rec) && !rec.deleted)
    throw failedPrecondition(
      `DataFlow service ${nameOf(rec)} is ${stateOf(h, rec)}; only a service that is not enabled (disabled, or whose enable failed) can be reset`,
    );
  services(h).remove(rec);
  return {};
}

// ---- the service's actions: verbs, with these hooks ----

/**
 * The request of an action of a service, refused while the service is
 * disabled: nothing runs on it (the engine would answer NOT_FOUND for a
 * kept deleted record; clients read FAILED_PRECONDITION, as while it was
 * disabling).
 */
export function notDisabled(h: Hook<R>, req: Doc): Doc {
  const rec = serviceNamed(h, text(req.serviceCrn));
  if (rec.deleted) throw failedPrecondition(`DataFlow service ${nameOf(rec)} is NOT_ENABLED; enable it again first (df services enable)`);
  return req;
}

/** An update names both node counts (and IP ranges, when given). */
const checkUpdate = (_h: Hook<R>, _rec: Rec, req: Doc): void => void nodeCounts(req);

/** An upgrade goes to the next workload version, if there is one. */
function upgradeTo(_h: Hook<R>, rec: Rec): Doc {
  const now = String(rec.doc.workloadVersion);
  const next = WORKLOAD_VERSIONS[WORKLOAD_VERSIONS.indexOf(now as (typeof WORKLOAD_VERSIONS)[number]) + 1];
  if (!next) throw failedPrecondition(`DataFlow service ${nameOf(rec)} already runs the newest version ${now}`);
  return { workloadVersion: next };
}

/**
 * Disabling: refused while the service has deployments, unless they are to
 * be terminated with it. The state is checked first: nothing is ended for a
 * disable that is refused.
 */
function checkDisable(h: Hook<R>, rec: Rec, req: Doc): void {
  services(h).require(rec as EngineRecord, [...HEALTHY, 'BAD_HEALTH'], 'disabling');
  const deployments = deploymentsOf(h, rec);
  if (deployments.length > 0 && !bool(req.terminateDeployments))
    throw failedPrecondition(
      `DataFlow service ${nameOf(rec)} has ${deployments.length} deployment(s); terminate them first or give terminateDeployments`,
    );
}

/**
 * What disabling does: its deployments are terminated; its projects and
 * diagnostics records go too, unless they are to persist (a service enabled
 * again in the environment is the same record, and finds them).
 */
function disabling(h: Hook<R>, rec: Rec, req: Doc): Doc {
  for (const d of deploymentsOf(h, rec)) h.world.dataflows.terminate(d.crn);
  // Its cluster goes, and with it who could reach it.
  for (const kind of bool(req.persist) ? (['kubernetesAccess'] as const) : (['kubernetesAccess', 'project', 'diagnostics'] as const)) {
    const held = h.records(kind);
    for (const x of held.all(rec.id)) held.remove(x);
  }
  return {};
}

/** The hooks of a service's actions: what the rules refuse, what an action does, and who started it (kept beside). */
export const serviceChecks = { update: checkUpdate, delete: checkDisable } as const;

export const serviceEffects = { upgrade: upgradeTo, delete: disabling } as const;

export const serviceKeeps = Object.fromEntries(
  ['update', 'upgrade', 'renewCertificates', 'rotatePassword', 'updateNodeImages', 'delete'].map((action) => [action, actorsWith]),
);

/** A diagnostics collection starts: the service shows COLLECTING_DIAGNOSTICS meanwhile (and goes back to the state it was in). */
export function collectDiagnostics(h: Hook<R>, s: EngineRecord): void {
  noteActor(h, s);
  services(h).begin(s, 'collectDiagnostics');
}

// ---- what a service shows ----

/** The deployments of the workload in a service's environment. */
export const deploymentsOf = (h: Hook<R>, rec: Rec) => h.world.dataflows.deployments().filter((d) => d.environmentCrn === rec.scope);

/** listServices: those whose name or CRN holds the search term, in the order `sorts` asks. */
export function servicesListed(h: Hook<R>, req: Doc): EngineRecord[] {
  const t = str(req.searchTerm)?.toLowerCase();
  const found = allServices(h).filter((s) => !t || (s.name ?? '').toLowerCase().includes(t) || (s.crn ?? '').toLowerCase().includes(t));
  return sorted(found, req.sorts, { name: (s) => s.name ?? '', created: (s) => s.createdAt, state: (s) => stateOf(h, s) });
}

/** listDeployableServicesForNewDeployments: the healthy ones. */
export const deployable = (h: Hook<R>): EngineRecord[] => allServices(h).filter((s) => HEALTHY.includes(stateOf(h, s)));

// ---- the cluster of a service ----

/** Cloud users as their provider names them: an IAM user or role ARN on AWS, an object id on Azure, and GCP's account emails. */
const CLOUD_USERS: Readonly<Record<string, { form: RegExp; is: string }>> = {
  AWS: { form: /^arn:aws(-[a-z-]+)?:iam::\d{12}:(user|role)\/\S+$/, is: 'an IAM user or role ARN' },
  AZURE: { form: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, is: 'an Azure AD object id' },
};
const ACCOUNT_EMAIL = { form: /^\S+@\S+$/, is: 'a user or service account email' };

/** A grant of access to a service's cluster: the service healthy, the user one its cloud names. */
export function checkGrant(h: Hook<R>, rec: Rec): void {
  const service = serviceOf(h, rec);
  requireHealthy(h, service, 'granting Kubernetes access');
  const platform = String(service.doc.cloudPlatform);
  const id = rec.name ?? '';
  const user = CLOUD_USERS[platform] ?? ACCOUNT_EMAIL;
  if (!user.form.test(id))
    throw invalid(`cloudUserId must be ${user.is} for DataFlow service ${nameOf(service)} (${platform}); got "${id.slice(0, 200)}"`);
}

/** grantUserKubernetesAccess's and revokeUserKubernetesAccess's answer: the cloud user. */
export const cloudUserOf = (_h: Hook<R>, rec: Rec): Doc => ({ cloudUserId: rec.name });

/** listUserKubernetesAccess: the cloud users allowed to reach the service's cluster. */
export const kubernetesAccess = (h: Hook<R>, rec: Rec): Doc => ({
  cloudUserIds: recordsIn(h, 'kubernetesAccess', rec.id).map((x) => x.name),
});

/**
 * The bearer token of a service's kubeconfig: made from when it was last
 * enabled or its password last rotated (a rotation makes a new one).
 */
function clusterToken(h: Hook<R>, rec: Rec): string {
  const made = services(h)
    .events(rec as EngineRecord)
    .findLast((e) => (e.action === 'enable' || e.action === 'rotatePassword') && !e.failed);
  return stableUuid(`${rec.crn ?? rec.id}/token/${made?.startedAt ?? rec.createdAt}`);
}

/** The kubeconfig of the service's cluster: its API server and a token. */
export function getKubeconfig(h: Hook<R>, rec: Rec): Doc {
  requireHealthy(h, rec, 'a kubeconfig');
  const cluster = `dfx-${rec.id.slice(0, 8)}`;
  const server = `https://${cluster}.${String(rec.doc.region)}.k8s.emulator.invalid:443`;
  return { kubeconfig: kubeconfig({ cluster, server, user: `${cluster}-admin`, auth: { token: clusterToken(h, rec) } }) };
}

/** ServiceMeta: how deployments and projects name their service. */
export const serviceMeta = (rec: Rec): Doc => ({
  crn: rec.crn,
  name: rec.name,
  cloudProvider: rec.doc.cloudPlatform,
  region: rec.doc.region,
  environmentCrn: rec.scope,
});
