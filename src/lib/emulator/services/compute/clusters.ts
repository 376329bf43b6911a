/**
 * Compute clusters: what a new one is made with (its owner, its Kubernetes
 * version, its add-ons), what every view of one computes (its size, message
 * and state version as of now, the EKS or AKS state it shows), the rules of
 * its changes, and the validations a create runs first. A cluster whose name
 * starts with `fail-` ends its long-running work in the failure status
 * (CREATE_FAILED, UPGRADE_FAILED, ...); `fail-<action>-...` fails only that
 * action's first run, so a retry works. A forced delete is only for a
 * cluster whose delete failed: it ends at once, its cloud resources left
 * behind.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { verbs } from '../../engine/table.js';
import { alreadyExists, failedPrecondition, invalid } from '../../errors.js';
import { crn, crnId } from '../../ids.js';
import { iso, obj, str, text } from '../../values.js';
import type { EnvironmentView } from '../../world/contracts.js';
import { platformDeployments } from './deployments.js';
import type { resources } from '../../../model/services/compute/resources.js';

export type R = keyof typeof resources.resources;
export type Rec = Readonly<EngineRecord>;

const K8S = ['1.27', '1.28', '1.29', '1.30'];
const DEFAULT_K8S = '1.29';

/** The Kubernetes version a cluster may move to next (one step at a time). */
export const upgradesOf = (rec: Rec): string[] => {
  const at = K8S.indexOf(String(rec.doc.kubernetesVersion));
  return K8S.slice(at + 1, at + 2);
};

/** The environment a cluster request names (name or CRN): compute clusters run in AWS and Azure environments. */
export function computeEnvironment(h: Hook<R>, ref: string): EnvironmentView {
  const env = h.world.environments.require(ref);
  if (env.cloudPlatform !== 'AWS' && env.cloudPlatform !== 'AZURE')
    throw invalid(
      `environment ${env.environmentName} is a ${env.cloudPlatform} environment; compute clusters run in AWS and Azure environments`,
    );
  return env;
}

/** The calling user as a cluster's owner: with the e-mail and names iam has of it (machine users have none). */
function owner(h: Hook<R>): Doc {
  const caller = h.ctx.caller.actorCrn;
  const who = h.world.identities.actor(caller);
  return {
    userId: crnId(caller),
    accountId: h.ctx.info.accountId,
    crn: caller,
    ...(who?.email ? { email: who.email } : {}),
    ...(who?.firstName ? { firstName: who.firstName } : {}),
    ...(who?.lastName ? { lastName: who.lastName } : {}),
  };
}

/** What a new cluster is made with, beyond its request: its owner, its platform and what every cluster has. */
export function fillCluster(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const env = computeEnvironment(h, String(rec.env));
  const provider = env.cloudPlatform === 'AZURE' ? 'AZURE' : 'AWS';
  const region = env.region;
  const { accountId } = h.ctx.info;
  return {
    envCloudProvider: provider,
    computePlatform: provider === 'AZURE' ? 'AKS' : 'EKS',
    kubernetesVersion: DEFAULT_K8S,
    region,
    clusterOwner: owner(h),
    clusterType: 'Shared',
    account: accountId,
    dashboardUrl: `https://console.example.cloudera.site/compute/${rec.id}`,
    apiEndPoint: `https://${rec.id}.k8s.${region}.example.internal`,
    isClouderaManaged: true,
    imageCatalog: { crn: crn('imagecatalog', h.ctx.info.region, accountId, 'imageCatalog', 'cdp-default'), name: 'cdp-default' },
    storage: { csiEnabled: true },
    labels: { ...(obj(req.tags) as Record<string, string>) },
    isDefault: false,
    clusterShape: 'Embedded',
    workloads: [],
    bootstrapScript: '',
    nodeImageUpgradeAvailable: false,
    nodeImageUpgrades: [],
  };
}

