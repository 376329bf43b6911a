/**
 * The rules and computed fields of workbenches (workspaces on the wire) and
 * their backups, for the resource declarations in index.ts: what a new or
 * restored workbench needs (an available environment, a cluster to
 * provision, settings its cloud supports), what each change of a running
 * workbench does (instance groups, network allow-lists, file replicas,
 * upgrades and their rollback), and what a workbench shows besides what it
 * stores (its backups, its last upgrade, its health).
 */
import type { EngineRecord, Hook } from '../../engine/index.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import type { Doc } from '../../types.js';
import { docs, hex, iso, obj, str, text } from '../../values.js';
import { WORKBENCH_READY, WORKBENCH_RELEASES, installed, newer, type Releases } from './catalogue.js';
import {
  cidrBlocks,
  environmentOf,
  groupsWithout,
  modifiedGroups,
  networkSettings,
  newGroups,
  provisionRequest,
  requireAvailable,
  requireRunningLake,
} from './clusters.js';

type Change = (h: Hook, rec: EngineRecord, req: Doc) => Doc | void;

const workbenches = (h: Hook) => h.resources('workspace');
const backups = (h: Hook) => h.resources('workspaceBackup');
const nameOf = (rec: EngineRecord): string => rec.name ?? rec.id;

/** FAILED_PRECONDITION unless the workbench is installed and reachable (it may be busy changing). */
export function requireInstalled(h: Hook, rec: EngineRecord, what: string): void {
  const state = workbenches(h).state(rec);
  if (!installed(state)) throw failedPrecondition(`workbench ${nameOf(rec)} is ${state}; ${what} needs it installed and running`);
}

/** The file system a cloud gives a workbench: EFS on AWS, NFS on Azure, Filestore on GCP. */
function fileSystem(cloud: string, seed: string): string {
  if (cloud === 'AZURE') return `nfs-${hex(seed, 12)}`;
  if (cloud === 'GCP') return `filestore-${hex(seed, 12)}`;
  return `fs-${hex(seed, 17)}`;
}

/** A backup a new workbench can be restored from: finished. */
function restorable(h: Hook, req: Doc): EngineRecord {
  const backup = backups(h).get(text(req.backupCrn));
  backups(h).require(backup, ['backup:finished'], 'a restore');
  return backup;
}

/** A recorded instance group as a request gives one (to provision it again in a restore). */
const asRequested = (g: Doc): Doc => ({
  instanceType: g.instanceType,
  instanceCount: g.instanceCount,
  autoscaling: { minInstances: g.minInstances, maxInstances: g.maxInstances },
  ...(g.rootVolumeSize !== undefined ? { rootVolume: { size: g.rootVolumeSize } } : {}),
  ...(g.name !== undefined ? { name: g.name } : {}),
  ...(g.accelerator !== undefined ? { accelerator: g.accelerator } : {}),
});

/** A new workbench (createWorkspace, or restoreWorkspace from a backup): its rules and the fields the service gives it. */
export function creatingWorkbench(h: Hook, rec: EngineRecord, req: Doc): void {
  const env = environmentOf(h, rec);
  requireAvailable(env, 'a new workbench');
  const backup = h.ctx.op.name === 'restoreWorkspace' ? restorable(h, req) : undefined;
  const provision = provisionRequest(env, req, 'environmentName');
  const specs = docs(provision?.instanceGroups);
  const groups = specs.length > 0 ? specs : docs(backup?.doc.instanceGroups).map(asRequested);
  if (groups.length === 0)
    throw invalid(
      'give provisionK8sRequest with at least one instance group: a workbench in the public cloud needs its cluster provisioned',
    );
  const nfs = str(req.existingNFS);
  if (nfs && env.cloudPlatform !== 'AZURE')
    throw invalid(`existingNFS is for Azure and private cloud; environment ${env.environmentName} is on ${env.cloudPlatform}`);
  if (req.enableGovernance === true) requireRunningLake(h, env, 'governance (enableGovernance)');
  const subdomain = str(req.staticSubdomain) ?? (req.useStaticSubdomain === true ? str(backup?.data?.staticSubdomain) : undefined);
  const clash =
    subdomain &&
    workbenches(h)
      .all(rec.scope)
      .find((w) => w.data?.staticSubdomain === subdomain);
  if (clash) throw alreadyExists(`workbench ${nameOf(clash)} already has the subdomain ${subdomain} in environment ${env.environmentName}`);
  const cluster = `liftie-${hex(rec.id, 8)}`;
  const domain = `${env.environmentName}.ml.emulator.invalid`;
  const tags = docs(provision?.tags);
  const pool = obj(req.resourcePoolConfig);
  Object.assign(rec.doc, {
    ...networkSettings(env, req),
    instanceUrl: `${req.disableTLS === true ? 'http' : 'https'}://${subdomain ?? `ml-${hex(rec.id, 8)}`}.${domain}`,
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
    filesystemID: nfs ?? fileSystem(env.cloudPlatform, rec.id),
    nfsVersion: str(req.nfsVersion) ?? '4.1',
    tags,
    instanceGroups: newGroups(env, cluster, [], groups, tags),
    ...(env.cloudPlatform === 'GCP' ? { secondaryPodRangeNames: [`${cluster}-pods`] } : {}),
  });
  // Resource pools are for the private cloud: shown only when the request configures one.
  if (Object.keys(pool).length > 0) {
    const parent = str(pool.parentPoolName) ?? 'root';
    Object.assign(rec.doc, { resourcePoolName: `${parent}.${nameOf(rec)}`, parentResourcePoolName: parent, quota: pool.workspaceQuota });
  } else for (const f of ['resourcePoolName', 'parentResourcePoolName']) delete rec.doc[f];
  rec.data = { ...rec.data, ...(subdomain ? { staticSubdomain: subdomain } : {}), ...(backup ? { restoredFrom: backup.crn } : {}) };
}

