/**
 * The DataFlow workload service (dfworkload) on the operation table: served
 * under /dfx/ with Bearer tokens issued for the DF workload. Its parts are
 * the workload's resources: deployments.ts, flows.ts (deployed flows),
 * requests.ts (deployment and flow requests), assets.ts (uploaded assets,
 * asset update requests, reporting tasks), configurations.ts (custom NAR and
 * Python configurations), parameter-groups.ts, inbound.ts (inbound
 * connection endpoints) and drafts.ts (flow drafts and test sessions), over
 * the request's workload (workload.ts). It tells DataFlow's control plane
 * its deployments (provides.ts).
 */
import type { OperationName } from '../../../model/services/dataflow/wire.js';
import { resources } from '../../../model/services/dataflow/resources.js';
import type { Hook } from '../../engine/declare.js';
import { code, defineService, fixed } from '../../engine/table.js';
import type { Doc } from '../../types.js';
import { str } from '../../values.js';
import { NIFI_VERSIONS } from './catalogue.js';
import { configuration, firstNar, named, nextVersion } from './configurations.js';
import { calls, type Call } from './entries.js';
import { clientCertificates, endpoint, hostnameOf, renewed } from './inbound.js';
import { dataflows } from './provides.js';
import type { R } from './records.js';
import { Workload } from './workload.js';

/**
 * A code entry of the workload's own rules, named after its call for the
 * coverage table: the request's workload, and the environment it is for.
 */
const run = (call: Call) =>
  code(
    Object.defineProperty(
      (h: Hook<R>, req: Doc): Doc => {
        const w = new Workload(h);
        return call(w, req, w.environment(str(req.environmentCrn)));
      },
      'name',
      { value: call.name },
    ),
  );

export default defineService<OperationName>()({
  service: 'dfworkload',
  workloadName: 'DF',
  crnService: 'df',
  facts: resources,
  resources: {
    deployment: { keys: ['deploymentCrn'] },
    deployedFlow: { keys: ['deployedFlowCrn'] },
    parameterGroup: { keys: ['parameterGroupCrn'] },
    customNarConfiguration: configuration('customNarConfiguration'),
    customPythonConfiguration: configuration('customPythonConfiguration'),
    inboundConnectionEndpoint: endpoint,
    reportingTask: { keys: ['reportingTaskCrn'] },
    flowDraft: { keys: ['flowDraftCrn'] },
    testSession: { keys: ['flowDraftCrn'] },
    assetUpdateRequest: { keys: ['assetUpdateRequestCrn'] },
  },
  operations: (r) => ({
    createDeployment: run(calls.createDeployment),
    updateDeployment: run(calls.updateDeployment),
    terminateDeployment: run(calls.terminateDeployment),
    suspendDeployment: run(calls.suspendDeployment),
    resumeDeployment: run(calls.resumeDeployment),
    restartDeployment: run(calls.restartDeployment),
    updateNifiVersion: run(calls.updateNifiVersion),
    cancelNifiVersionUpdate: run(calls.cancelNifiVersionUpdate),
    startAllFlowsInDeployment: run(calls.startAllFlowsInDeployment),
    stopAllFlowsInDeployment: run(calls.stopAllFlowsInDeployment),
    startFlow: run(calls.startFlow),
    stopFlow: run(calls.stopFlow),
    changeFlowVersion: run(calls.changeFlowVersion),
    cancelChangeFlowVersion: run(calls.cancelChangeFlowVersion),
    exportDeployment: run(calls.exportDeployment),
    importDeployment: run(calls.importDeployment),
    listDeploymentArchives: run(calls.listDeploymentArchives),
    getDeploymentConfiguration: run(calls.getDeploymentConfiguration),
    getDeploymentConfigurationMetadata: run(calls.getDeploymentConfigurationMetadata),
    getDeploymentRequestDetails: run(calls.getDeploymentRequestDetails),
    abortDeploymentRequest: run(calls.abortDeploymentRequest),
    addFlowToDeployment: run(calls.addFlowToDeployment),
    importFlowIntoDeployment: run(calls.importFlowIntoDeployment),
    startFlowInDeployment: run(calls.startFlowInDeployment),
    stopFlowInDeployment: run(calls.stopFlowInDeployment),
    terminateFlowInDeployment: run(calls.terminateFlowInDeployment),
    updateFlowInDeployment: run(calls.updateFlowInDeployment),
    changeFlowVersionInDeployment: run(calls.changeFlowVersionInDeployment),
    cancelChangeFlowVersionInDeployment: run(calls.cancelChangeFlowVersionInDeployment),
    getFlowConfigurationInDeployment: run(calls.getFlowConfigurationInDeployment),
    getFlowConfigurationMetadataInDeployment: run(calls.getFlowConfigurationMetadataInDeployment),
    getFlowRequestDetailsInDeployment: run(calls.getFlowRequestDetailsInDeployment),
    abortFlowRequestInDeployment: run(calls.abortFlowRequestInDeployment),
    validateCustomNarConfiguration: run(calls.validateCustomNarConfiguration),
    validateCustomPythonConfiguration: run(calls.validateCustomPythonConfiguration),
    createReportingTask: run(calls.createReportingTask),
    deleteReportingTask: run(calls.deleteReportingTask),
    listReportingTasks: run(calls.listReportingTasks),
    uploadAsset: run(calls.uploadAsset),
    createAssetUpdateRequest: run(calls.createAssetUpdateRequest),
    abortAssetUpdateRequest: run(calls.abortAssetUpdateRequest),
    createParameterGroup: run(calls.createParameterGroup),
    describeParameterGroup: run(calls.describeParameterGroup),
    updateParameterGroup: run(calls.updateParameterGroup),
    deleteParameterGroup: run(calls.deleteParameterGroup),
    duplicateParameterGroup: run(calls.duplicateParameterGroup),
    listParameterGroups: run(calls.listParameterGroups),
    uploadParameterAsset: run(calls.uploadParameterAsset),
    listFlowDrafts: run(calls.listFlowDrafts),
    listTestSessions: run(calls.listTestSessions),
    restartTestSession: run(calls.restartTestSession),
    suspendTestSession: run(calls.suspendTestSession),
    terminateTestSession: run(calls.terminateTestSession),
    deleteFlowDraft: run(calls.deleteFlowDraft),
    reassignResources: run(calls.reassignResources),
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
  }),
  provides: { dataflows },
});
