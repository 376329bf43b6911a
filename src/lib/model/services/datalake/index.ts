/**
 * Data lakes: the CLI half of the datalake model. Creation per cloud,
 * backup and restore, diagnostics, scaling, upgrades, certificates and
 * secrets. Long-running work answers --wait through getOperation (operation
 * ids), describeDatalake (lake status) or the backup and restore status calls.
 */
import type { OperationCli, Rule, ServiceDefinition, WaiterSpec } from '../../types.js';
import { operations, service, shapes } from './wire.js';
import { asObject, atLeastOne, given } from '../../rules.js';

// ---- rules ---------------------------------------------------------------

const DATALAKE_NAME: Rule = {
  kind: 'pattern',
  field: 'datalakeName',
  pattern: /^[a-z][a-z0-9-]*[a-z0-9]$/,
  message: 'data lake names use lower-case letters, digits and "-", start with a letter and end with a letter or digit',
};

/** s3a://bucket[/path]: a bucket name as S3 allows it. */
const S3A = /^s3a:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/;
/** abfs://<filesystem>@<account>.dfs.core.windows.net[/path] */
const ABFS = /^abfss?:\/\/[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])?@[a-z0-9]{3,24}\.dfs\.core\.windows\.net(\/.*)?$/;
const GS = /^gs:\/\/[a-z0-9][a-z0-9._-]{1,220}[a-z0-9](\/.*)?$/;

const AWS_STORAGE: Rule = {
  kind: 'custom',
  field: 'cloudProviderConfiguration',
  check: (r) => {
    const loc = asObject(r.cloudProviderConfiguration)?.storageBucketLocation;
    return typeof loc === 'string' && !S3A.test(loc)
      ? `storageBucketLocation must be s3a:// followed by a bucket name (and an optional path); got "${loc}"`
      : undefined;
  },
};

const AZURE_STORAGE: Rule = {
  kind: 'custom',
  field: 'cloudProviderConfiguration',
  check: (r) => {
    const loc = asObject(r.cloudProviderConfiguration)?.storageLocation;
    return typeof loc === 'string' && !ABFS.test(loc)
      ? `storageLocation must look like abfs://<filesystem>@<storage-account>.dfs.core.windows.net; got "${loc}"`
      : undefined;
  },
};

const GCP_STORAGE: Rule = {
  kind: 'custom',
  field: 'cloudProviderConfiguration',
  check: (r) => {
    const loc = asObject(r.cloudProviderConfiguration)?.storageLocation;
    return typeof loc === 'string' && !GS.test(loc) ? `storageLocation must be gs:// followed by a bucket name; got "${loc}"` : undefined;
  },
};

/** With a runtime, the image may only name its os. */
const IMAGE_WITH_RUNTIME: Rule = {
  kind: 'custom',
  field: 'image',
  check: (r) => {
    const image = asObject(r.image);
    if (!image || r.runtime === undefined) return undefined;
    return image.id !== undefined || image.catalogName !== undefined
      ? 'with --runtime the image may only set "os"; give either --runtime or an image id and catalog'
      : undefined;
  },
};

const uniqueGroups = (field: string, key = 'instanceGroupName'): Rule => ({
  kind: 'custom',
  field,
  check: (r) => {
    const list = Array.isArray(r[field]) ? (r[field] as unknown[]) : [];
    const seen = new Set<string>();
    for (const item of list) {
      const name = asObject(item)?.[key];
      if (typeof name !== 'string') continue;
      if (seen.has(name)) return `instance group "${name}" appears more than once in ${field}`;
      seen.add(name);
    }
    return undefined;
  },
});

const DATE_ORDER: Rule = {
  kind: 'custom',
  field: 'endDate',
  check: (r) =>
    typeof r.startDate === 'string' && typeof r.endDate === 'string' && Date.parse(r.startDate) > Date.parse(r.endDate)
      ? '--end-date must not be before --start-date'
      : undefined,
};

const UPGRADE_COMBOS: Rule = {
  kind: 'custom',
  field: 'runtime',
  check: (r) => {
    if (given(r.runtime) && given(r.imageId)) return 'give --image-id or --runtime, not both';
    if (given(r.runtime) && given(r.lockComponents))
      return '--lock-components upgrades within the runtime; do not combine it with --runtime';
    return undefined;
  },
};

// ---- waiters -------------------------------------------------------------

/** Operation-id work: getOperation until FINISHED. `lake` is the expression naming the lake. */
const opWait = (lake: string): WaiterSpec => ({
  poll: 'getOperation',
  input: { datalakeName: lake, operationId: 'response.operationId' },
  state: 'operationStatus',
  success: ['FINISHED'],
  failure: ['FAILED', 'CANCELLED'],
  interval: 10,
  timeout: 3 * 3600,
});

/** Lake status work: describeDatalake until `success`. */
const lakeWait = (success: string[], failure: string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
  poll: 'describeDatalake',
  input: { datalakeName: 'request.datalakeName' },
  state: 'datalake.status',
  success,
  failure,
  reason: 'datalake.statusReason',
  interval: 15,
  timeout: 3 * 3600,
  ...extra,
});

const BACKUP_WAIT: WaiterSpec = {
  poll: 'backupDatalakeStatus',
  input: { datalakeName: 'request.datalakeName', backupId: 'response.backupId' },
  state: 'status',
  success: ['SUCCESSFUL', 'VALIDATION_SUCCESSFUL'],
  failure: ['FAILED', 'VALIDATION_FAILED', 'CANCELLED'],
  reason: 'failureReason',
  interval: 10,
  timeout: 4 * 3600,
};

