/**
 * The Kubernetes clusters behind workbenches, AI registries and inference
 * services: what they need of their environment, the network settings a
 * request may give (CIDR blocks, the environment's subnets), their instance
 * groups (named by the service, sized from the cloud's instance types, with
 * instances spread over zones), and how their users reach them: a
 * kubeconfig (while the cluster exists), and access grants, one per cloud
 * identity, parts of the record whose cluster they open (they go with it).
 */
import type { resources } from '../../../model/services/ml/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Resource, Hook as TableHook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { b64, docs, hex, num, obj, str, strings, text } from '../../values.js';
import { kubeconfig } from '../../shared/kubeconfig.js';
import type { EnvironmentView } from '../../world/contracts.js';
import { clusterExists, instanceType } from './catalogue.js';

/** The resources of ml (its facts' keys), the hook its code gets, and a record as hooks read it. */
export type R = keyof typeof resources.resources;
export type Hook = TableHook<R>;
export type Rec = Readonly<EngineRecord>;

/** The Kubernetes cluster behind a registry or inference service of its own (a workbench's is named the same way). */
export const clusterName = (rec: Rec): string => `liftie-${hex(rec.id, 8)}`;

// ---- environments -----------------------------------------------------------------

/** The environment a record lives in, as the environments service has it now (through the world). */
export function environmentOf(h: Hook, rec: Rec): EnvironmentView {
  const env = rec.env ? h.world.environments.find(rec.env) : undefined;
  if (!env) throw notFound(`the environment of ${nameOf(rec)} no longer exists`);
  return env;
}

/** New clusters are made only in an environment that is up. */
export function requireAvailable(env: EnvironmentView, what: string): void {
  if (env.status !== 'AVAILABLE')
    throw failedPrecondition(`environment ${env.environmentName} is ${env.status}; ${what} needs it AVAILABLE`);
}

/** A request that names its environment twice must name the same one. */
export function sameEnvironment(env: EnvironmentView, given: unknown, field: string): void {
  const ref = str(given);
  if (ref && ref !== env.crn && ref.toLowerCase() !== env.environmentName.toLowerCase())
    throw invalid(`${field} ${ref} is not environment ${env.environmentName}, which the request names`);
}

/** A running data lake in the environment (what governance reads lineage into). */
export function requireRunningLake(h: Hook, env: EnvironmentView, what: string): void {
  if (h.world.lakes.of(env.crn)?.status !== 'RUNNING')
    throw failedPrecondition(`${what} needs a RUNNING data lake in environment ${env.environmentName}`);
}

// ---- network settings -------------------------------------------------------------

const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/** CIDR blocks as given, or INVALID_ARGUMENT naming the first that is not one. */
export function cidrBlocks(v: unknown, field: string): string[] {
  const blocks = strings(v);
  for (const b of blocks) {
    const m = CIDR.exec(b);
    const ok = m !== null && m.slice(1, 5).every((x) => Number(x) <= 255) && Number(m[5]) <= 32;
    if (!ok) throw invalid(`${field}: ${b} is not a CIDR block such as 10.0.0.0/16`);
  }
  return blocks;
}

/** An allow-list of CIDR blocks that lets only them reach the API server needs at least one. */
export function authorizedRanges(v: unknown, only: boolean, flag: string): string[] {
  const ranges = cidrBlocks(v, 'authorizedIPRanges');
  if (only && ranges.length === 0) throw invalid(`${flag} lets only authorizedIPRanges reach the API server: give at least one CIDR block`);
  return ranges;
}

/** Checks a request's network settings against the environment; the settings a record keeps. */
export function networkSettings(env: EnvironmentView, req: Doc): Doc {
  const whitelist = req.whitelistAuthorizedIPRanges === true;
  const ranges = authorizedRanges(req.authorizedIPRanges, whitelist, 'whitelistAuthorizedIPRanges');
  if (strings(req.outboundTypes).includes('OUTBOUND_TYPE_UDR') && env.cloudPlatform !== 'AZURE')
    throw invalid(
      `outboundTypes OUTBOUND_TYPE_UDR (user-defined routing) is for Azure; environment ${env.environmentName} is on ${env.cloudPlatform}`,
    );
  const loadBalancerIPWhitelists = cidrBlocks(req.loadBalancerIPWhitelists, 'loadBalancerIPWhitelists');
  const subnets = strings(req.subnetsForLoadBalancers);
  const have = env.network.subnetIds;
  const stranger = subnets.find((s) => !have.includes(s));
  if (stranger)
    throw invalid(`subnetsForLoadBalancers: ${stranger} is not a subnet of environment ${env.environmentName} (it has ${have.join(', ')})`);
  return {
    loadBalancerIPWhitelists,
    subnetsForLoadBalancers: subnets,
    whitelistAuthorizedIPRanges: whitelist,
    authorizedIPRanges: ranges,
  };
}

