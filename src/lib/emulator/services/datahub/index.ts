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
import { DatahubBackend } from './backend.js';
import { asCluster } from './records.js';
import { clusterShown } from './views.js';
import { kraftStep, saltPassword, upgradePrepared, workResource } from './maintenance.js';

export default defineService<OperationName>()({
  service: 'datahub',
  facts: resources,
  resources: {
    ...blueprintResources,
    // A cluster lives in its environment (it holds up its delete, and stops and starts with it); its actions take these minutes.
    cluster: {
      keys: ['clusterName', 'crn'],
      environmentNoun: 'Data Hub cluster',
      // A start of a running cluster, or a stop of a stopped one, changes nothing.
      idempotent: ['start', 'stop'],
      lives: { in: 'environment', by: ['environmentName', 'environment'] },
      minutes: {
        create: [0.5, 9.5],
        stop: [0.5, 2.5],
        start: [0.5, 3.5],
        upscale: [0.5, 1.5],
        downscale: [0.25, 0.75],
        repair: [0.5, 2.5],
        upgrade: 12,
        verticalScale: 5,
        databaseUpgrade: 8,
        delete: [0.5, 1.5],
      },
      hooks: {
        check: { stop: (h, rec) => new DatahubBackend(h).checkStop(asCluster(rec)) },
        show: clusterShown,
      },
    },
    // Instances, autoscale rules and scaling activities are the code entries' (backend.ts).
    work: workResource,
    instance: { keys: ['instanceId'] },
    recipeSummary: { keys: ['recipeName'] },
    autoScaleRules: { keys: ['clusterName'] },
    scalingActivity: { keys: ['operationId'] },
  },
  operations: (r) => ({
    cancelDatahubDiagnostics: code(clusterCode.cancelDatahubDiagnostics),
    collectCmDiagnostics: r.cluster.work('cmdiagnostics', { keys: ['crn'] }),
    collectDatahubDiagnostics: r.cluster.work('diagnostics', { keys: ['crn'] }),
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
    deleteCluster: r.cluster.delete(),
    deleteClusterDefinitions: code(deleteClusterDefinitions),
    deleteClusterTemplates: code(deleteClusterTemplates),
    deleteCustomConfigurations: code(deleteCustomConfigurations),
    deleteInstances: code(clusterCode.deleteInstances),
    deleteRecipes: code(deleteRecipes),
    describeAutoScaleRules: code(clusterCode.describeAutoScaleRules),
    describeCluster: r.cluster.read(),
    describeClusterDefinition: code(describeClusterDefinition),
    describeClusterTemplate: code(describeClusterTemplate),
    describeCustomConfigurations: r.customConfigurations.read(),
    describeRecipe: r.recipe.read(),
    describeScalingActivity: code(clusterCode.describeScalingActivity),
    finalizeZookeeperToKraftMigration: r.cluster.work('finalize', {
      keys: ['crn'],
      answer: kraftStep('Kafka brokers are leaving ZooKeeper for good'),
    }),
    getClusterHostStatus: code(clusterCode.getClusterHostStatus),
    getClusterServiceStatus: code(clusterCode.getClusterServiceStatus),
    getCmRoles: code(clusterCode.getCmRoles),
    getDatahubLogDescriptors: fixed({ logs: LOG_DESCRIPTORS.map(([label, path]) => ({ label, path })) }),
    getOperation: r.cluster.operation(),
    getVmTypes: code(clusterCode.getVmTypes),
    listAutoScaleHistory: code(clusterCode.listAutoScaleHistory),
    listClusterDefinitions: r.clusterDefinition.list({ select: listedDefinitions }),
    listClusterLifecycleEvents: code(clusterCode.listClusterLifecycleEvents),
    listClusterTemplates: r.clusterTemplate.list({ select: listedTemplates }),
    listClusters: r.cluster.list(),
    listCustomConfigurations: r.customConfigurations.list(),
    listDatahubDiagnostics: code(clusterCode.listDatahubDiagnostics),
    listDatahubSecretTypes: code(clusterCode.listDatahubSecretTypes),
    listRecipes: r.recipe.list(),
    listScalingActivities: code(clusterCode.listScalingActivities),
    migrateSkus: r.cluster.work('skus', { keys: ['clusterName'] }),
    migrateZookeeperToKraft: r.cluster.work('kraft', {
      keys: ['crn'],
      answer: kraftStep('Kafka brokers are moving to KRaft; finalize or roll back once it has finished'),
    }),
    prepareClusterUpgrade: r.cluster.work('prepare', { keys: ['cluster'], answer: upgradePrepared }),
    renewCertificate: r.cluster.work('renew', { keys: ['clusterName'] }),
    renewPublicCertificate: r.cluster.work('renew', { keys: ['datahub'] }),
    repairCluster: code(clusterCode.repairCluster),
    replaceRecipes: code(clusterCode.replaceRecipes),
    restartClusterInstances: r.cluster.work('restart', { keys: ['cluster'] }),
    retryCluster: code(clusterCode.retryCluster),
    rollbackZookeeperToKraftMigration: r.cluster.work('rollback', {
      keys: ['crn'],
      answer: kraftStep('Kafka brokers are going back to ZooKeeper'),
    }),
    rotateAutoTlsCertificates: r.cluster.work('rotate', { keys: ['datahubName'] }),
    rotateDbCertificate: r.cluster.work('dbcert', { keys: ['datahubName'] }),
    rotatePrivateCertificates: r.cluster.work('rotate', { keys: ['datahub'] }),
    rotateSaltPassword: r.cluster.work('secrets', { keys: ['cluster'], rewrite: saltPassword }),
    rotateSecrets: r.cluster.work('secrets', { keys: ['datahub'] }),
    scaleCluster: code(clusterCode.scaleCluster),
    setCatalog: code(clusterCode.setCatalog),
    setDefaultJavaVersion: r.cluster.work('java', { keys: ['clusterCrn'] }),
    startCluster: r.cluster.act('start'),
    startClusterVerticalScaling: code(clusterCode.startClusterVerticalScaling),
    startDatabaseUpgrade: code(clusterCode.startDatabaseUpgrade),
    startInstances: r.cluster.work('startinstances', { keys: ['cluster'] }),
    stopCluster: r.cluster.act('stop'),
    stopInstances: r.cluster.work('stopinstances', { keys: ['cluster'] }),
    syncCluster: code(clusterCode.syncCluster),
    syncComponentVersionsFromCm: r.cluster.work('sync', { keys: ['datahubName'] }),
    updateAutoScaleRules: code(clusterCode.updateAutoScaleRules),
    updateOrchestratorState: r.cluster.work('orchestrator', { keys: ['clusterCrn'] }),
    updatePublicDnsEntries: r.cluster.work('dns', { keys: ['datahub'] }),
    updateToAwsImdsV1: r.cluster.work('imds', { keys: ['crn'] }),
    updateToAwsImdsV2: r.cluster.work('imds', { keys: ['crn'] }),
    upgradeCluster: code(clusterCode.upgradeCluster),
  }),
  provides: { hubs },
});
