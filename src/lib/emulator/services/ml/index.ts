/**
 * Cloudera AI (`ml`) on the resource engine. Workbenches (workspaces on the
 * wire) live in an environment, named by CRN or by environment and name;
 * their Kubernetes access grants and file-system replica are parts of them,
 * their backups outlive them. An environment has at most one AI registry
 * (model registry); AI inference services (ML serving apps) run on a
 * cluster they provision or on an existing compute cluster. Every
 * long-running change is a workflow with `<phase>:started|finished|failed`
 * statuses, the ones the CLI's waiters read; a `fail-` name makes them end
 * failed (deletes with `force` go through anyway). What the model cannot
 * say is in the files beside this one: the rules of each resource
 * (workbenches.ts, registries.ts), clusters and their instance groups
 * (clusters.ts), the fixed world (catalogue.ts), workflows (workflows.ts)
 * and the audit trail (audit.ts).
 */
import { requireEnvironment } from '../../environments.js';
import type { EngineRecord, Hook, ResourceSpec } from '../../engine/index.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import type { ActionSpec, Lifecycle } from '../../lifecycle.js';
import type { Doc, ServiceModule } from '../../types.js';
import { obj, text } from '../../values.js';
import { auditEvents, auditLogs, observe } from './audit.js';
import {
  READY,
  REGISTRY_READY,
  REGISTRY_RELEASES,
  SERVING_READY,
  WORKBENCH_READY,
  WORKBENCH_RELEASES,
  category,
  clusterExists,
  instanceDetails,
  instanceType,
  relevantInstances,
} from './catalogue.js';
import { cloudIdentity, environmentOf, kubeconfig } from './clusters.js';
import {
  APP_ACTIONS,
  APP_UPDATES,
  REGISTRY_ACTIONS,
  clusterName,
  creatingApp,
  creatingRegistry,
  registryOf,
  registryStorage,
  showApp,
} from './registries.js';
import {
  WORKBENCH_ACTIONS,
  WORKBENCH_UPDATES,
  backupsOfRequest,
  creatingBackup,
  creatingWorkbench,
  deletingBackup,
  requireInstalled,
  showWorkbench,
} from './workbenches.js';
import { cancelWorkflow, rolledBack, workflowId } from './workflows.js';

// ---- lifecycles --------------------------------------------------------------------

/** A workflow of one phase: `<phase>:started` for its minutes, then `<phase>:finished` or `<phase>:failed`. */
const workflow = (phase: string, minutes: number, from?: readonly string[]): ActionSpec => ({
  phases: [[`${phase}:started`, minutes]],
  success: `${phase}:finished`,
  failure: `${phase}:failed`,
  ...(from ? { from } : {}),
});

/** A new cluster is provisioned, then the application installed on it. */
const provision = (minutes: number): ActionSpec => ({
  phases: [
    ['provision:started', minutes / 2],
    ['installation:started', minutes / 2],
  ],
  success: READY,
  failure: 'installation:failed',
});

const deprovision: ActionSpec = { ...workflow('deprovision', 6), removes: true };
const UPGRADED = ['upgrade:finished', 'upgrade:failed', 'rollback:failed'];

const WORKBENCH: Lifecycle = {
  create: provision(18),
  restore: provision(24),
  delete: deprovision,
  suspend: workflow('suspend', 4, WORKBENCH_READY),
  resume: workflow('resume', 5, ['suspend:finished', 'resume:failed']),
  upgrade: workflow('upgrade', 12, [...WORKBENCH_READY, 'upgrade:failed', 'rollback:failed']),
  modify: workflow('modify', 4, WORKBENCH_READY),
  rollback: workflow('rollback', 8, UPGRADED),
  failover: workflow('failover', 5, WORKBENCH_READY),
};

const REGISTRY: Lifecycle = {
  create: provision(12),
  delete: deprovision,
  upgrade: workflow('upgrade', 8, [...REGISTRY_READY, 'upgrade:failed']),
  rollback: workflow('rollback', 6, UPGRADED),
};

const SERVING: Lifecycle = {
  create: provision(14),
  delete: deprovision,
  upgrade: workflow('upgrade', 8, [...SERVING_READY, 'upgrade:failed']),
  modify: workflow('modify', 4, SERVING_READY),
};

const BACKUP: Lifecycle = {
  create: workflow('backup', 6),
  delete: { phases: [['delete:started', 2]], success: 'delete:finished', failure: 'delete:failed', removes: true },
};

// ---- shared pieces --------------------------------------------------------------------

const MODIFY = { action: 'modify' } as const;

/** FAILED_PRECONDITION unless the cluster of a workbench, registry or inference service exists (installed, or suspended). */
function requireCluster(h: Hook, key: string, rec: EngineRecord, what: string): void {
  const state = h.resources(key).state(rec);
  if (!clusterExists(state)) throw failedPrecondition(`${rec.name ?? rec.id} is ${state}; ${what} needs its cluster`);
}

