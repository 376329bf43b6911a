/**
 * Compute clusters in the emulator: state and rules, no HTTP. Create,
 * suspend, resume, update, upgrade and delete are timelines of cluster
 * statuses on the emulator clock, read lazily; suspend, resume, update and
 * upgrade also have an operation record with phases, which retryOperation
 * resets after a failure. A cluster whose name starts with `fail-` ends its
 * long-running work in the failure status (CREATE_FAILED, DELETE_FAILED,
 * UPGRADE_FAILED, ...); deleteCluster with force then removes it, and force
 * is refused in any other status. `fail-<action>-...` (e.g.
 * `fail-upgrade-etl`) fails only that action's first run, so a retry works.
 */
import { stateAt, timeline, type Timeline } from '../../clock.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { findEnvironment, requireEnvironment, type EnvironmentRecord } from '../../environments.js';
import { crn, crnId, isCrn, uuid } from '../../ids.js';
import { page } from '../../paging.js';
import type { Doc, RequestContext } from '../../types.js';

export const KIND = { cluster: 'compute.cluster', operation: 'compute.operation' } as const;

const K8S = ['1.27', '1.28', '1.29', '1.30'];
const DEFAULT_K8S = '1.29';

type Workflow = 'UPGRADE' | 'SUSPEND' | 'RESUME' | 'UPDATE';

interface ActionSpec {
  readonly busy: string;
  readonly minutes: number;
  readonly success: string;
  readonly failure: string;
  readonly workflow?: Workflow;
}

const ACTIONS: Readonly<Record<string, ActionSpec>> = {
  create: { busy: 'CREATING', minutes: 10, success: 'RUNNING', failure: 'CREATE_FAILED' },
  delete: { busy: 'DELETING', minutes: 5, success: 'DELETED', failure: 'DELETE_FAILED' },
  suspend: { busy: 'SUSPENDING', minutes: 3, success: 'SUSPENDED', failure: 'SUSPEND_FAILED', workflow: 'SUSPEND' },
  resume: { busy: 'RESUMING', minutes: 4, success: 'RUNNING', failure: 'RESUME_FAILED', workflow: 'RESUME' },
  update: { busy: 'UPDATING', minutes: 2, success: 'RUNNING', failure: 'UPDATE_FAILED', workflow: 'UPDATE' },
  upgrade: { busy: 'UPGRADING', minutes: 8, success: 'RUNNING', failure: 'UPGRADE_FAILED', workflow: 'UPGRADE' },
};

interface ChartRec {
  name: string;
  description: string;
  versions: Array<{ deploymentVersion: string; applicationVersion: string }>;
}

const CHARTS: readonly ChartRec[] = [
  {
    name: 'cluster-autoscaler',
    description: 'Scales node groups to fit pending pods',
    versions: [
      { deploymentVersion: '9.29.0', applicationVersion: '1.27.2' },
      { deploymentVersion: '9.37.0', applicationVersion: '1.29.0' },
    ],
  },
  {
    name: 'metrics-server',
    description: 'Resource metrics for autoscaling',
    versions: [
      { deploymentVersion: '3.11.0', applicationVersion: '0.6.4' },
      { deploymentVersion: '3.12.1', applicationVersion: '0.7.1' },
    ],
  },
  { name: 'ingress-nginx', description: 'Ingress controller', versions: [{ deploymentVersion: '4.8.3', applicationVersion: '1.9.4' }] },
  {
    name: 'yunikorn',
    description: 'Batch scheduler',
    versions: [
      { deploymentVersion: '1.4.0', applicationVersion: '1.4.0' },
      { deploymentVersion: '1.5.0', applicationVersion: '1.5.0' },
    ],
  },
];
const INSTALLED: ReadonlyArray<readonly [string, string]> = [
  ['kube-system', 'cluster-autoscaler'],
  ['kube-system', 'metrics-server'],
  ['ingress', 'ingress-nginx'],
  ['yunikorn', 'yunikorn'],
];
const AVAILABLE_CHARTS = [
  { name: 'nvidia-device-plugin', deploymentVersion: '0.14.5', applicationVersion: '0.14.5', description: 'GPU support for nodes' },
];
const UNAVAILABLE_CHARTS = [
  { name: 'istio', deploymentVersion: '1.20.1', applicationVersion: '1.20.1', description: 'Service mesh; needs Kubernetes 1.30' },
];

interface DeploymentRec {
  name: string;
  namespace: string;
  chart: string;
  version: string;
  overrides: string;
  history: Array<{ revision: number; version: string; overrides: string }>;
}

interface Activity {
  action: string;
  tl: Timeline;
  success: string;
  failure: string;
  effect?: Doc;
  applied?: boolean;
  operationId?: string;
}