/** A cluster's state version: one at creation, one more for every change since (an action begun, a deployment moved). */
const stateVersion = (rec: Rec): number => 1 + (rec.past?.length ?? 0) + Number(rec.data?.changes ?? 0);

/** The answer of a change of a cluster: its status now, with what the change started (`suspending the cluster`). */
export const started =
  (message: string | ((req: Doc) => string)) =>
  (h: Hook<R>, rec: Rec, req: Doc): Doc => {
    const view = h.records('cluster').view(rec);
    return { ...view, clusterStatus: { status: view.status, message: typeof message === 'string' ? message : message(req) } };
  };

/** What every view of a cluster computes: its size, message, state version and upgrades as of now, and its EKS or AKS state. */
export function showCluster(h: Hook<R>, rec: Rec, view: Doc): Doc {
  const status = String(view.status);
  const records = h.records('cluster');
  const p = records.progress(rec);
  const size = ['SUSPENDED', 'DELETED', 'CREATING', 'CREATE_FAILED'].includes(status) ? 0 : 3;
  const forced = rec.deleted?.forced === true;
  const message = p.failed
    ? (rec.activity.reason ?? `${rec.activity.action} failed`)
    : status === 'DELETED' && forced
      ? 'force-deleted; cloud resources were not cleaned up'
      : !p.done
        ? `${rec.activity.action} in progress`
        : `cluster is ${status.toLowerCase()}`;
  const changed = Math.max(Number(rec.data?.changedAt ?? 0), p.done ? p.endsAt : rec.activity.tl.startedAt);
  return {
    clusterSize: size,
    message,
    clusterStatus: { status, message },
    uri: `/api/v1/compute/describeCluster?clusterCrn=${encodeURIComponent(String(rec.crn))}`,
    clusterStateVersion: stateVersion(rec),
    computePlatformVersion: view.kubernetesVersion,
    availableUpgrades: status === 'RUNNING' ? upgradesOf(rec) : [],
    updateTime: iso(changed),
    ...(rec.deleted ? { deletionTime: iso(rec.deleted.at) } : {}),
    ...platformState(h, rec, size),
  };
}

const RESERVED = {
  kubeReservedCpu: 250,
  kubeReservedMemory: 1024,
  kubeReservedStorage: 1024,
  systemReservedCpu: 100,
  systemReservedMemory: 512,
  systemReservedStorage: 1024,
};

/** The two node pools every emulated cluster has, a system pool and a worker pool, each with what its platform adds. */
function nodePools(rec: Rec, tags: Doc, size: number, platform: (system: boolean) => Doc): Doc {
  const pools = [
    { system: true, name: 'system-pool', count: Math.min(size, 2), max: 3 },
    { system: false, name: 'worker-pool', count: Math.max(size - 2, 0), max: 10 },
  ];
  return Object.fromEntries(
    pools.map((p) => [
      p.name,
      {
        instanceGroupName: p.name,
        instanceGroupId: `${rec.id}-${p.system ? 'system' : 'worker'}`,
        instanceCount: p.count,
        minInstance: 0,
        maxInstance: p.max,
        instanceStates: { running: p.count, creating: 0, terminating: 0, total: p.count },
        labels: { pool: p.system ? 'system' : 'worker' },
        taints: p.system ? { CriticalAddonsOnly: 'true:NoSchedule' } : {},
        tags: { ...tags },
        nodeVolumeSize: p.system ? 128 : 256,
        singleZone: false,
        ...RESERVED,
        ...platform(p.system),
      },
    ]),
  );
}

