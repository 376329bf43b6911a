/**
 * Data Warehouse: the CLI half of the dw model. A Data Warehouse cluster is
 * the activation of the service in one environment; it holds Database
 * Catalogs (dbcs), Virtual Warehouses (vws) and Data Visualizations, each
 * with its own lifecycle, configuration history, events and diagnostic
 * bundles. Backups and restores (private cloud), resource templates,
 * connectors, secrets, users and server settings complete it.
 *
 * --wait follows the `status` each describe operation reports (Running,
 * Stopped, Error...), NOT_FOUND for deletes, the job status of diagnostic
 * bundles, and the job state of backups and restores.
 */
import type { OperationCli, Rule, ServiceDefinition, WaiterSpec } from '../../types.js';
import { operations, service, shapes } from './wire.js';
import { asObject, given } from '../../rules.js';

// ---- example values ------------------------------------------------------

const ACCOUNT = '9d74eee4-1cad-45d7-b645-7ccf9edbb73d';
const ENV_CRN = `crn:cdp:environments:us-west-1:${ACCOUNT}:environment:2f1b7c4e-8a3d-4f6e-9b0c-5d7e1a2b3c4d`;
const CLUSTER = 'env-sq7hfv';
const DBC = 'warehouse-1696571829-pps2';
const HIVE_VW = 'compute-1696571962-8dd8';
const IMPALA_VW = 'impala-1696572085-cn44';
const VIZ = 'viz-1696572201-q7mz';
const JOB = '3f9a1c2e-5b7d-4e8f-a1b2-c3d4e5f6a7b8';
const BACKUP_CRN = `crn:cdp:dw:us-west-1:${ACCOUNT}:backup:6c0d2e4f-7a8b-4c9d-8e1f-2a3b4c5d6e7f`;
const RESTORE_CRN = `crn:cdp:dw:us-west-1:${ACCOUNT}:restore:0b5d3c2a-9e8f-4a1b-b6c7-d8e9f0a1b2c3`;
const TEMPLATE = '5e2f8a1c-3b4d-4c6e-9f7a-8b9c0d1e2f3a';
const CONNECTOR = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';

// ---- rules ---------------------------------------------------------------

/** Impala spills either to object storage or to a local scratch space of a given size. */
const IMPALA_SPILL: Rule = {
  kind: 'custom',
  field: 'impalaOptions',
  check: (r) => {
    const o = asObject(r.impalaOptions);
    return o && given(o.spillToS3Uri) && given(o.scratchSpaceLimit)
      ? 'impalaOptions: give spillToS3Uri or scratchSpaceLimit, not both'
      : undefined;
  },
};

const IMPALA_ONLY: Rule = {
  kind: 'custom',
  field: 'impalaOptions',
  check: (r) =>
    given(r.impalaOptions) && r.vwType !== undefined && r.vwType !== 'impala' ? '--impala-options is only for --vw-type impala' : undefined,
};

/** Hive scales on a wait time or on a free capacity, never both. */
const HIVE_SCALING: Rule = {
  kind: 'custom',
  field: 'autoscaling',
  check: (r) => {
    const a = asObject(r.autoscaling);
    return a && given(a.hiveScaleWaitTimeSeconds) && given(a.hiveDesiredFreeCapacity)
      ? 'autoscaling: give hiveScaleWaitTimeSeconds or hiveDesiredFreeCapacity, not both'
      : undefined;
  },
};

/** The global admission controller needs both coordinators active. */
const ADMISSION_CONTROLLER: Rule = {
  kind: 'custom',
  field: 'impalaHaSettings',
  check: (r) => {
    const ha = asObject(r.impalaHaSettings);
    if (!ha || ha.impalaEnableGlobalAdmissionController !== true) return undefined;
    const mode = ha.highAvailabilityMode;
    return mode !== undefined && mode !== 'ACTIVE_ACTIVE'
      ? 'impalaHaSettings: impalaEnableGlobalAdmissionController needs highAvailabilityMode ACTIVE_ACTIVE'
      : undefined;
  },
};

const DIAG_TIMES: Rule = {
  kind: 'custom',
  field: 'endTime',
  check: (r) =>
    typeof r.startTime === 'string' && typeof r.endTime === 'string' && Date.parse(r.startTime) > Date.parse(r.endTime)
      ? '--end-time must not be before --start-time'
      : undefined,
};

// ---- waiters -------------------------------------------------------------

/** Statuses a Data Warehouse resource ends in when its last change went wrong. */
const BROKEN = ['Error', 'Failed'];
/**
 * Deletes end when the describe call answers NOT_FOUND. `Deleted` is not a
 * status the service reports; it only gives the waiter a success state.
 */
const DELETED = ['Deleted'];
const GONE: Partial<WaiterSpec> = { goneIsSuccess: true };

/**
 * Waiters on the `status` a describe operation reports. `input` builds its
 * request (the id comes from the answer of a create, else from the request);
 * the result takes the success states and any overrides.
 */
const statusWait =
  (poll: string, input: Record<string, string>, state: string, interval = 15, timeout = 3600) =>
  (success: string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
    poll,
    input,
    state,
    success,
    failure: BROKEN,
    interval,
    timeout,
    ...extra,
  });

const clusterWait = statusWait('describeCluster', { clusterId: 'response.clusterId || request.clusterId' }, 'cluster.status', 30, 3 * 3600);
const dbcWait = statusWait('describeDbc', { clusterId: 'request.clusterId', dbcId: 'response.dbcId || request.dbcId' }, 'dbc.status');
const vwWait = statusWait('describeVw', { clusterId: 'request.clusterId', vwId: 'response.vwId || request.vwId' }, 'vw.status');
const vizWait = statusWait(
  'describeDataVisualization',
  { clusterId: 'request.clusterId', dataVisualizationId: 'response.dataVisualizationId || request.dataVisualizationId' },
  'dataVisualization.status',
);

/** A diagnostic bundle is ready when its job succeeds. `scope` names the owner's id fields. */
const diagWait = (poll: string, scope: readonly string[]): WaiterSpec => ({
  poll,
  input: { ...Object.fromEntries(scope.map((f) => [f, `request.${f}`])), jobId: 'response.id' },
  state: 'job.status',
  success: ['Succeeded'],
  failure: ['Failed', 'Deleted'],
  interval: 10,
  timeout: 3600,
});

/**
 * Backup and restore jobs (`kind` is backup or restore): COMPLETED, or
 * finished with errors or warnings (PARTIALLY_FAILED), or removed.
 */
const drsWait = (poll: string, kind: 'backup' | 'restore'): WaiterSpec => ({
  poll,
  input: { [`${kind}Crn`]: `response.${kind}Crn` },
  state: `${kind}.${kind}JobState`,
  success: ['COMPLETED'],
  failure: ['FAILED', 'PARTIALLY_FAILED', 'TERMINATING'],
  reason: `${kind}.errors[].text`,
  interval: 15,
  timeout: 2 * 3600,
});

// ---- shared help and columns -------------------------------------------

const CLUSTER_COLUMNS = {
  id: 'id',
  name: 'name',
  status: 'status',
  cloud: 'cloudPlatform',
  version: 'version',
  environment: 'environmentCrn',
  created: 'creationDate',
};