export interface ClusterRec {
  clusterId: string;
  clusterCrn: string;
  clusterName: string;
  description?: string;
  envName: string;
  envCrn: string;
  provider: 'AWS' | 'AZURE';
  /** The environment's cloud region (older records lack it). */
  region?: string;
  tags: Record<string, string>;
  network: Doc;
  createdAt: number;
  updatedAt: number;
  deletedAt?: number;
  kubernetesVersion: string;
  clusterStateVersion: number;
  fail: boolean;
  owner: Doc;
  activity: Activity;
  deployments: DeploymentRec[];
}

interface OperationRec {
  operationId: string;
  clusterCrn: string;
  workflow: Workflow;
  tl: Timeline;
  fail: boolean;
  dryRun: boolean;
  retryCount: number;
  workflowId: string;
  runId: string;
  owner: Doc;
}

/**
 * Whether an action fails on purpose: `fail-<action>-...` fails only that
 * action and only its first run (a retry succeeds); any other `fail-...`
 * name fails every long-running action, retries included.
 */
function failsOnPurpose(c: ClusterRec, action: string, retry: boolean): boolean {
  const m = /^fail-(create|delete|suspend|resume|update|upgrade)-/.exec(c.clusterName);
  if (m) return m[1] === action && !retry;
  return c.fail;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The cluster owner: the calling user, with the e-mail and names its iam record has (machine users have none). */
function ownerOf(ctx: RequestContext): Doc {
  const who = ctx.store.getByCrn<Doc>(ctx.caller.actorCrn)?.doc ?? {};
  const named = ['email', 'firstName', 'lastName'].filter((k) => typeof who[k] === 'string' && who[k] !== '');
  return {
    userId: crnId(ctx.caller.actorCrn),
    accountId: ctx.info.accountId,
    crn: ctx.caller.actorCrn,
    ...Object.fromEntries(named.map((k) => [k, who[k]])),
  };
}
const bool = (v: unknown): boolean => v === true;
const iso = (ms: number): string => new Date(ms).toISOString();

// ---- lookups -------------------------------------------------------------

function settle(ctx: RequestContext, c: ClusterRec): ClusterRec {
  const act = c.activity;
  const st = stateAt(act.tl, ctx.clock.now());
  if (!st.done || act.applied) return c;
  act.applied = true;
  const endAt = act.tl.startedAt + (act.tl.steps[act.tl.steps.length - 1]?.afterMs ?? 0);
  if (st.state === act.success && act.effect) Object.assign(c, act.effect);
  if (st.state === 'DELETED') c.deletedAt = endAt;
  c.updatedAt = endAt;
  save(ctx, c);
  return c;
}

function save(ctx: RequestContext, c: ClusterRec): void {
  // Deleted clusters keep their record but free their name.
  ctx.store.put(KIND.cluster, c.clusterId, c, {
    crn: c.clusterCrn,
    name: c.deletedAt === undefined ? `${c.envCrn}/${c.clusterName}` : undefined,
  });
}

export const statusOf = (ctx: RequestContext, c: ClusterRec): string => stateAt(c.activity.tl, ctx.clock.now()).state;

export function getCluster(ctx: RequestContext, ref: unknown): ClusterRec {
  const v = str(ref);
  if (!v) throw invalid('clusterCrn is missing');
  const hit = isCrn(v) ? ctx.store.getByCrn<ClusterRec>(v) : undefined;
  if (!hit || hit.kind !== KIND.cluster) throw notFound(`compute cluster ${v} not found`);
  return settle(ctx, hit.doc);
}

function begin(
  ctx: RequestContext,
  c: ClusterRec,
  action: string,
  effect?: Doc,
  opts: { dryRun?: boolean } = {},
): OperationRec | undefined {
  const spec = ACTIONS[action];
  if (!spec) throw new Error(`unknown action ${action}`);
  const now = ctx.clock.now();
  const fail = failsOnPurpose(c, action, false);
  const tl = timeline(now, [
    [spec.busy, spec.minutes],
    [fail ? spec.failure : spec.success, 0],
  ]);
  let op: OperationRec | undefined;
  if (spec.workflow) {
    op = {
      operationId: uuid(),
      clusterCrn: c.clusterCrn,
      workflow: spec.workflow,
      tl: timeline(now, [
        ['RUNNING', opts.dryRun ? 0.5 : spec.minutes],
        [fail ? 'FAILED' : 'COMPLETED', 0],
      ]),
      fail,
      dryRun: bool(opts.dryRun),
      retryCount: 0,
      workflowId: `${spec.workflow.toLowerCase()}-${c.clusterId}-${uuid().slice(0, 8)}`,
      runId: uuid(),
      owner: { userId: crnId(ctx.caller.actorCrn), accountId: ctx.info.accountId, crn: ctx.caller.actorCrn },
    };
    ctx.store.put(KIND.operation, op.operationId, op, { parent: c.clusterCrn });
  }
  if (!opts.dryRun) {
    c.activity = { action, tl, success: spec.success, failure: spec.failure, effect, operationId: op?.operationId };
    c.clusterStateVersion++;
    c.updatedAt = now;
    save(ctx, c);
  }
  return op;
}

function requireStatus(ctx: RequestContext, c: ClusterRec, allowed: readonly string[], what: string): void {
  const s = statusOf(ctx, c);
  if (!allowed.includes(s)) throw failedPrecondition(`compute cluster ${c.clusterName} is ${s}; ${what} needs it ${allowed.join(' or ')}`);
}

// ---- views ---------------------------------------------------------------

const upgradesOf = (c: ClusterRec): string[] => K8S.slice(K8S.indexOf(c.kubernetesVersion) + 1, K8S.indexOf(c.kubernetesVersion) + 2);

function message(ctx: RequestContext, c: ClusterRec, status: string): string {
  if (status === c.activity.failure) return `${c.activity.action} failed on purpose: the cluster name starts with "fail-"`;
  if (status === 'DELETED' && c.activity.effect?.forced) return 'force-deleted; cloud resources were not cleaned up';
  return status === ACTIONS[c.activity.action]?.busy ? `${c.activity.action} in progress` : `cluster is ${status.toLowerCase()}`;
}

export function listItem(ctx: RequestContext, c: ClusterRec): Doc {
  const status = statusOf(ctx, c);
  const size = status === 'SUSPENDED' || status === 'DELETED' || status === 'CREATING' || status === 'CREATE_FAILED' ? 0 : 3;
  return {
    envName: c.envName,
    envCloudProvider: c.provider,
    clusterName: c.clusterName,
    clusterCrn: c.clusterCrn,
    status,
    computePlatform: c.provider === 'AZURE' ? 'AKS' : 'EKS',
    computePlatformVersion: c.kubernetesVersion,
    kubernetesVersion: c.kubernetesVersion,
    clusterSize: size,
    clusterId: c.clusterId,
    envCrn: c.envCrn,
    clusterType: 'Shared',
    creationTime: iso(c.createdAt),
    ...(c.deletedAt !== undefined ? { deletionTime: iso(c.deletedAt) } : {}),
    updateTime: iso(c.updatedAt),
    clusterStateVersion: c.clusterStateVersion,
    clusterOwner: c.owner,
    region: c.region ?? (c.provider === 'AZURE' ? 'westus2' : 'us-west-2'),
    message: message(ctx, c, status),
    account: ctx.info.accountId,
    availableUpgrades: status === 'RUNNING' ? upgradesOf(c) : [],
    imageCatalog: { crn: crn('imagecatalog', ctx.info.region, ctx.info.accountId, 'imageCatalog', 'cdp-default'), name: 'cdp-default' },
    storage: { csiEnabled: true },
    labels: { ...c.tags },
    isDefault: false,
    clusterShape: 'Embedded',
  };
}

/** Add-ons of every cluster (CommonDeploymentsResp) with the seed's defaults: logging off, monitoring limited to 1000m / 2048M. */
function deploymentsOf(c: ClusterRec): Doc {
  const installed = (chart: string): boolean => c.deployments.some((d) => d.chart === chart);
  return {
    autoscaler: {
      scaleDownEnabled: true,
      scaleDownDelayAfterAdd: '10m',
      scaleDownDelayAfterDelete: '10s',
      scaleDownDelayAfterFailure: '3m',
      scaleDownUnneededTime: '10m',
      scaleDownUnreadyTime: '20m',
      scanInterval: '10s',
      scaleDownUtilizationThreshold: 0.5,
      scaleDownNonEmptyCandidatesCount: 30,
      skipNodesWithLocalStorage: false,
      skipNodesWithSystemPods: true,
      maxGracefulTerminationSec: 600,
    },
    horizontalPodAutoscaler: { enabled: installed('metrics-server') },
    logging: { enabled: false },
    metering: { enabled: true, services: [] },
    monitoring: { enabled: true, alertmanager: { enabled: false }, serverResourceLimits: { cpu: '1000m', memory: '2048M' } },
    istio: { enabled: false },
    knox: { enabled: false },
    nvidia: { gpuLabelKey: 'nvidia.com/gpu', gpuLabelValue: 'true' },
    yunikorn: { enabled: installed('yunikorn') },
    repository: 'container.repository.cloudera.com',
  };
}

/** The two node pools every emulated cluster has: a system pool and a worker pool. */
function pools(size: number): Array<{ system: boolean; name: string; count: number; max: number }> {
  return [
    { system: true, name: 'system-pool', count: Math.min(size, 2), max: 3 },
    { system: false, name: 'worker-pool', count: Math.max(size - 2, 0), max: 10 },
  ];
}

const RESERVED = {
  kubeReservedCpu: 250,
  kubeReservedMemory: 1024,
  kubeReservedStorage: 1024,
  systemReservedCpu: 100,
  systemReservedMemory: 512,
  systemReservedStorage: 1024,
};

function commonGroup(c: ClusterRec, p: ReturnType<typeof pools>[number]): Doc {
  return {
    instanceGroupName: p.name,
    instanceGroupId: `${c.clusterId}-${p.system ? 'system' : 'worker'}`,
    instanceCount: p.count,
    minInstance: 0,
    maxInstance: p.max,
    instanceStates: { running: p.count, creating: 0, terminating: 0, total: p.count },
    labels: { pool: p.system ? 'system' : 'worker' },
    taints: p.system ? { CriticalAddonsOnly: 'true:NoSchedule' } : {},
    tags: { ...c.tags },
    nodeVolumeSize: p.system ? 128 : 256,
    singleZone: false,
    ...RESERVED,
  };
}

/** The AKS (Azure) or EKS (AWS) state of a cluster: node pools, add-ons, and the network it was created with. */
function platformState(ctx: RequestContext, c: ClusterRec, size: number): Doc {
  const env = findEnvironment(ctx, c.envCrn);
  const net = c.network;
  const subnets = Array.isArray(net.subnets) && net.subnets.length > 0 ? (net.subnets as string[]) : (env?.network.subnetIds ?? []);
  const base = { clusterDisplayName: c.clusterName, tags: c.tags, deployments: deploymentsOf(c), subnets };
  if (c.provider === 'AZURE') {
    const groups = Object.fromEntries(
      pools(size).map((p) => [
        p.name,
        {
          ...commonGroup(c, p),
          instanceType: p.system ? 'Standard_D4s_v3' : 'Standard_D8s_v3',
          instanceTier: 'Regular',
          isSystem: p.system,
          enableAutoScaling: true,
          availabilityZones: [1, 2, 3],
        },
      ]),
    );
    return {
      aks: {
        ...base,
        provider: 'azure',
        virtualNetwork: env?.network.azure?.networkId ?? '',
        virtualNetworkResourceGroup: env?.network.azure?.resourceGroupName ?? '',
        clusterResourceGroup: `${c.clusterName}-rg`,
        selectedSubnet: subnets[0] ?? '',
        networkPlugin: 'azure',
        podCidr: str(net.podCidr) ?? '10.244.0.0/16',
        serviceCidr: str(net.serviceCidr) ?? '10.0.0.0/16',
        networkCidrs: env ? [env.network.networkCidr] : [],
        egressType: str(net.outboundType) ?? 'loadBalancer',
        instanceGroups: groups,
      },
    };
  }
  const groups = Object.fromEntries(
    pools(size).map((p) => [
      p.name,
      {
        ...commonGroup(c, p),
        ami: `ami-0${c.clusterId
          .replace(/[^0-9a-f]/g, '')
          .padEnd(16, '0')
          .slice(0, 16)}`,
        imageParam: '',
        instanceTypes: [p.system ? 'm5.xlarge' : 'm5.2xlarge'],
        instanceTier: 'on-demand',
        autoscalingEnabled: true,
        enableCfsQuota: true,
        events: [],
        imdsVersions: ['v2'],
      },
    ]),
  );
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
      instanceGroups: groups,
    },
  };
}

