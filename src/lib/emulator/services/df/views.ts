/** df's wire views: services, and the workload's deployments and flows as the control plane shows them (with their projects). */
import type { EngineRecord } from '../../engine/index.js';
import { progress } from '../../lifecycle.js';
import type { Doc } from '../../types.js';
import { num } from '../../values.js';
import type { DataflowDeploymentView as Deployment, DataflowFlowView as DeployedFlow } from '../../world/contracts.js';
import { HEALTHY, KIND, type DfServiceBackend, type ServiceRec } from './backend.js';
import { deploymentEvents, flowEvents, serviceEvents } from './monitoring.js';

/** The states a deployment can be in (the filter options of `state`). */
export const DEPLOYMENT_STATES = [
  'DEPLOYING',
  'GOOD_HEALTH',
  'CONCERNING_HEALTH',
  'BAD_HEALTH',
  'SUSPENDED',
  'UPDATING',
  'TERMINATING',
  'RESTARTING',
  'UPGRADING',
  'SUSPENDING',
  'RESUMING',
] as const;

function serviceActions(state: string): string[] {
  if (state === 'GOOD_HEALTH' || state === 'CONCERNING_HEALTH')
    return [
      'UPDATE',
      'UPGRADE',
      'DISABLE',
      'RENEW_CERTIFICATES',
      'ROTATE_PASSWORD',
      'UPDATE_NODE_IMAGES',
      'COLLECT_DIAGNOSTICS',
      'GET_KUBECONFIG',
    ];
  if (state === 'BAD_HEALTH') return ['DISABLE', 'COLLECT_DIAGNOSTICS'];
  return [];
}

/** The projects of the account that are not gone (engine records of projects.ts, read by kind). */
export function projectsOfAccount(b: DfServiceBackend): Array<{ id: string; crn: string; name: string }> {
  return b.ctx.store
    .list<EngineRecord>(KIND.project)
    .map((x) => x.doc)
    .filter((p) => !gone(b, p))
    .map((p) => ({ id: p.id, crn: p.crn ?? '', name: p.name ?? p.id }));
}

/** A project whose delete has ended is gone, whether or not anyone has read it since. */
const gone = (b: DfServiceBackend, p: EngineRecord): boolean => {
  if (p.activity.action !== 'delete') return false;
  const end = progress(p.activity, b.ctx.clock.now());
  return end.done && end.succeeded;
};

/** The project a deployment belongs to, as ProjectMeta; none once the project is gone. */
function projectOf(b: DfServiceBackend, projectCrn: string | undefined): Doc | undefined {
  if (!projectCrn) return undefined;
  const hit = b.ctx.store.getByCrn<EngineRecord>(projectCrn);
  if (hit?.kind !== KIND.project || gone(b, hit.doc)) return undefined;
  return { id: hit.doc.id, crn: projectCrn, name: hit.doc.name ?? hit.doc.id };
}

/** Active alerts by severity, for the counts summaries show. */
function alertCounts(events: ReadonlyArray<{ alertType?: string; severity: string }>): Doc {
  const active = events.filter((e) => e.alertType !== undefined);
  return {
    activeInfoAlertCount: active.filter((e) => e.severity === 'INFO').length,
    activeWarningAlertCount: active.filter((e) => e.severity === 'WARNING').length,
    activeErrorAlertCount: active.filter((e) => e.severity === 'ERROR').length,
  };
}

/** A service as listed (ServiceSummary). */
export function serviceSummary(b: DfServiceBackend, s: ServiceRec): Doc {
  const state = b.state(s);
  const up =
    HEALTHY.includes(state) || ['UPDATING', 'UPGRADING', 'RENEWING_CERTS', 'ROTATING_PASSWORD', 'COLLECTING_DIAGNOSTICS'].includes(state);
  const failed = state === 'BAD_HEALTH';
  return {
    crn: s.crn,
    environmentCrn: s.environmentCrn,
    name: s.name,
    cloudPlatform: s.cloudPlatform,
    region: s.region,
    deploymentCount: b.deploymentsOf(s).length,
    maxK8sNodeCount: s.maxK8sNodeCount,
    status: { state, detailedState: state, message: failed ? (s.activity.reason ?? `the last ${s.activity.action} failed`) : '' },
    workloadVersion: s.workloadVersion,
    runningK8sNodeCount: up ? s.minK8sNodeCount : 0,
    ...alertCounts(serviceEvents(b, s)),
    clusterId: `dfx-${s.id.slice(0, 8)}`,
    ...(s.instanceType ? { instanceType: s.instanceType } : {}),
    validActions: b.notEnabled(s) ? ['RESET', 'DISABLE'] : b.disabled(s) ? ['ENABLE', 'RESET'] : serviceActions(state),
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
function serviceMeta(d: Deployment): Doc {
  const m = d.shown().service as { crn: string; name: string; cloudPlatform: string; region: { name: string } };
  return { crn: m.crn, name: m.name, cloudProvider: m.cloudPlatform, region: m.region.name, environmentCrn: d.environmentCrn };
}

/** A deployment as listed (DeploymentSummary). */
export function deploymentSummary(b: DfServiceBackend, d: Deployment): Doc {
  const s = d.status;
  const project = projectOf(b, d.projectCrn);
  return {
    crn: d.crn,
    name: d.name,
    status: { state: s.state, detailedState: s.detailedState, message: d.work.failed ? (d.work.reason ?? '') : '' },
    service: serviceMeta(d),
    updated: d.updated,
    ...alertCounts(deploymentEvents(b, d)),
    ...(project ? { project } : {}),
  };
}

/** A deployment in full (Deployment): the workload's record as the control plane shows it. */
export function deploymentView(b: DfServiceBackend, d: Deployment): Doc {
  const full = d.shown();
  const size = full.clusterSizeParams as { name?: string } | undefined;
  return {
    ...deploymentSummary(b, d),
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
export function deployedFlowView(b: DfServiceBackend, f: DeployedFlow, d: Deployment, summary = false): Doc {
  const status = f.status;
  const common = {
    crn: f.crn,
    name: f.name,
    deploymentCrn: d.crn,
    status: { state: status.state, detailedState: status.detailedState },
    updated: f.updated,
    ...alertCounts(flowEvents(b, d, f)),
  };
  if (summary) return common;
  return {
    ...common,
    deploymentName: d.name,
    ...(projectOf(b, f.projectCrn) ? { projectCrn: f.projectCrn } : {}),
    created: f.created,
    flowVersion: f.flowVersion,
    flowVersionCrn: `${f.flowCrn}/v.${f.flowVersion}`,
    flowCrn: f.flowCrn,
    creatorCrn: f.creatorCrn,
  };
}
