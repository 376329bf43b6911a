/**
 * df's views: what every view of a service computes, and the workload's
 * deployments and flows as the control plane shows them (with their
 * projects), read through the world (contract `dataflows`).
 */
import type { Hook } from '../../engine/declare.js';
import type { Doc } from '../../types.js';
import { num } from '../../values.js';
import type { DataflowDeploymentView as Deployment, DataflowFlowView as DeployedFlow } from '../../world/contracts.js';
import { alertCounts, deploymentEvents, flowEvents, serviceEvents } from './monitoring.js';
import { HEALTHY, UP, deploymentsOf, notEnabled, stateOf, type R, type Rec } from './services.js';

function serviceActions(state: string): string[] {
  if (HEALTHY.includes(state))
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

/** What every view of a service computes (its `show`): its status and what it runs, its alerts, what can be done with it. */
export function serviceShown(h: Hook<R>, rec: Rec): Doc {
  const state = stateOf(h, rec);
  const failed = state === 'BAD_HEALTH';
  return {
    status: { state, detailedState: state, message: failed ? (rec.activity.reason ?? `the last ${rec.activity.action} failed`) : '' },
    deploymentCount: deploymentsOf(h, rec).length,
    runningK8sNodeCount: UP.includes(state) ? num(rec.doc.minK8sNodeCount) : 0,
    ...alertCounts(serviceEvents(h, rec)),
    clusterId: `dfx-${rec.id.slice(0, 8)}`,
    validActions: notEnabled(h, rec) ? ['RESET', 'DISABLE'] : rec.deleted ? ['ENABLE', 'RESET'] : serviceActions(state),
    dfLocalUrl: `${h.ctx.info.baseUrl}/dfx/`,
    creatingK8sNodeCount: 0,
    terminatingK8sNodeCount: 0,
    k8sServerVersion: '1.30',
  };
}

/** The project a deployment belongs to, as ProjectMeta; none once the project is gone. */
function projectOf(h: Hook<R>, projectCrn: string | undefined): Doc | undefined {
  if (!projectCrn) return undefined;
  const p = h.records('project').find(projectCrn);
  return p ? { id: p.id, crn: projectCrn, name: p.name ?? p.id } : undefined;
}

/** ServiceMeta: how a deployment names its service. */
function serviceMetaOf(d: Deployment): Doc {
  const m = d.shown().service as { crn: string; name: string; cloudPlatform: string; region: { name: string } };
  return { crn: m.crn, name: m.name, cloudProvider: m.cloudPlatform, region: m.region.name, environmentCrn: d.environmentCrn };
}

/** A deployment as listed (DeploymentSummary). */
function deploymentSummary(h: Hook<R>, d: Deployment): Doc {
  const s = d.status;
  const project = projectOf(h, d.projectCrn);
  return {
    crn: d.crn,
    name: d.name,
    status: { state: s.state, detailedState: s.detailedState, message: d.work.failed ? (d.work.reason ?? '') : '' },
    service: serviceMetaOf(d),
    updated: d.updated,
    ...alertCounts(deploymentEvents(h, d)),
    ...(project ? { project } : {}),
  };
}

/** A deployment in full (Deployment; a list conforms it to DeploymentSummary): the workload's record as the control plane shows it. */
export function deploymentView(h: Hook<R>, d: Deployment): Doc {
  const full = d.shown();
  const size = full.clusterSizeParams as { name?: string } | undefined;
  return {
    ...deploymentSummary(h, d),
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

/** A flow of a deployment (DeployedFlow; a list conforms it to DeployedFlowSummary). */
export function deployedFlowView(h: Hook<R>, f: DeployedFlow, d: Deployment): Doc {
  return {
    crn: f.crn,
    name: f.name,
    deploymentCrn: d.crn,
    status: { state: f.status.state, detailedState: f.status.detailedState },
    updated: f.updated,
    ...alertCounts(flowEvents(h, d, f)),
    deploymentName: d.name,
    ...(projectOf(h, f.projectCrn) ? { projectCrn: f.projectCrn } : {}),
    created: f.created,
    flowVersion: f.flowVersion,
    flowVersionCrn: `${f.flowCrn}/v.${f.flowVersion}`,
    flowCrn: f.flowCrn,
    creatorCrn: f.creatorCrn,
  };
}