/** The provision request of a new cluster: required in the public cloud, and for the environment the request names. */
export function provisionRequest(env: EnvironmentView, req: Doc, envField: 'environmentName' | 'environmentCrn'): Doc | undefined {
  if (req.provisionK8sRequest === undefined) return undefined;
  const p = obj(req.provisionK8sRequest);
  sameEnvironment(env, p[envField], `provisionK8sRequest.${envField}`);
  return p;
}

// ---- instance groups ------------------------------------------------------------------

/** The instances of a group, spread over the environment's zones, with the ids its cloud gives. */
function instances(env: EnvironmentView, cluster: string, group: string, count: number): Doc[] {
  return Array.from({ length: count }, (_, i) => {
    const seed = hex(`${cluster}/${group}/${i}`, 17);
    const zone = 'abc'.charAt(i % 3);
    if (env.cloudPlatform === 'AZURE') {
      const vm = `aks-${group}-${seed.slice(0, 8)}-vmss${String(i).padStart(6, '0')}`;
      return { instanceId: vm, availabilityZone: `${env.region}-${(i % 3) + 1}` };
    }
    if (env.cloudPlatform === 'GCP')
      return { instanceId: `gke-${cluster}-${group}-${seed.slice(0, 8)}`, availabilityZone: `${env.region}-${zone}` };
    return { instanceId: `i-0${seed.slice(0, 16)}`, availabilityZone: `${env.region}${zone}` };
  });
}

/**
 * A group as the service shows it, from its type, autoscaling range and
 * count (checked: `where` names it in errors), and the user's settings in
 * `extra`; an accelerator goes only on an instance type with GPUs (when the
 * type is known).
 */
function groupDoc(env: EnvironmentView, cluster: string, name: string, type: string, range: number[], extra: Doc, where: string): Doc {
  const [min = 0, max = 0, count = min] = range;
  if (min < 0) throw invalid(`${where}: the minimum instances (${min}) cannot be negative`);
  if (max < 1) throw invalid(`${where}: the maximum instances (${max}) must be at least 1`);
  if (min > max) throw invalid(`${where}: the minimum instances (${min}) is above the maximum (${max})`);
  if (count < min || count > max) throw invalid(`${where}: ${count} instances is outside the autoscaling range ${min}-${max}`);
  const known = instanceType(env.cloudPlatform, type);
  const accelerator = obj(extra.accelerator);
  const gpus = num(accelerator.count) ?? known?.gpu ?? 0;
  return {
    instanceGroupName: name,
    instanceType: type,
    instanceCount: count,
    minInstances: min,
    maxInstances: max,
    instances: instances(env, cluster, name, count),
    tags: docs(extra.tags),
    ...(known ? { cpu: String(known.cpu), memory: String(known.memory), gpu: String(gpus) } : {}),
    ...(extra.rootVolumeSize !== undefined ? { rootVolumeSize: extra.rootVolumeSize } : {}),
    ...(str(extra.name) ? { name: extra.name } : {}),
    ...(gpus > 0 ? { accelerator: { type: str(accelerator.type) ?? known?.gpuType ?? 'GPU', count: gpus } } : {}),
  };
}

/** Checks that an accelerator goes on an instance type with GPUs (when the type is known). */
function checkAccelerator(env: EnvironmentView, type: string, accelerator: unknown, where: string): void {
  if (accelerator !== undefined && instanceType(env.cloudPlatform, type)?.gpu === 0)
    throw invalid(`${where}: instance type ${type} has no GPU for the accelerator given`);
}