const JOB_COLUMNS = { jobId: 'jobId', status: 'status', start: 'startTime', end: 'endTime', url: 'url' };
const EVENT_COLUMNS = { time: 'timestamp', event: 'event', message: 'message' };
const CONFIG_HISTORY_COLUMNS = { configId: 'configId', serviceId: 'serviceId', from: 'from' };

/** Shared by the three ways to activate a cluster on a public cloud. */
const ACTIVATION_HELP = {
  databaseBackupRetentionPeriod: 'Days the backups of the cluster database (PostgreSQL) are kept',
  whitelistK8sClusterAccessIpCIDRs: 'CIDRs allowed to reach the Kubernetes API of the cluster, e.g. 203.0.113.0/24',
  whitelistWorkloadAccessIpCIDRs: 'CIDRs allowed to reach the warehouse endpoints (JDBC, Hue...), e.g. 203.0.113.0/24',
  customRegistryOptions: 'Pull images from your own registry: registryType (ACR or ECR) and repositoryUrl',
  customSubdomain: 'Subdomain for the cluster endpoints instead of the environment default, e.g. dw-sales-env',
};

/** The network choices of the generic and the AWS activation. */
const VPC_HELP = {
  useOverlayNetwork: 'Give pods addresses from a private range instead of the VPC subnets, saving VPC addresses',
  usePrivateLoadBalancer: 'Put the load balancer on private addresses (your network must reach the VPC)',
  usePublicWorkerNode: 'Give the worker nodes public addresses (in public subnets)',
};

const SPOT_HELP = {
  enableSpotInstances: 'Run Virtual Warehouse executors on spot instances; cannot be changed later',
};

const AWS_HELP = {
  enablePrivateEKS: 'Make the EKS API reachable only from internal or peered networks (needs Cluster Connectivity Manager v2)',
  workerSubnetIds: 'Subnets for the worker nodes, e.g. subnet-0a1b2c3d subnet-4e5f6a7b',
  lbSubnetIds: 'Subnets for the load balancer',
  customAmiId: 'AMI to launch the worker nodes from instead of the default',
  nodeRoleCDWManagedPolicyArn: 'ARN of a managed policy to attach to the node instance role',
  reducedPermissionMode: 'Activate with a cross-account role that has the reduced set of IAM permissions',
  nonTransparentProxy: 'Non-transparent proxy: use (true or false) and bypassedDomains',
};

const AZURE_HELP = {
  userAssignedManagedIdentity: 'Resource id of the managed identity AKS runs as',
  enableAZ: 'Spread the AKS nodes over availability zones',
  logAnalyticsWorkspaceId: 'Resource id of a Log Analytics workspace to monitor AKS with',
  outboundType: 'How cluster nodes reach the internet (AKS outbound type)',
  aksPodCIDR: 'Pod CIDR for Azure CNI overlay networking, e.g. 10.244.0.0/16',
  enablePrivateSQL: 'Put the PostgreSQL server on a private endpoint',
  privateSQLSubnetName: 'Delegated subnet for the private PostgreSQL server',
  privateDNSZoneSQL: 'Resource id of the private DNS zone of the PostgreSQL server',
  privateDNSZoneAKS: 'Resource id of the private DNS zone of AKS',
  enablePrivateAks: 'Make the AKS API server private',
};

const PRIVATE_HELP = {
  storageClass: 'Kubernetes storage class for local volumes (Local Storage Operator)',
  dedicatedExecutorNodes: 'Keep reserved nodes for executors and coordinators only',
  dbClientCredentials: 'certificate and privateKey (PEM text) the Database Catalogs use for mutual TLS to the metastore database',
  customKerberosPrincipalHostname: 'Host name to use in the Kerberos service principals of Database Catalogs and Virtual Warehouses',
};

const DIAG_HELP = {
  destination: 'UPLOAD_TO_CLOUDERA sends the bundle to Cloudera support; DOWNLOAD keeps it for you to fetch from its url',
  startTime: 'Collect logs and metrics from this time on (ISO 8601); default: 30 minutes ago',
  endTime: 'Collect logs and metrics up to this time (ISO 8601); default: now',
  caseNumber: 'Support case the bundle belongs to (for UPLOAD_TO_CLOUDERA)',
  bundleMetadata: 'Extra key=value pairs written into bundle-info.json',
  force: 'Start a new collection even if one is running',
};
const DIAG_JOB = { jobId: 'Id of the diagnostic job (see the matching `diagnostics list`)' };
const DIAG_FILTER = { status: 'Only jobs in this status' };

const EVENTS_HELP = {
  limit: 'Most events to return; default: all the service keeps (the last 50)',
  ascending: 'Oldest first; without it, newest first',
};

const CONFIG_SET = {
  set: 'Configuration files to change: configFile and keyValue (key-value files) or content (text files)',
};

const VW_SETTINGS = {
  tShirtSize: 'Size of each executor group, which sets the number of nodes',
  nodeCount: 'Nodes per executor group; overrides the size of --t-shirt-size',
  config: 'Configuration: commonConfigs, applicationConfigs, ldapGroups and enableSSO; applied on top of the current one',
  autoscaling: 'Autoscaling: minClusters, maxClusters, autoSuspendTimeoutSeconds, disableAutoSuspend and the Hive and Impala tuning fields',
  impalaHaSettings: 'Impala high availability: mode, coordinator shutdown and count, catalog and statestore standby',
  queryIsolationOptions: 'Query isolation: maxQueries and maxNodesPerQuery (0 turns it off)',
  additionalQuota: 'Extra quota for third-party services in the warehouse namespace: cpu (cores) and memory (MB)',
  hiveAuthenticationMode: 'How HiveServer authenticates: LDAP (default) or KERBEROS',
  platformJwtAuth: 'Accept JWTs issued by the platform token provider',
  impalaQueryLog: 'Keep the Impala query log',
  logHiveQueries: 'Record completed Hive queries in sys.query_history',
  hiveServerHaMode: 'HiveServer high availability on private cloud: DISABLED (default) or ACTIVE_PASSIVE',
};

const VIZ_CONFIG = { config: 'userGroups (may use it) and adminGroups (may configure it): LDAP group names' };

