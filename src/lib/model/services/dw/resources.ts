/**
 * What the API says of the Data Warehouse's resources (the format:
 * ../../resources.ts): the states a cluster, a Database Catalog, a Virtual
 * Warehouse and a Data Visualization pass through, in the order a client
 * polling describe waits through them (the status values of dw.yaml:4725
 * and the like; the order the Terraform provider waits in), a diagnostic
 * job's, a connector test's, and a backup's and restore's (the Data
 * Recovery Service's JobState, drscp.yaml:219); how each delete ends; the
 * CRN types; and the string fields whose descriptions list their values.
 * The emulator serves dw's records from these, adding only emulated
 * minutes. Checked against the wire by
 * test/unit/model/resource-facts.test.ts.
 */
import type { ActionFacts, ResourceFacts, ServiceResources } from '../../resources.js';

/**
 * A cluster's, catalog's, warehouse's and visualization's status: a string
 * whose description lists its values (dw.yaml:4725, 4808, 4850, 4898). No
 * `Deleted` among them: a delete ends NOT_FOUND once Deleting is over.
 */
const STATUS = [
  'Creating',
  'Created',
  'Accepted',
  'Starting',
  'Running',
  'Stopping',
  'Stopped',
  'Updating',
  'PreUpdate',
  'Upgrading',
  'PreUpgrade',
  'Restarting',
  'Deleting',
  'Waiting',
  'Failed',
  'Error',
] as const;

/** An action of a cluster, catalog, warehouse or visualization: Running when it succeeds (unless said), Error when it fails. */
const step = (through: readonly string[], from?: readonly string[], success = 'Running'): ActionFacts => ({
  through,
  success,
  failure: 'Error',
  ...(from ? { from } : {}),
});

/** Made: Accepted, then Creating. */
const CREATE = step(['Accepted', 'Creating']);
/** Updated while Running: PreUpdate, then Updating. */
const UPDATE = step(['PreUpdate', 'Updating'], ['Running']);
/** Deleting, then gone (describe answers NOT_FOUND); the state it would end in is never shown. */
const DELETE: ActionFacts = { through: ['Deleting'], failure: 'Error' };

/** A Database Catalog's and a Virtual Warehouse's actions. */
const WORKLOAD = {
  create: CREATE,
  update: UPDATE,
  suspend: step(['Stopping'], ['Running'], 'Stopped'),
  start: step(['Starting'], ['Stopped']),
  // Their upgrade answers Upgrading, Error or Failed (dw.yaml:5950, 5991): no PreUpgrade before it.
  upgrade: step(['Upgrading'], ['Running']),
  rebuild: step(['Restarting', 'Creating'], ['Running', 'Stopped', 'Error', 'Failed']),
  delete: DELETE,
} as const satisfies Record<string, ActionFacts>;

/** A backup's or restore's job: the Data Recovery Service's JobState (drscp.yaml:219), in the order it describes them. */
const JOB: ActionFacts = { through: ['NOT_STARTED', 'IN_PROGRESS'], success: 'COMPLETED', failure: 'FAILED' };

/**
 * A diagnostic job of a cluster, catalog or warehouse. DiagnosticDataJobStatus
 * has `Deleted` (dw.yaml:3523-3533), and a deleted job is one of its values a
 * client sees: it stays visible as `Deleted` (the audit's reading, medium
 * confidence: no description says it outright; 24 h of emulator time, longer
 * than any client waits). No list flag hides it: the list is "a list of jobs
 * along with their current status" (dw.yaml:92), and its `status` filter
 * returns "only those jobs ... which have the given status" (dw.yaml:3250),
 * `Deleted` among them; so without the filter a deleted job is listed, as
 * `Deleted`, and `status: Deleted` selects the deleted ones.
 */
const diagnosticJob = (shape: string): ResourceFacts => ({
  shape,
  lifecycle: { create: { through: ['Starting', 'Running'], success: 'Succeeded', failure: 'Failed' } },
  // Deleted at once, even while Running (dw.yaml:136): the enum has no state between.
  deleted: { ends: 'kept', status: 'Deleted', retention: '24h' },
});

/** What an upgrade of a catalog or warehouse answers: "Possible values are: Upgrading, Error, Failed." (dw.yaml:5950, 5991) */
const UPGRADE_ANSWER = ['Upgrading', 'Error', 'Failed'] as const;

