/**
 * The six `cdp df` commands that are no wire operation of the df service:
 * the official CLI runs them on the client, calling df (signed) and the
 * DataFlow workload API (dfworkload, with the workload token) in turn. Their
 * requests and answers are what those commands take and print; the steps
 * live in src/lib/customizations/df.ts. Written in the model's own format
 * from what `cdp` 0.9.158 accepts for each command.
 */
import type { ComposedOperation, Shapes } from '../../types.js';

const STRATEGY = 'string enum=STOP_AND_PROCESS_DATA|STOP_AND_EMPTY_QUEUES|ONLY_RESTART_AFFECTED_COMPONENTS';
const AZURE_DISK = 'string enum=AZURE_P6|AZURE_P10|AZURE_P15|AZURE_P30';

/** What a flow version change (or its retry) takes besides the resource it changes. */
const CHANGE = {
  strategy: STRATEGY,
  waitForFlowToStopInMinutes: 'int32',
  parameterGroups: '[UpdatedFlowParameterGroup]',
  kpis: '[DeploymentKeyPerformanceIndicator]',
} as const;

/** The answer of the commands that act on one resource: its CRN. */
const CRN = { crn: 'string' } as const;

export const composedShapes: Shapes = {
  CreateDeploymentRequest: {
    serviceCrn: 'string!',
    flowVersionCrn: 'string!',
    deploymentName: 'string!',
    flowName: 'string',
    fromArchive: 'string',
    importArchiveFlowName: 'string',
    importParametersFrom: 'string',
    clusterSize: 'DeploymentClusterSize',
    staticNodeCount: 'int32',
    autoScalingEnabled: 'boolean',
    flowMetricsScalingEnabled: 'boolean',
    autoScaleMinNodes: 'int32',
    autoScaleMaxNodes: 'int32',
    cfmNifiVersion: 'string',
    autoStartFlow: 'boolean',
    parameterGroups: '[DeploymentFlowParameterGroup]',
    kpis: '[DeploymentKeyPerformanceIndicator]',
    customNarConfiguration: 'CustomStorageConfiguration',
    customPythonConfiguration: 'CustomStorageConfiguration',
    inboundHostname: 'string',
    listenComponents: '[DeploymentListenComponent]',
    inboundConnectionAuthorizedIpRanges: '[string] unique',
    ignoreDeploymentInboundConfigurationChecks: 'boolean',
    nodeStorageProfileName: 'string enum=STANDARD_AWS|STANDARD_AZURE|PERFORMANCE_AWS|PERFORMANCE_AZURE',
    nodeStorage: 'DeploymentNodeStorage',
    projectCrn: 'string',
  },
  CreateDeploymentResponse: {
    deploymentCrn: 'string',
  },
  AddFlowToDeploymentRequest: {
    deploymentCrn: 'string!',
    flowVersionCrn: 'string!',
    name: 'string!',
    fromArchive: 'string',
    importArchiveFlowName: 'string',
    autoStartFlow: 'boolean',
    parameterGroups: '[DeploymentFlowParameterGroup]',
    kpis: '[DeploymentKeyPerformanceIndicator]',
    ignoreDeploymentInboundConfigurationChecks: 'boolean',
  },
  AddFlowToDeploymentResponse: CRN,
  ChangeFlowVersionRequest: {
    serviceCrn: 'string!',
    flowVersionCrn: 'string!',
    deploymentCrn: 'string!',
    ...CHANGE,
    ignoreDeploymentInboundConfigurationChecks: 'boolean',
  },
  ChangeFlowVersionResponse: CRN,
  ChangeFlowVersionInDeploymentRequest: {
    serviceCrn: 'string!',
    flowVersionCrn: 'string!',
    deploymentCrn: 'string!',
    deployedFlowCrn: 'string!',
    ...CHANGE,
    ignoreDeploymentInboundConfigurationChecks: 'boolean',
  },
  ChangeFlowVersionInDeploymentResponse: CRN,
  RetryChangeFlowVersionRequest: {
    serviceCrn: 'string!',
    deploymentCrn: 'string!',
    ...CHANGE,
  },
  RetryChangeFlowVersionResponse: CRN,
  RetryChangeFlowVersionInDeploymentRequest: {
    serviceCrn: 'string!',
    deploymentCrn: 'string!',
    deployedFlowCrn: 'string!',
    ...CHANGE,
  },
  RetryChangeFlowVersionInDeploymentResponse: CRN,

  DeploymentClusterSize: {
    name: 'string enum=EXTRA_SMALL|SMALL|MEDIUM|LARGE|CUSTOM',
    coresPerNode: 'double',
    memoryLimit: 'double',
  },
  /** A new flow's parameters: asset references are local file paths. */
  DeploymentFlowParameterGroup: {
    name: 'string!',
    parameters: '[DeploymentFlowParameter]!',
    inheritedParameterGroups: '[ParameterGroupReference]',
  },
  DeploymentFlowParameter: {
    name: 'string!',
    value: 'string',
    assetReferences: '[string]',
    sourceParameterGroupId: 'string',
  },
  /** A running flow's parameters: asset references name a kept asset or a local path to upload. */
  UpdatedFlowParameterGroup: {
    name: 'string!',
    parameters: '[UpdatedFlowParameter]!',
    inheritedParameterGroups: '[ParameterGroupReference]',
  },
  UpdatedFlowParameter: {
    name: 'string!',
    value: 'string',
    assetReferences: '[UpdatedAssetReference]',
    sourceParameterGroupId: 'string',
  },
  UpdatedAssetReference: {
    name: 'string',
    path: 'string',
  },
  ParameterGroupReference: {
    groupId: 'string!',
  },
  DeploymentKeyPerformanceIndicator: {
    metricId: 'string!',
    componentId: 'string',
    alert: 'DeploymentAlert',
  },
  DeploymentAlert: {
    thresholdMoreThan: 'DeploymentAlertThreshold',
    thresholdLessThan: 'DeploymentAlertThreshold',
    frequencyTolerance: 'DeploymentFrequencyTolerance',
  },
  DeploymentAlertThreshold: {
    unitId: 'string',
    value: 'double',
  },
  DeploymentFrequencyTolerance: {
    value: 'double',
    unit: 'DeploymentFrequencyUnit',
  },
  DeploymentFrequencyUnit: {
    id: 'string enum=SECONDS|MINUTES|HOURS|DAYS',
  },
  CustomStorageConfiguration: {
    username: 'string!',
    password: 'string! secret',
    storageLocation: 'string!',
    configurationVersion: 'int32!',
  },
  DeploymentListenComponent: {
    protocol: 'string! enum=TCP|UDP',
    port: 'string!',
  },
  DeploymentNodeStorage: {
    azureContentRepoProfile: AZURE_DISK,
    azureProvenanceRepoProfile: AZURE_DISK,
    azureFlowFileRepoProfile: AZURE_DISK,
    awsContentRepoProfile: 'AwsNodeStorageProfile',
    awsProvenanceRepoProfile: 'AwsNodeStorageProfile',
    awsFlowFileRepoProfile: 'AwsNodeStorageProfile',
  },
  AwsNodeStorageProfile: {
    repoSize: 'int32',
    iops: 'string',
    throughput: 'string',
  },
};

const op = (name: string, deprecated = false): ComposedOperation => ({
  input: `${name}Request`,
  output: `${name}Response`,
  mutating: true,
  ...(deprecated ? { deprecated: true } : {}),
});

export const composedOperations: Readonly<Record<string, ComposedOperation>> = {
  createDeployment: op('CreateDeployment'),
  addFlowToDeployment: op('AddFlowToDeployment'),
  changeFlowVersion: op('ChangeFlowVersion', true),
  changeFlowVersionInDeployment: op('ChangeFlowVersionInDeployment'),
  retryChangeFlowVersion: op('RetryChangeFlowVersion', true),
  retryChangeFlowVersionInDeployment: op('RetryChangeFlowVersionInDeployment'),
};
