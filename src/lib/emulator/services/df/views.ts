/** df's wire views: services, and the workload's deployments and flows as the control plane shows them. */
import type { Doc } from '../../types.js';
import { num } from '../../values.js';
import type { DfBackend as WorkloadBackend } from '../dataflow/backend.js';
import { HEALTHY } from '../dataflow/records.js';
import { deployedFlowDoc, deploymentDoc } from '../dataflow/views.js';
import type { DeployedFlow, Deployment } from '../dataflow/records.js';
import type { DfServiceBackend, ServiceRec } from './backend.js';

function serviceActions(state: string): string[] {
  if (state === 'GOOD_HEALTH' || state === 'CONCERNING_HEALTH')
    return ['UPDATE', 'UPGRADE', 'DISABLE', 'RENEW_CERTIFICATES', 'GET_KUBECONFIG'];
  if (state === 'BAD_HEALTH') return ['DISABLE'];
  return [];
}

/** A service as listed (ServiceSummary). */
export function serviceSummary(b: DfServiceBackend, s: ServiceRec): Doc {
  const state = b.state(s);
  const up = HEALTHY.has(state) || state === 'UPDATING' || state === 'UPGRADING';
  return {
    crn: s.crn,
    environmentCrn: s.environmentCrn,
    name: s.name,
    cloudPlatform: s.cloudPlatform,
    region: s.region,
    deploymentCount: b.deploymentsOf(s).length,
    maxK8sNodeCount: s.maxK8sNodeCount,
    status: { state, detailedState: state, message: state === 'BAD_HEALTH' ? (s.activity.reason ?? 'the service failed') : '' },
    workloadVersion: s.workloadVersion,
    runningK8sNodeCount: up ? s.minK8sNodeCount : 0,
    activeInfoAlertCount: 0,
    activeWarningAlertCount: 0,
    activeErrorAlertCount: state === 'BAD_HEALTH' ? 1 : 0,
    clusterId: `dfx-${s.id.slice(0, 8)}`,
    ...(s.instanceType ? { instanceType: s.instanceType } : {}),
    validActions: serviceActions(state),
    enforceProject: s.enforceProject,
  };
}

/** A service in full (Service). */
export function serviceView(b: DfServiceBackend, s: ServiceRec): Doc {
  return {
    ...serviceSummary(b, s),
    minK8sNodeCount: s.minK8sNodeCount,
    dfLocalUrl: `${b.ctx.info.baseUrl}/dfx/`,
    kubeApiAuthorizedIpRanges: s.kubeApiAuthorizedIpRanges,
    loadBalancerAuthorizedIpRanges: s.loadBalancerAuthorizedIpRanges,
    usePublicLoadBalancer: s.usePublicLoadBalancer,
    privateCluster: s.privateCluster,
    userDefinedRouting: s.userDefinedRouting,
    clusterSubnets: s.clusterSubnets,
    loadBalancerSubnets: s.loadBalancerSubnets,
    tags: s.tags,
    creatingK8sNodeCount: 0,
    terminatingK8sNodeCount: 0,
    k8sServerVersion: '1.30',
    ...(s.podCidr ? { podCidr: s.podCidr } : {}),
    ...(s.serviceCidr ? { serviceCidr: s.serviceCidr } : {}),
  };
}

/** ServiceMeta: how a deployment names its service. */
function serviceMeta(w: WorkloadBackend, d: Deployment): Doc {
  const m = deploymentDoc(w, d).service as { crn: string; name: string; cloudPlatform: string; region: { name: string } };
  return { crn: m.crn, name: m.name, cloudProvider: m.cloudPlatform, region: m.region.name, environmentCrn: d.environmentCrn };
}

/** A deployment as listed (DeploymentSummary). */
export function deploymentSummary(w: WorkloadBackend, d: Deployment): Doc {
  const s = w.deployments.status(d);
  return {
    crn: d.crn,
    name: d.name,
    status: { state: s.state, detailedState: s.detailedState, message: s.failed ? (d.activity.reason ?? '') : '' },
    service: serviceMeta(w, d),
    updated: d.updated,
    activeInfoAlertCount: 0,
    activeWarningAlertCount: 0,
    activeErrorAlertCount: s.state === 'BAD_HEALTH' ? 1 : 0,
  };
}

/** A deployment in full (Deployment): the workload's record as the control plane shows it. */
export function deploymentView(w: WorkloadBackend, d: Deployment): Doc {
  const full = deploymentDoc(w, d);
  const size = full.clusterSizeParams as { name?: string } | undefined;
  return {
    ...deploymentSummary(w, d),
    clusterSize: size?.name ?? 'EXTRA_SMALL',
    nifiUrl: full.nifiUrl,
    autoscalingEnabled: full.autoscalingEnabled,
    ...(num(full.autoscaleMinNodes) !== undefined
      ? { autoscaleMinNodes: full.autoscaleMinNodes, autoscaleMaxNodes: full.autoscaleMaxNodes }
      : {}),
    staticNodeCount: full.staticNodeCount,
    currentNodeCount: full.currentNodeCount,
    deployedByCrn: d.creatorCrn,
    deployedByName: d.deployedBy,
    lastUpdatedByName: d.deployedBy,
    dfxLocalUrl: full.dfxLocalUrl,
    configurationVersion: d.configurationVersion,
    cfmNifiVersion: d.cfmNifiVersion,
    flowMetricsScalingEnabled: full.flowMetricsScalingEnabled,
    ...(full.flowCrn ? { flowCrn: full.flowCrn, flowName: full.flowName, flowVersion: full.flowVersion } : {}),
  };
}

/** A flow of a deployment (DeployedFlow); `summary` keeps to DeployedFlowSummary. */
export function deployedFlowView(w: WorkloadBackend, f: DeployedFlow, d: Deployment, summary = false): Doc {
  const full = deployedFlowDoc(w, f, d);
  const status = full.status as { state: string; detailedState: string };
  const common = {
    crn: f.crn,
    name: f.name,
    deploymentCrn: d.crn,
    status: { state: status.state, detailedState: status.detailedState },
    updated: f.updated,
    activeInfoAlertCount: 0,
    activeWarningAlertCount: 0,
    activeErrorAlertCount: full.activeErrorAlertCount,
  };
  if (summary) return common;
  return {
    ...common,
    deploymentName: d.name,
    ...(f.projectCrn ? { projectCrn: f.projectCrn } : {}),
    created: f.created,
    flowVersion: f.flowVersion,
    flowVersionCrn: full.flowVersionCrn,
    flowCrn: f.flowCrn,
    creatorCrn: f.creatorCrn,
  };
}
