/**
 * What is deployed: deployments and their flows, records of the engine
 * (index.ts's `deployment` and `deployedFlow`, a flow in its deployment)
 * whose lifecycles are the model's facts (`STATE/DETAILED_STATE` pairs), and
 * what every part reads of them (their states, a deployment's flows). A
 * terminated deployment or flow is gone once its termination has finished;
 * a flow shows its deployment's suspension and termination.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import type { ActionFacts } from '../../../model/resources.js';
import { resources } from '../../../model/services/dataflow/resources.js';
import type { Records } from '../../engine/records.js';
import { split, type DeployedFlow, type Deployment, type Status } from './records.js';
import type { Workload } from './workload.js';

/** Emulated minutes of a deployment's creation, one per state: its first flow deploys meanwhile. */
export const CREATING = [0.5, 3, 1, 1];

/** How long a deployment's creation takes. */
export const CREATION_MINUTES = CREATING.reduce((t, m) => t + m, 0);

/** The states of a resource's lifecycle (the model's facts) whose STATE (before the `/`) passes `keep`. */
export function statesOf(resource: 'deployment' | 'deployedFlow', keep: (state: string) => boolean): string[] {
  const actions = Object.values(resources.resources[resource].lifecycle as Readonly<Record<string, ActionFacts>>);
  const all = actions.flatMap((a) => [...a.through, a.success ?? '', a.failure ?? '']);
  return [...new Set(all)].filter((s) => s !== '' && keep(split(s).state));
}

/** The NiFi version a deployment shows: the one it moves to while its update runs (the update's effect), else its own. */
export const nifiVersionOf = (d: Deployment): string =>
  (d.activity.action === 'updateNifi' && typeof d.activity.effect?.cfmNifiVersion === 'string'
    ? d.activity.effect.cfmNifiVersion
    : undefined) ?? d.doc.cfmNifiVersion;

/** When a deployment or flow last changed: by hand, or by its action (begun, or ended). */
export function changedAt(w: Workload, x: Deployment | DeployedFlow): number {
  const p = recordsOf(w, x).progress(x);
  return Math.max(x.doc.updated, p.done ? Math.min(p.endsAt, w.now) : x.activity.tl.startedAt);
}

/** Fails unless a configuration change names the current version. */
export function checkVersion(current: number, given: unknown, what: string): void {
  if (given !== current)
    throw failedPrecondition(
      `the ${what} configuration has changed: version ${String(given)} is stale, the current version is ${current}; read it again and retry`,
    );
}

/** The deployments of the request's account. */
export const deploymentRecords = (w: Workload): Records => w.h.records('deployment');

/** The deployed flows of the request's account. */
export const flowRecords = (w: Workload): Records => w.h.records('deployedFlow');

/** Every deployment of the account that is not gone. */
export const allDeployments = (w: Workload): Deployment[] => deploymentRecords(w).all() as Deployment[];

/** Every flow of the account that is not gone. */
export const allFlows = (w: Workload): DeployedFlow[] => flowRecords(w).all() as DeployedFlow[];

/** A deployment by CRN (or name), settled; undefined once gone. */
export const findDeployment = (w: Workload, ref: string, env?: string): Deployment | undefined =>
  deploymentRecords(w).find(ref, env || undefined) as Deployment | undefined;

/** The records a deployment or a flow is one of. */
const recordsOf = (w: Workload, x: Deployment | DeployedFlow): Records =>
  x.doc.deploymentCrn === undefined ? deploymentRecords(w) : flowRecords(w);

/** Keeps a deployment or flow changed by hand, stamped as changed now. */
export function saveDeployed(w: Workload, x: Deployment | DeployedFlow): void {
  x.doc.updated = w.now;
  recordsOf(w, x).save(x);
}

/** Starts an action of a deployment or flow. */
export function beginOn(w: Workload, x: Deployment | DeployedFlow, action: string, opts: Parameters<Records['begin']>[2] = {}): void {
  recordsOf(w, x).begin(x, action, opts);
}

export function deploymentStatus(w: Workload, d: Deployment): Status & { done: boolean; failed: boolean } {
  const p = deploymentRecords(w).progress(d);
  return { ...split(p.state), done: p.done, failed: p.failed };
}

/** The deployment, or NOT_FOUND (also once termination has finished). */
export function getDeployment(w: Workload, env: string, deploymentCrn: string | undefined): Deployment {
  if (!deploymentCrn) throw invalid('deploymentCrn is required');
  const d = findDeployment(w, deploymentCrn);
  if (!d || (env && d.doc.environmentCrn !== env)) throw notFound(`deployment ${deploymentCrn} not found`);
  return d;
}

/** A flow's state: its own, or its deployment's suspension or termination. */
export function flowStatus(w: Workload, f: DeployedFlow, d?: Deployment): Status {
  const own = split(flowRecords(w).state(f));
  if (own.state === 'TERMINATING' || own.state === 'TERMINATED') return own;
  const ds = d ? deploymentStatus(w, d).state : undefined;
  if (ds === 'SUSPENDING' || ds === 'SUSPENDED') return { state: 'DEPLOYMENT_SUSPENDED', detailedState: 'DEPLOYMENT_SUSPENDED' };
  if (ds === 'TERMINATING' || ds === 'TERMINATED') return { state: 'TERMINATING', detailedState: 'TERMINATING' };
  return own;
}

/** The flows of a deployment that are not gone. */
export function flowsOf(w: Workload, d: Deployment): DeployedFlow[] {
  return (flowRecords(w).all(d.id) as DeployedFlow[]).filter((f) => flowStatus(w, f, d).state !== 'TERMINATED');
}

/** A flow of a deployment, or NOT_FOUND (also once terminated). */
export function getFlow(
  w: Workload,
  env: string,
  deploymentCrn: string | undefined,
  flowCrn: string | undefined,
): { d: Deployment; f: DeployedFlow } {
  const d = getDeployment(w, env, deploymentCrn);
  if (!flowCrn) throw invalid('deployedFlowCrn is required');
  const f = flowRecords(w).find(flowCrn, d.id) as DeployedFlow | undefined;
  if (!f || flowStatus(w, f, d).state === 'TERMINATED') throw notFound(`flow ${flowCrn} not found in deployment ${d.name}`);
  return { d, f };
}
