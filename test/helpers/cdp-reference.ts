/**
 * Facts about the official CLI (`cdp` 0.9.158) that tests pin cdpctl
 * against, read from its source once (CI cannot run it; ../shared/refcli).
 */

/** The global options of cdpcli/data/cli.json, less --version (answered before any command). */
export const CDP_GLOBAL_OPTIONS: readonly string[] = [
  'debug',
  'no-verify-tls',
  'ca-bundle',
  'endpoint-url',
  'form-factor',
  'force-ipv4',
  'access-token',
  'output',
  'color',
  'cli-read-timeout',
  'cli-connect-timeout',
  'no-paginate',
  'auth-config',
  'profile',
  'cdp-region',
  'ensure-ascii',
  'deprecated',
  'no-parameter-expansion',
];

/**
 * What cdpctl's model has that cdp 0.9.158's models (cdpcli/data/<service>/<service>.yaml)
 * lack, found by comparing the two: the fields of the answers and of the
 * requests of the operations it has (`<service> <operation> <path>`), the
 * operations it has not, and the services it has not at all.
 */
export const CDP_MODEL_LACKS = {
  answers: [
    'de describeService service.version',
    'de enableService service.version',
    'dw describeVw vw.imageVersion',
    'dw describeVw vw.associatedConnectors',
    'dw listVws vws[].imageVersion',
    'dw listVws vws[].associatedConnectors',
    'dw restoreCluster trinoRestorePlans',
  ],
  requests: [
    'de createVc enableComputeOverride',
    'de updateVc enableComputeOverride',
    'dfworkload addFlowToDeployment useSharedParameterGroupCrn',
    'dfworkload changeFlowVersionInDeployment updateSharedParameterGroupCrns',
    'dfworkload createDeployment useSharedParameterGroupCrn',
    'dfworkload updateFlowInDeployment updateSharedParameterGroupCrns',
    'dw createVw autoscaling.trinoDisableAutoScaling',
    'dw createVw autoscaling.trinoMaxWorkerCount',
    'dw createVw autoscaling.trinoMinWorkerCount',
    'dw createVw autoscaling.trinoShutdownGracePeriod',
    'dw createVw autoscaling.trinoScaleDownDelaySeconds',
    'dw createVw autoscaling.trinoScaleUpDelaySeconds',
    'dw updateVw associatedConnectors',
    'imagecatalog findDefaultImage architecture',
    'ml addInstanceGroups instanceGroups[].singleZone',
    'ml addInstanceGroups instanceGroups[].aws',
    'ml addInstanceGroupsMlServingApp instanceGroups[].singleZone',
    'ml addInstanceGroupsMlServingApp instanceGroups[].aws',
    'ml createMlServingApp provisionK8sRequest.instanceGroups[].singleZone',
    'ml createMlServingApp provisionK8sRequest.instanceGroups[].aws',
    'ml createWorkspace provisionK8sRequest.instanceGroups[].singleZone',
    'ml createWorkspace provisionK8sRequest.instanceGroups[].aws',
    'ml restoreWorkspace newWorkspaceParameters.provisionK8sRequest.instanceGroups[].singleZone',
    'ml restoreWorkspace newWorkspaceParameters.provisionK8sRequest.instanceGroups[].aws',
    'ml updateMlServingAppS3Creds registryNamespace',
    'ml updateMlServingAppS3Creds linkRegistry',
    'ml updateMlServingAppS3Creds envName',
    'ml upgradeWorkspace overrideUpgrade',
  ],
  operations: [
    'compute updateCluster',
    'datahub finalizeZookeeperToKraftMigration',
    'datahub migrateZookeeperToKraft',
    'datahub rollbackZookeeperToKraftMigration',
    'datahub setDefaultJavaVersion',
    'datalake setDefaultJavaVersion',
    'dfworkload createParameterGroup',
    'dfworkload deleteFlowDraft',
    'dfworkload deleteParameterGroup',
    'dfworkload describeParameterGroup',
    'dfworkload duplicateParameterGroup',
    'dfworkload listFlowDrafts',
    'dfworkload listParameterGroups',
    'dfworkload listTestSessions',
    'dfworkload restartTestSession',
    'dfworkload suspendTestSession',
    'dfworkload terminateTestSession',
    'dfworkload updateParameterGroup',
    'dfworkload uploadParameterAsset',
    'dw createConnector',
    'dw createConnectorTestJob',
    'dw deleteConnector',
    'dw listConnectorTestJobs',
    'dw listConnectors',
    'dw updateConnector',
    'ml fetchAiRegistriesStorageConfig',
    'opdb prepareUpgradeDatabase',
  ],
  services: ['lakehouseopt'],
} as const;
