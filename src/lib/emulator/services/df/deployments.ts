/**
 * Deployments and their flows are the workload service's records
 * (dfworkload): df reads them through the world (contract `dataflows`), so a
 * deployment suspended through the workload API reads SUSPENDED here, and
 * opens there the requests its deployments are made from. Its `deployment`
 * and `deployedFlow` resources are read from the world (`readsFrom`): their
 * reads and lists are verbs, and what they show is computed of the
 * workload's records (show, and the entries' answers), with their projects.
 * The requests it opens and what it shows across the account are code.
 */
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf, readRecord } from '../../engine/records.js';
import { invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { num, str, text } from '../../values.js';
import type { DataflowDeploymentView as Deployment, DataflowFlowView as DeployedFlow, DataflowRequestSpec } from '../../world/contracts.js';
import { filtered, sorted } from './listing.js';
import { alertCounts, deploymentEvents, deploymentSystemCharts, eventAnswers, flowEvents, kpiCharts } from './monitoring.js';
import { allServices, requireHealthy, serviceNamed, type R, type Rec } from './services.js';

function deploymentNamed(h: Hook<R>, deploymentCrn: string): Deployment {
  const d = h.world.dataflows.deployment(deploymentCrn);
  if (!d) throw notFound(`deployment ${deploymentCrn.slice(0, 200)} not found`);
  return d;
}

/** A flow of a deployment, or NOT_FOUND. */
function flowNamed(h: Hook<R>, deploymentCrn: string, flowCrn: string): { d: Deployment; f: DeployedFlow } {
  const d = deploymentNamed(h, deploymentCrn);
  if (!flowCrn) throw invalid('deployedFlowCrn is required');
  const f = h.world.dataflows.flowsOf(d.crn).find((x) => x.crn === flowCrn);
  if (!f) throw notFound(`flow ${flowCrn.slice(0, 200)} not found in deployment ${d.name}`);
  return { d, f };
}

// ---- deployment requests: the control plane's half of a new deployment or flow

/**
 * Opens a request to deploy a flow version into a healthy service: the
 * workload service knows it from then on (its details can be read, a
 * deployment or a flow made from it once). The flow is named by the
 * version CRN's resource, `<flow>/v.<version>`, of type `flow` (the
 * account's own) or `readyFlow` (an added ReadyFlow). A flow definition of
 * the catalog is deployed at a version it has (NOT_FOUND otherwise); a
 * version of a flow the catalog does not hold is taken as it is (the flow
 * comes from outside the catalog).
 */
function initiate(h: Hook<R>, kind: DataflowRequestSpec['kind'], req: Doc): DataflowRequestSpec {
  const s = serviceNamed(h, text(req.serviceCrn));
  requireHealthy(h, s, 'a new deployment');
  const deploymentCrn = str(req.deploymentCrn);
  if (deploymentCrn) {
    const d = deploymentNamed(h, deploymentCrn);
    if (d.environmentCrn !== s.scope) throw invalid(`deployment ${d.name} is not in DataFlow service ${nameOf(s)}`);
    if (str(req.deployedFlowCrn)) flowNamed(h, deploymentCrn, text(req.deployedFlowCrn));
  }
  const flowVersionCrn = text(req.flowVersionCrn);
  const m = /^crn:cdp:df:[^:]*:[^:]*:(?:flow|readyFlow):([^/]+)(?:\/v\.(\d+))?$/.exec(flowVersionCrn);
  if (!m?.[1])
    throw invalid(
      `flowVersionCrn must be a flow version CRN (crn:cdp:df:<region>:<account>:flow:<flow>/v.<n>, or readyFlow:<slug>/v.<n>); got "${flowVersionCrn.slice(0, 200)}"`,
    );
  const flowCrn = flowVersionCrn.replace(/\/v\.\d+$/, '');
  const version = Number(m[2] ?? 1);
  const flow = h.records('flow').find(flowCrn);
  if (flow && !h.records('flowVersion').find(`${flowCrn}/v.${version}`))
    throw notFound(`flow definition ${flow.name ?? flowCrn} has no version ${version} (see df flow-versions list)`);
  const request: DataflowRequestSpec = {
    crn: h.crn(kind === 'deployment' ? 'deploymentRequest' : 'deployedFlowRequest', uuid()),
    kind,
    environmentCrn: s.scope,
    flowName: m[1],
    flowVersion: version,
    flowCrn,
  };
  h.world.dataflows.openRequest(request);
  return request;
}

export const initiateDeployment = (h: Hook<R>, req: Doc): Doc => ({
  deploymentRequestCrn: initiate(h, 'deployment', req).crn,
  dfxLocalUrl: `${h.ctx.info.baseUrl}/dfx/`,
});

export const initiateFlowInDeployment = (h: Hook<R>, req: Doc): Doc => ({
  deployedFlowRequestCrn: initiate(h, 'flow', req).crn,
  dfxLocalUrl: `${h.ctx.info.baseUrl}/dfx/`,
});

// ---- deployments and their flows, read: resources read from the world (readsFrom), with these hooks

/** A deployment or a flow of the workload as a record of df's (read, not kept), by its CRN, in a scope (a flow's deployment). */
const asRecord = (x: { crn: string; name: string }, scope: string): EngineRecord =>
  readRecord({ id: x.crn, crn: x.crn, name: x.name }, scope);

/** The deployments of the workload as records of df's `deployment`. */
export const deploymentsRead = (h: Hook<R>): EngineRecord[] => h.world.dataflows.deployments().map((d) => asRecord(d, ''));

/** The flows of a deployment as records of df's `deployedFlow`. */
export const flowsRead = (h: Hook<R>, deploymentCrn: string): EngineRecord[] =>
  h.world.dataflows.flowsOf(deploymentCrn).map((f) => asRecord(f, deploymentCrn));

const deploymentOf = (h: Hook<R>, rec: Rec): Deployment => deploymentNamed(h, rec.id);
const flowOf = (h: Hook<R>, rec: Rec): { d: Deployment; f: DeployedFlow } => flowNamed(h, rec.scope, rec.id);

/** The project a deployment or flow belongs to, as ProjectMeta; none once the project is gone. */
function projectOf(h: Hook<R>, projectCrn: string | undefined): Doc | undefined {
  const p = projectCrn ? h.records('project').find(projectCrn) : undefined;
  return p ? { id: p.id, crn: projectCrn, name: nameOf(p) } : undefined;
}

/**
 * What a deployment shows (Deployment; a list conforms it to
 * DeploymentSummary): the workload's record as the control plane shows it.
 */
export function deploymentShown(h: Hook<R>, rec: Rec): Doc {
  const d = deploymentOf(h, rec);
  const full = d.shown();
  const m = full.service as { crn: string; name: string; cloudPlatform: string; region: { name: string } };
  return {
    crn: d.crn,
    name: d.name,
    status: { state: d.status.state, detailedState: d.status.detailedState, message: d.work.failed ? (d.work.reason ?? '') : '' },
    service: { crn: m.crn, name: m.name, cloudProvider: m.cloudPlatform, region: m.region.name, environmentCrn: d.environmentCrn },
    updated: d.updated,
    ...alertCounts(deploymentEvents(h, d)),
    project: projectOf(h, d.projectCrn),
    clusterSize: (full.clusterSizeParams as { name?: string } | undefined)?.name ?? 'EXTRA_SMALL',
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

/** listDeployments: by name or CRN, filters (state, service, project), sorts. */
export function deploymentsListed(h: Hook<R>, req: Doc): EngineRecord[] {
  const t = str(req.searchTerm)?.toLowerCase();
  const found = h.world.dataflows.deployments().filter((d) => !t || d.name.toLowerCase().includes(t) || d.crn.toLowerCase().includes(t));
  const serviceOf = new Map(allServices(h).map((s) => [s.scope, s.crn ?? '']));
  const list = sorted(
    filtered(found, req.filters, {
      state: (d) => d.status.state,
      service: (d) => [d.environmentCrn, serviceOf.get(d.environmentCrn) ?? ''],
      project: (d) => d.projectCrn,
    }),
    req.sorts,
    { name: (d) => d.name, updated: (d) => d.updated, state: (d) => d.status.state },
  );
  return list.map((d) => asRecord(d, ''));
}

export const deploymentWatch = eventAnswers((h, rec) => {
  const d = deploymentOf(h, rec);
  return { events: deploymentEvents(h, d), what: `deployment ${d.name}` };
});

export const deploymentKpis = (h: Hook<R>, rec: Rec, req: Doc): Doc => ({
  metricCharts: kpiCharts(h, deploymentOf(h, rec), req.metricsTimePeriod),
});

export const deploymentSystemMetrics = (h: Hook<R>, rec: Rec, req: Doc): Doc => ({
  metricCharts: deploymentSystemCharts(h, deploymentOf(h, rec), req.metricsTimePeriod),
});

/**
 * What a flow of a deployment shows (DeployedFlow; a list conforms it to
 * DeployedFlowSummary): the workload's record as the control plane shows it,
 * its project's CRN while the project is there.
 */
export function deployedFlowShown(h: Hook<R>, rec: Rec): Doc {
  const { d, f } = flowOf(h, rec);
  return {
    ...f,
    deploymentCrn: d.crn,
    status: { state: f.status.state, detailedState: f.status.detailedState },
    ...alertCounts(flowEvents(h, d, f)),
    deploymentName: d.name,
    projectCrn: projectOf(h, f.projectCrn) ? f.projectCrn : undefined,
    flowVersionCrn: `${f.flowCrn}/v.${f.flowVersion}`,
  };
}

/** listFlowsInDeployment: a deployment's flows by name, filters (state) and sorts. */
export function flowsListed(h: Hook<R>, req: Doc): EngineRecord[] {
  const d = deploymentNamed(h, text(req.deploymentCrn));
  const t = str(req.searchTerm)?.toLowerCase();
  const flows = filtered(
    h.world.dataflows.flowsOf(d.crn).filter((f) => !t || f.name.toLowerCase().includes(t)),
    req.filters,
    { state: (f) => f.status.state },
  );
  return sorted(flows, req.sorts, { name: (f) => f.name, updated: (f) => f.updated, state: (f) => f.status.state }).map((f) =>
    asRecord(f, d.crn),
  );
}

export const flowWatch = eventAnswers((h, rec) => {
  const { d, f } = flowOf(h, rec);
  return { events: flowEvents(h, d, f), what: `flow ${f.name} of ${d.name}` };
});

export const flowKpis = (h: Hook<R>, rec: Rec, req: Doc): Doc => ({ metricCharts: kpiCharts(h, flowOf(h, rec).f, req.metricsTimePeriod) });