/** New groups from a request's instance groups, named by the service (`gpu-p3-2xlarge`), beside `current`. */
export function newGroups(env: EnvironmentView, cluster: string, current: readonly Doc[], specs: readonly Doc[], tags: Doc[] = []): Doc[] {
  const taken = new Set(current.map((g) => String(g.instanceGroupName)));
  return specs.map((spec, i) => {
    const type = str(spec.instanceType) ?? '';
    const where = `instanceGroups[${i}] (${type})`;
    checkAccelerator(env, type, spec.accelerator, where);
    const scaling = obj(spec.autoscaling);
    const count = num(spec.instanceCount);
    const min = num(scaling.minInstances) ?? count ?? 1;
    const max = num(scaling.maxInstances) ?? Math.max(min, count ?? 1, 1);
    const gpu = (instanceType(env.cloudPlatform, type)?.gpu ?? 0) > 0 || spec.accelerator !== undefined;
    const stem = `${gpu ? 'gpu' : 'cpu'}-${type.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
    let name = stem;
    for (let n = 2; taken.has(name); n++) name = `${stem}-${n}`;
    taken.add(name);
    const extra = { ...spec, rootVolumeSize: num(obj(spec.rootVolume).size) ?? 256, tags: [...tags, ...docs(spec.tags)] };
    return groupDoc(env, cluster, name, type, count === undefined ? [min, max] : [min, max, count], extra, where);
  });
}

/**
 * What an instance-group change (the `modify` action of a workbench or an
 * inference service) makes of the groups `at` holds (with their tags) in
 * `cluster`: groups added, one changed (its type and autoscaling range, its
 * instances kept within the range), or the groups without one (a cluster
 * keeps at least one), by the operation's verb.
 */
export function groupChange(h: Hook, rec: Rec, req: Doc, at: Doc, cluster: string, owner: string): Doc[] {
  const groups = docs(at.instanceGroups);
  const name = str(req.instanceGroupName) ?? '';
  const named = (): Doc => {
    const g = groups.find((x) => x.instanceGroupName === name);
    const names = groups.map((x) => String(x.instanceGroupName));
    if (!g) throw notFound(`${owner} has no instance group ${name}; it has ${names.length > 0 ? names.join(', ') : 'none'}`);
    return g;
  };
  const op = h.ctx.op.name;
  if (op.startsWith('delete')) {
    const g = named();
    if (groups.length === 1) throw failedPrecondition(`${name} is the last instance group of ${owner}; a cluster needs one`);
    return groups.filter((x) => x !== g);
  }
  const env = environmentOf(h, rec);
  if (op.startsWith('add')) return [...groups, ...newGroups(env, cluster, groups, docs(req.instanceGroups), docs(at.tags))];
  const g = named();
  const type = str(req.instanceType) ?? String(g.instanceType);
  const where = `instance group ${name}`;
  checkAccelerator(env, type, req.accelerator, where);
  const min = num(req.min) ?? Number(g.minInstances);
  const max = num(req.max) ?? Number(g.maxInstances);
  const count = Math.min(Math.max(Number(g.instanceCount), min), max);
  // A new type brings its own GPUs, unless an accelerator is given.
  const accelerator = req.accelerator ?? (type === g.instanceType ? g.accelerator : undefined);
  const extra = { ...g, ...(req.name !== undefined ? { name: req.name } : {}), accelerator };
  const changed = groupDoc(env, cluster, name, type, [min, max, count], extra, where);
  return groups.map((x) => (x === g ? changed : x));
}

// ---- kubeconfigs and access grants ---------------------------------------------------

/** The records whose clusters can be reached, and the resource of their grants. */
type ClusterOwner = 'workspace' | 'modelRegistry' | 'app';
const GRANTS = { workspace: 'workspaceAccess', modelRegistry: 'modelRegistryAccess', app: 'mlServingAppAccess' } as const;

/** FAILED_PRECONDITION unless the cluster of a workbench, registry or inference service exists (installed, or suspended). */
export function requireCluster(h: Hook, key: ClusterOwner, rec: Rec, what: string): void {
  const state = h.records(key).state(rec);
  if (!clusterExists(state)) throw failedPrecondition(`${nameOf(rec)} is ${state}; ${what} needs its cluster`);
}

/**
 * The kubeconfig of the cluster of a workbench, registry or inference
 * service (for an identity granted access): its API server and how kubectl
 * gets a token, as its cloud's managed Kubernetes names them.
 */
function kubeconfigOf(h: Hook, key: ClusterOwner, rec: Rec, identity?: string): string {
  requireCluster(h, key, rec, 'a kubeconfig');
  const env = environmentOf(h, rec);
  const cluster =
    key === 'workspace' ? text(rec.doc.k8sClusterName) : key === 'app' ? text(obj(rec.doc.cluster).clusterName) : clusterName(rec);
  const id = hex(`${env.crn}/${cluster}`, 32).toUpperCase();
  const role = identity && /:role\//.test(identity) ? ['--role-arn', identity] : [];
  const { server, exec } = {
    AZURE: {
      server: `https://${cluster}-dns-${id.slice(0, 8).toLowerCase()}.hcp.${env.region}.azmk8s.emulator.invalid:443`,
      exec: { command: 'kubelogin', args: ['get-token', '--login', 'azurecli', '--server-id', hex(cluster, 8)] },
    },
    GCP: { server: `https://${cluster}.${env.region}.gke.emulator.invalid`, exec: { command: 'gke-gcloud-auth-plugin', args: [] } },
    AWS: {
      server: `https://${id}.gr7.${env.region}.eks.emulator.invalid`,
      exec: { command: 'aws', args: ['eks', 'get-token', '--cluster-name', cluster, '--region', env.region, ...role] },
    },
  }[env.cloudPlatform];
  return kubeconfig({ cluster, server, ca: b64(hex(`${cluster}/ca`, 48)), user: cluster, auth: { exec } });
}

