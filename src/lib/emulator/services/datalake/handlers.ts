/** datalake operations: unpack the wire request, call the backend, build the wire answer. */
import { perRequest } from '../../service.js';
import type { Doc, Handler } from '../../types.js';
import { bool, docs, num, obj, str, strings, text } from '../../values.js';
import { DatalakeBackend } from './backend.js';
import type { BackupOptions } from './backups.js';
import { LOG_DESCRIPTORS, CM_ROLES, DEFAULT_RUNTIME, RUNTIMES, type Shape } from './catalogue.js';
import type { CertificateAction, LakeSpec, SimpleAction } from './lakes.js';
import type { CloudPlatform, LakeRec } from './records.js';
import { brView, databaseServer, details, diagnosticsView, hostStatus, imageDoc, imageInfo, listItem, serviceStatus } from './views.js';

const op = perRequest((ctx) => new DatalakeBackend(ctx));

/** The lake a request names in `field` (name or CRN). */
const lakeOf = (b: DatalakeBackend, req: Doc, field: string): LakeRec => b.lakes.lake(str(req[field]));

function create(platform: CloudPlatform, gov = false): Handler {
  return op((b, req) => {
    const cfg = obj(req.cloudProviderConfiguration);
    const image = obj(req.image);
    const spec: LakeSpec = {
      name: text(req.datalakeName),
      environment: text(req.environmentName),
      platform,
      gov,
      runtime: str(req.runtime),
      image: { id: str(image.id), catalogName: str(image.catalogName) },
      scale: str(req.scale) as Shape | undefined,
      multiAz: bool(req.multiAz),
      enableRangerRaz: bool(req.enableRangerRaz),
      customInstanceGroups: docs(req.customInstanceGroups).map((c) => ({ name: text(c.name), instanceType: str(c.instanceType) })),
      recipes: docs(req.recipes).map((r) => ({ instanceGroupName: text(r.instanceGroupName), recipeNames: strings(r.recipeNames) })),
      tags: docs(req.tags).map((t) => ({ key: text(t.key), value: text(t.value) })),
      storage: String(cfg.storageBucketLocation ?? cfg.storageLocation ?? ''),
      identity: String(cfg.instanceProfile ?? cfg.managedIdentity ?? cfg.serviceAccountEmail ?? ''),
      javaVersion: num(req.javaVersion),
      loadBalancerSku: str(req.loadBalancerSku),
    };
    const lake = b.lakes.create(spec);
    return { datalake: listItem(b, lake), operationId: lake.activity.operationId };
  });
}

/** A simple action of a running lake, answered with its operation id. */
const simple = (field: string, action: SimpleAction): Handler =>
  op((b, req) => ({ operationId: b.lakes.act(lakeOf(b, req, field), action) }));

const certificates = (field: string, action: CertificateAction): Handler =>
  op((b, req) => ({ operationId: b.lakes.certificates(lakeOf(b, req, field), action) }));

/** A backup's or restore's skip flags. */
const backupOptions = (req: Doc): BackupOptions => ({
  validationOnly: bool(req.validationOnly),
  skipValidation: bool(req.skipValidation),
  closeDbConnections: req.closeDbConnections !== false,
  skipRangerHmsMetadata: bool(req.skipRangerHmsMetadata),
  skipAtlasMetadata: bool(req.skipAtlasMetadata),
  skipRangerAudits: bool(req.skipRangerAudits),
  skipAtlasIndexes: bool(req.skipAtlasIndexes),
});

const collect = (kind: 'datalake' | 'cm'): Handler =>
  op((b, req) => {
    const d = b.diagnostics.collect(lakeOf(b, req, 'crn'), {
      kind,
      destination: text(req.destination),
      description: str(req.description),
      caseNumber: str(req.caseNumber),
    });
    return { operationId: d.flowId };
  });

const imds = (version: 'v1' | 'v2'): Handler => op((b, req) => ({ operationId: b.lakes.imds(lakeOf(b, req, 'crn'), version) }));

