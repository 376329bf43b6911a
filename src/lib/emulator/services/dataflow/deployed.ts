/**
 * What is deployed: deployments (DEPLOYMENT) and their flows (FLOW) as
 * records on their lifecycles, read lazily, and what every part reads of
 * them (their states, a deployment's flows). A terminated deployment is
 * gone once termination has finished, its flows and assets with it, its
 * inbound endpoint freed; a terminated flow likewise. A flow shows its
 * deployment's suspension and termination.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { Resources } from '../../engine/records.js';
import { type Lifecycle } from '../../engine/timeline.js';
import { KIND, split, type Asset, type DeployedFlow, type Deployment, type Status } from './records.js';
import type { Workload } from './workload.js';
import { drop } from './assets.js';

const GOOD = 'GOOD_HEALTH/GOOD_HEALTH';

/** What deployments do (states are STATE/DETAILED_STATE). */
export const DEPLOYMENT: Lifecycle = {
  create: {
    phases: [
      ['DEPLOYING/NEW', 0.5],
      ['DEPLOYING/CREATING_NODES', 3],
      ['DEPLOYING/DEPLOYING_ASSETS', 1],
      ['DEPLOYING/DEPLOYING_FLOW', 1],
    ],
    success: GOOD,
    failure: 'BAD_HEALTH/FAILED_TO_DEPLOY',
  },
  /** A configuration change: UPDATING for a minute, then the state it was in. */
  update: { phases: [['UPDATING/UPDATING', 1]] },
  terminate: { phases: [['TERMINATING/TERMINATING', 2]], success: 'TERMINATED/STOPPED', removes: true },
  suspend: { phases: [['SUSPENDING/SUSPENDING', 1]], success: 'SUSPENDED/SUSPENDED' },
  resume: { phases: [['RESUMING/RESUMING', 2]], success: GOOD },
  restart: { phases: [['RESTARTING/RESTARTING', 2]], success: GOOD },
  updateNifi: { phases: [['UPDATING/UPDATING_NIFI_VERSION', 3]], success: GOOD },
  cancelNifiUpdate: { phases: [['UPDATING/CANCELLING_NIFI_VERSION_UPDATE', 1]], success: GOOD },
};

/** How long a deployment's creation takes (its first flow deploys meanwhile). */
export const CREATION_MINUTES = (DEPLOYMENT.create?.phases ?? []).reduce((t, [, m]) => t + m, 0);

const DEPLOYING: ReadonlyArray<readonly [string, number]> = [
  ['DEPLOYING/NEW', 0],
  ['IMPORTING_FLOW/IMPORTING_FLOW', 1],
];

/** What deployed flows do (states are STATE/DETAILED_STATE). */
export const FLOW: Lifecycle = {
  /** Deploying takes as long as its deployment needs, then the flow runs (or stays stopped, without auto start). */
  deploy: { phases: DEPLOYING, success: GOOD, failure: 'BAD_HEALTH/FAILED_TO_IMPORT' },
  deployStopped: { phases: DEPLOYING, success: 'FLOW_STOPPED/FLOW_STOPPED', failure: 'BAD_HEALTH/FAILED_TO_IMPORT' },
  start: { phases: [['STARTING_FLOW/STARTING_FLOW', 0.5]], success: GOOD },
  stop: { phases: [['STOPPING_FLOW/STOPPING_FLOW', 0.5]], success: 'FLOW_STOPPED/FLOW_STOPPED' },
  changeVersion: { phases: [['CHANGING_FLOW_VERSION/CHANGING_FLOW_VERSION', 1]], success: GOOD },
  cancelChange: { phases: [['CHANGING_FLOW_VERSION/CANCELLING_CHANGE_FLOW_VERSION', 0.5]], success: GOOD },
  /** A configuration change: UPDATING for half a minute, then the state it was in. */
  update: { phases: [['UPDATING/UPDATING', 0.5]] },
  terminate: { phases: [['TERMINATING/TERMINATING', 0.5]], success: 'TERMINATED/TERMINATED', removes: true },
  /** Terminated with its deployment. */
  terminateAll: { phases: [['TERMINATING/TERMINATING', 2]], success: 'TERMINATED/TERMINATED', removes: true },
};