/** getKubeconfig, getMlServingAppKubeconfig (`kubeconfig`) and getModelRegistryKubeconfig (`kubeConfig`). */
export const kubeconfigAnswer =
  (key: ClusterOwner, field: 'kubeconfig' | 'kubeConfig' = 'kubeconfig') =>
  (h: Hook, rec: Rec): Doc => ({ [field]: kubeconfigOf(h, key, rec) });

/** The identities granted access to a record's cluster (its grants). */
export const grantees =
  (key: ClusterOwner) =>
  (h: Hook, rec: Rec): Doc => ({
    users: h
      .records(GRANTS[key])
      .all(rec.id)
      .map((g) => nameOf(g)),
  });

/** A grant request names its identity by `identifier` (or the older `arn`). */
export const identityOf = (_h: Hook, req: Doc): Doc => ({ ...req, identifier: req.identifier ?? req.arn });

/** The record whose cluster a grant opens. */
function owner(h: Hook, key: ClusterOwner, grant: Rec): Rec {
  const p = h.records(key).byId(grant.scope);
  if (!p) throw notFound(`the ${key} of access grant ${nameOf(grant)} no longer exists`);
  return p;
}

/** Access is granted by the cluster's API server, which stays while a workbench is suspended. */
function ownerUp(h: Hook, key: ClusterOwner, grant: Rec, what: string): Rec {
  const p = owner(h, key, grant);
  requireCluster(h, key, p, what);
  return p;
}

/** A grant's answer: a kubeconfig for the identity it lets in. */
export const grantAnswer =
  (key: ClusterOwner) =>
  (h: Hook, grant: Rec): Doc => ({ kubeconfig: kubeconfigOf(h, key, owner(h, key, grant), grant.name) });

const AWS_IDENTITY = /^arn:aws(-[a-z]+)*:iam::\d{12}:(user|role)\/[\w+=,.@/-]+$/;

/** Kubernetes access to the cluster of `key`'s records: one grant per cloud identity (on AWS the ARN of an IAM user or role), a part of its record. */
export function access(key: ClusterOwner): Resource<R> {
  return {
    noun: 'access grant',
    keys: ['identifier'],
    lives: { in: 'parent', parent: key, part: true },
    hooks: {
      check: {
        create: (h, grant) => {
          if (!grant.name) throw invalid('give identifier: the cloud identity to let in');
          const env = environmentOf(h, ownerUp(h, key, grant, 'a new access grant'));
          if (env.cloudPlatform === 'AWS' && !AWS_IDENTITY.test(grant.name))
            throw invalid(`identifier ${grant.name} is not the ARN of an AWS IAM user or role (arn:aws:iam::<account>:role/<name>)`);
        },
        delete: (h, grant) => void ownerUp(h, key, grant, 'revoking access'),
      },
    },
  };
}
