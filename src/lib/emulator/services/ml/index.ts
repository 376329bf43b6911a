/**
 * Cloudera AI (`ml`) on the operation table. Workbenches (workspaces on the
 * wire) live in an environment, named by CRN or by environment and name;
 * their Kubernetes access grants are parts of them, their backups outlive
 * them. An environment has at most one AI registry (model registry); AI
 * inference services (ML serving apps) run on a cluster they provision or
 * on an existing compute cluster. Their states are the model's
 * (model/services/ml/resources.ts): every long-running change is a
 * workflow with `<phase>:started|finished|failed` statuses, the ones the
 * CLI's waiters read; a `fail-` name makes them end failed (deletes with
 * `force` go through anyway). What the model cannot say is in the files
 * beside this one: the rules of each resource (workbenches.ts,
 * registries.ts), clusters, their instance groups, kubeconfigs and access
 * grants (clusters.ts), the fixed world (catalogue.ts), and workflows and
 * the audit trail (audit.ts).
 */
import type { OperationName } from '../../../model/services/ml/wire.js';
import { resources } from '../../../model/services/ml/resources.js';
import { code, defineService, fixed } from '../../engine/table.js';
import { getAuditEvents, getLogs, observe, requestWorkflowCancellation, rolledBack } from './audit.js';
import { REGISTRY_RELEASES, WORKBENCH_RELEASES, relevantTypes, typeNamed } from './catalogue.js';
import * as ai from './registries.js';
import * as wb from './workbenches.js';
import { access, grantAnswer, grantees, identityOf, kubeconfigAnswer } from './clusters.js';

