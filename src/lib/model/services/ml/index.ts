/**
 * Cloudera AI (the `ml` service): the CLI half of its model. Workbenches
 * (the wire calls them workspaces) with their backups, instance groups and
 * Kubernetes access; AI registries (model registries); AI inference services
 * (serving apps); file-system replicas; instance type lookups; audit events
 * and long-running workflows.
 *
 * --wait follows the `status`/`instanceStatus` of the resource through its
 * describe call. The facts leave those statuses free strings; the service
 * writes them as `<phase>:<started|finished|failed>` (provision, installation,
 * modify, suspend, resume, upgrade, deprovision), as Cloudera's own Ansible
 * collection and Terraform provider read them: `installation:finished` is a
 * ready workbench, `deprovision:started` one on its way out.
 */
import type { OperationCli, Rule, ServiceDefinition, WaiterSpec } from '../../types.js';
import { operations, service, shapes } from './wire.js';

// ---- example values --------------------------------------------------------

const ACCOUNT = '9d74eee4-1cad-45d7-b645-7ccf9edbb73d';
const ENV_CRN = `crn:cdp:environments:us-west-1:${ACCOUNT}:environment:4f3b1a2c-8d9e-4f70-a1b2-c3d4e5f60718`;
const WS_CRN = `crn:cdp:ml:us-west-1:${ACCOUNT}:workspace:5a7b2c1d-3e4f-4a6b-8c9d-0e1f2a3b4c5d`;
const APP_CRN = `crn:cdp:ml:us-west-1:${ACCOUNT}:mlserving:7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f`;
const REG_CRN = `crn:cdp:ml:us-west-1:${ACCOUNT}:modelregistry:2b3c4d5e-6f70-4812-9a3b-4c5d6e7f8091`;
const BACKUP_CRN = `crn:cdp:ml:us-west-1:${ACCOUNT}:workspace_backup:8e9f0a1b-2c3d-4e5f-a6b7-c8d9e0f1a2b3`;
const ROLE_ARN = 'arn:aws:iam::123456789012:role/ml-platform-admins';
const PROVISION =
  '\'{"environmentName":"sales-env","instanceGroups":[{"instanceType":"m5.2xlarge","rootVolume":{"size":256},"autoscaling":{"minInstances":1,"maxInstances":8}}]}\'';

// ---- rules ------------------------------------------------------------------

/** A workbench is named by its CRN, or by its environment and name together. */
const WORKBENCH_NAMED: Rule = {
  kind: 'custom',
  field: 'workspaceName',
  check: (r) => {
    if (r.workspaceCrn !== undefined) return undefined;
    if (r.workspaceName === undefined || r.environmentName === undefined)
      return 'name the workbench: --workspace-crn, or --environment-name together with --workspace-name';
    return undefined;
  },
};

const MIN_NOT_ABOVE_MAX: Rule = {
  kind: 'custom',
  field: 'min',
  check: (r) =>
    typeof r.min === 'number' && typeof r.max === 'number' && r.min > r.max ? `--min (${r.min}) is above --max (${r.max})` : undefined,
};

// ---- waiters ----------------------------------------------------------------

/** Whatever named the workbench in the request (or the answer) names it for describeWorkspace. */
const WORKBENCH_INPUT = {
  workspaceCrn: 'response.workspaceCrn || request.workspaceCrn',
  environmentName: 'request.environmentName',
  workspaceName: 'request.workspaceName',
};

const workbenchWait = (success: string[], failure: string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
  poll: 'describeWorkspace',
  input: WORKBENCH_INPUT,
  state: 'workspace.instanceStatus',
  success,
  failure,
  reason: 'workspace.failureMessage',
  interval: 30,
  timeout: 2 * 3600,
  ...extra,
});

const registryWait = (input: string, success: string[], failure: string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
  poll: 'describeModelRegistry',
  input: { modelRegistryCrn: input },
  state: 'modelRegistry.status',
  success,
  failure,
  interval: 30,
  timeout: 2 * 3600,
  ...extra,
});

/**
 * createModelRegistry answers without the new registry: --wait reads the
 * list and picks the registry of the environment the request named ($request),
 * leaving out registries already deleted there.
 */
const NEW_REGISTRY =
  "modelRegistries[?status != 'deprovision:finished' && (($request.environmentCrn && environmentCrn == $request.environmentCrn) || ($request.environmentName && environmentName == $request.environmentName))] | [0]";

const appWait = (input: string, success: string[], failure: string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
  poll: 'describeMlServingApp',
  input: { appCrn: input },
  state: 'app.status',
  success,
  failure,
  interval: 30,
  timeout: 2 * 3600,
  ...extra,
});

const READY = 'installation:finished';
const CREATE_FAILED = ['installation:failed', 'provision:failed'];
const DELETED = ['deprovision:finished'];
const DELETE_FAILED = ['deprovision:failed'];
/** After a change the resource reads modify:finished (or, later, installation:finished again). */
const MODIFIED = ['modify:finished', READY];
const MODIFY_FAILED = ['modify:failed'];
const UPGRADED = ['upgrade:finished', READY];
const UPGRADE_FAILED = ['upgrade:failed'];

// ---- shared help --------------------------------------------------------------

const WORKBENCH_COLUMNS = {
  name: 'instanceName',
  environment: 'environmentName',
  status: 'instanceStatus',
  version: 'version',
  cloud: 'cloudPlatform',
  url: 'instanceUrl',
  crn: 'crn',
};

const INSTANCE_COLUMNS = { name: 'name', category: 'category', cpu: 'cpu', memory: 'memory', gpu: 'gpu', gpuModel: 'gpuModel' };

