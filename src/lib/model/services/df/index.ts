/**
 * DataFlow service (df): the CLI half of the df model. The control-plane side
 * of Cloudera DataFlow: the DataFlow service of an environment (enable,
 * update, upgrade, disable), deployments and the flows in them as the control
 * plane sees them (state, events, alerts, KPIs), the flow catalog (flow
 * definitions, their versions and tags, collections), ready flows, projects,
 * Kubernetes access and diagnostics. The workload side (changing a
 * deployment) is the `dataflow` topic (dfworkload).
 *
 * Six commands are no wire operation of df (see ./composed.ts): like `cdp`,
 * `deployments create`, `deployed-flows add`, the flow version changes and
 * their retries run several df and dfworkload calls on the client, and the
 * flow imports upload the definition file where the service redirects them
 * (src/lib/customizations/df.ts).
 *
 * --wait polls describeService for service work, describeDeployment and
 * describeFlowInDeployment for deployments and their flows, listDiagnostics
 * for a diagnostics collection and describeProject for project deletion.
 */
import type { OperationCli, Rule, ServiceDefinition, WaiterSpec } from '../../types.js';
import { composedOperations, composedShapes } from './composed.js';
import { operations, service, shapes } from './wire.js';

const ACCOUNT = '9d74eee4-1cad-45d7-b645-7ccf9edbb73d';
const ENV = `crn:cdp:environments:us-west-1:${ACCOUNT}:environment:4b2f8a1c-6d3e-4f5a-9b7c-0e1d2c3b4a59`;
const SVC = `crn:cdp:df:us-west-1:${ACCOUNT}:service:7c1e5a92-3b4d-4e6f-8a0b-1c2d3e4f5a6b`;
const DEP = `crn:cdp:df:us-west-1:${ACCOUNT}:deployment:7c1e5a92-3b4d-4e6f-8a0b-1c2d3e4f5a6b/2e9d4c1b-8a7f-4b6e-9d5c-3f2a1b0c9d8e`;
const FLOW_IN_DEP = `crn:cdp:df:us-west-1:${ACCOUNT}:deployedFlow:7c1e5a92-3b4d-4e6f-8a0b-1c2d3e4f5a6b/5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d`;
const FLOW = `crn:cdp:df:us-west-1:${ACCOUNT}:flow:sales-ingest`;
const FLOW_V1 = `${FLOW}/v.1`;
const FLOW_V2 = `${FLOW}/v.2`;
const COLLECTION = `crn:cdp:df:us-west-1:${ACCOUNT}:catalogCollection:8f7e6d5c-4b3a-4291-8e0f-1a2b3c4d5e6f`;
const PROJECT = `crn:cdp:df:us-west-1:${ACCOUNT}:project:7c1e5a92-3b4d-4e6f-8a0b-1c2d3e4f5a6b/3d2c1b0a-9f8e-4d7c-a6b5-4c3d2e1f0a9b`;
const READYFLOW = `crn:cdp:df:us-west-1:${ACCOUNT}:readyFlow:kafka-to-s3`;
const ADDED_READYFLOW = `crn:cdp:df:us-west-1:${ACCOUNT}:readyFlow:kafka-to-s3`;
const EVENT = `crn:cdp:df:us-west-1:${ACCOUNT}:event:6b5a4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d`;

const SERVICE_CRN = 'CRN of the DataFlow service (see `df services list`)';
const DEPLOYMENT_CRN = 'CRN of the deployment (see `df deployments list`)';
const DEPLOYED_FLOW_CRN = 'CRN of the flow in the deployment (see `df deployed-flows list`)';
const PERIOD = 'Time span of the figures: LAST_THIRTY_MINUTES, LAST_ONE_HOUR, LAST_TWELVE_HOURS or LAST_ONE_DAY';

/** Help shared by every operation that has the field (the service-wide fieldHelp). */
const COMMON_HELP: Readonly<Record<string, string>> = {
  serviceCrn: SERVICE_CRN,
  dfServiceCrn: SERVICE_CRN,
  environmentCrn: 'CRN of the environment (see `environments list`)',
  deploymentCrn: DEPLOYMENT_CRN,
  deployedFlowCrn: DEPLOYED_FLOW_CRN,
  flowCrn: 'CRN of the flow definition in the catalog (see `df flows list`)',
  flowVersionCrn: 'CRN of a flow definition version (see `df flow-versions list`), e.g. crn:...:flow:<name>/v.<n>',
  eventCrn: 'CRN of the event (see the matching `events` command)',
  metricsTimePeriod: PERIOD,
  sorts: 'Sort order as field:asc or field:desc, e.g. name:asc; several may be given',
  sort: 'Sort order as field:asc or field:desc (firstOccurrence, name or eventType); default firstOccurrence:asc',
  filters: 'Filters as the service names them (see `df filter-options list`)',
  searchTerm: 'Only items whose name contains this text',
  timestampFrom: 'Only events before this time, in milliseconds since the epoch',
  projectCrn: 'CRN of the project (see `df projects list`)',
  projectRevision: 'The revision the project showed when you last read it (see `df projects describe`); a stale one is refused',
  catalogCollectionCrn: 'CRN of the catalog collection (see `df collections list`)',
  readyflowCrn: 'CRN of the ready flow (see `df readyflows list`)',
  addedReadyflowCrn: 'CRN of the ready flow as added to the catalog (importedArtifactCrn in `df readyflows list`)',
  cloudUserId: 'Cloud provider user (for example an AWS IAM user or role ARN) to give the Kubernetes access to',
  minK8sNodeCount: 'Fewest Kubernetes nodes the service keeps',
  maxK8sNodeCount: 'Most Kubernetes nodes the service scales up to under load',
  kubeApiAuthorizedIpRanges: 'CIDR ranges allowed to reach the Kubernetes API server, e.g. 203.0.113.0/24',
  loadBalancerAuthorizedIpRanges: 'CIDR ranges allowed to reach the DataFlow endpoints through the load balancer',
  skipPreflightChecks: 'Skip the checks the Kubernetes provisioning runs before it starts',
  tagName: 'Name of the version tag',
  tagColor: 'Colour of the tag as shown in the console, e.g. #1b75bc; default: none',
  comments: 'Free text stored with the flow version',
  file: 'Local file with the flow definition (JSON exported from NiFi); it is streamed to the service',
  description: 'Free text shown with it',
  strategy:
    'How queued data is handled while the version changes: STOP_AND_PROCESS_DATA (the default) lets it flow out first, STOP_AND_EMPTY_QUEUES drops it, ONLY_RESTART_AFFECTED_COMPONENTS restarts only what changed',
  waitForFlowToStopInMinutes: 'Minutes to let the flow run out of data before it is stopped (with STOP_AND_PROCESS_DATA; default 15)',
  parameterGroups:
    'Parameter values as JSON: [{"name":"<group>","parameters":[{"name":"...","value":"..."}]}]; a parameter\'s assetReferences name local files, uploaded first',
  kpis: 'Key performance indicators as JSON: [{"metricId":"cpuUtilization","alert":{"thresholdMoreThan":{"unitId":"percentage","value":75}}}]; they replace the current ones',
  ignoreDeploymentInboundConfigurationChecks: 'Go on even when listening components of the flow have no inbound connection configured',
  autoStartFlow: 'Start the flow once deployed (default true)',
  fromArchive: 'Name of an exported deployment archive to take the configuration from (see `dataflow deployments archives`)',
  importArchiveFlowName: 'The flow of the archive to take, when the archive holds several',
};

