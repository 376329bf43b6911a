/**
 * Cloudera Data Engineering on the operation table. A service (its id is the
 * `clusterId`) is enabled in an environment with a running data lake;
 * virtual clusters live in their service and go with it when it is disabled.
 * Their states and how their deletes end are the model's
 * (model/services/de/resources.ts): a disabled service stays listed as
 * ClusterDeletionCompleted (hidden by removeDeleted), a deleted virtual
 * cluster as AppDeleted, each for a day. Backups keep a service's settings
 * and virtual clusters, and a service is restored from one into the
 * environment it came from. Written here: the rules from the service's
 * descriptions, what a service and a virtual cluster show (endpoints,
 * resources, access), logs read off the clock, the kubeconfig, the upgrade
 * in steps and suspend/resume progress.
 */
import type { OperationName } from '../../../model/services/de/wire.js';
import { resources } from '../../../model/services/de/resources.js';
import { code, defineService } from '../../engine/table.js';
import { backupLogs, checkBackup, checkBackupDelete, fillBackup, keepRestorable, restoreService, selectBackups } from './backups.js';
import { checkDisable, checkService, getKubeconfig, initLogs, keepSettings, serviceFieldsOf, updateService } from './service.js';
import { upgradeService, upgradeStatus } from './upgrade.js';
import { checkServiceUp, checkVc, fillVc, resumeVc, suspendResumeStatus, suspendVc, updateVc } from './vcs.js';

const WHAT = 'a Data Engineering service';

export default defineService<OperationName>()({
  service: 'de',
  facts: resources,
  resources: {
    cluster: {
      noun: 'Data Engineering service',
      keys: ['clusterId'],
      lives: { in: 'environment', by: ['env'] },
      ids: { style: 'short', prefix: 'cluster' },
      minutes: { create: [2, 14], restore: [4, 14], upgrade: 12, delete: 6 },
      deletes: { cascades: true },
      hooks: {
        check: { create: (h, rec, req) => checkService(h, rec, req, WHAT), update: updateService, delete: checkDisable },
        fill: (h, rec, req) => serviceFieldsOf(h, rec, req, WHAT),
        keep: { update: keepSettings },
      },
    },
    vc: {
      noun: 'virtual cluster',
      keys: ['vcId'],
      lives: { in: 'parent', parent: 'cluster' },
      ids: { style: 'short', prefix: 'dex-app' },
      minutes: { create: 4, restore: 18, suspend: 2, resume: 3, delete: [1, 2] },
      hooks: {
        check: {
          create: checkVc,
          suspend: (h, rec) => checkServiceUp(h, rec, 'suspend'),
          resume: (h, rec) => checkServiceUp(h, rec, 'resume'),
          update: updateVc,
        },
        fill: fillVc,
      },
    },
    backup: {
      keys: ['backupID'],
      // A backup has no name: one whose description starts with `fail-` fails.
      failsBy: 'doc.description',
      minutes: { create: [1, 4], cancel: 0 },
      hooks: { check: { create: checkBackup, delete: checkBackupDelete }, fill: fillBackup, keep: { create: keepRestorable } },
    },
  },
  operations: (r) => ({
    enableService: r.cluster.create(),
    describeService: r.cluster.read(),
    listServices: r.cluster.list(),
    updateService: r.cluster.update({ answer: (h, rec) => ({ status: h.records('cluster').state(rec) }) }),
    disableService: r.cluster.delete(),
    restoreService: code(restoreService),
    upgradeService: code(upgradeService),
    getUpgradeStatus: r.cluster.read({ answer: upgradeStatus }),
    getKubeconfig: r.cluster.read({ answer: getKubeconfig }),
    getServiceInitLogs: r.cluster.read({ keys: ['serviceID'], answer: initLogs }),
    getSuspendResumeStatus: r.cluster.read({ answer: suspendResumeStatus }),
    createVc: r.vc.create(),
    describeVc: r.vc.read(),
    listVcs: r.vc.list(),
    updateVc: r.vc.update(),
    deleteVc: r.vc.delete(),
    suspendVc: code(suspendVc),
    resumeVc: code(resumeVc),
    createBackup: r.backup.create(),
    describeBackup: r.backup.read(),
    listBackups: r.backup.list({ select: selectBackups }),
    cancelBackup: r.backup.act('cancel'),
    deleteBackup: r.backup.delete(),
    getBackupLogs: r.backup.read({ answer: backupLogs }),
  }),
});