const RESTORE_WAIT: WaiterSpec = {
  poll: 'restoreDatalakeStatus',
  input: { datalakeName: 'request.datalakeName', restoreId: 'response.restoreId' },
  state: 'status',
  success: ['SUCCESSFUL', 'VALIDATION_SUCCESSFUL'],
  failure: ['FAILED', 'VALIDATION_FAILED', 'CANCELLED'],
  reason: 'failureReason',
  interval: 10,
  timeout: 4 * 3600,
};

const CREATE_WAIT = lakeWait(['RUNNING'], ['PROVISIONING_FAILED', 'DELETE_FAILED', 'DELETED']);

// ---- shared help ---------------------------------------------------------

const LAKE_COLUMNS = {
  name: 'datalakeName',
  status: 'status',
  environment: 'environmentCrn',
  raz: 'enableRangerRaz',
  multiAz: 'multiAz',
  certificates: 'certificateExpirationState',
  created: 'creationDate',
};

const CREATE_HELP = {
  datalakeName: 'Name of the new data lake: lower-case letters, digits and "-"',
  environmentName: 'Name or CRN of the environment the lake belongs to',
  scale: 'Size and availability: LIGHT_DUTY (default), MEDIUM_DUTY_HA or ENTERPRISE',
  runtime:
    'Runtime version, e.g. 7.2.18; default: the one `datalake runtimes list` marks as the default (not always the newest). A Data Hub in the environment can run no newer runtime than its data lake',
  image: 'Image to launch from: id and catalogName, or only os when --runtime is given',
  tags: 'Tags for the cloud resources, e.g. [{"key":"team","value":"data"}]',
  recipes: 'Recipes to run per instance group',
  customInstanceGroups: 'Instance types per instance group',
  enableRangerRaz: 'Turn on fine-grained storage authorization',
  javaVersion: 'Java major version for the cluster services',
};

const { enableRangerRaz: _raz, ...GCP_HELP } = CREATE_HELP;

const NAME_OR_CRN = 'Name or CRN of the data lake (see `datalake list`)';
const CRN = 'CRN of the data lake (see `datalake list`)';
const LAKE_NAME = { datalakeName: NAME_OR_CRN };
const LAKE = { datalake: NAME_OR_CRN };
const LAKE_CRN = { crn: CRN };
const BACKUP_ID = 'ID of the backup (see `datalake backups list`)';
const RESTORE_ID = 'ID of the restore, as `datalake restore` printed it';

/** Diagnostics: shared by the log collection and the Cloudera Manager bundle. */
const DIAGNOSTICS_HELP = {
  destination:
    'Where the bundle goes: SUPPORT (to vendor support), CLOUD_STORAGE (the log storage of the environment), ENG (to engineering) or LOCAL (stays on the hosts)',
  description: 'Title of the collection, sent along with the bundle',
  caseNumber: 'Support case number, for SUPPORT; otherwise kept as a note',
  startDate: 'Only logs and metrics from this time on (ISO 8601)',
  endDate: 'Only logs and metrics up to this time (ISO 8601)',
  updatePackage: 'Install or upgrade the telemetry package (cdp-telemetry) on the hosts first; they need network access',
  storageValidation: 'Check first that every host can write to the cloud storage (many hosts mean many parallel writes)',
};

/** Pre-upgrade backup parts: moot with --skip-backup. */
const UPGRADE_BACKUP_HELP = {
  skipRangerHmsMetadata: 'Leave the Ranger and Hive metastore databases out of the backup taken before upgrading (moot with --skip-backup)',
  skipAtlasMetadata: 'Leave the Atlas metadata out of the backup taken before upgrading (moot with --skip-backup)',
  skipRangerAudits: 'Leave the Ranger audits out of the backup taken before upgrading (moot with --skip-backup)',
  skipBackupValidation: 'Skip the checks that run before that backup (moot with --skip-backup)',
};

/** Storage checks: shared by AWS and Azure. */
const STORAGE_CHECK_HELP = {
  clusterName: 'Name of the data lake the storage is for',
  credentialCrn: 'CRN of the credential of the environment (see `environments credentials list`)',
  blueprintName:
    'Cluster template of the data lake shape, e.g. "7.2.18 - SDX Light Duty: Apache Hive Metastore, Apache Ranger, Apache Atlas"',
};

