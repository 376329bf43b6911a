/**
 * Deployed flows: deployment with or into a deployment, start and stop
 * (asking for what is already so changes nothing), version changes,
 * configuration updates and termination (their records and lifecycle are
 * in deployed.ts).
 */
import { alreadyExists, failedPrecondition } from '../../errors.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import * as assetRequests from './asset-requests.js';
import { moveAssets } from './assets.js';
import { beginOn, checkVersion, deploymentStatus, flowRecords, flowStatus, getDeployment, saveDeployed, statesOf } from './deployed.js';
import { sharedGroup } from './parameter-groups.js';
import { HEALTHY, STEADY_DEPLOYMENT, STEADY_FLOW, type DeployedFlow, type Deployment, type FlowRequest, type R } from './records.js';
import * as requests from './requests.js';
import { Workload } from './workload.js';
import type { CheckFn, Resource } from '../../engine/declare.js';
import { str } from '../../values.js';

export interface FlowSpec {
  readonly name: string;
  readonly req: FlowRequest;
  readonly parameterGroups: Doc[];
  readonly kpis: Doc[];
  readonly configurationVersion: number;
  readonly autoStart: boolean;
  readonly sharedParameterGroupCrn?: string;
  /** Minutes its deployment needs before the flow can be imported. */
  readonly deployFor: number;
  readonly failing?: boolean;
  readonly projectCrn?: string;
}

export interface FlowChange {
  readonly configurationVersion: unknown;
  readonly parameterGroups?: Doc[];
  readonly kpis?: Doc[];
  readonly assetUpdateRequestCrn?: string;
  readonly sharedParameterGroupCrns: readonly string[];
}

export interface VersionChange {
  readonly deploymentRequestCrn?: string;
  readonly parameterGroups?: Doc[];
  readonly kpis?: Doc[];
  readonly assetUpdateRequestCrn?: string;
}

/** A new flow of a deployment, importing once its deployment is ready. */
export function deploy(w: Workload, d: Deployment, o: FlowSpec): DeployedFlow {
  const id = uuid();
  const now = w.now;
  return flowRecords(w).create(
    {
      id,
      crn: w.h.crn('deployedFlow', id),
      name: o.name,
      scope: d.id,
      env: d.doc.environmentCrn,
      doc: {
        deploymentCrn: d.crn,
        environmentCrn: d.doc.environmentCrn,
        projectCrn: o.projectCrn ?? d.doc.projectCrn,
        creatorCrn: w.ctx.caller.actorCrn,
        deployedBy: w.actorName(),
        created: now,
        updated: now,
        configurationVersion: o.configurationVersion,
        parameterGroups: o.parameterGroups,
        kpis: o.kpis,
        flowName: o.req.flowName,
        flowCrn: w.flowCrnOf(o.req),
        flowVersion: o.req.flowVersion,
        sharedParameterGroupCrn: o.sharedParameterGroupCrn,
      },
    },
    o.autoStart || o.failing ? 'deploy' : 'deployStopped',
    { fail: o.failing === true, minutes: Math.max(0.5, o.deployFor - 1) + 1 },
  ) as DeployedFlow;
}

/** Adds a flow to a healthy deployment, from a flow request. */
export function add(
  w: Workload,
  env: string,
  deploymentCrn: string | undefined,
  spec: Omit<FlowSpec, 'req' | 'deployFor'> & { requestCrn?: string },
): { d: Deployment; f: DeployedFlow } {
  const d = getDeployment(w, env, deploymentCrn);
  const s = deploymentStatus(w, d).state;
  if (!HEALTHY.has(s)) throw failedPrecondition(`deployment ${d.name} is ${s}; flows can be added to a healthy deployment only`);
  const taken = flowRecords(w).find(spec.name, d.id) as DeployedFlow | undefined;
  if (taken && flowStatus(w, taken, d).state !== 'TERMINATED')
    throw alreadyExists(`deployment ${d.name} already has a flow named "${spec.name}"`);
  if (spec.sharedParameterGroupCrn) sharedGroup(w, env, spec.sharedParameterGroupCrn);
  const req = requests.use(w, env, spec.requestCrn, 'flow');
  const f = deploy(w, d, { ...spec, req, deployFor: 1 });
  moveAssets(w, req.crn, f.crn);
  return { d, f };
}

/** Flow states (the STATE of its own, or as its deployment makes it) in which a start, or a stop, changes nothing. */
const STARTED = ['GOOD_HEALTH', 'CONCERNING_HEALTH', 'STARTING_FLOW', 'DEPLOYING', 'IMPORTING_FLOW', 'CHANGING_FLOW_VERSION', 'UPDATING'];
const STOPPED = ['FLOW_STOPPED', 'STOPPING_FLOW'];