/** Help for the three ways a request names a workbench, worded for `what` it does. */
const workbenchNamedBy = (what: string): Record<string, string> => ({
  workspaceCrn: `CRN of the workbench ${what} (see \`ml workspaces list\`); when given, the environment and name are ignored`,
  environmentName: 'Name of the environment the workbench belongs to (with --workspace-name)',
  workspaceName: 'Name of the workbench (with --environment-name)',
});

/** Network and validation settings the create calls share. */
const CREATE_HELP = {
  usePublicLoadBalancer: 'Put the load balancer in public subnets; default: a private load balancer',
  loadBalancerIPWhitelists: 'CIDR blocks allowed to reach the load balancer, e.g. 10.0.0.0/16; default: all',
  subnetsForLoadBalancers: 'Subnet ids for the load balancer; default: the environment subnets',
  whitelistAuthorizedIPRanges: 'Let only --authorized-ip-ranges reach the Kubernetes API server (otherwise any public address may)',
  authorizedIPRanges: 'CIDR blocks allowed to reach the Kubernetes API server',
  privateCluster: 'Give the Kubernetes API server a private endpoint only',
  outboundTypes: 'How the cluster reaches the internet: OUTBOUND_TYPE_UDR for user-defined routing (Azure)',
  skipValidation: 'Skip the checks the service runs before it starts',
  staticSubdomain: 'Fixed subdomain for the endpoint, kept across restores and upgrades',
};

/**
 * Grant, revoke and list Kubernetes access to the cluster of an AI registry or
 * inference service (`topic`), all three naming it by --resource-crn.
 */
function kubeAccess(topic: string, what: string, grant: string, revoke: string, list: string, crn: string): Record<string, OperationCli> {
  const resourceCrn = `CRN of ${what} (see \`ml ${topic} list\`)`;
  const named = { kind: 'anyOf', fields: ['resourceCrn'], message: 'give --resource-crn' } as const;
  return {
    [grant]: {
      command: `${topic} access grant`,
      summary: `Let a cloud identity run Kubernetes commands on the cluster of ${what}.`,
      examples: [`--resource-crn ${crn} --identifier ${ROLE_ARN}`],
      fieldHelp: { resourceCrn, identifier: 'Cloud identity to let in, e.g. the ARN of an AWS IAM user or role' },
      rules: [named],
    },
    [revoke]: {
      command: `${topic} access revoke`,
      summary: `Take back the Kubernetes access of a cloud identity to the cluster of ${what}.`,
      examples: [`--resource-crn ${crn} --identifier ${ROLE_ARN} --yes`],
      fieldHelp: { resourceCrn, identifier: `Cloud identity to shut out, as granted (see \`ml ${topic} access list\`)` },
      rules: [named],
      destructive: true,
    },
    [list]: {
      command: `${topic} access list`,
      summary: `List the cloud identities with Kubernetes access to the cluster of ${what}.`,
      examples: [`--resource-crn ${crn}`],
      fieldHelp: { resourceCrn },
      rules: [named],
      listKey: 'users',
    },
  };
}

/** What the instance-group commands of a workbench or an inference service differ in. */
interface GroupOwner {
  readonly topic: string;
  readonly what: string;
  /** The request field naming the owner, and its help. */
  readonly field: string;
  readonly help: string;
  /** Example flags naming the owner. */
  readonly named: string;
  readonly wait: WaiterSpec;
  readonly examples: { readonly add: string; readonly group: string; readonly update: string };
  readonly ops: { readonly add: string; readonly remove: string; readonly update: string };
  /** Extra help for fields only one owner's update takes. */
  readonly updateHelp?: Readonly<Record<string, string>>;
}

/** Add, delete and update instance groups of the cluster behind a workbench or inference service. */
function instanceGroups(o: GroupOwner): Record<string, OperationCli> {
  const groupName = `Name the service gave the group (see \`ml ${o.topic} describe\`)`;
  return {
    [o.ops.add]: {
      command: `${o.topic} instance-groups add`,
      summary: `Add instance groups (for example GPU nodes) to the cluster of ${o.what}.`,
      examples: [`${o.named} --instance-groups '${o.examples.add}' --wait`],
      fieldHelp: {
        [o.field]: o.help,
        instanceGroups: 'The groups to add: instanceType, rootVolume.size (GB), autoscaling min/max, optional accelerator',
      },
      wait: o.wait,
    },
    [o.ops.remove]: {
      command: `${o.topic} instance-groups delete`,
      summary: `Remove an instance group, and its instances, from the cluster of ${o.what}.`,
      examples: [`${o.named} --instance-group-name ${o.examples.group} --yes --wait`],
      fieldHelp: { [o.field]: o.help, instanceGroupName: groupName },
      destructive: true,
      wait: o.wait,
    },
    [o.ops.update]: {
      command: `${o.topic} instance-groups update`,
      summary: `Change the instance type and autoscaling range of an instance group of ${o.what}.`,
      examples: [`${o.named} ${o.examples.update} --wait`],
      fieldHelp: {
        [o.field]: o.help,
        instanceGroupName: groupName,
        min: 'Fewest instances the group scales down to',
        max: 'Most instances the group scales up to',
        instanceType: 'Instance type of the group, e.g. m5.4xlarge (see `ml instance-types list`)',
        ...o.updateHelp,
      },
      rules: [MIN_NOT_ABOVE_MAX],
      wait: o.wait,
    },
  };
}

