/**
 * A compute cluster's add-ons: the Helm charts every cluster has installed
 * (kept on the cluster once one has moved: `data.deployments`), the ones it
 * could have, each chart's versions, and moving a deployment to a newer
 * chart version or new values. A deleted cluster has no deployments.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { str, text } from '../../values.js';
import type { R, Rec } from './clusters.js';

interface Chart {
  /** Where every cluster has it installed. */
  readonly namespace: string;
  readonly name: string;
  readonly description: string;
  readonly versions: ReadonlyArray<{ readonly deploymentVersion: string; readonly applicationVersion: string }>;
}

/** A chart, with its versions as [deployment version, application version], oldest first. */
const chart = (namespace: string, name: string, description: string, ...versions: Array<[string, string]>): Chart => ({
  namespace,
  name,
  description,
  versions: versions.map(([deploymentVersion, applicationVersion]) => ({ deploymentVersion, applicationVersion })),
});

/** The charts every cluster starts with. */
const CHARTS: readonly Chart[] = [
  chart('kube-system', 'cluster-autoscaler', 'Scales node groups to fit pending pods', ['9.29.0', '1.27.2'], ['9.37.0', '1.29.0']),
  chart('kube-system', 'metrics-server', 'Resource metrics for autoscaling', ['3.11.0', '0.6.4'], ['3.12.1', '0.7.1']),
  chart('ingress', 'ingress-nginx', 'Ingress controller', ['4.8.3', '1.9.4']),
  chart('yunikorn', 'yunikorn', 'Batch scheduler', ['1.4.0', '1.4.0'], ['1.5.0', '1.5.0']),
];

const AVAILABLE_CHARTS = [
  { name: 'nvidia-device-plugin', deploymentVersion: '0.14.5', applicationVersion: '0.14.5', description: 'GPU support for nodes' },
];
const UNAVAILABLE_CHARTS = [
  { name: 'istio', deploymentVersion: '1.20.1', applicationVersion: '1.20.1', description: 'Service mesh; needs Kubernetes 1.30' },
];

interface DeploymentRec {
  name: string;
  namespace: string;
  chart: string;
  version: string;
  overrides: string;
  history: Array<{ revision: number; version: string; overrides: string }>;
}

/** A cluster's deployments: the ones it started with until one of them has moved. */
function deploymentsOf(rec: Rec): DeploymentRec[] {
  const kept = rec.data?.deployments as DeploymentRec[] | undefined;
  if (kept) return kept;
  return CHARTS.map(({ namespace, name, versions }) => {
    const version = versions[0]?.deploymentVersion ?? '1.0.0';
    return { name, namespace, chart: name, version, overrides: '{}', history: [{ revision: 1, version, overrides: '{}' }] };
  });
}

/** Add-ons of a cluster as its EKS or AKS state shows them, with the seed's defaults: logging off, monitoring limited to 1000m / 2048M. */
export function platformDeployments(rec: Rec): Doc {
  const installed = (chart: string): boolean => deploymentsOf(rec).some((d) => d.chart === chart);
  return {
    autoscaler: {
      scaleDownEnabled: true,
      scaleDownDelayAfterAdd: '10m',
      scaleDownDelayAfterDelete: '10s',
      scaleDownDelayAfterFailure: '3m',
      scaleDownUnneededTime: '10m',
      scaleDownUnreadyTime: '20m',
      scanInterval: '10s',
      scaleDownUtilizationThreshold: 0.5,
      scaleDownNonEmptyCandidatesCount: 30,
      skipNodesWithLocalStorage: false,
      skipNodesWithSystemPods: true,
      maxGracefulTerminationSec: 600,
    },
    horizontalPodAutoscaler: { enabled: installed('metrics-server') },
    logging: { enabled: false },
    metering: { enabled: true, services: [] },
    monitoring: { enabled: true, alertmanager: { enabled: false }, serverResourceLimits: { cpu: '1000m', memory: '2048M' } },
    istio: { enabled: false },
    knox: { enabled: false },
    nvidia: { gpuLabelKey: 'nvidia.com/gpu', gpuLabelValue: 'true' },
    yunikorn: { enabled: installed('yunikorn') },
    repository: 'container.repository.cloudera.com',
  };
}

