/**
 * Cloudera Data Engineering on the resource engine. A service (its id is the
 * `clusterId`) is enabled in an environment with a running data lake;
 * virtual clusters live in their service and go with it when it is disabled.
 * Backups keep a service's settings and virtual clusters, and a service is
 * restored from one into the environment it came from. The engine serves
 * the standard verbs from the records and the lifecycles below; written here
 * are the rules from the service's descriptions, what a service and a
 * virtual cluster show (endpoints, resources, access), logs read off the
 * clock, the kubeconfig, the upgrade in steps and suspend/resume progress.
 */
import { resources } from '../../../model/services/de/resources.js';
import type { ServiceModule } from '../../types.js';
import { paged } from '../../paging.js';
import { str } from '../../values.js';
import * as backups from './backups.js';
import { shortId } from './common.js';
import * as service from './service.js';
import { upgradeStatus, upgradeStep } from './upgrade.js';
import * as vcs from './vcs.js';

const de: ServiceModule = {
  service: 'de',
  engine: {
    facts: resources,
    resources: {
      cluster: {
        noun: 'Data Engineering service',
        nouns: ['Service'],
        keys: ['clusterId'],
        environment: ['env'],
        // Emulated minutes of each action's states (the states are the model's facts).
        minutes: { create: [2, 14], restore: [4, 14], upgrade: 12, delete: 6 },
        verbs: { enable: 'create', disable: 'delete' },
        newId: () => shortId('cluster'),
        cascades: true,
        ops: {
          restoreService: {
            verb: 'create',
            environment: ['environmentCrn'],
            action: 'restore',
            answer: (_h, rec) => ({ serviceID: rec.id }),
          },
          getKubeconfig: { verb: 'read', answer: service.kubeconfig },
          getServiceInitLogs: {
            verb: 'read',
            keys: ['serviceID'],
            answer: (h, rec, req) => paged(h.ctx, req, service.initLogLines(h, rec)),
          },
          getUpgradeStatus: { verb: 'read', answer: upgradeStatus },
        },
        hooks: {
          creating: (h, rec, req) =>
            req.backupID !== undefined ? backups.restoring(h, rec, req) : service.makeService(h, rec, req, 'a Data Engineering service'),
          updating: service.updating,
          deleting: service.deleting,
        },
      },
      vc: {
        noun: 'virtual cluster',
        parent: 'cluster',
        keys: ['vcId'],
        minutes: { create: 4, restore: 18, suspend: 2, resume: 3, delete: [1, 2] },
        newId: () => shortId('dex-app'),
        hooks: { creating: vcs.creating, updating: vcs.updating },
      },
      backup: {
        keys: ['backupID'],
        minutes: { create: [1, 4], cancel: 0 },
        // A backup has no name: one whose description starts with `fail-` fails.
        subject: (rec) => str(rec.doc.description),
        ops: {
          listBackups: { verb: 'list', select: backups.select },
          getBackupLogs: { verb: 'read', answer: backups.logs },
        },
        hooks: { creating: backups.creating, deleting: backups.deleting },
      },
    },
    handlers: {
      upgradeService: upgradeStep,
      suspendVc: (h, req) => vcs.suspendOrResume(h, req, 'suspend'),
      resumeVc: (h, req) => vcs.suspendOrResume(h, req, 'resume'),
      getSuspendResumeStatus: vcs.suspendResumeStatus,
    },
  },
};

export default de;
