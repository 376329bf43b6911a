/**
 * df's hand-written handlers on the service backend: services (enable,
 * update, upgrade, certificate renewal, password rotation, node images,
 * disable, reset, describe, list, the deployable ones), Kubernetes access and
 * kubeconfig, deployment requests, the reads of deployments and their flows,
 * and what is computed of them all (monitoring.ts: events, alerts, metrics,
 * KPIs, notifications, filter options). The catalog, projects and
 * diagnostics are on the resource engine (catalog.ts, projects.ts).
 */
import { invalid } from '../../errors.js';
import { paged } from '../../paging.js';
import { perRequest } from '../../service.js';
import type { Doc } from '../../types.js';
import { bool, num, str, stringMap, strings, text } from '../../values.js';
import { DfServiceBackend, serviceCrnOf, type ServiceRec } from './backend.js';
import { filtered, sorted } from './listing.js';
import {
  activeAlerts,
  deploymentEvents,
  deploymentSystemCharts,
  eventDoc,
  eventNamed,
  eventSummary,
  eventsWanted,
  filterOptions,
  flowEvents,
  kpiCharts,
  notifications,
  runs,
  serviceEvents,
  serviceSystemCharts,
} from './monitoring.js';
import {
  DEPLOYMENT_STATES,
  deployedFlowView,
  deploymentSummary,
  deploymentView,
  projectsOfAccount,
  serviceSummary,
  serviceView,
} from './views.js';

const op = perRequest((ctx) => new DfServiceBackend(ctx));

const count = (v: unknown, field: string): number => {
  const n = num(v);
  if (n === undefined) throw invalid(`${field} is required`);
  return n;
};