function chartDoc(chart: string, version: string, verbose = true): Doc {
  const c = CHARTS.find((x) => x.name === chart);
  const v = c?.versions.find((x) => x.deploymentVersion === version);
  return {
    applicationVersion: v?.applicationVersion ?? version,
    deploymentVersion: version,
    description: c?.description ?? '',
    name: chart,
    ...(verbose ? { values: JSON.stringify({ replicaCount: 1 }) } : {}),
  };
}

function deploymentDoc(d: DeploymentRec, verbose = true): Doc {
  const c = CHARTS.find((x) => x.name === d.chart);
  const idx = c?.versions.findIndex((v) => v.deploymentVersion === d.version) ?? -1;
  return {
    name: d.name,
    namespace: d.namespace,
    revision: d.history.length,
    liftieManaged: true,
    chart: chartDoc(d.chart, d.version, verbose),
    status: 'DEPLOYED',
    upgrades: (c?.versions ?? []).slice(idx + 1),
    overrides: d.overrides,
  };
}

/** The deployments of a cluster that is not deleted. */
function live(rec: Rec): DeploymentRec[] {
  if (rec.deleted) throw notFound(`compute cluster ${String(rec.name)} is deleted`);
  return deploymentsOf(rec);
}

function deployment(rec: Rec, req: Doc, all = live(rec)): DeploymentRec {
  const namespace = text(req.namespace);
  const name = text(req.name);
  const d = all.find((x) => x.namespace === namespace && x.name === name);
  if (!d) throw notFound(`no deployment ${namespace}/${name} in compute cluster ${String(rec.name)}`);
  return d;
}

export function listDeployments(_h: Hook<R>, rec: Rec, req: Doc): Doc {
  const ns = str(req.namespace);
  const verbose = req.verbose === true;
  return {
    availableCharts: AVAILABLE_CHARTS.map((x) => ({ ...x, ...(verbose ? { values: '{}' } : {}) })),
    unavailableCharts: UNAVAILABLE_CHARTS,
    installedDeployments: live(rec)
      .filter((d) => !ns || d.namespace === ns)
      .map((d) => deploymentDoc(d, verbose)),
  };
}

export function describeDeployment(_h: Hook<R>, rec: Rec, req: Doc): Doc {
  const d = deployment(rec, req);
  return {
    deployment: deploymentDoc(d),
    history: d.history
      .map((x, i) => ({
        revision: x.revision,
        status: i === d.history.length - 1 ? 'DEPLOYED' : 'SUPERSEDED',
        chart: chartDoc(d.chart, x.version),
        overrides: x.overrides,
      }))
      .reverse(),
    overrides: d.overrides,
  };
}

/** Moves a deployment to a chart version (the newest when none is given) and/or new values: a change of its cluster. */
export function upgradeDeployment(h: Hook<R>, req: Doc): Doc {
  const clusters = h.records('cluster');
  const rec = h.locate('cluster', req);
  clusters.require(rec, ['RUNNING'], 'a deployment upgrade');
  const all = live(rec).map((d) => ({ ...d, history: [...d.history] }));
  const d = deployment(rec, req, all);
  const versions = CHARTS.find((x) => x.name === d.chart)?.versions ?? [];
  const idx = versions.findIndex((v) => v.deploymentVersion === d.version);
  let target = str(req.chartVersion);
  if (target) {
    const t = versions.findIndex((v) => v.deploymentVersion === target);
    if (t < 0)
      throw invalid(`chart ${d.chart} has no version ${target}; available: ${versions.map((v) => v.deploymentVersion).join(', ')}`);
    if (t < idx) throw failedPrecondition(`deployment ${d.name} is at ${d.version}; it cannot move back to ${target}`);
  } else target = versions[versions.length - 1]?.deploymentVersion ?? d.version;
  const overrides = str(req.overrides) ?? d.overrides;
  if (target === d.version && overrides === d.overrides)
    throw failedPrecondition(`deployment ${d.name} is already at ${target} with these values`);
  d.version = target;
  d.overrides = overrides;
  d.history.push({ revision: d.history.length + 1, version: target, overrides });
  rec.data = { ...rec.data, deployments: all, changes: Number(rec.data?.changes ?? 0) + 1, changedAt: h.ctx.clock.now() };
  clusters.save(rec);
  return {
    name: d.name,
    namespace: d.namespace,
    revision: d.history.length,
    message: `upgraded ${d.name} to chart ${d.version}`,
    status: 'DEPLOYED',
    chart: chartDoc(d.chart, d.version),
  };
}
