/**
 * Deployments: creation from a deployment request with their first flow,
 * configuration updates, the state changes a caller asks for, NiFi version
 * changes and termination, and the deprecated calls on a deployment's only
 * flow. A deployment whose name starts with `fail-` ends its creation in
 * BAD_HEALTH / FAILED_TO_DEPLOY.
 */
import type { Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { willFail } from '../../engine/timeline.js';
import { alreadyExists, failedPrecondition, invalid } from '../../errors.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { num, str, text } from '../../values.js';
import { applyRequest, dropAssets } from './assets.js';
import { DEFAULT_NIFI, NIFI_VERSIONS, checkClusterSize } from './catalogue.js';
import { configField, get as configuration } from './configurations.js';
import { cancelChange, changeVersion, deploy, move } from './flows.js';
import { assign } from './inbound.js';
import { sharedGroup } from './parameter-groups.js';
import * as requests from './requests.js';
import { deploymentConfigDoc, deploymentDoc } from './views.js';
import {
  HEALTHY,
  STEADY_DEPLOYMENT,
  Workload,
  checkVersion,
  inEnvironment,
  statesOf,
  type Call,
  type DeployedFlow,
  type Deployment,
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