const validateStorage: Handler = (req) => {
  const loc = text(req.storageLocation);
  return loc.includes('fail-') ? { status: 'ERROR', error: `the data access role cannot write to ${loc}` } : { status: 'OK' };
};

export const handlers: Record<string, Handler> = {
  createAWSDatalake: create('AWS'),
  createAWSGovCloudDatalake: create('AWS', true),
  createAzureDatalake: create('AZURE'),
  createGCPDatalake: create('GCP'),
  describeDatalake: op((b, req) => ({ datalake: details(b, lakeOf(b, req, 'datalakeName')) })),
  listDatalakes: op((b, req) => ({
    datalakes: b.lakes.list({ environment: str(req.environmentName), name: str(req.datalakeName) }).map((l) => listItem(b, l)),
  })),
  deleteDatalake: op((b, req) => ({ operationId: b.lakes.delete(lakeOf(b, req, 'datalakeName'), bool(req.force)) })),
  startDatalake: op((b, req) => {
    b.lakes.start(lakeOf(b, req, 'datalakeName'));
    return {};
  }),
  stopDatalake: op((b, req) => {
    b.lakes.stop(lakeOf(b, req, 'datalakeName'));
    return {};
  }),
  retryDatalake: op((b, req) => ({ operationId: b.lakes.retry(lakeOf(b, req, 'datalakeName')) })),
  repairDatalake: op((b, req) => {
    const groups = [...strings(req.instanceGroupNames), ...(str(req.instanceGroupName) ? [text(req.instanceGroupName)] : [])];
    return { operationId: b.lakes.repair(lakeOf(b, req, 'datalakeName'), groups, strings(obj(req.instances).instanceIds)) };
  }),
  recoverDatalake: op((b, req) => ({ operationId: b.lakes.recover(lakeOf(b, req, 'datalakeName')) })),
  resizeDatalake: op((b, req) => {
    const lake = lakeOf(b, req, 'datalakeName');
    const target = text(req.targetSize) as Shape;
    const validationOnly = bool(req.validationOnly);
    const operationId = b.lakes.resize(
      lake,
      {
        target,
        multiAz: bool(req.multiAz),
        instanceTypes: docs(req.customInstanceTypes).map((t) => ({ name: text(t.name), instanceType: str(t.instanceType) })),
        disks: docs(req.customInstanceDisks).map((d) => ({ name: text(d.name), diskSize: num(d.diskSize) })),
      },
      validationOnly,
    );
    const base = {
      datalakeName: lake.datalakeName,
      datalakeCrn: lake.crn,
      environmentCrn: lake.environmentCrn,
      runtime: lake.runtime,
      cloudbreakVersion: '2.92.0-b61',
      tags: lake.tags,
    };
    if (validationOnly) return { ...base, status: 'RUNNING', statusReason: `resize to ${target} is possible` };
    return { ...base, status: b.lakes.status(lake), statusReason: `resizing to ${target}`, operationId };
  }),
  migrateSkus: op((b, req) => ({ operationId: b.lakes.migrateSkus(lakeOf(b, req, 'datalakeName'), bool(req.force)) })),

  backupDatalake: op((b, req) =>
    brView(b, b.backups.backup(lakeOf(b, req, 'datalakeName'), str(req.backupName), str(req.backupLocation), backupOptions(req)), false),
  ),
  backupDatalakeStatus: op((b, req) =>
    brView(b, b.backups.find(lakeOf(b, req, 'datalakeName'), { id: str(req.backupId), name: str(req.backupName) }), true),
  ),
  listDatalakeBackups: op((b, req) => ({
    backups: b.backups.list(lakeOf(b, req, 'datalakeName')).map((r) => {
      const v = brView(b, r, false);
      return {
        backupName: r.backupName ?? '',
        accountId: v.accountId,
        userCrn: v.userCrn,
        backupId: v.backupId,
        internalState: v.internalState,
        status: v.status,
        startTime: v.startTime,
        endTime: v.endTime,
        backupLocation: v.backupLocation,
        failureReason: v.failureReason ?? '',
      };
    }),
  })),
  cancelBackup: op((b, req) => {
    const id = text(req.backupId);
    const force = bool(req.force);
    b.backups.cancel('backup', id, force);
    return { result: `backup ${id} cancelled; ${force ? 'unfinished' : 'pending'} steps were marked cancelled` };
  }),
  restoreDatalake: op((b, req) =>
    brView(
      b,
      b.backups.restore(
        lakeOf(b, req, 'datalakeName'),
        { id: str(req.backupId), name: str(req.backupName) },
        str(req.backupLocationOverride),
        backupOptions(req),
      ),
      false,
    ),
  ),
  restoreDatalakeStatus: op((b, req) => brView(b, b.backups.findRestore(lakeOf(b, req, 'datalakeName'), str(req.restoreId)), true)),
  cancelRestore: op((b, req) => {
    const id = text(req.restoreId);
    const force = bool(req.force);
    b.backups.cancel('restore', id, force);
    return { result: `restore ${id} cancelled; ${force ? 'unfinished' : 'pending'} steps were marked cancelled` };
  }),

  collectDatalakeDiagnostics: collect('datalake'),
  collectCmDiagnostics: collect('cm'),
  listDatalakeDiagnostics: op((b, req) => {
    const lake = lakeOf(b, req, 'crn');
    return { collections: b.diagnostics.list(lake).map((d) => diagnosticsView(b, lake, d)) };
  }),
  cancelDatalakeDiagnostics: op((b, req) => {
    b.diagnostics.cancelAll(lakeOf(b, req, 'crn'));
    return {};
  }),
  getDatalakeLogDescriptors: () => ({ logs: LOG_DESCRIPTORS.map(([label, path]) => ({ label, path })) }),
  getCmRoles: op((b, req) => {
    lakeOf(b, req, 'crn');
    return { roles: CM_ROLES };
  }),

  prepareDatalakeUpgrade: op((b, req) => {
    const lake = lakeOf(b, req, 'datalake');
    const list = b.lakes.candidates(lake, { runtime: str(req.runtime), imageId: str(req.imageId) });
    const base = { current: imageInfo(lake), upgradeCandidates: list.map((i) => imageDoc(i, lake.catalogName)) };
    if (list.length === 0) return { ...base, reason: 'no upgrade candidate matches; nothing to prepare' };
    return { ...base, operationId: b.lakes.prepareUpgrade(lake) };
  }),
  upgradeDatalake: op((b, req) => {
    const lake = lakeOf(b, req, 'datalakeName');
    const latestPerRuntime = bool(req.showLatestAvailableImagePerRuntime);
    const imageId = str(req.imageId);
    const runtime = str(req.runtime);
    if (runtime) b.lakes.requireRuntime(runtime);
    const list = b.lakes.candidates(lake, { runtime, imageId, lockComponents: bool(req.lockComponents), latestPerRuntime });
    const base = { current: imageInfo(lake), upgradeCandidates: list.map((i) => imageDoc(i, lake.catalogName)) };
    const reason =
      list.length === 0 ? (imageId ? `image ${imageId} is not an upgrade candidate` : 'no newer image is available') : undefined;
    if (bool(req.showAvailableImages) || latestPerRuntime) return { ...base, ...(reason ? { reason } : {}) };
    if (bool(req.dryRun)) return { ...base, reason: reason ?? 'the upgrade can run' };
    const { target, operationId } = b.lakes.upgrade(lake, list, reason);
    return { ...base, upgradeCandidates: [imageDoc(target, lake.catalogName)], operationId };
  }),
  startDatabaseUpgrade: op((b, req) => {
    const { target, operationId } = b.lakes.databaseUpgrade(lakeOf(b, req, 'datalake'), str(req.targetVersion), bool(req.force));
    return { targetVersion: target, operationId };
  }),
  listRuntimes: () => ({
    versions: RUNTIMES.map((r) => ({ runtimeVersion: r.runtime, defaultRuntimeVersion: r.runtime === DEFAULT_RUNTIME })),
  }),

  scaleHorizontally: op((b, req) => {
    const lake = lakeOf(b, req, 'datalakeName');
    return {
      datalakeName: lake.datalakeName,
      operationId: b.lakes.scaleHorizontally(lake, text(req.instanceGroupName), Number(req.instanceGroupDesiredCount)),
    };
  }),
  startDatalakeVerticalScaling: op((b, req) => {
    const group = text(req.group);
    const disks = obj(req.diskOptions);
    const modify = obj(disks.modifyDisks);
    const operationId = b.lakes.scaleVertically(lakeOf(b, req, 'datalake'), {
      group,
      instanceType: str(obj(req.instanceTemplate).instanceType),
      modifyDisks: num(modify.size) !== undefined ? { size: num(modify.size), volumeType: str(modify.volumeType) } : undefined,
      addDisks: num(obj(disks.addDisks).numberOfDisks),
    });
    return { result: `scaling instance group ${group}`, operationId };
  }),
  restartDatalakeInstances: op((b, req) => ({
    operationId: b.lakes.restartInstances(lakeOf(b, req, 'datalakeName'), strings(req.instances)),
  })),
  replaceRecipes: op((b, req) => {
    const wanted = docs(req.instanceGroupRecipes).map((r) => ({ group: text(r.instanceGroupName), recipes: strings(r.recipeNames) }));
    const { attached, detached } = b.lakes.replaceRecipes(lakeOf(b, req, 'datalake'), wanted);
    return { attachedRecipes: attached, detachedRecipes: detached };
  }),

  renewPublicCertificate: certificates('datalake', 'renewCertificate'),
  renewCertificate: certificates('datalakeName', 'renewCertificate'),
  rotatePrivateCertificates: certificates('datalake', 'rotateCertificates'),
  rotateAutoTlsCertificates: certificates('datalakeName', 'rotateCertificates'),
  rotateDbCertificate: certificates('datalakeName', 'rotateDbCertificate'),
  rotateSecrets: op((b, req) => ({ operationId: b.lakes.rotateSecrets(lakeOf(b, req, 'datalake'), strings(req.secretTypes)) })),
  listDatalakeSecretTypes: op((b, req) => ({
    datalakeSecretTypes: b.lakes.secretTypes(lakeOf(b, req, 'datalake')).map(([secretType, description]) => ({ secretType, description })),
  })),
  rotateSaltPassword: simple('datalake', 'rotateSecrets'),

  getOperation: op((b, req) => {
    const ref = str(req.datalakeName) ?? str(req.crn);
    const lake = ref ? b.lakes.find(ref) : undefined;
    return b.lakes.operations.view(b.lakes.operation(lake, str(req.operationId), ref));
  }),
  getClusterHostStatus: op((b, req) => hostStatus(b, lakeOf(b, req, 'clusterName'))),
  getClusterServiceStatus: op((b, req) => serviceStatus(b, lakeOf(b, req, 'clusterName'))),
  describeDatabaseServer: op((b, req) => databaseServer(b, lakeOf(b, req, 'clusterCrn'))),
  syncComponentVersionsFromCm: simple('datalakeName', 'sync'),

  setCatalog: op((b, req) => {
    b.lakes.setCatalog(lakeOf(b, req, 'datalake'), text(req.catalogName));
    return {};
  }),
  setDefaultJavaVersion: op((b, req) => ({
    operationId: b.lakes.setJava(lakeOf(b, req, 'crn'), Number(req.javaVersion), bool(req.rollingRestart)),
  })),
  updateOrchestratorState: simple('clusterCrn', 'orchestrator'),
  updatePublicDnsEntries: simple('datalake', 'dns'),
  updateToAwsImdsV1: imds('v1'),
  updateToAwsImdsV2: imds('v2'),

  validateAwsCloudStorage: validateStorage,
  validateAzureCloudStorage: validateStorage,
};