const cli: Record<string, OperationCli> = {
  // ---- workbenches ----------------------------------------------------------
  createWorkspace: {
    command: 'workspaces create',
    summary: 'Create a Cloudera AI workbench: provision its Kubernetes cluster and install the workbench on it.',
    examples: [
      `--environment-name sales-env --workspace-name ds-bench --provision-k8s-request ${PROVISION} --wait`,
      `--environment-name sales-env --workspace-name ds-bench --provision-k8s-request ${PROVISION} --enable-monitoring --use-public-load-balancer --load-balancer-ip-whitelists 203.0.113.0/24`,
    ],
    fieldHelp: {
      environmentName: 'Name of the environment to create the workbench in (see `environments list`)',
      workspaceName: 'Name of the new workbench, unique in its environment',
      provisionK8sRequest:
        'The Kubernetes cluster to provision (needed in the public cloud): environmentName, instanceGroups (instanceType, rootVolume.size in GB, autoscaling min/max), optional tags and network',
      disableTLS: 'Serve the workbench over plain HTTP; default: TLS on',
      enableMonitoring: 'Turn on the monitoring stack (Grafana, Prometheus); default: off',
      enableGovernance: 'Send lineage to the data lake Atlas; default: off',
      existingNFS: 'An existing NFS export to use, as host:/path (Azure and private cloud)',
      enableYunikorn: 'Schedule workloads with YuniKorn; default: off',
      nfsVersion: 'NFS protocol version of --existing-nfs, e.g. 4.1',
      enableModelMetrics: 'Export metrics of deployed models to a metrics store',
      existingDatabaseConfig: 'An existing PostgreSQL for model metrics: host, port, name, user and password',
      cdswMigrationMode: 'Preflight checks for a migration from CDSW, as the service names the mode',
      resourcePoolConfig: 'Resource pool and quota for the workbench (private cloud)',
      enableEnhancedPerformance: 'Root volumes with more throughput and IOPS on the worker nodes (costs more)',
      enableGlobalAccessLoadBalancer: 'Let other regions reach the load balancer (GCP)',
    },
    wait: workbenchWait([READY], CREATE_FAILED),
  },
  listWorkspaces: {
    command: 'workspaces list',
    summary: 'List the Cloudera AI workbenches of the account with their status and URL.',
    examples: ['', '--output table'],
    fieldHelp: { queryOptions: 'Extra listing options, passed to the service as given' },
    listKey: 'workspaces',
    columns: WORKBENCH_COLUMNS,
  },
  describeWorkspace: {
    command: 'workspaces describe',
    summary: 'Show a workbench: status, URL, version, instance groups, health and network settings.',
    examples: [`--workspace-crn ${WS_CRN}`, '--environment-name sales-env --workspace-name ds-bench'],
    fieldHelp: workbenchNamedBy('to show'),
    rules: [WORKBENCH_NAMED],
  },
  deleteWorkspace: {
    command: 'workspaces delete',
    summary: 'Delete a workbench and its Kubernetes cluster, optionally with its file storage.',
    examples: [
      `--workspace-crn ${WS_CRN} --no-force --remove-storage --yes --wait`,
      '--environment-name sales-env --workspace-name ds-bench --force --yes',
    ],
    fieldHelp: {
      ...workbenchNamedBy('to delete'),
      force: 'Go on when cleaning up fails (cloud resources may be left behind); give --no-force otherwise',
      removeStorage: 'Delete the workbench file system too; default: keep it',
    },
    rules: [WORKBENCH_NAMED],
    destructive: true,
    wait: workbenchWait(DELETED, DELETE_FAILED, { goneIsSuccess: true, timeout: 3600 }),
  },
  suspendWorkspace: {
    command: 'workspaces suspend',
    summary: 'Suspend a workbench: stop its compute to save cost, keeping its data.',
    examples: [`--workspace-crn ${WS_CRN} --wait`],
    fieldHelp: { workspaceCrn: 'CRN of the workbench to suspend (see `ml workspaces list`)' },
    wait: workbenchWait(['suspend:finished'], ['suspend:failed'], { timeout: 3600 }),
  },
  resumeWorkspace: {
    command: 'workspaces resume',
    summary: 'Resume a suspended workbench.',
    examples: [`--workspace-crn ${WS_CRN} --wait`],
    fieldHelp: { workspaceCrn: 'CRN of the suspended workbench (see `ml workspaces list`)' },
    wait: workbenchWait(['resume:finished', READY], ['resume:failed'], { timeout: 3600 }),
  },
  upgradeWorkspace: {
    command: 'workspaces upgrade',
    summary: 'Upgrade a workbench to the newest version (or the one given).',
    examples: [`--workspace-crn ${WS_CRN} --wait`, '--environment-name sales-env --workspace-name ds-bench --ml-version 2.0.50-b58'],
    fieldHelp: {
      ...workbenchNamedBy('to upgrade'),
      mlVersion: 'Version to upgrade to; default: the newest (see `ml workspaces latest-version`)',
      skipValidation: 'Skip the checks that run before a restore-based upgrade',
      overrideUpgrade: 'Upgrade even when the service would refuse the version step',
    },
    rules: [WORKBENCH_NAMED],
    wait: workbenchWait(UPGRADED, UPGRADE_FAILED, { timeout: 3 * 3600 }),
  },
  getLatestWorkspaceVersion: {
    command: 'workspaces latest-version',
    summary: 'Show the newest workbench version Cloudera AI installs.',
    examples: [''],
  },
  getKubeconfig: {
    command: 'workspaces kubeconfig',
    summary: 'Print the kubeconfig of the Kubernetes cluster behind a workbench.',
    examples: [`--workspace-crn ${WS_CRN}`],
    fieldHelp: workbenchNamedBy('whose cluster to reach'),
    rules: [WORKBENCH_NAMED],
  },
  modifyClusterSecurity: {
    command: 'workspaces update-security',
    summary: 'Set which CIDR blocks may reach the Kubernetes API server of a workbench.',
    examples: [
      `--workspace-crn ${WS_CRN} --allowlist-authorized-ip-ranges --authorized-ip-ranges 10.10.0.0/16 203.0.113.0/24`,
      `--workspace-crn ${WS_CRN} --no-allowlist-authorized-ip-ranges --authorized-ip-ranges '[]'`,
    ],
    fieldHelp: {
      workspaceCrn: 'CRN of the workbench (see `ml workspaces list`)',
      allowlistAuthorizedIPRanges:
        'Let only --authorized-ip-ranges reach the API server; --no-allowlist-authorized-ip-ranges opens it to all',
      authorizedIPRanges: 'CIDR blocks allowed to reach the API server (the whole new list)',
    },
  },
  modifyWorkspaceLoadBalancer: {
    command: 'workspaces update-load-balancer',
    summary: 'Set which CIDR blocks may reach the load balancer of a workbench.',
    examples: [`--workspace-crn ${WS_CRN} --load-balancer-ip-allow-lists 10.10.0.0/16 203.0.113.0/24`],
    fieldHelp: {
      workspaceCrn: 'CRN of the workbench (see `ml workspaces list`)',
      loadBalancerIPAllowLists: 'CIDR blocks allowed to reach the load balancer (the whole new list)',
    },
  },
  refreshModelRegistryConfigmap: {
    command: 'workspaces refresh-registry-config',
    summary: 'Reload the AI registry settings of a workbench from the control plane.',
    examples: [`--workspace-crn ${WS_CRN}`],
    fieldHelp: { workspaceCrn: 'CRN of the workbench (see `ml workspaces list`)' },
    rules: [{ kind: 'anyOf', fields: ['workspaceCrn'], message: 'give --workspace-crn' }],
  },

  // workbench instance groups
  ...instanceGroups({
    topic: 'workspaces',
    what: 'a workbench',
    field: 'workspaceCrn',
    help: 'CRN of the workbench (see `ml workspaces list`)',
    named: `--workspace-crn ${WS_CRN}`,
    wait: workbenchWait(MODIFIED, MODIFY_FAILED),
    examples: {
      add: '[{"instanceType":"p3.2xlarge","rootVolume":{"size":256},"autoscaling":{"minInstances":0,"maxInstances":4}}]',
      group: 'gpu-p3-2xlarge',
      update: '--instance-group-name cpu-m5-2xlarge --instance-type m5.4xlarge --min 1 --max 12',
    },
    ops: { add: 'addInstanceGroups', remove: 'deleteInstanceGroup', update: 'modifyClusterInstanceGroup' },
    updateHelp: {
      name: 'Your own name for the group',
      accelerator: 'GPU configuration: type and count, e.g. type=nvidia-tesla-t4,count=1',
    },
  }),

  // Kubernetes access to a workbench
  grantWorkspaceAccess: {
    command: 'workspaces access grant',
    summary: 'Let a cloud identity run Kubernetes commands on the cluster of a workbench.',
    examples: [`--workspace-crn ${WS_CRN} --identifier ${ROLE_ARN}`],
    fieldHelp: {
      ...workbenchNamedBy('to open'),
      identifier: 'Cloud identity to let in, e.g. the ARN of an AWS IAM user or role',
      arn: 'ARN of the AWS user or role (older form of --identifier)',
    },
    rules: [
      WORKBENCH_NAMED,
      { kind: 'exclusive', fields: ['arn', 'identifier'], message: 'give --identifier (or the older --arn), not both' },
    ],
  },
  revokeWorkspaceAccess: {
    command: 'workspaces access revoke',
    summary: 'Take back the Kubernetes access of a cloud identity to the cluster of a workbench.',
    examples: [`--workspace-crn ${WS_CRN} --identifier ${ROLE_ARN} --yes`],
    fieldHelp: {
      ...workbenchNamedBy('to close'),
      identifier: 'Cloud identity to shut out, as granted (see `ml workspaces access list`)',
      arn: 'ARN of the AWS user or role (older form of --identifier)',
    },
    rules: [
      WORKBENCH_NAMED,
      { kind: 'exclusive', fields: ['arn', 'identifier'], message: 'give --identifier (or the older --arn), not both' },
    ],
    destructive: true,
  },
  listWorkspaceAccess: {
    command: 'workspaces access list',
    summary: 'List the cloud identities with Kubernetes access to the cluster of a workbench.',
    examples: [`--workspace-crn ${WS_CRN}`],
    fieldHelp: workbenchNamedBy('to look at'),
    rules: [WORKBENCH_NAMED],
    listKey: 'users',
  },

  // ---- backups ----------------------------------------------------------------
  backupWorkspace: {
    command: 'backups create',
    summary: 'Back up a workbench (projects, settings and file system) to a snapshot.',
    examples: [
      `--workspace-crn ${WS_CRN} --backup-name ds-bench-nightly`,
      `--workspace-crn ${WS_CRN} --backup-name before-upgrade --backup-job-timeout-minutes 120`,
    ],
    fieldHelp: {
      workspaceCrn: 'CRN of the workbench to back up (see `ml workspaces list`)',
      backupName: 'Name of the backup',
      backupJobTimeoutMinutes: 'Minutes the backup jobs may run before they are stopped',
      skipValidation: 'Skip the checks that run before the backup',
    },
  },
  listWorkspaceBackups: {
    command: 'backups list',
    summary: 'List the backups of a workbench.',
    examples: [`--workspace-crn ${WS_CRN} --output table`, '--environment-name sales-env --workspace-name ds-bench'],
    fieldHelp: {
      ...workbenchNamedBy('whose backups to list'),
      queryOptions: 'Listing options: expandEnvironmentMetadata=true adds the environment of each backup',
    },
    rules: [WORKBENCH_NAMED],
    listKey: 'backups',
    columns: {
      name: 'backupName',
      status: 'backupStatus',
      version: 'workspaceVersionAtBackup',
      created: 'createdAt',
      crn: 'backupCrn',
    },
  },
  describeWorkspaceBackup: {
    command: 'backups describe',
    summary: 'Show a workbench backup: status, version and the instance groups it recorded.',
    examples: [`--backup-crn ${BACKUP_CRN}`],
    fieldHelp: { backupCrn: 'CRN of the backup (see `ml backups list`)' },
    rules: [{ kind: 'anyOf', fields: ['backupCrn'], message: 'give --backup-crn' }],
  },
  deleteBackup: {
    command: 'backups delete',
    summary: 'Delete a workbench backup.',
    examples: [`--backup-crn ${BACKUP_CRN} --yes`],
    fieldHelp: {
      backupCrn: 'CRN of the backup to delete (see `ml backups list`)',
      skipValidation: 'Skip the checks that run before deleting',
    },
    destructive: true,
  },
  restoreWorkspace: {
    command: 'backups restore',
    summary: 'Create a new workbench from a backup.',
    examples: [
      `--backup-crn ${BACKUP_CRN} --new-workspace-parameters '{"environmentName":"sales-env","workspaceName":"ds-bench-restored","provisionK8sRequest":{"environmentName":"sales-env","instanceGroups":[{"instanceType":"m5.2xlarge","autoscaling":{"minInstances":1,"maxInstances":8}}]}}' --wait`,
    ],
    fieldHelp: {
      backupCrn: 'CRN of the backup to restore from (see `ml backups list`)',
      newWorkspaceParameters:
        'The new workbench, in the form `ml workspaces create` takes (environmentName, workspaceName, provisionK8sRequest...)',
      useStaticSubdomain: 'Give the new workbench the static subdomain of the backed-up one',
      restoreJobTimeoutMinutes: 'Minutes the restore jobs may run before they are stopped',
    },
    rules: [{ kind: 'anyOf', fields: ['backupCrn'], message: 'give --backup-crn' }],
    wait: workbenchWait([READY], CREATE_FAILED),
  },

  // ---- AI registries ------------------------------------------------------------
  createModelRegistry: {
    command: 'model-registries create',
    summary: 'Create an AI registry (model registry) for an environment, on a cluster of its own.',
    description:
      "The service answers without the new registry's CRN; --wait finds it in `ml model-registries list` by the environment the request names.",
    examples: [
      `--environment-name sales-env --environment-crn ${ENV_CRN} --use-public-load-balancer --wait`,
      `--environment-name sales-env --environment-crn ${ENV_CRN} --private-cluster --subnets-for-load-balancers subnet-0a1b2c3d subnet-4e5f6a7b`,
    ],
    fieldHelp: {
      environmentName: 'Name of the environment the registry serves (see `environments list`)',
      environmentCrn: 'CRN of the same environment',
      namespace: 'Kubernetes namespace of the registry (private cloud)',
      s3AccessKey: 'Access key for the Ozone S3 gateway the registry stores models in (private cloud)',
      s3SecretKey: 'Secret key for the Ozone S3 gateway (private cloud)',
      s3Bucket: 'Ozone bucket for the models (private cloud)',
      s3Endpoint: 'URL of the Ozone S3 gateway (private cloud)',
      creatorCrn: 'CRN of the user recorded as the creator; default: the caller',
      provisionK8sRequest: 'The Kubernetes cluster to provision (needed in the public cloud): optional tags and network',
      backupCrn: 'CRN of a backup to create the registry from',
      disableObjectStoreCsiDriver: 'Do not mount object storage through the CSI driver (it needs "Storage Account Contributor" on Azure)',
    },
    wait: {
      poll: 'listModelRegistries',
      input: {},
      state: `${NEW_REGISTRY}.status`,
      success: [READY],
      failure: CREATE_FAILED,
      result: NEW_REGISTRY,
      interval: 30,
      timeout: 2 * 3600,
    },
  },
  listModelRegistries: {
    command: 'model-registries list',
    summary: 'List the AI registries of the account with their status and version.',
    examples: ['', '--output table'],
    listKey: 'modelRegistries',
    columns: {
      environment: 'environmentName',
      status: 'status',
      version: 'version',
      domain: 'domain',
      created: 'createdAt',
      crn: 'crn',
    },
  },
  describeModelRegistry: {
    command: 'model-registries describe',
    summary: 'Show an AI registry: status, version, storage and endpoint.',
    description:
      'The service marks this call deprecated in favour of `ml model-registries list`; --wait of the registry commands reads it.',
    examples: [`--model-registry-crn ${REG_CRN}`],
    fieldHelp: { modelRegistryCrn: 'CRN of the registry (see `ml model-registries list`)' },
  },
  deleteModelRegistry: {
    command: 'model-registries delete',
    summary: 'Delete an AI registry and its cluster.',
    examples: [`--model-registry-crn ${REG_CRN} --yes --wait`, `--model-registry-crn ${REG_CRN} --force --yes`],
    fieldHelp: {
      modelRegistryCrn: 'CRN of the registry to delete (see `ml model-registries list`); --wait needs it',
      id: 'Environment CRN of the registry (older form of --model-registry-crn)',
      workspaceCrn: 'CRN of the registry workbench (older form of --model-registry-crn, public cloud)',
      force: 'Go on when cleaning up fails (cloud resources may be left behind); default: off',
    },
    rules: [{ kind: 'anyOf', fields: ['modelRegistryCrn', 'id', 'workspaceCrn'], message: 'name the registry with --model-registry-crn' }],
    destructive: true,
    wait: registryWait('request.modelRegistryCrn', DELETED, DELETE_FAILED, { goneIsSuccess: true, timeout: 3600 }),
  },
  upgradeModelRegistry: {
    command: 'model-registries upgrade',
    summary: 'Upgrade an AI registry to the newest version.',
    examples: [`--crn ${REG_CRN} --wait`],
    fieldHelp: {
      crn: 'CRN of the registry to upgrade (see `ml model-registries list`)',
      disableObjectStoreCsiDriver: 'Stop mounting object storage through the CSI driver',
      azureOptions: 'Azure user-defined routing: the overlay network (udrNetwork) to use',
    },
    rules: [{ kind: 'anyOf', fields: ['crn'], message: 'give --crn' }],
    wait: registryWait('response.crn || request.crn', UPGRADED, UPGRADE_FAILED, { timeout: 3 * 3600 }),
  },
  rollbackModelRegistryUpgrade: {
    command: 'model-registries rollback-upgrade',
    summary: 'Undo the last upgrade of an AI registry, bringing back the registry as it was.',
    examples: [`--crn ${REG_CRN} --yes --wait`],
    fieldHelp: { crn: 'CRN of the registry (see `ml model-registries list`)' },
    rules: [{ kind: 'anyOf', fields: ['crn'], message: 'give --crn' }],
    destructive: true,
    wait: registryWait('request.crn', [READY, 'rollback:finished'], ['rollback:failed'], { timeout: 3 * 3600 }),
  },
  getLatestModelRegistryVersion: {
    command: 'model-registries latest-version',
    summary: 'Show the newest AI registry version Cloudera AI installs.',
    examples: [''],
  },
  getModelRegistryKubeconfig: {
    command: 'model-registries kubeconfig',
    summary: 'Print the kubeconfig of the Kubernetes cluster behind an AI registry.',
    examples: [`--model-registry-crn ${REG_CRN}`],
    fieldHelp: { modelRegistryCrn: 'CRN of the registry (see `ml model-registries list`)' },
    rules: [{ kind: 'anyOf', fields: ['modelRegistryCrn'], message: 'give --model-registry-crn' }],
  },
  refreshAiRegistry: {
    command: 'model-registries refresh-certificates',
    summary: 'Reload the trusted TLS certificates of an AI registry (private cloud).',
    examples: [`--workspace-crn ${WS_CRN}`],
    fieldHelp: { workspaceCrn: 'CRN of the registry workbench (see `ml model-registries list`)' },
  },
  ...kubeAccess(
    'model-registries',
    'an AI registry',
    'grantModelRegistryAccess',
    'revokeModelRegistryAccess',
    'listModelRegistryAccess',
    REG_CRN,
  ),

  // ---- AI inference services ----------------------------------------------------
  createMlServingApp: {
    command: 'serving-apps create',
    summary: 'Deploy a Cloudera AI inference service, on a new Kubernetes cluster or an existing one.',
    examples: [
      `--app-name sales-inference --environment-crn ${ENV_CRN} --provision-k8s-request '{"environmentCrn":"${ENV_CRN}","instanceGroups":[{"instanceType":"g5.2xlarge","autoscaling":{"minInstances":0,"maxInstances":4}}]}' --wait`,
      `--app-name sales-inference --environment-crn ${ENV_CRN} --cluster-crn crn:cdp:compute:us-west-1:${ACCOUNT}:cluster:3d4e5f60-7182-4a3b-9c4d-5e6f708192a3`,
    ],
    fieldHelp: {
      appName: 'Name of the new inference service',
      environmentCrn: 'CRN of the environment to deploy into (see `environments list`)',
      clusterCrn: 'CRN of an existing compute cluster to deploy on, instead of provisioning one',
      provisionK8sRequest:
        'The Kubernetes cluster to provision (needed in the public cloud unless --cluster-crn): environmentCrn, instanceGroups, optional tags and network',
      ozoneS3Creds: 'Ozone S3 credentials of the on-premises cluster: s3AccessID, s3SecretAccessKey, s3EndPointUrl, s3CaCertBundle',
      enableFineGrainedAccessControl: 'Authorize model endpoints with Ranger; default: off',
      rangerServicePrincipal:
        'Ranger service principal for fine-grained access; default: the workload user of the machine user (private cloud)',
      knoxTopologyName: 'Knox topology that issues API keys; default: cdp-proxy-api (private cloud)',
    },
    wait: appWait('response.appCrn', [READY], CREATE_FAILED),
  },
  listMlServingApps: {
    command: 'serving-apps list',
    summary: 'List the Cloudera AI inference services of the account with their status and version.',
    examples: ['', '--output table'],
    fieldHelp: { queryOptions: 'Extra listing options, passed to the service as given' },
    listKey: 'apps',
    columns: {
      name: 'appName',
      environment: 'environmentName',
      status: 'status',
      version: 'mlServingVersion',
      cloud: 'cloudPlatform',
      crn: 'appCrn',
    },
  },
  describeMlServingApp: {
    command: 'serving-apps describe',
    summary: 'Show an inference service: status, version, cluster and load balancer settings.',
    examples: [`--app-crn ${APP_CRN}`],
    fieldHelp: { appCrn: 'CRN of the inference service (see `ml serving-apps list`)' },
  },
  deleteMlServingApp: {
    command: 'serving-apps delete',
    summary: 'Delete an inference service; a cluster it was deployed on is kept.',
    examples: [`--app-crn ${APP_CRN} --yes --wait`, `--app-crn ${APP_CRN} --force --yes`],
    fieldHelp: {
      appCrn: 'CRN of the inference service to delete (see `ml serving-apps list`)',
      force: 'Go on when cleaning up fails (cloud resources may be left behind); default: off',
    },
    destructive: true,
    wait: appWait('request.appCrn', DELETED, DELETE_FAILED, { goneIsSuccess: true, timeout: 3600 }),
  },
  upgradeMlServingApp: {
    command: 'serving-apps upgrade',
    summary: 'Upgrade an inference service to the newest version.',
    examples: [`--app-crn ${APP_CRN} --wait`],
    fieldHelp: { appCrn: 'CRN of the inference service to upgrade (see `ml serving-apps list`)' },
    wait: appWait('request.appCrn', UPGRADED, UPGRADE_FAILED, { timeout: 3 * 3600 }),
  },
  getMlServingAppKubeconfig: {
    command: 'serving-apps kubeconfig',
    summary: 'Print the kubeconfig of the Kubernetes cluster behind an inference service.',
    examples: [`--app-crn ${APP_CRN}`],
    fieldHelp: { appCrn: 'CRN of the inference service (see `ml serving-apps list`)' },
    rules: [{ kind: 'anyOf', fields: ['appCrn'], message: 'give --app-crn' }],
  },
  refreshAiInference: {
    command: 'serving-apps refresh-certificates',
    summary: 'Reload the trusted TLS certificates of an inference service (private cloud).',
    examples: [`--app-crn ${APP_CRN}`],
    fieldHelp: { appCrn: 'CRN of the inference service (see `ml serving-apps list`)' },
  },
  updateMlServingAppS3Creds: {
    command: 'serving-apps update-s3-credentials',
    summary: 'Replace the Ozone S3 credentials an inference service reads models with (private cloud).',
    examples: [
      `--app-crn ${APP_CRN} --s-3-creds s3AccessID=inference-reader,s3SecretAccessKey=Ozone-Secret-0042,s3EndPointUrl=https://ozone-s3.example.com:9879`,
    ],
    fieldHelp: {
      appCrn: 'CRN of the inference service (see `ml serving-apps list`)',
      s3Creds: 'The new credentials: s3AccessID, s3SecretAccessKey, s3EndPointUrl and optionally s3CaCertBundle',
      registryNamespace: 'Namespace of the AI registry whose storage the credentials are for',
      linkRegistry: 'Link the inference service to that registry',
      envName: 'Name of the environment of that registry',
    },
  },
  fetchAiRegistriesStorageConfig: {
    command: 'serving-apps describe-registry-storage',
    summary: 'Show the object storage settings an inference service uses for each AI registry it reads.',
    examples: [`--app-crn ${APP_CRN}`],
    fieldHelp: { appCrn: 'CRN of the inference service (see `ml serving-apps list`)' },
    rules: [{ kind: 'anyOf', fields: ['appCrn'], message: 'give --app-crn' }],
  },

  // inference service instance groups
  ...instanceGroups({
    topic: 'serving-apps',
    what: 'an inference service',
    field: 'appCrn',
    help: 'CRN of the inference service (see `ml serving-apps list`)',
    named: `--app-crn ${APP_CRN}`,
    wait: appWait('request.appCrn', MODIFIED, MODIFY_FAILED),
    examples: {
      add: '[{"instanceType":"g5.4xlarge","autoscaling":{"minInstances":0,"maxInstances":2}}]',
      group: 'gpu-g5-4xlarge',
      update: '--instance-group-name gpu-g5-2xlarge --instance-type g5.4xlarge --min 0 --max 6',
    },
    ops: { add: 'addInstanceGroupsMlServingApp', remove: 'deleteInstanceGroupMlServingApp', update: 'modifyMlServingApp' },
  }),

  // Kubernetes access to an inference service
  ...kubeAccess(
    'serving-apps',
    'an inference service',
    'grantMlServingAppAccess',
    'revokeMlServingAppAccess',
    'listMlServingAppAccess',
    APP_CRN,
  ),

  // ---- file system replicas -------------------------------------------------------
  createFileReplica: {
    command: 'file-replicas create',
    summary: 'Start replicating the project file system of a workbench, for disaster recovery.',
    examples: [`--workspace-crn ${WS_CRN}`],
    fieldHelp: { workspaceCrn: 'CRN of the workbench whose file system to replicate (see `ml workspaces list`)' },
  },
  deleteFileReplica: {
    command: 'file-replicas delete',
    summary: 'Stop replicating the project file system of a workbench and remove the replica settings.',
    examples: [`--workspace-crn ${WS_CRN} --yes`],
    fieldHelp: { workspaceCrn: 'CRN of the workbench (see `ml workspaces list`)' },
    destructive: true,
  },
  failOverFileSystem: {
    command: 'file-replicas fail-over',
    summary: 'Switch a workbench to its file system replica after losing the original.',
    examples: [`--workspace-crn ${WS_CRN} --yes`],
    fieldHelp: { workspaceCrn: 'CRN of the workbench (see `ml workspaces list`)' },
    destructive: true,
  },

  // ---- instance types ---------------------------------------------------------------
  listRelevantInstances: {
    command: 'instance-types list',
    summary: 'List the instance types of an environment that offer the CPU, memory or GPU asked for.',
    examples: ['--instance-category GPU --request-info gpu=1,memory=32Gi --environment-name sales-env --product-type ML --output table'],
    fieldHelp: {
      instanceCategory: 'Kind of instance: CPU or GPU',
      requestInfo: 'What the instance must offer: cpu, memory, gpu, gpuModel, gpuType, gpuMemory...',
      environmentName: 'Name of the environment; its cloud and region decide the types (see `environments list`)',
      productType: 'Data service the instances are for, e.g. ML',
      region: 'Cloud region (older form; the environment now decides it)',
      cloudProvider: 'Cloud provider (older form; the environment now decides it)',
    },
    listKey: 'instanceDetails',
    columns: INSTANCE_COLUMNS,
  },
  listInstanceTypeConfiguration: {
    command: 'instance-types describe',
    summary: 'Show the CPU, memory and GPU of one instance type in the cloud of an environment.',
    examples: ['--instance-category GPU --instance-type g5.2xlarge --environment-name sales-env --product-type ML'],
    fieldHelp: {
      instanceCategory: 'Kind of instance: CPU or GPU',
      instanceType: 'The instance type, e.g. g5.2xlarge',
      environmentName: 'Name of the environment; its cloud and region decide the answer (see `environments list`)',
      productType: 'Data service the instance is for, e.g. ML',
      region: 'Cloud region (older form; the environment now decides it)',
      cloudProvider: 'Cloud provider (older form; the environment now decides it)',
    },
    listKey: 'instanceDetails',
    columns: INSTANCE_COLUMNS,
  },

  // ---- audit ---------------------------------------------------------------------------
  getAuditEvents: {
    command: 'audit-events list',
    summary: 'List who did what to a workbench or AI registry, with the request id of each action.',
    examples: [`--resource-crn ${WS_CRN}`],
    fieldHelp: {
      resourceCrn: 'CRN of the workbench or AI registry',
      workspaceCrn: 'CRN of the workbench (older form of --resource-crn)',
    },
    rules: [{ kind: 'anyOf', fields: ['resourceCrn', 'workspaceCrn'], message: 'give --resource-crn' }],
  },
  getLogs: {
    command: 'audit-events logs',
    summary: 'Show the logs of one audited request, by its request id.',
    examples: [
      '--request-id 3f2e1d0c-9b8a-4766-8554-433221100fed',
      '--request-id 3f2e1d0c-9b8a-4766-8554-433221100fed --page-size 100 --offset 200',
      '--request-id 3f2e1d0c-9b8a-4766-8554-433221100fed --fetch-all',
    ],
    fieldHelp: {
      requestID: 'Request id of the action (requestID in `ml audit-events list`)',
      fetchAll: 'Return every log line; default: one page',
      pageSize: 'Most log lines to return',
      offset: 'Log lines to skip first',
      workspaceCrn: 'CRN of the workbench (no longer needed)',
    },
  },

  // ---- workflows -----------------------------------------------------------------------
  requestWorkflowCancellation: {
    command: 'workflows cancel',
    summary: 'Ask the service to cancel a long-running workflow of a resource.',
    examples: [`--resource-id ${WS_CRN} --workflow-type UPGRADE_WORKSPACE`],
    fieldHelp: {
      resourceId: 'Identifier of the resource the workflow runs for, e.g. a workbench CRN',
      workflowType: 'Kind of workflow, as the service names it (workflowType in the answer)',
    },
    rules: [{ kind: 'anyOf', fields: ['resourceId'], message: 'give --resource-id' }],
  },
  requestWorkflowRollback: {
    command: 'workflows rollback',
    summary: 'Ask the service to roll back a long-running workflow of a workbench.',
    examples: [`--workspace-crn ${WS_CRN} --workflow-type UPGRADE_WORKSPACE --yes`],
    fieldHelp: {
      workspaceCrn: 'CRN of the workbench (see `ml workspaces list`)',
      workflowType: 'Kind of workflow, as the service names it (workflowType in the answer)',
    },
    rules: [{ kind: 'anyOf', fields: ['workspaceCrn'], message: 'give --workspace-crn' }],
    destructive: true,
  },
};

