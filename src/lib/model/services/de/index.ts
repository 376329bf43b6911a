/**
 * Cloudera Data Engineering (the `de` service): the CLI half of its model.
 * A Data Engineering service is a Kubernetes cluster enabled in an
 * environment (its id is the `clusterId`); virtual clusters (vcs) inside it
 * run Spark and Airflow jobs. Services can be backed up and restored, and
 * upgraded in steps.
 *
 * --wait follows `service.status` and `vc.status` through describeService and
 * describeVc. The facts leave those statuses free strings; the service writes
 * them in CamelCase (ClusterCreationCompleted, ClusterDeletionCompleted,
 * AppInstalled, AppDeleted, and *Failed states), as Cloudera's own Ansible
 * collection reads them.
 */
import type { OperationCli, Rule, ServiceDefinition, WaiterSpec } from '../../types.js';
import { operations, service, shapes } from './wire.js';

// ---- example values --------------------------------------------------------

const ACCOUNT = '9d74eee4-1cad-45d7-b645-7ccf9edbb73d';
const ENV_CRN = `crn:cdp:environments:us-west-1:${ACCOUNT}:environment:4f3b1a2c-8d9e-4f70-a1b2-c3d4e5f60718`;
const CLUSTER = 'cluster-6gqzwzb4';
const VC = 'dex-app-c8wxv76g';

// ---- rules ------------------------------------------------------------------

/** A lower bound above its upper bound (both given) is refused before sending. */
const notAbove = (low: string, high: string): Rule => ({
  kind: 'custom',
  field: low,
  check: (r) => {
    const a = r[low];
    const b = r[high];
    return typeof a === 'number' && typeof b === 'number' && a > b
      ? `--${kebabOf(low)} (${a}) is above --${kebabOf(high)} (${b})`
      : undefined;
  },
});

/** Flag names of the few fields the rules above name (all plain camelCase). */
const kebabOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const INSTANCE_RANGES: Rule[] = [
  notAbove('minimumInstances', 'maximumInstances'),
  notAbove('minimumSpotInstances', 'maximumSpotInstances'),
  notAbove('allPurposeMinimumInstances', 'allPurposeMaximumInstances'),
  notAbove('allPurposeMinimumSpotInstances', 'allPurposeMaximumSpotInstances'),
];

// ---- waiters ----------------------------------------------------------------

const SERVICE_FAILED = [
  'ClusterCreationFailed',
  'ClusterProvisioningFailed',
  'ClusterChartInstallationFailed',
  'ClusterServiceMeshProvisioningFailed',
  'ClusterDNSCreationFailed',
  'ClusterIngressCreationFailed',
  'ClusterTLSCertCreationFailed',
  'ClusterAccessGroupCreationFailed',
  'ClusterMonitoringConfigurationFailed',
  'ClusterUserSyncCheckFailed',
  'DBProvisioningFailed',
  'FSProvisioningFailed',
  'FSMountTargetsCreationFailed',
];

const SERVICE_DELETE_FAILED = [
  'ClusterDeletionFailed',
  'ClusterDeleteFromDBFailed',
  'ClusterChartDeletionFailed',
  'ClusterServiceMeshDeletionFailed',
  'ClusterDNSDeletionFailed',
  'ClusterTLSCertDeletionFailed',
  'ClusterAccessGroupDeletionFailed',
  'ClusterNamespaceDeletionFailed',
  'DBDeletionFailed',
  'FSDeletionFailed',
  'FSMountTargetsDeletionFailed',
];

const serviceWait = (clusterId: string, success: string[], failure: string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
  poll: 'describeService',
  input: { clusterId },
  state: 'service.status',
  label: 'service.name',
  success,
  failure,
  interval: 30,
  timeout: 2 * 3600,
  ...extra,
});

const vcWait = (vcId: string, success: string[], failure: string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
  poll: 'describeVc',
  input: { clusterId: 'request.clusterId', vcId },
  state: 'vc.status',
  label: 'vc.vcName',
  success,
  failure,
  interval: 10,
  timeout: 3600,
  ...extra,
});