// ---- waiters -------------------------------------------------------------

const HEALTHY = ['GOOD_HEALTH', 'CONCERNING_HEALTH'];

/** Service work: describeService until the service is healthy (or disabled). */
const serviceWait = (crn: string, success: readonly string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
  poll: 'describeService',
  input: { serviceCrn: crn },
  state: 'service.status.state',
  label: 'service.name',
  success,
  failure: ['BAD_HEALTH'],
  reason: 'service.status.message',
  interval: 30,
  timeout: 2 * 3600,
  ...extra,
});

/** A deployment's state as the control plane reads it. */
const deploymentWait = (crn: string): WaiterSpec => ({
  poll: 'describeDeployment',
  input: { deploymentCrn: crn },
  state: 'deployment.status.state',
  label: 'deployment.name',
  success: HEALTHY,
  failure: ['BAD_HEALTH'],
  reason: 'deployment.status.message',
  interval: 10,
  timeout: 3600,
});

/** A flow's state in its deployment. */
const deployedFlowWait = (crn: string): WaiterSpec => ({
  poll: 'describeFlowInDeployment',
  input: { deploymentCrn: 'request.deploymentCrn', deployedFlowCrn: crn },
  state: 'deployedFlow.status.state',
  label: 'deployedFlow.name',
  success: HEALTHY,
  failure: ['BAD_HEALTH'],
  reason: 'deployedFlow.status.message',
  interval: 10,
  timeout: 3600,
});

/** A project is deleting while `deleting` is set, and gone when done. */
const projectState = "project.deleting && 'DELETING' || 'ACTIVE'";

/** The drain time applies to STOP_AND_PROCESS_DATA only: cdp refuses it with the other strategies. */
const DRAIN_ONLY: Rule = {
  kind: 'custom',
  field: 'waitForFlowToStopInMinutes',
  check: (r) =>
    (r.strategy === 'STOP_AND_EMPTY_QUEUES' || r.strategy === 'ONLY_RESTART_AFFECTED_COMPONENTS') &&
    r.waitForFlowToStopInMinutes !== undefined
      ? `the flow is not drained with ${String(r.strategy)}: leave --wait-for-flow-to-stop-in-minutes out`
      : undefined,
};

// ---- columns -------------------------------------------------------------

const SERVICE_COLUMNS = {
  name: 'name',
  crn: 'crn',
  state: 'status.state',
  cloud: 'cloudPlatform',
  region: 'region',
  deployments: 'deploymentCount',
  environment: 'environmentCrn',
};
const EVENT_COLUMNS = { name: 'name', severity: 'severity', type: 'eventType', first: 'firstOccurrence', crn: 'crn' };
const CHART_COLUMNS = { name: 'name', unit: 'unitType', component: 'componentName', current: 'metrics.currentValueLabel' };
const FILTER_COLUMNS = { id: 'identifier', label: 'label' };

/** Words for the steps a composed command runs, in its help. */
const steps = (...what: string[]): string => `Runs on the client, as cdp does: ${what.join('; ')}.`;