/** The AKS (Azure) or EKS (AWS) state of a cluster: node pools, add-ons, and the network it was created with. */
function platformState(h: Hook<R>, rec: Rec, size: number): Doc {
  const env = h.world.environments.find(String(rec.env));
  const net = obj(obj(rec.data?.request).network);
  const tags = obj(rec.doc.labels);
  const subnets = Array.isArray(net.subnets) && net.subnets.length > 0 ? (net.subnets as string[]) : [...(env?.network.subnetIds ?? [])];
  const base = { clusterDisplayName: rec.name, tags, deployments: platformDeployments(rec), subnets };
  if (rec.doc.envCloudProvider === 'AZURE')
    return {
      aks: {
        ...base,
        provider: 'azure',
        virtualNetwork: env?.network.azure?.networkId ?? '',
        virtualNetworkResourceGroup: env?.network.azure?.resourceGroupName ?? '',
        clusterResourceGroup: `${String(rec.name)}-rg`,
        selectedSubnet: subnets[0] ?? '',
        networkPlugin: 'azure',
        podCidr: str(net.podCidr) ?? '10.244.0.0/16',
        serviceCidr: str(net.serviceCidr) ?? '10.0.0.0/16',
        networkCidrs: env ? [env.network.networkCidr] : [],
        egressType: str(net.outboundType) ?? 'loadBalancer',
        instanceGroups: nodePools(rec, tags, size, (system) => ({
          instanceType: system ? 'Standard_D4s_v3' : 'Standard_D8s_v3',
          instanceTier: 'Regular',
          isSystem: system,
          enableAutoScaling: true,
          availabilityZones: [1, 2, 3],
        })),
      },
    };
  const ami = `ami-0${rec.id
    .replace(/[^0-9a-f]/g, '')
    .padEnd(16, '0')
    .slice(0, 16)}`;
  return {
    eks: {
      ...base,
      provider: 'aws',
      virtualNetwork: env?.network.aws?.vpcId ?? '',
      existingVirtualNetwork: true,
      workerSubnets: subnets,
      vpcCidr: env?.network.networkCidr ?? '',
      networkPlugin: 'aws-vpc-cni',
      serviceCidr: str(net.serviceCidr) ?? '172.20.0.0/16',
      csiEnabled: true,
      instanceGroups: nodePools(rec, tags, size, (system) => ({
        ami,
        imageParam: '',
        instanceTypes: [system ? 'm5.xlarge' : 'm5.2xlarge'],
        instanceTier: 'on-demand',
        autoscalingEnabled: true,
        enableCfsQuota: true,
        events: [],
        imdsVersions: ['v2'],
      })),
    },
  };
}

// ---- rules of its changes ------------------------------------------------------------

/** An update needs the state version the caller last read, when it gives one. */
export function checkUpdate(h: Hook<R>, rec: Rec, req: Doc): void {
  const given = req.clusterStateVersion;
  const now = stateVersion(rec);
  if (typeof given === 'number' && given !== now)
    throw failedPrecondition(`compute cluster ${String(rec.name)} changed: its state version is ${now}, not ${given}; describe it again`);
  h.records('cluster').require(rec, ['RUNNING', 'UPDATE_FAILED'], 'an update');
}

/** An upgrade needs a newer Kubernetes version to go to. */
export function checkUpgrade(h: Hook<R>, rec: Rec): void {
  h.records('cluster').require(rec, ['RUNNING'], 'an upgrade');
  if (upgradesOf(rec).length === 0)
    throw failedPrecondition(
      `compute cluster ${String(rec.name)} runs Kubernetes ${String(rec.doc.kubernetesVersion)}, the newest supported`,
    );
}

/** A delete waits for work under way; a forced one is only for a cluster whose delete failed. */
export function checkDelete(h: Hook<R>, rec: Rec, req: Doc): void {
  const clusters = h.records('cluster');
  const status = clusters.state(rec);
  if (req.force === true) {
    if (status !== 'DELETE_FAILED')
      throw failedPrecondition(
        `force delete is only valid for a cluster in DELETE_FAILED; compute cluster ${String(rec.name)} is ${status}`,
      );
    return;
  }
  if (clusters.busy(rec)) throw failedPrecondition(`compute cluster ${String(rec.name)} is ${status}; wait until it finishes`);
}