// ---- changes of a running workbench ------------------------------------------------

const groupsOf = (rec: EngineRecord): Doc[] => docs(rec.doc.instanceGroups);
const clusterOf = (rec: EngineRecord): string => text(rec.doc.k8sClusterName);

/** The release an upgrade goes to: the one asked for (newer than the running one), else the newest. */
export function upgradeTarget(releases: Releases, running: string, asked: string | undefined, what: string, again = false): string {
  if (asked !== undefined && !releases.all.includes(asked))
    throw invalid(`${asked} is not a release; the releases are ${releases.all.join(', ')}`);
  const to = asked ?? releases.latest;
  if (to === running && !again) throw failedPrecondition(`${what} already runs ${running}${asked ? '' : ', the latest release'}`);
  if (to !== running && !newer(to, running)) throw failedPrecondition(`${what} runs ${running}; ${to} is older`);
  return to;
}

/** What each change that runs as a workflow does to the workbench when it succeeds (the acting hook, by operation). */
export const WORKBENCH_ACTIONS: Readonly<Record<string, Change>> = {
  addInstanceGroups: (h, rec, req) => ({
    instanceGroups: [
      ...groupsOf(rec),
      ...newGroups(environmentOf(h, rec), clusterOf(rec), groupsOf(rec), docs(req.instanceGroups), docs(rec.doc.tags)),
    ],
  }),
  deleteInstanceGroup: (_h, rec, req) => ({
    instanceGroups: groupsWithout(groupsOf(rec), text(req.instanceGroupName), `workbench ${nameOf(rec)}`),
  }),
  modifyClusterInstanceGroup: (h, rec, req) => ({
    instanceGroups: modifiedGroups(environmentOf(h, rec), clusterOf(rec), groupsOf(rec), req, `workbench ${nameOf(rec)}`),
  }),
  upgradeWorkspace: (_h, rec, req) => {
    const running = text(rec.doc.version);
    const to = upgradeTarget(WORKBENCH_RELEASES, running, str(req.mlVersion), `workbench ${nameOf(rec)}`, req.overrideUpgrade === true);
    rec.data = { ...rec.data, versionBeforeUpgrade: running };
    return { version: to, upgradeType: 'Inplace' };
  },
  requestWorkflowRollback: (_h, rec, req) => {
    const type = str(req.workflowType)?.toUpperCase();
    if (type && type !== 'UPGRADE_WORKSPACE') throw failedPrecondition(`only UPGRADE_WORKSPACE workflows can be rolled back, not ${type}`);
    const before = str(rec.data?.versionBeforeUpgrade);
    if (!before) throw failedPrecondition(`workbench ${nameOf(rec)} has no upgrade to roll back`);
    return { version: before };
  },
  failOverFileSystem: (_h, rec) => {
    const replica = obj(rec.data?.replica);
    if (!str(replica.filesystemID))
      throw failedPrecondition(
        `workbench ${nameOf(rec)} has no file system replica to fail over to; create one first (ml file-replicas create)`,
      );
    rec.data = { ...rec.data, replica: undefined, formerFilesystemID: rec.doc.filesystemID };
    return { filesystemID: replica.filesystemID };
  },
};

/** What each change made at once does (the updating hook, by operation); the workbench must be installed. */
export const WORKBENCH_UPDATES: Readonly<Record<string, Change>> = {
  modifyClusterSecurity: (_h, rec, req) => {
    const ranges = cidrBlocks(req.authorizedIPRanges, 'authorizedIPRanges');
    if (req.allowlistAuthorizedIPRanges === true && ranges.length === 0)
      throw invalid('allowlistAuthorizedIPRanges lets only authorizedIPRanges reach the API server: give at least one CIDR block');
    Object.assign(rec.doc, { whitelistAuthorizedIPRanges: req.allowlistAuthorizedIPRanges === true, authorizedIPRanges: ranges });
  },
  modifyWorkspaceLoadBalancer: (_h, rec, req) => {
    rec.doc.loadBalancerIPWhitelists = cidrBlocks(req.loadBalancerIPAllowLists, 'loadBalancerIPAllowLists');
  },
  refreshModelRegistryConfigmap: (h, rec) => {
    const registry = h.resources('modelRegistry').all(rec.scope)[0];
    if (!registry)
      throw failedPrecondition(`environment ${text(rec.doc.environmentName)} has no model registry to refresh the settings of`);
    rec.data = { ...rec.data, registry: { crn: registry.crn, version: registry.doc.version, refreshedAt: h.ctx.clock.now() } };
  },
  createFileReplica: (h, rec) => {
    if (rec.data?.replica) throw alreadyExists(`workbench ${nameOf(rec)} already replicates its file system`);
    const env = environmentOf(h, rec);
    rec.data = {
      ...rec.data,
      replica: { filesystemID: fileSystem(env.cloudPlatform, `${rec.id}/replica/${h.ctx.clock.now()}`), since: h.ctx.clock.now() },
    };
  },
  deleteFileReplica: (_h, rec) => {
    if (!rec.data?.replica) throw notFound(`workbench ${nameOf(rec)} has no file system replica`);
    rec.data = { ...rec.data, replica: undefined };
  },
};

