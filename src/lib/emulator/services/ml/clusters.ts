/**
 * The Kubernetes clusters behind workbenches, AI registries and inference
 * services: what they need of their environment, the network settings a
 * request may give (CIDR blocks, the environment's subnets), their instance
 * groups (named by the service, sized from the cloud's instance types, with
 * instances spread over zones), and the kubeconfig that reaches them.
 */
import type { resources } from '../../../model/services/ml/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook as TableHook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { b64, docs, hex, num, obj, str, strings } from '../../values.js';
import { kubeconfig as kubeconfigDocument } from '../../shared/kubeconfig.js';
import type { EnvironmentView } from '../../world/contracts.js';
import { instanceType } from './catalogue.js';

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
  if (!env) throw notFound(`the environment of ${rec.name ?? rec.id} no longer exists`);
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

/** Subnets of the environment's network, or INVALID_ARGUMENT naming one that is not. */
export function environmentSubnets(env: EnvironmentView, v: unknown, field: string): string[] {
  const given = strings(v);
  const have = env.network.subnetIds;
  const stranger = given.find((s) => !have.includes(s));
  if (stranger) throw invalid(`${field}: ${stranger} is not a subnet of environment ${env.environmentName} (it has ${have.join(', ')})`);
  return given;
}

/** Checks a request's network settings against the environment; the settings a record keeps. */
export function networkSettings(env: EnvironmentView, req: Doc): Doc {
  const whitelist = req.whitelistAuthorizedIPRanges === true;
  const ranges = cidrBlocks(req.authorizedIPRanges, 'authorizedIPRanges');
  if (whitelist && ranges.length === 0)
    throw invalid('whitelistAuthorizedIPRanges lets only authorizedIPRanges reach the API server: give at least one CIDR block');
  if (strings(req.outboundTypes).includes('OUTBOUND_TYPE_UDR') && env.cloudPlatform !== 'AZURE')
    throw invalid(
      `outboundTypes OUTBOUND_TYPE_UDR (user-defined routing) is for Azure; environment ${env.environmentName} is on ${env.cloudPlatform}`,
    );
  return {
    loadBalancerIPWhitelists: cidrBlocks(req.loadBalancerIPWhitelists, 'loadBalancerIPWhitelists'),
    subnetsForLoadBalancers: environmentSubnets(env, req.subnetsForLoadBalancers, 'subnetsForLoadBalancers'),
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

const kebabType = (t: string): string => t.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const ZONES = ['a', 'b', 'c'];

/** The instances of a group, spread over the environment's zones, with the ids its cloud gives. */
function instances(env: EnvironmentView, cluster: string, group: string, count: number): Doc[] {
  return Array.from({ length: count }, (_, i) => {
    const seed = hex(`${cluster}/${group}/${i}`, 17);
    const zone = i % ZONES.length;
    if (env.cloudPlatform === 'AZURE')
      return {
        instanceId: `aks-${group}-${seed.slice(0, 8)}-vmss${String(i).padStart(6, '0')}`,
        availabilityZone: `${env.region}-${zone + 1}`,
      };
    if (env.cloudPlatform === 'GCP')
      return { instanceId: `gke-${cluster}-${group}-${seed.slice(0, 8)}`, availabilityZone: `${env.region}-${ZONES[zone] ?? 'a'}` };
    return { instanceId: `i-0${seed.slice(0, 16)}`, availabilityZone: `${env.region}${ZONES[zone] ?? 'a'}` };
  });
}

interface Sizing {
  readonly min: number;
  readonly max: number;
  readonly count: number;
}

function sizing(min: number, max: number, count: number | undefined, where: string): Sizing {
  if (min < 0) throw invalid(`${where}: the minimum instances (${min}) cannot be negative`);
  if (max < 1) throw invalid(`${where}: the maximum instances (${max}) must be at least 1`);
  if (min > max) throw invalid(`${where}: the minimum instances (${min}) is above the maximum (${max})`);
  const n = count ?? min;
  if (n < min || n > max) throw invalid(`${where}: ${n} instances is outside the autoscaling range ${min}-${max}`);
  return { min, max, count: n };
}

/** A group as the service shows it, from its type, size and the user's settings. */
function groupDoc(env: EnvironmentView, cluster: string, name: string, type: string, size: Sizing, extra: Doc, tags: Doc[]): Doc {
  const known = instanceType(env.cloudPlatform, type);
  const accelerator = obj(extra.accelerator);
  const gpus = num(accelerator.count) ?? known?.gpu ?? 0;
  return {
    instanceGroupName: name,
    instanceType: type,
    instanceCount: size.count,
    minInstances: size.min,
    maxInstances: size.max,
    instances: instances(env, cluster, name, size.count),
    tags,
    ...(known ? { cpu: String(known.cpu), memory: String(known.memory), gpu: String(gpus) } : {}),
    ...(extra.rootVolumeSize !== undefined ? { rootVolumeSize: extra.rootVolumeSize } : {}),
    ...(str(extra.name) ? { name: extra.name } : {}),
    ...(gpus > 0 ? { accelerator: { type: str(accelerator.type) ?? known?.gpuType ?? 'GPU', count: gpus } } : {}),
  };
}

/** Checks that an accelerator goes on an instance type with GPUs (when the type is known). */
function checkAccelerator(env: EnvironmentView, type: string, accelerator: unknown, where: string): void {
  const known = instanceType(env.cloudPlatform, type);
  if (accelerator !== undefined && known && known.gpu === 0)
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
    const stem = `${gpu ? 'gpu' : 'cpu'}-${kebabType(type)}`;
    let name = stem;
    for (let n = 2; taken.has(name); n++) name = `${stem}-${n}`;
    taken.add(name);
    const extra = { ...spec, rootVolumeSize: num(obj(spec.rootVolume).size) ?? 256 };
    return groupDoc(env, cluster, name, type, sizing(min, max, count, where), extra, [...tags, ...docs(spec.tags)]);
  });
}