const cli: Record<string, OperationCli> = {
  // creation and lifecycle
  createAWSDatalake: {
    command: 'create aws',
    summary: 'Create a data lake in an AWS environment.',
    examples: [
      '--datalake-name sales-lake --environment-name sales-env --cloud-provider-configuration instanceProfile=arn:aws:iam::123456789012:instance-profile/dl-idbroker,storageBucketLocation=s3a://sales-data/lake --wait',
      '--datalake-name sales-lake --environment-name sales-env --cloud-provider-configuration file://aws.json --scale MEDIUM_DUTY_HA --runtime 7.2.18',
    ],
    fieldHelp: {
      ...CREATE_HELP,
      cloudProviderConfiguration: 'instanceProfile (ARN of the ID broker instance profile) and storageBucketLocation (s3a://bucket/path)',
      architecture: 'CPU architecture of the instances',
    },
    rules: [DATALAKE_NAME, AWS_STORAGE, IMAGE_WITH_RUNTIME, uniqueGroups('recipes')],
    wait: CREATE_WAIT,
  },
  createAWSGovCloudDatalake: {
    command: 'create aws-gov',
    summary: 'Create a data lake in an AWS GovCloud environment.',
    examples: [
      '--datalake-name gov-lake --environment-name gov-env --cloud-provider-configuration instanceProfile=arn:aws-us-gov:iam::123456789012:instance-profile/dl-idbroker,storageBucketLocation=s3a://gov-data/lake --wait',
    ],
    fieldHelp: {
      ...CREATE_HELP,
      cloudProviderConfiguration: 'instanceProfile (ARN of the ID broker instance profile) and storageBucketLocation (s3a://bucket/path)',
    },
    rules: [DATALAKE_NAME, AWS_STORAGE, IMAGE_WITH_RUNTIME, uniqueGroups('recipes')],
    wait: CREATE_WAIT,
  },
  createAzureDatalake: {
    command: 'create azure',
    summary: 'Create a data lake in an Azure environment.',
    examples: [
      '--datalake-name ops-lake --environment-name ops-env --cloud-provider-configuration managedIdentity=/subscriptions/sub1/resourceGroups/rg1/providers/Microsoft.ManagedIdentity/userAssignedIdentities/dl-idbroker,storageLocation=abfs://data@opsstore.dfs.core.windows.net --wait',
    ],
    fieldHelp: {
      ...CREATE_HELP,
      cloudProviderConfiguration:
        'managedIdentity (resource id of the ID broker identity) and storageLocation (abfs://<filesystem>@<account>.dfs.core.windows.net)',
      loadBalancerSku: 'Load balancer SKU for the lake',
      databaseType: 'Kind of Azure database server',
      flexibleServerDelegatedSubnetId: 'Subnet delegated to the flexible database server',
    },
    rules: [DATALAKE_NAME, AZURE_STORAGE, IMAGE_WITH_RUNTIME, uniqueGroups('recipes')],
    wait: CREATE_WAIT,
  },
  createGCPDatalake: {
    command: 'create gcp',
    summary: 'Create a data lake in a GCP environment.',
    examples: [
      '--datalake-name ml-lake --environment-name ml-env --cloud-provider-configuration serviceAccountEmail=idbroker@proj.iam.gserviceaccount.com,storageLocation=gs://ml-data/lake --wait',
    ],
    fieldHelp: {
      ...GCP_HELP,
      cloudProviderConfiguration: 'serviceAccountEmail (the ID broker service account) and storageLocation (gs://bucket/path)',
    },
    rules: [DATALAKE_NAME, GCP_STORAGE, IMAGE_WITH_RUNTIME, uniqueGroups('recipes')],
    wait: CREATE_WAIT,
  },
  listDatalakes: {
    command: 'list',
    summary: 'List data lakes, optionally of one environment.',
    examples: ['', '--environment-name sales-env --output table'],
    fieldHelp: {
      environmentName: 'Only the data lake of this environment: name or CRN (see `environments list`)',
      datalakeName: 'Only this data lake: name or CRN',
    },
    listKey: 'datalakes',
    columns: LAKE_COLUMNS,
  },
  describeDatalake: {
    command: 'describe',
    summary: 'Show a data lake: status, shape, instance groups, endpoints and versions.',
    examples: ['--datalake-name sales-lake'],
    fieldHelp: LAKE_NAME,
  },
  deleteDatalake: {
    command: 'delete',
    summary: 'Delete a data lake and its cloud resources.',
    examples: ['--datalake-name sales-lake --yes --wait', '--datalake-name sales-lake --force --yes'],
    fieldHelp: { ...LAKE_NAME, force: 'Delete even when cleaning up cloud resources fails' },
    destructive: true,
    wait: lakeWait(['DELETED'], ['DELETE_FAILED'], { goneIsSuccess: true }),
  },
  startDatalake: {
    command: 'start',
    summary: 'Start a stopped data lake.',
    description: 'Deprecated: start the environment instead, which starts its data lake.',
    examples: ['--datalake-name sales-lake --wait'],
    fieldHelp: LAKE_NAME,
    wait: lakeWait(['RUNNING'], ['START_FAILED']),
  },
  stopDatalake: {
    command: 'stop',
    summary: 'Stop a running data lake.',
    description: 'Deprecated: stop the environment instead, which stops its data lake.',
    examples: ['--datalake-name sales-lake --wait'],
    fieldHelp: LAKE_NAME,
    wait: lakeWait(['STOPPED'], ['STOP_FAILED']),
  },
  retryDatalake: {
    command: 'retry',
    summary: 'Run the last failed operation of a data lake again.',
    examples: ['--datalake-name sales-lake --wait'],
    fieldHelp: LAKE_NAME,
    wait: opWait('request.datalakeName'),
  },
  repairDatalake: {
    command: 'repair',
    summary: 'Replace failed instances of a data lake, by instance group or by instance.',
    examples: [
      '--datalake-name sales-lake --instance-group-names master idbroker --wait',
      '--datalake-name sales-lake --instances instanceIds=i-0abc,i-0def',
    ],
    fieldHelp: {
      ...LAKE_NAME,
      instanceGroupName: 'One instance group to repair (older form of --instance-group-names)',
      instanceGroupNames: 'Instance groups to repair, e.g. master (see `datalake describe`)',
      instances: 'Instances to repair: {"instanceIds": [...]}',
    },
    rules: [
      {
        kind: 'exclusive',
        fields: ['instanceGroupName', 'instanceGroupNames', 'instances'],
        message: 'repair either instance groups (--instance-group-names) or instances (--instances), not both',
      },
      {
        kind: 'anyOf',
        fields: ['instanceGroupName', 'instanceGroupNames', 'instances'],
        message: 'say what to repair: --instance-group-names or --instances',
      },
    ],
    wait: lakeWait(['RUNNING'], ['REPAIR_FAILED']),
  },
  recoverDatalake: {
    command: 'recover',
    summary: 'Bring a data lake back after a failed upgrade or resize.',
    examples: ['--datalake-name sales-lake --wait', '--datalake-name sales-lake --recovery-type RECOVER_WITH_DATA'],
    fieldHelp: { ...LAKE_NAME, recoveryType: 'Default RECOVER_WITHOUT_DATA; after a failed resize data is always recovered' },
    wait: opWait('request.datalakeName'),
  },
  resizeDatalake: {
    command: 'resize',
    summary: 'Move a data lake to a larger shape.',
    examples: [
      '--datalake-name sales-lake --target-size MEDIUM_DUTY_HA --wait',
      '--datalake-name sales-lake --target-size ENTERPRISE --validation-only',
    ],
    fieldHelp: {
      ...LAKE_NAME,
      targetSize: 'The larger shape to move to',
      multiAz: 'Spread the resized lake over availability zones',
      skipValidation: 'Skip the checks that run before resizing',
      validationOnly: 'Only run the checks; change nothing',
      customInstanceTypes: 'Instance type per instance group: [{"name":"master","instanceType":"m5.4xlarge"}]',
      customInstanceDisks: 'Disk size (GB) per instance group',
      customDatabaseComputeStorage: 'Database instance type and storage size',
    },
    rules: [
      {
        kind: 'exclusive',
        fields: ['skipValidation', 'validationOnly'],
        message: '--skip-validation and --validation-only together make no sense; give one',
      },
    ],
    wait: lakeWait(['RUNNING'], ['RESIZE_FAILED']),
  },
  migrateSkus: {
    command: 'migrate-skus',
    summary: 'Move the load balancers and public IPs of an Azure data lake from basic to standard SKU.',
    examples: ['--datalake-name ops-lake --wait'],
    fieldHelp: { ...LAKE_NAME, force: 'Migrate without checking the current SKU' },
    wait: opWait('request.datalakeName'),
  },

  // backup and restore
  backupDatalake: {
    command: 'backup',
    summary: 'Back up the metadata of a data lake to cloud storage.',
    examples: ['--datalake-name sales-lake --backup-name nightly --wait', '--datalake-name sales-lake --validation-only'],
    fieldHelp: {
      ...LAKE_NAME,
      backupLocation: 'Where to write the backup; default: the lake backup location of the environment',
      backupName: 'A name to find the backup by later',
      closeDbConnections: 'Close the open database connections while backing up',
      skipRangerHmsMetadata: 'Leave out the Ranger and Hive metastore database',
      skipAtlasMetadata: 'Leave out the Atlas metadata tables',
      skipRangerAudits: 'Leave out the Ranger audit collection',
      skipAtlasIndexes: 'Leave out the Atlas search indexes',
      skipValidation: 'Skip the checks that run before the backup',
      validationOnly: 'Only run the checks, back up nothing (with --skip-validation too, the checks still run)',
    },
    wait: BACKUP_WAIT,
  },
  backupDatalakeStatus: {
    command: 'backup status',
    summary: 'Show the progress of a backup; the latest one when none is named.',
    examples: ['--datalake-name sales-lake', '--datalake-name sales-lake --backup-id 7c1a6f3e-2b4d-4e9a-8f1c-0d2e3b4a5c6d'],
    fieldHelp: { ...LAKE_NAME, backupId: BACKUP_ID, backupName: 'Name of the backup (its latest run)' },
    rules: [{ kind: 'exclusive', fields: ['backupId', 'backupName'], message: 'give --backup-id or --backup-name, not both' }],
  },
  listDatalakeBackups: {
    command: 'backups list',
    summary: 'List the backups of a data lake.',
    examples: ['--datalake-name sales-lake --output table'],
    fieldHelp: LAKE_NAME,
    listKey: 'backups',
    columns: {
      backupId: 'backupId',
      name: 'backupName',
      status: 'status',
      started: 'startTime',
      ended: 'endTime',
      location: 'backupLocation',
    },
  },
  cancelBackup: {
    command: 'backup cancel',
    summary: 'Cancel a backup that is still running.',
    examples: ['--backup-id 7c1a6f3e-2b4d-4e9a-8f1c-0d2e3b4a5c6d --yes', '--backup-id 7c1a6f3e-2b4d-4e9a-8f1c-0d2e3b4a5c6d --force --yes'],
    fieldHelp: {
      backupId: BACKUP_ID,
      force: 'Mark every unfinished step cancelled and end the backup now, without waiting for running steps',
    },
    destructive: true,
  },
  restoreDatalake: {
    command: 'restore',
    summary: 'Restore a data lake from a backup; the latest successful one when none is named.',
    examples: [
      '--datalake-name sales-lake --backup-name nightly --wait',
      '--datalake-name sales-lake --backup-id 7c1a6f3e-2b4d-4e9a-8f1c-0d2e3b4a5c6d',
    ],
    fieldHelp: {
      ...LAKE_NAME,
      backupId: `${BACKUP_ID}; wins over --backup-name`,
      backupName: 'Name of the backup (see `datalake backups list`)',
      backupLocationOverride: 'Read the backup from here instead of where it was written; needs --backup-id',
      includeDatabase: 'Deprecated: the database is restored unless --skip-ranger-hms-metadata is given',
      skipRangerHmsMetadata: 'Do not restore the Ranger and Hive metastore database',
      skipAtlasMetadata: 'Do not restore the Atlas metadata tables',
      skipRangerAudits: 'Do not restore the Ranger audit collection',
      skipAtlasIndexes: 'Do not restore the Atlas search indexes',
      skipValidation: 'Skip the checks that run before the restore',
      validationOnly: 'Only run the checks, restore nothing (with --skip-validation too, the checks still run)',
    },
    rules: [
      { kind: 'requires', field: 'backupLocationOverride', needs: 'backupId', message: '--backup-location-override needs --backup-id' },
    ],
    wait: RESTORE_WAIT,
  },
  restoreDatalakeStatus: {
    command: 'restore status',
    summary: 'Show the progress of a restore; the latest one when none is named.',
    examples: ['--datalake-name sales-lake', '--datalake-name sales-lake --restore-id 0b5d3c2a-9e8f-4a1b-b6c7-d8e9f0a1b2c3'],
    fieldHelp: { ...LAKE_NAME, restoreId: `${RESTORE_ID}; default: the latest restore` },
  },
  cancelRestore: {
    command: 'restore cancel',
    summary: 'Cancel a restore that is still running.',
    examples: ['--restore-id 0b5d3c2a-9e8f-4a1b-b6c7-d8e9f0a1b2c3 --yes'],
    fieldHelp: { restoreId: RESTORE_ID, force: 'Mark the restore cancelled whatever its progress' },
    destructive: true,
  },

  // diagnostics
  collectDatalakeDiagnostics: {
    command: 'diagnostics collect',
    summary: 'Collect logs and diagnostics from the hosts of a data lake.',
    examples: [
      '--crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b --destination CLOUD_STORAGE --description "slow queries since upgrade" --wait',
      '--crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b --destination SUPPORT --description "case 123" --case-number 00123456',
    ],
    fieldHelp: {
      ...LAKE_CRN,
      skipUnresponsiveHosts: 'Leave out hosts that do not answer instead of failing',
      includeNginxReport: 'Add the Nginx access report (made by GoAccess), where there is one',
      includeSaltLogs: 'Add the Salt minion, master and API logs',
      includeSarOutput: 'Add the system activity reports (sar), where there are any',
      labels: 'Only logs with these labels (see `datalake diagnostics log-descriptors`)',
      additionalLogs: 'Extra log paths with labels',
      hosts: 'Only these hosts',
      hostGroups: 'Only these host groups',
      excludeHosts: 'Leave out these hosts',
    },
    rules: [DATE_ORDER],
    wait: opWait('request.crn'),
  },
  collectCmDiagnostics: {
    command: 'diagnostics collect-cm',
    summary: 'Collect a Cloudera Manager diagnostic bundle for a data lake.',
    examples: ['--crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b --destination SUPPORT --case-number 00123456 --wait'],
    fieldHelp: {
      ...LAKE_CRN,
      destination:
        'Where the bundle goes: SUPPORT (to vendor support), CLOUD_STORAGE (the log storage of the environment) or LOCAL (stays on the hosts)',
      roles: 'Only these Cloudera Manager roles (see `datalake diagnostics cm-roles`)',
      bundleSizeLimit: 'Size limit of the bundle in MB',
      monitorMetricsCollection: 'Also collect the metrics behind the Cloudera Manager charts',
    },
    rules: [DATE_ORDER],
    wait: opWait('request.crn'),
  },
  listDatalakeDiagnostics: {
    command: 'diagnostics list',
    summary: 'List the diagnostics collections of a data lake.',
    examples: ['--crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b --output table'],
    fieldHelp: LAKE_CRN,
    listKey: 'collections',
    columns: {
      flowId: 'flowId',
      status: 'status',
      progress: 'progressPercentage',
      destination: 'collectionDetails.destination',
      created: 'created',
    },
  },
  cancelDatalakeDiagnostics: {
    command: 'diagnostics cancel',
    summary: 'Cancel the running diagnostics collections of a data lake.',
    examples: ['--crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b --yes'],
    fieldHelp: LAKE_CRN,
    destructive: true,
  },
  getDatalakeLogDescriptors: {
    command: 'diagnostics log-descriptors',
    summary: 'List the log labels and paths a diagnostics collection can take.',
    examples: [''],
    listKey: 'logs',
    columns: { label: 'label', path: 'path' },
  },
  getCmRoles: {
    command: 'diagnostics cm-roles',
    summary: 'List the Cloudera Manager roles of a data lake, for a CM diagnostics collection.',
    examples: ['--crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b'],
    fieldHelp: LAKE_CRN,
  },

  // upgrades
  prepareDatalakeUpgrade: {
    command: 'upgrade prepare',
    summary: 'Check an upgrade and download its parcels ahead of time.',
    examples: ['--datalake sales-lake --runtime 7.2.18 --wait', '--datalake sales-lake --image-id 3b9f1c2e-6d7a-4e8b-9c0d-1e2f3a4b5c6d'],
    fieldHelp: {
      ...LAKE,
      imageId: 'ID of the image to prepare (see `datalake upgrade start --show-available-images`)',
      runtime: 'Runtime version to prepare, e.g. 7.2.18',
    },
    // The seed: imageId or runtime must be present; both may be (an image of another runtime then has no candidate).
    rules: [{ kind: 'anyOf', fields: ['imageId', 'runtime'], message: 'give --image-id or --runtime' }],
    wait: opWait('request.datalake'),
  },
  upgradeDatalake: {
    command: 'upgrade start',
    summary: 'Upgrade a data lake to a newer runtime or image, or list what it can be upgraded to.',
    examples: [
      '--datalake-name sales-lake --runtime 7.2.18 --wait',
      '--datalake-name sales-lake --lock-components',
      '--datalake-name sales-lake --show-available-images',
    ],
    fieldHelp: {
      ...LAKE_NAME,
      imageId: 'ID of the image to upgrade to (see --show-available-images); may be combined with --lock-components',
      runtime: 'Runtime version to upgrade to',
      lockComponents: 'Only the OS: keep the runtime and Cloudera Manager versions',
      dryRun: 'Check the upgrade without doing it',
      showAvailableImages: 'List every image the lake can be upgraded to',
      showLatestAvailableImagePerRuntime: 'List the newest image of each runtime',
      skipBackup: 'Do not back up before upgrading',
      rollingUpgradeEnabled: 'Upgrade one node at a time (needs a highly available shape)',
      ...UPGRADE_BACKUP_HELP,
    },
    rules: [
      UPGRADE_COMBOS,
      {
        kind: 'exclusive',
        fields: ['showAvailableImages', 'showLatestAvailableImagePerRuntime'],
        message: 'give --show-available-images or --show-latest-available-image-per-runtime, not both',
      },
    ],
    wait: lakeWait(['RUNNING'], ['DATALAKE_UPGRADE_FAILED']),
  },
  startDatabaseUpgrade: {
    command: 'upgrade database',
    summary: 'Upgrade the database server of a data lake to a newer major version.',
    examples: ['--datalake sales-lake --target-version VERSION_14 --wait'],
    fieldHelp: {
      ...LAKE,
      targetVersion: 'Database major version; default: the newest supported',
      force: 'Run even when already at the target (to retry)',
    },
    wait: opWait('request.datalake'),
  },
  listRuntimes: {
    command: 'runtimes list',
    summary: 'List the runtime versions a data lake can be created with, and the one it gets by default.',
    examples: ['', '--output table'],
    listKey: 'versions',
    columns: { runtime: 'runtimeVersion', default: 'defaultRuntimeVersion' },
  },

  // scaling
  scaleHorizontally: {
    command: 'scale horizontal',
    summary: 'Set the number of instances of a scale-out instance group.',
    examples: ['--datalake-name sales-lake --instance-group-name solr_scale_out --instance-group-desired-count 3 --wait'],
    fieldHelp: {
      ...LAKE_NAME,
      instanceGroupName: 'The scale-out instance group to resize',
      instanceGroupDesiredCount: 'Instances wanted; fewer than now scales down',
    },
    wait: opWait('request.datalakeName'),
  },
  startDatalakeVerticalScaling: {
    command: 'scale vertical',
    summary: 'Change the instance type or disks of one instance group.',
    examples: [
      '--datalake sales-lake --group master --instance-template instanceType=m5.4xlarge --wait',
      '--datalake sales-lake --group core --disk-options \'{"modifyDisks":{"size":500,"diskType":"ADDITIONAL_DISK"}}\'',
    ],
    fieldHelp: {
      ...LAKE,
      group: 'Instance group to change, e.g. master (see `datalake describe`)',
      instanceTemplate: 'The new instance type',
      diskOptions: 'Disks to add or resize',
    },
    rules: [
      {
        kind: 'anyOf',
        fields: ['instanceTemplate', 'diskOptions'],
        message: 'nothing to change: give --instance-template and/or --disk-options',
      },
    ],
    wait: opWait('request.datalake'),
  },
  restartDatalakeInstances: {
    command: 'instances restart',
    summary: 'Restart instances of a data lake.',
    examples: ['--datalake-name sales-lake --instances i-0abc123 i-0def456 --wait'],
    fieldHelp: { ...LAKE_NAME, instances: 'IDs of the instances to restart (see `datalake describe`)' },
    rules: [atLeastOne('instances', 'instance id')],
    wait: opWait('request.datalakeName'),
  },
  replaceRecipes: {
    command: 'recipes replace',
    summary: 'Replace the recipes attached to instance groups of a data lake.',
    examples: ['--datalake sales-lake --instance-group-recipes \'[{"instanceGroupName":"master","recipeNames":["install-agent"]}]\''],
    fieldHelp: { ...LAKE, instanceGroupRecipes: 'Per instance group, the full list of recipes it should have (empty detaches all)' },
    rules: [uniqueGroups('instanceGroupRecipes')],
  },

  // certificates and secrets
  renewPublicCertificate: {
    command: 'certificates renew',
    summary: 'Renew the public certificate of the data lake gateway.',
    examples: ['--datalake sales-lake --wait'],
    fieldHelp: LAKE,
    wait: opWait('request.datalake'),
  },
  rotatePrivateCertificates: {
    command: 'certificates rotate',
    summary: 'Rotate the private host certificates of a data lake.',
    examples: ['--datalake sales-lake --wait'],
    fieldHelp: LAKE,
    wait: opWait('request.datalake'),
  },
  renewCertificate: {
    command: 'certificates renew-host',
    summary: 'Renew the host certificates of a data lake.',
    examples: ['--datalake-name sales-lake'],
    fieldHelp: LAKE_NAME,
    replacement: 'certificates renew',
    wait: opWait('request.datalakeName'),
  },
  rotateAutoTlsCertificates: {
    command: 'certificates rotate-auto-tls',
    summary: 'Rotate the auto-TLS certificates of a data lake.',
    examples: ['--datalake-name sales-lake'],
    fieldHelp: LAKE_NAME,
    replacement: 'certificates rotate',
    wait: opWait('request.datalakeName'),
  },
  rotateDbCertificate: {
    command: 'certificates rotate-database',
    summary: 'Rotate the SSL certificate of the data lake database server.',
    examples: ['--datalake-name sales-lake --wait'],
    fieldHelp: LAKE_NAME,
    wait: opWait('request.datalakeName'),
  },
  rotateSecrets: {
    command: 'secrets rotate',
    summary: 'Rotate secrets of a data lake by type.',
    examples: ['--datalake sales-lake --secret-types CM_ADMIN_PASSWORD SALT_PASSWORD --wait'],
    fieldHelp: { ...LAKE, secretTypes: 'Secret types (see `datalake secrets list-types`)' },
    rules: [atLeastOne('secretTypes', 'secret type')],
    wait: opWait('request.datalake'),
  },
  listDatalakeSecretTypes: {
    command: 'secrets list-types',
    summary: 'List the secret types of a data lake that can be rotated.',
    examples: ['--datalake crn:cdp:datalake:us-west-1:acct:datalake:1a2b --output table'],
    fieldHelp: { datalake: CRN },
    listKey: 'datalakeSecretTypes',
    columns: { type: 'secretType', description: 'description' },
  },
  rotateSaltPassword: {
    command: 'secrets rotate-salt-password',
    summary: 'Rotate the SaltStack password of a data lake.',
    examples: ['--datalake sales-lake'],
    fieldHelp: LAKE,
    replacement: 'secrets rotate --secret-types SALT_PASSWORD',
    wait: opWait('request.datalake'),
  },

  // operations and status
  getOperation: {
    command: 'operations describe',
    summary: 'Show a long-running operation of a data lake; the latest one when no id is given.',
    examples: ['--datalake-name sales-lake', '--datalake-name sales-lake --operation-id 5f4e3d2c-1b0a-4987-8654-3210fedcba98'],
    fieldHelp: {
      ...LAKE_NAME,
      crn: 'CRN of the data lake (older form of --datalake-name)',
      operationId: 'ID of the operation, as the command that started it printed it; default: the latest',
    },
    rules: [{ kind: 'anyOf', fields: ['datalakeName', 'crn'], message: 'name the data lake with --datalake-name' }],
  },
  getClusterHostStatus: {
    command: 'hosts status',
    summary: 'Show the health of each host of a data lake.',
    examples: ['--cluster-name sales-lake --output table'],
    fieldHelp: { clusterName: NAME_OR_CRN },
    listKey: 'hosts',
    columns: { host: 'hostname', id: 'hostid', health: 'healthSummary' },
  },
  getClusterServiceStatus: {
    command: 'services status',
    summary: 'Show the health of each service of a data lake.',
    examples: ['--cluster-name sales-lake --output table'],
    fieldHelp: { clusterName: NAME_OR_CRN },
    listKey: 'services',
    columns: { service: 'type', state: 'state', health: 'healthSummary' },
  },
  describeDatabaseServer: {
    command: 'database-server describe',
    summary: 'Show the database server of a data lake.',
    examples: ['--cluster-crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b'],
    fieldHelp: { clusterCrn: CRN },
    rules: [{ kind: 'anyOf', fields: ['clusterCrn'], message: 'give --cluster-crn' }],
  },
  syncComponentVersionsFromCm: {
    command: 'sync-component-versions',
    summary: 'Read the component versions Cloudera Manager reports and record them for the lake.',
    examples: ['--datalake-name sales-lake --wait'],
    fieldHelp: LAKE_NAME,
    wait: opWait('request.datalakeName'),
  },

  // settings
  setCatalog: {
    command: 'catalog set',
    summary: 'Set the image catalog a data lake takes its upgrade images from.',
    examples: ['--datalake sales-lake --catalog-name cdp-default'],
    fieldHelp: { ...LAKE, catalogName: 'Name of the image catalog (see `imagecatalog catalogs list`)' },
  },
  setDefaultJavaVersion: {
    command: 'java set-default',
    summary: 'Set the Java version the services of a data lake run on, and restart them.',
    examples: [
      '--crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b --java-version 17 --wait',
      '--crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b --java-version 11 --rolling-restart',
    ],
    fieldHelp: {
      crn: NAME_OR_CRN,
      javaVersion: 'Java major version, e.g. 11 or 17',
      rollingRestart: 'Restart services one at a time: slower, no downtime (default: off)',
    },
    rules: [
      { kind: 'anyOf', fields: ['crn'], message: 'give --crn' },
      { kind: 'anyOf', fields: ['javaVersion'], message: 'give --java-version' },
      { kind: 'pattern', field: 'javaVersion', pattern: /^\d{1,2}$/, message: '--java-version is a Java major version such as 11 or 17' },
    ],
    wait: opWait('request.crn'),
  },
  updateOrchestratorState: {
    command: 'orchestrator update-state',
    summary: 'Push the current orchestrator (Salt) state to the hosts of a data lake.',
    examples: ['--cluster-crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b --wait'],
    fieldHelp: { clusterCrn: CRN },
    wait: opWait('request.clusterCrn'),
  },
  updatePublicDnsEntries: {
    command: 'dns update',
    summary: 'Update the public DNS entries of the data lake gateway.',
    examples: ['--datalake sales-lake --wait'],
    fieldHelp: LAKE,
    wait: opWait('request.datalake'),
  },
  updateToAwsImdsV1: {
    command: 'imds update-v1',
    summary: 'Let the instances of an AWS data lake use instance metadata service v1 again.',
    examples: ['--crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b --wait'],
    fieldHelp: LAKE_CRN,
    wait: opWait('request.crn'),
  },
  updateToAwsImdsV2: {
    command: 'imds update-v2',
    summary: 'Require instance metadata service v2 on the instances of an AWS data lake.',
    examples: ['--crn crn:cdp:datalake:us-west-1:acct:datalake:1a2b --wait'],
    fieldHelp: LAKE_CRN,
    wait: opWait('request.crn'),
  },

  // storage checks
  validateAwsCloudStorage: {
    command: 'storage validate-aws',
    summary: 'Check that the roles and bucket of an AWS data lake give the access it needs.',
    examples: [
      '--cluster-name sales-lake --data-access-role arn:aws:iam::123456789012:role/dl-data --ranger-audit-role arn:aws:iam::123456789012:role/dl-audit --credential-crn crn:cdp:environments:us-west-1:acct:credential:c1 --blueprint-name "7.2.18 - SDX Light Duty: Apache Hive Metastore, Apache Ranger, Apache Atlas" --storage-location s3a://sales-data/lake --instance-profile arn:aws:iam::123456789012:instance-profile/dl-idbroker',
    ],
    fieldHelp: {
      ...STORAGE_CHECK_HELP,
      dataAccessRole: 'ARN of the IAM role that gives the data lake services access to the data',
      rangerAuditRole: 'ARN of the IAM role that writes the Ranger audits',
      rangerCloudAccessAuthorizerRole: 'ARN of the IAM role of Ranger RAZ, when fine-grained storage authorization is on',
      storageLocation: 'Base location of the data lake storage: s3a://bucket/path',
      instanceProfile: 'ARN of the ID broker instance profile',
    },
    rules: [
      { kind: 'pattern', field: 'storageLocation', pattern: S3A, message: '--storage-location must be s3a:// followed by a bucket name' },
    ],
  },
  validateAzureCloudStorage: {
    command: 'storage validate-azure',
    summary: 'Check that the identities and storage account of an Azure data lake give the access it needs.',
    examples: [
      '--cluster-name ops-lake --data-access-role /subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/data --ranger-audit-role /subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/audit --credential-crn crn:cdp:environments:us-west-1:acct:credential:c1 --blueprint-name "7.2.18 - SDX Light Duty" --storage-location abfs://data@opsstore.dfs.core.windows.net',
    ],
    fieldHelp: {
      ...STORAGE_CHECK_HELP,
      dataAccessRole: 'Resource id of the managed identity that gives the data lake services access to the data',
      rangerAuditRole: 'Resource id of the managed identity that writes the Ranger audits',
      rangerCloudAccessAuthorizerRole: 'Resource id of the managed identity of Ranger RAZ, when fine-grained storage authorization is on',
      storageLocation: 'Base location of the data lake storage: abfs://<filesystem>@<account>.dfs.core.windows.net',
      managedIdentity: 'Resource id of the ID broker managed identity',
      accountName: 'Name of the storage account',
      accountKey: 'Access key of the storage account (secret)',
      secure: 'Reach the storage account over TLS',
    },
    rules: [
      {
        kind: 'pattern',
        field: 'storageLocation',
        pattern: ABFS,
        message: '--storage-location must look like abfs://<filesystem>@<storage-account>.dfs.core.windows.net',
      },
    ],
  },
};

