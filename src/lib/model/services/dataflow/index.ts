/**
 * Flow workload (dfworkload): the CLI half of the dataflow model. These
 * operations run against an environment's DataFlow workload endpoint with a
 * short-lived bearer token (see core/client.ts), so every command needs
 * --environment-crn. Command ids group operations by what they act on.
 *
 * --wait: the workload API has no read that reports the state of a
 * deployment or a deployed flow, so waiters read it from the DataFlow control
 * plane (df describeDeployment, describeFlowInDeployment; signed, where the
 * workload calls carry the workload token). A mutating call is never sent
 * again to learn its state; termination ends when the deployment reads
 * TERMINATED or is gone.
 */
import type { OperationCli, Rule, ServiceDefinition, WaiterSpec } from '../../types.js';
import { labelKpiUnits } from './kpis.js';
import { operations, service, shapes } from './wire.js';

const ENV = '--environment-crn crn:cdp:environments:us-west-1:acct:environment:env1';
const DEP = 'crn:cdp:df:us-west-1:acct:deployment:6f1c2d3e-0000-4000-8000-000000000001';
const FLOW = 'crn:cdp:df:us-west-1:acct:deployedFlow:6f1c2d3e-0000-4000-8000-000000000002';
const DEP_REQ = 'crn:cdp:df:us-west-1:acct:deploymentRequest:6f1c2d3e-0000-4000-8000-000000000003';
const FLOW_REQ = 'crn:cdp:df:us-west-1:acct:deployedFlowRequest:6f1c2d3e-0000-4000-8000-000000000004';
const NAR = 'crn:cdp:df:us-west-1:acct:customNarConfiguration:6f1c2d3e-0000-4000-8000-000000000005';
const PY = 'crn:cdp:df:us-west-1:acct:customPythonConfiguration:6f1c2d3e-0000-4000-8000-000000000006';
const PG = 'crn:cdp:df:us-west-1:acct:parameterGroup:6f1c2d3e-0000-4000-8000-000000000007';
const INBOUND = 'crn:cdp:df:us-west-1:acct:inboundConnectionEndpoint:6f1c2d3e-0000-4000-8000-000000000008';
const DRAFT = 'crn:cdp:df:us-west-1:acct:flowDraft:6f1c2d3e-0000-4000-8000-000000000009';
const ASSET_REQ = 'crn:cdp:df:us-west-1:acct:assetUpdateRequest:6f1c2d3e-0000-4000-8000-00000000000a';

const NAR_CRN = 'CRN of a custom NAR configuration, as `dataflow nar-configs create` printed it';
const PY_CRN = 'CRN of a custom Python configuration, as `dataflow python-configs create` printed it';