/** An answer of a service action: the service as it is now. */
const serviceAnswer =
  (act: (b: DfServiceBackend, serviceCrn: string) => ServiceRec) =>
  (b: DfServiceBackend, req: Doc): Doc => ({ service: serviceView(b, act(b, text(req.serviceCrn))) });

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
  upgradeService: op(serviceAnswer((b, crn) => b.upgrade(crn))),
  renewCertificates: op((b, req) => (b.renewCertificates(text(req.serviceCrn)), {})),
  rotatePassword: op((b, req) => (b.rotatePassword(text(req.serviceCrn)), {})),
  updateNodeImages: op((b, req) => (b.updateNodeImages(text(req.serviceCrn)), {})),
  disableService: op((b, req) => {
    const s = b.disable(text(req.serviceCrn), bool(req.terminateDeployments), bool(req.persist));
    return { status: { state: b.state(s), detailedState: b.state(s) } };
  }),
  resetService: op((b, req) => (b.reset(text(req.serviceCrn)), {})),
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

  // ---- the cluster of a service
  grantUserKubernetesAccess: op((b, req) => ({ cloudUserId: b.grantAccess(text(req.serviceCrn), text(req.cloudUserId)) })),
  revokeUserKubernetesAccess: op((b, req) => ({ cloudUserId: b.revokeAccess(text(req.serviceCrn), text(req.cloudUserId)) })),
  listUserKubernetesAccess: op((b, req) => ({ cloudUserIds: b.accessList(text(req.serviceCrn)) })),
  getKubeconfig: op((b, req) => ({ kubeconfig: b.kubeconfig(text(req.serviceCrn)) })),

  // ---- what a service does
  listServiceEvents: op((b, req) => {
    const events = eventsWanted(serviceEvents(b, b.service(text(req.serviceCrn))), req);
    const rows = num(req.rows);
    return { eventSummaries: (rows === undefined ? events : events.slice(0, Math.max(0, rows))).map(eventSummary) };
  }),
  describeServiceEventDetail: op((b, req) => {
    const s = b.service(text(req.serviceCrn));
    return { event: eventDoc(eventNamed(serviceEvents(b, s), text(req.eventCrn), `DataFlow service ${s.name}`)) };
  }),
  listServiceActiveAlerts: op((b, req) => ({ eventSummaries: activeAlerts(serviceEvents(b, b.service(text(req.serviceCrn))), req.sort) })),
  listServiceSystemMetrics: op((b, req) => ({
    metricCharts: serviceSystemCharts(b, b.service(text(req.serviceCrn)), req.metricsTimePeriod),
  })),

  // ---- deployments: requests, reads
  initiateDeployment: op((b, req, ctx) => ({
    deploymentRequestCrn: b.initiate('deployment', text(req.serviceCrn), text(req.flowVersionCrn), str(req.deploymentCrn)).crn,
    dfxLocalUrl: `${ctx.info.baseUrl}/dfx/`,
  })),
  initiateFlowInDeployment: op((b, req, ctx) => ({
    deployedFlowRequestCrn: b.initiate(
      'flow',
      text(req.serviceCrn),
      text(req.flowVersionCrn),
      text(req.deploymentCrn),
      str(req.deployedFlowCrn),
    ).crn,
    dfxLocalUrl: `${ctx.info.baseUrl}/dfx/`,
  })),
  describeDeployment: op((b, req) => ({ deployment: deploymentView(b, b.deployment(text(req.deploymentCrn))) })),
  listDeployments: op((b, req, ctx) => {
    const list = sorted(
      filtered(b.deployments(str(req.searchTerm)), req.filters, {
        state: (d) => d.status.state,
        service: (d) => [d.environmentCrn, serviceCrnOf(ctx, d.environmentCrn)],
        project: (d) => d.projectCrn,
      }),
      req.sorts,
      { name: (d) => d.name, updated: (d) => d.updated, state: (d) => d.status.state },
    );
    return paged(ctx, req, list, (d): Doc => deploymentSummary(b, d));
  }),
  listDeploymentEvents: op((b, req, ctx) => {
    const events = eventsWanted(deploymentEvents(b, b.deployment(text(req.deploymentCrn))), req);
    const rows = num(req.rows);
    return paged(ctx, req, rows === undefined ? events : events.slice(0, Math.max(0, rows)), eventSummary);
  }),
  describeDeploymentEventDetail: op((b, req) => {
    const d = b.deployment(text(req.deploymentCrn));
    return { eventDetail: { event: eventDoc(eventNamed(deploymentEvents(b, d), text(req.eventCrn), `deployment ${d.name}`)) } };
  }),
  listDeploymentActiveAlerts: op((b, req) => ({
    eventSummaries: activeAlerts(deploymentEvents(b, b.deployment(text(req.deploymentCrn))), req.sort),
  })),
  listDeploymentKPIs: op((b, req) => {
    const d = b.deployment(text(req.deploymentCrn));
    return { metricCharts: kpiCharts(b, d.crn, d.kpis, d.created, runs(d.status.state), req.metricsTimePeriod) };
  }),
  listDeploymentSystemMetrics: op((b, req) => ({
    metricCharts: deploymentSystemCharts(b, b.deployment(text(req.deploymentCrn)), req.metricsTimePeriod),
  })),
  describeFlowInDeployment: op((b, req) => {
    const { d, f } = b.flow(text(req.deploymentCrn), text(req.deployedFlowCrn));
    return { deployedFlow: deployedFlowView(b, f, d) };
  }),
  listFlowsInDeployment: op((b, req, ctx) => {
    const d = b.deployment(text(req.deploymentCrn));
    const t = str(req.searchTerm)?.toLowerCase();
    const flows = filtered(
      b.dataflows.flowsOf(d.crn).filter((f) => !t || f.name.toLowerCase().includes(t)),
      req.filters,
      { state: (f) => f.status.state },
    );
    const list = sorted(flows, req.sorts, { name: (f) => f.name, updated: (f) => f.updated, state: (f) => f.status.state });
    return paged(ctx, req, list, (f): Doc => deployedFlowView(b, f, d, true));
  }),
  listFlowEventsInDeployment: op((b, req, ctx) => {
    const { d, f } = b.flow(text(req.deploymentCrn), text(req.deployedFlowCrn));
    return paged(ctx, req, eventsWanted(flowEvents(b, d, f), req), eventSummary);
  }),
  describeFlowEventDetailInDeployment: op((b, req) => {
    const { d, f } = b.flow(text(req.deploymentCrn), text(req.deployedFlowCrn));
    return { eventDetail: { event: eventDoc(eventNamed(flowEvents(b, d, f), text(req.eventCrn), `flow ${f.name} of ${d.name}`)) } };
  }),
  listFlowActiveAlertsInDeployment: op((b, req) => {
    const { d, f } = b.flow(text(req.deploymentCrn), text(req.deployedFlowCrn));
    return { eventSummaries: activeAlerts(flowEvents(b, d, f), req.sort) };
  }),
  listFlowKpisInDeployment: op((b, req) => {
    const { f } = b.flow(text(req.deploymentCrn), text(req.deployedFlowCrn));
    return { metricCharts: kpiCharts(b, f.crn, f.kpis, f.created, runs(f.status.state), req.metricsTimePeriod) };
  }),

  // ---- across the account
  listNotifications: op((b, req) => ({ notifications: notifications(b, num(req.timestampAfter) ?? 0) })),
  listFilterOptions: op((b, req) => ({
    filterOptions: filterOptions(b, text(req.filterType), {
      deploymentStates: DEPLOYMENT_STATES,
      projects: projectsOfAccount(b).map((p) => ({ identifier: p.crn, label: p.name })),
    }),
  })),
  listProjectFilterOptions: op((b, req) => {
    const type = text(req.filterType);
    if (type === 'state')
      return { filterOptions: ['ACTIVE', 'DELETING'].map((id) => ({ identifier: id, label: id.charAt(0) + id.slice(1).toLowerCase() })) };
    if (type === 'service') return { filterOptions: b.all().map((s) => ({ identifier: s.crn, label: s.name })) };
    throw invalid(`filterType must be state or service; got "${type.slice(0, 50)}"`);
  }),
};
