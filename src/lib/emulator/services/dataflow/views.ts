/** dfworkload's wire views: records in, wire documents out. */
import { crn, crnId } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, num, str } from '../../values.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { CLUSTER_SIZES, KPI_METADATA, STORAGE_PROFILES, basicSize, clusterSizeOf } from './catalogue.js';
import { withAssets } from './assets.js';
import {
  STEADY_DEPLOYMENT,
  Workload,
  artifactTypeOf,
  nifiVersionOf,
  type DeployedFlow,
  type Deployment,
  type FlowRequest,
  type R,
} from './workload.js';

/** The ids of the custom configurations a deployment's settings name. */
const configurationIds = (c: Doc): Doc => ({
  ...(str(c.customNarConfigurationCrn) ? { customNarConfigurationId: crnId(String(c.customNarConfigurationCrn)) } : {}),
  ...(str(c.customPythonConfigurationCrn) ? { customPythonConfigurationId: crnId(String(c.customPythonConfigurationCrn)) } : {}),
});

function validActions(state: string, detailed: string): string[] {
  if (STEADY_DEPLOYMENT.has(state)) {
    const base = ['VIEW_NIFI', 'EDIT', 'TERMINATE', 'VIEW_METRICS', 'UPDATE_NIFI_VERSION', 'RESTART_DEPLOYMENT', 'MANAGE_DEPLOYMENT'];
    return [...base, 'EXPORT', 'SUSPEND', 'DOWNLOAD_LOG', 'CHANGE_FLOW_VERSION', 'DEPLOY_NEW_FLOW', 'START_ALL', 'STOP_ALL'];
  }
  if (state === 'SUSPENDED') return ['TERMINATE', 'RESUME', 'EDIT'];
  if (detailed === 'UPDATING_NIFI_VERSION') return ['CANCEL_NIFI_VERSION_UPDATE'];
  if (state === 'DEPLOYING') return ['CANCEL_CREATE'];
  return [];
}

/** The DataFlow service of an environment: named after it, in its cloud and region. */
export function serviceMeta(w: Workload, env: string): Doc {
  const e = w.h.world.environments.find(env);
  return {
    crn: crn('df', w.ctx.info.region, w.ctx.info.accountId, 'service', crnId(env)),
    name: e?.environmentName ?? crnId(env),
    cloudPlatform: e?.cloudPlatform ?? 'AWS',
    region: { name: e?.region ?? 'us-west-2', displayName: e?.region ?? 'us-west-2' },
    environmentCrn: env,
  };
}

export function deploymentDoc(w: Workload, d: Deployment): Doc {
  const s = w.deploymentStatus(d);
  const status: Doc = { state: s.state, detailedState: s.detailedState };
  if (s.failed && d.activity.reason) status.message = d.activity.reason;
  const c = d.doc.config;
  const running = STEADY_DEPLOYMENT.has(s.state) || s.state === 'UPDATING' || s.state === 'RESTARTING';
  const nodes = c.autoScalingEnabled ? (num(c.autoScaleMinNodes) ?? 1) : (num(c.staticNodeCount) ?? 1);
  const flows = w.flowsOf(d);
  const first = flows[0];
  const base = w.ctx.info.baseUrl;
  return {
    name: d.name,
    crn: d.crn,
    status,
    runtimeStatus: status,
    service: serviceMeta(w, d.doc.environmentCrn),
    activeInfoAlertCount: 0,
    activeWarningAlertCount: 0,
    activeErrorAlertCount: s.state === 'BAD_HEALTH' ? 1 : 0,
    created: d.doc.created,
    updated: w.changedAt(d),
    validActions: validActions(s.state, s.detailedState),
    nifiUrl: `${base}/nifi/${d.id}/`,
    clusterSizeParams: clusterSizeOf(c.clusterSize),
    autoscalingEnabled: Boolean(c.autoScalingEnabled),
    flowMetricsScalingEnabled: Boolean(c.flowMetricsScalingEnabled),
    ...(c.autoScalingEnabled ? { autoscaleMinNodes: num(c.autoScaleMinNodes) ?? 1, autoscaleMaxNodes: num(c.autoScaleMaxNodes) ?? 3 } : {}),
    staticNodeCount: num(c.staticNodeCount) ?? 1,
    currentNodeCount: running ? nodes : 0,
    creatorCrn: d.doc.creatorCrn,
    deployedByUsername: d.doc.deployedBy,
    deployedByName: d.doc.deployedBy,
    dfxLocalUrl: `${base}/dfx/`,
    configurationVersion: d.doc.configurationVersion,
    lastUpdatedByUsername: d.doc.deployedBy,
    cfmNifiVersion: nifiVersionOf(d),
    testSession: false,
    nodeStorageProfile: str(c.nodeStorageProfileName) ?? 'STANDARD_AWS',
    ...(d.doc.inboundEndpointCrn ? { inboundConnectionEndpointId: crnId(d.doc.inboundEndpointCrn) } : {}),
    ...(Array.isArray(c.inboundConnectionAuthorizedIpRanges)
      ? { inboundConnectionAuthorizedIpRanges: c.inboundConnectionAuthorizedIpRanges }
      : {}),
    ...configurationIds(c),
    ...(first ? { flowName: first.doc.flowName, flowVersion: first.doc.flowVersion, flowCrn: first.doc.flowCrn } : {}),
    deployedFlows: flows.map((f) => deployedFlowDoc(w, f, d, true)),
    ...(d.doc.projectCrn ? { projectCrn: d.doc.projectCrn } : {}),
  };
}

