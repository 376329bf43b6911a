/**
 * Data lakes on the operation table. A lake lives in an environment (one of
 * its dependents: it holds up the environment's delete and follows its stop
 * and start); its states and the operation record each action makes are the
 * model's (model/services/datalake/resources.ts), its rules and effects
 * lakes.ts, its views views.ts. Backups and restores (backups.ts) and
 * diagnostics collections (diagnostics.ts) are runs beside a lake, each with
 * its own plan of steps; the fixed world is catalogue.ts.
 */
import type { OperationName } from '../../../model/services/datalake/wire.js';
import { resources } from '../../../model/services/datalake/resources.js';
import type { EntryOptions } from '../../engine/declare.js';
import { code, defineService, fixed } from '../../engine/table.js';
import { DEFAULT_RUNTIME, RUNTIMES } from '../../shared/runtimes.js';
import { backupDatalake, backupStatus, cancelBackup, cancelRestore, listBackups, restoreDatalake, restoreStatus } from './backups.js';
import { CM_ROLES, LOG_DESCRIPTORS } from './catalogue.js';
import { cancelDatalakeDiagnostics, listCollections } from './diagnostics.js';
import * as lakes from './lakes.js';
import type { R } from './lakes.js';
import { provided } from './provides.js';
import * as views from './views.js';

/** A lake's action, answered with the operation it started. */
const started = { answer: lakes.operationOf } as const satisfies EntryOptions<R>;
/** Operations that name the lake in a field of their own. */
const by = (field: string): EntryOptions<R> => ({ keys: [field], answer: lakes.operationOf });

/** A backup or restore goes with its lake. */
const RUN_OF_LAKE = { in: 'parent', parent: 'datalake', part: true } as const;
const RUN_MINUTES = { run: [0.5, 0], validate: [0.5, 0] } as const;

