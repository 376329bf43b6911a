/**
 * Deployments: creation from a deployment request with their first flow,
 * configuration updates, the state changes a caller asks for, NiFi version
 * changes, and export to archives (their records and lifecycle are in
 * deployed.ts). A deployment whose name starts with `fail-` ends its
 * creation in BAD_HEALTH / FAILED_TO_DEPLOY.
 */
import { alreadyExists, failedPrecondition, invalid } from '../../errors.js';
import { uuid } from '../../ids.js';
import { willFail } from '../../engine/timeline.js';
import type { Doc } from '../../types.js';
import { text } from '../../values.js';
import * as assetRequests from './asset-requests.js';
import { drop, moveAssets } from './assets.js';
import { DEFAULT_NIFI, NIFI_VERSIONS, checkClusterSize } from './catalogue.js';
import * as configs from './configurations.js';
import {
  CREATION_MINUTES,
  beginOn,
  checkVersion,
  deploymentRecords,
  deploymentStatus,
  findDeployment,
  flowsOf,
  getDeployment,
  saveDeployed,
  statesOf,
  CREATING,
} from './deployed.js';
import * as flows from './flows.js';
import * as inbound from './inbound.js';
import { sharedGroup } from './parameter-groups.js';
import {
  HEALTHY,
  KIND,
  STEADY_DEPLOYMENT,
  inEnvironment,
  type Asset,
  type DeployedFlow,
  type Deployment,
  type R,
  type Status,
} from './records.js';
import * as requests from './requests.js';
import { Workload } from './workload.js';
import type { Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';

/** Deployment settings stored as given (sizing, scaling, KPIs, inbound connection, custom configurations). */
export const CONFIG_KEYS = [
  'autoScalingEnabled',
  'flowMetricsScalingEnabled',
  'autoScaleMinNodes',
  'autoScaleMaxNodes',
  'staticNodeCount',
  'kpis',
  'autoStartFlow',
  'clusterSize',
  'inboundHostname',
  'listenComponents',
  'inboundConnectionAuthorizedIpRanges',
  'nodeStorageProfileName',
  'nodeStorage',
  'pythonWorkDirectorySize',
  'customNarConfigurationCrn',
  'customPythonConfigurationCrn',
] as const;
/** The settings an update may change. */
export const UPDATE_KEYS = [
  'clusterSize',
  'autoScaleMinNodes',
  'autoScaleMaxNodes',
  'staticNodeCount',
  'kpis',
  'listenComponents',
  'inboundConnectionAuthorizedIpRanges',
  'customNarConfigurationCrn',
  'customPythonConfigurationCrn',
] as const;

export type DeploymentConfig = Partial<Record<(typeof CONFIG_KEYS)[number], unknown>>;

export interface DeploymentSpec {
  readonly name: string;
  readonly projectCrn?: string;
  readonly requestCrn?: string;
  readonly configurationVersion?: number;
  readonly nifiVersion?: string;
  readonly config: DeploymentConfig;
  /** Its first flow. */
  readonly flowName?: string;
  readonly parameterGroups: Doc[];
  readonly kpis: Doc[];
  readonly sharedParameterGroupCrn?: string;
  readonly autoStartFlow: boolean;
}

export interface DeploymentChange {
  readonly configurationVersion: unknown;
  readonly config: DeploymentConfig;
  readonly deactivateInbound: boolean;
  readonly inboundHostname?: string;
  readonly assetUpdateRequestCrn?: string;
  readonly parameterGroups?: Doc[];
}

export function create(w: Workload, env: string, spec: DeploymentSpec): { deployment: Deployment; flow: DeployedFlow } {
  if (!/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,127}$/.test(spec.name))
    throw invalid('deployment names are 1 to 128 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit');
  if (findDeployment(w, spec.name, env)) throw alreadyExists(`a deployment named "${spec.name}" already exists`);
  if (spec.nifiVersion !== undefined && !NIFI_VERSIONS.includes(spec.nifiVersion))
    throw invalid(`NiFi version ${spec.nifiVersion} is not available; see listNifiVersions`);
  for (const key of ['customNarConfigurationCrn', 'customPythonConfigurationCrn'] as const) {
    const c = spec.config[key];
    if (typeof c === 'string' && c)
      configs.get(w, key === 'customNarConfigurationCrn' ? 'customNarConfiguration' : 'customPythonConfiguration', env, c);
  }
  if (spec.sharedParameterGroupCrn) sharedGroup(w, env, spec.sharedParameterGroupCrn);
  if (spec.config.clusterSize !== undefined) checkClusterSize(spec.config.clusterSize);
  const req = requests.use(w, env, spec.requestCrn, 'deployment');
  const id = uuid();
  const now = w.now;
  const d = deploymentRecords(w).create({
    id,
    crn: w.h.crn('deployment', id),
    name: spec.name,
    scope: env,
    env,
    doc: {
      environmentCrn: env,
      projectCrn: spec.projectCrn,
      creatorCrn: w.ctx.caller.actorCrn,
      deployedBy: w.actorName(),
      deploymentRequestCrn: req.crn,
      created: now,
      updated: now,
      configurationVersion: spec.configurationVersion ?? 0,
      config: { ...spec.config },
      cfmNifiVersion: spec.nifiVersion ?? DEFAULT_NIFI,
    },
  }) as Deployment;
  const hostname = spec.config.inboundHostname;
  if (typeof hostname === 'string' && hostname) {
    d.doc.inboundEndpointCrn = inbound.assign(w, env, hostname, d.crn);
    deploymentRecords(w).save(d);
  }
  // The deployment's first flow, deployed with it.
  const flow = flows.deploy(w, d, {
    name: spec.flowName ?? req.flowName,
    req,
    parameterGroups: spec.parameterGroups,
    kpis: spec.kpis,
    configurationVersion: 0,
    autoStart: spec.autoStartFlow,
    sharedParameterGroupCrn: spec.sharedParameterGroupCrn,
    deployFor: CREATION_MINUTES,
    failing: willFail(d.activity),
  });
  moveAssets(w, req.crn, flow.crn);
  return { deployment: d, flow };
}

