/**
 * Data Warehouse on the operation table. A cluster activates the service in
 * an environment (clusters.ts); Database Catalogs, Virtual Warehouses and
 * Data Visualizations run on it (warehouses.ts), with their configuration
 * history (configs.ts) and events (events.ts); secrets, connectors, their
 * test jobs and users belong to it (sources.ts); diagnostic bundles are
 * collected for each of them (diagnostics.ts); resource templates
 * (templates.ts), backups and restores (drs.ts) and server settings
 * (account.ts) belong to the account. Their states and deletion ends are
 * the model's (model/services/dw/resources.ts); what is written here are
 * the rules between them and what they compute.
 */
import type { OperationName } from '../../../model/services/dw/wire.js';
import { code, defineService, fixed } from '../../engine/table.js';
import { allowedInstanceTypes, defaultSettings, settingsChanged, settingsUpdated } from './account.js';
import { backupCluster, cluster, kubeconfig, latestVersions, listClusters, restoreCluster, sshKeyPushed } from './clusters.js';
import { recordFacts } from './common.js';
import { configDiffIn, configHistory, configIn, configNow } from './configs.js';
import { diagnostics } from './diagnostics.js';
import { backup, backupDeletion, getLogs, listBackupEntities, listBackups, listRestores, restore, restoreStarted } from './drs.js';
import { eventsAnswer, listEvents } from './events.js';
import { connector, connectorTest, secret, secretDeleted, user } from './sources.js';
import { deleteTemplate, ensureTemplates, template } from './templates.js';
import { dataVisualization, dbc, dbcUpgradeVersions, listVws, vizUpgradeVersion, vw, vwUpgradeVersions } from './warehouses.js';

