/**
 * The datahub service of the emulator, on the operation table. Clusters are
 * resources of the engine (their lifecycle the model's facts; what the wire
 * shows of them computed by their `show`, views.ts; a new cluster's fields
 * its `fill`, clusters.ts), and so is their maintenance (work beside a
 * cluster, maintenance.ts); their image catalog, recipes and autoscale
 * rules (autoscale.ts) are updates of the cluster, each keyed by its own
 * change. Cluster templates, cluster definitions, recipes and custom
 * configurations are resources too (blueprints.ts), the platform's built-in
 * templates and definitions their built-in records. What is still code
 * (handlers.ts): scaling (upscale or downscale, by the request), deleting
 * instances, upgrades (a listing of candidates, a dry run or an upgrade),
 * retries (the failed action run again) and cancelling diagnostics.
 */
import type { OperationName } from '../../../model/services/datahub/wire.js';
import { resources } from '../../../model/services/datahub/resources.js';
import { code, defineService, fixed } from '../../engine/table.js';
import { blueprintResources } from './blueprints.js';
import { LOG_DESCRIPTORS } from './catalogue.js';
import { cancelDatahubDiagnostics, clusterAnswers, retryCluster, scaleCluster, upgradeCluster, vmTypes } from './handlers.js';
import { hubs } from './provides.js';
import { actionChecks, actionEffects, scalingReason } from './actions.js';
import { strings } from '../../values.js';
import { asCluster } from './records.js';
import { clusterShown } from './views.js';
import { clusterChanges, clusterMade, withRequestTemplate } from './clusters.js';
import { autoscaleChanges } from './autoscale.js';
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
        check: actionChecks,
        effect: { ...actionEffects, ...autoscaleChanges, ...clusterChanges },
        // Why a delete of instances runs (scalingActivities show it).
        keep: { downscale: (h, rec, req) => scalingReason(h, asCluster(rec), `Instances ${strings(req.instanceIds).join(', ')} removed`) },
        fill: clusterMade,
        show: clusterShown,
      },
    },
    // Instances, autoscale rules and scaling activities are what the cluster's answers hold (handlers.ts).
    work: workResource,
    instance: { keys: ['instanceId'] },
    recipeSummary: { keys: ['recipeName'] },
    autoScaleRules: { keys: ['clusterName'] },
    scalingActivity: { keys: ['operationId'] },
  },
  operations: (r) => ({
    cancelDatahubDiagnostics: code(cancelDatahubDiagnostics),
    collectCmDiagnostics: r.cluster.work('cmdiagnostics', { keys: ['crn'] }),
    collectDatahubDiagnostics: r.cluster.work('diagnostics', { keys: ['crn'] }),
    createAWSCluster: r.cluster.create({ rewrite: withRequestTemplate }),
    createAWSGovCloudCluster: r.cluster.create({ rewrite: withRequestTemplate }),
    createAutoScaleRules: r.cluster.update({
      keys: ['clusterName'],
      change: 'autoscaleCreate',
      answer: clusterAnswers.describeAutoScaleRules,
    }),
    createAzureCluster: r.cluster.create({ rewrite: withRequestTemplate }),
    createClusterDefinition: r.clusterDefinition.create(),
    createClusterTemplate: r.clusterTemplate.create(),
    createCustomConfigurations: r.customConfigurations.create(),
    createGCPCluster: r.cluster.create({ rewrite: withRequestTemplate }),
    createRecipe: r.recipe.create(),
    deleteAutoScaleRules: r.cluster.update({ keys: ['clusterName'], change: 'autoscaleDelete', answer: () => ({}) }),
    deleteCluster: r.cluster.delete(),
    deleteClusterDefinitions: r.clusterDefinition.delete({ each: 'clusterDefinitionNames' }),
    deleteClusterTemplates: r.clusterTemplate.delete({ each: 'clusterTemplateNames' }),
    deleteCustomConfigurations: r.customConfigurations.delete({ each: 'customConfigurations' }),
    deleteInstances: r.cluster.act('downscale', { keys: ['clusterName'] }),
    deleteRecipes: r.recipe.delete({ each: 'recipeNames' }),
    describeAutoScaleRules: r.cluster.read({ keys: ['clusterName'], answer: clusterAnswers.describeAutoScaleRules }),
    describeCluster: r.cluster.read(),
    describeClusterDefinition: r.clusterDefinition.read(),
    describeClusterTemplate: r.clusterTemplate.read(),
    describeCustomConfigurations: r.customConfigurations.read(),
    describeRecipe: r.recipe.read(),
    describeScalingActivity: r.cluster.read({ keys: ['cluster'], answer: clusterAnswers.describeScalingActivity }),
    finalizeZookeeperToKraftMigration: r.cluster.work('finalize', {
      keys: ['crn'],
      answer: kraftStep('Kafka brokers are leaving ZooKeeper for good'),
    }),
    getClusterHostStatus: r.cluster.read({ keys: ['clusterName'], answer: clusterAnswers.getClusterHostStatus }),
    getClusterServiceStatus: r.cluster.read({ keys: ['clusterName'], answer: clusterAnswers.getClusterServiceStatus }),
    getCmRoles: r.cluster.read({ keys: ['crn'], answer: clusterAnswers.getCmRoles }),
    getDatahubLogDescriptors: fixed({ logs: LOG_DESCRIPTORS.map(([label, path]) => ({ label, path })) }),
    getOperation: r.cluster.operation(),
    getVmTypes: r.clusterTemplate.read({ keys: ['clusterTemplate'], answer: vmTypes }),
    listAutoScaleHistory: r.cluster.read({ keys: ['clusterName'], answer: clusterAnswers.listAutoScaleHistory }),
    listClusterDefinitions: r.clusterDefinition.list(),
    listClusterLifecycleEvents: r.cluster.read({ keys: ['cluster'], answer: clusterAnswers.listClusterLifecycleEvents }),
    listClusterTemplates: r.clusterTemplate.list(),
    listClusters: r.cluster.list(),
    listCustomConfigurations: r.customConfigurations.list(),
    listDatahubDiagnostics: r.cluster.read({ keys: ['crn'], answer: clusterAnswers.listDatahubDiagnostics }),
    listDatahubSecretTypes: r.cluster.read({ keys: ['datahub'], answer: clusterAnswers.listDatahubSecretTypes }),
    listRecipes: r.recipe.list(),
    listScalingActivities: r.cluster.read({ keys: ['cluster'], answer: clusterAnswers.listScalingActivities }),
    migrateSkus: r.cluster.work('skus', { keys: ['clusterName'] }),
    migrateZookeeperToKraft: r.cluster.work('kraft', {
      keys: ['crn'],
      answer: kraftStep('Kafka brokers are moving to KRaft; finalize or roll back once it has finished'),
    }),
    prepareClusterUpgrade: r.cluster.work('prepare', { keys: ['cluster'], answer: upgradePrepared }),
    renewCertificate: r.cluster.work('renew', { keys: ['clusterName'] }),
    renewPublicCertificate: r.cluster.work('renew', { keys: ['datahub'] }),
    repairCluster: r.cluster.act('repair', { keys: ['clusterName'] }),
    replaceRecipes: r.cluster.update({
      keys: ['datahub'],
      change: 'recipes',
      answer: (_h, rec) => asCluster(rec).doc.recipesReplaced ?? {},
    }),
    restartClusterInstances: r.cluster.work('restart', { keys: ['cluster'] }),
    retryCluster: code(retryCluster),
    rollbackZookeeperToKraftMigration: r.cluster.work('rollback', {
      keys: ['crn'],
      answer: kraftStep('Kafka brokers are going back to ZooKeeper'),
    }),
    rotateAutoTlsCertificates: r.cluster.work('rotate', { keys: ['datahubName'] }),
    rotateDbCertificate: r.cluster.work('dbcert', { keys: ['datahubName'] }),
    rotatePrivateCertificates: r.cluster.work('rotate', { keys: ['datahub'] }),
    rotateSaltPassword: r.cluster.work('secrets', { keys: ['cluster'], rewrite: saltPassword }),
    rotateSecrets: r.cluster.work('secrets', { keys: ['datahub'] }),
    scaleCluster: code(scaleCluster),
    setCatalog: r.cluster.update({ keys: ['cluster'], change: 'catalog' }),
    setDefaultJavaVersion: r.cluster.work('java', { keys: ['clusterCrn'] }),
    startCluster: r.cluster.act('start'),
    startClusterVerticalScaling: r.cluster.act('verticalScale', { keys: ['datahub'], answer: clusterAnswers.startClusterVerticalScaling }),
    startDatabaseUpgrade: r.cluster.act('databaseUpgrade', { keys: ['cluster'], answer: clusterAnswers.startDatabaseUpgrade }),
    startInstances: r.cluster.work('startinstances', { keys: ['cluster'] }),
    stopCluster: r.cluster.act('stop'),
    stopInstances: r.cluster.work('stopinstances', { keys: ['cluster'] }),
    syncCluster: r.cluster.read({ answer: clusterAnswers.syncCluster }),
    syncComponentVersionsFromCm: r.cluster.work('sync', { keys: ['datahubName'] }),
    updateAutoScaleRules: r.cluster.update({
      keys: ['clusterName'],
      change: 'autoscaleUpdate',
      answer: clusterAnswers.describeAutoScaleRules,
    }),
    updateOrchestratorState: r.cluster.work('orchestrator', { keys: ['clusterCrn'] }),
    updatePublicDnsEntries: r.cluster.work('dns', { keys: ['datahub'] }),
    updateToAwsImdsV1: r.cluster.work('imds', { keys: ['crn'] }),
    updateToAwsImdsV2: r.cluster.work('imds', { keys: ['crn'] }),
    upgradeCluster: code(upgradeCluster),
  }),
  provides: { hubs },
});