export function deploymentConfigDoc(w: Workload, d: Deployment): Doc {
  const c = d.doc.config;
  const first = w.flowsOf(d)[0];
  return {
    configurationVersion: d.doc.configurationVersion,
    deploymentId: d.id,
    deploymentCrn: d.crn,
    name: d.name,
    parameterGroups: first ? withAssets(w, first.doc.parameterGroups, [d.crn, first.crn]) : [],
    autoScalingEnabled: Boolean(c.autoScalingEnabled),
    flowMetricsScalingEnabled: Boolean(c.flowMetricsScalingEnabled),
    ...(c.autoScalingEnabled ? { autoScaleMinNodes: num(c.autoScaleMinNodes) ?? 1, autoScaleMaxNodes: num(c.autoScaleMaxNodes) ?? 3 } : {}),
    staticNodeCount: num(c.staticNodeCount) ?? 1,
    kpis: docs(c.kpis),
    cfmNifiVersion: nifiVersionOf(d),
    autoStartFlow: c.autoStartFlow !== false,
    clusterSize: basicSize(c.clusterSize),
    nodeStorageProfileName: str(c.nodeStorageProfileName) ?? 'STANDARD_AWS',
    kpisDirty: false,
    sizingAndScalingDirty: false,
    customNarConfigurationDirty: false,
    customPythonConfigurationDirty: false,
    lastUpdatedByUsername: d.doc.deployedBy,
    ...(str(c.inboundHostname) ? { inboundHostname: c.inboundHostname } : {}),
    ...(Array.isArray(c.listenComponents) ? { listenComponents: c.listenComponents } : {}),
    ...(d.doc.projectCrn ? { projectCrn: d.doc.projectCrn } : {}),
    assetConfigurationAvailable: true,
    pythonWorkDirectorySize: num(c.pythonWorkDirectorySize) ?? 5,
    ...configurationIds(c),
  };
}

/** What a flow deploys (a deployed one, or a request's): its definition and version, and the parameters and KPIs it takes. */
function flowMetadata(flowCrn: string, flowName: string, flowVersion: number, parameterGroups: Doc[]): Doc {
  const flowVersionCrn = `${flowCrn}/v.${flowVersion}`;
  const artifactTypeName = artifactTypeOf(flowCrn);
  return {
    flowCrn,
    flowName,
    flowVersion,
    flowVersionCrn,
    requiresEnvironmentSslContextService: false,
    artifactTypeName,
    parameterGroups,
    kpiMetaData: KPI_METADATA,
  };
}

/** What a deployment or flow request will deploy. */
export const requestMetadata = (w: Workload, req: FlowRequest): Doc =>
  flowMetadata(w.flowCrnOf(req), req.flowName, req.flowVersion, withAssets(w, [], [req.crn]));

const flowConfigMetadata = (w: Workload, f: DeployedFlow, d: Deployment): Doc =>
  flowMetadata(f.doc.flowCrn, f.doc.flowName, f.doc.flowVersion, withAssets(w, f.doc.parameterGroups, [d.crn, f.crn]));

/** getDeploymentConfigurationMetadata's answer: its first flow's (no artifact type), with the deployment's options. */
function deploymentConfigMetadata(w: Workload, d: Deployment): Doc {
  const f = w.flowsOf(d)[0];
  const groups = f ? withAssets(w, f.doc.parameterGroups, [d.crn, f.crn]) : [];
  return {
    ...flowMetadata(f?.doc.flowCrn ?? w.crnOf('flow', 'none'), f?.doc.flowName ?? '', f?.doc.flowVersion ?? 0, groups),
    artifactTypeName: undefined,
    service: serviceMeta(w, d.doc.environmentCrn),
    clusterSizingOptions: CLUSTER_SIZES,
    nodeStorageProfileMetadata: STORAGE_PROFILES,
  };
}