export function describe(ctx: RequestContext, c: ClusterRec): Doc {
  const item = listItem(ctx, c);
  return {
    ...item,
    description: c.description,
    dashboardUrl: `https://console.example.cloudera.site/compute/${c.clusterId}`,
    isClouderaManaged: true,
    apiEndPoint: `https://${c.clusterId}.k8s.${String(item.region)}.example.internal`,
    workloads: [],
    bootstrapScript: '',
    nodeImageUpgradeAvailable: false,
    nodeImageUpgrades: [],
    ...platformState(ctx, c, Number(item.clusterSize)),
  };
}

// ---- validation ----------------------------------------------------------

function cidr(text: string): [number, number] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(text);
  if (!m) return undefined;
  const ip = ((Number(m[1]) << 24) | (Number(m[2]) << 16) | (Number(m[3]) << 8) | Number(m[4])) >>> 0;
  const bits = Number(m[5]);
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return [(ip & mask) >>> 0, mask];
}

function validations(ctx: RequestContext, req: Doc): Doc {
  const name = String(req.name);
  const env = environmentOf(ctx, req);
  const envCrn = env.crn;
  const results: Doc[] = [];
  const add = (n: string, category: string, ok: boolean, okMsg: string, badMsg: string): void => {
    results.push({
      name: n,
      description: okMsg,
      category,
      status: ok ? 'PASSED' : 'FAILED',
      message: ok ? okMsg : badMsg,
      duration: '0.1s',
    });
  };
  add(
    'ClusterNameFormat',
    'INPUT',
    /^[a-z][a-z0-9-]{1,48}[a-z0-9]$/.test(name),
    'the cluster name is valid',
    'cluster names are 3-50 lower-case letters, digits and "-", starting with a letter',
  );
  add(
    'ClusterNameUnique',
    'INPUT',
    !ctx.store.getByName(KIND.cluster, `${envCrn}/${name}`),
    'no other cluster has this name',
    `the environment already has a cluster named ${name}`,
  );
  const net = (req.network ?? {}) as Doc;
  const pod = str(net.podCidr) ? cidr(String(net.podCidr)) : undefined;
  const svc = str(net.serviceCidr) ? cidr(String(net.serviceCidr)) : undefined;
  const overlap = !!pod && !!svc && ((pod[0] & svc[1]) >>> 0 === svc[0] || (svc[0] & pod[1]) >>> 0 === pod[0]);
  add('NetworkCidrs', 'NETWORK', !overlap, 'pod and service CIDRs do not overlap', 'the pod CIDR and the service CIDR overlap');
  add(
    'EnvironmentAvailable',
    'ENVIRONMENT',
    env.status === 'AVAILABLE',
    'the environment is available',
    `environment ${env.environmentName} is ${env.status}`,
  );
  const failed = results.filter((r) => r.status === 'FAILED').length;
  return {
    result: failed ? 'FAILED' : 'PASSED',
    summary: { passed: results.length - failed, warning: 0, failed, skipped: 0, total: results.length },
    message: failed ? `${failed} validation(s) failed` : 'all validations passed',
    validations: results,
  };
}