const cli: Record<string, OperationCli> = {
  // services -------------------------------------------------------------------
  enableService: {
    command: 'services enable',
    summary: 'Turn DataFlow on in an environment: provisions its Kubernetes cluster.',
    examples: [
      `--environment-crn ${ENV} --min-k8s-node-count 3 --max-k8s-node-count 10 --use-public-load-balancer --wait`,
      `--environment-crn ${ENV} --min-k8s-node-count 3 --max-k8s-node-count 6 --no-use-public-load-balancer --private-cluster --cluster-subnets subnet-0a1b2c3d subnet-4e5f6a7b --tags team=data,cost-center=1234`,
    ],
    fieldHelp: {
      environmentCrn: 'CRN of the environment to enable DataFlow in (see `environments list`)',
      usePublicLoadBalancer: 'Put the load balancer of the DataFlow endpoints in public subnets (--no-use-public-load-balancer: private)',
      tags: 'Tags for the cloud resources the service creates, as key=value,key2=value2 or JSON',
      clusterSubnets: 'Subnet ids for the Kubernetes nodes; default: the environment subnets',
      loadBalancerSubnets: 'Subnet ids for the load balancer; default: the environment subnets',
      privateCluster: 'Give the Kubernetes API server a private endpoint only',
      instanceType: 'Instance type of the Kubernetes nodes; default: the service chooses',
      userDefinedRouting: 'Azure: the cluster reaches the internet by user-defined routes',
      podCidr: 'CIDR range the Kubernetes pods take addresses from',
      serviceCidr: 'CIDR range the Kubernetes services take addresses from',
      enforceProject: 'Every deployment and other resource must belong to a project',
    },
    wait: serviceWait('response.service.crn', HEALTHY),
  },
  disableService: {
    command: 'services disable',
    summary: 'Turn DataFlow off in an environment and remove its cluster.',
    description: 'The service stays, NOT_ENABLED, until `df services reset` forgets it or `df services enable` enables it again.',
    examples: [`--service-crn ${SVC} --terminate-deployments --yes --wait`, `--service-crn ${SVC} --persist --yes`],
    fieldHelp: {
      persist: 'Keep the records of deployments and other resources, to find them again when re-enabled',
      terminateDeployments: 'Terminate the deployments first; without it a service with deployments is refused',
    },
    destructive: true,
    wait: serviceWait('request.serviceCrn', ['NOT_ENABLED'], { failure: [], goneIsSuccess: true, timeout: 3600 }),
  },
  resetService: {
    command: 'services reset',
    summary: 'Forget a service that is not enabled, without cleaning up its cloud resources.',
    description:
      'Only for a service that is not enabled: disabled (NOT_ENABLED), or whose enable failed; clean its cloud resources up by hand.',
    examples: [`--service-crn ${SVC} --yes --wait`],
    destructive: true,
    wait: serviceWait('request.serviceCrn', ['NOT_ENABLED'], { failure: [], goneIsSuccess: true, timeout: 1800 }),
  },
  updateService: {
    command: 'services update',
    summary: 'Change the node count limits or the authorized IP ranges of a service.',
    examples: [`--service-crn ${SVC} --min-k8s-node-count 3 --max-k8s-node-count 12 --wait`],
    wait: serviceWait('response.service.crn || request.serviceCrn', HEALTHY),
  },
  upgradeService: {
    command: 'services upgrade',
    summary: 'Upgrade a service to the newest DataFlow version.',
    examples: [`--service-crn ${SVC} --wait`, `--service-crn ${SVC} --upgrade-deployments-nifi-version --skip-preflight-checks`],
    fieldHelp: { upgradeDeploymentsNifiVersion: 'Move the deployments to the newest NiFi version too' },
    wait: serviceWait('response.service.crn || request.serviceCrn', HEALTHY, { timeout: 3 * 3600 }),
  },
  describeService: {
    command: 'services describe',
    summary: 'Show a DataFlow service: state, node counts, network and versions.',
    examples: [`--service-crn ${SVC}`],
  },
  listServices: {
    command: 'services list',
    summary: 'List the DataFlow services with their state.',
    examples: ['', '--search-term sales --output table'],
    fieldHelp: { sorts: 'Sort order as field:asc or field:desc, e.g. name:asc' },
    columns: SERVICE_COLUMNS,
  },
  listDeployableServicesForNewDeployments: {
    command: 'services deployable',
    summary: 'List the services you may create deployments in.',
    examples: ['', '--output table'],
    listKey: 'services',
    columns: SERVICE_COLUMNS,
  },
  renewCertificates: {
    command: 'services renew-certificates',
    summary: 'Renew the certificates of the DataFlow endpoints of a service.',
    examples: [`--service-crn ${SVC} --wait`],
    wait: serviceWait('request.serviceCrn', HEALTHY),
  },
  rotatePassword: {
    command: 'services rotate-password',
    summary: 'Rotate the root password of the database server of a service.',
    examples: [`--service-crn ${SVC} --wait`],
    wait: serviceWait('request.serviceCrn', HEALTHY),
  },
  updateNodeImages: {
    command: 'services update-node-images',
    summary: 'Move the Kubernetes nodes of a service to the newest image; the service is unavailable meanwhile.',
    examples: [`--service-crn ${SVC} --wait`],
    wait: serviceWait('request.serviceCrn', HEALTHY),
  },
  getKubeconfig: {
    command: 'services kubeconfig',
    summary: 'Print the kubeconfig of the Kubernetes cluster of a service.',
    examples: [`--service-crn ${SVC}`, `--service-crn ${SVC} --output text`],
  },
  listServiceEvents: {
    command: 'services events',
    summary: 'List the event history of a service.',
    examples: [`--service-crn ${SVC}`, `--service-crn ${SVC} --rows 50 --output table`],
    fieldHelp: { rows: 'Most events to list', filters: 'Filters as the service names them' },
    listKey: 'eventSummaries',
    columns: EVENT_COLUMNS,
  },
  describeServiceEventDetail: {
    command: 'services event-detail',
    summary: 'Show one event of a service with its details.',
    examples: [`--service-crn ${SVC} --event-crn ${EVENT}`],
    fieldHelp: { eventCrn: 'CRN of the event (see `df services events`)' },
  },
  listServiceActiveAlerts: {
    command: 'services alerts',
    summary: 'List the alerts of a service that are active now.',
    examples: [`--service-crn ${SVC}`, `--service-crn ${SVC} --sort name:asc --output table`],
    listKey: 'eventSummaries',
    columns: EVENT_COLUMNS,
  },
  listServiceSystemMetrics: {
    command: 'services metrics',
    summary: 'Show the system metrics of a service (CPU, memory, disk) over a time span.',
    examples: [`--service-crn ${SVC} --metrics-time-period LAST_ONE_HOUR`],
    listKey: 'metricCharts',
    columns: CHART_COLUMNS,
  },

  // Kubernetes access ------------------------------------------------------------
  grantUserKubernetesAccess: {
    command: 'kubernetes-access grant',
    summary: 'Let a cloud user reach the Kubernetes cluster of a service.',
    examples: [`--service-crn ${SVC} --cloud-user-id arn:aws:iam::123456789012:role/dataflow-admins`],
  },
  revokeUserKubernetesAccess: {
    command: 'kubernetes-access revoke',
    summary: 'Take away the access of a cloud user to the Kubernetes cluster of a service.',
    examples: [`--service-crn ${SVC} --cloud-user-id arn:aws:iam::123456789012:role/dataflow-admins --yes`],
    fieldHelp: { cloudUserId: 'Cloud provider user to take the access from (see `df kubernetes-access list`)' },
    destructive: true,
  },
  listUserKubernetesAccess: {
    command: 'kubernetes-access list',
    summary: 'List the cloud users that may reach the Kubernetes cluster of a service.',
    examples: [`--service-crn ${SVC}`],
    listKey: 'cloudUserIds',
  },

  // deployments ------------------------------------------------------------------
  createDeployment: {
    command: 'deployments create',
    summary: 'Deploy a flow version as a new deployment, uploading the files its parameters name.',
    description: steps(
      'df initiateDeployment; df listDeployableServicesForNewDeployments for the environment',
      'dfworkload getDeploymentRequestDetails, uploadAsset for each local assetReferences file',
      'importDeployment with --from-archive or --import-parameters-from, createCustomNarConfiguration and createCustomPythonConfiguration when given',
      'dfworkload createDeployment; a failure aborts the request and removes the configurations created',
    ),
    examples: [
      `--service-crn ${SVC} --flow-version-crn ${FLOW_V1} --deployment-name sales-ingest --cluster-size name=SMALL --auto-scaling-enabled --auto-scale-min-nodes 1 --auto-scale-max-nodes 3 --wait`,
      `--service-crn ${SVC} --flow-version-crn ${FLOW_V1} --deployment-name sales-ingest --parameter-groups '[{"name":"kafka","parameters":[{"name":"brokers","value":"b1:9093"},{"name":"truststore","assetReferences":["assets/truststore.jks"]}]}]'`,
      `--service-crn ${SVC} --flow-version-crn ${FLOW_V1} --deployment-name sales-ingest --custom-nar-configuration username=svc-nars,password=Secret-123,storageLocation=s3a://dataflow-bucket/nars,configurationVersion=0 --custom-python-configuration username=svc-py,password=Secret-456,storageLocation=s3a://dataflow-bucket/python,configurationVersion=0`,
      `--service-crn ${SVC} --flow-version-crn ${FLOW_V1} --deployment-name sales-ingest --from-archive sales-ingest-20260101T000000Z --auto-start-flow`,
      `--service-crn ${SVC} --flow-version-crn ${FLOW_V1} --deployment-name sales-ingest --import-parameters-from sales-ingest-20260101T000000Z --kpis '[{"metricId":"cpuUtilization","alert":{"frequencyTolerance":{"value":5,"unit":{"id":"MINUTES"}}}}]'`,
    ],
    fieldHelp: {
      serviceCrn: 'CRN of the DataFlow service to deploy to (see `df services deployable`)',
      flowVersionCrn: 'CRN of the flow definition version to deploy (see `df flow-versions list`)',
      deploymentName: 'Name of the deployment, unique in the service',
      flowName: 'Name the flow gets in the deployment; default: the deployment name',
      importParametersFrom: 'Name of an exported deployment archive to take only the parameter values from (not with --from-archive)',
      clusterSize: 'Node size: name=EXTRA_SMALL (the default), SMALL, MEDIUM, LARGE, or CUSTOM with coresPerNode and memoryLimit (GB)',
      staticNodeCount: 'Nodes when auto-scaling is off (default 1)',
      autoScalingEnabled: 'Scale between --auto-scale-min-nodes and --auto-scale-max-nodes (default off)',
      flowMetricsScalingEnabled: 'Let flow metrics drive the auto-scaling too',
      autoScaleMinNodes: 'Fewest nodes while auto-scaling',
      autoScaleMaxNodes: 'Most nodes while auto-scaling',
      cfmNifiVersion: 'NiFi version to run; default the newest (see `dataflow nifi-versions list`)',
      customNarConfiguration:
        'Where extra NiFi archives come from: username=...,password=...,storageLocation=s3a://...,configurationVersion=0; an existing one (409) is updated instead',
      customPythonConfiguration:
        'Where Python processors come from: username=...,password=...,storageLocation=s3a://...,configurationVersion=0',
      inboundHostname: 'Host name of the inbound connection endpoint to attach, in full or its first label',
      listenComponents: 'Ports the listening processors take data on, with --inbound-hostname: protocol=TCP,port=9000',
      inboundConnectionAuthorizedIpRanges: 'CIDR ranges allowed to send to the inbound endpoint, with --inbound-hostname',
      nodeStorageProfileName: 'Disk profile of the nodes; default: the standard profile of the cloud',
      nodeStorage: 'Disks per repository: azureContentRepoProfile=AZURE_P10, or awsContentRepoProfile={repoSize=100,iops=3000}',
      projectCrn: 'Project the deployment belongs to; default: none',
    },
    rules: [
      // cdp sends an empty value for either when left out, which the workload call refuses.
      { kind: 'requires', field: 'inboundHostname', needs: 'listenComponents' },
      { kind: 'requires', field: 'inboundHostname', needs: 'inboundConnectionAuthorizedIpRanges' },
      {
        kind: 'exclusive',
        fields: ['fromArchive', 'importParametersFrom'],
        message: 'give --from-archive (the whole configuration) or --import-parameters-from (parameter values only), not both',
      },
      {
        kind: 'custom',
        field: 'clusterSize',
        check: (r) =>
          r.clusterSize && typeof r.clusterSize === 'object' && !('name' in r.clusterSize)
            ? '--cluster-size needs name=EXTRA_SMALL|SMALL|MEDIUM|LARGE|CUSTOM'
            : undefined,
      },
    ],
    wait: deploymentWait('response.deploymentCrn'),
  },
  initiateDeployment: {
    command: 'deployments initiate',
    summary: 'Start a deployment request in the control plane (one step of `deployments create`; use that).',
    examples: [`--service-crn ${SVC} --flow-version-crn ${FLOW_V1}`],
    fieldHelp: { deploymentCrn: 'The deployment whose flow version is being changed; none for a new deployment' },
  },
  changeFlowVersion: {
    command: 'deployments change-flow-version',
    summary: 'Move the flow of a single-flow deployment to another version (deprecated).',
    description: steps(
      'df initiateDeployment for the deployment; df listDeployableServicesForNewDeployments for the environment',
      'dfworkload getDeploymentRequestDetails; for local assetReferences, createAssetUpdateRequest and uploadAsset (abortAssetUpdateRequest on failure)',
      'dfworkload changeFlowVersion',
    ),
    examples: [`--service-crn ${SVC} --flow-version-crn ${FLOW_V2} --deployment-crn ${DEP} --strategy STOP_AND_EMPTY_QUEUES --wait`],
    fieldHelp: { flowVersionCrn: 'CRN of the flow definition version to change to (see `df flow-versions list`)' },
    rules: [DRAIN_ONLY],
    replacement: 'deployed-flows change-version',
    wait: deploymentWait('request.deploymentCrn'),
  },
  retryChangeFlowVersion: {
    command: 'deployments retry-change-flow-version',
    summary: 'Try a failed flow version change of a single-flow deployment again (deprecated).',
    description: steps(
      'df listDeployableServicesForNewDeployments for the environment',
      'for local assetReferences, dfworkload createAssetUpdateRequest and uploadAsset',
      'dfworkload changeFlowVersion without a deployment request (the stored one is used)',
    ),
    examples: [`--service-crn ${SVC} --deployment-crn ${DEP} --wait`],
    fieldHelp: { strategy: 'The strategy for the retry; default: the one the failed change used' },
    rules: [DRAIN_ONLY],
    replacement: 'deployed-flows retry-change-version',
    wait: deploymentWait('request.deploymentCrn'),
  },
  describeDeployment: {
    command: 'deployments describe',
    summary: 'Show a deployment: state, service, sizing and alert counts.',
    examples: [`--deployment-crn ${DEP}`],
  },
  listDeployments: {
    command: 'deployments list',
    summary: 'List the deployments of every service with their state.',
    examples: ['', '--search-term sales --sorts name:asc --output table'],
    fieldHelp: { sorts: 'Sort order as field:asc or field:desc on updated, name, state, dataSent or dataReceived' },
    columns: { name: 'name', crn: 'crn', state: 'status.state', service: 'service.name', project: 'project.name' },
  },
  listDeploymentEvents: {
    command: 'deployments events',
    summary: 'List the event history of a deployment.',
    examples: [`--deployment-crn ${DEP}`, `--deployment-crn ${DEP} --max-items 50 --output table`],
    fieldHelp: { rows: 'Most events to list (deprecated: use --max-items)' },
    columns: EVENT_COLUMNS,
  },
  describeDeploymentEventDetail: {
    command: 'deployments event-detail',
    summary: 'Show one event of a deployment with its metric details.',
    examples: [`--deployment-crn ${DEP} --event-crn ${EVENT}`],
    fieldHelp: { eventCrn: 'CRN of the event (see `df deployments events`)' },
  },
  listDeploymentActiveAlerts: {
    command: 'deployments alerts',
    summary: 'List the alerts of a deployment that are active now.',
    examples: [`--deployment-crn ${DEP}`, `--deployment-crn ${DEP} --sort name:desc --output table`],
    listKey: 'eventSummaries',
    columns: EVENT_COLUMNS,
  },
  listDeploymentKPIs: {
    command: 'deployments kpis',
    summary: 'Show the KPI charts of a deployment over a time span.',
    examples: [`--deployment-crn ${DEP} --metrics-time-period LAST_TWELVE_HOURS`],
    listKey: 'metricCharts',
    columns: CHART_COLUMNS,
  },
  listDeploymentSystemMetrics: {
    command: 'deployments metrics',
    summary: 'Show the system metrics of a deployment (CPU, memory, disk) over a time span.',
    examples: [`--deployment-crn ${DEP} --metrics-time-period LAST_ONE_DAY`],
    listKey: 'metricCharts',
    columns: CHART_COLUMNS,
  },

  // flows in deployments -------------------------------------------------------------
  addFlowToDeployment: {
    command: 'deployed-flows add',
    summary: 'Add another flow to a running deployment, uploading the files its parameters name.',
    description: steps(
      'df describeDeployment for the service and environment; df initiateFlowInDeployment',
      'dfworkload getFlowRequestDetailsInDeployment, uploadAsset for each local assetReferences file',
      'importFlowIntoDeployment with --from-archive; dfworkload addFlowToDeployment; a failure aborts the request',
    ),
    examples: [
      `--deployment-crn ${DEP} --flow-version-crn ${FLOW_V1} --name orders --wait`,
      `--deployment-crn ${DEP} --flow-version-crn ${FLOW_V1} --name orders --from-archive sales-ingest-20260101T000000Z --import-archive-flow-name orders --parameter-groups '[{"name":"kafka","parameters":[{"name":"truststore","assetReferences":["assets/truststore.jks"]}]}]'`,
    ],
    fieldHelp: {
      deploymentCrn: 'CRN of the deployment to add the flow to (see `df deployments list`)',
      flowVersionCrn: 'CRN of the flow definition version to add (see `df flow-versions list`)',
      name: 'Name of the flow, unique in the deployment',
      importArchiveFlowName: 'The flow of the archive to take (needed with --from-archive)',
    },
    rules: [{ kind: 'requires', field: 'fromArchive', needs: 'importArchiveFlowName' }],
    wait: deployedFlowWait('response.crn'),
  },
  initiateFlowInDeployment: {
    command: 'deployed-flows initiate',
    summary: 'Start a flow request in a deployment (one step of `deployed-flows add`; use that).',
    examples: [`--service-crn ${SVC} --flow-version-crn ${FLOW_V1} --deployment-crn ${DEP}`],
    fieldHelp: { deployedFlowCrn: 'The flow whose version is being changed; none for a new flow' },
  },
  changeFlowVersionInDeployment: {
    command: 'deployed-flows change-version',
    summary: 'Move a flow of a deployment to another flow version, uploading the files its parameters name.',
    description: steps(
      'df initiateFlowInDeployment for the flow; df listDeployableServicesForNewDeployments for the environment',
      'dfworkload getDeploymentRequestDetails; for local assetReferences, createAssetUpdateRequest, df describeDeployment and describeFlowInDeployment for the names, uploadAsset (abortAssetUpdateRequest on failure)',
      'dfworkload changeFlowVersionInDeployment',
    ),
    examples: [
      `--service-crn ${SVC} --flow-version-crn ${FLOW_V2} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW_IN_DEP} --wait`,
      `--service-crn ${SVC} --flow-version-crn ${FLOW_V2} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW_IN_DEP} --strategy STOP_AND_PROCESS_DATA --wait-for-flow-to-stop-in-minutes 30 --parameter-groups '[{"name":"kafka","parameters":[{"name":"truststore","assetReferences":[{"path":"assets/truststore.jks"}]}]}]'`,
    ],
    fieldHelp: {
      flowVersionCrn: 'CRN of the flow definition version to change to (see `df flow-versions list`)',
      parameterGroups:
        'Parameter values as JSON: [{"name":"<group>","parameters":[{"name":"...","value":"..."}]}]; an asset reference is {"name":"<kept asset>"} or {"path":"<local file to upload>"}',
    },
    rules: [DRAIN_ONLY],
    wait: deployedFlowWait('request.deployedFlowCrn'),
  },
  retryChangeFlowVersionInDeployment: {
    command: 'deployed-flows retry-change-version',
    summary: 'Try a failed flow version change of a flow in a deployment again.',
    description: steps(
      'df listDeployableServicesForNewDeployments for the environment',
      'for local assetReferences, dfworkload createAssetUpdateRequest and uploadAsset',
      'dfworkload changeFlowVersionInDeployment without a deployment request (the stored one is used)',
    ),
    examples: [`--service-crn ${SVC} --deployment-crn ${DEP} --deployed-flow-crn ${FLOW_IN_DEP} --wait`],
    fieldHelp: {
      strategy: 'The strategy for the retry; default: the one the failed change used',
      parameterGroups:
        'Parameter values as JSON: [{"name":"<group>","parameters":[{"name":"...","value":"..."}]}]; an asset reference is {"name":"<kept asset>"} or {"path":"<local file to upload>"}',
    },
    rules: [DRAIN_ONLY],
    wait: deployedFlowWait('request.deployedFlowCrn'),
  },
  describeFlowInDeployment: {
    command: 'deployed-flows describe',
    summary: 'Show a flow of a deployment: state, version and alert counts.',
    examples: [`--deployment-crn ${DEP} --deployed-flow-crn ${FLOW_IN_DEP}`],
  },
  listFlowsInDeployment: {
    command: 'deployed-flows list',
    summary: 'List the flows of a deployment with their state.',
    examples: [`--deployment-crn ${DEP}`, `--deployment-crn ${DEP} --sorts name:asc --output table`],
    fieldHelp: { sorts: 'Sort order as field:asc or field:desc on updated, name or state' },
    columns: { name: 'name', crn: 'crn', state: 'status.state', detail: 'status.detailedState' },
  },
  listFlowEventsInDeployment: {
    command: 'deployed-flows events',
    summary: 'List the event history of a flow in a deployment.',
    examples: [`--deployment-crn ${DEP} --deployed-flow-crn ${FLOW_IN_DEP}`],
    columns: EVENT_COLUMNS,
  },
  describeFlowEventDetailInDeployment: {
    command: 'deployed-flows event-detail',
    summary: 'Show one event of a flow in a deployment with its metric details.',
    examples: [`--deployment-crn ${DEP} --deployed-flow-crn ${FLOW_IN_DEP} --event-crn ${EVENT}`],
    fieldHelp: { eventCrn: 'CRN of the event (see `df deployed-flows events`)' },
  },
  listFlowActiveAlertsInDeployment: {
    command: 'deployed-flows alerts',
    summary: 'List the alerts of a flow in a deployment that are active now.',
    examples: [`--deployment-crn ${DEP} --deployed-flow-crn ${FLOW_IN_DEP}`],
    listKey: 'eventSummaries',
    columns: EVENT_COLUMNS,
  },
  listFlowKpisInDeployment: {
    command: 'deployed-flows kpis',
    summary: 'Show the KPI charts of a flow in a deployment over a time span.',
    examples: [`--deployment-crn ${DEP} --deployed-flow-crn ${FLOW_IN_DEP} --metrics-time-period LAST_THIRTY_MINUTES`],
    listKey: 'metricCharts',
    columns: CHART_COLUMNS,
  },

  // the flow catalog ---------------------------------------------------------------------
  importFlowDefinition: {
    command: 'flows import',
    summary: 'Add a flow definition to the catalog from a file exported from NiFi.',
    description:
      'As cdp does: the request goes to the control plane, which redirects it; the file is then streamed to where it points, with the other fields as URI-encoded headers.',
    examples: [
      `--file sales-ingest.json --name sales-ingest --description "Kafka to S3" --comments "first version" --tags '[{"tagName":"prod","tagColor":"#1b75bc"}]' --collection-crn ${COLLECTION}`,
    ],
    fieldHelp: {
      name: 'Name of the flow definition, unique in the catalog',
      description: 'Free text shown with the flow definition',
      comments: 'Free text stored with its first version',
      tags: 'Tags of the first version as JSON: [{"tagName":"prod","tagColor":"#1b75bc"}]',
      collectionCrn: 'Collection to put it in (see `df collections list`); default: none',
    },
  },
  importFlowDefinitionVersion: {
    command: 'flow-versions import',
    summary: 'Add a new version of a flow definition from a file exported from NiFi.',
    description:
      'As cdp does: the request goes to the control plane, which redirects it; the file is then streamed to where it points, with the comments and tags as URI-encoded headers.',
    examples: [`--flow-crn ${FLOW} --file sales-ingest-v2.json --comments "batch size 500" --tags '[{"tagName":"candidate"}]'`],
    fieldHelp: {
      flowCrn: 'CRN of the flow definition to add the version to (see `df flows list`)',
      tags: 'Tags of the version as JSON: [{"tagName":"candidate","tagColor":"#1b75bc"}]',
    },
  },
  getFlowVersion: {
    command: 'flow-versions get',
    summary: 'Print the flow definition of a version (decoded JSON, ready to save as a file).',
    description: 'As cdp does, the base64 flowDefinition of the answer is decoded and printed as the result: `> flow.json` saves it.',
    examples: [`--flow-version-crn ${FLOW_V1}`, `--flow-version-crn ${FLOW_V2} --output text`],
  },
  describeFlow: {
    command: 'flows describe',
    summary: 'Show a flow definition of the catalog with its versions.',
    examples: [`--flow-crn ${FLOW}`],
  },
  listFlowDefinitions: {
    command: 'flows list',
    summary: 'List the flow definitions of the catalog.',
    examples: ['', `--collection-crn ${COLLECTION} --output table`],
    fieldHelp: {
      sorts: 'Sort order as field:asc or field:desc, e.g. name:asc',
      collectionCrn: 'Only the flows of this collection (see `df collections list`)',
    },
    columns: { name: 'name', crn: 'crn', versions: 'versionCount', collection: 'collectionName', type: 'artifactType' },
  },
  deleteFlow: {
    command: 'flows delete',
    summary: 'Delete a flow definition and all its versions from the catalog.',
    examples: [`--flow-crn ${FLOW} --yes`],
    destructive: true,
  },
  assignToCollection: {
    command: 'flows set-collection',
    summary: 'Put a flow definition in a collection, or take it out of its collection.',
    examples: [`--flow-crn ${FLOW} --catalog-collection-crn ${COLLECTION}`, `--flow-crn ${FLOW}`],
    fieldHelp: { catalogCollectionCrn: 'Collection to put the flow in (see `df collections list`); leave out to unassign it' },
  },
  listFlowDefinitionVersions: {
    command: 'flow-versions list',
    summary: 'List the versions of a flow definition.',
    examples: [`--flow-crn ${FLOW}`, `--flow-crn ${FLOW} --search-term prod --output table`],
    fieldHelp: { searchTerm: 'Only versions with a tag containing this text' },
    listKey: 'flowVersions',
    columns: { version: 'version', crn: 'crn', author: 'author', comments: 'comments', deployments: 'deploymentCount' },
  },
  createFlowVersionTag: {
    command: 'flow-versions tag',
    summary: 'Tag a flow definition version.',
    examples: [`--flow-version-crn ${FLOW_V2} --tag-name prod --tag-color "#1b75bc"`],
  },
  deleteFlowVersionTag: {
    command: 'flow-versions untag',
    summary: 'Remove a tag from a flow definition version.',
    examples: [`--flow-version-crn ${FLOW_V2} --tag-name candidate`],
    fieldHelp: { tagName: 'Name of the tag to remove (see `df flow-versions tags`)' },
  },
  listFlowVersionTags: {
    command: 'flow-versions tags',
    summary: 'List the tags of a flow definition version.',
    examples: [`--flow-version-crn ${FLOW_V2}`],
    listKey: 'flowVersionTags',
    columns: { tag: 'tagName', color: 'tagColor' },
  },

  // collections -----------------------------------------------------------------------
  createCollection: {
    command: 'collections create',
    summary: 'Create a collection to group flow definitions in the catalog.',
    examples: ['--name ingest --description "Ingest flows of the sales team"'],
    fieldHelp: { name: 'Name of the collection, unique in the catalog' },
  },
  describeCollection: {
    command: 'collections describe',
    summary: 'Show a collection with the flow definitions in it.',
    examples: [`--catalog-collection-crn ${COLLECTION}`],
  },
  updateCollection: {
    command: 'collections update',
    summary: 'Rename a collection or change its description.',
    examples: [`--catalog-collection-crn ${COLLECTION} --name sales-ingest --description "Ingest flows"`],
    fieldHelp: { name: 'New name of the collection', description: 'New description' },
  },
  deleteCollection: {
    command: 'collections delete',
    summary: 'Delete an empty collection.',
    examples: [`--catalog-collection-crn ${COLLECTION} --yes`],
    destructive: true,
  },
  listCollections: {
    command: 'collections list',
    summary: 'List the collections of the catalog.',
    examples: ['', '--search-term ingest --output table'],
    fieldHelp: { sorts: 'Sort order as field:asc or field:desc, e.g. name:asc' },
    columns: { name: 'name', crn: 'crn', flows: 'flowCount', description: 'description' },
  },

  // ready flows -----------------------------------------------------------------------
  listReadyflows: {
    command: 'readyflows list',
    summary: 'List the ready flows Cloudera offers and whether each was added to the catalog.',
    examples: ['', '--search-term kafka --output table'],
    columns: { name: 'name', crn: 'readyflowCrn', source: 'source', destination: 'destination', added: 'imported' },
  },
  describeReadyflow: {
    command: 'readyflows describe',
    summary: 'Show a ready flow: what it reads and writes, and its documentation.',
    examples: [`--readyflow-crn ${READYFLOW}`],
  },
  addReadyflow: {
    command: 'readyflows add',
    summary: 'Add a ready flow to the catalog of the account.',
    examples: [`--readyflow-crn ${READYFLOW}`],
  },
  describeAddedReadyflow: {
    command: 'readyflows describe-added',
    summary: 'Show a ready flow as added to the catalog, with its versions.',
    examples: [`--added-readyflow-crn ${ADDED_READYFLOW}`],
  },
  deleteAddedReadyflow: {
    command: 'readyflows remove',
    summary: 'Remove an added ready flow from the catalog.',
    examples: [`--added-readyflow-crn ${ADDED_READYFLOW} --yes`],
    destructive: true,
  },

  // projects ------------------------------------------------------------------------
  createProject: {
    command: 'projects create',
    summary: 'Create a project in a service to group deployments and other resources.',
    examples: [`--name sales --service-crn ${SVC} --description "Sales team flows"`],
    fieldHelp: { name: 'Name of the project, unique in the service' },
  },
  describeProject: {
    command: 'projects describe',
    summary: 'Show a project with its revision.',
    examples: [`--project-crn ${PROJECT}`],
  },
  updateProject: {
    command: 'projects update',
    summary: 'Rename a project or change its description.',
    examples: [`--project-crn ${PROJECT} --project-revision 2 --project-name sales-eu --project-description "EU sales flows"`],
    fieldHelp: { projectName: 'New name of the project', projectDescription: 'New description of the project' },
  },
  deleteProject: {
    command: 'projects delete',
    summary: 'Delete a project; its resources stay, unassigned.',
    examples: [`--project-crn ${PROJECT} --project-revision 2 --yes --wait`],
    destructive: true,
    wait: {
      poll: 'describeProject',
      input: { projectCrn: 'request.projectCrn' },
      state: projectState,
      label: 'project.name',
      success: ['DELETED'],
      goneIsSuccess: true,
      interval: 5,
      timeout: 1800,
    },
  },
  cancelDeleteProject: {
    command: 'projects cancel-delete',
    summary: 'Stop the deletion of a project that is still being deleted.',
    examples: [`--project-crn ${PROJECT} --project-revision 3 --wait`],
    wait: {
      poll: 'describeProject',
      input: { projectCrn: 'request.projectCrn' },
      state: projectState,
      label: 'project.name',
      success: ['ACTIVE'],
      interval: 5,
      timeout: 600,
    },
  },
  listProjects: {
    command: 'projects list',
    summary: 'List the projects of every service.',
    examples: ['', '--sorts name:asc --output table'],
    fieldHelp: { sorts: 'Sort order as field:asc or field:desc, e.g. name:asc' },
    columns: { name: 'name', crn: 'crn', service: 'service.name', revision: 'revision', deleting: 'deleting' },
  },
  listProjectFilterOptions: {
    command: 'projects filter-options',
    summary: 'List the values a filter of `df projects list` takes.',
    examples: ['--filter-type state'],
    fieldHelp: { filterType: 'Name of the filter whose values to list, as the service names it for `df projects list --filters`' },
    listKey: 'filterOptions',
    columns: FILTER_COLUMNS,
  },

  // diagnostics, filters, notifications ------------------------------------------------------
  startGetDiagnosticsCollection: {
    command: 'diagnostics collect',
    summary: 'Collect a diagnostic bundle of a service and send it to support or to cloud storage.',
    examples: [
      `--df-service-crn ${SVC} --destination SUPPORT --description "deployments restarting" --case-number 01234567 --wait`,
      `--df-service-crn ${SVC} --destination CLOUD_STORAGE --description "nightly" --collection-scope DEPLOYMENT --deployments ${DEP} --start-time 2026-01-05T00:00:00Z --end-time 2026-01-06T00:00:00Z`,
    ],
    fieldHelp: {
      destination: 'Where the bundle goes: SUPPORT (a support case) or CLOUD_STORAGE (the environment storage)',
      description: 'Why the bundle is collected',
      environmentComponents: 'Only the logs of these components; default: all',
      caseNumber: 'Support case the bundle belongs to',
      deployments: 'CRNs of the deployments to collect from; default: all',
      startTime: 'Collect logs from this time on (ISO 8601)',
      endTime: 'Collect logs up to this time (ISO 8601)',
      collectionScope: 'What to collect: ALL, ENVIRONMENT or DEPLOYMENT',
      includeNifiDiagnostics: 'Also take heap and thread dumps of NiFi',
    },
    wait: {
      poll: 'listDiagnostics',
      input: { dfServiceCrn: 'request.dfServiceCrn', uuids: '[response.uuid]' },
      state: 'diagnostics[0].status',
      success: ['SUCCESS'],
      failure: ['FAILED'],
      interval: 30,
      timeout: 2 * 3600,
    },
  },
  listDiagnostics: {
    command: 'diagnostics list',
    summary: 'List the diagnostic bundle collections of a service with their status.',
    examples: [`--df-service-crn ${SVC}`, `--df-service-crn ${SVC} --uuids 3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c --output table`],
    fieldHelp: { uuids: 'Only these collections (the uuid `diagnostics collect` printed)' },
    columns: { uuid: 'uuid', status: 'status', destination: 'destination', description: 'description', requested: 'requestedTime' },
  },
  listFilterOptions: {
    command: 'filter-options list',
    summary: 'List the values a filter of the deployment and event listings takes.',
    examples: ['--filter-type state'],
    fieldHelp: { filterType: 'Name of the filter whose values to list, as the service names it for the `--filters` of the listings' },
    listKey: 'filterOptions',
    columns: FILTER_COLUMNS,
  },
  listNotifications: {
    command: 'notifications list',
    summary: 'List the notifications of the DataFlow services since a point in time.',
    examples: ['--timestamp-after 1767225600000'],
    fieldHelp: { timestampAfter: 'Only notifications after this time, in milliseconds since the epoch' },
    listKey: 'notifications',
    columns: { name: 'name', severity: 'severity', about: 'referenceType', user: 'username', when: 'timestamp' },
  },
};