const cli: Record<string, OperationCli> = {
  // ---- clusters --------------------------------------------------------
  listClusters: {
    command: 'clusters list',
    summary: 'List Data Warehouse clusters, optionally filtered by environment, name, status or cloud.',
    examples: ['', '--status Running --output table', `--environment-crn ${ENV_CRN}`],
    fieldHelp: {
      environmentCrn: 'Only the cluster of this environment (CRN; see `environments list`)',
      clusterId: 'Only the cluster with this id',
      name: 'Only clusters with this name',
      status: 'Only clusters in this status',
      cloudPlatform: 'Only clusters on this cloud',
    },
    listKey: 'clusters',
    columns: CLUSTER_COLUMNS,
  },
  describeCluster: {
    command: 'clusters describe',
    summary: 'Show a Data Warehouse cluster: status, version, network options and support status.',
    examples: [`--cluster-id ${CLUSTER}`],
  },
  createCluster: {
    command: 'clusters create',
    summary: 'Activate the Data Warehouse service in an environment, with options for its cloud.',
    description: 'The generic form: prefer `clusters create aws`, `clusters create azure` or `clusters create private`.',
    examples: [
      `--environment-crn ${ENV_CRN} --aws-options '{"workerSubnetIds":["subnet-0a1b2c3d","subnet-4e5f6a7b"],"lbSubnetIds":["subnet-8c9d0e1f"]}' --wait`,
    ],
    fieldHelp: {
      ...ACTIVATION_HELP,
      ...VPC_HELP,
      whitelistIpCIDRs: 'Private cloud: comma-separated CIDRs allowed to reach the cluster',
      enableStorageRoles: 'Use storage roles (no longer used)',
      awsOptions: 'AWS options: workerSubnetIds, lbSubnetIds, enablePrivateEKS, customAmiId, enableSpotInstances...',
      azureOptions: 'Azure options: userAssignedManagedIdentity and subnetId (both needed on Azure), enableAZ, outboundType...',
      privateCloudOptions: 'Private cloud options: storageClass, dbClientCredentials, customKerberosPrincipalHostname',
    },
    wait: clusterWait(['Running']),
  },
  createAwsCluster: {
    command: 'clusters create aws',
    summary: 'Activate the Data Warehouse service in an AWS environment.',
    examples: [
      `--environment-crn ${ENV_CRN} --worker-subnet-ids subnet-0a1b2c3d subnet-4e5f6a7b --lb-subnet-ids subnet-8c9d0e1f --wait`,
      `--environment-crn ${ENV_CRN} --use-private-load-balancer --whitelist-workload-access-ip-cidrs 203.0.113.0/24 --enable-spot-instances`,
    ],
    fieldHelp: { ...ACTIVATION_HELP, ...VPC_HELP, ...SPOT_HELP, ...AWS_HELP },
    wait: clusterWait(['Running']),
  },
  createAzureCluster: {
    command: 'clusters create azure',
    summary: 'Activate the Data Warehouse service in an Azure environment.',
    examples: [
      `--environment-crn ${ENV_CRN} --user-assigned-managed-identity /subscriptions/3b9f1c2e-6d7a-4e8b-9c0d-1e2f3a4b5c6d/resourceGroups/dw-rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/dw-aks --subnet-name dw-subnet --wait`,
      `--environment-crn ${ENV_CRN} --user-assigned-managed-identity /subscriptions/3b9f1c2e-6d7a-4e8b-9c0d-1e2f3a4b5c6d/resourceGroups/dw-rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/dw-aks --subnet-name dw-subnet --enable-az --outbound-type UserDefinedRouting --enable-private-aks`,
    ],
    fieldHelp: {
      ...ACTIVATION_HELP,
      ...SPOT_HELP,
      ...AZURE_HELP,
      subnetName: 'Name of the subnet (of the environment network) to deploy the cluster in',
      useOverlayNetworking: 'Give pods addresses from a separate range (Azure CNI overlay) instead of the VNet subnet',
      useInternalLoadBalancer: 'Use an internal load balancer (your network must reach the VNet)',
    },
    wait: clusterWait(['Running']),
  },
  createPrivateCluster: {
    command: 'clusters create private',
    summary: 'Activate the Data Warehouse service in a private cloud environment.',
    examples: [`--environment-crn ${ENV_CRN} --storage-class local-path --wait`],
    fieldHelp: PRIVATE_HELP,
    wait: clusterWait(['Running']),
  },
  deleteCluster: {
    command: 'clusters delete',
    summary: 'Deactivate the Data Warehouse service in an environment and remove its cluster.',
    examples: [`--cluster-id ${CLUSTER} --yes --wait`, `--cluster-id ${CLUSTER} --force --yes`],
    fieldHelp: {
      force:
        'Delete even with Database Catalogs and Virtual Warehouses attached, going on past failed steps; their data is lost and some cloud resources may be left behind',
    },
    destructive: true,
    wait: clusterWait(DELETED, GONE),
  },
  updateCluster: {
    command: 'clusters update',
    summary: 'Change the description, allowed CIDRs or cloud-specific settings of a cluster.',
    examples: [
      `--cluster-id ${CLUSTER} --whitelist-workload-access-ip-cidrs 203.0.113.0/24 198.51.100.0/24 --wait`,
      `--cluster-id ${CLUSTER} --description "Sales analytics" --aws-update '{"externalBuckets":{"sales-archive":{"accessMode":"READ"}}}'`,
    ],
    fieldHelp: {
      description: 'Free-text description of the cluster',
      whitelistIpCIDRs: 'CIDRs allowed to reach the cluster (older form of the two lists below)',
      whitelistK8sClusterAccessIpCIDRs: 'CIDRs allowed to reach the Kubernetes API; replaces the current list',
      whitelistWorkloadAccessIpCIDRs: 'CIDRs allowed to reach the warehouse endpoints; replaces the current list',
      awsUpdate: 'AWS: externalBuckets, a map of bucket name to accessMode (READ or READWRITE) and kmsCmkArn',
      azureUpdate: 'Azure: renewCertificate (true renews the cluster certificate)',
      observabilityConfig: 'Log forwarding: logsForwardingConfig (fluentd configuration) and proxyCABundle (PEM)',
    },
    wait: clusterWait(['Running'], { interval: 15, timeout: 3600 }),
  },
  describeKubeconfig: {
    command: 'clusters kubeconfig',
    summary: 'Print the kubeconfig that reaches the Kubernetes cluster behind a Data Warehouse cluster.',
    description:
      'To use it with kubectl: `cdpctl dw clusters kubeconfig --cluster-id env-sq7hfv --query kubeconfig --output text > dw.kubeconfig`.',
    examples: [`--cluster-id ${CLUSTER}`],
  },
  updateSshKey: {
    command: 'clusters update-ssh-key',
    summary: "Push the environment's SSH public key to the nodes of a cluster, e.g. after changing it on the environment.",
    examples: [`--cluster-id ${CLUSTER}`],
  },
  renewCertificates: {
    command: 'clusters renew-certificates',
    summary: 'Renew the certificates of a public cloud cluster.',
    examples: [`--cluster-id ${CLUSTER} --wait`],
    wait: clusterWait(['Running'], { interval: 15, timeout: 3600 }),
  },
  backupCluster: {
    command: 'clusters backup',
    summary: 'Save the settings of a cluster and its catalogs, warehouses and visualizations as restorable data.',
    description:
      'The answer carries the backup in `data` (a base64 zip). Keep it yourself, e.g. with `--query data --output text > env-sq7hfv.b64`: the service does not store it.',
    examples: [`--cluster-id ${CLUSTER}`],
  },
  restoreCluster: {
    command: 'clusters restore',
    summary: 'Recreate the catalogs, warehouses and visualizations of a cluster from `clusters backup` data.',
    description:
      'Follow the restore with `dw events list --operation-id <operationId>`: it spans several resources, so there is no one state to wait for.',
    examples: [`--cluster-id ${CLUSTER} --data file://env-sq7hfv.b64`],
    fieldHelp: {
      clusterId: 'Id of the cluster to restore into, or the CRN of an environment to activate from the backup',
      data: 'The `data` value printed by `clusters backup` (base64), e.g. file://env-sq7hfv.b64',
    },
  },
  listLatestVersions: {
    command: 'clusters latest-versions',
    summary: 'Show the newest version available for each catalog and warehouse of a cluster.',
    examples: [`--cluster-id ${CLUSTER}`],
  },
  createClusterDiagnosticDataJob: {
    command: 'clusters diagnostics create',
    summary: 'Collect logs and metrics of a cluster into a diagnostic bundle.',
    examples: [
      `--cluster-id ${CLUSTER} --destination DOWNLOAD --wait`,
      `--cluster-id ${CLUSTER} --destination UPLOAD_TO_CLOUDERA --case-number 00123456 --start-time 2026-11-20T08:00:00Z --end-time 2026-11-20T10:00:00Z`,
    ],
    fieldHelp: DIAG_HELP,
    rules: [DIAG_TIMES],
    wait: diagWait('describeClusterDiagnosticDataJob', ['clusterId']),
  },
  listClusterDiagnosticDataJobs: {
    command: 'clusters diagnostics list',
    summary: 'List the diagnostic bundles of a cluster.',
    examples: [`--cluster-id ${CLUSTER} --output table`, `--cluster-id ${CLUSTER} --status Running`],
    fieldHelp: DIAG_FILTER,
    columns: JOB_COLUMNS,
  },
  describeClusterDiagnosticDataJob: {
    command: 'clusters diagnostics describe',
    summary: 'Show a diagnostic bundle of a cluster: status, time range and download url.',
    examples: [`--cluster-id ${CLUSTER} --job-id ${JOB}`],
    fieldHelp: DIAG_JOB,
  },
  deleteClusterDiagnosticDataJob: {
    command: 'clusters diagnostics delete',
    summary: 'Delete a diagnostic bundle of a cluster, stopping it if it still runs.',
    examples: [`--cluster-id ${CLUSTER} --job-id ${JOB} --yes`],
    fieldHelp: DIAG_JOB,
    destructive: true,
  },

  // ---- users -----------------------------------------------------------
  addUser: {
    command: 'users add',
    summary: 'Give an existing cloud user or group access to a cluster.',
    examples: [`--cluster-id ${CLUSTER} --user-id arn:aws:iam::123456789012:role/analytics-team`],
  },
  deleteUser: {
    command: 'users remove',
    summary: 'Take away the access of a cloud user or group to a cluster (the user itself stays).',
    examples: [`--cluster-id ${CLUSTER} --user-id arn:aws:iam::123456789012:role/analytics-team --yes`],
    destructive: true,
  },
  listUsers: {
    command: 'users list',
    summary: 'List the cloud users and groups that have access to a cluster.',
    examples: [`--cluster-id ${CLUSTER}`, `--cluster-id ${CLUSTER} --output table`],
    listKey: 'users',
    columns: { userId: 'userId' },
  },

  // ---- database catalogs -----------------------------------------------
  createDbc: {
    command: 'dbcs create',
    summary: 'Create an extra Database Catalog in a cluster.',
    description: 'Deprecated: activation creates the default Database Catalog.',
    examples: [`--cluster-id ${CLUSTER} --name sales-catalog --wait`, `--cluster-id ${CLUSTER} --name demo-catalog --load-demo-data`],
    fieldHelp: {
      name: 'Name of the new Database Catalog',
      loadDemoData: 'Load the demo data sets into it',
      imageVersion: 'Version to create it at; default: the latest',
      resourceTemplateId: 'Resource template to size it with (see `dw resource-templates list`)',
      isDefault: 'Create it as a default Database Catalog (no longer allowed)',
    },
    replacement: 'clusters create',
    wait: dbcWait(['Running']),
  },
  listDbcs: {
    command: 'dbcs list',
    summary: 'List the Database Catalogs of a cluster.',
    examples: [`--cluster-id ${CLUSTER}`, `--cluster-id ${CLUSTER} --output table`],
    listKey: 'dbcs',
    columns: { id: 'id', name: 'name', status: 'status', template: 'resourceTemplateId', created: 'creationDate' },
  },
  describeDbc: {
    command: 'dbcs describe',
    summary: 'Show a Database Catalog: status, resources and creator.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC}`],
  },
  deleteDbc: {
    command: 'dbcs delete',
    summary: 'Delete a Database Catalog.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC} --yes --wait`],
    destructive: true,
    wait: dbcWait(DELETED, GONE),
  },
  rebuildDbc: {
    command: 'dbcs rebuild',
    summary: 'Redeploy a Database Catalog to repair an inconsistent or failed state.',
    description: 'Running and stopped catalogs can be rebuilt too; do not start another rebuild before the first one ends.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC} --wait`],
    wait: dbcWait(['Running']),
  },
  suspendDbc: {
    command: 'dbcs suspend',
    summary: 'Stop a running Database Catalog.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC} --wait`],
    wait: dbcWait(['Stopped']),
  },
  startDbc: {
    command: 'dbcs start',
    summary: 'Start a stopped Database Catalog.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC} --wait`, `--cluster-id ${CLUSTER} --dbc-id ${DBC} --force-refresh`],
    fieldHelp: { forceRefresh: 'Reload its configuration while starting' },
    wait: dbcWait(['Running']),
  },
  updateDbc: {
    command: 'dbcs update',
    summary: 'Change the resource template or configuration of a Database Catalog.',
    examples: [
      `--cluster-id ${CLUSTER} --dbc-id ${DBC} --resource-template-id ${TEMPLATE} --wait`,
      `--cluster-id ${CLUSTER} --dbc-id ${DBC} --config '{"ldapGroups":["dw-admins"]}'`,
    ],
    fieldHelp: {
      resourceTemplateId: 'Resource template to size it with (see `dw resource-templates list`)',
      config: 'Configuration: commonConfigs, applicationConfigs, ldapGroups, enableSSO; applied on top of the current one',
    },
    wait: dbcWait(['Running']),
  },
  upgradeDbc: {
    command: 'dbcs upgrade',
    summary: 'Upgrade a Database Catalog to a newer compatible version.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC} --image-version 2024.0.18.0-301 --wait`],
    fieldHelp: { imageVersion: 'Version to upgrade to (see `dw dbcs upgrade-versions`)' },
    wait: dbcWait(['Running'], { timeout: 2 * 3600 }),
  },
  getUpgradeDbcVersions: {
    command: 'dbcs upgrade-versions',
    summary: 'Show the latest and the latest compatible version a Database Catalog can be upgraded to.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC}`],
  },
  describeDbcConfig: {
    command: 'dbcs config describe',
    summary: 'Show the current configuration of a Database Catalog.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC}`],
  },
  updateDbcConfig: {
    command: 'dbcs config update',
    summary: 'Change configuration files of one component of a Database Catalog.',
    examples: [
      `--cluster-id ${CLUSTER} --dbc-id ${DBC} --component Metastore --set '[{"configFile":"hive-site","keyValue":{"hive.metastore.event.db.notification.api.auth":"false"}}]' --wait`,
    ],
    fieldHelp: { component: 'Component whose configuration to change', ...CONFIG_SET },
    wait: dbcWait(['Running']),
  },
  listDbcConfigs: {
    command: 'dbcs config history',
    summary: 'List the configuration versions of a Database Catalog, newest first.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC} --output table`],
    listKey: 'configHistory',
    columns: CONFIG_HISTORY_COLUMNS,
  },
  listDbcEvents: {
    command: 'dbcs events list',
    summary: 'List the recent events of a Database Catalog.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC}`, `--cluster-id ${CLUSTER} --dbc-id ${DBC} --limit 10 --ascending --output table`],
    fieldHelp: EVENTS_HELP,
    listKey: 'events',
    columns: EVENT_COLUMNS,
  },
  createDbcDiagnosticDataJob: {
    command: 'dbcs diagnostics create',
    summary: 'Collect logs and metrics of a Database Catalog into a diagnostic bundle.',
    examples: [
      `--cluster-id ${CLUSTER} --dbc-id ${DBC} --destination DOWNLOAD --wait`,
      `--cluster-id ${CLUSTER} --dbc-id ${DBC} --destination UPLOAD_TO_CLOUDERA --case-number 00123456 --bundle-metadata team=sales`,
    ],
    fieldHelp: DIAG_HELP,
    rules: [DIAG_TIMES],
    wait: diagWait('describeDbcDiagnosticDataJob', ['clusterId', 'dbcId']),
  },
  listDbcDiagnosticDataJobs: {
    command: 'dbcs diagnostics list',
    summary: 'List the diagnostic bundles of a Database Catalog.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC} --output table`],
    fieldHelp: DIAG_FILTER,
    columns: JOB_COLUMNS,
  },
  describeDbcDiagnosticDataJob: {
    command: 'dbcs diagnostics describe',
    summary: 'Show a diagnostic bundle of a Database Catalog: status, time range and download url.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC} --job-id ${JOB}`],
    fieldHelp: DIAG_JOB,
  },
  deleteDbcDiagnosticDataJob: {
    command: 'dbcs diagnostics delete',
    summary: 'Delete a diagnostic bundle of a Database Catalog, stopping it if it still runs.',
    examples: [`--cluster-id ${CLUSTER} --dbc-id ${DBC} --job-id ${JOB} --yes`],
    fieldHelp: DIAG_JOB,
    destructive: true,
  },

  // ---- virtual warehouses ----------------------------------------------
  createVw: {
    command: 'vws create',
    summary: 'Create a Hive or Impala Virtual Warehouse on a Database Catalog.',
    examples: [
      `--cluster-id ${CLUSTER} --dbc-id ${DBC} --vw-type hive --name sales-hive --t-shirt-size small --wait`,
      `--cluster-id ${CLUSTER} --dbc-id ${DBC} --vw-type impala --name sales-impala --t-shirt-size medium --autoscaling '{"minClusters":1,"maxClusters":4,"autoSuspendTimeoutSeconds":600}' --impala-ha-settings highAvailabilityMode=ACTIVE_PASSIVE --tags '[{"key":"team","value":"sales"}]'`,
    ],
    fieldHelp: {
      ...VW_SETTINGS,
      dbcId: 'Id of the Database Catalog it queries (see `dw dbcs list`)',
      vwType: 'Query engine',
      name: 'Name of the new Virtual Warehouse',
      instanceType: 'Instance type of its nodes (see `dw instance-types describe`)',
      imageVersion: 'Version to create it at; default: the latest',
      availabilityZone: 'AWS only: availability zone for its nodes (see availabilityZones in `dw clusters describe`); default: any',
      enableUnifiedAnalytics: 'Turn on Unified Analytics (Impala only; needed for --query-isolation-options there)',
      impalaOptions: 'Impala spilling: spillToS3Uri (s3://bucket/path) or scratchSpaceLimit (GiB)',
      tags: 'Tags for its cloud resources, e.g. [{"key":"team","value":"sales"}]',
      resourcePool: 'Resource pool to place it in (private cloud)',
      ebsLLAPSpillGB: 'Size in GB of an EBS gp3 volume for the Hive LLAP cache (AWS; only at creation; costs extra)',
    },
    rules: [IMPALA_SPILL, IMPALA_ONLY, HIVE_SCALING, ADMISSION_CONTROLLER],
    wait: vwWait(['Running']),
  },
  listVws: {
    command: 'vws list',
    summary: 'List the Virtual Warehouses of a cluster, optionally by type or Database Catalog.',
    examples: [`--cluster-id ${CLUSTER}`, `--cluster-id ${CLUSTER} --filter vwType=impala --output table`],
    fieldHelp: { filter: `Only some: vwType (hive or impala), dbcId, compactor (true or false), viz (true or false)` },
    listKey: 'vws',
    columns: {
      id: 'id',
      name: 'name',
      type: 'vwType',
      status: 'status',
      dbc: 'dbcId',
      nodes: 'nodeCount',
      version: 'cdhVersion',
      created: 'creationDate',
    },
  },
  describeVw: {
    command: 'vws describe',
    summary: 'Show a Virtual Warehouse: status, endpoints, size, autoscaling and versions.',
    description: 'The JDBC, Hue and Impala shell endpoints are under `vw.endpoints` (`--query vw.endpoints`).',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW}`],
  },
  deleteVw: {
    command: 'vws delete',
    summary: 'Delete a Virtual Warehouse.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --yes --wait`],
    destructive: true,
    wait: vwWait(DELETED, GONE),
  },
  rebuildVw: {
    command: 'vws rebuild',
    summary: 'Redeploy a Virtual Warehouse to repair an inconsistent or failed state.',
    description: 'Running and stopped warehouses can be rebuilt too; do not start another rebuild before the first one ends.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --wait`],
    wait: vwWait(['Running']),
  },
  startVw: {
    command: 'vws start',
    summary: 'Start a suspended Virtual Warehouse.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --wait`, `--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --force-refresh`],
    fieldHelp: { forceRefresh: 'Reload its configuration while starting' },
    wait: vwWait(['Running']),
  },
  suspendVw: {
    command: 'vws suspend',
    summary: 'Stop a running Virtual Warehouse.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --wait`],
    wait: vwWait(['Stopped']),
  },
  updateVw: {
    command: 'vws update',
    summary: 'Resize a Virtual Warehouse or change its autoscaling, high availability or configuration.',
    examples: [
      `--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --t-shirt-size medium --wait`,
      `--cluster-id ${CLUSTER} --vw-id ${IMPALA_VW} --autoscaling '{"maxClusters":6,"autoSuspendTimeoutSeconds":900}'`,
    ],
    fieldHelp: {
      ...VW_SETTINGS,
      autoscaling: 'Autoscaling changes: minClusters and maxClusters (0 keeps them), autoSuspendTimeoutSeconds, Hive and Impala tuning',
      impalaHaSettings: 'Impala high availability changes: shutdownOfCoordinatorDelaySeconds, numOfActiveCoordinators, global admission',
      hiveAuthenticationMode: 'How HiveServer authenticates: LDAP or KERBEROS; default: unchanged',
      associatedConnectors: 'Connectors to attach: a map of name to {name, configId} (see `dw connectors list`)',
    },
    rules: [HIVE_SCALING],
    wait: vwWait(['Running']),
  },
  upgradeVw: {
    command: 'vws upgrade',
    summary: 'Upgrade a Virtual Warehouse to a newer compatible version.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --dbc-id ${DBC} --image-version 2024.0.18.0-301 --wait`],
    fieldHelp: {
      dbcId: 'Id of the Database Catalog it is attached to (see `dw dbcs list`)',
      imageVersion: 'Version to upgrade to (see `dw vws upgrade-versions`)',
      resourcePool: 'Resource pool to move it to (private cloud)',
    },
    wait: vwWait(['Running'], { timeout: 2 * 3600 }),
  },
  getUpgradeVwVersions: {
    command: 'vws upgrade-versions',
    summary: 'Show the latest and the latest compatible version a Virtual Warehouse can be upgraded to.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW}`],
  },
  describeVwConfig: {
    command: 'vws config describe',
    summary: 'Show the current configuration of a Virtual Warehouse.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW}`],
  },
  updateVwConfig: {
    command: 'vws config update',
    summary: 'Change configuration files of one component of a Virtual Warehouse.',
    examples: [
      `--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --component Hiveserver2 --set '[{"configFile":"hive-site","keyValue":{"hive.server2.idle.session.timeout":"3600000"}}]' --wait`,
    ],
    fieldHelp: {
      component:
        'Component whose configuration to change: Hive uses DasWebapp, Hiveserver2, QueryCoordinator, QueryExecutor, StandaloneQueryExecutor, TokenAuth, Hue; Impala uses Hue and the Impala* ones',
      ...CONFIG_SET,
    },
    wait: vwWait(['Running']),
  },
  listVwConfigs: {
    command: 'vws config history',
    summary: 'List the configuration versions of a Virtual Warehouse, newest first.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --output table`],
    listKey: 'configHistory',
    columns: CONFIG_HISTORY_COLUMNS,
  },
  listVwEvents: {
    command: 'vws events list',
    summary: 'List the recent events of a Virtual Warehouse.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW}`, `--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --limit 10 --output table`],
    fieldHelp: EVENTS_HELP,
    listKey: 'events',
    columns: EVENT_COLUMNS,
  },
  createVwDiagnosticDataJob: {
    command: 'vws diagnostics create',
    summary: 'Collect logs and metrics of a Virtual Warehouse into a diagnostic bundle.',
    examples: [
      `--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --destination DOWNLOAD --wait`,
      `--cluster-id ${CLUSTER} --vw-id ${IMPALA_VW} --destination UPLOAD_TO_CLOUDERA --case-number 00123456 --start-time 2026-11-20T08:00:00Z`,
    ],
    fieldHelp: DIAG_HELP,
    rules: [DIAG_TIMES],
    wait: diagWait('describeVwDiagnosticDataJob', ['clusterId', 'vwId']),
  },
  listVwDiagnosticDataJobs: {
    command: 'vws diagnostics list',
    summary: 'List the diagnostic bundles of a Virtual Warehouse.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --output table`],
    fieldHelp: DIAG_FILTER,
    columns: JOB_COLUMNS,
  },
  describeVwDiagnosticDataJob: {
    command: 'vws diagnostics describe',
    summary: 'Show a diagnostic bundle of a Virtual Warehouse: status, time range and download url.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --job-id ${JOB}`],
    fieldHelp: DIAG_JOB,
  },
  deleteVwDiagnosticDataJob: {
    command: 'vws diagnostics delete',
    summary: 'Delete a diagnostic bundle of a Virtual Warehouse, stopping it if it still runs.',
    examples: [`--cluster-id ${CLUSTER} --vw-id ${HIVE_VW} --job-id ${JOB} --yes`],
    fieldHelp: DIAG_JOB,
    destructive: true,
  },

  // ---- configurations by id ---------------------------------------------
  describeConfig: {
    command: 'configs describe',
    summary: 'Show one configuration version of a Database Catalog or Virtual Warehouse.',
    examples: [`--cluster-id ${CLUSTER} --config-id config-1696572300-x7kq`],
    fieldHelp: { configId: 'Id of the configuration version (see `dw dbcs config history` or `dw vws config history`)' },
  },
  describeConfigDiff: {
    command: 'configs diff',
    summary: 'Show what changed between two configuration versions.',
    examples: [`--cluster-id ${CLUSTER} --from-config-id config-1696572300-x7kq --to-config-id config-1696575900-m3np`],
    fieldHelp: {
      fromConfigId: 'Id of the older configuration version (see `config history`)',
      toConfigId: 'Id of the newer configuration version',
    },
  },

  // ---- data visualizations ---------------------------------------------
  createDataVisualization: {
    command: 'data-visualizations create',
    summary: 'Create a Data Visualization instance in a cluster.',
    examples: [`--cluster-id ${CLUSTER} --name sales-dashboards --config '{"userGroups":["analysts"],"adminGroups":["dw-admins"]}' --wait`],
    fieldHelp: {
      name: 'Name of the new Data Visualization',
      ...VIZ_CONFIG,
      imageVersion: 'Version to create it at; default: the latest',
      resourceTemplate: 'Name of the resource template to size it with (see `dw resource-templates list`)',
      resourcePool: 'Resource pool to place it in (private cloud)',
    },
    wait: vizWait(['Running']),
  },
  listDataVisualizations: {
    command: 'data-visualizations list',
    summary: 'List the Data Visualization instances of a cluster.',
    examples: [`--cluster-id ${CLUSTER}`, `--cluster-id ${CLUSTER} --output table`],
    listKey: 'dataVisualizations',
    columns: { id: 'id', name: 'name', status: 'status', version: 'imageVersion', size: 'size' },
  },
  describeDataVisualization: {
    command: 'data-visualizations describe',
    summary: 'Show a Data Visualization instance: status, version, size and groups.',
    examples: [`--cluster-id ${CLUSTER} --data-visualization-id ${VIZ}`],
  },
  deleteDataVisualization: {
    command: 'data-visualizations delete',
    summary: 'Delete a Data Visualization instance.',
    examples: [`--cluster-id ${CLUSTER} --data-visualization-id ${VIZ} --yes --wait`],
    destructive: true,
    wait: vizWait(DELETED, GONE),
  },
  updateDataVisualization: {
    command: 'data-visualizations update',
    summary: 'Change the user and admin groups of a Data Visualization instance.',
    examples: [`--cluster-id ${CLUSTER} --data-visualization-id ${VIZ} --config '{"userGroups":["analysts","finance"]}' --wait`],
    fieldHelp: { config: 'userGroups and adminGroups (LDAP group names); applied on top of the current ones' },
    wait: vizWait(['Running']),
  },
  upgradeDataVisualization: {
    command: 'data-visualizations upgrade',
    summary: 'Upgrade a Data Visualization instance to a newer compatible version.',
    examples: [`--cluster-id ${CLUSTER} --data-visualization-id ${VIZ} --image-version 7.2.3-b46 --wait`],
    fieldHelp: {
      imageVersion: 'Version to upgrade to (see `dw data-visualizations upgrade-versions`)',
      resourcePool: 'Resource pool to move it to (private cloud)',
    },
    wait: vizWait(['Running'], { timeout: 2 * 3600 }),
  },
  getDataVisualizationUpgradeVersion: {
    command: 'data-visualizations upgrade-versions',
    summary: 'Show the latest version a Data Visualization instance can be upgraded to.',
    examples: [`--cluster-id ${CLUSTER} --data-visualization-id ${VIZ}`],
  },

  // ---- secrets ---------------------------------------------------------
  createSecret: {
    command: 'secrets create',
    summary: 'Store a secret in the Kubernetes cluster for connecting to an external data source (private cloud).',
    examples: [`--cluster-id ${CLUSTER} --secret-name pg-sales-password --secret-value file://pg-password.txt`],
    fieldHelp: { secretName: 'Name of the new secret', secretValue: 'The secret itself; not shown again' },
  },
  registerSecret: {
    command: 'secrets register',
    summary: "Register a secret kept in the cloud provider's vault, for connecting to an external data source.",
    examples: [
      `--cluster-id ${CLUSTER} --secret-name pg-sales-password --secret-provider-key pg-sales-password --azure-vault-name dw-vault`,
    ],
    fieldHelp: {
      secretName: 'Name to know the secret by',
      secretProviderKey: 'Key (name) of the secret in the vault',
      azureVaultName: 'Azure: name of the key vault holding it',
    },
  },
  listSecrets: {
    command: 'secrets list',
    summary: 'List the secrets registered for a cluster.',
    examples: [`--cluster-id ${CLUSTER}`, `--cluster-id ${CLUSTER} --output table`],
    listKey: 'result',
    columns: { name: 'secretName', providerKey: 'secretProviderKey', createdBy: 'createdBy' },
  },
  deleteSecret: {
    command: 'secrets delete',
    summary: 'Forget a secret of a cluster.',
    examples: [`--cluster-id ${CLUSTER} --secret-name pg-sales-password --yes`],
    fieldHelp: { secretName: 'Name of the secret (see `dw secrets list`)' },
    destructive: true,
  },

  // ---- connectors --------------------------------------------------------
  createConnector: {
    command: 'connectors create',
    summary: 'Create a connector that lets Virtual Warehouses query an external data source.',
    examples: [
      `--cluster-id ${CLUSTER} --name sales-postgres --template postgresql --config connection-url=jdbc:postgresql://pg.example.com:5432/sales,connection-user=dw --description "Sales orders database"`,
    ],
    fieldHelp: {
      name: 'Name of the new connector',
      template: 'Kind of data source, e.g. postgresql or mysql',
      config: 'Connection properties as key=value pairs',
      description: 'Free-text description',
    },
  },
  updateConnector: {
    command: 'connectors update',
    summary: 'Change the name, kind, properties or description of a connector.',
    examples: [`--cluster-id ${CLUSTER} --connector-id ${CONNECTOR} --config connection-url=jdbc:postgresql://pg2.example.com:5432/sales`],
    fieldHelp: {
      connectorId: 'Id of the connector (see `dw connectors list`)',
      name: 'New name',
      template: 'Kind of data source, e.g. postgresql or mysql',
      config: 'Connection properties as key=value pairs',
      description: 'Free-text description',
    },
  },
  deleteConnector: {
    command: 'connectors delete',
    summary: 'Delete a connector.',
    examples: [`--cluster-id ${CLUSTER} --connector-id ${CONNECTOR} --yes`],
    fieldHelp: { connectorId: 'Id of the connector (see `dw connectors list`)' },
    destructive: true,
  },
  listConnectors: {
    command: 'connectors list',
    summary: 'List the connectors of a cluster.',
    examples: [`--cluster-id ${CLUSTER}`, `--cluster-id ${CLUSTER} --output table`],
    listKey: 'connectors',
    columns: { id: 'id', name: 'name', template: 'template', updatedBy: 'updatedBy', description: 'description' },
  },
  createConnectorTestJob: {
    command: 'connectors test',
    summary: 'Start a job that checks a connector, or connection properties, against its data source.',
    examples: [
      `--cluster-id ${CLUSTER} --connector-id ${CONNECTOR}`,
      `--cluster-id ${CLUSTER} --connector-name sales-postgres --config connection-url=jdbc:postgresql://pg.example.com:5432/sales`,
    ],
    fieldHelp: {
      connectorId: 'Id of the connector to test (see `dw connectors list`)',
      connectorName: 'Name of the connector to test',
      config: 'Connection properties to test, as key=value pairs',
    },
  },
  listConnectorTestJobs: {
    command: 'connectors list-tests',
    summary: 'List connector test jobs with their status and output.',
    examples: [`--cluster-id ${CLUSTER}`, `--cluster-id ${CLUSTER} --job-id 4d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a`],
    fieldHelp: { jobId: 'Only this test job (the jobId `dw connectors test` printed)' },
    listKey: 'results',
    columns: { jobId: 'jobId', status: 'status', started: 'jobStartTime', finished: 'jobFinishTime' },
  },

  // ---- resource templates ----------------------------------------------
  listResourceTemplates: {
    command: 'resource-templates list',
    summary: 'List the resource templates (CPU and memory sizes) for catalogs, warehouses and visualizations.',
    examples: ['', '--output table'],
    listKey: 'templates',
    columns: { id: 'id', name: 'name', type: 'entityType', version: 'version', default: 'isDefault' },
  },
  createResourceTemplate: {
    command: 'resource-templates create',
    summary: 'Create a resource template with your own CPU, memory and disk sizes.',
    examples: [
      `--name impala-large --entity-type impala --description "Bigger Impala executors" --resources '{"impala-executor":{"cpu":14,"memory":"110Gi"}}'`,
    ],
    fieldHelp: {
      id: 'Not used',
      name: 'Name of the new template',
      description: 'Free-text description',
      entityType: 'What it sizes: impala, hive, trino, hue, dbc or viz',
      resources: 'Per component: cpu, memory, breakdown (JVM sizes), ephemeralStorage, localStorageSize',
    },
  },
  updateResourceTemplate: {
    command: 'resource-templates update',
    summary: 'Change a resource template; it gets a new version and existing resources keep theirs.',
    examples: [`--template-id ${TEMPLATE} --resources '{"impala-executor":{"cpu":16,"memory":"120Gi"}}'`],
    fieldHelp: {
      templateId: 'Id of the template (see `dw resource-templates list`)',
      name: 'New name',
      description: 'Free-text description',
      resources: 'Per component: cpu, memory, breakdown (JVM sizes), ephemeralStorage, localStorageSize',
    },
  },
  deleteResourceTemplate: {
    command: 'resource-templates delete',
    summary: 'Delete a resource template, or one version of it.',
    examples: [`--template-id ${TEMPLATE} --yes`, `--template-id ${TEMPLATE} --template-version 2 --yes`],
    fieldHelp: {
      templateId: 'Id of the template (see `dw resource-templates list`)',
      templateVersion: 'Only this version; default: the whole template',
    },
    destructive: true,
  },

  // ---- backups and restores (private cloud) ------------------------------
  createBackup: {
    command: 'backups create',
    summary: 'Back up the Data Warehouse (Kubernetes objects and volumes), all of it or some namespaces.',
    examples: ['--backup-name nightly --wait', `--backup-name sales-only --namespace-names ${DBC} ${HIVE_VW}`],
    fieldHelp: {
      backupName: 'A name to find the backup by; default: none',
      namespaceNames: 'Namespaces to back up (see `dw backups list-entities`); default: all',
    },
    wait: drsWait('describeBackup', 'backup'),
  },
  describeBackup: {
    command: 'backups describe',
    summary: 'Show a backup: phase, job state, namespaces, warnings and errors.',
    examples: [`--backup-crn ${BACKUP_CRN}`],
  },
  listBackups: {
    command: 'backups list',
    summary: 'List the backups of the Data Warehouse, optionally by name or job state.',
    examples: ['', '--backup-name nightly --job-states COMPLETED PARTIALLY_FAILED --output table'],
    fieldHelp: {
      backupName: 'Only backups with this name',
      jobStates:
        'Only backups whose job is in one of these states: NOT_STARTED, IN_PROGRESS, COMPLETED, PARTIALLY_FAILED, FAILED, TERMINATING',
      includeAutomaticBackups: 'Also list backups the system made on its own (default true)',
    },
    listKey: 'backups',
    columns: { crn: 'backupCrn', name: 'backupName', created: 'backupCreationTime' },
  },
  deleteBackup: {
    command: 'backups delete',
    summary: 'Delete a backup; the deletion goes on in the background.',
    examples: [`--backup-crn ${BACKUP_CRN} --yes`],
    destructive: true,
  },
  restoreBackup: {
    command: 'backups restore',
    summary: 'Restore the Data Warehouse, or some namespaces of it, from a backup.',
    examples: [`--backup-crn ${BACKUP_CRN} --wait`, `--backup-crn ${BACKUP_CRN} --namespace-names ${DBC} --rebuild`],
    fieldHelp: {
      namespaceNames: 'Namespaces to restore; default: every namespace in the backup',
      rebuild: 'Rebuild the restored catalogs, warehouses and visualizations (not for automatic backups)',
    },
    wait: drsWait('describeRestore', 'restore'),
  },
  listBackupEntities: {
    command: 'backups list-entities',
    summary: 'List the namespaces a backup can include.',
    examples: [''],
  },
  getLogs: {
    command: 'backups logs',
    summary: 'Print the job logs of a backup, a restore or a backup deletion.',
    examples: [`--crn ${BACKUP_CRN}`, `--crn ${RESTORE_CRN}`],
    fieldHelp: { crn: 'CRN of the backup, restore or backup deletion' },
  },
  describeRestore: {
    command: 'restores describe',
    summary: 'Show a restore: phase, job state, namespaces, warnings and errors.',
    examples: [`--restore-crn ${RESTORE_CRN}`],
  },
  listRestores: {
    command: 'restores list',
    summary: 'List restores, optionally of one backup or by job state.',
    examples: ['', `--backup-crn ${BACKUP_CRN} --output table`],
    fieldHelp: {
      backupCrn: 'Only restores of this backup',
      jobStates:
        'Only restores whose job is in one of these states: NOT_STARTED, IN_PROGRESS, COMPLETED, PARTIALLY_FAILED, FAILED, TERMINATING',
    },
    listKey: 'restores',
    columns: { crn: 'restoreCrn', backup: 'backupCrn', created: 'restoreCreationTime' },
  },

  // ---- events, settings, instance types, health --------------------------
  listEvents: {
    command: 'events list',
    summary: 'List the events of an operation (such as a cluster restore) or of one cluster, catalog or warehouse.',
    examples: [`--service-id ${HIVE_VW}`, '--operation-id 8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968 --ascending --output table'],
    fieldHelp: {
      operationId: 'Id of the operation (e.g. from `dw clusters restore`)',
      serviceId: `Id of a cluster, Database Catalog, Virtual Warehouse or Data Visualization, e.g. ${CLUSTER}`,
      event: 'Only events whose name contains this text (any case)',
      limit: 'Most events to return, up to 500; default 20',
      ascending: 'Oldest first; without it, newest first',
    },
    rules: [
      { kind: 'anyOf', fields: ['operationId', 'serviceId'], message: 'say whose events: --operation-id or --service-id' },
      {
        kind: 'custom',
        field: 'limit',
        check: (r) => (typeof r.limit === 'number' && (r.limit < 1 || r.limit > 500) ? '--limit must be between 1 and 500' : undefined),
      },
    ],
    listKey: 'events',
    columns: { time: 'timestamp', service: 'serviceId', event: 'event', message: 'message', operation: 'operationId' },
  },
  describeServerSetting: {
    command: 'server-settings list',
    summary: 'List the Data Warehouse server settings and whether each is on (private cloud).',
    examples: ['', '--output table'],
    listKey: 'settings',
    columns: { key: 'configurationKey', name: 'configurationName', enabled: 'enabled', description: 'description' },
  },
  updateServerSetting: {
    command: 'server-settings update',
    summary: 'Turn server settings on or off; some need the affected warehouses recreated (private cloud).',
    examples: [`--settings '[{"configurationKey":"dwx.impala.query.log","enabled":true}]'`],
    fieldHelp: { settings: 'Settings to change: configurationKey (see `dw server-settings list`) and enabled' },
  },
  resetServerSettings: {
    command: 'server-settings reset',
    summary: 'Put every server setting back to its default (private cloud).',
    examples: ['--yes'],
    destructive: true,
  },
  describeAllowedInstanceTypes: {
    command: 'instance-types describe',
    summary: 'Show the instance types Hive, Impala and Trino warehouses may use on AWS and Azure, and the defaults.',
    examples: [''],
  },
  healthCheck: {
    command: 'health check',
    summary: 'Check that the Data Warehouse API answers.',
    examples: [''],
  },
};

