/**
 * Deployments: their lifecycle (DEPLOYMENT), creation from a deployment
 * request with their first flow, configuration updates, the state changes a
 * caller asks for, NiFi version changes, and export to archives. A
 * deployment whose name starts with `fail-` ends its creation in
 * BAD_HEALTH / FAILED_TO_DEPLOY. A terminated deployment is gone (its flows
 * and assets with it) once termination has finished.
 */
import { randomBytes } from 'node:crypto';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { Resources, willFail, type Lifecycle } from '../../lifecycle.js';
import type { Doc } from '../../types.js';
import type { Workload } from './workload.js';
import { DEFAULT_NIFI, NIFI_VERSIONS, checkClusterSize } from './catalogue.js';
import { HEALTHY, KIND, STEADY_DEPLOYMENT, split, type Archive, type DeployedFlow, type Deployment, type Status } from './records.js';

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

/** Fails unless a configuration change names the current version. */
export function checkVersion(current: number, given: unknown, what: string): void {
  if (given !== current)
    throw failedPrecondition(
      `the ${what} configuration has changed: version ${String(given)} is stale, the current version is ${current}; read it again and retry`,
    );
}

export class Deployments {
  readonly store: Resources<Deployment>;

  constructor(private readonly b: Workload) {
    this.store = new Resources<Deployment>(b.ctx, {
      kind: KIND.deployment,
      noun: 'deployment',
      lifecycle: DEPLOYMENT,
      touched: (d, now) => (d.updated = now),
      id: (d) => d.id,
      name: (d) => d.name,
      keys: (d) => ({ crn: d.crn, name: `${d.environmentCrn}|${d.name}` }),
      remove: (d) => this.forget(d),
    });
  }

  status(d: Deployment): Status & { done: boolean; failed: boolean } {
    const p = this.store.progress(d);
    return { ...split(p.state), done: p.done, failed: p.failed };
  }

  /** The deployment, or NOT_FOUND (also once termination has finished). */
  get(env: string, deploymentCrn: string | undefined): Deployment {
    if (!deploymentCrn) throw invalid('deploymentCrn is required');
    const d = this.store.find(deploymentCrn);
    if (!d || (env && d.environmentCrn !== env)) throw notFound(`deployment ${deploymentCrn} not found`);
    return d;
  }

  /** The deployments of the account that are not gone. */
  all(): Deployment[] {
    return this.store.all();
  }

  /** Removes a terminated deployment with its flows and assets, and frees its inbound endpoint. */
  private forget(d: Deployment): void {
    for (const f of this.b.store.children<DeployedFlow>(KIND.flow, d.crn)) this.b.store.delete(KIND.flow, f.id);
    for (const a of this.b.store.children<{ id: string; storedAt: string }>(KIND.asset, d.crn)) this.b.assets.drop(a.doc);
    this.b.inbound.release(d);
    this.b.store.delete(KIND.deployment, d.id);
  }

  save(d: Deployment): void {
    this.store.save(d);
  }

  private begin(d: Deployment, action: string): void {
    this.store.begin(d, action);
  }

