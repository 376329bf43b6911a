/**
 * Deployments and their flows. Deployments: creation from a deployment
 * request with their first flow, configuration updates, the state changes a
 * caller asks for, NiFi version changes and termination, and the deprecated
 * calls on a deployment's only flow. A deployment whose name starts with
 * `fail-` ends its creation in BAD_HEALTH / FAILED_TO_DEPLOY. Deployed
 * flows: deployment with or into a deployment, start and stop (asking for
 * what is already so changes nothing), version changes, configuration
 * updates and termination.
 */
import type { CheckFn, Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { willFail } from '../../engine/timeline.js';
import { alreadyExists, failedPrecondition, invalid } from '../../errors.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, num, str, strings, text } from '../../values.js';
import { applyRequest, dropAssets, moveAssets } from './assets.js';
import { DEFAULT_NIFI, NIFI_VERSIONS, checkClusterSize } from './catalogue.js';
import { configField, get as configuration } from './configurations.js';
import { assign } from './inbound.js';
import { sharedGroup } from './parameter-groups.js';
import * as requests from './requests.js';
import { deployedFlowDoc, deploymentConfigDoc, deploymentDoc, flowConfigDoc } from './views.js';
import {
  HEALTHY,
  STEADY_DEPLOYMENT,
  STEADY_FLOW,
  Workload,
  checkVersion,
  inEnvironment,
  statesOf,
  type Call,
  type DeployedFlow,
  type Deployment,
  type FlowRequest,
  type R,
  type Status,
} from './workload.js';

const words = (s: string): string[] => s.split(/\s+/);
/** Deployment settings stored as given (sizing, scaling, KPIs, inbound connection, custom configurations). */
const CONFIG_KEYS = words(`autoScalingEnabled flowMetricsScalingEnabled autoScaleMinNodes autoScaleMaxNodes staticNodeCount kpis
  autoStartFlow clusterSize inboundHostname listenComponents inboundConnectionAuthorizedIpRanges nodeStorageProfileName nodeStorage
  pythonWorkDirectorySize customNarConfigurationCrn customPythonConfigurationCrn`);
/** The settings an update may change. */
const UPDATE_KEYS = words(`clusterSize autoScaleMinNodes autoScaleMaxNodes staticNodeCount kpis listenComponents
  inboundConnectionAuthorizedIpRanges customNarConfigurationCrn customPythonConfigurationCrn`);

/** Emulated minutes of a deployment's creation, one per state: its first flow deploys meanwhile. */
const CREATING = [0.5, 3, 1, 1];

const pick = (r: Doc, keys: readonly string[]): Doc => Object.fromEntries(keys.filter((k) => r[k] !== undefined).map((k) => [k, r[k]]));

/** The custom configurations a deployment's settings name are of its environment. */
function checkConfigurations(w: Workload, env: string, c: Doc): void {
  for (const r of ['customNarConfiguration', 'customPythonConfiguration'] as const) {
    const crn = str(c[configField(r)]);
    if (crn) configuration(w, r, env, crn);
  }
}

/** Frees a deployment's inbound connection endpoint. */
function releaseEndpoint(w: Workload, d: Deployment): void {
  const crn = d.doc.inboundEndpointCrn;
  if (!crn) return;
  const records = w.h.records('inboundConnectionEndpoint');
  const found = records.find(crn);
  if (found && found.doc.deploymentCrn === d.crn) {
    delete found.doc.deploymentCrn;
    records.save(found);
  }
  delete d.doc.inboundEndpointCrn;
}

/** Terminates a deployment and its flows (once: terminating again changes nothing). */
export function terminate(w: Workload, env: string, deploymentCrn: string | undefined): Deployment {
  const d = w.deployment(env, deploymentCrn);
  if (w.deploymentStatus(d).state !== 'TERMINATING') {
    for (const f of w.flowsOf(d)) {
      f.doc.withDeployment = true;
      w.begin(f, 'delete', { minutes: 2 });
    }
    dropAssets(w, d.crn);
    releaseEndpoint(w, d);
    w.begin(d, 'delete');
  }
  return d;
}

/** Starts or stops every flow of a steady deployment. */
const moveAll =
  (start: boolean): Call =>
  (w, r, env) => {
    const d = w.deployment(env, str(r.deploymentCrn));
    const s = w.deploymentStatus(d).state;
    if (!STEADY_DEPLOYMENT.has(s))
      throw failedPrecondition(`deployment ${d.name} is ${s}; its flows cannot be ${start ? 'started' : 'stopped'}`);
    for (const f of w.flowsOf(d)) move(w, f, d, start);
    return { deployment: deploymentDoc(w, d) };
  };

/** A deprecated call on the only flow of a deployment; it answers the deployment, or its configuration. */
const onSingleFlow =
  (act: (w: Workload, f: DeployedFlow, d: Deployment, r: Doc) => void, configurationAnswer = false): Call =>
  (w, r, env) => {
    const d = w.deployment(env, str(r.deploymentCrn));
    const flows = w.flowsOf(d);
    if (flows.length !== 1 || !flows[0])
      throw failedPrecondition(`deployment ${d.name} has ${flows.length} flows; use the calls that name the flow (deployed-flows)`);
    act(w, flows[0], d, r);
    return configurationAnswer ? { deploymentConfiguration: deploymentConfigDoc(w, d) } : { deployment: deploymentDoc(w, d) };
  };

export const deploymentCalls = {
  createDeployment: (w, r, env) => {
    const name = text(r.name);
    const nifiVersion = typeof r.cfmNifiVersion === 'string' ? r.cfmNifiVersion : undefined;
    const config = pick(r, CONFIG_KEYS);
    const sharedGroupCrn = str(r.useSharedParameterGroupCrn);
    if (!/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,127}$/.test(name))
      throw invalid('deployment names are 1 to 128 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit');
    if (w.findDeployment(name, env)) throw alreadyExists(`a deployment named "${name}" already exists`);
    if (nifiVersion !== undefined && !NIFI_VERSIONS.includes(nifiVersion))
      throw invalid(`NiFi version ${nifiVersion} is not available; see listNifiVersions`);
    checkConfigurations(w, env, config);
    if (sharedGroupCrn) sharedGroup(w, env, sharedGroupCrn);
    if (config.clusterSize !== undefined) checkClusterSize(config.clusterSize);
    const req = requests.use(w, env, str(r.deploymentRequestCrn), 'deployment');
    const id = uuid();
    const d = w.deployments.create({
      id,
      crn: w.h.crn('deployment', id),
      name,
      scope: env,
      env,
      doc: {
        environmentCrn: env,
        projectCrn: str(r.projectCrn),
        creatorCrn: w.ctx.caller.actorCrn,
        deployedBy: w.actorName(),
        deploymentRequestCrn: req.crn,
        created: w.now,
        updated: w.now,
        configurationVersion: num(r.configurationVersion) ?? 0,
        config,
        cfmNifiVersion: nifiVersion ?? DEFAULT_NIFI,
      },
    }) as Deployment;
    const hostname = str(config.inboundHostname);
    if (hostname) {
      d.doc.inboundEndpointCrn = assign(w, env, hostname, d.crn);
      w.deployments.save(d);
    }
    // The deployment's first flow, deployed with it.
    const minutes = CREATING.reduce((t, m) => t + m, 0);
    deploy(w, d, req, r, { name: str(r.deployedFlowName) ?? req.flowName, minutes, failing: willFail(d.activity) });
    return { deployment: deploymentDoc(w, d) };
  },
  // Changes a deployment's configuration (the current version must be named).
  updateDeployment: (w, r, env) => {
    const d = w.deployment(env, str(r.deploymentCrn));
    const s = w.deploymentStatus(d);
    if (s.state === 'TERMINATING') throw failedPrecondition(`deployment ${d.name} is terminating`);
    checkVersion(d.doc.configurationVersion, r.configurationVersion, 'deployment');
    const c = pick(r, UPDATE_KEYS);
    if (typeof c.autoScaleMinNodes === 'number' && typeof c.autoScaleMaxNodes === 'number' && c.autoScaleMinNodes > c.autoScaleMaxNodes)
      throw invalid('autoScaleMinNodes is above autoScaleMaxNodes');
    if (c.clusterSize !== undefined) checkClusterSize(c.clusterSize);
    checkConfigurations(w, env, c);
    const config = Object.assign(d.doc.config, c);
    if (c.autoScaleMinNodes !== undefined || c.autoScaleMaxNodes !== undefined) config.autoScalingEnabled = true;
    else if (c.staticNodeCount !== undefined) config.autoScalingEnabled = false;
    const hostname = str(r.inboundHostname);
    if (r.deactivateInboundConnection === true) {
      releaseEndpoint(w, d);
      delete config.inboundHostname;
    } else if (hostname && hostname !== config.inboundHostname) {
      releaseEndpoint(w, d);
      d.doc.inboundEndpointCrn = assign(w, env, hostname, d.crn);
      config.inboundHostname = hostname;
    }
    const [first] = w.flowsOf(d);
    const assetRequest = str(r.assetUpdateRequestCrn);
    if (assetRequest) applyRequest(w, env, assetRequest, d, first);
    if (Array.isArray(r.parameterGroups) && first) {
      first.doc.parameterGroups = r.parameterGroups as Doc[];
      w.save(first);
    }
    d.doc.configurationVersion += 1;
    d.doc.deployedBy = w.actorName();
    if (STEADY_DEPLOYMENT.has(s.state)) w.begin(d, 'update');
    else w.save(d);
    return { deploymentConfiguration: deploymentConfigDoc(w, d) };
  },
  terminateDeployment: (w, r, env) => ({ deployment: deploymentDoc(w, terminate(w, env, str(r.deploymentCrn))) }),
  startAllFlowsInDeployment: moveAll(true),
  stopAllFlowsInDeployment: moveAll(false),
  startFlow: onSingleFlow((w, f, d) => move(w, f, d, true)),
  stopFlow: onSingleFlow((w, f, d) => move(w, f, d, false)),
  changeFlowVersion: onSingleFlow(changeVersion, true),
  cancelChangeFlowVersion: onSingleFlow(cancelChange, true),
} satisfies Record<string, Call>;

