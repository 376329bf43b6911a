/** dfworkload operations: wire in, plain result out; the rules live in backend.ts. */
import type { Doc, Handler, RequestContext } from '../../types.js';
import { DfWorkload, KIND } from './backend.js';

type Method = (b: DfWorkload, r: Doc) => Doc;

const ops: Record<string, Method> = {
  // deployments
  createDeployment: (b, r) => b.createDeployment(r),
  updateDeployment: (b, r) => b.updateDeployment(r),
  terminateDeployment: (b, r) => b.terminateDeployment(r),
  suspendDeployment: (b, r) => b.suspendDeployment(r),
  resumeDeployment: (b, r) => b.resumeDeployment(r),
  restartDeployment: (b, r) => b.restartDeployment(r),
  exportDeployment: (b, r) => b.exportDeployment(r),
  importDeployment: (b, r) => b.importDeployment(r),
  listDeploymentArchives: (b, r) => b.listDeploymentArchives(r),
  getDeploymentConfiguration: (b, r) => b.getDeploymentConfiguration(r),
  getDeploymentConfigurationMetadata: (b, r) => b.getDeploymentConfigurationMetadata(r),
  getDeploymentRequestDetails: (b, r) => b.getDeploymentRequestDetails(r),
  abortDeploymentRequest: (b, r) => b.abortDeploymentRequest(r),
  startAllFlowsInDeployment: (b, r) => b.startAllFlowsInDeployment(r),
  stopAllFlowsInDeployment: (b, r) => b.stopAllFlowsInDeployment(r),
  updateNifiVersion: (b, r) => b.updateNifiVersion(r),
  cancelNifiVersionUpdate: (b, r) => b.cancelNifiVersionUpdate(r),
  changeFlowVersion: (b, r) => b.changeFlowVersion(r),
  cancelChangeFlowVersion: (b, r) => b.cancelChangeFlowVersion(r),
  startFlow: (b, r) => b.startFlow(r),
  stopFlow: (b, r) => b.stopFlow(r),
  // deployed flows
  addFlowToDeployment: (b, r) => b.addFlowToDeployment(r),
  importFlowIntoDeployment: (b, r) => b.importFlowIntoDeployment(r),
  startFlowInDeployment: (b, r) => b.startFlowInDeployment(r),
  stopFlowInDeployment: (b, r) => b.stopFlowInDeployment(r),
  terminateFlowInDeployment: (b, r) => b.terminateFlowInDeployment(r),
  updateFlowInDeployment: (b, r) => b.updateFlowInDeployment(r),
  changeFlowVersionInDeployment: (b, r) => b.changeFlowVersionInDeployment(r),
  cancelChangeFlowVersionInDeployment: (b, r) => b.cancelChangeFlowVersionInDeployment(r),
  getFlowConfigurationInDeployment: (b, r) => b.getFlowConfigurationInDeployment(r),
  getFlowConfigurationMetadataInDeployment: (b, r) => b.getFlowConfigurationMetadataInDeployment(r),
  getFlowRequestDetailsInDeployment: (b, r) => b.getFlowRequestDetailsInDeployment(r),
  abortFlowRequestInDeployment: (b, r) => b.abortFlowRequestInDeployment(r),
  // custom configurations
  createCustomNarConfiguration: (b, r) => b.createConfig(KIND.nar, r),
  getCustomNarConfiguration: (b, r) => b.getConfig(KIND.nar, r, 'customNarConfigurationCrn'),
  updateCustomNarConfiguration: (b, r) => b.updateConfig(KIND.nar, r),
  deleteCustomNarConfiguration: (b, r) => b.deleteConfig(KIND.nar, r, 'customNarConfigurationCrn'),
  validateCustomNarConfiguration: (b, r) => b.validateConfig(r),
  getDefaultCustomNarConfiguration: (b, r) => b.getDefaultCustomNarConfiguration(r),
  createCustomPythonConfiguration: (b, r) => b.createConfig(KIND.python, r),
  getCustomPythonConfiguration: (b, r) => b.getConfig(KIND.python, r, 'customPythonConfigurationCrn'),
  updateCustomPythonConfiguration: (b, r) => b.updateConfig(KIND.python, r),
  deleteCustomPythonConfiguration: (b, r) => b.deleteConfig(KIND.python, r, 'customPythonConfigurationCrn'),
  validateCustomPythonConfiguration: (b, r) => b.validateConfig(r),
  // reporting tasks and assets
  createReportingTask: (b, r) => b.createReportingTask(r),
  deleteReportingTask: (b, r) => b.deleteReportingTask(r),
  listReportingTasks: (b, r) => b.listReportingTasks(r),
  uploadAsset: (b, r) => b.uploadAsset(r),
  createAssetUpdateRequest: (b, r) => b.createAssetUpdateRequest(r),
  abortAssetUpdateRequest: (b, r) => b.abortAssetUpdateRequest(r),
  // parameter groups
  createParameterGroup: (b, r) => b.createParameterGroup(r),
  describeParameterGroup: (b, r) => b.describeParameterGroup(r),
  updateParameterGroup: (b, r) => b.updateParameterGroup(r),
  deleteParameterGroup: (b, r) => b.deleteParameterGroup(r),
  duplicateParameterGroup: (b, r) => b.duplicateParameterGroup(r),
  listParameterGroups: (b, r) => b.listParameterGroups(r),
  uploadParameterAsset: (b, r) => b.uploadParameterAsset(r),
  // inbound connection endpoints
  createInboundConnectionEndpoint: (b, r) => b.createInboundConnectionEndpoint(r),
  describeInboundConnectionEndpoint: (b, r) => b.describeInboundConnectionEndpoint(r),
  deleteInboundConnectionEndpoint: (b, r) => b.deleteInboundConnectionEndpoint(r),
  listInboundConnectionEndpoints: (b, r) => b.listInboundConnectionEndpoints(r),
  renewInboundConnectionEndpointCertificates: (b, r) => b.renewInboundConnectionEndpointCertificates(r),
  getClientCertificatesEncoded: (b, r) => b.getClientCertificatesEncoded(r),
  // the rest
  listNifiVersions: (b, r) => b.listNifiVersions(r),
  listFlowDrafts: (b, r) => b.listFlowDrafts(r),
  deleteFlowDraft: (b, r) => b.deleteFlowDraft(r),
  listTestSessions: (b, r) => b.listTestSessions(r),
  restartTestSession: (b, r) => b.restartTestSession(r),
  suspendTestSession: (b, r) => b.suspendTestSession(r),
  terminateTestSession: (b, r) => b.terminateTestSession(r),
  reassignResources: (b, r) => b.reassignResources(r),
};

export const handlers: Record<string, Handler> = Object.fromEntries(
  Object.entries(ops).map(([name, m]) => [name, (r: Doc, ctx: RequestContext) => m(new DfWorkload(ctx), r)]),
);