// ---- validations and the create that runs them ----------------------------------------------

interface Validation {
  readonly name: string;
  readonly category: string;
  readonly passed: boolean;
  readonly okMessage: string;
  readonly badMessage: string;
}

function cidr(value: string): [number, number] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(value);
  if (!m) return undefined;
  const ip = ((Number(m[1]) << 24) | (Number(m[2]) << 16) | (Number(m[3]) << 8) | Number(m[4])) >>> 0;
  const bits = Number(m[5]);
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return [(ip & mask) >>> 0, mask];
}

/** The checks a cluster request must pass. */
function validations(h: Hook<R>, req: Doc): Validation[] {
  const env = computeEnvironment(h, text(req.environment));
  const name = text(req.name);
  const network = obj(req.network);
  const pod = typeof network.podCidr === 'string' ? cidr(network.podCidr) : undefined;
  const svc = typeof network.serviceCidr === 'string' ? cidr(network.serviceCidr) : undefined;
  const overlap = !!pod && !!svc && ((pod[0] & svc[1]) >>> 0 === svc[0] || (svc[0] & pod[1]) >>> 0 === pod[0]);
  const taken = h.records('cluster').find(name, env.crn);
  return [
    {
      name: 'ClusterNameFormat',
      category: 'INPUT',
      passed: /^[a-z][a-z0-9-]{1,48}[a-z0-9]$/.test(name),
      okMessage: 'the cluster name is valid',
      badMessage: 'cluster names are 3-50 lower-case letters, digits and "-", starting with a letter',
    },
    {
      name: 'ClusterNameUnique',
      category: 'INPUT',
      passed: !taken || taken.deleted !== undefined,
      okMessage: 'no other cluster has this name',
      badMessage: `the environment already has a cluster named ${name}`,
    },
    {
      name: 'NetworkCidrs',
      category: 'NETWORK',
      passed: !overlap,
      okMessage: 'pod and service CIDRs do not overlap',
      badMessage: 'the pod CIDR and the service CIDR overlap',
    },
    {
      name: 'EnvironmentAvailable',
      category: 'ENVIRONMENT',
      passed: env.status === 'AVAILABLE',
      okMessage: 'the environment is available',
      badMessage: `environment ${env.environmentName} is ${env.status}`,
    },
  ];
}

function validationResponse(checks: readonly Validation[]): Doc {
  const failed = checks.filter((v) => !v.passed).length;
  return {
    result: failed ? 'FAILED' : 'PASSED',
    summary: { passed: checks.length - failed, warning: 0, failed, skipped: 0, total: checks.length },
    message: failed ? `${failed} validation(s) failed` : 'all validations passed',
    validations: checks.map((v) => ({
      name: v.name,
      description: v.okMessage,
      category: v.category,
      status: v.passed ? 'PASSED' : 'FAILED',
      message: v.passed ? v.okMessage : v.badMessage,
      duration: '0.1s',
    })),
  };
}

export function validateCluster(h: Hook<R>, req: Doc): Doc {
  return validationResponse(validations(h, req));
}

/** A create runs the validations first (unless skipped): a failed one is answered VALIDATION_FAILED, and nothing is made. */
export function createCluster(h: Hook<R>, req: Doc): Doc {
  if (req.skipValidation !== true) {
    const checks = validations(h, req);
    if (checks.some((v) => !v.passed)) {
      const v = validationResponse(checks);
      return { clusterStatus: { status: 'VALIDATION_FAILED', message: String(v.message) }, validationResponse: v };
    }
  }
  const env = computeEnvironment(h, text(req.environment));
  const taken = h.records('cluster').find(text(req.name), env.crn);
  if (taken && !taken.deleted) throw alreadyExists(`the environment already has a cluster named ${text(req.name)}`);
  return h.serve(verbs<R>('cluster').create({ answer: started('cluster creation started') }), req);
}
