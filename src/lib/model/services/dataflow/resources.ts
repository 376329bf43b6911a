/**
 * What the API says of the DataFlow workload's resources (dfworkload; the
 * format: ../../resources.ts). Their CRNs are DataFlow's (`crn:cdp:df:`). A
 * deployment's and a flow's status is a structure of `state` and
 * `detailedState`: their lifecycles name each state as the pair
 * `STATE/DETAILED_STATE` (DEPLOYING is NEW, CREATING_NODES, DEPLOYING_ASSETS,
 * DEPLOYING_FLOW in turn); a configuration change passes through UPDATING and
 * ends in the state it began in. A terminated deployment or flow (and a
 * terminated test session) is TERMINATING, then gone: the Ansible collection
 * waits for describeDeployment to answer NOT_FOUND. Every other delete is
 * gone at once. The emulator serves its resources from these facts
 * (dfworkload is on the operation table), and all are checked against the
 * wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

const GOOD = 'GOOD_HEALTH/GOOD_HEALTH';
const STOPPED = 'FLOW_STOPPED/FLOW_STOPPED';

export const resources = {
  resources: {
    /** Its states are `status.state/status.detailedState` pairs (the shape's status is a structure of the two). */
    deployment: {
      shape: 'RpcDeployment',
      crnType: 'deployment',
      lifecycle: {
        create: {
          through: ['DEPLOYING/NEW', 'DEPLOYING/CREATING_NODES', 'DEPLOYING/DEPLOYING_ASSETS', 'DEPLOYING/DEPLOYING_FLOW'],
          success: GOOD,
          failure: 'BAD_HEALTH/FAILED_TO_DEPLOY',
        },
        // A configuration change: UPDATING, then the state it began in.
        update: { through: ['UPDATING/UPDATING'] },
        suspend: { through: ['SUSPENDING/SUSPENDING'], success: 'SUSPENDED/SUSPENDED' },
        resume: { from: ['SUSPENDED/SUSPENDED'], through: ['RESUMING/RESUMING'], success: GOOD },
        restart: { through: ['RESTARTING/RESTARTING'], success: GOOD },
        updateNifi: { through: ['UPDATING/UPDATING_NIFI_VERSION'], success: GOOD },
        cancelNifiUpdate: { from: ['UPDATING/UPDATING_NIFI_VERSION'], through: ['UPDATING/CANCELLING_NIFI_VERSION_UPDATE'], success: GOOD },
        // terminateDeployment.
        delete: { through: ['TERMINATING/TERMINATING'], success: 'TERMINATED/STOPPED' },
      },
      deleted: { ends: 'gone' },
    },
    /** Its states are pairs as a deployment's; it shows its deployment's suspension and termination. */
    deployedFlow: {
      shape: 'RpcDeployedFlow',
      crnType: 'deployedFlow',
      deletedBy: { terminateFlowInDeployment: 'itself' },
      lifecycle: {
        // Imported once its deployment is ready; without autoStartFlow it ends FLOW_STOPPED (deployStopped).
        deploy: { through: ['DEPLOYING/NEW', 'IMPORTING_FLOW/IMPORTING_FLOW'], success: GOOD, failure: 'BAD_HEALTH/FAILED_TO_IMPORT' },
        deployStopped: {
          through: ['DEPLOYING/NEW', 'IMPORTING_FLOW/IMPORTING_FLOW'],
          success: STOPPED,
          failure: 'BAD_HEALTH/FAILED_TO_IMPORT',
        },
        start: { from: [STOPPED, 'BAD_HEALTH/FAILED_TO_IMPORT'], through: ['STARTING_FLOW/STARTING_FLOW'], success: GOOD },
        stop: { through: ['STOPPING_FLOW/STOPPING_FLOW'], success: STOPPED },
        changeVersion: { through: ['CHANGING_FLOW_VERSION/CHANGING_FLOW_VERSION'], success: GOOD },
        cancelChange: {
          from: ['CHANGING_FLOW_VERSION/CHANGING_FLOW_VERSION', 'CHANGING_FLOW_VERSION/CANCELLING_CHANGE_FLOW_VERSION'],
          through: ['CHANGING_FLOW_VERSION/CANCELLING_CHANGE_FLOW_VERSION'],
          success: GOOD,
        },
        update: { through: ['UPDATING/UPDATING'] },
        // terminateFlowInDeployment, or its deployment's termination.
        delete: { through: ['TERMINATING/TERMINATING'], success: 'TERMINATED/TERMINATED' },
      },
      deleted: { ends: 'gone' },
    },
    /** A deployment exported (exportDeployment), named by its archive name. */
    archive: {
      shape: 'RpcDeploymentArchiveMetadata',
      fields: { name: 'archiveName' },
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