/** Refuses to start or stop a flow where it cannot be; true when asking changes nothing (it is so, or under way). */
function checkMove(w: Workload, f: DeployedFlow, d: Deployment, start: boolean): boolean {
  const s = flowStatus(w, f, d).state;
  if (start) {
    if (STARTED.includes(s)) return true;
    if (s !== 'FLOW_STOPPED' && s !== 'BAD_HEALTH') throw failedPrecondition(`flow ${f.name} cannot be started while ${s}`);
    const ds = deploymentStatus(w, d).state;
    if (!STEADY_DEPLOYMENT.has(ds)) throw failedPrecondition(`deployment ${d.name} is ${ds}`);
    return false;
  }
  if (STOPPED.includes(s)) return true;
  if (!STEADY_FLOW.has(s)) throw failedPrecondition(`flow ${f.name} cannot be stopped while ${s}`);
  return false;
}

/** Starts or stops a flow; asking for what is already so (or under way) changes nothing. */
export function move(w: Workload, f: DeployedFlow, d: Deployment, start: boolean): void {
  if (!checkMove(w, f, d, start)) beginOn(w, f, start ? 'start' : 'stop');
}

/** A check of a flow's start or stop (index.ts's verbs), over its deployment. */
const moving =
  (start: boolean): CheckFn<R> =>
  (h, rec) => {
    const w = new Workload(h);
    checkMove(w, rec as DeployedFlow, getDeployment(w, '', str(rec.doc.deploymentCrn)), start);
  };

/** The declaration of deployed flows: each a part of its deployment, failing only with it (its creation is told). */
export const deployedFlow: Resource<R> = {
  noun: 'flow',
  keys: ['deployedFlowCrn'],
  lives: { in: 'parent', parent: 'deployment', part: true },
  failsBy: 'data.failsAs',
  // Deploying takes as long as its deployment needs (given as it starts), importing a minute of it.
  minutes: { deploy: [0, 1], deployStopped: [0, 1], start: 0.5, stop: 0.5, changeVersion: 1, cancelChange: 0.5, update: 0.5, delete: 0.5 },
  // Asking for what is so, or under way, changes nothing (its own state; the checks read the one its deployment makes).
  unchangedIn: {
    start: statesOf('deployedFlow', (s) => STARTED.includes(s)),
    stop: statesOf('deployedFlow', (s) => STOPPED.includes(s)),
    delete: statesOf('deployedFlow', (s) => s === 'TERMINATING'),
  },
  hooks: { check: { start: moving(true), stop: moving(false) } },
};

/** Moves a flow to another version: the one a deployment request brings, else the next. */
export function changeVersion(w: Workload, f: DeployedFlow, d: Deployment, change: VersionChange): void {
  const s = flowStatus(w, f, d).state;
  if (!STEADY_FLOW.has(s)) throw failedPrecondition(`flow ${f.name} cannot change version while ${s}`);
  const x = f.doc;
  x.previousFlowVersion = x.flowVersion;
  if (change.deploymentRequestCrn) {
    const req = requests.use(w, x.environmentCrn, change.deploymentRequestCrn, 'deployment');
    x.flowVersion = req.flowVersion === x.flowVersion ? x.flowVersion + 1 : req.flowVersion;
    moveAssets(w, req.crn, f.crn);
  } else x.flowVersion += 1;
  if (change.parameterGroups) x.parameterGroups = change.parameterGroups;
  if (change.kpis) x.kpis = change.kpis;
  if (change.assetUpdateRequestCrn) assetRequests.applyRequest(w, x.environmentCrn, change.assetUpdateRequestCrn, d, f);
  x.configurationVersion += 1;
  beginOn(w, f, 'changeVersion');
}

export function cancelChange(w: Workload, f: DeployedFlow, d: Deployment): void {
  if (flowStatus(w, f, d).state !== 'CHANGING_FLOW_VERSION') throw failedPrecondition(`flow ${f.name} is not changing version`);
  if (f.doc.previousFlowVersion !== undefined) f.doc.flowVersion = f.doc.previousFlowVersion;
  delete f.doc.previousFlowVersion;
  beginOn(w, f, 'cancelChange');
}

/** Terminates a flow with its deployment. */
export function terminateWith(w: Workload, f: DeployedFlow): void {
  f.doc.withDeployment = true;
  beginOn(w, f, 'delete', { minutes: 2 });
}

/** Changes a flow's configuration (the current version must be named). */
export function update(w: Workload, f: DeployedFlow, d: Deployment, change: FlowChange): void {
  const s = flowStatus(w, f, d);
  if (s.state === 'TERMINATING') throw failedPrecondition(`flow ${f.name} is terminating`);
  const x = f.doc;
  checkVersion(x.configurationVersion, change.configurationVersion, 'flow');
  if (change.parameterGroups) x.parameterGroups = change.parameterGroups;
  if (change.kpis) x.kpis = change.kpis;
  if (change.assetUpdateRequestCrn) assetRequests.applyRequest(w, x.environmentCrn, change.assetUpdateRequestCrn, d, f);
  for (const pg of change.sharedParameterGroupCrns) sharedGroup(w, x.environmentCrn, pg);
  x.configurationVersion += 1;
  x.deployedBy = w.actorName();
  if (STEADY_FLOW.has(s.state)) beginOn(w, f, 'update');
  else saveDeployed(w, f);
}
