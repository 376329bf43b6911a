/**
 * Cloudera Operational Database (the `opdb` service, COD): the CLI half of
 * its model. Databases (HBase clusters) of an environment with their
 * lifecycle, scaling and client connectivity; table snapshots and their
 * restores; runtime and OS upgrades; diagnostic bundles.
 *
 * --wait follows `databaseDetails.status` (the StatusType enum of the facts)
 * through describeDatabase, and the SnapshotStatusType of the snapshots or
 * restores one command id started through the snapshot listings.
 */
import type { OperationCli, ServiceDefinition, WaiterSpec } from '../../types.js';
import { operations, service, shapes } from './wire.js';

// ---- waiters ----------------------------------------------------------------

const databaseWait = (success: string[], failure: string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
  poll: 'describeDatabase',
  input: { environmentName: 'request.environmentName', databaseName: 'request.databaseName' },
  state: 'databaseDetails.status',
  success,
  failure,
  interval: 30,
  timeout: 2 * 3600,
  ...extra,
});

/** Upgrades name the database and environment by name or CRN, in fields of their own. */
const UPGRADE_WAIT: WaiterSpec = {
  ...databaseWait(['AVAILABLE'], ['UPDATE_FAILED', 'RECOVERY_FAILED'], { timeout: 4 * 3600 }),
  input: { environmentName: 'request.environment', databaseName: 'request.database' },
};

const SNAPSHOT_FAILED = ['FAILED', 'CORRUPT'];

// ---- shared help --------------------------------------------------------------

const DB = 'Name of the database (see `opdb databases list`)';
const ENV = 'Name of the environment of the database (see `opdb environments list`)';