/** Fails unless a configuration change names the current version. */
export function checkVersion(current: number, given: unknown, what: string): void {
  if (given !== current)
    throw failedPrecondition(
      `the ${what} configuration has changed: version ${String(given)} is stale, the current version is ${current}; read it again and retry`,
    );
}

/** The deployments of the request's account. */
export const deploymentRecords = (w: Workload): Resources<Deployment> =>
  w.once(
    'deployments',
    () =>
      new Resources<Deployment>(w.ctx, {
        kind: KIND.deployment,
        noun: 'deployment',
        lifecycle: DEPLOYMENT,
        touched: (d, now) => (d.updated = now),
        id: (d) => d.id,
        name: (d) => d.name,
        keys: (d) => ({ crn: d.crn, name: `${d.environmentCrn}|${d.name}` }),
        remove: (d) => forget(w, d),
      }),
  );

/** The deployed flows of the request's account. */
export const flowRecords = (w: Workload): Resources<DeployedFlow> =>
  w.once(
    'flows',
    () =>
      new Resources<DeployedFlow>(w.ctx, {
        kind: KIND.flow,
        noun: 'flow',
        lifecycle: FLOW,
        touched: (f, now) => (f.updated = now),
        id: (f) => f.id,
        name: (f) => f.name,
        // A flow fails only with its deployment (deploy is told).
        subject: () => undefined,
        keys: (f) => ({ crn: f.crn, parent: f.deploymentCrn, name: `${f.deploymentCrn}|${f.name}` }),
      }),
  );

/** Removes a terminated deployment with its flows and assets, and frees its inbound endpoint. */
function forget(w: Workload, d: Deployment): void {
  for (const f of w.store.children<DeployedFlow>(KIND.flow, d.crn)) w.store.delete(KIND.flow, f.id);
  for (const a of w.store.children<Asset>(KIND.asset, d.crn)) drop(w, a.doc);
  releaseEndpoint(w, d);
  w.store.delete(KIND.deployment, d.id);
}

/** Frees a deployment's inbound connection endpoint. */
export function releaseEndpoint(w: Workload, d: Deployment): void {
  if (!d.inboundEndpointCrn) return;
  const records = w.h.records('inboundConnectionEndpoint');
  const found = records.find(d.inboundEndpointCrn);
  if (found && found.doc.deploymentCrn === d.crn) {
    delete found.doc.deploymentCrn;
    records.save(found);
  }
  delete d.inboundEndpointCrn;
}

export function deploymentStatus(w: Workload, d: Deployment): Status & { done: boolean; failed: boolean } {
  const p = deploymentRecords(w).progress(d);
  return { ...split(p.state), done: p.done, failed: p.failed };
}

/** The deployment, or NOT_FOUND (also once termination has finished). */
export function getDeployment(w: Workload, env: string, deploymentCrn: string | undefined): Deployment {
  if (!deploymentCrn) throw invalid('deploymentCrn is required');
  const d = deploymentRecords(w).find(deploymentCrn);
  if (!d || (env && d.environmentCrn !== env)) throw notFound(`deployment ${deploymentCrn} not found`);
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
  return flowRecords(w)
    .children(d.crn)
    .filter((f) => flowStatus(w, f, d).state !== 'TERMINATED');
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
  const f = flowRecords(w).find(flowCrn);
  if (!f || f.deploymentCrn !== d.crn || flowStatus(w, f, d).state === 'TERMINATED')
    throw notFound(`flow ${flowCrn} not found in deployment ${d.name}`);
  return { d, f };
}
