/**
 * The DataFlow workload service (dfworkload) on the operation table: served
 * under /dfx/ with Bearer tokens issued for the DF workload. Deployments and
 * their flows (deployments.ts), custom configurations (configurations.ts),
 * inbound connection endpoints (inbound.ts), parameter groups, reporting
 * tasks, flow drafts with their test sessions (drafts.ts), deployment
 * archives (requests.ts) and asset update requests (assets.ts) are the
 * engine's records, each of an environment. The deployment and flow
 * requests (requests.ts) and uploaded assets (assets.ts) are records of
 * their own; the code entries work over the request's workload
 * (workload.ts). It tells DataFlow's control plane its deployments
 * (provides.ts).
 */ import type { OperationName } from '../../../model/services/dataflow/wire.js';
import { resources } from '../../../model/services/dataflow/resources.js';
import { code, defineService, fixed } from '../../engine/table.js';
import { NIFI_VERSIONS } from './catalogue.js';
import { configuration, configurationCalls, firstNar, named, nextVersion } from './configurations.js';
import { clientCertificates, endpoint, hostnameOf, renewed } from './inbound.js';
import { copyOf, groupsFound, nextGroupVersion, parameterGroup, withUpload } from './parameter-groups.js';
import { flowDraft, restartTestSession, seeded, sessionOf, testSession, withSession } from './drafts.js';
import { assetCalls, assetUpdateRequest } from './assets.js';
import { dataflows } from './provides.js';
import { deployedFlow, deployment, deploymentCalls, flowCalls } from './deployments.js';
import { archive, exported, requestCalls, searched } from './requests.js';
import { codeEntries, type Call, type R } from './workload.js';
import * as views from './views.js';
import { definition, reportingTask, tasksOf } from './reporting-tasks.js';
import { docs, str, text } from '../../values.js';
import { failedPrecondition, notFound } from '../../errors.js';

/** The resources of the workload a project holds. */
const PROJECT_HOLDERS = [
  'customNarConfiguration',
  'customPythonConfiguration',
  'inboundConnectionEndpoint',
  'parameterGroup',
  'deployment',
  'deployedFlow',
] as const satisfies readonly R[];

/** Moves resources of the environment to another project (none: out of any project). */
const reassignResources: Call = (w, r, env) => {
  const found = docs(r.workloadResourceSummaries).map((it) => {
    const [resourceCrn, projectCrn] = [text(it.resourceCrn), it.projectCrn === undefined ? undefined : text(it.projectCrn)];
    const records = PROJECT_HOLDERS.map((x) => w.h.records(x)).find((all) => all.find(resourceCrn)?.env === env);
    const rec = records?.find(resourceCrn);
    if (!records || !rec) throw notFound(`resource ${resourceCrn} not found`);
    if (projectCrn !== undefined && rec.doc.projectCrn !== projectCrn)
      throw failedPrecondition(`resource ${resourceCrn} is not in project ${projectCrn}`);
    return { rec, records };
  });
  const destination = str(r.destinationProjectCrn);
  for (const { rec, records } of found) {
    if (destination) rec.doc.projectCrn = destination;
    else delete rec.doc.projectCrn;
    records.save(rec);
  }
  return {};
};