/** The kubeconfig of the cluster of a workbench, registry or inference service (for an identity granted access). */
function kubeconfigOf(h: Hook, key: string, rec: EngineRecord, identity?: string): string {
  requireCluster(h, key, rec, 'a kubeconfig');
  const cluster =
    key === 'workspace' ? text(rec.doc.k8sClusterName) : key === 'app' ? text(obj(rec.doc.cluster).clusterName) : clusterName(rec);
  return kubeconfig(environmentOf(h, rec), cluster, identity);
}

/** A grant request names its identity by `identifier` (or the older `arn`). */
const identity = (_h: Hook, req: Doc): Doc => ({ ...req, identifier: req.identifier ?? req.arn });

/** Kubernetes access to the cluster of `parent`: one grant per cloud identity, a part of the parent. */
function access(parent: string, noun: string): ResourceSpec {
  const owner = (h: Hook, rec: EngineRecord): EngineRecord => {
    const p = h.resources(parent).byId(rec.scope);
    if (!p) throw notFound(`the ${parent} of access grant ${rec.name ?? rec.id} no longer exists`);
    return p;
  };
  // Access is granted by the cluster's API server, which stays while a workbench is suspended.
  const requireUp = (h: Hook, rec: EngineRecord, what: string): EngineRecord => {
    const p = owner(h, rec);
    requireCluster(h, parent, p, what);
    return p;
  };
  return {
    parent,
    partOfParent: true,
    noun: 'access grant',
    nouns: [noun],
    keys: ['identifier'],
    shape: `Grant${noun}Request`,
    fields: { name: 'identifier' },
    verbs: { grant: 'create', revoke: 'delete' },
    ops: {
      [`grant${noun}`]: {
        verb: 'create',
        request: identity,
        answer: (h, rec) => ({ kubeconfig: kubeconfigOf(h, parent, owner(h, rec), rec.name) }),
      },
      [`revoke${noun}`]: { verb: 'delete', request: identity },
    },
    hooks: {
      creating: (h, rec) => {
        if (!rec.name) throw invalid('give identifier: the cloud identity to let in');
        cloudIdentity(environmentOf(h, requireUp(h, rec, 'a new access grant')), rec.name);
      },
      deleting: (h, rec) => void requireUp(h, rec, 'revoking access'),
    },
  };
}

/** The identities granted access to a record's cluster (its access resource's records). */
const grants =
  (key: string) =>
  (h: Hook, rec: EngineRecord): Doc => ({
    users: h
      .resources(key)
      .all(rec.id)
      .map((g) => g.name ?? g.id),
  });

/** restoreWorkspace gives the new workbench in `newWorkspaceParameters`. */
function newWorkbench(_h: Hook, req: Doc): Doc {
  if (typeof req.newWorkspaceParameters !== 'object' || req.newWorkspaceParameters === null)
    throw invalid('give newWorkspaceParameters: the new workbench, as `ml workspaces create` takes it');
  return { ...obj(req.newWorkspaceParameters), backupCrn: req.backupCrn, useStaticSubdomain: req.useStaticSubdomain };
}

// ---- the service ------------------------------------------------------------------------