const definition: ServiceDefinition = {
  name: 'df',
  topic: 'df',
  summary: 'DataFlow service: enable it per environment, run deployments, and keep the flow catalog, ready flows and projects.',
  endpoint: 'api',
  facts: service,
  topics: {
    services: 'DataFlow services of environments: enable, update, upgrade, disable; events, alerts, metrics.',
    'kubernetes-access': "Cloud users allowed to reach a service's Kubernetes cluster.",
    deployments: 'Deployments as the control plane sees them: create, state, events, alerts, KPIs, flow version changes.',
    'deployed-flows': 'Flows inside deployments: add, state, events, alerts, KPIs, version changes.',
    flows: 'Flow definitions in the catalog: import, list, describe, delete.',
    'flow-versions': 'Versions of flow definitions: import, download, tags.',
    collections: 'Collections grouping flow definitions in the catalog.',
    readyflows: 'Ready flows from Cloudera: list, add to the catalog, remove.',
    projects: 'Projects grouping deployments and other resources of a service.',
    diagnostics: 'Diagnostic bundles of a service.',
    'filter-options': 'Values the filters of the deployment and event listings take.',
    notifications: 'Notifications of the DataFlow services.',
  },
  fieldHelp: COMMON_HELP,
  shapes: { ...shapes, ...composedShapes },
  wire: operations,
  composed: composedOperations,
  cli,
};

export default definition;