export default defineService<OperationName>()({
  service: 'dfworkload',
  workloadName: 'DF',
  crnService: 'df',
  facts: resources,
  resources: {
    deployment,
    deployedFlow,
    archive,
    parameterGroup,
    customNarConfiguration: configuration('customNarConfiguration'),
    customPythonConfiguration: configuration('customPythonConfiguration'),
    inboundConnectionEndpoint: endpoint,
    reportingTask,
    flowDraft,
    testSession,
    assetUpdateRequest,
  },
  operations: (r) => ({
    listNifiVersions: fixed({ nifiVersions: NIFI_VERSIONS }),
    createCustomNarConfiguration: r.customNarConfiguration.create(),
    getCustomNarConfiguration: r.customNarConfiguration.read({ rewrite: named('customNarConfiguration') }),
    getDefaultCustomNarConfiguration: r.customNarConfiguration.read({ rewrite: firstNar }),
    updateCustomNarConfiguration: r.customNarConfiguration.update({ rewrite: nextVersion('customNarConfiguration') }),
    deleteCustomNarConfiguration: r.customNarConfiguration.delete(),
    createCustomPythonConfiguration: r.customPythonConfiguration.create(),
    getCustomPythonConfiguration: r.customPythonConfiguration.read({ rewrite: named('customPythonConfiguration') }),
    updateCustomPythonConfiguration: r.customPythonConfiguration.update({ rewrite: nextVersion('customPythonConfiguration') }),
    deleteCustomPythonConfiguration: r.customPythonConfiguration.delete(),
    createInboundConnectionEndpoint: r.inboundConnectionEndpoint.create({ rewrite: hostnameOf }),
    describeInboundConnectionEndpoint: r.inboundConnectionEndpoint.read(),
    listInboundConnectionEndpoints: r.inboundConnectionEndpoint.list(),
    renewInboundConnectionEndpointCertificates: r.inboundConnectionEndpoint.update({ rewrite: renewed }),
    getClientCertificatesEncoded: r.inboundConnectionEndpoint.read({ answer: clientCertificates }),
    deleteInboundConnectionEndpoint: r.inboundConnectionEndpoint.delete(),
    createParameterGroup: r.parameterGroup.create(),
    describeParameterGroup: r.parameterGroup.read(),
    listParameterGroups: r.parameterGroup.list({ select: groupsFound }),
    updateParameterGroup: r.parameterGroup.update({ rewrite: nextGroupVersion }),
    uploadParameterAsset: r.parameterGroup.update({ rewrite: withUpload }),
    duplicateParameterGroup: r.parameterGroup.create({ rewrite: copyOf }),
    deleteParameterGroup: r.parameterGroup.delete(),
    createReportingTask: r.reportingTask.create({ rewrite: definition }),
    listReportingTasks: r.reportingTask.list({ select: tasksOf }),
    deleteReportingTask: r.reportingTask.delete(),
    createAssetUpdateRequest: r.assetUpdateRequest.create(),
    listFlowDrafts: r.flowDraft.list({ rewrite: seeded }),
    listTestSessions: r.flowDraft.list({ rewrite: seeded, select: withSession }),
    deleteFlowDraft: r.flowDraft.delete(),
    suspendDeployment: r.deployment.act('suspend', { answer: views.deploymentShown }),
    resumeDeployment: r.deployment.act('resume', { answer: views.deploymentShown }),
    restartDeployment: r.deployment.act('restart', { answer: views.deploymentShown }),
    // The version asked for is the update's effect (the request's cfmNifiVersion, a field of a deployment).
    updateNifiVersion: r.deployment.act('updateNifi', { answer: views.deploymentShown }),
    cancelNifiVersionUpdate: r.deployment.act('cancelNifiUpdate', { answer: views.deploymentShown }),
    startFlowInDeployment: r.deployedFlow.act('start', { answer: views.flowShown }),
    stopFlowInDeployment: r.deployedFlow.act('stop', { answer: views.flowShown }),
    terminateFlowInDeployment: r.deployedFlow.act('delete', { answer: views.flowShown }),
    exportDeployment: r.archive.create({ rewrite: exported }),
    listDeploymentArchives: r.archive.list({ select: searched }),
    getDeploymentConfiguration: r.deployment.read({ answer: views.deploymentConfiguration }),
    getDeploymentConfigurationMetadata: r.deployment.read({ answer: views.deploymentConfigurationMetadata }),
    getFlowConfigurationInDeployment: r.deployedFlow.read({ answer: views.flowConfiguration }),
    getFlowConfigurationMetadataInDeployment: r.deployedFlow.read({ answer: views.flowConfigurationMetadata }),
    restartTestSession: code(restartTestSession),
    suspendTestSession: r.testSession.act('suspend', { rewrite: sessionOf }),
    terminateTestSession: r.testSession.delete({ rewrite: sessionOf }),
    // Last, so that an operation both here and above is a type error (TS2783: specified more than once).
    ...codeEntries({ ...deploymentCalls, ...flowCalls, ...requestCalls, ...assetCalls, ...configurationCalls, reassignResources }),
  }),
  provides: { dataflows },
});
