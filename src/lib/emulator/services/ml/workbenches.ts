/**
 * The rules and computed fields of workbenches (workspaces on the wire) and
 * their backups, for the resource declarations in index.ts: what a new or
 * restored workbench needs (an available environment, a cluster to
 * provision, settings its cloud supports), what each change of a running
 * workbench does (instance groups, network allow-lists, file replicas,
 * upgrades and their rollback), and what a workbench shows besides what it
 * stores (its backups, its last upgrade, its health).
 */
import type { Doc } from '../../engine/context.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { docs, hex, iso, obj, str, text } from '../../values.js';
import type { CloudPlatform, EnvironmentView } from '../../world/contracts.js';
import { WORKBENCH_SERVING } from '../../../model/services/ml/resources.js';
import { WORKBENCH_RELEASES, installed, upgradeTarget } from './catalogue.js';
import { workflowId } from './audit.js';
import * as k8s from './clusters.js';

type Hook = k8s.Hook;
type Rec = k8s.Rec;
type Change = (h: Hook, rec: Rec, req: Doc) => Doc;

const workbenches = (h: Hook) => h.records('workspace');
const backups = (h: Hook) => h.records('workspaceBackup');
/** The request a record was made with (the engine keeps it; a restore's and a backup's as their entries made it). */
const requestOf = (rec: Rec): Doc => obj(rec.data?.request);

/** An upgrade keeps the version it leaves, to roll back to (a workbench's and a registry's `keep.upgrade`). */
export const versionBefore = (_h: Hook, rec: Rec): Doc => ({ versionBeforeUpgrade: text(rec.doc.version) });

/** The file system a cloud gives a workbench: EFS on AWS, NFS on Azure, Filestore on GCP. */
const fileSystem = (cloud: CloudPlatform, seed: string): string =>
  ({ AZURE: `nfs-${hex(seed, 12)}`, GCP: `filestore-${hex(seed, 12)}`, AWS: `fs-${hex(seed, 17)}` })[cloud];

/** The backup a restore names (NOT_FOUND when there is none). */
const backupOf = (h: Hook, req: Doc): EngineRecord | undefined =>
  h.ctx.op.name === 'restoreWorkspace' ? backups(h).get(text(req.backupCrn)) : undefined;

/** The static subdomain a workbench was given (a restore's may be its backup's). */
const staticSubdomainOf = (rec: Rec): string | undefined => str(requestOf(rec).staticSubdomain);

/**
 * restoreWorkspace gives the new workbench in `newWorkspaceParameters`; with
 * `useStaticSubdomain` it takes its backup's subdomain.
 */
export function restoreRequest(h: Hook, sent: Doc): Doc {
  if (typeof sent.newWorkspaceParameters !== 'object' || sent.newWorkspaceParameters === null)
    throw invalid('give newWorkspaceParameters: the new workbench, as `ml workspaces create` takes it');
  const params = obj(sent.newWorkspaceParameters);
  const backup = backups(h).get(text(sent.backupCrn));
  const subdomain = str(params.staticSubdomain) ?? (sent.useStaticSubdomain === true ? str(requestOf(backup).staticSubdomain) : undefined);
  return { ...params, backupCrn: sent.backupCrn, useStaticSubdomain: sent.useStaticSubdomain, staticSubdomain: subdomain };
}

/** The instance groups a new workbench is provisioned with: the request's, else (a restore) its backup's, as a request gives them. */
function requestedGroups(env: EnvironmentView, req: Doc, backup: EngineRecord | undefined): Doc[] {
  const specs = docs(k8s.provisionRequest(env, req, 'environmentName')?.instanceGroups);
  if (specs.length > 0) return specs;
  return docs(backup?.doc.instanceGroups).map((g) => ({
    instanceType: g.instanceType,
    instanceCount: g.instanceCount,
    autoscaling: { minInstances: g.minInstances, maxInstances: g.maxInstances },
    ...(g.rootVolumeSize !== undefined ? { rootVolume: { size: g.rootVolumeSize } } : {}),
    ...(g.name !== undefined ? { name: g.name } : {}),
    ...(g.accelerator !== undefined ? { accelerator: g.accelerator } : {}),
  }));
}