/** The environment a cluster request names (name or CRN); compute clusters run in AWS and Azure environments. */
function environmentOf(ctx: RequestContext, req: Doc): EnvironmentRecord {
  const env = requireEnvironment(ctx, String(req.environment));
  if (env.cloudPlatform !== 'AWS' && env.cloudPlatform !== 'AZURE')
    throw invalid(
      `environment ${env.environmentName} is a ${env.cloudPlatform} environment; compute clusters run in AWS and Azure environments`,
    );
  return env;
}

export const validateCluster = (ctx: RequestContext, req: Doc): Doc => validations(ctx, req);

// ---- lifecycle -----------------------------------------------------------

export function createCluster(ctx: RequestContext, req: Doc): Doc {
  const name = String(req.name);
  const env = environmentOf(ctx, req);
  const envCrn = env.crn;
  if (!bool(req.skipValidation)) {
    const v = validations(ctx, req);
    if (v.result === 'FAILED') return { clusterStatus: { status: 'VALIDATION_FAILED', message: String(v.message) }, validationResponse: v };
  }
  if (ctx.store.getByName(KIND.cluster, `${envCrn}/${name}`)) throw alreadyExists(`the environment already has a cluster named ${name}`);
  const clusterId = `liftie-${uuid().replace(/-/g, '').slice(0, 8)}`;
  const now = ctx.clock.now();
  const c: ClusterRec = {
    clusterId,
    clusterCrn: crn('compute', ctx.info.region, ctx.info.accountId, 'cluster', clusterId),
    clusterName: name,
    description: str(req.description),
    envName: env.environmentName,
    envCrn,
    provider: env.cloudPlatform === 'AZURE' ? 'AZURE' : 'AWS',
    region: env.region,
    tags: (req.tags as Record<string, string> | undefined) ?? {},
    network: (req.network as Doc | undefined) ?? {},
    createdAt: now,
    updatedAt: now,
    kubernetesVersion: DEFAULT_K8S,
    clusterStateVersion: 0,
    fail: name.startsWith('fail-'),
    owner: ownerOf(ctx),
    activity: { action: 'create', tl: timeline(now, [['CREATING', 0]]), success: 'RUNNING', failure: 'CREATE_FAILED' },
    deployments: INSTALLED.map(([namespace, chart]) => {
      const version = CHARTS.find((x) => x.name === chart)?.versions[0]?.deploymentVersion ?? '1.0.0';
      return { name: chart, namespace, chart, version, overrides: '{}', history: [{ revision: 1, version, overrides: '{}' }] };
    }),
  };
  begin(ctx, c, 'create');
  return {
    clusterId,
    clusterStatus: { status: statusOf(ctx, c), message: 'cluster creation started' },
    uri: `/api/v1/compute/describeCluster?clusterCrn=${encodeURIComponent(c.clusterCrn)}`,
    clusterCrn: c.clusterCrn,
  };
}