const definition: ServiceDefinition = {
  name: 'ml',
  topic: 'ml',
  summary: 'Cloudera AI: workbenches, AI registries, AI inference services, backups and Kubernetes access.',
  endpoint: 'api',
  facts: service,
  topics: {
    workspaces: 'Cloudera AI workbenches (workspaces in the API): create, suspend, resume, upgrade, delete.',
    'workspaces:instance-groups': 'Instance groups of the cluster behind a workbench.',
    'workspaces:access': 'Cloud identities with Kubernetes access to a workbench cluster.',
    backups: 'Backups of workbenches, and new workbenches restored from them.',
    'model-registries': 'AI registries (model registries): create, upgrade, roll back, delete.',
    'model-registries:access': 'Cloud identities with Kubernetes access to an AI registry cluster.',
    'serving-apps': 'Cloudera AI inference services (ML serving apps in the API): deploy, upgrade, delete.',
    'serving-apps:instance-groups': 'Instance groups of the cluster behind an inference service.',
    'serving-apps:access': 'Cloud identities with Kubernetes access to an inference service cluster.',
    'file-replicas': 'Replicas of workbench file systems, for disaster recovery.',
    'instance-types': 'Instance types a cloud offers, by the resources they carry.',
    'audit-events': 'Audited actions on workbenches and AI registries, and their logs.',
    workflows: 'Long-running workflows: cancel or roll back.',
  },
  fieldHelp: CREATE_HELP,
  shapes,
  wire: operations,
  cli,
};

export default definition;