/** Help shared by every operation that has the field (the service-wide fieldHelp). */
const COMMON_HELP: Readonly<Record<string, string>> = {
  environmentCrn: 'Environment whose DataFlow service to use (see `environments list`); also picks the workload token',
  deploymentCrn: 'CRN of the deployment, as `dataflow deployments create` printed it',
  deployedFlowCrn: 'CRN of the flow inside the deployment, as `dataflow flows add` or `dataflow deployments create` printed it',
  deploymentRequestCrn: 'CRN of the deployment request started in the DataFlow control plane',
  deployedFlowRequestCrn: 'CRN of the flow deployment request started in the DataFlow control plane',
  configurationVersion: 'The configurationVersion the resource showed when you last read it (0 when creating); a stale version is refused',
  projectCrn: 'Project the resource belongs to; default: none',
  parameterGroups: 'Parameter groups as JSON: [{"name":"...","parameters":[{"name":"...","value":"..."}]}]',
  kpis: 'Key performance indicators as JSON: [{"metricId":"cpuUtilization","alert":{...}}]',
  waitForFlowToStopInMinutes: 'Minutes to let the flow stop gracefully before it is forced',
  assetUpdateRequestCrn: 'CRN of the asset update request, as `dataflow assets update-request` printed it',
  filePath: 'Local file to upload; it is streamed, never read into memory',
  storageLocation: 'Object-store folder the NAR files or Python packages are read from, e.g. s3a://bucket/nars',
  username: 'User name for the storage location',
  password: 'Password or secret for the storage location',
  strategy:
    'How queued data is handled while the version changes: STOP_AND_PROCESS_DATA lets it flow out first, STOP_AND_EMPTY_QUEUES drops it, ONLY_RESTART_AFFECTED_COMPONENTS restarts only what changed',
  cfmNifiVersion: 'NiFi version to run (see `dataflow nifi-versions list`)',
  flowDraftCrn: 'CRN of the flow draft (see `dataflow flow-drafts list`)',
  parameterGroupCrn: 'CRN of the parameter group (see `dataflow parameter-groups list`)',
  crn: 'CRN of the inbound connection endpoint (see `dataflow inbound-endpoints list`)',
  customNarConfigurationCrn: NAR_CRN,
  customPythonConfigurationCrn: PY_CRN,
  reportingTaskCrn: 'CRN of the reporting task (see `dataflow reporting-tasks list`)',
  archiveName: 'Name of the exported archive (see `dataflow deployments archives`)',
  flowName: 'Name of the flow in the exported archive (see `dataflow deployments archives`)',
  parameterName: 'Name of the parameter that refers to the file',
  parameters: 'Parameters as JSON: [{"name":"...","value":"...","sensitive":false}]',
  description: 'Free text shown with the parameter group',
  ignoreCustomNarConfigurationCheck: 'Go on even when the flow has custom components and the deployment no custom NAR configuration',
  ignoreCustomPythonConfigurationCheck:
    'Go on even when the flow has custom Python processors and the deployment no custom Python configuration',
  ignoreDeploymentInboundConfigurationChecks: 'Go on even when listening components of the flow have no inbound connection configured',
  useSharedParameterGroupCrn: 'Shared parameter group to take parameter values from (see `dataflow parameter-groups list`)',
  updateSharedParameterGroupCrns: 'Shared parameter groups to move to their latest version (see `dataflow parameter-groups list`)',
  autoScaleMinNodes: 'Fewest nodes while auto-scaling (with --auto-scaling-enabled)',
  autoScaleMaxNodes: 'Most nodes while auto-scaling (with --auto-scaling-enabled)',
  staticNodeCount: 'Node count when auto-scaling is off',
  clusterSize:
    'Node size: name=EXTRA_SMALL|SMALL|MEDIUM|LARGE, or CUSTOM with coresPerNode and memoryLimit (see `dataflow deployments configuration-metadata`)',
  inboundHostname:
    'Host name of an inbound connection endpoint to attach, in full or just its first label (see `dataflow inbound-endpoints list`)',
  listenComponents: 'Ports listening processors take inbound data on: [{"protocol":"TCP","port":9000}]',
  inboundConnectionAuthorizedIpRanges: 'CIDR ranges allowed to send to the inbound connection endpoint, e.g. 10.0.0.0/8',
};

/** Asset references naming local files are uploaded first (see AssetUploadSpec). */
const ASSET_UPLOADS = { open: 'createAssetUpdateRequest', upload: 'uploadAsset', abort: 'abortAssetUpdateRequest' } as const;

/** A deployment's state, read from the control plane (see the file comment). */
const DEPLOYMENT_FAILED = ['BAD_HEALTH'];
const deploymentWait = (success: readonly string[]): WaiterSpec => ({
  service: 'df',
  poll: 'describeDeployment',
  input: { deploymentCrn: 'response.deployment.crn || request.deploymentCrn' },
  state: 'deployment.status.state',
  label: 'deployment.name',
  success,
  failure: DEPLOYMENT_FAILED,
  reason: 'deployment.status.message',
  interval: 5,
  timeout: 3600,
});

/** A deployed flow's state, read from the control plane. */
const flowWait = (success: readonly string[]): WaiterSpec => ({
  service: 'df',
  poll: 'describeFlowInDeployment',
  input: {
    deploymentCrn: 'request.deploymentCrn',
    deployedFlowCrn: 'response.deployedFlow.crn || request.deployedFlowCrn',
  },
  state: 'deployedFlow.status.state',
  label: 'deployedFlow.name',
  success,
  failure: ['BAD_HEALTH'],
  reason: 'deployedFlow.status.message',
  interval: 5,
  timeout: 1800,
});

const TERMINATE_WAIT: WaiterSpec = {
  service: 'df',
  poll: 'describeDeployment',
  input: { deploymentCrn: 'request.deploymentCrn' },
  state: 'deployment.status.state',
  label: 'deployment.name',
  success: ['TERMINATED'],
  goneIsSuccess: true,
  interval: 5,
  timeout: 3600,
};

const CONFIG_VERSION: Rule = {
  kind: 'custom',
  field: 'configurationVersion',
  check: (r) =>
    typeof r.configurationVersion === 'number' && r.configurationVersion < 0 ? 'the configuration version cannot be negative' : undefined,
};

const DEPLOYMENT_COLUMNS = {
  name: 'name',
  crn: 'crn',
  state: 'status.state',
  detail: 'status.detailedState',
  nodes: 'currentNodeCount',
  nifi: 'cfmNifiVersion',
};
const FLOW_COLUMNS = { name: 'name', crn: 'crn', state: 'status.state', detail: 'status.detailedState', version: 'flowVersion' };
const CONFIG_COLUMNS = { crn: 'crn', storage: 'storageLocation', user: 'username', version: 'configurationVersion' };

