/** dfworkload's wire views: records in, wire documents out. */
import { crn, crnId } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, num, str } from '../../values.js';
import { Workload } from './workload.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { CLUSTER_SIZES, KPI_METADATA, STORAGE_PROFILES, basicSize, clusterSizeOf } from './catalogue.js';
import { withAssets } from './assets.js';
import { changedAt, nifiVersionOf, deploymentRecords, deploymentStatus, flowStatus, flowsOf } from './deployed.js';
import { HEALTHY, artifactTypeOf, type DeployedFlow, type Deployment, type FlowRequest, type R } from './records.js';

function validActions(state: string, detailed: string): string[] {
  if (HEALTHY.has(state) || state === 'BAD_HEALTH') {
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
  const s = deploymentStatus(w, d);
  const status: Doc = { state: s.state, detailedState: s.detailedState };
  if (s.failed && d.activity.reason) status.message = d.activity.reason;
  const c = d.doc.config;
  const running = HEALTHY.has(s.state) || s.state === 'BAD_HEALTH' || s.state === 'UPDATING' || s.state === 'RESTARTING';
  const nodes = c.autoScalingEnabled ? (num(c.autoScaleMinNodes) ?? 1) : (num(c.staticNodeCount) ?? 1);
  const flows = flowsOf(w, d);
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
    updated: changedAt(w, d),
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
    ...(str(c.customNarConfigurationCrn) ? { customNarConfigurationId: crnId(String(c.customNarConfigurationCrn)) } : {}),
    ...(str(c.customPythonConfigurationCrn) ? { customPythonConfigurationId: crnId(String(c.customPythonConfigurationCrn)) } : {}),
    ...(first ? { flowName: first.doc.flowName, flowVersion: first.doc.flowVersion, flowCrn: first.doc.flowCrn } : {}),
    deployedFlows: flows.map((f) => deployedFlowDoc(w, f, d, true)),
    ...(d.doc.projectCrn ? { projectCrn: d.doc.projectCrn } : {}),
  };
}

export function deploymentConfigDoc(w: Workload, d: Deployment): Doc {
  const c = d.doc.config;
  const first = flowsOf(w, d)[0];
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
    ...(str(c.customNarConfigurationCrn) ? { customNarConfigurationId: crnId(String(c.customNarConfigurationCrn)) } : {}),
    ...(str(c.customPythonConfigurationCrn) ? { customPythonConfigurationId: crnId(String(c.customPythonConfigurationCrn)) } : {}),
  };
}

/** getDeploymentConfigurationMetadata's answer. */
export function deploymentConfigMetadata(w: Workload, d: Deployment): Doc {
  const f = flowsOf(w, d)[0];
  const flowCrn = f?.doc.flowCrn ?? w.crnOf('flow', 'none');
  return {
    flowCrn,
    flowName: f?.doc.flowName ?? '',
    flowVersion: f?.doc.flowVersion ?? 0,
    flowVersionCrn: `${flowCrn}/v.${f?.doc.flowVersion ?? 0}`,
    service: serviceMeta(w, d.doc.environmentCrn),
    requiresEnvironmentSslContextService: false,
    parameterGroups: f ? withAssets(w, f.doc.parameterGroups, [d.crn, f.crn]) : [],
    kpiMetaData: KPI_METADATA,
    clusterSizingOptions: CLUSTER_SIZES,
    nodeStorageProfileMetadata: STORAGE_PROFILES,
  };
}

/** What a deployment or flow request will deploy. */
export function requestMetadata(w: Workload, req: FlowRequest): Doc {
  const flowCrn = w.flowCrnOf(req);
  return {
    flowCrn,
    flowName: req.flowName,
    flowVersion: req.flowVersion,
    flowVersionCrn: `${flowCrn}/v.${req.flowVersion}`,
    requiresEnvironmentSslContextService: false,
    artifactTypeName: artifactTypeOf(flowCrn),
    parameterGroups: withAssets(w, [], [req.crn]),
    kpiMetaData: KPI_METADATA,
  };
}

export function deploymentRequestDetails(w: Workload, env: string, req: FlowRequest): Doc {
  return {
    ...requestMetadata(w, req),
    service: serviceMeta(w, env),
    clusterSizingOptions: CLUSTER_SIZES,
    nodeStorageProfileMetadata: STORAGE_PROFILES,
  };
}

export function deployedFlowDoc(w: Workload, f: DeployedFlow, d: Deployment, nested = false): Doc {
  const s = flowStatus(w, f, d);
  const actions =
    s.state === 'FLOW_STOPPED'
      ? ['VIEW_NIFI', 'START_FLOW', 'EDIT', 'TERMINATE', 'CHANGE_FLOW_VERSION']
      : HEALTHY.has(s.state) || s.state === 'BAD_HEALTH'
        ? ['VIEW_NIFI', 'STOP_FLOW', 'EDIT', 'TERMINATE', 'CHANGE_FLOW_VERSION']
        : s.state === 'CHANGING_FLOW_VERSION'
          ? ['CANCEL_CHANGE_FLOW_VERSION']
          : [];
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
    updated: changedAt(w, f),
    validActions: actions,
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

export function flowConfigMetadata(w: Workload, f: DeployedFlow, d: Deployment): Doc {
  return {
    flowCrn: f.doc.flowCrn,
    flowName: f.doc.flowName,
    flowVersion: f.doc.flowVersion,
    flowVersionCrn: `${f.doc.flowCrn}/v.${f.doc.flowVersion}`,
    requiresEnvironmentSslContextService: false,
    artifactTypeName: artifactTypeOf(f.doc.flowCrn),
    parameterGroups: withAssets(w, f.doc.parameterGroups, [d.crn, f.crn]),
    kpiMetaData: KPI_METADATA,
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
    return { [field]: view(w, rec as DeployedFlow, deploymentRecords(w).byId(rec.scope) as Deployment) };
  };

export const deploymentShown = ofDeployment('deployment', deploymentDoc);
export const flowShown = ofFlow('deployedFlow', deployedFlowDoc);
export const deploymentConfiguration = ofDeployment('deploymentConfiguration', deploymentConfigDoc);
export const deploymentConfigurationMetadata = ofDeployment('deploymentConfigurationMetadata', deploymentConfigMetadata);
export const flowConfiguration = ofFlow('deployedFlowConfiguration', flowConfigDoc);
export const flowConfigurationMetadata = ofFlow('deployedFlowConfigurationMetadata', flowConfigMetadata);
