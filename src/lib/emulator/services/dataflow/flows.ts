/**
 * Deployed flows: deployment with or into a deployment, start and stop
 * (asking for what is already so changes nothing), version changes,
 * configuration updates and termination.
 */
import type { CheckFn, Resource } from '../../engine/declare.js';
import { alreadyExists, failedPrecondition } from '../../errors.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, num, str, strings, text } from '../../values.js';
import { applyRequest, moveAssets } from './assets.js';
import { sharedGroup } from './parameter-groups.js';
import * as requests from './requests.js';
import { deployedFlowDoc, flowConfigDoc } from './views.js';
import {
  HEALTHY,
  STEADY_DEPLOYMENT,
  STEADY_FLOW,
  Workload,
  checkVersion,
  statesOf,
  type Call,
  type DeployedFlow,
  type Deployment,
  type FlowRequest,
  type R,
} from './workload.js';

/** How a new flow is deployed beside what the request says: its deployment's time to get ready, or its failure, and its version. */
interface Deploying {
  readonly name: string;
  readonly minutes: number;
  readonly failing?: boolean;
  readonly configurationVersion?: number;
  readonly projectCrn?: string;
}

/** A new flow of a deployment from a flow request (its uploads go with it), importing once its deployment is ready. */
export function deploy(w: Workload, d: Deployment, req: FlowRequest, r: Doc, o: Deploying): DeployedFlow {
  const id = uuid();
  const f = w.flows.create(
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
        created: w.now,
        updated: w.now,
        configurationVersion: o.configurationVersion ?? 0,
        parameterGroups: docs(r.parameterGroups),
        kpis: docs(r.kpis),
        flowName: req.flowName,
        flowCrn: w.flowCrnOf(req),
        flowVersion: req.flowVersion,
        sharedParameterGroupCrn: str(r.useSharedParameterGroupCrn),
      },
    },
    r.autoStartFlow !== false || o.failing ? 'deploy' : 'deployStopped',
    { fail: o.failing === true, minutes: o.minutes },
  ) as DeployedFlow;
  moveAssets(w, req.crn, f.crn);
  return f;
}

/** Flow states (the STATE of its own, or as its deployment makes it) in which a start, or a stop, changes nothing. */
const STARTED = ['GOOD_HEALTH', 'CONCERNING_HEALTH', 'STARTING_FLOW', 'DEPLOYING', 'IMPORTING_FLOW', 'CHANGING_FLOW_VERSION', 'UPDATING'];
const STOPPED = ['FLOW_STOPPED', 'STOPPING_FLOW'];

/** Refuses to start or stop a flow where it cannot be; true when asking changes nothing (it is so, or under way). */
function checkMove(w: Workload, f: DeployedFlow, d: Deployment, start: boolean): boolean {
  const s = w.flowStatus(f, d).state;
  if (start) {
    if (STARTED.includes(s)) return true;
    if (s !== 'FLOW_STOPPED' && s !== 'BAD_HEALTH') throw failedPrecondition(`flow ${f.name} cannot be started while ${s}`);
    const ds = w.deploymentStatus(d).state;
    if (!STEADY_DEPLOYMENT.has(ds)) throw failedPrecondition(`deployment ${d.name} is ${ds}`);
    return false;
  }
  if (STOPPED.includes(s)) return true;
  if (!STEADY_FLOW.has(s)) throw failedPrecondition(`flow ${f.name} cannot be stopped while ${s}`);
  return false;
}

/** Starts or stops a flow; asking for what is already so (or under way) changes nothing. */
export function move(w: Workload, f: DeployedFlow, d: Deployment, start: boolean): void {
  if (!checkMove(w, f, d, start)) w.begin(f, start ? 'start' : 'stop');
}

