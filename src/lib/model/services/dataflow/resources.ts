/**
 * What the API says of the DataFlow workload's resources (dfworkload; the
 * format: ../../resources.ts). Their CRNs are DataFlow's (`crn:cdp:df:`). A
 * deployment's and a flow's state is `status.state`, its detailed state
 * `status.detailedState` (DEPLOYING is NEW, CREATING_NODES, DEPLOYING_ASSETS,
 * DEPLOYING_FLOW in turn); a configuration change passes through UPDATING and
 * ends in the state it began in. A terminated deployment or flow (and a
 * terminated test session) is TERMINATING, then gone: the Ansible collection
 * waits for describeDeployment to answer NOT_FOUND. Every other delete is
 * gone at once. The emulator serves its custom configurations and inbound
 * connection endpoints from these facts (dfworkload is on the operation
 * table); the rest are true of what its code does, and all are checked
 * against the wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

const HEALTHY = ['GOOD_HEALTH', 'CONCERNING_HEALTH'] as const;

export const resources = {
  resources: {
    deployment: {
      shape: 'RpcDeployment',
      crnType: 'deployment',
      lifecycle: {
        create: { through: ['DEPLOYING'], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
        update: { through: ['UPDATING'] },
        suspend: { through: ['SUSPENDING'], success: 'SUSPENDED' },
        resume: { from: ['SUSPENDED'], through: ['RESUMING'], success: 'GOOD_HEALTH' },
        restart: { through: ['RESTARTING'], success: 'GOOD_HEALTH' },
        updateNifiVersion: { from: HEALTHY, through: ['UPDATING'], success: 'GOOD_HEALTH' },
        cancelNifiVersionUpdate: { from: ['UPDATING'], through: ['UPDATING'], success: 'GOOD_HEALTH' },
        // terminateDeployment.
        delete: { through: ['TERMINATING'], success: 'TERMINATED' },
      },
      deleted: { ends: 'gone' },
    },
    deployedFlow: {
      shape: 'RpcDeployedFlow',
      crnType: 'deployedFlow',
      deletedBy: { terminateFlowInDeployment: 'itself' },
      lifecycle: {
        // Imported once its deployment is ready; without autoStartFlow it ends FLOW_STOPPED.
        create: { through: ['DEPLOYING', 'IMPORTING_FLOW'], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
        start: { from: ['FLOW_STOPPED', 'BAD_HEALTH'], through: ['STARTING_FLOW'], success: 'GOOD_HEALTH' },
        stop: { through: ['STOPPING_FLOW'], success: 'FLOW_STOPPED' },
        changeFlowVersion: { through: ['CHANGING_FLOW_VERSION'], success: 'GOOD_HEALTH' },
        cancelChangeFlowVersion: { from: ['CHANGING_FLOW_VERSION'], through: ['CHANGING_FLOW_VERSION'], success: 'GOOD_HEALTH' },
        update: { through: ['UPDATING'] },
        // terminateFlowInDeployment.
        delete: { through: ['TERMINATING'], success: 'TERMINATED' },
      },
      deleted: { ends: 'gone' },
    },
    parameterGroup: {
      shape: 'ParameterGroup',
      crnType: 'parameterGroup',
      deleted: { ends: 'gone' },
    },
    customNarConfiguration: {
      shape: 'GetCustomNarConfigurationResponse',
      crnType: 'customNarConfiguration',
      deleted: { ends: 'gone' },
    },
    customPythonConfiguration: {
      shape: 'GetCustomPythonConfigurationResponse',
      crnType: 'customPythonConfiguration',
      deleted: { ends: 'gone' },
    },
    inboundConnectionEndpoint: {
      shape: 'InboundConnectionEndpointSummary',
      fields: { name: 'fullyQualifiedDomainName' },
      crnType: 'inboundConnectionEndpoint',
      deleted: { ends: 'gone' },
    },
    reportingTask: {
      shape: 'ReportingTaskSummary',
      crnType: 'reportingTask',
      deleted: { ends: 'gone' },
    },
    flowDraft: {
      shape: 'FlowSummary',
      fields: { name: 'flowName' },
      crnType: 'flowDraft',
      deleted: { ends: 'gone' },
    },
    /** The test session of a flow draft: its status is a deployment's. */
    testSession: {
      shape: 'RuntimeSession',
      crnType: 'testSession',
      lifecycle: {
        restart: { through: ['RESTARTING'], success: 'GOOD_HEALTH' },
        suspend: { through: ['SUSPENDING'], success: 'SUSPENDED' },
        // terminateTestSession.
        delete: { through: ['TERMINATING'], success: 'TERMINATED' },
      },
      deleted: { ends: 'gone' },
    },
    /** A request to change the assets (files) of a deployment's parameters (createAssetUpdateRequest). */
    assetUpdateRequest: {
      shape: 'CreateAssetUpdateRequestResponse',
      fields: { crn: 'assetUpdateRequestCrn' },
      crnType: 'assetUpdateRequest',
    },
  },
} as const satisfies ServiceResources;