/** Suspend and resume report progress through getSuspendResumeStatus: done when every step is. */
const SUSPEND_RESUME_WAIT: WaiterSpec = {
  poll: 'getSuspendResumeStatus',
  input: { clusterId: 'request.clusterId', vcId: 'request.vcId' },
  state: "allStepsCompleted && 'COMPLETED' || statusMessage",
  success: ['COMPLETED'],
  interval: 10,
  timeout: 3600,
};

// ---- shared help --------------------------------------------------------------

const SERVICE_SIZE_HELP = {
  minimumInstances: 'Fewest on-demand instances the service scales down to',
  maximumInstances: 'Most on-demand instances the service scales up to',
  minimumSpotInstances: 'Fewest spot instances the service scales down to; default 0',
  maximumSpotInstances: 'Most spot instances the service scales up to; default 0',
  allPurposeMinimumInstances: 'Fewest on-demand instances of the all-purpose group (interactive sessions)',
  allPurposeMaximumInstances: 'Most on-demand instances of the all-purpose group',
  allPurposeMinimumSpotInstances: 'Fewest spot instances of the all-purpose group',
  allPurposeMaximumSpotInstances: 'Most spot instances of the all-purpose group',
  whitelistIps: 'CIDR blocks allowed to reach the Kubernetes API server',
  loadbalancerAllowlist: 'CIDR blocks allowed to reach the load balancer of the service',
};

const VC_ACCESS_HELP = {
  aclUsers: 'Workload user names to let in, as one comma-separated string (older form of --full-access-users)',
  fullAccessUsers: 'Workload user names with full access to the virtual cluster',
  fullAccessGroups: 'Groups whose members have full access',
  viewOnlyUsers: 'Workload user names who may only look',
  viewOnlyGroups: 'Groups whose members may only look',
  sparkConfigs: 'Spark settings applied to every job of the virtual cluster, e.g. spark.executor.memory=4g',
  enableComputeOverride: 'Let jobs ask for other compute than the virtual cluster default',
};