/** A check of a flow's start or stop (index.ts's verbs), over its deployment. */
const moving =
  (start: boolean): CheckFn<R> =>
  (h, rec) => {
    const w = new Workload(h);
    checkMove(w, rec as DeployedFlow, w.deployment('', str(rec.doc.deploymentCrn)), start);
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

/** What a flow's change sets of the request: its parameter groups, KPIs, and the files of an asset update request. */
function applyChange(w: Workload, f: DeployedFlow, d: Deployment, r: Doc): void {
  if (Array.isArray(r.parameterGroups)) f.doc.parameterGroups = r.parameterGroups as Doc[];
  if (Array.isArray(r.kpis)) f.doc.kpis = r.kpis as Doc[];
  const assetRequest = str(r.assetUpdateRequestCrn);
  if (assetRequest) applyRequest(w, f.doc.environmentCrn, assetRequest, d, f);
}

/** Moves a flow to another version: the one a deployment request brings, else the next. */
export function changeVersion(w: Workload, f: DeployedFlow, d: Deployment, r: Doc): void {
  const s = w.flowStatus(f, d).state;
  if (!STEADY_FLOW.has(s)) throw failedPrecondition(`flow ${f.name} cannot change version while ${s}`);
  const x = f.doc;
  x.previousFlowVersion = x.flowVersion;
  const requestCrn = str(r.deploymentRequestCrn);
  if (requestCrn) {
    const req = requests.use(w, x.environmentCrn, requestCrn, 'deployment');
    x.flowVersion = req.flowVersion === x.flowVersion ? x.flowVersion + 1 : req.flowVersion;
    moveAssets(w, req.crn, f.crn);
  } else x.flowVersion += 1;
  applyChange(w, f, d, r);
  x.configurationVersion += 1;
  w.begin(f, 'changeVersion');
}

export function cancelChange(w: Workload, f: DeployedFlow, d: Deployment): void {
  if (w.flowStatus(f, d).state !== 'CHANGING_FLOW_VERSION') throw failedPrecondition(`flow ${f.name} is not changing version`);
  if (f.doc.previousFlowVersion !== undefined) f.doc.flowVersion = f.doc.previousFlowVersion;
  delete f.doc.previousFlowVersion;
  w.begin(f, 'cancelChange');
}

/** Changes a flow's configuration (the current version must be named). */
function update(w: Workload, f: DeployedFlow, d: Deployment, r: Doc): void {
  const s = w.flowStatus(f, d).state;
  if (s === 'TERMINATING') throw failedPrecondition(`flow ${f.name} is terminating`);
  checkVersion(f.doc.configurationVersion, r.configurationVersion, 'flow');
  applyChange(w, f, d, r);
  for (const pg of strings(r.updateSharedParameterGroupCrns)) sharedGroup(w, f.doc.environmentCrn, pg);
  f.doc.configurationVersion += 1;
  f.doc.deployedBy = w.actorName();
  if (STEADY_FLOW.has(s)) w.begin(f, 'update');
  else w.save(f);
}

/** A change of a flow named in its deployment; it answers the flow's configuration. */
const onFlow =
  (act: (w: Workload, f: DeployedFlow, d: Deployment, r: Doc) => void): Call =>
  (w, r, env) => {
    const { d, f } = w.flow(env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    act(w, f, d, r);
    return { deployedFlowConfiguration: flowConfigDoc(w, f, d) };
  };

export const flowCalls = {
  // Adds a flow to a healthy deployment, from a flow request.
  addFlowToDeployment: (w, r, env) => {
    const d = w.deployment(env, str(r.deploymentCrn));
    const name = text(r.name);
    const s = w.deploymentStatus(d).state;
    if (!HEALTHY.has(s)) throw failedPrecondition(`deployment ${d.name} is ${s}; flows can be added to a healthy deployment only`);
    const taken = w.flows.find(name, d.id) as DeployedFlow | undefined;
    if (taken && w.flowStatus(taken, d).state !== 'TERMINATED')
      throw alreadyExists(`deployment ${d.name} already has a flow named "${name}"`);
    const sharedGroupCrn = str(r.useSharedParameterGroupCrn);
    if (sharedGroupCrn) sharedGroup(w, env, sharedGroupCrn);
    const req = requests.use(w, env, str(r.deployedFlowRequestCrn), 'flow');
    const o = { name, minutes: 1.5, configurationVersion: num(r.configurationVersion), projectCrn: str(r.projectCrn) };
    return { deployedFlow: deployedFlowDoc(w, deploy(w, d, req, r, o), d) };
  },
  updateFlowInDeployment: onFlow(update),
  changeFlowVersionInDeployment: onFlow(changeVersion),
  cancelChangeFlowVersionInDeployment: onFlow(cancelChange),
} satisfies Record<string, Call>;