export const resources = {
  resources: {
    cluster: {
      shape: 'ClusterSummaryResponse',
      crnType: 'cluster',
      lifecycle: {
        create: CREATE,
        update: UPDATE,
        // An Azure cluster's certificates renewed (renewCertificates).
        renew: step(['Updating'], ['Running']),
        stop: step(['Stopping'], ['Running'], 'Stopped'),
        start: step(['Starting'], ['Stopped']),
        // The environment's SSH key pushed to the nodes (updateSshKey): at once, on a running cluster.
        sshKey: { from: ['Running'], through: ['Running'], success: 'Running', atOnce: true },
        delete: DELETE,
      },
      deleted: { ends: 'gone' },
      values: { status: STATUS },
    },
    /** A cluster's product support (its `productSupport`): "COVERED, EXPIRED, UNKNOWN" (dw.yaml:4788). */
    productSupport: { shape: 'ClusterSummaryProductSupportResponse', values: { status: ['COVERED', 'EXPIRED', 'UNKNOWN'] } },
    dbc: {
      shape: 'DbcSummary',
      crnType: 'dbc',
      lifecycle: WORKLOAD,
      deleted: { ends: 'gone' },
      values: { status: STATUS },
    },
    vw: {
      shape: 'VwSummary',
      crnType: 'vw',
      lifecycle: WORKLOAD,
      deleted: { ends: 'gone' },
      values: { status: STATUS, hiveAuthenticationMode: ['LDAP', 'KERBEROS'], hiveServerHaMode: ['DISABLED', 'ACTIVE_PASSIVE'] },
    },
    dataVisualization: {
      shape: 'DataVisualizationSummary',
      // Made, updated, upgraded and deleted: it has no suspend, start or rebuild.
      lifecycle: {
        create: CREATE,
        update: UPDATE,
        // PreUpgrade first: it is one of its values (dw.yaml:4808), and clients wait through both.
        upgrade: step(['PreUpgrade', 'Upgrading'], ['Running']),
        delete: DELETE,
      },
      // "Once it is deleted, the describe-data-visualization would return a not found error." (dw.yaml:551)
      deleted: { ends: 'gone' },
      values: { status: STATUS },
    },
    /** What upgradeDbc answers. */
    dbcUpgrade: { shape: 'UpgradeDbcResponse', values: { status: UPGRADE_ANSWER } },
    /** What upgradeVw answers. */
    vwUpgrade: { shape: 'UpgradeVwResponse', values: { status: UPGRADE_ANSWER } },
    config: { shape: 'ConfigHistoryItem' },
    clusterDiagnostics: diagnosticJob('ClusterDiagnosticDataJob'),
    dbcDiagnostics: diagnosticJob('DbcDiagnosticDataJob'),
    vwDiagnostics: diagnosticJob('VwDiagnosticDataJob'),
    user: { shape: 'CloudUserReference', deleted: { ends: 'gone' } },
    secret: { shape: 'Secret', deleted: { ends: 'gone' } },
    connector: { shape: 'Connector', crnType: 'connector', deleted: { ends: 'gone' } },
    connectorTest: {
      shape: 'GetConnectorTestJob',
      lifecycle: { create: { through: ['Running'], success: 'Succeeded', failure: 'Failed' } },
    },
    template: {
      shape: 'ResourceTemplateResponse',
      deleted: { ends: 'gone' },
      values: {
        // "one of the following: Hive, Impala, Hue, DataViz" (dw.yaml:6776). The request lists six kinds (dw.yaml:6496): the two
        // the response leaves out, trino and dbc, are answered Trino and Dbc, as the API writes them elsewhere (not documented).
        entityType: ['Hive', 'Impala', 'Hue', 'DataViz', 'Trino', 'Dbc'],
      },
    },
    backup: {
      shape: 'Backup',
      fields: { status: 'backupJobState' },
      crnType: 'backup',
      // Deleted asynchronously: TERMINATING ("the entity containing this job is being deleted", drscp.yaml:228), then gone.
      lifecycle: {
        create: JOB,
        // A restore taken from it (restoreBackup): at once, and only from a backup that completed.
        restore: { from: ['COMPLETED'], through: ['COMPLETED'], success: 'COMPLETED', atOnce: true },
        delete: { through: ['TERMINATING'] },
      },
      deleted: { ends: 'gone' },
    },
    /** A backup's deletion, named by the CRN deleteBackup answers: "the delete backup custom resource" (dw.yaml:6114). */
    backupDeletion: { shape: 'DeleteBackupResponse', crnType: 'deleteBackupRequest' },
    restore: {
      shape: 'Restore',
      fields: { status: 'restoreJobState' },
      crnType: 'restore',
      lifecycle: { create: JOB },
    },
    /** The account's server settings, one record an account (what describeServerSetting answers). */
    serverSettings: { shape: 'DescribeServerSettingResponse' },
    /** What restoreCluster answers: "Create, Skip" (dw.yaml:2557). */
    clusterRestore: { shape: 'RestoreClusterResponse', values: { action: ['Create', 'Skip'] } },
    /** What a restore plans for each entity: "Create, Update, Skip" (dw.yaml:2608). */
    restorePlan: { shape: 'RestoreClusterEntityPlan', values: { action: ['Create', 'Update', 'Skip'] } },
  },
} as const satisfies ServiceResources;