export default defineService<OperationName>()({
  service: 'datalake',
  facts: resources,
  resources: {
    datalake: {
      noun: 'data lake',
      // Its CRN is a key too, so an action naming the lake by `crn` (a name will do) never sets the lake's CRN.
      keys: ['datalakeName', 'crn'],
      lives: { in: 'environment', by: ['environmentName'] },
      minutes: {
        create: [0.5, 3, 6.5],
        delete: [0.5, 2, 1],
        start: 4,
        resize: 15,
        upgrade: 12,
        databaseUpgrade: 8,
        repair: 6,
        recover: 8,
        scaleHorizontal: 4,
        scaleVertical: 5,
        rotateCertificates: 4,
        javaVersion: 5,
        dns: 1,
        imds: 2,
        sync: 1,
        orchestrator: 2,
        migrateSkus: 4,
      },
      deletes: { force: ['force'] },
      hooks: lakes.hooks,
    },
    // Runs of a lake with plans of their own (backups.ts): STARTED for half a minute, then IN_PROGRESS as long as the plan.
    backup: { keys: ['backupId'], lives: RUN_OF_LAKE, names: 'repeat', minutes: RUN_MINUTES },
    restore: { keys: ['restoreId'], lives: RUN_OF_LAKE, minutes: RUN_MINUTES },
    // Collections are work beside a lake (diagnostics.ts), one of each kind at a time; they go with it.
    diagnostics: {
      noun: 'diagnostics collection',
      keys: ['flowId'],
      lives: { in: 'parent', parent: 'datalake', part: true },
      work: { groups: { datalake: 'datalake', cm: 'cm' } },
      minutes: { datalake: 4, cm: 6 },
    },
    cloudStorageValidation: { keys: ['storageLocation'] },
  },
  operations: (r) => ({
    createAWSDatalake: r.datalake.create(),
    createAWSGovCloudDatalake: r.datalake.create(),
    createAzureDatalake: r.datalake.create(),
    createGCPDatalake: r.datalake.create(),
    describeDatalake: r.datalake.read(),
    listDatalakes: r.datalake.list({ select: lakes.lakesListed }),
    deleteDatalake: r.datalake.delete(started),
    startDatalake: r.datalake.act('start', { answer: () => ({}) }),
    stopDatalake: r.datalake.act('stop', { answer: () => ({}) }),
    retryDatalake: code(lakes.retryDatalake),
    repairDatalake: r.datalake.act('repair', started),
    recoverDatalake: r.datalake.act('recover', started),
    resizeDatalake: code(lakes.resizeDatalake),
    migrateSkus: r.datalake.act('migrateSkus', started),

    backupDatalake: code(backupDatalake),
    backupDatalakeStatus: r.datalake.read({ answer: backupStatus }),
    listDatalakeBackups: r.datalake.read({ answer: listBackups }),
    cancelBackup: code(cancelBackup),
    restoreDatalake: code(restoreDatalake),
    restoreDatalakeStatus: r.datalake.read({ answer: restoreStatus }),
    cancelRestore: code(cancelRestore),

    collectDatalakeDiagnostics: r.datalake.work('datalake', { keys: ['crn'] }),
    collectCmDiagnostics: r.datalake.work('cm', { keys: ['crn'] }),
    listDatalakeDiagnostics: r.datalake.read({ keys: ['crn'], answer: listCollections }),
    cancelDatalakeDiagnostics: code(cancelDatalakeDiagnostics),
    getDatalakeLogDescriptors: fixed({ logs: LOG_DESCRIPTORS.map(([label, path]) => ({ label, path })) }),
    getCmRoles: r.datalake.read({ keys: ['crn'], answer: () => ({ roles: CM_ROLES }) }),

    prepareDatalakeUpgrade: code(lakes.prepareDatalakeUpgrade),
    upgradeDatalake: code(lakes.upgradeDatalake),
    startDatabaseUpgrade: r.datalake.act('databaseUpgrade', { keys: ['datalake'], answer: lakes.databaseUpgradeStarted }),
    listRuntimes: fixed({
      versions: RUNTIMES.map((v) => ({ runtimeVersion: v.version, defaultRuntimeVersion: v.version === DEFAULT_RUNTIME })),
    }),

    scaleHorizontally: r.datalake.act('scaleHorizontal', {
      answer: (_h, lake) => ({ datalakeName: lake.name, operationId: lake.activity.operationId }),
    }),
    startDatalakeVerticalScaling: r.datalake.act('scaleVertical', {
      keys: ['datalake'],
      answer: (_h, lake, req) => ({ result: `scaling instance group ${String(req.group)}`, operationId: lake.activity.operationId }),
    }),
    restartDatalakeInstances: r.datalake.act('restart', started),
    replaceRecipes: code(lakes.replaceRecipes),

    renewPublicCertificate: r.datalake.act('renewCertificate', by('datalake')),
    renewCertificate: r.datalake.act('renewCertificate', started),
    rotatePrivateCertificates: r.datalake.act('rotateCertificates', by('datalake')),
    rotateAutoTlsCertificates: r.datalake.act('rotateCertificates', started),
    rotateDbCertificate: r.datalake.act('rotateDbCertificate', started),
    rotateSecrets: r.datalake.act('rotateSecrets', by('datalake')),
    listDatalakeSecretTypes: r.datalake.read({ keys: ['datalake'], answer: lakes.secretTypes }),
    rotateSaltPassword: r.datalake.act('rotateSecrets', by('datalake')),

    getOperation: r.datalake.operation({ keys: ['datalakeName', 'crn'] }),
    getClusterHostStatus: r.datalake.read({ keys: ['clusterName'], answer: views.hostStatus }),
    getClusterServiceStatus: r.datalake.read({ keys: ['clusterName'], answer: views.serviceStatus }),
    describeDatabaseServer: r.datalake.read({ keys: ['clusterCrn'], answer: views.databaseServer }),
    syncComponentVersionsFromCm: r.datalake.act('sync', started),

    setCatalog: r.datalake.update({ keys: ['datalake'], answer: () => ({}) }),
    // A rolling restart takes twice as long.
    setDefaultJavaVersion: r.datalake.act('javaVersion', {
      keys: ['crn'],
      answer: lakes.operationOf,
      minutes: (_h, req) => (req.rollingRestart ? 10 : undefined),
    }),
    updateOrchestratorState: r.datalake.act('orchestrator', by('clusterCrn')),
    updatePublicDnsEntries: r.datalake.act('dns', by('datalake')),
    updateToAwsImdsV1: r.datalake.act('imds', by('crn')),
    updateToAwsImdsV2: r.datalake.act('imds', by('crn')),

    validateAwsCloudStorage: code(lakes.validateCloudStorage),
    validateAzureCloudStorage: code(lakes.validateCloudStorage),
  }),
  provides: { lakes: provided },
});