const cli: Record<string, OperationCli> = {
  // ---- databases ------------------------------------------------------------------
  createDatabase: {
    command: 'databases create',
    summary: 'Create an operational database (HBase) in an environment.',
    examples: [
      '--environment-name sales-env --database-name orders --wait',
      '--environment-name sales-env --database-name orders --scale-type HEAVY --storage-type CLOUD_WITH_EPHEMERAL --auto-scaling-parameters minWorkersForDatabase=3,maxWorkersForDatabase=12 --custom-user-tags \'[{"key":"team","value":"data"}]\'',
    ],
    fieldHelp: {
      environmentName: 'Name of the environment to create the database in (see `opdb environments list`)',
      databaseName: 'Name of the new database',
      autoScalingParameters:
        'Autoscaling: minWorkersForDatabase, maxWorkersForDatabase, maxWorkersPerBatch, targetedValueForMetric, evaluationPeriod (seconds), minimumBlockCacheGb',
      subnetId: 'Single subnet to deploy into (AWS); turns multi-AZ off',
      customUserTags: 'Tags for the cloud resources, as key and value pairs',
      disableMultiAz: 'Deploy into one subnet instead of spreading over availability zones',
      attachedStorageForWorkers: 'Disks of each worker: volumeCount (1..8), volumeSize (GB), volumeType',
      disableKerberos: 'Turn Kerberos authentication off',
      numEdgeNodes: 'Edge nodes to create; default 0',
      image: 'Image to launch from: id and catalog; default: the newest',
      disableJwtAuth: 'Turn OAuth bearer (JWT) authentication off',
      enableRegionCanary: 'Run the region canary, which keeps checking the database answers',
      scaleType: 'Predefined size: MICRO, LIGHT or HEAVY',
      storageType: 'Where HBase keeps its data: CLOUD_WITH_EPHEMERAL (object store with a local cache), CLOUD or HDFS',
      recipes: 'Recipes to run, per instance group: names and instanceGroup',
      enableGrafana: 'Run a Grafana server for the database',
      rootVolumeSize: 'Root disk size of each node, in GiB',
      volumeEncryptions: 'Encryption key per instance group, for the volumes (AWS)',
      gatewayNodesCount: 'Gateway (Knox) nodes; more than one makes Knox highly available; default 1',
      restworkerNodesCount: 'REST worker nodes; default 0',
      architecture: 'CPU architecture of the nodes',
      customInstanceTypes: 'Instance type per group: masterType, workerType, gatewayType, leaderType, edgeType, computeType',
    },
    wait: databaseWait(['AVAILABLE'], ['CREATE_FAILED', 'ENABLE_SECURITY_FAILED', 'EXTERNAL_DATABASE_CREATION_FAILED']),
  },
  describeDatabase: {
    command: 'databases describe',
    summary: 'Show an operational database: status, version, endpoints and storage location.',
    examples: ['--environment-name sales-env --database-name orders'],
  },
  listDatabases: {
    command: 'databases list',
    summary: 'List operational databases, optionally those of one environment.',
    examples: ['', '--environment-name sales-env --output table'],
    fieldHelp: { environmentName: 'Name of an environment to list the databases of; default: all' },
    listKey: 'databases',
    columns: {
      name: 'databaseName',
      status: 'status',
      environment: 'environmentName',
      version: 'dbVersion',
      created: 'creationDate',
      crn: 'crn',
    },
  },
  dropDatabase: {
    command: 'databases drop',
    summary: 'Drop an operational database, with its data and cloud resources.',
    examples: [
      '--environment-name sales-env --database-name orders --yes --wait',
      '--environment-name sales-env --database-name orders --force --yes',
    ],
    fieldHelp: { force: 'Drop even when cleaning up fails (cloud resources may be left behind)' },
    destructive: true,
    wait: databaseWait(['DELETE_COMPLETED'], ['DELETE_FAILED', 'EXTERNAL_DATABASE_DELETION_FAILED'], { goneIsSuccess: true }),
  },
  startDatabase: {
    command: 'databases start',
    summary: 'Start a stopped operational database.',
    examples: ['--environment-name sales-env --database-name orders --wait'],
    wait: databaseWait(['AVAILABLE'], ['START_FAILED', 'EXTERNAL_DATABASE_START_FAILED'], { timeout: 3600 }),
  },
  stopDatabase: {
    command: 'databases stop',
    summary: 'Stop an operational database; its data stays and it can be started again.',
    examples: ['--environment-name sales-env --database-name orders --wait'],
    wait: databaseWait(['STOPPED'], ['STOP_FAILED', 'EXTERNAL_DATABASE_STOP_FAILED'], { timeout: 3600 }),
  },
  updateDatabase: {
    command: 'databases update',
    summary: 'Change the autoscaling and the strong meta server or REST worker counts of an operational database.',
    examples: [
      '--environment-name sales-env --database-name orders --auto-scaling-parameters minWorkersForDatabase=5,maxWorkersForDatabase=20 --wait',
      '--environment-name sales-env --database-name orders --num-desired-restworker-nodes 2',
    ],
    fieldHelp: {
      autoScalingParameters:
        'Autoscaling: minWorkersForDatabase, maxWorkersForDatabase, maxWorkersPerBatch, targetedValueForMetric, evaluationPeriod (seconds), minimumBlockCacheGb',
      numDesiredStrongMetaServers: 'Strong meta servers wanted (at least 1); --remove-strong-meta-servers removes them all',
      removeStrongMetaServers: 'Remove every strong meta server',
      numDesiredRestworkerNodes: 'REST worker nodes wanted (at least 1); --remove-restworker-nodes removes them all',
      removeRestworkerNodes: 'Remove every REST worker node',
    },
    rules: [
      {
        kind: 'exclusive',
        fields: ['numDesiredStrongMetaServers', 'removeStrongMetaServers'],
        message: 'give --num-desired-strong-meta-servers or --remove-strong-meta-servers, not both',
      },
      {
        kind: 'exclusive',
        fields: ['numDesiredRestworkerNodes', 'removeRestworkerNodes'],
        message: 'give --num-desired-restworker-nodes or --remove-restworker-nodes, not both',
      },
    ],
    wait: databaseWait(['AVAILABLE'], ['UPDATE_FAILED']),
  },
  describeClientConnectivity: {
    command: 'databases connectivity',
    summary: 'Show how clients connect to an operational database: connectors, versions, settings and Kerberos.',
    examples: ['--environment-name sales-env --database-name orders'],
  },
  listSupportedEnvironments: {
    command: 'environments list',
    summary: 'List the environments an operational database can be created in.',
    examples: ['', '--output table'],
    listKey: 'environments',
    columns: { name: 'name', crn: 'crn' },
  },

  // ---- upgrades -----------------------------------------------------------------------
  describeUpgradeDatabase: {
    command: 'upgrade describe',
    summary: 'Show the versions an operational database runs and those it can be upgraded to.',
    examples: ['--environment sales-env --database orders'],
    fieldHelp: {
      environment: 'Name or CRN of the environment of the database',
      database: 'Name or CRN of the database (see `opdb databases list`)',
    },
  },
  prepareUpgradeDatabase: {
    command: 'upgrade prepare',
    summary: 'Check an upgrade of an operational database and get it ready, without upgrading.',
    examples: ['--environment sales-env --database orders --runtime 7.3.1'],
    fieldHelp: {
      environment: 'Name or CRN of the environment of the database',
      database: 'Name or CRN of the database (see `opdb databases list`)',
      runtime: 'Runtime version to prepare for (see `opdb upgrade describe`)',
      imageId: 'Image to prepare for (see `opdb upgrade describe`)',
    },
    rules: [
      { kind: 'anyOf', fields: ['environment'], message: 'give --environment' },
      { kind: 'anyOf', fields: ['database'], message: 'give --database' },
    ],
  },
  upgradeDatabase: {
    command: 'upgrade start',
    summary: 'Upgrade an operational database to a newer runtime, or only its operating system.',
    examples: [
      '--environment sales-env --database orders --runtime 7.3.1 --wait',
      '--environment sales-env --database orders --os-upgrade-only',
    ],
    fieldHelp: {
      environment: 'Name or CRN of the environment of the database; --wait needs the name',
      database: 'Name or CRN of the database (see `opdb databases list`); --wait needs the name',
      runtime: 'Runtime version to upgrade to (see `opdb upgrade describe`)',
      osUpgradeOnly: 'Upgrade only the operating system, keeping the runtime',
    },
    rules: [
      { kind: 'anyOf', fields: ['environment'], message: 'give --environment' },
      { kind: 'anyOf', fields: ['database'], message: 'give --database' },
      { kind: 'exclusive', fields: ['runtime', 'osUpgradeOnly'], message: 'give --runtime or --os-upgrade-only, not both' },
    ],
    wait: UPGRADE_WAIT,
  },

  // ---- snapshots -------------------------------------------------------------------------
  createSnapshot: {
    command: 'snapshots create',
    summary: 'Snapshot a table of an operational database into object storage.',
    examples: [
      '--environment-name sales-env --database-name orders --table-name default:order_lines --snapshot-name order-lines-0601 --snapshot-location s3a://sales-backups/opdb/orders --wait',
    ],
    fieldHelp: {
      tableName: 'Table to snapshot, with its namespace, e.g. default:order_lines',
      snapshotName: 'Name of the snapshot, unique in the database',
      snapshotLocation: 'Object store URL to write the snapshot to, e.g. s3a://bucket/path',
    },
    wait: {
      poll: 'listSnapshots',
      input: { environmentName: 'request.environmentName', databaseName: 'request.databaseName', commandId: 'response.commandID' },
      state: 'snapshots[].status',
      success: ['SUCCESSFUL'],
      failure: SNAPSHOT_FAILED,
      reason: 'snapshots[].failureReason',
      interval: 15,
      timeout: 4 * 3600,
    },
  },
  deleteSnapshot: {
    command: 'snapshots delete',
    summary: 'Delete a table snapshot of an operational database.',
    examples: ['--environment-name sales-env --database-name orders --snapshot-name order-lines-0601 --yes'],
    fieldHelp: {
      snapshotName: 'Name of the snapshot (see `opdb snapshots list`)',
      force: 'Delete even when the snapshot is in use or locked',
    },
    destructive: true,
  },
  listSnapshots: {
    command: 'snapshots list',
    summary: 'List the table snapshots of an operational database.',
    examples: [
      '--environment-name sales-env --database-name orders --output table',
      '--environment-name sales-env --database-name orders --table-name default:order_lines',
    ],
    fieldHelp: {
      tableName: 'Only snapshots of this table, e.g. default:order_lines',
      commandId: 'Only the snapshots one command took (commandID in the `snapshots create` answer)',
      fromCreationTime: 'Only snapshots taken at or after this time, e.g. 2026-06-01T00:00:00Z',
      toCreationTime: 'Only snapshots taken at or before this time',
    },
    listKey: 'snapshots',
    columns: {
      name: 'snapshotName',
      table: 'tableName',
      status: 'status',
      id: 'snapshotId',
      created: 'creationTime',
      location: 'snapshotLocation',
    },
  },
  restoreSnapshot: {
    command: 'snapshots restore',
    summary: 'Restore a table snapshot into a database, the same or another.',
    examples: [
      '--environment-name sales-env --database-name orders --snapshot-name order-lines-0601 --target-environment-name sales-env --target-database-name orders-copy --yes --wait',
    ],
    fieldHelp: {
      environmentName: 'Name of the environment of the database the snapshot was taken in',
      databaseName: 'Name of the database the snapshot was taken in',
      snapshotName: 'Name of the snapshot (see `opdb snapshots list`)',
      targetEnvironmentName: 'Name of the environment of the database to restore into',
      targetDatabaseName: 'Name of the database to restore into; the table there is replaced',
    },
    destructive: true,
    wait: {
      poll: 'listRestoreSnapshots',
      input: {
        environmentName: 'request.environmentName',
        databaseName: 'request.databaseName',
        snapshotName: 'request.snapshotName',
        commandId: 'response.commandID',
      },
      state: 'restoreSnapshots[].status',
      success: ['SUCCESSFUL'],
      failure: SNAPSHOT_FAILED,
      reason: 'restoreSnapshots[].failureReason',
      interval: 15,
      timeout: 4 * 3600,
    },
  },
  listRestoreSnapshots: {
    command: 'snapshots list-restores',
    summary: 'List where and when snapshots of an operational database were restored.',
    examples: [
      '--environment-name sales-env --database-name orders --output table',
      '--environment-name sales-env --database-name orders --snapshot-name order-lines-0601',
    ],
    fieldHelp: {
      environmentName: 'Name of the environment of the database the snapshots were taken in',
      databaseName: 'Name of the database the snapshots were taken in',
      snapshotName: 'Only restores of this snapshot',
      targetEnvironmentName: 'Only restores into this environment',
      targetDatabaseName: 'Only restores into this database',
      commandId: 'Only the restore one command ran (commandID in the `snapshots restore` answer)',
      fromRestoreTime: 'Only restores at or after this time, e.g. 2026-06-01T00:00:00Z',
      toRestoreTime: 'Only restores at or before this time',
    },
    listKey: 'restoreSnapshots',
    columns: {
      snapshot: 'snapshotName',
      status: 'status',
      targetDatabase: 'targetDatabaseName',
      targetEnvironment: 'targetEnvironmentName',
      restoreId: 'restoreId',
      restored: 'restoreTime',
    },
  },

  // ---- diagnostics ---------------------------------------------------------------------------
  collectDiagnostics: {
    command: 'diagnostics collect',
    summary: 'Collect a diagnostic bundle of an operational database for a time window.',
    examples: [
      '--environment-name sales-env --database-name orders --start-time 2026-06-01T08:00:00Z --end-time 2026-06-01T12:00:00Z',
      '--environment-name sales-env --database-name orders --end-time 2026-06-01T12:00:00Z --destination UPLOAD_TO_CLOUDERA --case-number 01234567',
    ],
    fieldHelp: {
      endTime: 'End of the window, in ISO 8601, e.g. 2026-06-01T12:00:00Z',
      startTime: 'Start of the window, in ISO 8601',
      destination: 'DOWNLOAD keeps the bundle for you; UPLOAD_TO_CLOUDERA sends it to support',
      caseNumber: 'Support case to attach the bundle to',
      bundleSizeBytes: 'Largest bundle to produce, in bytes',
    },
  },
  listDiagnostics: {
    command: 'diagnostics list',
    summary: 'List the diagnostic bundles collected for an operational database.',
    examples: ['--environment-name sales-env --database-name orders --output table'],
    listKey: 'diagnosticsBundles',
    columns: { id: 'id', status: 'status', destination: 'destination', from: 'startTime', to: 'endTime', case: 'caseNumber' },
  },
};

const definition: ServiceDefinition = {
  name: 'opdb',
  topic: 'opdb',
  summary: 'Cloudera Operational Database: databases, snapshots, upgrades and diagnostics.',
  endpoint: 'api',
  facts: service,
  topics: {
    databases: 'Operational databases: create, start, stop, scale, drop.',
    environments: 'Environments that can hold an operational database.',
    upgrade: 'Runtime and operating system upgrades of a database.',
    snapshots: 'Table snapshots of a database, and their restores.',
    diagnostics: 'Diagnostic bundles of a database.',
  },
  fieldHelp: {
    environmentName: ENV,
    databaseName: DB,
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