const BUSY = Object.values(ACTIONS).map((a) => a.busy);

export function deleteCluster(ctx: RequestContext, req: Doc): Doc {
  const c = getCluster(ctx, req.clusterCrn);
  const status = statusOf(ctx, c);
  if (bool(req.force)) {
    if (status !== 'DELETE_FAILED')
      throw failedPrecondition(`force delete is only valid for a cluster in DELETE_FAILED; compute cluster ${c.clusterName} is ${status}`);
    const now = ctx.clock.now();
    c.activity = {
      action: 'delete',
      tl: timeline(now, [['DELETED', 0]]),
      success: 'DELETED',
      failure: 'DELETE_FAILED',
      effect: { forced: true },
    };
    c.deletedAt = now;
    c.updatedAt = now;
    c.clusterStateVersion++;
    save(ctx, c);
    return { clusterStatus: { status: 'DELETED', message: 'force-deleted; cloud resources were not cleaned up' } };
  }
  if (status === 'DELETED') throw notFound(`compute cluster ${c.clusterName} is already deleted`);
  if (BUSY.includes(status)) throw failedPrecondition(`compute cluster ${c.clusterName} is ${status}; wait until it finishes`);
  begin(ctx, c, 'delete');
  return { clusterStatus: { status: statusOf(ctx, c), message: 'cluster deletion started' } };
}