/** A new workbench (createWorkspace, or restoreWorkspace from a finished backup): what it needs of its environment and request. */
export function checkWorkbench(h: Hook, rec: Rec, req: Doc): void {
  const env = k8s.environmentOf(h, rec);
  k8s.requireAvailable(env, 'a new workbench');
  const backup = backupOf(h, req);
  if (backup) backups(h).require(backup, ['backup:finished'], 'a restore');
  if (requestedGroups(env, req, backup).length === 0)
    throw invalid(
      'give provisionK8sRequest with at least one instance group: a workbench in the public cloud needs its cluster provisioned',
    );
  if (str(req.existingNFS) && env.cloudPlatform !== 'AZURE')
    throw invalid(`existingNFS is for Azure and private cloud; environment ${env.environmentName} is on ${env.cloudPlatform}`);
  if (req.enableGovernance === true) k8s.requireRunningLake(h, env, 'governance (enableGovernance)');
  const subdomain = str(req.staticSubdomain);
  const clash = subdomain
    ? workbenches(h)
        .all(rec.scope)
        .find((w) => staticSubdomainOf(w) === subdomain)
    : undefined;
  if (clash) throw alreadyExists(`workbench ${nameOf(clash)} already has the subdomain ${subdomain} in environment ${env.environmentName}`);
}

/** What the service gives a new workbench: its URL, cluster, file system, network settings and instance groups. */
export function fillWorkbench(h: Hook, rec: Rec, req: Doc): Doc {
  const env = k8s.environmentOf(h, rec);
  const backup = backupOf(h, req);
  const groups = requestedGroups(env, req, backup);
  const cluster = k8s.clusterName(rec);
  const domain = `${env.environmentName}.ml.emulator.invalid`;
  const tags = docs(k8s.provisionRequest(env, req, 'environmentName')?.tags);
  const pool = obj(req.resourcePoolConfig);
  const parent = str(pool.parentPoolName) ?? 'root';
  return {
    ...k8s.networkSettings(env, req),
    instanceUrl: `${req.disableTLS === true ? 'http' : 'https'}://${str(req.staticSubdomain) ?? `ml-${hex(rec.id, 8)}`}.${domain}`,
    k8sClusterName: cluster,
    clusterID: cluster,
    clusterBaseDomain: domain,
    cloudPlatform: env.cloudPlatform,
    subnets: env.network.subnetIds,
    version: str(backup?.doc.workspaceVersionAtBackup) ?? WORKBENCH_RELEASES.deployed,
    httpsEnabled: req.disableTLS !== true,
    endpointPublicAccess: req.usePublicLoadBalancer === true,
    monitoringEnabled: req.enableMonitoring === true,
    modelMetricsEnabled: req.enableModelMetrics === true,
    governanceEnabled: req.enableGovernance === true,
    isPrivate: req.privateCluster === true,
    isRestored: backup !== undefined,
    filesystemID: str(req.existingNFS) ?? fileSystem(env.cloudPlatform, rec.id),
    nfsVersion: str(req.nfsVersion) ?? '4.1',
    tags,
    instanceGroups: k8s.newGroups(env, cluster, [], groups, tags),
    ...(env.cloudPlatform === 'GCP' ? { secondaryPodRangeNames: [`${cluster}-pods`] } : {}),
    // Resource pools are for the private cloud: shown only when the request configures one.
    ...(Object.keys(pool).length > 0
      ? { resourcePoolName: `${parent}.${nameOf(rec)}`, parentResourcePoolName: parent, quota: pool.workspaceQuota }
      : { resourcePoolName: undefined, parentResourcePoolName: undefined }),
  };
}

// ---- changes of a running workbench ------------------------------------------------

/** What the changes of a workbench set when they succeed, by action. */
export const WORKBENCH_EFFECTS: Readonly<Record<string, Change>> = {
  modify: (h, rec, req) => ({
    instanceGroups: k8s.groupChange(h, rec, req, rec.doc, text(rec.doc.k8sClusterName), `workbench ${nameOf(rec)}`),
  }),
  upgrade: (_h, rec, req) => {
    const running = text(rec.doc.version);
    const to = upgradeTarget(WORKBENCH_RELEASES, running, str(req.mlVersion), `workbench ${nameOf(rec)}`, req.overrideUpgrade === true);
    return { version: to, upgradeType: 'Inplace' };
  },
  rollback: (_h, rec, req) => {
    const type = str(req.workflowType)?.toUpperCase();
    if (type && type !== 'UPGRADE_WORKSPACE') throw failedPrecondition(`only UPGRADE_WORKSPACE workflows can be rolled back, not ${type}`);
    const before = str(rec.data?.versionBeforeUpgrade);
    if (!before) throw failedPrecondition(`workbench ${nameOf(rec)} has no upgrade to roll back`);
    return { version: before };
  },
  failover: (_h, rec) => {
    const replica = obj(rec.data?.replica);
    if (!str(replica.filesystemID))
      throw failedPrecondition(
        `workbench ${nameOf(rec)} has no file system replica to fail over to; create one first (ml file-replicas create)`,
      );
    return { filesystemID: replica.filesystemID };
  },
};