/** The group of a cluster by the name the service gave it, or NOT_FOUND naming those it has. */
export function groupNamed(groups: readonly Doc[], name: string, owner: string): Doc {
  const g = groups.find((x) => x.instanceGroupName === name);
  if (!g) {
    const names = groups.map((x) => String(x.instanceGroupName));
    throw notFound(`${owner} has no instance group ${name}; it has ${names.length > 0 ? names.join(', ') : 'none'}`);
  }
  return g;
}

/** The groups with one changed: its type and autoscaling range (its instances kept within the range). */
export function modifiedGroups(env: EnvironmentView, cluster: string, groups: readonly Doc[], req: Doc, owner: string): Doc[] {
  const name = str(req.instanceGroupName) ?? '';
  const g = groupNamed(groups, name, owner);
  const type = str(req.instanceType) ?? String(g.instanceType);
  checkAccelerator(env, type, req.accelerator, `instance group ${name}`);
  const min = num(req.min) ?? Number(g.minInstances);
  const max = num(req.max) ?? Number(g.maxInstances);
  const count = Math.min(Math.max(Number(g.instanceCount), min), max);
  // A new type brings its own GPUs, unless an accelerator is given.
  const accelerator = req.accelerator ?? (type === g.instanceType ? g.accelerator : undefined);
  const extra = { ...g, ...(req.name !== undefined ? { name: req.name } : {}), accelerator };
  const changed = groupDoc(env, cluster, name, type, sizing(min, max, count, `instance group ${name}`), extra, docs(g.tags));
  return groups.map((x) => (x === g ? changed : x));
}

/** The groups without one; a cluster keeps at least one. */
export function groupsWithout(groups: readonly Doc[], name: string, owner: string): Doc[] {
  const g = groupNamed(groups, name, owner);
  if (groups.length === 1) throw failedPrecondition(`${name} is the last instance group of ${owner}; a cluster needs one`);
  return groups.filter((x) => x !== g);
}

/** Where a record keeps its instance groups: the groups, its cluster, their tags, its name in messages, and the fields that set them. */
export interface GroupsOf {
  readonly groups: readonly Doc[];
  readonly cluster: string;
  readonly tags: Doc[];
  readonly owner: string;
  readonly set: (groups: Doc[]) => Doc;
}

/**
 * What an instance-group change (the `modify` action of a workbench or an
 * inference service) sets when it succeeds: groups added, one changed, or
 * the groups without one, by the operation's verb.
 */
export function groupChange(h: Hook, rec: Rec, req: Doc, at: GroupsOf): Doc {
  const op = h.ctx.op.name;
  if (op.startsWith('delete')) return at.set(groupsWithout(at.groups, str(req.instanceGroupName) ?? '', at.owner));
  const env = environmentOf(h, rec);
  if (op.startsWith('add')) return at.set([...at.groups, ...newGroups(env, at.cluster, at.groups, docs(req.instanceGroups), at.tags)]);
  return at.set(modifiedGroups(env, at.cluster, at.groups, req, at.owner));
}

// ---- kubeconfig --------------------------------------------------------------------------

/** The API server of a cluster, as its cloud's managed Kubernetes names it. */
function apiServer(env: EnvironmentView, cluster: string): string {
  const id = hex(`${env.crn}/${cluster}`, 32).toUpperCase();
  if (env.cloudPlatform === 'AZURE')
    return `https://${cluster}-dns-${id.slice(0, 8).toLowerCase()}.hcp.${env.region}.azmk8s.emulator.invalid:443`;
  if (env.cloudPlatform === 'GCP') return `https://${cluster}.${env.region}.gke.emulator.invalid`;
  return `https://${id}.gr7.${env.region}.eks.emulator.invalid`;
}

/** How kubectl gets a token for the cluster: its cloud's tool, as `identity` when one is given. */
function credentialPlugin(env: EnvironmentView, cluster: string, identity?: string): { command: string; args: string[] } {
  if (env.cloudPlatform === 'AZURE')
    return { command: 'kubelogin', args: ['get-token', '--login', 'azurecli', '--server-id', hex(cluster, 8)] };
  if (env.cloudPlatform === 'GCP') return { command: 'gke-gcloud-auth-plugin', args: [] };
  const role = identity && /:role\//.test(identity) ? ['--role-arn', identity] : [];
  return { command: 'aws', args: ['eks', 'get-token', '--cluster-name', cluster, '--region', env.region, ...role] };
}

/** A kubeconfig for the cluster `cluster` of an environment (the shared document: shared/kubeconfig.ts). */
export function kubeconfig(env: EnvironmentView, cluster: string, identity?: string): string {
  return kubeconfigDocument({
    cluster,
    server: apiServer(env, cluster),
    ca: b64(hex(`${cluster}/ca`, 48)),
    user: cluster,
    auth: { exec: credentialPlugin(env, cluster, identity) },
  });
}

const AWS_IDENTITY = /^arn:aws(-[a-z]+)*:iam::\d{12}:(user|role)\/[\w+=,.@/-]+$/;

/** The cloud identity a grant names: on AWS the ARN of an IAM user or role. */
export function cloudIdentity(env: EnvironmentView, identity: string): string {
  if (env.cloudPlatform === 'AWS' && !AWS_IDENTITY.test(identity))
    throw invalid(`identifier ${identity} is not the ARN of an AWS IAM user or role (arn:aws:iam::<account>:role/<name>)`);
  return identity;
}