export function suspendCluster(ctx: RequestContext, req: Doc): Doc {
  const c = getCluster(ctx, req.clusterCrn);
  requireStatus(ctx, c, ['RUNNING', 'SUSPEND_FAILED'], 'suspending');
  begin(ctx, c, 'suspend');
  return { clusterStatus: { status: statusOf(ctx, c), message: 'suspending the cluster' } };
}

export function resumeCluster(ctx: RequestContext, req: Doc): Doc {
  const c = getCluster(ctx, req.clusterCrn);
  requireStatus(ctx, c, ['SUSPENDED', 'RESUME_FAILED'], 'resuming');
  begin(ctx, c, 'resume');
  return { clusterStatus: { status: statusOf(ctx, c), message: 'resuming the cluster' } };
}

export function updateCluster(ctx: RequestContext, req: Doc): Doc {
  const c = getCluster(ctx, req.clusterCrn);
  if (typeof req.clusterStateVersion === 'number' && req.clusterStateVersion !== c.clusterStateVersion)
    throw failedPrecondition(
      `compute cluster ${c.clusterName} changed: its state version is ${c.clusterStateVersion}, not ${req.clusterStateVersion}; describe it again`,
    );
  requireStatus(ctx, c, ['RUNNING', 'UPDATE_FAILED'], 'updating');
  begin(ctx, c, 'update');
  return {
    clusterCrn: c.clusterCrn,
    clusterStatus: {
      status: statusOf(ctx, c),
      message: bool((req.spec as Doc | undefined)?.refreshInstanceGroups) ? 'refreshing instance groups' : 'updating the cluster',
    },
    uri: `/api/v1/compute/describeCluster?clusterCrn=${encodeURIComponent(c.clusterCrn)}`,
  };
}

export function upgradeCluster(ctx: RequestContext, req: Doc): Doc {
  const c = getCluster(ctx, req.clusterCrn);
  requireStatus(ctx, c, ['RUNNING'], 'an upgrade');
  const next = upgradesOf(c)[0];
  if (!next) throw failedPrecondition(`compute cluster ${c.clusterName} runs Kubernetes ${c.kubernetesVersion}, the newest supported`);
  const op = begin(ctx, c, 'upgrade', { kubernetesVersion: next }, { dryRun: bool(req.dryRun) });
  return { operationId: op?.operationId };
}

export function listClusters(ctx: RequestContext, req: Doc): Doc {
  const envRef = str(req.envNameOrCrn);
  const env = envRef ? requireEnvironment(ctx, envRef).crn : undefined;
  const status = str(req.status);
  const shape = str(req.clusterShape);
  const all = ctx.store
    .list<ClusterRec>(KIND.cluster)
    .map((r) => settle(ctx, r.doc))
    .filter((c) => !env || c.envCrn === env)
    .map((c) => listItem(ctx, c))
    .filter((i) => bool(req.includeDeleted) || i.status !== 'DELETED')
    .filter((i) => !status || i.status === status)
    .filter((i) => !shape || i.clusterShape === shape)
    .filter((i) => !bool(req.default) || i.isDefault === true)
    .filter((i) => !str(req.workloads) || (Array.isArray(i.workloads) && i.workloads.includes(req.workloads)));
  const size = typeof req.pageSize === 'number' ? req.pageSize : 100;
  const p = page(all, req, { maxSize: 500 });
  return {
    clusters: p.items,
    ...(p.nextToken ? { nextToken: p.nextToken } : {}),
    totalClusters: all.length,
    totalPages: Math.max(1, Math.ceil(all.length / size)),
  };
}

// ---- operations ----------------------------------------------------------

const PHASES = [
  ['VALIDATE', 0.1],
  ['PREPARE', 0.2],
  ['EXECUTE', 0.6],
  ['FINALIZE', 0.1],
] as const;

function opStatus(ctx: RequestContext, op: OperationRec): { status: string; end: number } {
  const st = stateAt(op.tl, ctx.clock.now());
  return { status: st.state, end: op.tl.startedAt + (op.tl.steps[1]?.afterMs ?? 0) };
}

