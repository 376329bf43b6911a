/** datahub operations: unpack the wire request, call the backend, build the wire answer. */
import type { CloudPlatform } from '../../environments.js';
import { perRequest } from '../../service.js';
import type { Doc, Handler } from '../../types.js';
import { bool, docs, num, obj, str, strings, text } from '../../values.js';
import { DatahubBackend, type ClusterSpec } from './backend.js';
import { clusterView, summaryView } from './views.js';

const op = perRequest((ctx) => new DatahubBackend(ctx));

/** The cluster a request names (by name or CRN). */
const named = (req: Doc): string => text(req.clusterName);

function create(platform: CloudPlatform, gov = false): Handler {
  return op((b, req) => {
    const spec: ClusterSpec = {
      name: text(req.clusterName),
      platform,
      gov,
      environment: str(req.environment) ?? text(req.environmentName),
      template: str(req.clusterTemplate) ?? str(req.clusterTemplateName),
      definition: str(req.clusterDefinition) ?? str(req.clusterDefinitionName),
      groups: docs(req.instanceGroups).map((g) => ({
        name: text(g.instanceGroupName),
        type: text(g.instanceGroupType),
        instanceType: str(g.instanceType),
        nodeCount: num(g.nodeCount) ?? 0,
        recipes: strings(g.recipeNames),
      })),
      multiAz: bool(req.multiAz),
    };
    const c = b.create(spec);
    return { cluster: clusterView(b, c), operationId: c.activity.operationId };
  });
}

export const handlers: Record<string, Handler> = {
  createAWSCluster: create('AWS'),
  createAWSGovCloudCluster: create('AWS', true),
  createAzureCluster: create('AZURE'),
  createGCPCluster: create('GCP'),
  describeCluster: op((b, req) => ({ cluster: clusterView(b, b.cluster(named(req))) })),
  listClusters: op((b, req) => ({ clusters: b.list(str(req.environmentName)).map((c) => summaryView(b, c)) })),
  startCluster: op((b, req) => ({ operationId: b.start(named(req)) })),
  stopCluster: op((b, req) => ({ operationId: b.stop(named(req)) })),
  scaleCluster: op((b, req) => ({
    operationId: b.scale(named(req), text(req.instanceGroupName), num(req.instanceGroupDesiredCount) ?? 0),
  })),
  repairCluster: op((b, req) => {
    const inst = obj(req.instances);
    return { operationId: b.repair(named(req), strings(req.instanceGroupNames), strings(inst.instanceIds), bool(req.removeOnly)) };
  }),
  deleteCluster: op((b, req) => ({ operationId: b.delete(named(req), bool(req.force)) })),
  getOperation: op((b, req) => b.operations.view(b.operation(str(req.clusterName) ?? text(req.crn), str(req.operationId)))),
};
