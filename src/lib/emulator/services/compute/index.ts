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
import * as clusters from './clusters.js';
import type { R } from './clusters.js';
import * as deployments from './deployments.js';
import * as ops from './operations.js';
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
          create: (h, rec) => void clusters.computeEnvironment(h, String(rec.env)),
          update: clusters.checkUpdate,
          upgrade: clusters.checkUpgrade,
          delete: clusters.checkDelete,
        },
        fill: clusters.fillCluster,
        show: clusters.showCluster,
        effect: { upgrade: (_h, rec) => ({ kubernetesVersion: clusters.upgradesOf(rec)[0] }) },
      },
    },
  },
  operations: (r) => ({
    createCluster: code(clusters.createCluster),
    validateCluster: code(clusters.validateCluster),
    describeCluster: r.cluster.read(),
    listClusters: r.cluster.list({ environment: ['envNameOrCrn'], rewrite: defaultOnly }),
    updateCluster: r.cluster.update({ answer: clusters.started(refreshOrUpdate) }),
    deleteCluster: r.cluster.delete({ answer: clusters.started(forcedOrDeleting) }),
    suspendCluster: r.cluster.act('suspend', { answer: clusters.started('suspending the cluster') }),
    resumeCluster: r.cluster.act('resume', { answer: clusters.started('resuming the cluster') }),
    upgradeCluster: code(ops.upgradeCluster),
    getOperationStatus: r.cluster.operation({ answer: ops.operationStatus }),
    getOperationDetails: r.cluster.operation({ rewrite: ops.byRun, answer: ops.operationDetails }),
    retryOperation: code(ops.retryOperation),
    listDeployments: r.cluster.read({ answer: deployments.listDeployments }),
    describeDeployment: r.cluster.read({ answer: deployments.describeDeployment }),
    upgradeDeployment: code(deployments.upgradeDeployment),
  }),
  provides: { computeClusters },
});