const cli: Record<string, OperationCli> = {
  // deployments
  createDeployment: {
    command: 'deployments create',
    summary: 'Create a deployment of a flow from a deployment request.',
    description:
      'The deployment request comes from the DataFlow control plane; upload any assets it needs with "dataflow assets upload --deployment-request-crn" first.',
    examples: [`${ENV} --name sales-ingest --deployment-request-crn ${DEP_REQ} --configuration-version 0 --cluster-size name=SMALL --wait`],
    rules: [
      CONFIG_VERSION,
      {
        kind: 'custom',
        field: 'autoScaleMinNodes',
        check: (r) =>
          typeof r.autoScaleMinNodes === 'number' && typeof r.autoScaleMaxNodes === 'number' && r.autoScaleMinNodes > r.autoScaleMaxNodes
            ? 'the minimum node count is above the maximum'
            : undefined,
      },
    ],
    fieldHelp: {
      name: 'Deployment name, unique in the environment',
      autoScalingEnabled: 'Scale between --auto-scale-min-nodes and --auto-scale-max-nodes',
      flowMetricsScalingEnabled: 'Let flow metrics drive auto-scaling too (with --auto-scaling-enabled)',
      autoStartFlow: 'Start the flow once deployed (default true)',
      deployedFlowName: 'Name the flow gets inside the deployment',
      customNarConfigurationCrn: 'Custom NAR configuration the deployment reads extra NiFi archives from',
      customPythonConfigurationCrn: 'Custom Python configuration the deployment reads Python processors from',
      nodeStorageProfileName: 'Disk profile of the nodes; CUSTOM_AWS and CUSTOM_AZURE take --node-storage',
      nodeStorage: 'Per-repository disk profiles (content, provenance, flow file) for a CUSTOM_* storage profile',
      pythonWorkDirectorySize: 'Size of the extra volume mounted for flows with Python processors',
    },
    columns: DEPLOYMENT_COLUMNS,
    wait: deploymentWait(['GOOD_HEALTH', 'CONCERNING_HEALTH']),
  },
  updateDeployment: {
    command: 'deployments update',
    summary: 'Change the sizing, scaling, KPIs or inbound settings of a deployment.',
    examples: [`${ENV} --deployment-crn ${DEP} --configuration-version 3 --auto-scale-min-nodes 1 --auto-scale-max-nodes 4`],
    rules: [CONFIG_VERSION],
    fieldHelp: {
      deactivateInboundConnection: 'Detach the inbound connection endpoint',
      customNarConfigurationCrn: 'Custom NAR configuration to switch to',
      customPythonConfigurationCrn: 'Custom Python configuration to switch to',
      cliSupportsMultiFlow: 'Internal; always sent as true, as the official CLI does',
    },
    // As the official CLI sends it: always multi-flow aware, KPI units completed, local assets uploaded.
    prepare: (r) => {
      labelKpiUnits(r);
      r.cliSupportsMultiFlow = true;
    },
    assetUploads: ASSET_UPLOADS,
  },
  terminateDeployment: {
    command: 'deployments terminate',
    summary: 'Terminate a deployment and the flows in it.',
    examples: [`${ENV} --deployment-crn ${DEP} --yes --wait`],
    destructive: true,
    wait: TERMINATE_WAIT,
  },
  suspendDeployment: {
    command: 'deployments suspend',
    summary: 'Suspend a deployment: its nodes are released and its flows stop.',
    examples: [`${ENV} --deployment-crn ${DEP} --wait`],
    wait: deploymentWait(['SUSPENDED']),
  },
  resumeDeployment: {
    command: 'deployments resume',
    summary: 'Resume a suspended deployment.',
    examples: [`${ENV} --deployment-crn ${DEP} --wait`],
    wait: deploymentWait(['GOOD_HEALTH', 'CONCERNING_HEALTH']),
  },
  restartDeployment: {
    command: 'deployments restart',
    summary: 'Restart the NiFi nodes of a deployment.',
    examples: [`${ENV} --deployment-crn ${DEP} --wait`, `${ENV} --deployment-crn ${DEP} --force-stop-flow`],
    fieldHelp: { forceStopFlow: 'Stop flows that do not stop on their own' },
    wait: deploymentWait(['GOOD_HEALTH', 'CONCERNING_HEALTH']),
  },
  exportDeployment: {
    command: 'deployments export',
    summary: 'Save a deployment and its flows as a named archive that can be imported later.',
    examples: [`${ENV} --deployment-crn ${DEP} --archive-description "before the upgrade"`],
    fieldHelp: { archiveDescription: 'Free text stored with the archive' },
  },
  importDeployment: {
    command: 'deployments import',
    summary: 'Read the configuration of an exported archive into a deployment request.',
    examples: [`${ENV} --deployment-request-crn ${DEP_REQ} --archive-name sales-ingest-20260101T000000Z`],
  },
  listDeploymentArchives: {
    command: 'deployments archives',
    summary: 'List the exported deployment archives.',
    examples: [ENV, `${ENV} --search-term sales --output table`],
    listKey: 'archives',
    columns: { archive: 'archiveName', deployment: 'deploymentName', flow: 'flowName', modified: 'modifiedTime' },
    fieldHelp: { searchTerm: 'Only archives whose name contains this text' },
  },
  getDeploymentConfiguration: {
    command: 'deployments configuration',
    summary: 'Show the configuration of a deployment with its version.',
    examples: [`${ENV} --deployment-crn ${DEP}`],
  },
  getDeploymentConfigurationMetadata: {
    command: 'deployments configuration-metadata',
    summary: 'Show what can be configured on a deployment: sizes, storage profiles, KPI metrics.',
    examples: [`${ENV} --deployment-crn ${DEP}`],
  },
  getDeploymentRequestDetails: {
    command: 'deployments request-details',
    summary: 'Show the flow and parameters of a deployment request, registering the request.',
    examples: [`${ENV} --deployment-request-crn ${DEP_REQ}`],
  },
  abortDeploymentRequest: {
    command: 'deployments abort-request',
    summary: 'Abandon a deployment request and the assets uploaded for it.',
    examples: [`${ENV} --deployment-request-crn ${DEP_REQ}`],
  },
  startAllFlowsInDeployment: {
    command: 'deployments start-all-flows',
    summary: 'Start every flow of a deployment.',
    examples: [`${ENV} --deployment-crn ${DEP}`],
  },
  stopAllFlowsInDeployment: {
    command: 'deployments stop-all-flows',
    summary: 'Stop every flow of a deployment.',
    examples: [`${ENV} --deployment-crn ${DEP} --wait-for-flow-to-stop-in-minutes 10`],
  },
  updateNifiVersion: {
    command: 'deployments update-nifi-version',
    summary: 'Move a deployment to another NiFi version.',
    examples: [`${ENV} --deployment-crn ${DEP} --cfm-nifi-version 1.27.0.2.3.15.0-12`],
  },
  cancelNifiVersionUpdate: {
    command: 'deployments cancel-nifi-version-update',
    summary: 'Stop a NiFi version change that is under way.',
    examples: [`${ENV} --deployment-crn ${DEP}`],
  },
  changeFlowVersion: {
    command: 'deployments change-flow-version',
    summary: 'Change the flow version of a single-flow deployment (deprecated).',
    examples: [`${ENV} --deployment-crn ${DEP} --deployment-request-crn ${DEP_REQ}`],
    replacement: 'flows change-version',
  },
  cancelChangeFlowVersion: {
    command: 'deployments cancel-change-flow-version',
    summary: 'Cancel a flow version change of a single-flow deployment (deprecated).',
    examples: [`${ENV} --deployment-crn ${DEP}`],
    replacement: 'flows cancel-change-version',
  },
  startFlow: {
    command: 'deployments start-flow',
    summary: 'Start the flow of a single-flow deployment (deprecated).',
    examples: [`${ENV} --deployment-crn ${DEP}`],
    replacement: 'flows start',
  },
  stopFlow: {
    command: 'deployments stop-flow',
    summary: 'Stop the flow of a single-flow deployment (deprecated).',
    examples: [`${ENV} --deployment-crn ${DEP}`],
    replacement: 'flows stop',
  },

  // flows inside deployments
  addFlowToDeployment: {
    command: 'flows add',
    summary: 'Add another flow to a running deployment.',
    examples: [`${ENV} --deployment-crn ${DEP} --name orders --deployed-flow-request-crn ${FLOW_REQ} --configuration-version 0`],
    rules: [CONFIG_VERSION],
    fieldHelp: { name: 'Flow name, unique in the deployment', autoStartFlow: 'Start the flow once added (default true)' },
    columns: FLOW_COLUMNS,
  },
  importFlowIntoDeployment: {
    command: 'flows import',
    summary: 'Read one flow of an exported archive into a flow deployment request.',
    examples: [`${ENV} --archive-name sales-ingest-20260101T000000Z --flow-name orders --deployed-flow-request-crn ${FLOW_REQ}`],
  },
  startFlowInDeployment: {
    command: 'flows start',
    summary: 'Start a flow of a deployment.',
    examples: [`${ENV} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW} --wait`],
    wait: flowWait(['GOOD_HEALTH', 'CONCERNING_HEALTH']),
  },
  stopFlowInDeployment: {
    command: 'flows stop',
    summary: 'Stop a flow of a deployment.',
    examples: [`${ENV} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW} --wait`],
    wait: flowWait(['FLOW_STOPPED']),
  },
  terminateFlowInDeployment: {
    command: 'flows terminate',
    summary: 'Remove a flow from its deployment.',
    examples: [`${ENV} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW} --yes`],
    destructive: true,
  },
  updateFlowInDeployment: {
    command: 'flows update',
    summary: 'Change the parameters or KPIs of a flow in a deployment.',
    examples: [
      `${ENV} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW} --configuration-version 2 --parameter-groups '[{"name":"kafka","parameters":[{"name":"topic","value":"orders"}]}]'`,
    ],
    rules: [CONFIG_VERSION],
    prepare: labelKpiUnits,
    assetUploads: ASSET_UPLOADS,
  },
  changeFlowVersionInDeployment: {
    command: 'flows change-version',
    summary: 'Move a flow of a deployment to another flow version.',
    examples: [`${ENV} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW} --deployment-request-crn ${DEP_REQ} --wait`],
    wait: flowWait(['GOOD_HEALTH', 'CONCERNING_HEALTH']),
  },
  cancelChangeFlowVersionInDeployment: {
    command: 'flows cancel-change-version',
    summary: 'Cancel a flow version change that is under way.',
    examples: [`${ENV} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW}`],
  },
  getFlowConfigurationInDeployment: {
    command: 'flows configuration',
    summary: 'Show the configuration of a flow in a deployment with its version.',
    examples: [`${ENV} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW}`],
  },
  getFlowConfigurationMetadataInDeployment: {
    command: 'flows configuration-metadata',
    summary: 'Show what can be configured on a flow: parameters and KPI metrics.',
    examples: [`${ENV} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW}`],
  },
  getFlowRequestDetailsInDeployment: {
    command: 'flows request-details',
    summary: 'Show the flow and parameters of a flow deployment request, registering the request.',
    examples: [`${ENV} --deployed-flow-request-crn ${FLOW_REQ}`],
  },
  abortFlowRequestInDeployment: {
    command: 'flows abort-request',
    summary: 'Abandon a flow deployment request.',
    examples: [`${ENV} --deployed-flow-request-crn ${FLOW_REQ}`],
  },

  // custom NAR configurations
  createCustomNarConfiguration: {
    command: 'nar-configs create',
    summary: 'Create a custom NAR configuration: where deployments find extra NiFi archives.',
    examples: [
      `${ENV} --storage-location s3a://bucket/nars --username svc-nars --password file://nar-secret.txt --configuration-version 0`,
    ],
    rules: [CONFIG_VERSION],
    columns: CONFIG_COLUMNS,
  },
  getCustomNarConfiguration: {
    command: 'nar-configs get',
    summary: 'Show a custom NAR configuration, by CRN or by the deployment using it.',
    examples: [`${ENV} --custom-nar-configuration-crn ${NAR}`, `${ENV} --deployment-crn ${DEP}`],
    rules: [
      {
        kind: 'anyOf',
        fields: ['customNarConfigurationCrn', 'deploymentCrn'],
        message: 'give --custom-nar-configuration-crn or --deployment-crn',
      },
    ],
  },
  updateCustomNarConfiguration: {
    command: 'nar-configs update',
    summary: 'Change the storage location or credentials of a custom NAR configuration.',
    examples: [
      `${ENV} --crn ${NAR} --storage-location s3a://bucket/nars2 --username svc-nars --password file://nar-secret.txt --configuration-version 1`,
    ],
    fieldHelp: { crn: NAR_CRN },
    rules: [CONFIG_VERSION],
  },
  deleteCustomNarConfiguration: {
    command: 'nar-configs delete',
    summary: 'Delete a custom NAR configuration no deployment uses.',
    examples: [`${ENV} --custom-nar-configuration-crn ${NAR} --configuration-version 1 --yes`],
    destructive: true,
  },
  validateCustomNarConfiguration: {
    command: 'nar-configs validate',
    summary: 'Check a custom NAR configuration without saving it.',
    examples: [
      `${ENV} --storage-location s3a://bucket/nars --username svc-nars --password file://nar-secret.txt --configuration-version 0`,
    ],
  },
  getDefaultCustomNarConfiguration: {
    command: 'nar-configs default',
    summary: 'Show the default custom NAR configuration of the environment (deprecated).',
    examples: [ENV],
    replacement: 'nar-configs get',
  },

  // custom Python configurations
  createCustomPythonConfiguration: {
    command: 'python-configs create',
    summary: 'Create a custom Python configuration: where deployments find Python processors.',
    examples: [`${ENV} --storage-location s3a://bucket/python --username svc-py --password file://py-secret.txt --configuration-version 0`],
    rules: [CONFIG_VERSION],
    columns: CONFIG_COLUMNS,
  },
  getCustomPythonConfiguration: {
    command: 'python-configs get',
    summary: 'Show a custom Python configuration, by CRN or by the deployment using it.',
    examples: [`${ENV} --custom-python-configuration-crn ${PY}`],
    rules: [
      {
        kind: 'anyOf',
        fields: ['customPythonConfigurationCrn', 'deploymentCrn'],
        message: 'give --custom-python-configuration-crn or --deployment-crn',
      },
    ],
  },
  updateCustomPythonConfiguration: {
    command: 'python-configs update',
    summary: 'Change the storage location or credentials of a custom Python configuration.',
    examples: [
      `${ENV} --crn ${PY} --storage-location s3a://bucket/python2 --username svc-py --password file://py-secret.txt --configuration-version 1`,
    ],
    fieldHelp: { crn: PY_CRN },
    rules: [CONFIG_VERSION],
  },
  deleteCustomPythonConfiguration: {
    command: 'python-configs delete',
    summary: 'Delete a custom Python configuration no deployment uses.',
    examples: [`${ENV} --custom-python-configuration-crn ${PY} --configuration-version 1 --yes`],
    destructive: true,
  },
  validateCustomPythonConfiguration: {
    command: 'python-configs validate',
    summary: 'Check a custom Python configuration without saving it.',
    examples: [`${ENV} --storage-location s3a://bucket/python --username svc-py --password file://py-secret.txt --configuration-version 0`],
  },

  // reporting tasks
  createReportingTask: {
    command: 'reporting-tasks create',
    summary: 'Create a reporting task in a deployment from a definition file.',
    examples: [`${ENV} --deployment-crn ${DEP} --file-path ./prometheus-task.json`],
    fieldHelp: { filePath: 'Reporting task definition (JSON) to upload; it is streamed' },
    upload: {
      path: '/dfx/api/rpc-v1/deployments/create-reporting-task-content',
      fileField: 'filePath',
      // As the official CLI sends it: the environment is the workload token's, never a header.
      headers: { deploymentCrn: 'Deployment-Crn', filePath: 'File-Path' },
    },
  },
  deleteReportingTask: {
    command: 'reporting-tasks delete',
    summary: 'Delete a reporting task of a deployment.',
    examples: [`${ENV} --deployment-crn ${DEP} --reporting-task-crn crn:cdp:df:us-west-1:acct:reportingTask:1 --yes`],
    destructive: true,
  },
  listReportingTasks: {
    command: 'reporting-tasks list',
    summary: 'List reporting tasks, of one deployment or of the environment.',
    examples: [ENV, `${ENV} --deployment-crn ${DEP} --output table`],
    listKey: 'reportingTasks',
    columns: { name: 'name', type: 'type', crn: 'crn' },
  },

  // assets
  uploadAsset: {
    command: 'assets upload',
    summary: 'Upload a file for a parameter of a deployment request or of an asset update request.',
    description:
      'The file is streamed as the request body; the other fields travel as headers. Use --deployment-request-crn with --deployment-name for a new deployment, or --asset-update-request-crn for a running one.',
    examples: [
      `${ENV} --deployment-request-crn ${DEP_REQ} --deployment-name sales-ingest --parameter-group kafka --parameter-name truststore --file-path ./truststore.jks`,
      `${ENV} --asset-update-request-crn ${ASSET_REQ} --deployed-flow-name orders --parameter-group kafka --parameter-name truststore --file-path ./truststore.jks`,
    ],
    rules: [
      {
        kind: 'anyOf',
        fields: ['deploymentRequestCrn', 'assetUpdateRequestCrn'],
        message: 'give --deployment-request-crn (new deployment) or --asset-update-request-crn (running deployment)',
      },
      { kind: 'exclusive', fields: ['deploymentRequestCrn', 'assetUpdateRequestCrn'] },
    ],
    fieldHelp: {
      parameterGroup: 'Parameter group (context) the parameter is in',
      deploymentName: 'Name of the deployment being created',
      deployedFlowName: 'Flow of the deployment the asset is for',
    },
    upload: {
      path: '/dfx/api/rpc-v1/deployments/upload-asset-content',
      fileField: 'filePath',
      // As the official CLI sends it: the environment is the workload token's, never a header.
      headers: {
        deploymentRequestCrn: 'Deployment-Request-Crn',
        deploymentName: 'Deployment-Name',
        assetUpdateRequestCrn: 'Asset-Update-Request-Crn',
        deployedFlowName: 'Deployed-Flow-Name',
        parameterGroup: 'Parameter-Group',
        parameterName: 'Parameter-Name',
        filePath: 'File-Path',
      },
    },
  },
  createAssetUpdateRequest: {
    command: 'assets update-request',
    summary: 'Open an asset update request for a running deployment, to upload new assets under.',
    examples: [`${ENV} --deployment-crn ${DEP}`, `${ENV} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW}`],
  },
  abortAssetUpdateRequest: {
    command: 'assets abort-update-request',
    summary: 'Abandon an asset update request and the files uploaded under it.',
    examples: [`${ENV} --deployment-crn ${DEP} --asset-update-request-crn ${ASSET_REQ}`],
  },

  // parameter groups
  createParameterGroup: {
    command: 'parameter-groups create',
    summary: 'Create a shared parameter group that flows can use.',
    examples: [`${ENV} --name kafka-prod --description "Kafka brokers" --parameters '[{"name":"brokers","value":"b1:9093"}]'`],
    fieldHelp: {
      name: 'Group name, unique in the environment',
    },
  },
  describeParameterGroup: {
    command: 'parameter-groups describe',
    summary: 'Show a parameter group with its parameters.',
    examples: [`${ENV} --parameter-group-crn ${PG}`],
  },
  updateParameterGroup: {
    command: 'parameter-groups update',
    summary: 'Change the description or parameters of a parameter group.',
    examples: [`${ENV} --parameter-group-crn ${PG} --parameters '[{"name":"brokers","value":"b2:9093"}]'`],
  },
  deleteParameterGroup: {
    command: 'parameter-groups delete',
    summary: 'Delete a parameter group no flow uses.',
    examples: [`${ENV} --parameter-group-crn ${PG} --yes`],
    destructive: true,
  },
  duplicateParameterGroup: {
    command: 'parameter-groups duplicate',
    summary: 'Copy a parameter group under a new name.',
    examples: [`${ENV} --parameter-group-crn ${PG} --new-parameter-group-name kafka-test`],
    fieldHelp: { newParameterGroupName: 'Name of the copy, unique in the environment' },
  },
  listParameterGroups: {
    command: 'parameter-groups list',
    summary: 'List parameter groups.',
    examples: [ENV, `${ENV} --search-term kafka --output table`],
    fieldHelp: {
      projectCrns: 'Only groups of these projects (CRNs)',
      searchTerm: 'Only groups whose name contains this text',
    },
    listKey: 'parameterGroups',
    columns: { name: 'name', crn: 'crn', version: 'version', description: 'description' },
  },
  uploadParameterAsset: {
    command: 'parameter-groups upload-asset',
    summary: 'Upload a file for a parameter of a parameter group.',
    examples: [`${ENV} --parameter-group-crn ${PG} --parameter-name truststore --file-path ./truststore.jks`],
    fieldHelp: { parameterName: 'Parameter of the group that refers to the file' },
    rules: [
      {
        kind: 'custom',
        field: 'parameterGroupCrn',
        check: (r) =>
          r.parameterGroupCrn && r.parameterName && r.filePath ? undefined : 'give --parameter-group-crn, --parameter-name and --file-path',
      },
    ],
    upload: {
      path: '/dfx/api/rpc-v1/parameter-groups/upload-parameter-asset-content',
      fileField: 'filePath',
      headers: {
        environmentCrn: 'Environment-Crn',
        parameterGroupCrn: 'Parameter-Group-Crn',
        parameterName: 'Parameter-Name',
        filePath: 'File-Path',
      },
    },
  },

  // inbound connection endpoints
  createInboundConnectionEndpoint: {
    command: 'inbound-endpoints create',
    summary: 'Reserve an inbound connection endpoint (a host name clients send data to).',
    examples: [ENV, `${ENV} --hostname ingest.env1.example.com`],
    fieldHelp: { hostname: 'Host name to reserve (default: one is made up)' },
  },
  describeInboundConnectionEndpoint: {
    command: 'inbound-endpoints describe',
    summary: 'Show an inbound connection endpoint and its certificates.',
    examples: [`${ENV} --crn ${INBOUND}`],
  },
  deleteInboundConnectionEndpoint: {
    command: 'inbound-endpoints delete',
    summary: 'Delete an inbound connection endpoint no deployment uses.',
    examples: [`${ENV} --crn ${INBOUND} --yes`],
    destructive: true,
  },
  listInboundConnectionEndpoints: {
    command: 'inbound-endpoints list',
    summary: 'List the inbound connection endpoints of the environment.',
    examples: [ENV, `${ENV} --output table`],
    listKey: 'inboundConnectionEndpoints',
    columns: { host: 'fullyQualifiedDomainName', state: 'state', deployment: 'deploymentCrn', crn: 'crn' },
  },
  renewInboundConnectionEndpointCertificates: {
    command: 'inbound-endpoints renew-certificates',
    summary: 'Renew the server or client certificates of an inbound connection endpoint.',
    examples: [
      `${ENV} --crn ${INBOUND} --renew-server-certificate`,
      `${ENV} --crn ${INBOUND} --renew-client-certificates --revoke-client-certificates`,
    ],
    fieldHelp: {
      renewServerCertificate: 'Issue a new server certificate for the endpoint',
      renewClientCertificates: 'Issue new client certificates (see `dataflow client-certificates`)',
      revokeClientCertificates: 'Also revoke the current client certificates (with --renew-client-certificates)',
    },
    rules: [
      {
        kind: 'custom',
        field: 'renewServerCertificate',
        check: (r) =>
          r.renewServerCertificate || r.renewClientCertificates
            ? undefined
            : 'nothing to renew: give --renew-server-certificate and/or --renew-client-certificates',
      },
      { kind: 'requires', field: 'revokeClientCertificates', needs: 'renewClientCertificates' },
    ],
  },
  getClientCertificatesEncoded: {
    command: 'client-certificates',
    summary: 'Download the client certificate and key of an inbound connection endpoint (base64).',
    examples: [`${ENV} --crn ${INBOUND}`, `${ENV} --crn ${INBOUND} --decode`],
    decode: ['clientCertificate', 'clientPrivateKey'],
  },

  // the rest
  listNifiVersions: {
    command: 'nifi-versions list',
    summary: 'List the NiFi versions deployments can run.',
    examples: [ENV],
    listKey: 'nifiVersions',
  },
  listTestSessions: {
    command: 'test-sessions list',
    summary: 'List the flow designer test sessions.',
    examples: [ENV, `${ENV} --output table`],
    listKey: 'runtimeSessions',
    columns: { flow: 'flowName', crn: 'crn', session: 'runtimeSession.name', state: 'runtimeSession.status.state' },
  },
  restartTestSession: {
    command: 'test-sessions restart',
    summary: 'Restart the test session of a flow draft.',
    examples: [`${ENV} --flow-draft-crn ${DRAFT}`],
  },
  suspendTestSession: {
    command: 'test-sessions suspend',
    summary: 'Suspend the test session of a flow draft.',
    examples: [`${ENV} --flow-draft-crn ${DRAFT}`],
  },
  terminateTestSession: {
    command: 'test-sessions terminate',
    summary: 'End the test session of a flow draft.',
    examples: [`${ENV} --flow-draft-crn ${DRAFT} --yes`],
    destructive: true,
  },
  listFlowDrafts: {
    command: 'flow-drafts list',
    summary: 'List the flow drafts of the flow designer.',
    examples: [ENV, `${ENV} --output table`],
    listKey: 'flowSummaries',
    columns: { flow: 'flowName', crn: 'crn', modified: 'lastModified', by: 'lastModifiedBy' },
  },
  deleteFlowDraft: {
    command: 'flow-drafts delete',
    summary: 'Delete a flow draft that has no running test session.',
    examples: [`${ENV} --flow-draft-crn ${DRAFT} --yes`],
    destructive: true,
  },
  reassignResources: {
    command: 'resources reassign',
    summary: 'Move deployments, parameter groups and other resources to another project (or to none).',
    examples: [
      `${ENV} --workload-resource-summaries '[{"resourceCrn":"${DEP}"}]' --destination-project-crn crn:cdp:df:us-west-1:acct:project:p1`,
    ],
    fieldHelp: {
      workloadResourceSummaries: 'Resources to move: [{"resourceCrn":"<CRN>","projectCrn":"<its current project, if any>"}]',
      destinationProjectCrn: 'Project to move to; leave out to take the resources out of their project',
    },
  },
};

const definition: ServiceDefinition = {
  name: 'dfworkload',
  topic: 'dataflow',
  summary: 'DataFlow workloads: deployments, flows, parameter groups, assets and custom configurations.',
  endpoint: 'workload',
  facts: service,
  topics: {
    deployments: 'Flow deployments: create, size, suspend, export and terminate.',
    flows: 'Flows inside a deployment.',
    'nar-configs': 'Custom NAR (NiFi archive) configurations.',
    'python-configs': 'Custom Python processor configurations.',
    'reporting-tasks': 'Reporting tasks of deployments.',
    assets: 'Files that flow parameters refer to.',
    'parameter-groups': 'Shared parameter groups.',
    'inbound-endpoints': 'Inbound connection endpoints.',
    'nifi-versions': 'NiFi versions available.',
    'test-sessions': 'Flow designer test sessions.',
    'flow-drafts': 'Flow designer drafts.',
    resources: 'Project assignment of workload resources.',
  },
  fieldHelp: COMMON_HELP,
  shapes,
  wire: operations,
  cli,
};

export default definition;
