/**
 * The datahub service of the emulator, on the operation table. Cluster
 * templates, cluster definitions, recipes and custom configurations are
 * resources of the engine (blueprints.ts: created, described and listed
 * from the model, with the built-in templates and definitions beside the
 * account's); the clusters and everything done to them are code entries
 * (handlers.ts) over the cluster records and their lifecycle (backend.ts,
 * maintenance.ts, autoscale.ts), not yet the engine's records.
 */
import type { OperationName } from '../../../model/services/datahub/wire.js';
import { resources } from '../../../model/services/datahub/resources.js';
import { code, defineService, fixed } from '../../engine/table.js';
import { dependentKind } from '../../world.js';
import { clusterResources } from './backend.js';
import {
  blueprintResources,
  deleteClusterDefinitions,
  deleteClusterTemplates,
  deleteCustomConfigurations,
  deleteRecipes,
  describeClusterDefinition,
  describeClusterTemplate,
  listedDefinitions,
  listedTemplates,
} from './blueprints.js';
import { LOG_DESCRIPTORS } from './catalogue.js';
import { clusterCode } from './handlers.js';
import { hubs } from './provides.js';

export default defineService<OperationName>()({
  service: 'datahub',
  facts: resources,
  resources: {
    ...blueprintResources,
    // Clusters, their maintenance, instances, autoscale rules and scaling activities are the code entries' records (backend.ts).
    cluster: { keys: ['clusterName'] },
    work: { keys: ['operationId'] },
    instance: { keys: ['instanceId'] },
    recipeSummary: { keys: ['recipeName'] },
    autoScaleRules: { keys: ['clusterName'] },
    scalingActivity: { keys: ['operationId'] },
  },
  operations: (r) => ({
    cancelDatahubDiagnostics: code(clusterCode.cancelDatahubDiagnostics),
    collectCmDiagnostics: code(clusterCode.collectCmDiagnostics),
    collectDatahubDiagnostics: code(clusterCode.collectDatahubDiagnostics),
    createAWSCluster: code(clusterCode.createAWSCluster),
    createAWSGovCloudCluster: code(clusterCode.createAWSGovCloudCluster),
    createAutoScaleRules: code(clusterCode.createAutoScaleRules),
    createAzureCluster: code(clusterCode.createAzureCluster),
    createClusterDefinition: r.clusterDefinition.create(),
    createClusterTemplate: r.clusterTemplate.create(),
    createCustomConfigurations: r.customConfigurations.create(),
    createGCPCluster: code(clusterCode.createGCPCluster),
    createRecipe: r.recipe.create(),
    deleteAutoScaleRules: code(clusterCode.deleteAutoScaleRules),
    deleteCluster: code(clusterCode.deleteCluster),
    deleteClusterDefinitions: code(deleteClusterDefinitions),
    deleteClusterTemplates: code(deleteClusterTemplates),
    deleteCustomConfigurations: code(deleteCustomConfigurations),
    deleteInstances: code(clusterCode.deleteInstances),
    deleteRecipes: code(deleteRecipes),
    describeAutoScaleRules: code(clusterCode.describeAutoScaleRules),
    describeCluster: code(clusterCode.describeCluster),
    describeClusterDefinition: code(describeClusterDefinition),
    describeClusterTemplate: code(describeClusterTemplate),
    describeCustomConfigurations: r.customConfigurations.read(),
    describeRecipe: r.recipe.read(),
    describeScalingActivity: code(clusterCode.describeScalingActivity),
    finalizeZookeeperToKraftMigration: code(clusterCode.finalizeZookeeperToKraftMigration),
    getClusterHostStatus: code(clusterCode.getClusterHostStatus),
    getClusterServiceStatus: code(clusterCode.getClusterServiceStatus),
    getCmRoles: code(clusterCode.getCmRoles),
    getDatahubLogDescriptors: fixed({ logs: LOG_DESCRIPTORS.map(([label, path]) => ({ label, path })) }),
    getOperation: code(clusterCode.getOperation),
    getVmTypes: code(clusterCode.getVmTypes),
    listAutoScaleHistory: code(clusterCode.listAutoScaleHistory),
    listClusterDefinitions: r.clusterDefinition.list({ select: listedDefinitions }),
    listClusterLifecycleEvents: code(clusterCode.listClusterLifecycleEvents),
    listClusterTemplates: r.clusterTemplate.list({ select: listedTemplates }),
    listClusters: code(clusterCode.listClusters),
    listCustomConfigurations: r.customConfigurations.list(),
    listDatahubDiagnostics: code(clusterCode.listDatahubDiagnostics),
    listDatahubSecretTypes: code(clusterCode.listDatahubSecretTypes),
    listRecipes: r.recipe.list(),
    listScalingActivities: code(clusterCode.listScalingActivities),
    migrateSkus: code(clusterCode.migrateSkus),
    migrateZookeeperToKraft: code(clusterCode.migrateZookeeperToKraft),
    prepareClusterUpgrade: code(clusterCode.prepareClusterUpgrade),
    renewCertificate: code(clusterCode.renewCertificate),
    renewPublicCertificate: code(clusterCode.renewPublicCertificate),
    repairCluster: code(clusterCode.repairCluster),
    replaceRecipes: code(clusterCode.replaceRecipes),
    restartClusterInstances: code(clusterCode.restartClusterInstances),
    retryCluster: code(clusterCode.retryCluster),
    rollbackZookeeperToKraftMigration: code(clusterCode.rollbackZookeeperToKraftMigration),
    rotateAutoTlsCertificates: code(clusterCode.rotateAutoTlsCertificates),
    rotateDbCertificate: code(clusterCode.rotateDbCertificate),
    rotatePrivateCertificates: code(clusterCode.rotatePrivateCertificates),
    rotateSaltPassword: code(clusterCode.rotateSaltPassword),
    rotateSecrets: code(clusterCode.rotateSecrets),
    scaleCluster: code(clusterCode.scaleCluster),
    setCatalog: code(clusterCode.setCatalog),
    setDefaultJavaVersion: code(clusterCode.setDefaultJavaVersion),
    startCluster: code(clusterCode.startCluster),
    startClusterVerticalScaling: code(clusterCode.startClusterVerticalScaling),
    startDatabaseUpgrade: code(clusterCode.startDatabaseUpgrade),
    startInstances: code(clusterCode.startInstances),
    stopCluster: code(clusterCode.stopCluster),
    stopInstances: code(clusterCode.stopInstances),
    syncCluster: code(clusterCode.syncCluster),
    syncComponentVersionsFromCm: code(clusterCode.syncComponentVersionsFromCm),
    updateAutoScaleRules: code(clusterCode.updateAutoScaleRules),
    updateOrchestratorState: code(clusterCode.updateOrchestratorState),
    updatePublicDnsEntries: code(clusterCode.updatePublicDnsEntries),
    updateToAwsImdsV1: code(clusterCode.updateToAwsImdsV1),
    updateToAwsImdsV2: code(clusterCode.updateToAwsImdsV2),
    upgradeCluster: code(clusterCode.upgradeCluster),
  }),
  provides: { hubs },
  dependents: [
    dependentKind({
      service: 'datahub',
      noun: 'Data Hub cluster',
      resources: clusterResources,
      environmentOf: (c) => c.environmentCrn,
      nameOf: (c) => c.clusterName,
    }),
  ],
});
