/** compute operations: wire in, plain result out; state and rules live in backend.ts. */
import type { Handler } from '../../types.js';
import * as b from './backend.js';

export const handlers: Record<string, Handler> = {
  createCluster: (req, ctx) => b.createCluster(ctx, req),
  validateCluster: (req, ctx) => b.validateCluster(ctx, req),
  describeCluster: (req, ctx) => b.describe(ctx, b.getCluster(ctx, req.clusterCrn)),
  listClusters: (req, ctx) => b.listClusters(ctx, req),
  updateCluster: (req, ctx) => b.updateCluster(ctx, req),
  upgradeCluster: (req, ctx) => b.upgradeCluster(ctx, req),
  suspendCluster: (req, ctx) => b.suspendCluster(ctx, req),
  resumeCluster: (req, ctx) => b.resumeCluster(ctx, req),
  deleteCluster: (req, ctx) => b.deleteCluster(ctx, req),
  listDeployments: (req, ctx) => b.listDeployments(ctx, req),
  describeDeployment: (req, ctx) => b.describeDeployment(ctx, req),
  upgradeDeployment: (req, ctx) => b.upgradeDeployment(ctx, req),
  getOperationStatus: (req, ctx) => b.operationStatus(ctx, req),
  getOperationDetails: (req, ctx) => b.operationDetails(ctx, req),
  retryOperation: (req, ctx) => b.retryOperation(ctx, req),
};