function phases(ctx: RequestContext, op: OperationRec): Doc[] {
  const now = ctx.clock.now();
  const total = op.tl.steps[1]?.afterMs ?? 0;
  const list = op.dryRun ? PHASES.slice(0, 1) : PHASES;
  let t = op.tl.startedAt;
  return list.map(([phase, share], i) => {
    const start = t;
    const end = op.dryRun ? op.tl.startedAt + total : start + share * total;
    t = end;
    const failsHere = op.fail && (op.dryRun || phase === 'EXECUTE');
    let status = now < start ? 'UNKNOWN' : now < end ? 'RUNNING' : failsHere ? 'FAILED' : 'COMPLETED';
    // After a failure the later phases never start.
    if (op.fail && !op.dryRun && i > 2 && now >= op.tl.startedAt + total) status = 'CANCELLED';
    return {
      workflowPhase: phase,
      workflowStatus: status,
      message: status === 'FAILED' ? `${phase.toLowerCase()} failed` : `${phase.toLowerCase()} ${status.toLowerCase()}`,
      ...(now >= start ? { startTime: iso(start) } : {}),
      lastUpdateTime: iso(Math.min(now, end)),
    };
  });
}

function findOperation(ctx: RequestContext, id: unknown): OperationRec {
  const op = str(id) ? ctx.store.get<OperationRec>(KIND.operation, String(id)) : undefined;
  if (!op) throw notFound(`operation ${String(id ?? '')} not found`);
  return op;
}

export function operationStatus(ctx: RequestContext, req: Doc): Doc {
  const op = findOperation(ctx, req.operationId);
  const { status, end } = opStatus(ctx, op);
  return {
    operationId: op.operationId,
    workflowOperation: op.workflow,
    operationStatus: status,
    message:
      status === 'FAILED'
        ? `${op.workflow.toLowerCase()} failed on purpose: the cluster name starts with "fail-"`
        : `${op.workflow.toLowerCase()} ${status.toLowerCase()}`,
    clusterCrn: op.clusterCrn,
    startTime: iso(op.tl.startedAt),
    lastUpdateTime: iso(Math.min(ctx.clock.now(), end)),
    workflowId: op.workflowId,
    runId: op.runId,
    phaseWorkflowStatuses: phases(ctx, op).map((p) => ({ ...p, appWorkflowStatuses: [] })),
  };
}

export function operationDetails(ctx: RequestContext, req: Doc): Doc {
  let op: OperationRec | undefined;
  if (str(req.operationId)) op = findOperation(ctx, req.operationId);
  else {
    const runId = String(req.runId);
    op = ctx.store.list<OperationRec>(KIND.operation).find((r) => r.doc.runId === runId)?.doc;
    if (!op) throw notFound(`no operation has run ${runId}`);
  }
  const base = operationStatus(ctx, { operationId: op.operationId });
  const { phaseWorkflowStatuses, ...rest } = base;
  return {
    ...rest,
    operationOwner: op.owner,
    retryCount: op.retryCount,
    phaseWorkflowDetails: (phaseWorkflowStatuses as Doc[]).map(({ appWorkflowStatuses: _, ...p }) => ({
      ...p,
      workflowId: `${op.workflowId}-${String(p.workflowPhase).toLowerCase()}`,
      runId: op.runId,
      appWorkflowDetails: [],
      activities: p.startTime
        ? [
            {
              activityId: uuid().slice(0, 8),
              name: `${String(p.workflowPhase).toLowerCase()}-${op.workflow.toLowerCase()}`,
              status: p.workflowStatus,
              startedAt: p.startTime,
              logs: [],
            },
          ]
        : [],
    })),
    activities: [],
  };
}

export function retryOperation(ctx: RequestContext, req: Doc): Doc {
  const op = findOperation(ctx, req.operationId);
  const { status } = opStatus(ctx, op);
  if (status !== 'FAILED') throw failedPrecondition(`operation ${op.operationId} is ${status}; only a FAILED operation can be retried`);
  const c = getCluster(ctx, op.clusterCrn);
  const action = op.workflow.toLowerCase();
  const spec = ACTIONS[action];
  if (!spec) throw failedPrecondition(`operation ${op.operationId} cannot be retried`);
  if (!op.dryRun && statusOf(ctx, c) !== spec.failure)
    throw failedPrecondition(`compute cluster ${c.clusterName} is ${statusOf(ctx, c)}; the operation no longer applies`);
  const now = ctx.clock.now();
  const minutes = op.dryRun ? 0.5 : spec.minutes;
  const fail = failsOnPurpose(c, action, true);
  op.fail = fail;
  op.tl = timeline(now, [
    ['RUNNING', minutes],
    [fail ? 'FAILED' : 'COMPLETED', 0],
  ]);
  op.retryCount++;
  op.runId = uuid();
  ctx.store.put(KIND.operation, op.operationId, op, { parent: op.clusterCrn });
  if (!op.dryRun) {
    c.activity = {
      action,
      tl: timeline(now, [
        [spec.busy, minutes],
        [fail ? spec.failure : spec.success, 0],
      ]),
      success: spec.success,
      failure: spec.failure,
      effect: c.activity.effect,
      operationId: op.operationId,
    };
    c.clusterStateVersion++;
    c.updatedAt = now;
    save(ctx, c);
  }
  return { operationId: op.operationId };
}