/** Changes a deployment's configuration (the current version must be named). */
export function update(w: Workload, env: string, deploymentCrn: string | undefined, change: DeploymentChange): Deployment {
  const d = getDeployment(w, env, deploymentCrn);
  const s = deploymentStatus(w, d);
  if (s.state === 'TERMINATING') throw failedPrecondition(`deployment ${d.name} is terminating`);
  checkVersion(d.doc.configurationVersion, change.configurationVersion, 'deployment');
  const c = change.config;
  if (typeof c.autoScaleMinNodes === 'number' && typeof c.autoScaleMaxNodes === 'number' && c.autoScaleMinNodes > c.autoScaleMaxNodes)
    throw invalid('autoScaleMinNodes is above autoScaleMaxNodes');
  if (c.clusterSize !== undefined) checkClusterSize(c.clusterSize);
  for (const key of ['customNarConfigurationCrn', 'customPythonConfigurationCrn'] as const) {
    const crn = c[key];
    if (typeof crn === 'string' && crn)
      configs.get(w, key === 'customNarConfigurationCrn' ? 'customNarConfiguration' : 'customPythonConfiguration', env, crn);
  }
  const config = d.doc.config;
  for (const k of UPDATE_KEYS) if (c[k] !== undefined) config[k] = c[k];
  if (c.autoScaleMinNodes !== undefined || c.autoScaleMaxNodes !== undefined) config.autoScalingEnabled = true;
  else if (c.staticNodeCount !== undefined) config.autoScalingEnabled = false;
  if (change.deactivateInbound) {
    releaseEndpoint(w, d);
    delete config.inboundHostname;
  } else if (change.inboundHostname && change.inboundHostname !== config.inboundHostname) {
    releaseEndpoint(w, d);
    d.doc.inboundEndpointCrn = inbound.assign(w, env, change.inboundHostname, d.crn);
    config.inboundHostname = change.inboundHostname;
  }
  const flows = flowsOf(w, d);
  if (change.assetUpdateRequestCrn) assetRequests.applyRequest(w, env, change.assetUpdateRequestCrn, d, flows[0]);
  if (change.parameterGroups && flows[0]) {
    flows[0].doc.parameterGroups = change.parameterGroups;
    saveDeployed(w, flows[0]);
  }
  d.doc.configurationVersion += 1;
  d.doc.deployedBy = w.actorName();
  if (STEADY_DEPLOYMENT.has(s.state)) beginOn(w, d, 'update');
  else saveDeployed(w, d);
  return d;
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
  const d = getDeployment(w, env, deploymentCrn);
  if (deploymentStatus(w, d).state !== 'TERMINATING') {
    for (const f of flowsOf(w, d)) flows.terminateWith(w, f);
    for (const a of w.store.children<Asset>(KIND.asset, d.crn)) drop(w, a.doc);
    releaseEndpoint(w, d);
    beginOn(w, d, 'delete');
  }
  return d;
}

/** The STATE and DETAILED_STATE of a deployment a check reads. */
const statusOf = (h: Hook<R>, rec: Readonly<EngineRecord>): Status => deploymentStatus(new Workload(h), rec as Deployment);

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

/** Starts or stops every flow of a steady deployment. */
export function moveAllFlows(w: Workload, env: string, deploymentCrn: string | undefined, start: boolean): Deployment {
  const d = getDeployment(w, env, deploymentCrn);
  const s = deploymentStatus(w, d);
  if (!STEADY_DEPLOYMENT.has(s.state))
    throw failedPrecondition(`deployment ${d.name} is ${s.state}; its flows cannot be ${start ? 'started' : 'stopped'}`);
  for (const f of flowsOf(w, d)) flows.move(w, f, d, start);
  return d;
}

/** The only flow of a deployment, for the single-flow (deprecated) calls. */
export function singleFlow(w: Workload, d: Deployment): DeployedFlow {
  const flows = flowsOf(w, d);
  if (flows.length !== 1 || !flows[0])
    throw failedPrecondition(`deployment ${d.name} has ${flows.length} flows; use the calls that name the flow (deployed-flows)`);
  return flows[0];
}
