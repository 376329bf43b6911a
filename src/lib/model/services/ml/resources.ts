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
 * workbench's upgrade type. ml is not on the operation table: these are data
 * the emulator does not read yet (its spec declares the same states);
 * checked against the wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

export const resources = {
  resources: {
    workspace: {
      shape: 'Workspace',
      fields: { name: 'instanceName', status: 'instanceStatus', statusReason: 'failureMessage' },
      crnType: 'workspace',
      // Parts of a workbench that end while it stays: an instance group (gone from its instanceGroups), its file-system replica.
      deletedBy: { deleteInstanceGroup: 'held', deleteFileReplica: 'held' },
      lifecycle: {
        create: {
          through: ['provision:started', 'installation:started'],
          success: 'installation:finished',
          failure: 'installation:failed',
        },
        restore: {
          through: ['provision:started', 'installation:started'],
          success: 'installation:finished',
          failure: 'installation:failed',
        },
        delete: { through: ['deprovision:started'], success: 'deprovision:finished', failure: 'deprovision:failed' },
        suspend: {
          through: ['suspend:started'],
          success: 'suspend:finished',
          failure: 'suspend:failed',
          from: [
            'installation:finished',
            'modify:finished',
            'modify:failed',
            'upgrade:finished',
            'resume:finished',
            'rollback:finished',
            'failover:finished',
            'failover:failed',
            'suspend:failed',
          ],
        },
        resume: {
          through: ['resume:started'],
          success: 'resume:finished',
          failure: 'resume:failed',
          from: ['suspend:finished', 'resume:failed'],
        },
        upgrade: {
          through: ['upgrade:started'],
          success: 'upgrade:finished',
          failure: 'upgrade:failed',
          from: [
            'installation:finished',
            'modify:finished',
            'modify:failed',
            'upgrade:finished',
            'resume:finished',
            'rollback:finished',
            'failover:finished',
            'failover:failed',
            'suspend:failed',
            'upgrade:failed',
            'rollback:failed',
          ],
        },
        modify: {
          through: ['modify:started'],
          success: 'modify:finished',
          failure: 'modify:failed',
          from: [
            'installation:finished',
            'modify:finished',
            'modify:failed',
            'upgrade:finished',
            'resume:finished',
            'rollback:finished',
            'failover:finished',
            'failover:failed',
            'suspend:failed',
          ],
        },
        rollback: {
          through: ['rollback:started'],
          success: 'rollback:finished',
          failure: 'rollback:failed',
          from: ['upgrade:finished', 'upgrade:failed', 'rollback:failed'],
        },
        failover: {
          through: ['failover:started'],
          success: 'failover:finished',
          failure: 'failover:failed',
          from: [
            'installation:finished',
            'modify:finished',
            'modify:failed',
            'upgrade:finished',
            'resume:finished',
            'rollback:finished',
            'failover:finished',
            'failover:failed',
            'suspend:failed',
          ],
        },
      },
      deleted: { ends: 'gone' },
      values: { upgradeType: ['Inplace', 'RestoreBased'] },
    },
    workspaceAccess: {
      shape: 'GrantWorkspaceAccessRequest',
      deleted: { ends: 'gone' },
    },
    workspaceBackup: {
      shape: 'DescribeWorkspaceBackupResponse',
      fields: { crn: 'backupCrn', status: 'backupStatus' },
      crnType: 'workspace_backup',
      lifecycle: {
        create: { through: ['backup:started'], success: 'backup:finished', failure: 'backup:failed' },
        delete: { through: ['delete:started'], success: 'delete:finished', failure: 'delete:failed' },
      },
      deleted: { ends: 'gone' },
    },
    modelRegistry: {
      shape: 'ModelRegistry',
      crnType: 'modelregistry',
      lifecycle: {
        create: {
          through: ['provision:started', 'installation:started'],
          success: 'installation:finished',
          failure: 'installation:failed',
        },
        delete: { through: ['deprovision:started'], success: 'deprovision:finished', failure: 'deprovision:failed' },
        upgrade: {
          through: ['upgrade:started'],
          success: 'upgrade:finished',
          failure: 'upgrade:failed',
          from: ['installation:finished', 'upgrade:finished', 'rollback:finished', 'upgrade:failed'],
        },
        rollback: {
          through: ['rollback:started'],
          success: 'rollback:finished',
          failure: 'rollback:failed',
          from: ['upgrade:finished', 'upgrade:failed', 'rollback:failed'],
        },
      },
      deleted: { ends: 'gone' },
    },
    modelRegistryAccess: {
      shape: 'GrantModelRegistryAccessRequest',
      deleted: { ends: 'gone' },
    },
    app: {
      shape: 'MlServingApp',
      crnType: 'mlserving',
      // An instance group of its cluster, gone from its instanceGroups while it stays.
      deletedBy: { deleteInstanceGroupMlServingApp: 'held' },
      lifecycle: {
        create: {
          through: ['provision:started', 'installation:started'],
          success: 'installation:finished',
          failure: 'installation:failed',
        },
        delete: { through: ['deprovision:started'], success: 'deprovision:finished', failure: 'deprovision:failed' },
        upgrade: {
          through: ['upgrade:started'],
          success: 'upgrade:finished',
          failure: 'upgrade:failed',
          from: ['installation:finished', 'upgrade:finished', 'modify:finished', 'modify:failed', 'upgrade:failed'],
        },
        modify: {
          through: ['modify:started'],
          success: 'modify:finished',
          failure: 'modify:failed',
          from: ['installation:finished', 'upgrade:finished', 'modify:finished', 'modify:failed'],
        },
      },
      deleted: { ends: 'gone' },
    },
    mlServingAppAccess: {
      shape: 'GrantMlServingAppAccessRequest',
      deleted: { ends: 'gone' },
    },
  },
} as const satisfies ServiceResources;