export function deployedFlowDoc(w: Workload, f: DeployedFlow, d: Deployment, nested = false): Doc {
  const s = w.flowStatus(f, d);
  const move = s.state === 'FLOW_STOPPED' ? 'START_FLOW' : STEADY_DEPLOYMENT.has(s.state) ? 'STOP_FLOW' : undefined;
  const actions = move ? ['VIEW_NIFI', move, 'EDIT', 'TERMINATE', 'CHANGE_FLOW_VERSION'] : [];
  return {
    ...(nested ? { id: f.id, deploymentId: crnId(d.crn) } : {}),
    name: f.name,
    crn: f.crn,
    status: s,
    configurationVersion: f.doc.configurationVersion,
    targetProcessGroupId: f.id,
    activeInfoAlertCount: 0,
    activeWarningAlertCount: 0,
    activeErrorAlertCount: s.state === 'BAD_HEALTH' ? 1 : 0,
    environmentId: crnId(f.doc.environmentCrn),
    deploymentName: d.name,
    artifactName: f.doc.flowName,
    flowVersion: f.doc.flowVersion,
    flowVersionCrn: `${f.doc.flowCrn}/v.${f.doc.flowVersion}`,
    flowCrn: f.doc.flowCrn,
    creatorCrn: f.doc.creatorCrn,
    artifactTypeName: artifactTypeOf(f.doc.flowCrn),
    deployedByUsername: f.doc.deployedBy,
    deployedByName: f.doc.deployedBy,
    created: f.doc.created,
    updated: w.changedAt(f),
    validActions: s.state === 'CHANGING_FLOW_VERSION' ? ['CANCEL_CHANGE_FLOW_VERSION'] : actions,
    ...(f.doc.projectCrn ? { projectCrn: f.doc.projectCrn } : {}),
    ...(nested ? {} : { deploymentCrn: d.crn }),
  };
}

export function flowConfigDoc(w: Workload, f: DeployedFlow, d: Deployment): Doc {
  return {
    configurationVersion: f.doc.configurationVersion,
    deployedFlowId: f.id,
    deployedFlowName: f.name,
    deployedFlowCrn: f.crn,
    parametersDirty: false,
    kpisDirty: false,
    lastUpdatedByUsername: f.doc.deployedBy,
    parameterGroups: withAssets(w, f.doc.parameterGroups, [d.crn, f.crn]),
    kpis: f.doc.kpis,
  };
}

/** The configuration an archive holds (of one flow of it, when named). */
export function importedConfig(snapshot: Doc, projectCrn: unknown, flowName?: string): Doc | undefined {
  const snap = snapshot as { config: Doc; cfmNifiVersion: string; flows: Doc[] };
  const flows = flowName ? snap.flows.filter((f) => f.name === flowName || f.flowName === flowName) : snap.flows;
  if (flowName && flows.length === 0) return undefined;
  const c = snap.config;
  return {
    autoScalingEnabled: Boolean(c.autoScalingEnabled),
    flowMetricsScalingEnabled: Boolean(c.flowMetricsScalingEnabled),
    ...(num(c.autoScaleMinNodes) !== undefined ? { autoScaleMinNodes: c.autoScaleMinNodes } : {}),
    ...(num(c.autoScaleMaxNodes) !== undefined ? { autoScaleMaxNodes: c.autoScaleMaxNodes } : {}),
    staticNodeCount: num(c.staticNodeCount) ?? 1,
    clusterSize: basicSize(c.clusterSize),
    kpis: docs(c.kpis),
    deployedFlowKpis: flows.flatMap((f) => docs(f.kpis)),
    flowParameterGroups: flows.flatMap((f) => docs(f.parameterGroups)),
    cfmNifiVersion: snap.cfmNifiVersion,
    ...(str(c.inboundHostname) ? { inboundHostName: c.inboundHostname } : {}),
    nodeStorageProfile: str(c.nodeStorageProfileName) ?? 'STANDARD_AWS',
    ...(projectCrn ? { projectCrn } : {}),
    ...(str(c.customNarConfigurationCrn) ? { customNarConfigurationCrn: c.customNarConfigurationCrn } : {}),
    ...(str(c.customPythonConfigurationCrn) ? { customPythonConfigurationCrn: c.customPythonConfigurationCrn } : {}),
  };
}

// ---- the answers of the reads served as verbs (index.ts)

type Answer = (h: Hook<R>, rec: Readonly<EngineRecord>) => Doc;

/** A read's answer: a view of the deployment read, under its field. */
const ofDeployment =
  (field: string, view: (w: Workload, d: Deployment) => Doc): Answer =>
  (h, rec) => ({ [field]: view(new Workload(h), rec as Deployment) });

/** A read's answer: a view of the flow read (and its deployment), under its field. */
const ofFlow =
  (field: string, view: (w: Workload, f: DeployedFlow, d: Deployment) => Doc): Answer =>
  (h, rec) => {
    const w = new Workload(h);
    return { [field]: view(w, rec as DeployedFlow, w.deployments.byId(rec.scope) as Deployment) };
  };

export const deploymentShown = ofDeployment('deployment', deploymentDoc);
export const flowShown = ofFlow('deployedFlow', deployedFlowDoc);
export const deploymentConfiguration = ofDeployment('deploymentConfiguration', deploymentConfigDoc);
export const deploymentConfigurationMetadata = ofDeployment('deploymentConfigurationMetadata', deploymentConfigMetadata);
export const flowConfiguration = ofFlow('deployedFlowConfiguration', flowConfigDoc);
export const flowConfigurationMetadata = ofFlow('deployedFlowConfigurationMetadata', flowConfigMetadata);