const service: ServiceModule = {
  service: 'ml',
  observe,
  engine: {
    resources: {
      workspace: {
        noun: 'workbench',
        keys: ['workspaceCrn', 'workspaceName'],
        environment: ['environmentName'],
        crnType: 'workspace',
        fields: { name: 'instanceName', status: 'instanceStatus', statusReason: 'failureMessage' },
        lifecycle: WORKBENCH,
        follows: { stop: 'suspend', start: 'resume' },
        ops: {
          restoreWorkspace: { verb: 'create', action: 'restore', request: newWorkbench },
          addInstanceGroups: MODIFY,
          deleteInstanceGroup: MODIFY,
          modifyClusterInstanceGroup: MODIFY,
          failOverFileSystem: { action: 'failover' },
          requestWorkflowRollback: {
            verb: { action: 'rollback' },
            answer: (h, rec) => ({ workflowMetadata: rolledBack(h.resources('workspace'), rec) }),
          },
          modifyClusterSecurity: 'update',
          modifyWorkspaceLoadBalancer: 'update',
          refreshModelRegistryConfigmap: 'update',
          createFileReplica: 'update',
          deleteFileReplica: 'update',
          getKubeconfig: { verb: 'read', answer: (h, rec) => ({ kubeconfig: kubeconfigOf(h, 'workspace', rec) }) },
          listWorkspaceAccess: { verb: 'read', answer: grants('workspaceAccess') },
        },
        hooks: {
          creating: creatingWorkbench,
          updating: (h, rec, req) => {
            // The file system stays while a workbench is suspended; its network settings need it running.
            if (/FileReplica$/.test(h.ctx.op.name)) requireCluster(h, 'workspace', rec, h.ctx.op.name);
            else requireInstalled(h, rec, h.ctx.op.name);
            WORKBENCH_UPDATES[h.ctx.op.name]?.(h, rec, req);
          },
          acting: (h, rec, _action, req) => WORKBENCH_ACTIONS[h.ctx.op.name]?.(h, rec, req),
          viewing: showWorkbench,
        },
      },
      workspaceAccess: access('workspace', 'WorkspaceAccess'),
      // Backup names are unique per workbench, not per account: the record has no name field for the engine to check; creatingBackup does.
      workspaceBackup: {
        noun: 'backup',
        nouns: ['Backup', 'WorkspaceBackup'],
        keys: ['backupCrn'],
        shape: 'DescribeWorkspaceBackupResponse',
        crnType: 'workspace_backup',
        fields: { crn: 'backupCrn', status: 'backupStatus' },
        lifecycle: BACKUP,
        ops: {
          backupWorkspace: {
            verb: 'create',
            answer: (_h, rec) => ({ backupCrn: rec.crn, vaultName: rec.data?.vaultName, warnings: [] }),
          },
          listWorkspaceBackups: { verb: 'list', select: backupsOfRequest },
          deleteBackup: { verb: 'delete', answer: (_h, rec) => ({ workflowId: workflowId(rec, 'delete', rec.activity.tl.startedAt) }) },
        },
        hooks: { creating: creatingBackup, deleting: deletingBackup },
      },
      modelRegistry: {
        noun: 'model registry',
        keys: ['modelRegistryCrn', 'crn', 'resourceCrn'],
        environment: ['environmentCrn', 'environmentName'],
        crnType: 'modelregistry',
        fields: { name: 'serviceName' },
        lifecycle: REGISTRY,
        ops: {
          // The older form names the registry by its environment's CRN (`id`).
          deleteModelRegistry: { verb: 'delete', environment: ['id'] },
          rollbackModelRegistryUpgrade: { action: 'rollback' },
          getModelRegistryKubeconfig: { verb: 'read', answer: (h, rec) => ({ kubeConfig: kubeconfigOf(h, 'modelRegistry', rec) }) },
          listModelRegistryAccess: { verb: 'read', answer: grants('modelRegistryAccess') },
        },
        hooks: {
          creating: creatingRegistry,
          acting: (h, rec, _action, req) => REGISTRY_ACTIONS[h.ctx.op.name]?.(h, rec, req),
        },
      },
      modelRegistryAccess: access('modelRegistry', 'ModelRegistryAccess'),
      app: {
        noun: 'inference service',
        nouns: ['MlServingApp'],
        keys: ['appCrn', 'resourceCrn'],
        environment: ['environmentCrn'],
        crnType: 'mlserving',
        lifecycle: SERVING,
        ops: {
          addInstanceGroupsMlServingApp: MODIFY,
          deleteInstanceGroupMlServingApp: MODIFY,
          modifyMlServingApp: MODIFY,
          refreshAiInference: 'update',
          updateMlServingAppS3Creds: 'update',
          getMlServingAppKubeconfig: { verb: 'read', answer: (h, rec) => ({ kubeconfig: kubeconfigOf(h, 'app', rec) }) },
          fetchAiRegistriesStorageConfig: { verb: 'read', answer: registryStorage },
          listMlServingAppAccess: { verb: 'read', answer: grants('mlServingAppAccess') },
        },
        hooks: {
          creating: creatingApp,
          updating: (h, rec, req) => {
            h.resources('app').require(rec, SERVING_READY, h.ctx.op.name);
            APP_UPDATES[h.ctx.op.name]?.(h, rec, req);
          },
          acting: (h, rec, _action, req) => APP_ACTIONS[h.ctx.op.name]?.(h, rec, req),
          viewing: showApp,
        },
      },
      mlServingAppAccess: access('app', 'MlServingAppAccess'),
    },
    handlers: {
      getLatestWorkspaceVersion: () => ({ version: WORKBENCH_RELEASES.latest }),
      getLatestModelRegistryVersion: () => ({ version: REGISTRY_RELEASES.latest }),
      listRelevantInstances: (h, req) => {
        const env = requireEnvironment(h.ctx, text(req.environmentName));
        return {
          instanceDetails: relevantInstances(env.cloudPlatform, category(req.instanceCategory), obj(req.requestInfo)).map(instanceDetails),
        };
      },
      listInstanceTypeConfiguration: (h, req) => {
        const env = requireEnvironment(h.ctx, text(req.environmentName));
        const wanted = category(req.instanceCategory);
        const t = instanceType(env.cloudPlatform, text(req.instanceType));
        if (!t || t.category !== wanted)
          throw notFound(
            `${env.cloudPlatform} has no ${wanted} instance type ${text(req.instanceType)} for environment ${env.environmentName}`,
          );
        return { instanceDetails: [instanceDetails(t)] };
      },
      getAuditEvents: auditEvents,
      getLogs: auditLogs,
      requestWorkflowCancellation: cancelWorkflow,
      refreshAiRegistry: (h, req) => {
        const registries = h.resources('modelRegistry');
        const registry = registryOf(h, text(req.workspaceCrn));
        registries.require(registry, REGISTRY_READY, 'a certificate refresh');
        registry.data = { ...registry.data, trustRefreshedAt: h.ctx.clock.now() };
        registries.save(registry);
        return {};
      },
    },
  },
};

export default service;