  create(env: string, spec: DeploymentSpec): { deployment: Deployment; flow: DeployedFlow } {
    if (!/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,127}$/.test(spec.name))
      throw invalid('deployment names are 1 to 128 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit');
    if (this.store.find(`${env}|${spec.name}`)) throw alreadyExists(`a deployment named "${spec.name}" already exists`);
    if (spec.nifiVersion !== undefined && !NIFI_VERSIONS.includes(spec.nifiVersion))
      throw invalid(`NiFi version ${spec.nifiVersion} is not available; see listNifiVersions`);
    for (const key of ['customNarConfigurationCrn', 'customPythonConfigurationCrn'] as const) {
      const c = spec.config[key];
      if (typeof c === 'string' && c) this.b.configs.get(key === 'customNarConfigurationCrn' ? KIND.nar : KIND.python, env, c);
    }
    if (spec.sharedParameterGroupCrn) this.b.groups.get(env, spec.sharedParameterGroupCrn);
    if (spec.config.clusterSize !== undefined) checkClusterSize(spec.config.clusterSize);
    const req = this.b.requests.use(env, spec.requestCrn, 'deployment');
    const id = uuid();
    const now = this.b.now;
    const d = this.store.create(
      {
        id,
        crn: this.b.crnOf('deployment', id),
        name: spec.name,
        environmentCrn: env,
        projectCrn: spec.projectCrn,
        creatorCrn: this.b.ctx.caller.actorCrn,
        deployedBy: this.b.actorName(),
        deploymentRequestCrn: req.crn,
        created: now,
        updated: now,
        configurationVersion: spec.configurationVersion ?? 0,
        config: { ...spec.config },
        cfmNifiVersion: spec.nifiVersion ?? DEFAULT_NIFI,
      },
      'create',
    );
    const hostname = spec.config.inboundHostname;
    if (typeof hostname === 'string' && hostname) {
      d.inboundEndpointCrn = this.b.inbound.assign(env, hostname, d.crn);
      this.save(d);
    }
    // The deployment's first flow, deployed with it.
    const flow = this.b.flows.deploy(d, {
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
    this.b.assets.move(req.crn, flow.crn);
    return { deployment: d, flow };
  }

  /** Changes a deployment's configuration (the current version must be named). */
  update(env: string, deploymentCrn: string | undefined, change: DeploymentChange): Deployment {
    const d = this.get(env, deploymentCrn);
    const s = this.status(d);
    if (s.state === 'TERMINATING') throw failedPrecondition(`deployment ${d.name} is terminating`);
    checkVersion(d.configurationVersion, change.configurationVersion, 'deployment');
    const c = change.config;
    if (typeof c.autoScaleMinNodes === 'number' && typeof c.autoScaleMaxNodes === 'number' && c.autoScaleMinNodes > c.autoScaleMaxNodes)
      throw invalid('autoScaleMinNodes is above autoScaleMaxNodes');
    if (c.clusterSize !== undefined) checkClusterSize(c.clusterSize);
    for (const key of ['customNarConfigurationCrn', 'customPythonConfigurationCrn'] as const) {
      const crn = c[key];
      if (typeof crn === 'string' && crn) this.b.configs.get(key === 'customNarConfigurationCrn' ? KIND.nar : KIND.python, env, crn);
    }
    for (const k of UPDATE_KEYS) if (c[k] !== undefined) d.config[k] = c[k];
    if (c.autoScaleMinNodes !== undefined || c.autoScaleMaxNodes !== undefined) d.config.autoScalingEnabled = true;
    else if (c.staticNodeCount !== undefined) d.config.autoScalingEnabled = false;
    if (change.deactivateInbound) {
      this.b.inbound.release(d);
      delete d.config.inboundHostname;
    } else if (change.inboundHostname && change.inboundHostname !== d.config.inboundHostname) {
      this.b.inbound.release(d);
      d.inboundEndpointCrn = this.b.inbound.assign(env, change.inboundHostname, d.crn);
      d.config.inboundHostname = change.inboundHostname;
    }
    const flows = this.b.flows.of(d);
    if (change.assetUpdateRequestCrn) this.b.assets.applyRequest(env, change.assetUpdateRequestCrn, d, flows[0]);
    if (change.parameterGroups && flows[0]) {
      flows[0].parameterGroups = change.parameterGroups;
      this.b.flows.save(flows[0]);
    }
    d.configurationVersion += 1;
    d.deployedBy = this.b.actorName();
    if (STEADY_DEPLOYMENT.has(s.state)) this.begin(d, 'update');
    else this.save(d);
    return d;
  }

  /** Terminates a deployment and its flows (once: terminating again changes nothing). */
  terminate(env: string, deploymentCrn: string | undefined): Deployment {
    const d = this.get(env, deploymentCrn);
    if (this.status(d).state !== 'TERMINATING') {
      this.begin(d, 'terminate');
      for (const f of this.b.flows.of(d)) this.b.flows.terminateWith(f);
    }
    return d;
  }

  suspend(env: string, deploymentCrn: string | undefined): Deployment {
    const d = this.get(env, deploymentCrn);
    const s = this.status(d);
    if (s.state === 'SUSPENDING' || s.state === 'SUSPENDED') return d;
    if (!STEADY_DEPLOYMENT.has(s.state)) throw failedPrecondition(`deployment ${d.name} cannot be suspended while ${s.state}`);
    this.begin(d, 'suspend');
    return d;
  }

  /** Resumes a suspended deployment; one running or on its way there stays as it is. */
  resume(env: string, deploymentCrn: string | undefined): Deployment {
    const d = this.get(env, deploymentCrn);
    const s = this.status(d);
    if (s.state === 'SUSPENDED') this.begin(d, 'resume');
    else if (['SUSPENDING', 'TERMINATING'].includes(s.state))
      throw failedPrecondition(`deployment ${d.name} cannot be resumed while ${s.state}`);
    return d;
  }

  restart(env: string, deploymentCrn: string | undefined): Deployment {
    const d = this.get(env, deploymentCrn);
    const s = this.status(d);
    if (s.state === 'RESTARTING') return d;
    if (!STEADY_DEPLOYMENT.has(s.state) || s.detailedState === 'FAILED_TO_DEPLOY')
      throw failedPrecondition(`deployment ${d.name} cannot be restarted while ${s.state}`);
    this.begin(d, 'restart');
    return d;
  }

  updateNifiVersion(env: string, deploymentCrn: string | undefined, version: string): Deployment {
    const d = this.get(env, deploymentCrn);
    const s = this.status(d);
    if (!NIFI_VERSIONS.includes(version)) throw invalid(`NiFi version ${version} is not available; see listNifiVersions`);
    if (!HEALTHY.has(s.state)) throw failedPrecondition(`deployment ${d.name} cannot change NiFi version while ${s.state}`);
    if (version === d.cfmNifiVersion) throw failedPrecondition(`deployment ${d.name} already runs NiFi ${version}`);
    d.previousNifiVersion = d.cfmNifiVersion;
    d.cfmNifiVersion = version;
    this.begin(d, 'updateNifi');
    return d;
  }

  cancelNifiVersionUpdate(env: string, deploymentCrn: string | undefined): Deployment {
    const d = this.get(env, deploymentCrn);
    if (this.status(d).detailedState !== 'UPDATING_NIFI_VERSION')
      throw failedPrecondition(`deployment ${d.name} is not changing its NiFi version`);
    if (d.previousNifiVersion) d.cfmNifiVersion = d.previousNifiVersion;
    delete d.previousNifiVersion;
    this.begin(d, 'cancelNifiUpdate');
    return d;
  }

  /** Starts or stops every flow of a steady deployment. */
  moveAllFlows(env: string, deploymentCrn: string | undefined, start: boolean): Deployment {
    const d = this.get(env, deploymentCrn);
    const s = this.status(d);
    if (!STEADY_DEPLOYMENT.has(s.state))
      throw failedPrecondition(`deployment ${d.name} is ${s.state}; its flows cannot be ${start ? 'started' : 'stopped'}`);
    for (const f of this.b.flows.of(d)) this.b.flows.move(f, d, start);
    return d;
  }

  /** The only flow of a deployment, for the single-flow (deprecated) calls. */
  singleFlow(d: Deployment): DeployedFlow {
    const flows = this.b.flows.of(d);
    if (flows.length !== 1 || !flows[0])
      throw failedPrecondition(`deployment ${d.name} has ${flows.length} flows; use the calls that name the flow (deployed-flows)`);
    return flows[0];
  }

  // ---- archives

  /** Exports a deployment's configuration and flows into a named archive. */
  export(env: string, deploymentCrn: string | undefined, description?: string): Archive {
    const d = this.get(env, deploymentCrn);
    const flows = this.b.flows.of(d);
    const stamp = new Date(this.b.now)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const a: Archive = {
      archiveName: `${d.name.replace(/\s+/g, '-')}-${stamp}-${randomBytes(2).toString('hex')}`,
      environmentCrn: env,
      deploymentName: d.name,
      flowName: flows[0]?.flowName ?? '',
      deployedFlows: flows.map((f) => ({ deployedFlowName: f.name, flowDefinitionName: f.flowName })),
      archiveDescription: description,
      modifiedTime: this.b.now,
      uploadTime: this.b.now,
      projectCrn: d.projectCrn,
      snapshot: {
        config: d.config,
        cfmNifiVersion: d.cfmNifiVersion,
        flows: flows.map((f) => ({ name: f.name, flowName: f.flowName, parameterGroups: f.parameterGroups, kpis: f.kpis })),
      },
    };
    this.b.store.put(KIND.archive, `${env}|${a.archiveName}`, a, { name: `${env}|${a.archiveName}` });
    return a;
  }

  archive(env: string, name: string | undefined): Archive {
    if (!name) throw invalid('archiveName is required');
    const a = this.b.store.get<Archive>(KIND.archive, `${env}|${name}`);
    if (!a) throw notFound(`archive ${name} not found`);
    return a;
  }

  /** The archives of an environment, those whose name contains `term` when given. */
  archives(env: string, term?: string): Archive[] {
    const t = term?.toLowerCase();
    return this.b.store
      .list<Archive>(KIND.archive)
      .map((x) => x.doc)
      .filter((a) => a.environmentCrn === env && (!t || a.archiveName.toLowerCase().includes(t)));
  }

  /** Ties an archive to an open request, for a deployment (or a flow) made from it. */
  importArchive(env: string, requestCrn: string | undefined, kind: 'deployment' | 'flow', archiveName: string | undefined): Archive {
    const req = this.b.requests.open(env, requestCrn, kind);
    const a = this.archive(env, archiveName);
    req.archive = a.archiveName;
    this.b.requests.save(req);
    return a;
  }
}