// ---- what a workbench shows -----------------------------------------------------------

/** Its backups (they outlive it): by its CRN. */
export const backupsOf = (h: Hook, crn: string | undefined): EngineRecord[] =>
  backups(h)
    .all('')
    .filter((b) => b.data?.workspaceCrn === crn);

/** Fields a workbench shows that it does not store: its backups, its last upgrade, its health, its instances while suspended. */
export function showWorkbench(h: Hook, rec: EngineRecord, view: Doc): Doc {
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
  out.healthInfoLists = [
    {
      resourceName: text(view.k8sClusterName),
      isHealthy: up,
      updatedAt: iso(h.ctx.clock.now()),
      message: up ? 'the workbench and its cluster are running' : `the workbench is ${state}`,
      details: [],
    },
  ];
  // A suspended workbench keeps its groups with no instances.
  if (state === 'suspend:finished' || state === 'resume:started')
    out.instanceGroups = groupsOf(rec).map((g) => ({ ...g, instanceCount: 0, instances: [] }));
  return out;
}

// ---- backups -------------------------------------------------------------------

/** The vault an environment's workbench backups are kept in. */
export const vaultOf = (environmentCrn: string): string => `ml-backup-vault-${hex(environmentCrn, 8)}`;

/** A new backup: of a workbench that is up and not being upgraded, named uniquely among its backups. */
export function creatingBackup(h: Hook, rec: EngineRecord, req: Doc): void {
  const ws = workbenches(h).get(text(req.workspaceCrn));
  workbenches(h).require(ws, [...WORKBENCH_READY, 'modify:started'], 'a backup');
  const name = text(req.backupName);
  if (backupsOf(h, ws.crn).some((b) => b.name?.toLowerCase() === name.toLowerCase()))
    throw alreadyExists(`workbench ${nameOf(ws)} already has a backup named ${name}`);
  if (typeof req.backupJobTimeoutMinutes === 'number' && req.backupJobTimeoutMinutes < 1)
    throw invalid('backupJobTimeoutMinutes must be at least 1');
  rec.name = name;
  Object.assign(rec.doc, {
    backupName: name,
    workspaceVersionAtBackup: ws.doc.version,
    instanceGroups: groupsOf(ws),
    isCrossNsBackup: false,
  });
  rec.data = {
    ...rec.data,
    workspaceCrn: ws.crn,
    workspaceName: ws.name,
    environmentName: ws.doc.environmentName,
    vaultName: vaultOf(ws.env ?? ''),
    ...(ws.data?.staticSubdomain ? { staticSubdomain: ws.data.staticSubdomain } : {}),
  };
}

/**
 * listWorkspaceBackups: the backups of a workbench named by CRN, or by
 * environment and name, including those of a workbench since deleted;
 * NOT_FOUND when there is no such workbench and never was.
 */
export function backupsOfRequest(h: Hook, req: Doc): EngineRecord[] {
  const crn = str(req.workspaceCrn);
  const env = str(req.environmentName)?.toLowerCase();
  const name = str(req.workspaceName)?.toLowerCase();
  const ws = crn ? workbenches(h).find(crn) : undefined;
  const found = backups(h)
    .all('')
    .filter((b) =>
      crn
        ? b.data?.workspaceCrn === crn
        : text(b.data?.environmentName).toLowerCase() === env && text(b.data?.workspaceName).toLowerCase() === name,
    );
  if (found.length > 0 || ws) return found;
  if (!crn && env && name) {
    // A workbench that exists and has no backups: an empty list (the engine's lookup says NOT_FOUND otherwise).
    h.engine.locate(h, h.engine.resource('workspace'), req);
    return [];
  }
  throw notFound(
    `workbench ${(crn ?? `${text(req.environmentName)}/${text(req.workspaceName)}`).slice(0, 200)} not found and has no backups`,
  );
}

/** A backup being taken cannot be deleted yet. */
export function deletingBackup(h: Hook, rec: EngineRecord): void {
  if (backups(h).state(rec) === 'backup:started') throw failedPrecondition(`backup ${nameOf(rec)} is still being taken`);
}