const cli: Record<string, OperationCli> = {
  // ---- services -----------------------------------------------------------------
  enableService: {
    command: 'services enable',
    summary: 'Enable a Data Engineering service in an environment: provision its Kubernetes cluster.',
    examples: [
      '--name sales-de --env sales-env --instance-type m5.2xlarge --minimum-instances 1 --maximum-instances 20 --wait',
      '--name sales-de --env sales-env --instance-type m5.2xlarge --minimum-instances 0 --maximum-instances 20 --minimum-spot-instances 0 --maximum-spot-instances 30 --enable-public-endpoint --loadbalancer-allowlist 203.0.113.0/24 --tags team=data,cost-center=4711',
    ],
    fieldHelp: {
      name: 'Name of the new service',
      env: 'Name of the environment to enable the service in (see `environments list`)',
      instanceType: 'Instance type of the worker nodes, e.g. m5.2xlarge',
      initialInstances: 'On-demand instances to start with; default: the minimum',
      initialSpotInstances: 'Spot instances to start with; default: the spot minimum',
      rootVolumeSize: 'Root disk size of each node, in GB',
      enablePublicEndpoint: 'Put the service endpoint in a public subnet; default: private (you set up access)',
      deployPreviousVersion: 'Install the previous Data Engineering version instead of the newest',
      enableWorkloadAnalytics: 'Send job and query diagnostics to Cloudera Workload Manager',
      useSsd: 'Use the local SSDs of the instances for Spark scratch space',
      chartValueOverrides: 'Helm value overrides per chart: chartName and overrides',
      tags: 'Labels for every cloud resource of the service, as key=value pairs',
      skipValidation: 'Skip the checks that run before provisioning',
      enablePrivateNetwork: 'Make the whole service private (Kubernetes, database...); on Azure through private endpoints',
      subnets: 'Subnet ids for the worker nodes; default: the environment subnets',
      azureFilesharePrivateDNSZoneId: 'Resource id of your private DNS zone for the Azure storage account',
      azureDatabasePrivateDNSZoneId: 'Resource id of your private DNS zone for the Azure database',
      customAzureFilesConfigs: 'Your own Azure Files share: storageAccountName, resourceGroup, optional azureFilesFQDN',
      networkOutboundType: 'How the cluster reaches the internet: UDR for user-defined routing',
      allPurposeInstanceType: 'Instance type of the all-purpose group (interactive sessions)',
      allPurposeInitialInstances: 'On-demand instances the all-purpose group starts with',
      allPurposeInitialSpotInstances: 'Spot instances the all-purpose group starts with',
      allPurposeRootVolumeSize: 'Root disk size of each all-purpose node, in GB',
      disableArm64: 'Keep the service database off ARM64 (Graviton) instances',
      azureServiceManagedIdentity: 'Resource id of the Azure managed identity of the service',
      azureVirtualClusterManagedIdentities: 'Resource ids of the Azure managed identities for virtual clusters',
      ...SERVICE_SIZE_HELP,
    },
    rules: INSTANCE_RANGES,
    wait: serviceWait('response.service.clusterId', ['ClusterCreationCompleted'], SERVICE_FAILED),
  },
  disableService: {
    command: 'services disable',
    summary: 'Disable a Data Engineering service: delete its cluster, virtual clusters and jobs.',
    examples: [`--cluster-id ${CLUSTER} --yes --wait`, `--cluster-id ${CLUSTER} --force --yes`],
    fieldHelp: {
      clusterId: 'Id of the service to disable (clusterId in `de services list`)',
      force: 'Go on when cleaning up fails (cloud resources may be left behind)',
    },
    destructive: true,
    wait: serviceWait('request.clusterId', ['ClusterDeletionCompleted'], SERVICE_DELETE_FAILED, { goneIsSuccess: true, timeout: 3600 }),
  },
  listServices: {
    command: 'services list',
    summary: 'List the Data Engineering services of the account with their status.',
    examples: ['', '--remove-deleted --output table'],
    fieldHelp: { removeDeleted: 'Leave out services that were disabled' },
    listKey: 'services',
    columns: { name: 'name', clusterId: 'clusterId', status: 'status', environment: 'environmentName', enabled: 'enablingTime' },
  },
  describeService: {
    command: 'services describe',
    summary: 'Show a Data Engineering service: status, size, endpoints, storage and network settings.',
    examples: [`--cluster-id ${CLUSTER}`],
  },
  updateService: {
    command: 'services update',
    summary: 'Change the autoscaling range and the network allowlists of a Data Engineering service.',
    examples: [
      `--cluster-id ${CLUSTER} --minimum-instances 2 --maximum-instances 40`,
      `--cluster-id ${CLUSTER} --loadbalancer-allowlist 10.10.0.0/16 203.0.113.0/24`,
    ],
    fieldHelp: SERVICE_SIZE_HELP,
    rules: INSTANCE_RANGES,
  },
  getKubeconfig: {
    command: 'services kubeconfig',
    summary: 'Print the kubeconfig of the Kubernetes cluster behind a Data Engineering service.',
    examples: [`--cluster-id ${CLUSTER}`],
  },
  getServiceInitLogs: {
    command: 'services init-logs',
    summary: 'Show the logs of the initialization of a Data Engineering service.',
    examples: [`--service-id ${CLUSTER}`, `--service-id ${CLUSTER} --max-items 20 --output text`],
    fieldHelp: { serviceID: 'Id of the service (clusterId in `de services list`)' },
  },
  upgradeService: {
    command: 'services upgrade',
    summary: 'Run one step of the upgrade of a Data Engineering service: prepare, backup, upgrade, resume or cancel.',
    description:
      'An upgrade takes several steps, each started on its own; `de services upgrade-status` tells which step comes next and when all are done.',
    examples: [`--cluster-id ${CLUSTER} --step prepare`, `--cluster-id ${CLUSTER} --step upgrade`],
    fieldHelp: { step: 'The step to run now (see `de services upgrade-status` for the next one)' },
  },
  getUpgradeStatus: {
    command: 'services upgrade-status',
    summary: 'Show how far the upgrade of a Data Engineering service has got and which step comes next.',
    examples: [`--cluster-id ${CLUSTER}`],
  },

  // ---- virtual clusters ---------------------------------------------------------------
  createVc: {
    command: 'vcs create',
    summary: 'Create a virtual cluster in a Data Engineering service, with its CPU and memory quota.',
    examples: [
      `--name etl-daily --cluster-id ${CLUSTER} --cpu-requests 40 --memory-requests 160Gi --wait`,
      `--name notebooks --cluster-id ${CLUSTER} --cpu-requests 20 --memory-requests 80Gi --vc-tier ALLP --spark-version SPARK3_5 --full-access-groups data-engineers --spark-configs spark.executor.memory=4g,spark.sql.shuffle.partitions=64`,
    ],
    fieldHelp: {
      name: 'Name of the new virtual cluster',
      clusterId: 'Id of the service to create it in (clusterId in `de services list`)',
      cpuRequests: 'CPU cores the virtual cluster may use in all, e.g. 40',
      memoryRequests: 'Memory the virtual cluster may use in all, e.g. 160Gi',
      chartValueOverrides: 'Helm value overrides per chart: chartName and overrides',
      smtpConfigs: 'Mail server for Airflow alerts: email, host, port (default 25), username, password, startTls, ssl',
      runtimeSpotComponent: 'Which Spark parts run on spot instances: ALL (driver and executors) or NONE; default: executors only',
      sparkVersion: 'Spark version of the jobs; which ones exist depends on the service version',
      sparkOSName: 'Operating system of the Spark images; default SECURITYHARDENED',
      vcTier: 'CORE runs batch jobs only; ALLP (all-purpose) also runs interactive sessions',
      sessionTimeout: 'Default timeout of interactive sessions, e.g. 8h; default 8 hours',
      ...VC_ACCESS_HELP,
    },
    wait: vcWait('response.Vc.vcId', ['AppInstalled'], ['AppInstallationFailed']),
  },
  deleteVc: {
    command: 'vcs delete',
    summary: 'Delete a virtual cluster with its jobs and resources.',
    examples: [`--cluster-id ${CLUSTER} --vc-id ${VC} --yes --wait`],
    destructive: true,
    wait: vcWait('request.vcId', ['AppDeleted', 'AppNotDeletedFromDB'], ['AppDeletionFailed'], { goneIsSuccess: true }),
  },
  listVcs: {
    command: 'vcs list',
    summary: 'List the virtual clusters of a Data Engineering service with their status.',
    examples: [`--cluster-id ${CLUSTER}`, `--cluster-id ${CLUSTER} --output table`],
    listKey: 'vcs',
    columns: { name: 'vcName', vcId: 'vcId', status: 'status', creator: 'creatorEmail', ui: 'VcUiUrl' },
  },
  describeVc: {
    command: 'vcs describe',
    summary: 'Show a virtual cluster: status, quota, Spark version, endpoints and access.',
    examples: [`--cluster-id ${CLUSTER} --vc-id ${VC}`],
  },
  updateVc: {
    command: 'vcs update',
    summary: 'Change who may use a virtual cluster and the Spark settings of its jobs.',
    examples: [
      `--cluster-id ${CLUSTER} --vc-id ${VC} --full-access-groups data-engineers --view-only-groups analysts`,
      `--cluster-id ${CLUSTER} --vc-id ${VC} --discard-spark-configs`,
    ],
    fieldHelp: { ...VC_ACCESS_HELP, discardSparkConfigs: 'Remove every Spark setting of the virtual cluster' },
    rules: [
      {
        kind: 'exclusive',
        fields: ['sparkConfigs', 'discardSparkConfigs'],
        message: 'give new --spark-configs or --discard-spark-configs, not both',
      },
    ],
  },
  suspendVc: {
    command: 'vcs suspend',
    summary: 'Suspend a virtual cluster: it stops taking jobs and frees its compute.',
    examples: [`--cluster-id ${CLUSTER} --vc-id ${VC} --wait`],
    wait: SUSPEND_RESUME_WAIT,
  },
  resumeVc: {
    command: 'vcs resume',
    summary: 'Resume a suspended virtual cluster.',
    examples: [`--cluster-id ${CLUSTER} --vc-id ${VC} --wait`],
    wait: SUSPEND_RESUME_WAIT,
  },
  getSuspendResumeStatus: {
    command: 'vcs suspend-status',
    summary: 'Show how far the suspension or resumption of a service or virtual cluster has got.',
    examples: [`--cluster-id ${CLUSTER} --vc-id ${VC}`, `--cluster-id ${CLUSTER}`],
    fieldHelp: { vcId: 'Id of the virtual cluster (vcId in `de vcs list`); without it, the service as a whole' },
  },

  // ---- backups ----------------------------------------------------------------------------
  createBackup: {
    command: 'backups create',
    summary: 'Back up a Data Engineering service: its definition and its virtual clusters with their jobs.',
    examples: [
      `--service-id ${CLUSTER} --description "before upgrade"`,
      `--service-id ${CLUSTER} --no-include-vc --backup-path nightly --timeout 3600`,
    ],
    fieldHelp: {
      serviceId: 'Id of the service to back up (clusterId in `de services list`)',
      description: 'Words to remember the backup by',
      backupPath: 'Folder under the backup location of the service (see `de services describe`), without a file name',
      includeVc: 'Back up the virtual clusters too; --no-include-vc leaves them out',
      timeout: 'Seconds the backup may take before it is stopped',
      backupVcContentOptions: 'What of each virtual cluster to include: jobs, resources, credentials, job runs, with filters',
      force: 'Back up even when the checks find problems',
    },
  },
  listBackups: {
    command: 'backups list',
    summary: 'List the backups of Data Engineering services.',
    examples: ['', `--filter "clusterID(eq)${CLUSTER}" --order-by created --order ASC --output table`],
    fieldHelp: {
      order: 'Sort order; default DESC',
      orderBy: 'Field to sort by: id, clusterID, cdeVersion, environment, environmentCrn, created or status',
      filter:
        'Conditions as field(operator)value, all of which must hold, e.g. status(eq)failed; operators eq, noteq, lt, lte, gt, gte, in, notin, like, rlike, is, isnot',
    },
    columns: {
      id: 'id',
      service: 'serviceName',
      serviceId: 'serviceID',
      status: 'status',
      created: 'created',
      environment: 'environmentName',
    },
  },
  describeBackup: {
    command: 'backups describe',
    summary: 'Show a backup of a Data Engineering service: status, service, version and archive location.',
    examples: ['--backup-id 42'],
  },
  deleteBackup: {
    command: 'backups delete',
    summary: 'Delete a backup of a Data Engineering service.',
    examples: ['--backup-id 42 --yes'],
    destructive: true,
  },
  cancelBackup: {
    command: 'backups cancel',
    summary: 'Cancel a backup that has not started running yet.',
    examples: ['--backup-id 42'],
  },
  getBackupLogs: {
    command: 'backups logs',
    summary: 'Show the logs of a backup of a Data Engineering service.',
    examples: ['--backup-id 42', '--backup-id 42 --max-items 40 --output text'],
  },
  restoreService: {
    command: 'backups restore',
    summary: 'Restore a Data Engineering service from a backup, into the environment it was backed up from.',
    examples: [
      `--backup-id 42 --environment-crn ${ENV_CRN} --wait`,
      `--backup-id 42 --environment-crn ${ENV_CRN} --service-name sales-de-restored`,
    ],
    fieldHelp: {
      environmentCrn: 'CRN of the environment of the backed-up service (restoring elsewhere is not supported)',
      serviceId: 'Id for the restored service; default: a new one',
      serviceName: 'Name for the restored service; default: the name in the backup',
      servicePropertyOverride: 'Service properties to change, merged over the backed-up ones, as key=value pairs',
    },
    wait: serviceWait('response.serviceID', ['ClusterCreationCompleted'], SERVICE_FAILED),
  },
};

const definition: ServiceDefinition = {
  name: 'de',
  topic: 'de',
  summary: 'Cloudera Data Engineering: services, virtual clusters, backups and upgrades.',
  endpoint: 'api',
  facts: service,
  topics: {
    services: 'Data Engineering services of environments: enable, scale, upgrade, disable.',
    vcs: 'Virtual clusters of a service: create, suspend, resume, delete.',
    backups: 'Backups of services, and services restored from them.',
  },
  fieldHelp: {
    clusterId: 'Id of the Data Engineering service (clusterId in `de services list`)',
    vcId: 'Id of the virtual cluster (vcId in `de vcs list`)',
    backupID: 'Id of the backup (see `de backups list`)',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