// ---- deployments ---------------------------------------------------------

function chartDoc(chart: string, version: string, verbose = true): Doc {
  const c = CHARTS.find((x) => x.name === chart);
  const v = c?.versions.find((x) => x.deploymentVersion === version);
  return {
    applicationVersion: v?.applicationVersion ?? version,
    deploymentVersion: version,
    description: c?.description ?? '',
    name: chart,
    ...(verbose ? { values: JSON.stringify({ replicaCount: 1 }) } : {}),
  };
}

function deploymentDoc(d: DeploymentRec, verbose = true): Doc {
  const c = CHARTS.find((x) => x.name === d.chart);
  const idx = c?.versions.findIndex((v) => v.deploymentVersion === d.version) ?? -1;
  return {
    name: d.name,
    namespace: d.namespace,
    revision: d.history.length,
    liftieManaged: true,
    chart: chartDoc(d.chart, d.version, verbose),
    status: 'DEPLOYED',
    upgrades: (c?.versions ?? []).slice(idx + 1),
    overrides: d.overrides,
  };
}

function findDeployment(ctx: RequestContext, req: Doc): { c: ClusterRec; d: DeploymentRec } {
  const c = getCluster(ctx, req.clusterCrn);
  if (statusOf(ctx, c) === 'DELETED') throw notFound(`compute cluster ${c.clusterName} is deleted`);
  const d = c.deployments.find((x) => x.namespace === req.namespace && x.name === req.name);
  if (!d) throw notFound(`no deployment ${String(req.namespace)}/${String(req.name)} in compute cluster ${c.clusterName}`);
  return { c, d };
}

export function listDeployments(ctx: RequestContext, req: Doc): Doc {
  const c = getCluster(ctx, req.clusterCrn);
  if (statusOf(ctx, c) === 'DELETED') throw notFound(`compute cluster ${c.clusterName} is deleted`);
  const ns = str(req.namespace);
  const verbose = bool(req.verbose);
  return {
    availableCharts: AVAILABLE_CHARTS.map((x) => ({ ...x, ...(verbose ? { values: '{}' } : {}) })),
    unavailableCharts: UNAVAILABLE_CHARTS,
    installedDeployments: c.deployments.filter((d) => !ns || d.namespace === ns).map((d) => deploymentDoc(d, verbose)),
  };
}

export function describeDeployment(ctx: RequestContext, req: Doc): Doc {
  const { d } = findDeployment(ctx, req);
  const doc = deploymentDoc(d);
  return {
    deployment: doc,
    history: d.history
      .map((h, i) => ({
        revision: h.revision,
        status: i === d.history.length - 1 ? 'DEPLOYED' : 'SUPERSEDED',
        chart: chartDoc(d.chart, h.version),
        overrides: h.overrides,
      }))
      .reverse(),
    overrides: d.overrides,
  };
}

export function upgradeDeployment(ctx: RequestContext, req: Doc): Doc {
  const { c, d } = findDeployment(ctx, req);
  requireStatus(ctx, c, ['RUNNING'], 'a deployment upgrade');
  const chart = CHARTS.find((x) => x.name === d.chart);
  const versions = chart?.versions ?? [];
  const idx = versions.findIndex((v) => v.deploymentVersion === d.version);
  let target = str(req.chartVersion);
  if (target) {
    const t = versions.findIndex((v) => v.deploymentVersion === target);
    if (t < 0)
      throw invalid(`chart ${d.chart} has no version ${target}; available: ${versions.map((v) => v.deploymentVersion).join(', ')}`);
    if (t < idx) throw failedPrecondition(`deployment ${d.name} is at ${d.version}; it cannot move back to ${target}`);
  } else {
    target = versions[versions.length - 1]?.deploymentVersion ?? d.version;
  }
  const overrides = str(req.overrides) ?? d.overrides;
  if (target === d.version && overrides === d.overrides)
    throw failedPrecondition(`deployment ${d.name} is already at ${target} with these values`);
  d.version = target;
  d.overrides = overrides;
  d.history.push({ revision: d.history.length + 1, version: target, overrides });
  c.clusterStateVersion++;
  c.updatedAt = ctx.clock.now();
  save(ctx, c);
  return {
    name: d.name,
    namespace: d.namespace,
    revision: d.history.length,
    message: `upgraded ${d.name} to chart ${target}`,
    status: 'DEPLOYED',
    chart: chartDoc(d.chart, target),
  };
}