const definition: ServiceDefinition = {
  name: 'datalake',
  topic: 'datalake',
  summary: 'Data lakes: create, back up and restore, scale, upgrade, repair and diagnose.',
  endpoint: 'api',
  facts: service,
  topics: {
    create: 'Create a data lake on AWS, AWS GovCloud, Azure or GCP.',
    backup: 'Back up a data lake, follow and cancel backups.',
    backups: 'Backups of a data lake.',
    restore: 'Restore a data lake, follow and cancel restores.',
    diagnostics: 'Diagnostic bundles and log collections.',
    upgrade: 'Runtime, image and database upgrades.',
    runtimes: 'Runtime versions.',
    scale: 'Horizontal and vertical scaling.',
    instances: 'Instances of a data lake.',
    recipes: 'Recipes attached to instance groups.',
    certificates: 'Host, public and database certificates.',
    secrets: 'Secret rotation.',
    operations: 'Long-running operations.',
    hosts: 'Host health.',
    services: 'Service health.',
    'database-server': 'The database server of a data lake.',
    catalog: 'The image catalog of a data lake.',
    java: 'The Java version of a data lake.',
    orchestrator: 'The orchestrator state of a data lake.',
    dns: 'Public DNS entries.',
    imds: 'The AWS instance metadata service version.',
    storage: 'Cloud storage access checks.',
  },
  fieldHelp: {
    datalakeName: NAME_OR_CRN,
    datalake: NAME_OR_CRN,
    crn: CRN,
    ...DIAGNOSTICS_HELP,
    multiAz: 'Spread the lake over the availability zones of the region',
    enableRangerRms: 'Turn on the Ranger Resource Mapping Server, which applies Hive table permissions to the storage (default: off)',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
