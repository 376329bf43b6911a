/**
 * What is deployed: deployments and their flows, records of the engine
 * (index.ts's `deployment` and `deployedFlow`, a flow in its deployment)
 * whose lifecycles are the model's facts (`STATE/DETAILED_STATE` pairs), and
 * what every part reads of them (their states, a deployment's flows). A
 * terminated deployment or flow is gone once its termination has finished;
 * a flow shows its deployment's suspension and termination.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import type { Resource } from '../../engine/declare.js';
import type { Records } from '../../engine/records.js';
import { inEnvironment, split, type DeployedFlow, type Deployment, type R, type Status } from './records.js';
import type { Workload } from './workload.js';

/** Emulated minutes of a deployment's creation, one per state: its first flow deploys meanwhile. */
const CREATING = [0.5, 3, 1, 1];

/** How long a deployment's creation takes. */
export const CREATION_MINUTES = CREATING.reduce((t, m) => t + m, 0);

/** The declaration of deployments (states and actions: the model's facts). */
export const deployment: Resource<R> = {
  ...inEnvironment('deployment', ['deploymentCrn']),
  minutes: { create: CREATING, update: 1, delete: 2, suspend: 1, resume: 2, restart: 2, updateNifi: 3, cancelNifiUpdate: 1 },
};

/** The declaration of deployed flows: each a part of its deployment, failing only with it (its creation is told). */
export const deployedFlow: Resource<R> = {
  noun: 'flow',
  keys: ['deployedFlowCrn'],
  lives: { in: 'parent', parent: 'deployment', part: true },
  failsBy: 'data.failsAs',
  // Deploying takes as long as its deployment needs (given as it starts), importing a minute of it.
  minutes: { deploy: [0, 1], deployStopped: [0, 1], start: 0.5, stop: 0.5, changeVersion: 1, cancelChange: 0.5, update: 0.5, delete: 0.5 },
};

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

/** Keeps a deployment or flow changed by hand, stamped as changed now. */
export function saveDeployed(w: Workload, x: Deployment | DeployedFlow): void {
  x.doc.updated = w.now;
  (x.doc.deploymentCrn === undefined ? deploymentRecords(w) : flowRecords(w)).save(x);
}

/** Starts an action of a deployment or flow, stamped as changed now. */
export function beginOn(w: Workload, x: Deployment | DeployedFlow, action: string, opts: Parameters<Records['begin']>[2] = {}): void {
  x.doc.updated = w.now;
  (x.doc.deploymentCrn === undefined ? deploymentRecords(w) : flowRecords(w)).begin(x, action, opts);
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
