/** compute's wire views: records in, wire documents out. */
import { findEnvironment } from '../../environments.js';
import { crn } from '../../ids.js';
import type { BackendContext, Doc } from '../../types.js';
import { iso, str } from '../../values.js';
import { CHARTS, CLUSTER, upgradesOf, type ClusterRec, type ComputeBackend, type DeploymentRec, type OperationRec } from './backend.js';

function message(b: ComputeBackend, c: ClusterRec, status: string): string {
  const p = b.progress(c);
  if (p.failed) return c.activity.reason ?? `${c.activity.action} failed`;
  if (status === 'DELETED' && c.forced) return 'force-deleted; cloud resources were not cleaned up';
  return status === CLUSTER[c.activity.action]?.phases[0]?.[0] ? `${c.activity.action} in progress` : `cluster is ${status.toLowerCase()}`;
}

export function listItem(b: ComputeBackend, ctx: BackendContext, c: ClusterRec): Doc {
  const status = b.status(c);
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
    message: message(b, c, status),
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
function platformState(ctx: BackendContext, c: ClusterRec, size: number): Doc {
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

export function describe(b: ComputeBackend, ctx: BackendContext, c: ClusterRec): Doc {
  const item = listItem(b, ctx, c);
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

// ---- deployments

export function chartDoc(chart: string, version: string, verbose = true): Doc {
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

export function deploymentDoc(d: DeploymentRec, verbose = true): Doc {
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

// ---- operations

const PHASES = [
  ['VALIDATE', 0.1],
  ['PREPARE', 0.2],
  ['EXECUTE', 0.6],
  ['FINALIZE', 0.1],
] as const;

/** The phases of a workflow operation: VALIDATE, PREPARE, EXECUTE, FINALIZE (a dry run: VALIDATE only). */
function phases(b: ComputeBackend, now: number, op: OperationRec): Doc[] {
  const p = b.operationProgress(op);
  const started = op.activity.tl.startedAt;
  const total = p.endsAt - started;
  const list = op.dryRun ? PHASES.slice(0, 1) : PHASES;
  const failing = op.activity.tl.steps[op.activity.tl.steps.length - 1]?.state === 'FAILED';
  let t = started;
  return list.map(([phase, share], i) => {
    const start = t;
    const end = op.dryRun ? started + total : start + share * total;
    t = end;
    const failsHere = failing && (op.dryRun || phase === 'EXECUTE');
    let status = now < start ? 'UNKNOWN' : now < end ? 'RUNNING' : failsHere ? 'FAILED' : 'COMPLETED';
    // After a failure the later phases never start.
    if (failing && !op.dryRun && i > 2 && now >= started + total) status = 'CANCELLED';
    return {
      workflowPhase: phase,
      workflowStatus: status,
      message: status === 'FAILED' ? `${phase.toLowerCase()} failed` : `${phase.toLowerCase()} ${status.toLowerCase()}`,
      ...(now >= start ? { startTime: iso(start) } : {}),
      lastUpdateTime: iso(Math.min(now, end)),
    };
  });
}

/** getOperationStatus's answer. */
export function operationStatus(b: ComputeBackend, now: number, op: OperationRec): Doc {
  const p = b.operationProgress(op);
  return {
    operationId: op.operationId,
    workflowOperation: op.workflow,
    operationStatus: p.state,
    message:
      p.state === 'FAILED'
        ? `${op.workflow.toLowerCase()} failed on purpose: the cluster name starts with "fail-"`
        : `${op.workflow.toLowerCase()} ${p.state.toLowerCase()}`,
    clusterCrn: op.clusterCrn,
    startTime: iso(op.activity.tl.startedAt),
    lastUpdateTime: iso(Math.min(now, p.endsAt)),
    workflowId: op.workflowId,
    runId: op.runId,
    phaseWorkflowStatuses: phases(b, now, op).map((x) => ({ ...x, appWorkflowStatuses: [] })),
  };
}

/** getOperationDetails's answer: the status, its owner and retries, and each phase's activities. */
export function operationDetails(b: ComputeBackend, now: number, op: OperationRec): Doc {
  const { phaseWorkflowStatuses, ...rest } = operationStatus(b, now, op);
  return {
    ...rest,
    operationOwner: op.owner,
    retryCount: op.retryCount,
    phaseWorkflowDetails: (phaseWorkflowStatuses as Doc[]).map(({ appWorkflowStatuses: _, ...x }) => ({
      ...x,
      workflowId: `${op.workflowId}-${String(x.workflowPhase).toLowerCase()}`,
      runId: op.runId,
      appWorkflowDetails: [],
      activities: x.startTime
        ? [
            {
              activityId: op.runId.slice(0, 8),
              name: `${String(x.workflowPhase).toLowerCase()}-${op.workflow.toLowerCase()}`,
              status: x.workflowStatus,
              startedAt: x.startTime,
              logs: [],
            },
          ]
        : [],
    })),
    activities: [],
  };
}