/** What a workbench's changes keep beside it: the version an upgrade leaves, its file system replica (made, failed over to, dropped). */
export const WORKBENCH_KEEPS: Readonly<Record<string, Change>> = {
  upgrade: versionBefore,
  failover: () => ({ replica: undefined }),
  update: (h, rec) => {
    const op = h.ctx.op.name;
    if (op === 'deleteFileReplica') return { replica: undefined };
    if (op !== 'createFileReplica') return {};
    const now = h.ctx.clock.now();
    return { replica: { filesystemID: fileSystem(k8s.environmentOf(h, rec).cloudPlatform, `${rec.id}/replica/${now}`), since: now } };
  },
};

/** modifyClusterSecurity's allow-list, as the workbench's fields (the update applies them). */
export function securityRequest(_h: Hook, sent: Doc): Doc {
  const only = sent.allowlistAuthorizedIPRanges === true;
  return {
    ...sent,
    whitelistAuthorizedIPRanges: only,
    authorizedIPRanges: k8s.authorizedRanges(sent.authorizedIPRanges, only, 'allowlistAuthorizedIPRanges'),
  };
}

/** modifyWorkspaceLoadBalancer's allow-list, as the workbench's field (the update applies it). */
export const loadBalancerRequest = (_h: Hook, sent: Doc): Doc => ({
  ...sent,
  loadBalancerIPWhitelists: k8s.cidrBlocks(sent.loadBalancerIPAllowLists, 'loadBalancerIPAllowLists'),
});

/**
 * A change made at once: its workbench installed (its file system, even
 * suspended), and what the change itself needs (the update's check, by
 * operation).
 */
export function checkWorkbenchUpdate(h: Hook, rec: Rec): void {
  const op = h.ctx.op.name;
  const state = workbenches(h).state(rec);
  if (/FileReplica$/.test(op)) k8s.requireCluster(h, 'workspace', rec, op);
  else if (!installed(state)) throw failedPrecondition(`workbench ${nameOf(rec)} is ${state}; ${op} needs it installed and running`);
  if (op === 'refreshModelRegistryConfigmap' && !h.records('modelRegistry').all(rec.scope)[0])
    throw failedPrecondition(`environment ${text(rec.doc.environmentName)} has no model registry to refresh the settings of`);
  if (op === 'createFileReplica' && rec.data?.replica) throw alreadyExists(`workbench ${nameOf(rec)} already replicates its file system`);
  if (op === 'deleteFileReplica' && !rec.data?.replica) throw notFound(`workbench ${nameOf(rec)} has no file system replica`);
}

// ---- what a workbench shows -----------------------------------------------------------

/** Its backups (they outlive it): by its CRN. */
const backupsOf = (h: Hook, crn: string | undefined): EngineRecord[] =>
  backups(h)
    .all('')
    .filter((b) => requestOf(b).workspaceCrn === crn);

/** Fields a workbench shows that it does not store: its backups, its last upgrade, its health, its instances while suspended. */
export function showWorkbench(h: Hook, rec: Rec, view: Doc): Doc {
  const state = text(view.instanceStatus);
  const out: Doc = {};
  const taken = backupsOf(h, rec.crn);
  if (taken.length > 0) {
    const all = backups(h);
    const done = taken.filter((b) => all.state(b) === 'backup:finished');
    const last = done[done.length - 1];
    out.backupMetadata = {
      backupVaultName: vaultOf(rec.env ?? ''),
      lastBackupStatus: all.state(taken[taken.length - 1] ?? rec),
      isSuccessfulBackupAvailable: done.length > 0,
      numberOfAvailableBackups: done.length,
      ...(last ? { lastSuccessfulBackupTime: iso(all.progress(last).endsAt) } : {}),
    };
  }
  const upgrade = workbenches(h)
    .events(rec)
    .filter((e) => e.action === 'upgrade')
    .pop();
  if (upgrade)
    out.upgradeState = { state: upgrade.state, ...(upgrade.failed && rec.activity.reason ? { reason: rec.activity.reason } : {}) };
  const up = installed(state);
  const message = up ? 'the workbench and its cluster are running' : `the workbench is ${state}`;
  const health = { resourceName: text(view.k8sClusterName), isHealthy: up, updatedAt: iso(h.ctx.clock.now()), message, details: [] };
  out.healthInfoLists = [health];
  // A suspended workbench keeps its groups with no instances.
  if (state === 'suspend:finished' || state === 'resume:started')
    out.instanceGroups = docs(rec.doc.instanceGroups).map((g) => ({ ...g, instanceCount: 0, instances: [] }));
  return out;
}