const definition: ServiceDefinition = {
  name: 'dw',
  topic: 'dw',
  summary: 'Data Warehouse: clusters, Database Catalogs, Virtual Warehouses, Data Visualizations and their backups.',
  endpoint: 'api',
  facts: service,
  topics: {
    clusters: 'Data Warehouse clusters: activate in an environment, update, back up, restore, delete.',
    'clusters:create': 'Activate the Data Warehouse service on AWS, Azure or private cloud.',
    'clusters:diagnostics': 'Diagnostic bundles of a cluster.',
    users: 'Cloud users and groups with access to a cluster.',
    dbcs: 'Database Catalogs: the metastores Virtual Warehouses query.',
    'dbcs:config': 'Configuration of a Database Catalog and its history.',
    'dbcs:events': 'Events of a Database Catalog.',
    'dbcs:diagnostics': 'Diagnostic bundles of a Database Catalog.',
    vws: 'Virtual Warehouses: Hive and Impala compute on a Database Catalog.',
    'vws:config': 'Configuration of a Virtual Warehouse and its history.',
    'vws:events': 'Events of a Virtual Warehouse.',
    'vws:diagnostics': 'Diagnostic bundles of a Virtual Warehouse.',
    configs: 'Configuration versions by id, and differences between them.',
    'data-visualizations': 'Data Visualization instances.',
    secrets: 'Secrets for reaching external data sources.',
    connectors: 'Connectors to external data sources, and their tests.',
    'resource-templates': 'CPU and memory templates for catalogs, warehouses and visualizations.',
    backups: 'Backups of the Data Warehouse (private cloud): create, restore, delete.',
    restores: 'Restores from backups (private cloud).',
    events: 'Events of operations and resources.',
    'server-settings': 'Server settings (private cloud).',
    'instance-types': 'Instance types warehouses may use.',
    health: 'Health of the Data Warehouse API.',
  },
  fieldHelp: {
    clusterId: `Id of the Data Warehouse cluster, e.g. ${CLUSTER} (see \`dw clusters list\`)`,
    environmentCrn: 'CRN of the environment (see `environments list`)',
    dbcId: `Id of the Database Catalog, e.g. ${DBC} (see \`dw dbcs list\`)`,
    vwId: `Id of the Virtual Warehouse, e.g. ${HIVE_VW} (see \`dw vws list\`)`,
    dataVisualizationId: `Id of the Data Visualization, e.g. ${VIZ} (see \`dw data-visualizations list\`)`,
    userId: 'Cloud identity of the user or group: an IAM ARN on AWS, a group object id on Azure',
    backupCrn: 'CRN of the backup (see `dw backups list`)',
    restoreCrn: 'CRN of the restore (see `dw restores list`)',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
