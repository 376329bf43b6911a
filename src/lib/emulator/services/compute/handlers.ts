/** compute operations: unpack the wire request, call the backend, build the wire answer. */
import { pagingFor, page } from '../../paging.js';
import { perRequest } from '../../service.js';
import type { Doc, Handler } from '../../types.js';
import { bool, obj, str, stringMap, text } from '../../values.js';
import { ComputeBackend, type ClusterRec, type Validation } from './backend.js';
import { chartDoc, deploymentDoc, describe, listItem, operationDetails, operationStatus } from './views.js';

const op = perRequest((ctx) => new ComputeBackend(ctx));

const AVAILABLE_CHARTS = [
  { name: 'nvidia-device-plugin', deploymentVersion: '0.14.5', applicationVersion: '0.14.5', description: 'GPU support for nodes' },
];
const UNAVAILABLE_CHARTS = [
  { name: 'istio', deploymentVersion: '1.20.1', applicationVersion: '1.20.1', description: 'Service mesh; needs Kubernetes 1.30' },
];

const clusterOf = (b: ComputeBackend, req: Doc): ClusterRec => b.cluster(text(req.clusterCrn));

function validationResponse(checks: readonly Validation[]): Doc {
  const failed = checks.filter((v) => !v.passed).length;
  return {
    result: failed ? 'FAILED' : 'PASSED',
    summary: { passed: checks.length - failed, warning: 0, failed, skipped: 0, total: checks.length },
    message: failed ? `${failed} validation(s) failed` : 'all validations passed',
    validations: checks.map((v) => ({
      name: v.name,
      description: v.okMessage,
      category: v.category,
      status: v.passed ? 'PASSED' : 'FAILED',
      message: v.passed ? v.okMessage : v.badMessage,
      duration: '0.1s',
    })),
  };
}

const describeUri = (c: ClusterRec): string => `/api/v1/compute/describeCluster?clusterCrn=${encodeURIComponent(c.clusterCrn)}`;

export const handlers: Record<string, Handler> = {
  createCluster: op((b, req) => {
    const made = b.create({
      name: text(req.name),
      environment: text(req.environment),
      description: str(req.description),
      tags: stringMap(req.tags),
      network: obj(req.network),
      skipValidation: bool(req.skipValidation),
    });
    if ('failed' in made) {
      const v = validationResponse(made.failed);
      return { clusterStatus: { status: 'VALIDATION_FAILED', message: String(v.message) }, validationResponse: v };
    }
    const c = made.cluster;
    return {
      clusterId: c.clusterId,
      clusterStatus: { status: b.status(c), message: 'cluster creation started' },
      uri: describeUri(c),
      clusterCrn: c.clusterCrn,
    };
  }),
  validateCluster: op((b, req) =>
    validationResponse(b.validate({ name: text(req.name), environment: text(req.environment), network: obj(req.network) })),
  ),
  describeCluster: op((b, req, ctx) => describe(b, ctx, clusterOf(b, req))),
  listClusters: op((b, req, ctx) => {
    const status = str(req.status);
    const shape = str(req.clusterShape);
    const all = b
      .list(str(req.envNameOrCrn))
      .map((c) => listItem(b, ctx, c))
      .filter((i) => bool(req.includeDeleted) || i.status !== 'DELETED')
      .filter((i) => !status || i.status === status)
      .filter((i) => !shape || i.clusterShape === shape)
      .filter((i) => !bool(req.default) || i.isDefault === true)
      .filter((i) => !str(req.workloads) || (Array.isArray(i.workloads) && i.workloads.includes(req.workloads)));
    const paging = pagingFor(ctx);
    const p = page(paging, req, all);
    const size = typeof req.pageSize === 'number' ? req.pageSize : paging.defaultSize;
    return {
      clusters: p.items,
      ...(p.nextToken ? { nextToken: p.nextToken } : {}),
      totalClusters: all.length,
      totalPages: Math.max(1, Math.ceil(all.length / size)),
    };
  }),
  updateCluster: op((b, req) => {
    const c = clusterOf(b, req);
    b.update(c, typeof req.clusterStateVersion === 'number' ? req.clusterStateVersion : undefined);
    return {
      clusterCrn: c.clusterCrn,
      clusterStatus: {
        status: b.status(c),
        message: bool(obj(req.spec).refreshInstanceGroups) ? 'refreshing instance groups' : 'updating the cluster',
      },
      uri: describeUri(c),
    };
  }),
  upgradeCluster: op((b, req) => ({ operationId: b.upgrade(clusterOf(b, req), bool(req.dryRun))?.operationId })),
  suspendCluster: op((b, req) => {
    const c = clusterOf(b, req);
    b.suspend(c);
    return { clusterStatus: { status: b.status(c), message: 'suspending the cluster' } };
  }),
  resumeCluster: op((b, req) => {
    const c = clusterOf(b, req);
    b.resume(c);
    return { clusterStatus: { status: b.status(c), message: 'resuming the cluster' } };
  }),
  deleteCluster: op((b, req) => {
    const c = clusterOf(b, req);
    if (bool(req.force)) {
      b.forceDelete(c);
      return { clusterStatus: { status: 'DELETED', message: 'force-deleted; cloud resources were not cleaned up' } };
    }
    b.delete(c);
    return { clusterStatus: { status: b.status(c), message: 'cluster deletion started' } };
  }),
  listDeployments: op((b, req) => {
    const c = b.notDeleted(clusterOf(b, req));
    const ns = str(req.namespace);
    const verbose = bool(req.verbose);
    return {
      availableCharts: AVAILABLE_CHARTS.map((x) => ({ ...x, ...(verbose ? { values: '{}' } : {}) })),
      unavailableCharts: UNAVAILABLE_CHARTS,
      installedDeployments: c.deployments.filter((d) => !ns || d.namespace === ns).map((d) => deploymentDoc(d, verbose)),
    };
  }),
  describeDeployment: op((b, req) => {
    const d = b.deployment(clusterOf(b, req), text(req.namespace), text(req.name));
    return {
      deployment: deploymentDoc(d),
      history: d.history
        .map((h, i) => ({
          revision: h.revision,
          status: i === d.history.length - 1 ? 'DEPLOYED' : 'SUPERSEDED',
          chart: chartDoc(d.chart, h.version),
          overrides: h.overrides,
        }))
        .reverse(),
      overrides: d.overrides,
    };
  }),
  upgradeDeployment: op((b, req) => {
    const c = clusterOf(b, req);
    const d = b.upgradeDeployment(c, b.deployment(c, text(req.namespace), text(req.name)), {
      chartVersion: str(req.chartVersion),
      overrides: str(req.overrides),
    });
    return {
      name: d.name,
      namespace: d.namespace,
      revision: d.history.length,
      message: `upgraded ${d.name} to chart ${d.version}`,
      status: 'DEPLOYED',
      chart: chartDoc(d.chart, d.version),
    };
  }),
  getOperationStatus: op((b, req, ctx) => operationStatus(b, ctx.clock.now(), b.operation(text(req.operationId)))),
  getOperationDetails: op((b, req, ctx) => {
    const o = str(req.operationId) ? b.operation(text(req.operationId)) : b.operationByRun(text(req.runId));
    return operationDetails(b, ctx.clock.now(), o);
  }),
  retryOperation: op((b, req) => ({ operationId: b.retry(b.operation(text(req.operationId))).operationId })),
};