export default defineService<OperationName>()({
  service: 'dw',
  facts: recordFacts,
  setup: ensureTemplates,
  resources: {
    cluster,
    dbc,
    vw,
    dataVisualization,
    // Configuration versions of a cluster's catalogs and warehouses (configs.ts makes them).
    config: { noun: 'configuration', keys: ['configId'], lives: { in: 'parent', parent: 'cluster', part: true } },
    clusterDiagnostics: diagnostics('cluster'),
    dbcDiagnostics: diagnostics('dbc'),
    vwDiagnostics: diagnostics('vw'),
    user,
    secret,
    connector,
    connectorTest,
    template,
    backup,
    restore,
    serverSettings: { keys: [], perAccount: defaultSettings },
  },
  operations: (r) => ({
    createAwsCluster: r.cluster.create(),
    createAzureCluster: r.cluster.create(),
    createPrivateCluster: r.cluster.create(),
    createCluster: r.cluster.create(),
    describeCluster: r.cluster.read(),
    listClusters: r.cluster.list({ select: listClusters }),
    updateCluster: r.cluster.update(),
    deleteCluster: r.cluster.delete(),
    renewCertificates: r.cluster.act('renew'),
    updateSshKey: r.cluster.act('sshKey', { answer: sshKeyPushed }),
    describeKubeconfig: r.cluster.read({ answer: kubeconfig }),
    listLatestVersions: r.cluster.read({ answer: latestVersions }),
    backupCluster: r.cluster.read({ answer: backupCluster }),
    restoreCluster: code(restoreCluster),

    createDbc: r.dbc.create(),
    describeDbc: r.dbc.read(),
    listDbcs: r.dbc.list(),
    updateDbc: r.dbc.update(),
    deleteDbc: r.dbc.delete(),
    suspendDbc: r.dbc.act('suspend'),
    startDbc: r.dbc.act('start'),
    upgradeDbc: r.dbc.act('upgrade'),
    rebuildDbc: r.dbc.act('rebuild'),
    getUpgradeDbcVersions: r.dbc.read({ answer: dbcUpgradeVersions }),
    describeDbcConfig: r.dbc.read({ answer: configNow }),
    updateDbcConfig: r.dbc.update(),
    listDbcConfigs: r.dbc.read({ answer: configHistory }),
    listDbcEvents: r.dbc.read({ answer: eventsAnswer('dbc', 'Database Catalog') }),

    createVw: r.vw.create(),
    describeVw: r.vw.read(),
    listVws: r.vw.list({ select: listVws }),
    updateVw: r.vw.update(),
    deleteVw: r.vw.delete(),
    suspendVw: r.vw.act('suspend'),
    startVw: r.vw.act('start'),
    upgradeVw: r.vw.act('upgrade'),
    rebuildVw: r.vw.act('rebuild'),
    getUpgradeVwVersions: r.vw.read({ answer: vwUpgradeVersions }),
    describeVwConfig: r.vw.read({ answer: configNow }),
    updateVwConfig: r.vw.update(),
    listVwConfigs: r.vw.read({ answer: configHistory }),
    listVwEvents: r.vw.read({ answer: eventsAnswer('vw', 'Virtual Warehouse') }),

    createDataVisualization: r.dataVisualization.create(),
    describeDataVisualization: r.dataVisualization.read(),
    listDataVisualizations: r.dataVisualization.list(),
    updateDataVisualization: r.dataVisualization.update(),
    deleteDataVisualization: r.dataVisualization.delete(),
    upgradeDataVisualization: r.dataVisualization.act('upgrade'),
    getDataVisualizationUpgradeVersion: r.dataVisualization.read({ answer: vizUpgradeVersion }),

    describeConfig: r.config.read({ answer: (_h, rec) => ({ config: configIn(rec) }) }),
    describeConfigDiff: r.cluster.read({ answer: configDiffIn }),
    listEvents: code(listEvents),

    createClusterDiagnosticDataJob: r.clusterDiagnostics.create(),
    describeClusterDiagnosticDataJob: r.clusterDiagnostics.read(),
    listClusterDiagnosticDataJobs: r.clusterDiagnostics.list(),
    deleteClusterDiagnosticDataJob: r.clusterDiagnostics.delete(),
    createDbcDiagnosticDataJob: r.dbcDiagnostics.create(),
    describeDbcDiagnosticDataJob: r.dbcDiagnostics.read(),
    listDbcDiagnosticDataJobs: r.dbcDiagnostics.list(),
    deleteDbcDiagnosticDataJob: r.dbcDiagnostics.delete(),
    createVwDiagnosticDataJob: r.vwDiagnostics.create(),
    describeVwDiagnosticDataJob: r.vwDiagnostics.read(),
    listVwDiagnosticDataJobs: r.vwDiagnostics.list(),
    deleteVwDiagnosticDataJob: r.vwDiagnostics.delete(),

    addUser: r.user.create(),
    listUsers: r.user.list(),
    deleteUser: r.user.delete(),
    createSecret: r.secret.create(),
    registerSecret: r.secret.create(),
    listSecrets: r.secret.list(),
    deleteSecret: r.secret.delete({ answer: secretDeleted }),
    createConnector: r.connector.create(),
    listConnectors: r.connector.list(),
    updateConnector: r.connector.update(),
    deleteConnector: r.connector.delete(),
    createConnectorTestJob: r.connectorTest.create(),
    listConnectorTestJobs: r.connectorTest.list(),

    createResourceTemplate: r.template.create(),
    listResourceTemplates: r.template.list(),
    updateResourceTemplate: r.template.update(),
    deleteResourceTemplate: code(deleteTemplate),

    createBackup: r.backup.create(),
    describeBackup: r.backup.read(),
    listBackups: r.backup.list({ select: listBackups }),
    deleteBackup: r.backup.delete({ answer: backupDeletion }),
    listBackupEntities: code(listBackupEntities),
    getLogs: code(getLogs),
    restoreBackup: r.restore.create({ answer: restoreStarted }),
    describeRestore: r.restore.read(),
    listRestores: r.restore.list({ select: listRestores }),

    healthCheck: fixed({ message: 'OK' }),
    describeAllowedInstanceTypes: fixed(allowedInstanceTypes()),
    describeServerSetting: r.serverSettings.read(),
    updateServerSetting: r.serverSettings.update({ rewrite: settingsChanged, answer: settingsUpdated }),
    // A reset is an update to the defaults: the settings stay readable, so it is no delete.
    resetServerSettings: r.serverSettings.update({ rewrite: defaultSettings, answer: () => ({ status: 'reset to the defaults' }) }),
  }),
});