// ---- backups -------------------------------------------------------------------

/** The vault an environment's workbench backups are kept in. */
const vaultOf = (environmentCrn: string): string => `ml-backup-vault-${hex(environmentCrn, 8)}`;

/** backupWorkspace names a workbench by CRN: what its backups are found by is kept with the request. */
export function backupRequest(h: Hook, sent: Doc): Doc {
  const ws = workbenches(h).get(text(sent.workspaceCrn));
  const found = { workspaceName: ws.name, environmentName: ws.doc.environmentName, environmentCrn: ws.env };
  return { ...sent, ...found, staticSubdomain: staticSubdomainOf(ws) };
}

/** A new backup: of a workbench that is up and not being upgraded, named uniquely among its backups. */
export function checkBackup(h: Hook, _rec: Rec, req: Doc): void {
  const ws = workbenches(h).get(text(req.workspaceCrn));
  workbenches(h).require(ws, [...WORKBENCH_SERVING, 'modify:started'], 'a backup');
  const name = text(req.backupName);
  if (backupsOf(h, ws.crn).some((b) => b.name?.toLowerCase() === name.toLowerCase()))
    throw alreadyExists(`workbench ${nameOf(ws)} already has a backup named ${name}`);
  if (typeof req.backupJobTimeoutMinutes === 'number' && req.backupJobTimeoutMinutes < 1)
    throw invalid('backupJobTimeoutMinutes must be at least 1');
}

/** What a backup records of its workbench: its version and instance groups. */
export function fillBackup(h: Hook, _rec: Rec, req: Doc): Doc {
  const ws = workbenches(h).get(text(req.workspaceCrn));
  return { workspaceVersionAtBackup: ws.doc.version, instanceGroups: docs(ws.doc.instanceGroups), isCrossNsBackup: false };
}

/** backupWorkspace's answer: the backup and the vault it is kept in. */
export const backupTaken = (_h: Hook, rec: Rec): Doc => ({
  backupCrn: rec.crn,
  vaultName: vaultOf(text(requestOf(rec).environmentCrn)),
  warnings: [],
});

/** deleteBackup's answer: its workflow. */
export const backupDeletion = (_h: Hook, rec: Rec): Doc => ({ workflowId: workflowId(rec, 'delete', rec.activity.tl.startedAt) });

/**
 * listWorkspaceBackups: the backups of a workbench named by CRN, or by
 * environment and name, including those of a workbench since deleted;
 * NOT_FOUND when there is no such workbench and never was.
 */
export function backupsOfRequest(h: Hook, req: Doc): EngineRecord[] {
  const crn = str(req.workspaceCrn);
  const env = str(req.environmentName)?.toLowerCase();
  const name = str(req.workspaceName)?.toLowerCase();
  const named = (b: EngineRecord): boolean =>
    text(requestOf(b).environmentName).toLowerCase() === env && text(requestOf(b).workspaceName).toLowerCase() === name;
  const found = crn ? backupsOf(h, crn) : backups(h).all('').filter(named);
  if (found.length > 0 || (crn && workbenches(h).find(crn))) return found;
  if (!crn && env && name) {
    // A workbench that exists and has no backups: an empty list (the engine's lookup says NOT_FOUND otherwise).
    h.locate('workspace', req);
    return [];
  }
  throw notFound(
    `workbench ${(crn ?? `${text(req.environmentName)}/${text(req.workspaceName)}`).slice(0, 200)} not found and has no backups`,
  );
}

/** A backup being taken cannot be deleted yet. */
export function checkBackupDelete(h: Hook, rec: Rec): void {
  if (backups(h).state(rec) === 'backup:started') throw failedPrecondition(`backup ${nameOf(rec)} is still being taken`);
}
