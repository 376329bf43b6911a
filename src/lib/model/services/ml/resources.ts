/**
 * What the API says of ml's resources (the format: ../../resources.ts):
 * workbenches, model registries and inference services (ML serving apps)
 * pass through `<action>:started` and end `<action>:finished` or
 * `<action>:failed` (the states cdpy and the Ansible collection poll for;
 * status is a free string); backups `backup:*` and `delete:*`. Every delete
 * is gone: describe answers NOT_FOUND once it is over (the
 * `deprovision:finished` it ends in is never shown), and revoking access
 * removes the grant. CRN types as the emulator mints them (the audit found
 * workspace and mlserving right, modelregistry unverified, and
 * workspace_backup doubtful: Crn.java has backup). Fixed values: a
 * workbench's upgrade type. The emulator serves ml from these (its operation
 * table adds each action's emulated minutes); its rules read the states a
 * workbench serves in from here too. Checked against the wire by
 * test/unit/model/resource-facts.test.ts.
 */
import type { ActionFacts, ServiceResources } from '../../resources.js';

/** The states a workbench serves its users in and may take on new work from (the emulator reads these three lists too). */
export const WORKBENCH_SERVING = [
  'installation:finished',
  'modify:finished',
  'modify:failed',
  'upgrade:finished',
  'resume:finished',
  'rollback:finished',
  'failover:finished',
  'failover:failed',
  'suspend:failed',
] as const;

/** The states an AI registry serves in (a certificate refresh needs one of them; an upgrade begins in them). */
export const REGISTRY_SERVING = ['installation:finished', 'upgrade:finished', 'rollback:finished'] as const;

/** The states an inference service serves in and may take on new work from (its changes begin in them). */
export const APP_SERVING = ['installation:finished', 'upgrade:finished', 'modify:finished', 'modify:failed'] as const;

/** An action that passes through `<action>:started` and ends `<action>:finished` or `<action>:failed`. */
const phase = (action: string, from?: readonly string[]): ActionFacts => ({
  through: [`${action}:started`],
  success: `${action}:finished`,
  failure: `${action}:failed`,
  ...(from ? { from } : {}),
});

/** A create (or a restore): provisioned, then installed. */
const INSTALLATION: ActionFacts = {
  through: ['provision:started', 'installation:started'],
  success: 'installation:finished',
  failure: 'installation:failed',
};

export const resources = {
  resources: {
    workspace: {
      shape: 'Workspace',
      fields: { name: 'instanceName', status: 'instanceStatus', statusReason: 'failureMessage' },
      crnType: 'workspace',
      // Parts of a workbench that end while it stays: an instance group (gone from its instanceGroups), its file-system replica.
      deletedBy: { deleteInstanceGroup: 'held', deleteFileReplica: 'held' },
      lifecycle: {
        create: INSTALLATION,
        restore: INSTALLATION,
        delete: phase('deprovision'),
        suspend: phase('suspend', WORKBENCH_SERVING),
        resume: phase('resume', ['suspend:finished', 'resume:failed']),
        upgrade: phase('upgrade', [...WORKBENCH_SERVING, 'upgrade:failed', 'rollback:failed']),
        modify: phase('modify', WORKBENCH_SERVING),
        rollback: phase('rollback', ['upgrade:finished', 'upgrade:failed', 'rollback:failed']),
        failover: phase('failover', WORKBENCH_SERVING),
      },
      deleted: { ends: 'gone' },
      values: { upgradeType: ['Inplace', 'RestoreBased'] },
    },
    workspaceAccess: {
      shape: 'GrantWorkspaceAccessRequest',
      // A grant is named by the cloud identity it lets in.
      fields: { name: 'identifier' },
      deleted: { ends: 'gone' },
    },
    workspaceBackup: {
      shape: 'DescribeWorkspaceBackupResponse',
      fields: { crn: 'backupCrn', name: 'backupName', status: 'backupStatus' },
      crnType: 'workspace_backup',
      lifecycle: {
        create: phase('backup'),
        delete: phase('delete'),
      },
      deleted: { ends: 'gone' },
    },
    modelRegistry: {
      shape: 'ModelRegistry',
      // Named by its namespace (the service name the registry is deployed as).
      fields: { name: 'serviceName' },
      crnType: 'modelregistry',
      lifecycle: {
        create: INSTALLATION,
        delete: phase('deprovision'),
        upgrade: phase('upgrade', [...REGISTRY_SERVING, 'upgrade:failed']),
        rollback: phase('rollback', ['upgrade:finished', 'upgrade:failed', 'rollback:failed']),
      },
      deleted: { ends: 'gone' },
    },
    modelRegistryAccess: {
      shape: 'GrantModelRegistryAccessRequest',
      fields: { name: 'identifier' },
      deleted: { ends: 'gone' },
    },
    app: {
      shape: 'MlServingApp',
      crnType: 'mlserving',
      // An instance group of its cluster, gone from its instanceGroups while it stays.
      deletedBy: { deleteInstanceGroupMlServingApp: 'held' },
      lifecycle: {
        create: INSTALLATION,
        delete: phase('deprovision'),
        upgrade: phase('upgrade', [...APP_SERVING, 'upgrade:failed']),
        modify: phase('modify', APP_SERVING),
      },
      deleted: { ends: 'gone' },
    },
    mlServingAppAccess: {
      shape: 'GrantMlServingAppAccessRequest',
      fields: { name: 'identifier' },
      deleted: { ends: 'gone' },
    },
    // The instance types a cloud offers: a catalogue, listed, never made or deleted.
    instanceType: { shape: 'InstanceDetails' },
  },
} as const satisfies ServiceResources;
