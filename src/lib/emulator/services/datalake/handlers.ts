/** datalake operations: wire in, plain result out; state and rules live in backend.ts. */
import type { Handler } from '../../types.js';
import * as b from './backend.js';

export const handlers: Record<string, Handler> = {
  createAWSDatalake: (req, ctx) => b.createLake(ctx, req, 'AWS'),
  createAWSGovCloudDatalake: (req, ctx) => b.createLake(ctx, req, 'AWS', true),
  createAzureDatalake: (req, ctx) => b.createLake(ctx, req, 'AZURE'),
  createGCPDatalake: (req, ctx) => b.createLake(ctx, req, 'GCP'),
  describeDatalake: (req, ctx) => ({ datalake: b.details(ctx, b.getLake(ctx, req.datalakeName)) }),
  listDatalakes: (req, ctx) => b.listLakes(ctx, req),
  deleteDatalake: (req, ctx) => b.deleteLake(ctx, req),
  startDatalake: (req, ctx) => b.startLake(ctx, req),
  stopDatalake: (req, ctx) => b.stopLake(ctx, req),
  retryDatalake: (req, ctx) => b.retryLake(ctx, req),
  repairDatalake: (req, ctx) => b.repairLake(ctx, req),
  recoverDatalake: (req, ctx) => b.recoverLake(ctx, req),
  resizeDatalake: (req, ctx) => b.resizeLake(ctx, req),
  migrateSkus: (req, ctx) => b.migrateSkus(ctx, req),

  backupDatalake: (req, ctx) => b.backup(ctx, req),
  backupDatalakeStatus: (req, ctx) => b.backupStatus(ctx, req),
  listDatalakeBackups: (req, ctx) => b.listBackups(ctx, req),
  cancelBackup: (req, ctx) => b.cancelBackup(ctx, req),
  restoreDatalake: (req, ctx) => b.restore(ctx, req),
  restoreDatalakeStatus: (req, ctx) => b.restoreStatus(ctx, req),
  cancelRestore: (req, ctx) => b.cancelRestore(ctx, req),

  collectDatalakeDiagnostics: (req, ctx) => b.collectDiagnostics(ctx, req, 'datalake'),
  collectCmDiagnostics: (req, ctx) => b.collectDiagnostics(ctx, req, 'cm'),
  listDatalakeDiagnostics: (req, ctx) => b.listDiagnostics(ctx, req),
  cancelDatalakeDiagnostics: (req, ctx) => b.cancelDiagnostics(ctx, req),
  getDatalakeLogDescriptors: () => b.logDescriptors(),
  getCmRoles: (req, ctx) => b.cmRoles(ctx, req),

  prepareDatalakeUpgrade: (req, ctx) => b.prepareUpgrade(ctx, req),
  upgradeDatalake: (req, ctx) => b.upgradeLake(ctx, req),
  startDatabaseUpgrade: (req, ctx) => b.databaseUpgrade(ctx, req),
  listRuntimes: () => b.listRuntimes(),

  scaleHorizontally: (req, ctx) => b.scaleHorizontally(ctx, req),
  startDatalakeVerticalScaling: (req, ctx) => b.scaleVertically(ctx, req),
  restartDatalakeInstances: (req, ctx) => b.restartInstances(ctx, req),
  replaceRecipes: (req, ctx) => b.replaceRecipes(ctx, req),

  renewPublicCertificate: (req, ctx) => b.renewOrRotate(ctx, req.datalake, 'renewCertificate'),
  renewCertificate: (req, ctx) => b.renewOrRotate(ctx, req.datalakeName, 'renewCertificate'),
  rotatePrivateCertificates: (req, ctx) => b.renewOrRotate(ctx, req.datalake, 'rotateCertificates'),
  rotateAutoTlsCertificates: (req, ctx) => b.renewOrRotate(ctx, req.datalakeName, 'rotateCertificates'),
  rotateDbCertificate: (req, ctx) => b.renewOrRotate(ctx, req.datalakeName, 'rotateDbCertificate'),
  rotateSecrets: (req, ctx) => b.rotateSecrets(ctx, req),
  listDatalakeSecretTypes: (req, ctx) => b.listSecretTypes(ctx, req),
  rotateSaltPassword: (req, ctx) => b.simpleAction(ctx, req.datalake, 'rotateSecrets', undefined, 'secret rotation'),

  getOperation: (req, ctx) => b.getOperation(ctx, req),
  getClusterHostStatus: (req, ctx) => b.hostStatus(ctx, req),
  getClusterServiceStatus: (req, ctx) => b.serviceStatus(ctx, req),
  describeDatabaseServer: (req, ctx) => b.databaseServer(ctx, req),
  syncComponentVersionsFromCm: (req, ctx) => b.simpleAction(ctx, req.datalakeName, 'sync', undefined, 'syncing component versions'),

  setCatalog: (req, ctx) => b.setCatalog(ctx, req),
  setDefaultJavaVersion: (req, ctx) => b.setJava(ctx, req),
  updateOrchestratorState: (req, ctx) => b.simpleAction(ctx, req.clusterCrn, 'orchestrator', undefined, 'updating the orchestrator state'),
  updatePublicDnsEntries: (req, ctx) => b.simpleAction(ctx, req.datalake, 'dns', undefined, 'updating DNS entries'),
  updateToAwsImdsV1: (req, ctx) => b.imds(ctx, req, 'v1'),
  updateToAwsImdsV2: (req, ctx) => b.imds(ctx, req, 'v2'),

  validateAwsCloudStorage: (req, ctx) => b.validateStorage(ctx, req),
  validateAzureCloudStorage: (req, ctx) => b.validateStorage(ctx, req),
};
