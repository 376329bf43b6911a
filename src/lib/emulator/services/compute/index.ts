/**
 * Compute clusters on the operation table: Kubernetes clusters of an AWS or
 * Azure environment, created after validations, suspended, resumed,
 * updated and upgraded with a workflow operation each (operations.ts), with
 * the add-ons they run (deployments.ts). Their states are the model's
 * (model/services/compute/resources.ts); a deleted cluster stays listed as
 * DELETED and frees its name. What the model cannot say is clusters.ts.
 */
import type { OperationName } from '../../../model/services/compute/wire.js';
import { resources } from '../../../model/services/compute/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { code, defineService } from '../../engine/table.js';
import { obj } from '../../values.js';
import {
  checkDelete,
  checkUpdate,
  checkUpgrade,
  computeEnvironment,
  createCluster,
  started,
  fillCluster,
  showCluster,
  upgradesOf,
  validateCluster,
  type R,
} from './clusters.js';
import { describeDeployment, listDeployments, upgradeDeployment } from './deployments.js';
import { byRun, operationDetails, operationStatus, retryOperation, upgradeCluster } from './operations.js';
import { computeClusters } from './provides.js';

const refreshOrUpdate = (req: Doc): string =>
  obj(req.spec).refreshInstanceGroups === true ? 'refreshing instance groups' : 'updating the cluster';
const forcedOrDeleting = (req: Doc): string =>
  req.force === true ? 'force-deleted; cloud resources were not cleaned up' : 'cluster deletion started';

/** `--default`: the account's default cluster, which no emulated cluster is. */
const defaultOnly = (_h: Hook<R>, req: Doc): Doc => (req.default === true ? { ...req, isDefault: true } : req);

export default defineService<OperationName>()({
  service: 'compute',
  facts: resources,
  resources: {
    cluster: {
      noun: 'compute cluster',
      keys: ['clusterCrn'],
      lives: { in: 'environment', by: ['environment'] },
      ids: { style: 'short', prefix: 'liftie', chars: 'hex' },
      minutes: { create: 10, delete: 5, suspend: 3, resume: 4, update: 2, upgrade: 8 },
      deletes: { force: ['force'], forcedAtOnce: true },
      // The environment's delete, stop and start do not reach its compute clusters (they are none of its dependents).
      withEnvironment: 'part',
      hooks: {
        check: {
          create: (h, rec) => void computeEnvironment(h, String(rec.env)),
          update: checkUpdate,
          upgrade: checkUpgrade,
          delete: checkDelete,
        },
        fill: fillCluster,
        show: showCluster,
        effect: { upgrade: (_h, rec) => ({ kubernetesVersion: upgradesOf(rec)[0] }) },
      },
    },
  },
  operations: (r) => ({
    createCluster: code(createCluster),
    validateCluster: code(validateCluster),
    describeCluster: r.cluster.read(),
    listClusters: r.cluster.list({ environment: ['envNameOrCrn'], rewrite: defaultOnly }),
    updateCluster: r.cluster.update({ answer: started(refreshOrUpdate) }),
    deleteCluster: r.cluster.delete({ answer: started(forcedOrDeleting) }),
    suspendCluster: r.cluster.act('suspend', { answer: started('suspending the cluster') }),
    resumeCluster: r.cluster.act('resume', { answer: started('resuming the cluster') }),
    upgradeCluster: code(upgradeCluster),
    getOperationStatus: r.cluster.operation({ answer: operationStatus }),
    getOperationDetails: r.cluster.operation({ rewrite: byRun, answer: operationDetails }),
    retryOperation: code(retryOperation),
    listDeployments: r.cluster.read({ answer: listDeployments }),
    describeDeployment: r.cluster.read({ answer: describeDeployment }),
    upgradeDeployment: code(upgradeDeployment),
  }),
  provides: { computeClusters },
});
