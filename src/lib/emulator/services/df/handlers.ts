/**
 * df's handlers: services (enable, update, upgrade, disable, describe, list,
 * the deployable ones) and the reads of deployments and their flows. The
 * other operations of the service are not emulated (the server's answer for
 * an operation without a handler).
 */
import { invalid } from '../../errors.js';
import { paged } from '../../paging.js';
import { perRequest } from '../../service.js';
import type { Doc } from '../../types.js';
import { bool, num, str, stringMap, strings, text } from '../../values.js';
import { DfServiceBackend } from './backend.js';
import { deployedFlowView, deploymentSummary, deploymentView, serviceSummary, serviceView } from './views.js';

const op = perRequest((ctx) => new DfServiceBackend(ctx));

/** Orders items by `field:asc|desc` entries (the first that names a known field wins ties last). */
function sorted<T>(items: T[], sorts: unknown, keys: Readonly<Record<string, (x: T) => string | number>>): T[] {
  const order = strings(sorts)
    .map((s) => {
      const [field = '', dir = 'asc'] = s.split(':');
      const key = keys[field];
      if (!key) throw invalid(`cannot sort by "${field}"; sort by ${Object.keys(keys).join(', ')}`);
      return { key, sign: dir.toLowerCase() === 'desc' ? -1 : 1 };
    })
    .reverse();
  for (const { key, sign } of order) items = [...items].sort((a, b) => (key(a) < key(b) ? -sign : key(a) > key(b) ? sign : 0));
  return items;
}

const count = (v: unknown, field: string): number => {
  const n = num(v);
  if (n === undefined) throw invalid(`${field} is required`);
  return n;
};

export const handlers = {
  enableService: op((b, req) => {
    const s = b.enable({
      environmentCrn: text(req.environmentCrn),
      minK8sNodeCount: count(req.minK8sNodeCount, 'minK8sNodeCount'),
      maxK8sNodeCount: count(req.maxK8sNodeCount, 'maxK8sNodeCount'),
      usePublicLoadBalancer: bool(req.usePublicLoadBalancer),
      privateCluster: bool(req.privateCluster),
      userDefinedRouting: bool(req.userDefinedRouting),
      enforceProject: bool(req.enforceProject),
      instanceType: str(req.instanceType),
      podCidr: str(req.podCidr),
      serviceCidr: str(req.serviceCidr),
      kubeApiAuthorizedIpRanges: strings(req.kubeApiAuthorizedIpRanges),
      loadBalancerAuthorizedIpRanges: strings(req.loadBalancerAuthorizedIpRanges),
      clusterSubnets: strings(req.clusterSubnets),
      loadBalancerSubnets: strings(req.loadBalancerSubnets),
      tags: stringMap(req.tags),
    });
    return { service: serviceView(b, s) };
  }),
  updateService: op((b, req) => {
    const kube = req.kubeApiAuthorizedIpRanges === undefined ? undefined : strings(req.kubeApiAuthorizedIpRanges);
    const lb = req.loadBalancerAuthorizedIpRanges === undefined ? undefined : strings(req.loadBalancerAuthorizedIpRanges);
    const s = b.update(
      text(req.serviceCrn),
      count(req.minK8sNodeCount, 'minK8sNodeCount'),
      count(req.maxK8sNodeCount, 'maxK8sNodeCount'),
      kube,
      lb,
    );
    return { service: serviceView(b, s) };
  }),
  upgradeService: op((b, req) => ({ service: serviceView(b, b.upgrade(text(req.serviceCrn))) })),
  disableService: op((b, req) => {
    const s = b.disable(text(req.serviceCrn), bool(req.terminateDeployments));
    return { status: { state: b.state(s), detailedState: b.state(s) } };
  }),
  describeService: op((b, req) => ({ service: serviceView(b, b.service(text(req.serviceCrn))) })),
  listServices: op((b, req, ctx) =>
    paged(
      ctx,
      req,
      sorted(b.all(str(req.searchTerm)), req.sorts, { name: (s) => s.name, created: (s) => s.created, state: (s) => b.state(s) }),
      (s) => serviceSummary(b, s),
    ),
  ),
  listDeployableServicesForNewDeployments: op((b) => ({
    services: b
      .all()
      .filter((s) => ['GOOD_HEALTH', 'CONCERNING_HEALTH'].includes(b.state(s)))
      .map((s) => serviceSummary(b, s)),
  })),
  initiateDeployment: op((b, req, ctx) => ({
    deploymentRequestCrn: b.initiate('deployment', text(req.serviceCrn), text(req.flowVersionCrn)).crn,
    dfxLocalUrl: `${ctx.info.baseUrl}/dfx/`,
  })),
  initiateFlowInDeployment: op((b, req, ctx) => ({
    deployedFlowRequestCrn: b.initiate('flow', text(req.serviceCrn), text(req.flowVersionCrn), text(req.deploymentCrn)).crn,
    dfxLocalUrl: `${ctx.info.baseUrl}/dfx/`,
  })),
  describeDeployment: op((b, req) => ({ deployment: deploymentView(b.workload, b.deployment(text(req.deploymentCrn))) })),
  listDeployments: op((b, req, ctx) => {
    const w = b.workload;
    const list = sorted(b.deployments(str(req.searchTerm)), req.sorts, {
      name: (d) => d.name,
      updated: (d) => d.updated,
      state: (d) => w.deployments.status(d).state,
    });
    return paged(ctx, req, list, (d): Doc => deploymentSummary(w, d));
  }),
  describeFlowInDeployment: op((b, req) => {
    const { d, f } = b.flow(text(req.deploymentCrn), text(req.deployedFlowCrn));
    return { deployedFlow: deployedFlowView(b.workload, f, d) };
  }),
  listFlowsInDeployment: op((b, req, ctx) => {
    const w = b.workload;
    const d = b.deployment(text(req.deploymentCrn));
    const t = str(req.searchTerm)?.toLowerCase();
    const flows = w.flows.of(d).filter((f) => !t || f.name.toLowerCase().includes(t));
    const list = sorted(flows, req.sorts, { name: (f) => f.name, updated: (f) => f.updated, state: (f) => w.flows.status(f, d).state });
    return paged(ctx, req, list, (f): Doc => deployedFlowView(w, f, d, true));
  }),
};