/** The STATE and DETAILED_STATE of a deployment a check reads. */
const statusOf = (h: Hook<R>, rec: Readonly<EngineRecord>): Status => new Workload(h).deploymentStatus(rec);

/** The declaration of deployments (states and actions: the model's facts). */
export const deployment: Resource<R> = {
  ...inEnvironment('deployment', ['deploymentCrn']),
  minutes: { create: CREATING, update: 1, delete: 2, suspend: 1, resume: 2, restart: 2, updateNifi: 3, cancelNifiUpdate: 1 },
  // Asking for what is so, or under way, changes nothing: a resume, of one that runs or is on its way there.
  unchangedIn: {
    suspend: statesOf('deployment', (s) => s === 'SUSPENDING' || s === 'SUSPENDED'),
    resume: statesOf('deployment', (s) => !['SUSPENDED', 'SUSPENDING', 'TERMINATING', 'TERMINATED'].includes(s)),
    restart: statesOf('deployment', (s) => s === 'RESTARTING'),
  },
  hooks: {
    check: {
      suspend: (h, rec) => {
        const s = statusOf(h, rec).state;
        if (s !== 'SUSPENDING' && s !== 'SUSPENDED' && !STEADY_DEPLOYMENT.has(s))
          throw failedPrecondition(`deployment ${String(rec.name)} cannot be suspended while ${s}`);
      },
      resume: (h, rec) => {
        const s = statusOf(h, rec).state;
        if (s === 'SUSPENDING' || s === 'TERMINATING')
          throw failedPrecondition(`deployment ${String(rec.name)} cannot be resumed while ${s}`);
      },
      // To a version on offer, other than the one it runs, from a healthy state.
      updateNifi: (h, rec, req) => {
        const version = text(req.cfmNifiVersion);
        const s = statusOf(h, rec).state;
        if (!NIFI_VERSIONS.includes(version)) throw invalid(`NiFi version ${version} is not available; see listNifiVersions`);
        if (!HEALTHY.has(s)) throw failedPrecondition(`deployment ${String(rec.name)} cannot change NiFi version while ${s}`);
        if (version === rec.doc.cfmNifiVersion) throw failedPrecondition(`deployment ${String(rec.name)} already runs NiFi ${version}`);
      },
      // Its version stays the one it ran: the update's effect is never applied.
      cancelNifiUpdate: (h, rec) => {
        if (statusOf(h, rec).detailedState !== 'UPDATING_NIFI_VERSION')
          throw failedPrecondition(`deployment ${String(rec.name)} is not changing its NiFi version`);
      },
      restart: (h, rec) => {
        const s = statusOf(h, rec);
        if (s.state !== 'RESTARTING' && (!STEADY_DEPLOYMENT.has(s.state) || s.detailedState === 'FAILED_TO_DEPLOY'))
          throw failedPrecondition(`deployment ${String(rec.name)} cannot be restarted while ${s.state}`);
      },
    },
  },
};

// ---- deployed flows

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