export default defineService<OperationName>()({
  service: 'ml',
  facts: resources,
  observe,
  resources: {
    workspace: {
      noun: 'workbench',
      keys: ['workspaceCrn', 'workspaceName'],
      lives: { in: 'environment', by: ['environmentName'] },
      // A new cluster (a workbench's, a registry's, an inference service's) takes as long to provision as to install.
      minutes: { create: [9, 9], restore: [12, 12], delete: 6, suspend: 4, resume: 5, upgrade: 12, modify: 4, rollback: 8, failover: 5 },
      withEnvironment: { stop: 'suspend', start: 'resume' },
      hooks: {
        check: { create: wb.checkWorkbench, update: wb.checkWorkbenchUpdate },
        fill: wb.fillWorkbench,
        show: wb.showWorkbench,
        effect: wb.WORKBENCH_EFFECTS,
        keep: wb.WORKBENCH_KEEPS,
      },
    },
    workspaceAccess: access('workspace'),
    // Backup names are unique per workbench, not per account: wb.checkBackup checks them.
    workspaceBackup: {
      noun: 'backup',
      keys: ['backupCrn'],
      names: 'repeat',
      minutes: { create: 6, delete: 2 },
      hooks: { check: { create: wb.checkBackup, delete: wb.checkBackupDelete }, fill: wb.fillBackup },
    },
    modelRegistry: {
      noun: 'model registry',
      keys: ['modelRegistryCrn', 'crn', 'resourceCrn'],
      lives: { in: 'environment', by: ['environmentCrn', 'environmentName'] },
      // An environment has one registry (ai.checkRegistry says so), so its name needs no check of its own.
      names: 'repeat',
      minutes: { create: [6, 6], delete: 6, upgrade: 8, rollback: 6 },
      hooks: {
        check: { create: ai.checkRegistry, update: ai.checkRegistryUpdate },
        fill: ai.fillRegistry,
        effect: ai.REGISTRY_EFFECTS,
        keep: { upgrade: wb.versionBefore },
      },
    },
    modelRegistryAccess: access('modelRegistry'),
    app: {
      noun: 'inference service',
      keys: ['appCrn', 'resourceCrn'],
      lives: { in: 'environment', by: ['environmentCrn'] },
      minutes: { create: [7, 7], delete: 6, upgrade: 8, modify: 4 },
      hooks: {
        check: { create: ai.checkApp, update: ai.checkAppUpdate },
        fill: ai.fillApp,
        show: ai.showApp,
        effect: ai.APP_EFFECTS,
        keep: { update: ai.keepCredentials },
      },
    },
    mlServingAppAccess: access('app'),
    // The instance types of a cloud: the catalogue's (catalogue.ts), chosen by each list; none is kept.
    instanceType: { noun: 'instance type', keys: ['instanceType'] },
  },
  operations: (r) => ({
    // Workbenches.
    createWorkspace: r.workspace.create(),
    restoreWorkspace: r.workspace.create({ action: 'restore', rewrite: wb.restoreRequest }),
    describeWorkspace: r.workspace.read(),
    listWorkspaces: r.workspace.list(),
    deleteWorkspace: r.workspace.delete(),
    suspendWorkspace: r.workspace.act('suspend'),
    resumeWorkspace: r.workspace.act('resume'),
    upgradeWorkspace: r.workspace.act('upgrade'),
    requestWorkflowRollback: r.workspace.act('rollback', { answer: rolledBack }),
    addInstanceGroups: r.workspace.act('modify'),
    deleteInstanceGroup: r.workspace.act('modify'),
    modifyClusterInstanceGroup: r.workspace.act('modify'),
    failOverFileSystem: r.workspace.act('failover'),
    modifyClusterSecurity: r.workspace.update({ rewrite: wb.securityRequest }),
    modifyWorkspaceLoadBalancer: r.workspace.update({ rewrite: wb.loadBalancerRequest }),
    refreshModelRegistryConfigmap: r.workspace.update(),
    createFileReplica: r.workspace.update(),
    deleteFileReplica: r.workspace.update(),
    getKubeconfig: r.workspace.read({ answer: kubeconfigAnswer('workspace') }),
    getLatestWorkspaceVersion: fixed({ version: WORKBENCH_RELEASES.latest }),
    grantWorkspaceAccess: r.workspaceAccess.create({ rewrite: identityOf, answer: grantAnswer('workspace') }),
    revokeWorkspaceAccess: r.workspaceAccess.delete({ rewrite: identityOf }),
    listWorkspaceAccess: r.workspace.read({ answer: grantees('workspace') }),
    // Backups.
    backupWorkspace: r.workspaceBackup.create({ rewrite: wb.backupRequest, answer: wb.backupTaken }),
    describeWorkspaceBackup: r.workspaceBackup.read(),
    listWorkspaceBackups: r.workspaceBackup.list({ select: wb.backupsOfRequest }),
    deleteBackup: r.workspaceBackup.delete({ answer: wb.backupDeletion }),
    // AI registries.
    createModelRegistry: r.modelRegistry.create({ rewrite: ai.registryName }),
    describeModelRegistry: r.modelRegistry.read(),
    listModelRegistries: r.modelRegistry.list(),
    // The older form names the registry by its environment's CRN (`id`).
    deleteModelRegistry: r.modelRegistry.delete({ environment: ['id'] }),
    upgradeModelRegistry: r.modelRegistry.act('upgrade'),
    rollbackModelRegistryUpgrade: r.modelRegistry.act('rollback'),
    refreshAiRegistry: r.modelRegistry.update({ rewrite: ai.registryOf }),
    getModelRegistryKubeconfig: r.modelRegistry.read({ answer: kubeconfigAnswer('modelRegistry', 'kubeConfig') }),
    getLatestModelRegistryVersion: fixed({ version: REGISTRY_RELEASES.latest }),
    grantModelRegistryAccess: r.modelRegistryAccess.create({ rewrite: identityOf, answer: grantAnswer('modelRegistry') }),
    revokeModelRegistryAccess: r.modelRegistryAccess.delete({ rewrite: identityOf }),
    listModelRegistryAccess: r.modelRegistry.read({ answer: grantees('modelRegistry') }),
    // AI inference services.
    createMlServingApp: r.app.create(),
    describeMlServingApp: r.app.read(),
    listMlServingApps: r.app.list(),
    deleteMlServingApp: r.app.delete(),
    upgradeMlServingApp: r.app.act('upgrade'),
    addInstanceGroupsMlServingApp: r.app.act('modify'),
    deleteInstanceGroupMlServingApp: r.app.act('modify'),
    modifyMlServingApp: r.app.act('modify'),
    refreshAiInference: r.app.update(),
    updateMlServingAppS3Creds: r.app.update(),
    getMlServingAppKubeconfig: r.app.read({ answer: kubeconfigAnswer('app') }),
    fetchAiRegistriesStorageConfig: r.app.read({ answer: ai.registryStorage }),
    grantMlServingAppAccess: r.mlServingAppAccess.create({ rewrite: identityOf, answer: grantAnswer('app') }),
    revokeMlServingAppAccess: r.mlServingAppAccess.delete({ rewrite: identityOf }),
    listMlServingAppAccess: r.app.read({ answer: grantees('app') }),
    // Instance types of the environment's cloud.
    listRelevantInstances: r.instanceType.list({ select: relevantTypes }),
    listInstanceTypeConfiguration: r.instanceType.list({ select: typeNamed }),
    // Workflows and the audit trail: across resources.
    requestWorkflowCancellation: code(requestWorkflowCancellation),
    getAuditEvents: code(getAuditEvents),
    getLogs: code(getLogs),
  }),
});
