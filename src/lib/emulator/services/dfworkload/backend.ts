/**
 * The DataFlow workload service of the emulator: state and rules, no HTTP.
 *
 * Deployments and deployed flows move through states on the emulator clock:
 * each keeps a timeline (clock.ts) whose steps are "STATE/DETAILED_STATE"
 * pairs, read lazily whenever the resource is read, so nothing runs in the
 * background. A deployment whose name starts with `fail-` ends its creation
 * in BAD_HEALTH / FAILED_TO_DEPLOY.
 *
 * Calls that ask for a state (suspend, resume, start, stop) change nothing
 * when the resource is already in that state or on its way there, and answer
 * with the resource as it is; the CLI's --wait relies on this, because the
 * workload API has no read call that reports these states.
 *
 * Configurations carry a version: an update must name the current version
 * and moves it on by one; a stale one fails with FAILED_PRECONDITION.
 */
import { readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { stateAt, timeline, type Timeline } from '../../clock.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { crn, crnId, uuid } from '../../ids.js';
import { findEnvironment, requireEnvironment } from '../../environments.js';
import type { Doc, RequestContext } from '../../types.js';

export const KIND = {
  deployment: 'dfworkload.deployment',
  flow: 'dfworkload.flow',
  request: 'dfworkload.request',
  assetRequest: 'dfworkload.assetRequest',
  asset: 'dfworkload.asset',
  nar: 'dfworkload.narConfig',
  python: 'dfworkload.pythonConfig',
  reportingTask: 'dfworkload.reportingTask',
  parameterGroup: 'dfworkload.parameterGroup',
  inbound: 'dfworkload.inboundEndpoint',
  draft: 'dfworkload.flowDraft',
  archive: 'dfworkload.archive',
} as const;

export const NIFI_VERSIONS = ['1.26.0.2.3.14.0-9', '1.27.0.2.3.15.0-12', '1.28.1.2.3.16.0-5', '2.0.0.4.3.1.0-40'];
const DEFAULT_NIFI = '1.28.1.2.3.16.0-5';

/** [state, detailedState, minutes] */
type Phase = readonly [string, string, number];

interface Deployment {
  id: string;
  crn: string;
  name: string;
  environmentCrn: string;
  projectCrn?: string;
  creatorCrn: string;
  deployedBy: string;
  deploymentRequestCrn: string;
  created: number;
  updated: number;
  configurationVersion: number;
  config: Doc;
  cfmNifiVersion: string;
  previousNifiVersion?: string;
  inboundEndpointCrn?: string;
  timeline: Timeline;
  message?: string;
}

interface DeployedFlow {
  id: string;
  crn: string;
  name: string;
  deploymentCrn: string;
  environmentCrn: string;
  projectCrn?: string;
  creatorCrn: string;
  deployedBy: string;
  created: number;
  updated: number;
  configurationVersion: number;
  parameterGroups: Doc[];
  kpis: Doc[];
  flowName: string;
  flowCrn: string;
  flowVersion: number;
  previousFlowVersion?: number;
  sharedParameterGroupCrn?: string;
  timeline: Timeline;
}

interface FlowRequest {
  crn: string;
  kind: 'deployment' | 'flow';
  environmentCrn: string;
  status: 'OPEN' | 'USED' | 'ABORTED';
  flowName: string;
  flowVersion: number;
  archive?: string;
}

interface AssetRequest {
  crn: string;
  environmentCrn: string;
  deploymentCrn: string;
  deployedFlowCrn?: string;
  status: 'OPEN' | 'USED' | 'ABORTED';
}

interface Asset {
  id: string;
  environmentCrn: string;
  owner: string;
  parameterGroup: string;
  parameterName: string;
  name: string;
  path: string;
  size: number;
  storedAt: string;
  deployedFlowName?: string;
  created: number;
}

interface CustomConfig {
  crn: string;
  environmentCrn: string;
  username: string;
  password: string;
  storageLocation: string;
  configurationVersion: number;
  projectCrn?: string;
}

interface ParameterGroupRec {
  id: string;
  crn: string;
  name: string;
  environmentCrn: string;
  description?: string;
  parameters: Doc[];
  version: number;
  created: number;
  updated: number;
  createdBy: string;
  projectCrn?: string;
}

interface InboundEndpoint {
  crn: string;
  environmentCrn: string;
  fullyQualifiedDomainName: string;
  deploymentCrn?: string;
  projectCrn?: string;
  authorizedIpRanges: string[];
  serverCertExpiry: number;
  clientCertExpiry: number;
  clientKeyId: string;
}

interface FlowDraft {
  crn: string;
  environmentCrn: string;
  flowName: string;
  created: number;
  lastModified: number;
  createdBy: string;
  runtimeVersion: string;
  session?: { crn: string; name: string; created: number; timeline: Timeline };
}

interface Archive {
  archiveName: string;
  environmentCrn: string;
  deploymentName: string;
  flowName: string;
  deployedFlows: Doc[];
  archiveDescription?: string;
  modifiedTime: number;
  uploadTime: number;
  projectCrn?: string;
  snapshot: Doc;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const list = (v: unknown): Doc[] => (Array.isArray(v) ? (v as Doc[]) : []);

const HEALTHY = new Set(['GOOD_HEALTH', 'CONCERNING_HEALTH']);
const STEADY_DEPLOYMENT = new Set(['GOOD_HEALTH', 'CONCERNING_HEALTH', 'BAD_HEALTH']);
const STEADY_FLOW = new Set(['GOOD_HEALTH', 'CONCERNING_HEALTH', 'BAD_HEALTH', 'FLOW_STOPPED']);

function phases(at: number, steps: readonly Phase[]): Timeline {
  return timeline(
    at,
    steps.map(([s, d, m]) => [`${s}/${d}`, m] as const),
  );
}

function split(step: string): { state: string; detailedState: string } {
  const [state = 'UNKNOWN', detailedState = 'UNKNOWN'] = step.split('/');
  return { state, detailedState };
}

function storageLocationOk(loc: string): boolean {
  return /^(s3a?|abfss?|wasbs?|gs|hdfs|ofs|https?):\/\/\S+$/i.test(loc);
}

export class DfWorkload {
  constructor(private readonly ctx: RequestContext) {}

  private get store() {
    return this.ctx.store;
  }

  private now(): number {
    return this.ctx.clock.now();
  }

  private crnOf(type: string, id: string): string {
    return crn('df', this.ctx.info.region, this.ctx.info.accountId, type, id);
  }

  /**
   * The CRN of the environment a request names; the workload token's
   * environment when it names none (the server has checked they agree).
   */
  private env(r: Doc): string {
    const e = str(r.environmentCrn) ?? this.ctx.caller.workload?.environmentCrn;
    if (!e) return '';
    if (!e.startsWith('crn:')) throw invalid(`environmentCrn must be a CRN; got "${e.slice(0, 100)}"`);
    return requireEnvironment(this.ctx, e).crn;
  }

  /** The caller's workload user name (what DataFlow shows as "deployed by"). */
  private actorName(): string {
    const actor = this.store.getByCrn<{ workloadUsername?: unknown }>(this.ctx.caller.actorCrn)?.doc;
    return typeof actor?.workloadUsername === 'string' ? actor.workloadUsername : crnId(this.ctx.caller.actorCrn);
  }

  // ---------- deployments ----------

  private deploymentState(d: Deployment): { state: string; detailedState: string; done: boolean } {
    const at = stateAt(d.timeline, this.now());
    return { ...split(at.state), done: at.done };
  }

  /** The deployment, or NOT_FOUND (also once termination has finished). */
  private deployment(env: string, deploymentCrn: unknown): Deployment {
    const c = str(deploymentCrn);
    if (!c) throw invalid('deploymentCrn is required');
    const found = this.store.getByCrn<Deployment>(c);
    if (!found || found.kind !== KIND.deployment || (env && found.doc.environmentCrn !== env)) throw notFound(`deployment ${c} not found`);
    const d = found.doc;
    const s = this.deploymentState(d);
    if (s.state === 'TERMINATED') {
      this.forgetDeployment(d);
      throw notFound(`deployment ${c} not found`);
    }
    return d;
  }

  /** Removes a terminated deployment with its flows and assets. */
  private forgetDeployment(d: Deployment): void {
    for (const f of this.store.children<DeployedFlow>(KIND.flow, d.crn)) this.store.delete(KIND.flow, f.id);
    for (const a of this.store.children<Asset>(KIND.asset, d.crn)) this.dropAsset(a.doc);
    if (d.inboundEndpointCrn) {
      const ep = this.store.getByCrn<InboundEndpoint>(d.inboundEndpointCrn);
      if (ep && ep.doc.deploymentCrn === d.crn) {
        delete ep.doc.deploymentCrn;
        this.putInbound(ep.doc);
      }
    }
    this.store.delete(KIND.deployment, d.id);
  }

  private putDeployment(d: Deployment): void {
    d.updated = this.now();
    this.store.put(KIND.deployment, d.id, d, { crn: d.crn, name: `${d.environmentCrn}|${d.name}` });
  }

  private setDeploymentTimeline(d: Deployment, list: readonly Phase[], message?: string): void {
    d.timeline = phases(this.now(), list);
    d.message = message;
    this.putDeployment(d);
  }

  private flows(d: Deployment): DeployedFlow[] {
    return this.store
      .children<DeployedFlow>(KIND.flow, d.crn)
      .map((f) => f.doc)
      .filter((f) => this.flowState(f, d).state !== 'TERMINATED');
  }

  private validActions(state: string, detailed: string): string[] {
    if (HEALTHY.has(state) || state === 'BAD_HEALTH') {
      const base = ['VIEW_NIFI', 'EDIT', 'TERMINATE', 'VIEW_METRICS', 'UPDATE_NIFI_VERSION', 'RESTART_DEPLOYMENT', 'MANAGE_DEPLOYMENT'];
      return [...base, 'EXPORT', 'SUSPEND', 'DOWNLOAD_LOG', 'CHANGE_FLOW_VERSION', 'DEPLOY_NEW_FLOW', 'START_ALL', 'STOP_ALL'];
    }
    if (state === 'SUSPENDED') return ['TERMINATE', 'RESUME', 'EDIT'];
    if (detailed === 'UPDATING_NIFI_VERSION') return ['CANCEL_NIFI_VERSION_UPDATE'];
    if (state === 'DEPLOYING') return ['CANCEL_CREATE'];
    return [];
  }

  /** The DataFlow service of an environment: named after it, in its cloud and region. */
  private serviceMeta(env: string): Doc {
    const e = findEnvironment(this.ctx, env);
    return {
      crn: crn('df', this.ctx.info.region, this.ctx.info.accountId, 'service', crnId(env)),
      name: e?.environmentName ?? crnId(env),
      cloudPlatform: e?.cloudPlatform ?? 'AWS',
      region: { name: e?.region ?? 'us-west-2', displayName: e?.region ?? 'us-west-2' },
      environmentCrn: env,
    };
  }

  private deploymentDoc(d: Deployment): Doc {
    const s = this.deploymentState(d);
    const status: Doc = { state: s.state, detailedState: s.detailedState };
    if (d.message && s.done) status.message = d.message;
    const c = d.config;
    const running = HEALTHY.has(s.state) || s.state === 'BAD_HEALTH' || s.state === 'UPDATING' || s.state === 'RESTARTING';
    const nodes = c.autoScalingEnabled ? (num(c.autoScaleMinNodes) ?? 1) : (num(c.staticNodeCount) ?? 1);
    const flows = this.flows(d);
    const first = flows[0];
    return {
      name: d.name,
      crn: d.crn,
      status,
      runtimeStatus: status,
      service: this.serviceMeta(d.environmentCrn),
      activeInfoAlertCount: 0,
      activeWarningAlertCount: 0,
      activeErrorAlertCount: s.state === 'BAD_HEALTH' ? 1 : 0,
      created: d.created,
      updated: d.updated,
      validActions: this.validActions(s.state, s.detailedState),
      nifiUrl: `${this.ctx.info.baseUrl}/nifi/${d.id}/`,
      clusterSizeParams: clusterSizeOf(c.clusterSize),
      autoscalingEnabled: Boolean(c.autoScalingEnabled),
      flowMetricsScalingEnabled: Boolean(c.flowMetricsScalingEnabled),
      ...(c.autoScalingEnabled
        ? { autoscaleMinNodes: num(c.autoScaleMinNodes) ?? 1, autoscaleMaxNodes: num(c.autoScaleMaxNodes) ?? 3 }
        : {}),
      staticNodeCount: num(c.staticNodeCount) ?? 1,
      currentNodeCount: running ? nodes : 0,
      creatorCrn: d.creatorCrn,
      deployedByUsername: d.deployedBy,
      deployedByName: d.deployedBy,
      dfxLocalUrl: `${this.ctx.info.baseUrl}/dfx/`,
      configurationVersion: d.configurationVersion,
      lastUpdatedByUsername: d.deployedBy,
      cfmNifiVersion: d.cfmNifiVersion,
      testSession: false,
      nodeStorageProfile: str(c.nodeStorageProfileName) ?? 'STANDARD_AWS',
      ...(d.inboundEndpointCrn ? { inboundConnectionEndpointId: crnId(d.inboundEndpointCrn) } : {}),
      ...(Array.isArray(c.inboundConnectionAuthorizedIpRanges)
        ? { inboundConnectionAuthorizedIpRanges: c.inboundConnectionAuthorizedIpRanges }
        : {}),
      ...(str(c.customNarConfigurationCrn) ? { customNarConfigurationId: crnId(String(c.customNarConfigurationCrn)) } : {}),
      ...(str(c.customPythonConfigurationCrn) ? { customPythonConfigurationId: crnId(String(c.customPythonConfigurationCrn)) } : {}),
      ...(first ? { flowName: first.flowName, flowVersion: first.flowVersion, flowCrn: first.flowCrn } : {}),
      deployedFlows: flows.map((f) => this.deployedFlowDoc(f, d, true)),
      ...(d.projectCrn ? { projectCrn: d.projectCrn } : {}),
    };
  }

  private deploymentConfigDoc(d: Deployment): Doc {
    const c = d.config;
    const first = this.flows(d)[0];
    return {
      configurationVersion: d.configurationVersion,
      deploymentId: d.id,
      deploymentCrn: d.crn,
      name: d.name,
      parameterGroups: first ? this.parameterGroupsWithAssets(first.parameterGroups, [d.crn, first.crn]) : [],
      autoScalingEnabled: Boolean(c.autoScalingEnabled),
      flowMetricsScalingEnabled: Boolean(c.flowMetricsScalingEnabled),
      ...(c.autoScalingEnabled
        ? { autoScaleMinNodes: num(c.autoScaleMinNodes) ?? 1, autoScaleMaxNodes: num(c.autoScaleMaxNodes) ?? 3 }
        : {}),
      staticNodeCount: num(c.staticNodeCount) ?? 1,
      kpis: list(c.kpis),
      cfmNifiVersion: d.cfmNifiVersion,
      autoStartFlow: c.autoStartFlow !== false,
      clusterSize: basicSize(c.clusterSize),
      nodeStorageProfileName: str(c.nodeStorageProfileName) ?? 'STANDARD_AWS',
      kpisDirty: false,
      sizingAndScalingDirty: false,
      customNarConfigurationDirty: false,
      customPythonConfigurationDirty: false,
      lastUpdatedByUsername: d.deployedBy,
      ...(str(c.inboundHostname) ? { inboundHostname: c.inboundHostname } : {}),
      ...(Array.isArray(c.listenComponents) ? { listenComponents: c.listenComponents } : {}),
      ...(d.projectCrn ? { projectCrn: d.projectCrn } : {}),
      assetConfigurationAvailable: true,
      pythonWorkDirectorySize: num(c.pythonWorkDirectorySize) ?? 5,
      ...(str(c.customNarConfigurationCrn) ? { customNarConfigurationId: crnId(String(c.customNarConfigurationCrn)) } : {}),
      ...(str(c.customPythonConfigurationCrn) ? { customPythonConfigurationId: crnId(String(c.customPythonConfigurationCrn)) } : {}),
    };
  }

  private checkVersion(current: number, given: unknown, what: string): void {
    if (given !== current)
      throw failedPrecondition(
        `the ${what} configuration has changed: version ${String(given)} is stale, the current version is ${current}; read it again and retry`,
      );
  }

  private useRequest(env: string, requestCrn: unknown, kind: FlowRequest['kind']): FlowRequest {
    const req = this.request(env, requestCrn, kind);
    if (req.status === 'ABORTED') throw failedPrecondition(`request ${req.crn} was aborted`);
    if (req.status === 'USED') throw alreadyExists(`request ${req.crn} has already been used`);
    req.status = 'USED';
    this.store.put(KIND.request, req.crn, req);
    return req;
  }

  /**
   * A deployment or flow request. It comes from the DataFlow control plane;
   * this service knows it once the details have been read
   * (get-deployment-request-details or get-flow-request-details-in-deployment,
   * which pass `register`), and every other use of an unknown one is refused.
   */
  private request(env: string, requestCrn: unknown, kind: FlowRequest['kind'], register = false): FlowRequest {
    const c = str(requestCrn);
    const field = kind === 'deployment' ? 'deploymentRequestCrn' : 'deployedFlowRequestCrn';
    if (!c) throw invalid(`${field} is required`);
    if (!c.startsWith('crn:')) throw invalid(`${field} must be a CRN`);
    const found = this.store.get<FlowRequest>(KIND.request, c);
    if (found) {
      if ((env && found.environmentCrn !== env) || found.kind !== kind) throw notFound(`request ${c} not found`);
      return found;
    }
    if (!register) {
      const read = kind === 'deployment' ? 'get-deployment-request-details' : 'get-flow-request-details-in-deployment';
      throw notFound(`${kind === 'deployment' ? 'deployment' : 'flow'} request ${c} is not known here; read its details first (${read})`);
    }
    const seed = crnId(c).replace(/[^A-Za-z0-9]/g, '');
    const rec: FlowRequest = {
      crn: c,
      kind,
      environmentCrn: env,
      status: 'OPEN',
      flowName: `flow-${seed.slice(0, 8) || 'x'}`,
      flowVersion: 1 + (parseInt(seed.slice(-2), 16) % 5 || 0),
    };
    this.store.put(KIND.request, c, rec);
    return rec;
  }

  private requestMetadata(req: FlowRequest): Doc {
    const flowCrn = this.crnOf('flow', req.flowName);
    return {
      flowCrn,
      flowName: req.flowName,
      flowVersion: req.flowVersion,
      flowVersionCrn: `${flowCrn}/v.${req.flowVersion}`,
      requiresEnvironmentSslContextService: false,
      artifactTypeName: 'flow',
      parameterGroups: this.parameterGroupsWithAssets([], [req.crn]),
      kpiMetaData: KPI_METADATA,
    };
  }

  createDeployment(r: Doc): Doc {
    const env = this.env(r);
    const name = String(r.name);
    if (!/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,127}$/.test(name))
      throw invalid('deployment names are 1 to 128 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit');
    const taken = this.store.getByName<Deployment>(KIND.deployment, `${env}|${name}`);
    if (taken && this.deploymentState(taken).state !== 'TERMINATED') throw alreadyExists(`a deployment named "${name}" already exists`);
    if (taken) this.forgetDeployment(taken);
    if (typeof r.cfmNifiVersion === 'string' && !NIFI_VERSIONS.includes(r.cfmNifiVersion))
      throw invalid(`NiFi version ${r.cfmNifiVersion} is not available; see listNifiVersions`);
    for (const f of ['customNarConfigurationCrn', 'customPythonConfigurationCrn'] as const) {
      const c = str(r[f]);
      if (c) this.customConfig(f === 'customNarConfigurationCrn' ? KIND.nar : KIND.python, env, c);
    }
    if (r.useSharedParameterGroupCrn) this.parameterGroup(env, r.useSharedParameterGroupCrn);
    if (r.clusterSize !== undefined) checkClusterSize(r.clusterSize);
    const req = this.useRequest(env, r.deploymentRequestCrn, 'deployment');
    const id = uuid();
    const d: Deployment = {
      id,
      crn: this.crnOf('deployment', id),
      name,
      environmentCrn: env,
      projectCrn: str(r.projectCrn),
      creatorCrn: this.ctx.caller.actorCrn,
      deployedBy: this.actorName(),
      deploymentRequestCrn: req.crn,
      created: this.now(),
      updated: this.now(),
      configurationVersion: num(r.configurationVersion) ?? 0,
      config: {},
      cfmNifiVersion: str(r.cfmNifiVersion) ?? DEFAULT_NIFI,
      timeline: { startedAt: 0, steps: [] },
    };
    for (const k of [
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
    ])
      if (r[k] !== undefined) d.config[k] = r[k];
    if (str(r.inboundHostname)) d.inboundEndpointCrn = this.assignInbound(env, String(r.inboundHostname), d.crn);
    const failing = name.toLowerCase().startsWith('fail-');
    const creation: Phase[] = [
      ['DEPLOYING', 'NEW', 0.5],
      ['DEPLOYING', 'CREATING_NODES', 3],
      ['DEPLOYING', 'DEPLOYING_ASSETS', 1],
      ['DEPLOYING', 'DEPLOYING_FLOW', 1],
    ];
    d.timeline = phases(this.now(), [...creation, failing ? ['BAD_HEALTH', 'FAILED_TO_DEPLOY', 0] : ['GOOD_HEALTH', 'GOOD_HEALTH', 0]]);
    if (failing) d.message = 'the flow could not be deployed: the emulator fails deployments named fail-*';
    this.putDeployment(d);
    // The deployment's first flow, deployed with it.
    const flow = this.newFlow(d, {
      name: str(r.deployedFlowName) ?? req.flowName,
      req,
      parameterGroups: list(r.parameterGroups),
      kpis: list(r.kpis),
      configurationVersion: 0,
      autoStart: r.autoStartFlow !== false,
      sharedParameterGroupCrn: str(r.useSharedParameterGroupCrn),
      deployFor: creation.reduce((t, p) => t + p[2], 0),
      failing,
    });
    this.moveAssets(req.crn, flow.crn);
    return { deployment: this.deploymentDoc(d) };
  }

  private newFlow(
    d: Deployment,
    o: {
      name: string;
      req: FlowRequest;
      parameterGroups: Doc[];
      kpis: Doc[];
      configurationVersion: number;
      autoStart: boolean;
      sharedParameterGroupCrn?: string;
      deployFor: number;
      failing?: boolean;
    },
  ): DeployedFlow {
    const id = uuid();
    const steady: Phase = o.failing
      ? ['BAD_HEALTH', 'FAILED_TO_IMPORT', 0]
      : o.autoStart
        ? ['GOOD_HEALTH', 'GOOD_HEALTH', 0]
        : ['FLOW_STOPPED', 'FLOW_STOPPED', 0];
    const f: DeployedFlow = {
      id,
      crn: this.crnOf('deployedFlow', id),
      name: o.name,
      deploymentCrn: d.crn,
      environmentCrn: d.environmentCrn,
      projectCrn: d.projectCrn,
      creatorCrn: this.ctx.caller.actorCrn,
      deployedBy: this.actorName(),
      created: this.now(),
      updated: this.now(),
      configurationVersion: o.configurationVersion,
      parameterGroups: o.parameterGroups,
      kpis: o.kpis,
      flowName: o.req.flowName,
      flowCrn: this.crnOf('flow', o.req.flowName),
      flowVersion: o.req.flowVersion,
      sharedParameterGroupCrn: o.sharedParameterGroupCrn,
      timeline: phases(this.now(), [['DEPLOYING', 'NEW', Math.max(0.5, o.deployFor - 1)], ['IMPORTING_FLOW', 'IMPORTING_FLOW', 1], steady]),
    };
    this.putFlow(f);
    return f;
  }

  private putFlow(f: DeployedFlow): void {
    f.updated = this.now();
    this.store.put(KIND.flow, f.id, f, { crn: f.crn, parent: f.deploymentCrn, name: `${f.deploymentCrn}|${f.name}` });
  }

  updateDeployment(r: Doc): Doc {
    const env = this.env(r);
    const d = this.deployment(env, r.deploymentCrn);
    const s = this.deploymentState(d);
    if (s.state === 'TERMINATING') throw failedPrecondition(`deployment ${d.name} is terminating`);
    this.checkVersion(d.configurationVersion, r.configurationVersion, 'deployment');
    if (typeof r.autoScaleMinNodes === 'number' && typeof r.autoScaleMaxNodes === 'number' && r.autoScaleMinNodes > r.autoScaleMaxNodes)
      throw invalid('autoScaleMinNodes is above autoScaleMaxNodes');
    if (r.clusterSize !== undefined) checkClusterSize(r.clusterSize);
    for (const f of ['customNarConfigurationCrn', 'customPythonConfigurationCrn'] as const) {
      const c = str(r[f]);
      if (c) this.customConfig(f === 'customNarConfigurationCrn' ? KIND.nar : KIND.python, env, c);
    }
    for (const k of [
      'clusterSize',
      'autoScaleMinNodes',
      'autoScaleMaxNodes',
      'staticNodeCount',
      'kpis',
      'listenComponents',
      'inboundConnectionAuthorizedIpRanges',
      'customNarConfigurationCrn',
      'customPythonConfigurationCrn',
    ])
      if (r[k] !== undefined) d.config[k] = r[k];
    if (r.autoScaleMinNodes !== undefined || r.autoScaleMaxNodes !== undefined) d.config.autoScalingEnabled = true;
    else if (r.staticNodeCount !== undefined) d.config.autoScalingEnabled = false;
    if (r.deactivateInboundConnection) {
      this.releaseInbound(d);
      delete d.config.inboundHostname;
    } else if (str(r.inboundHostname) && r.inboundHostname !== d.config.inboundHostname) {
      this.releaseInbound(d);
      d.inboundEndpointCrn = this.assignInbound(env, String(r.inboundHostname), d.crn);
      d.config.inboundHostname = r.inboundHostname;
    }
    const flows = this.flows(d);
    if (r.assetUpdateRequestCrn) this.applyAssetRequest(env, r.assetUpdateRequestCrn, d, flows[0]);
    if (Array.isArray(r.parameterGroups) && flows[0]) {
      flows[0].parameterGroups = r.parameterGroups as Doc[];
      this.putFlow(flows[0]);
    }
    d.configurationVersion += 1;
    d.deployedBy = this.actorName();
    if (STEADY_DEPLOYMENT.has(s.state))
      this.setDeploymentTimeline(d, [
        ['UPDATING', 'UPDATING', 1],
        [s.state, s.detailedState, 0],
      ]);
    else this.putDeployment(d);
    return { deploymentConfiguration: this.deploymentConfigDoc(d) };
  }

  terminateDeployment(r: Doc): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    const s = this.deploymentState(d);
    if (s.state !== 'TERMINATING') {
      this.setDeploymentTimeline(d, [
        ['TERMINATING', 'TERMINATING', 2],
        ['TERMINATED', 'STOPPED', 0],
      ]);
      for (const f of this.flows(d)) {
        f.timeline = phases(this.now(), [
          ['TERMINATING', 'TERMINATING', 2],
          ['TERMINATED', 'TERMINATED', 0],
        ]);
        this.putFlow(f);
      }
    }
    return { deployment: this.deploymentDoc(d) };
  }

  suspendDeployment(r: Doc): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    const s = this.deploymentState(d);
    if (s.state === 'SUSPENDING' || s.state === 'SUSPENDED') return { deployment: this.deploymentDoc(d) };
    if (!STEADY_DEPLOYMENT.has(s.state)) throw failedPrecondition(`deployment ${d.name} cannot be suspended while ${s.state}`);
    this.setDeploymentTimeline(d, [
      ['SUSPENDING', 'SUSPENDING', 1],
      ['SUSPENDED', 'SUSPENDED', 0],
    ]);
    return { deployment: this.deploymentDoc(d) };
  }

  resumeDeployment(r: Doc): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    const s = this.deploymentState(d);
    if (s.state === 'SUSPENDED') {
      this.setDeploymentTimeline(d, [
        ['RESUMING', 'RESUMING', 2],
        ['GOOD_HEALTH', 'GOOD_HEALTH', 0],
      ]);
      return { deployment: this.deploymentDoc(d) };
    }
    // Running or on its way to running: nothing to do.
    if (['SUSPENDING', 'TERMINATING'].includes(s.state))
      throw failedPrecondition(`deployment ${d.name} cannot be resumed while ${s.state}`);
    return { deployment: this.deploymentDoc(d) };
  }

  restartDeployment(r: Doc): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    const s = this.deploymentState(d);
    if (s.state === 'RESTARTING') return { deployment: this.deploymentDoc(d) };
    if (!STEADY_DEPLOYMENT.has(s.state) || s.detailedState === 'FAILED_TO_DEPLOY')
      throw failedPrecondition(`deployment ${d.name} cannot be restarted while ${s.state}`);
    this.setDeploymentTimeline(d, [
      ['RESTARTING', 'RESTARTING', 2],
      ['GOOD_HEALTH', 'GOOD_HEALTH', 0],
    ]);
    return { deployment: this.deploymentDoc(d) };
  }

  updateNifiVersion(r: Doc): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    const s = this.deploymentState(d);
    const v = String(r.cfmNifiVersion);
    if (!NIFI_VERSIONS.includes(v)) throw invalid(`NiFi version ${v} is not available; see listNifiVersions`);
    if (!HEALTHY.has(s.state)) throw failedPrecondition(`deployment ${d.name} cannot change NiFi version while ${s.state}`);
    if (v === d.cfmNifiVersion) throw failedPrecondition(`deployment ${d.name} already runs NiFi ${v}`);
    d.previousNifiVersion = d.cfmNifiVersion;
    d.cfmNifiVersion = v;
    this.setDeploymentTimeline(d, [
      ['UPDATING', 'UPDATING_NIFI_VERSION', 3],
      ['GOOD_HEALTH', 'GOOD_HEALTH', 0],
    ]);
    return { deployment: this.deploymentDoc(d) };
  }

  cancelNifiVersionUpdate(r: Doc): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    const s = this.deploymentState(d);
    if (s.detailedState !== 'UPDATING_NIFI_VERSION') throw failedPrecondition(`deployment ${d.name} is not changing its NiFi version`);
    if (d.previousNifiVersion) d.cfmNifiVersion = d.previousNifiVersion;
    delete d.previousNifiVersion;
    this.setDeploymentTimeline(d, [
      ['UPDATING', 'CANCELLING_NIFI_VERSION_UPDATE', 1],
      ['GOOD_HEALTH', 'GOOD_HEALTH', 0],
    ]);
    return { deployment: this.deploymentDoc(d) };
  }

  private allFlows(r: Doc, start: boolean): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    const s = this.deploymentState(d);
    if (!STEADY_DEPLOYMENT.has(s.state))
      throw failedPrecondition(`deployment ${d.name} is ${s.state}; its flows cannot be ${start ? 'started' : 'stopped'}`);
    for (const f of this.flows(d)) this.moveFlow(f, d, start);
    return { deployment: this.deploymentDoc(d) };
  }

  startAllFlowsInDeployment(r: Doc): Doc {
    return this.allFlows(r, true);
  }

  stopAllFlowsInDeployment(r: Doc): Doc {
    return this.allFlows(r, false);
  }

  /** The only flow of a deployment, for the single-flow (deprecated) calls. */
  private singleFlow(d: Deployment): DeployedFlow {
    const flows = this.flows(d);
    if (flows.length !== 1 || !flows[0])
      throw failedPrecondition(`deployment ${d.name} has ${flows.length} flows; use the calls that name the flow (deployed-flows)`);
    return flows[0];
  }

  startFlow(r: Doc): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    this.moveFlow(this.singleFlow(d), d, true);
    return { deployment: this.deploymentDoc(d) };
  }

  stopFlow(r: Doc): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    this.moveFlow(this.singleFlow(d), d, false);
    return { deployment: this.deploymentDoc(d) };
  }

  changeFlowVersion(r: Doc): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    const f = this.singleFlow(d);
    this.changeVersion(f, d, r);
    return { deploymentConfiguration: this.deploymentConfigDoc(d) };
  }

  cancelChangeFlowVersion(r: Doc): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    this.cancelChange(this.singleFlow(d), d);
    return { deploymentConfiguration: this.deploymentConfigDoc(d) };
  }

  exportDeployment(r: Doc): Doc {
    const env = this.env(r);
    const d = this.deployment(env, r.deploymentCrn);
    const flows = this.flows(d);
    const stamp = new Date(this.now())
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const archiveName = `${d.name.replace(/\s+/g, '-')}-${stamp}-${randomBytes(2).toString('hex')}`;
    const a: Archive = {
      archiveName,
      environmentCrn: env,
      deploymentName: d.name,
      flowName: flows[0]?.flowName ?? '',
      deployedFlows: flows.map((f) => ({ deployedFlowName: f.name, flowDefinitionName: f.flowName })),
      archiveDescription: str(r.archiveDescription),
      modifiedTime: this.now(),
      uploadTime: this.now(),
      projectCrn: d.projectCrn,
      snapshot: {
        config: d.config,
        cfmNifiVersion: d.cfmNifiVersion,
        flows: flows.map((f) => ({ name: f.name, flowName: f.flowName, parameterGroups: f.parameterGroups, kpis: f.kpis })),
      },
    };
    this.store.put(KIND.archive, `${env}|${archiveName}`, a, { name: `${env}|${archiveName}` });
    return { archiveName };
  }

  private archive(env: string, name: unknown): Archive {
    const n = str(name);
    if (!n) throw invalid('archiveName is required');
    const a = this.store.get<Archive>(KIND.archive, `${env}|${n}`);
    if (!a) throw notFound(`archive ${n} not found`);
    return a;
  }

  private importedConfig(a: Archive, flowName?: string): Doc {
    const snap = a.snapshot as { config: Doc; cfmNifiVersion: string; flows: Doc[] };
    const flows = flowName ? snap.flows.filter((f) => f.name === flowName || f.flowName === flowName) : snap.flows;
    if (flowName && flows.length === 0) throw notFound(`archive ${a.archiveName} has no flow ${flowName}`);
    const c = snap.config;
    return {
      autoScalingEnabled: Boolean(c.autoScalingEnabled),
      flowMetricsScalingEnabled: Boolean(c.flowMetricsScalingEnabled),
      ...(num(c.autoScaleMinNodes) !== undefined ? { autoScaleMinNodes: c.autoScaleMinNodes } : {}),
      ...(num(c.autoScaleMaxNodes) !== undefined ? { autoScaleMaxNodes: c.autoScaleMaxNodes } : {}),
      staticNodeCount: num(c.staticNodeCount) ?? 1,
      clusterSize: basicSize(c.clusterSize),
      kpis: list(c.kpis),
      deployedFlowKpis: flows.flatMap((f) => list(f.kpis)),
      flowParameterGroups: flows.flatMap((f) => list(f.parameterGroups)),
      cfmNifiVersion: snap.cfmNifiVersion,
      ...(str(c.inboundHostname) ? { inboundHostName: c.inboundHostname } : {}),
      nodeStorageProfile: str(c.nodeStorageProfileName) ?? 'STANDARD_AWS',
      ...(a.projectCrn ? { projectCrn: a.projectCrn } : {}),
      ...(str(c.customNarConfigurationCrn) ? { customNarConfigurationCrn: c.customNarConfigurationCrn } : {}),
      ...(str(c.customPythonConfigurationCrn) ? { customPythonConfigurationCrn: c.customPythonConfigurationCrn } : {}),
    };
  }

  importDeployment(r: Doc): Doc {
    const env = this.env(r);
    const req = this.request(env, r.deploymentRequestCrn, 'deployment');
    if (req.status !== 'OPEN') throw failedPrecondition(`request ${req.crn} is ${req.status.toLowerCase()}`);
    const a = this.archive(env, r.archiveName);
    req.archive = a.archiveName;
    this.store.put(KIND.request, req.crn, req);
    return { rpcImportedDeploymentConfiguration: this.importedConfig(a, str(r.flowName)) };
  }

  importFlowIntoDeployment(r: Doc): Doc {
    const env = this.env(r);
    const req = this.request(env, r.deployedFlowRequestCrn, 'flow');
    if (req.status !== 'OPEN') throw failedPrecondition(`request ${req.crn} is ${req.status.toLowerCase()}`);
    const a = this.archive(env, r.archiveName);
    req.archive = a.archiveName;
    this.store.put(KIND.request, req.crn, req);
    return { rpcImportedDeploymentConfiguration: this.importedConfig(a, String(r.flowName)) };
  }

  listDeploymentArchives(r: Doc): Doc {
    const env = this.env(r);
    const term = str(r.searchTerm)?.toLowerCase();
    const archives = this.store
      .list<Archive>(KIND.archive)
      .map((x) => x.doc)
      .filter((a) => a.environmentCrn === env && (!term || a.archiveName.toLowerCase().includes(term)))
      .map((a) => ({
        workloadVersion: '2.11.0',
        deploymentName: a.deploymentName,
        flowName: a.flowName,
        deployedFlows: a.deployedFlows,
        archiveName: a.archiveName,
        modifiedTime: a.modifiedTime,
        ...(a.archiveDescription ? { archiveDescription: a.archiveDescription } : {}),
        uploadTime: a.uploadTime,
        ...(a.projectCrn ? { projectCrn: a.projectCrn } : {}),
      }));
    return { archives };
  }

  getDeploymentConfiguration(r: Doc): Doc {
    return { deploymentConfiguration: this.deploymentConfigDoc(this.deployment(this.env(r), r.deploymentCrn)) };
  }

  getDeploymentConfigurationMetadata(r: Doc): Doc {
    const d = this.deployment(this.env(r), r.deploymentCrn);
    const f = this.flows(d)[0];
    const flowCrn = f?.flowCrn ?? this.crnOf('flow', 'none');
    return {
      deploymentConfigurationMetadata: {
        flowCrn,
        flowName: f?.flowName ?? '',
        flowVersion: f?.flowVersion ?? 0,
        flowVersionCrn: `${flowCrn}/v.${f?.flowVersion ?? 0}`,
        service: this.serviceMeta(d.environmentCrn),
        requiresEnvironmentSslContextService: false,
        parameterGroups: f ? this.parameterGroupsWithAssets(f.parameterGroups, [d.crn, f.crn]) : [],
        kpiMetaData: KPI_METADATA,
        clusterSizingOptions: CLUSTER_SIZES,
        nodeStorageProfileMetadata: STORAGE_PROFILES,
      },
    };
  }

  getDeploymentRequestDetails(r: Doc): Doc {
    const env = this.env(r);
    const req = this.request(env, r.deploymentRequestCrn, 'deployment', true);
    return {
      deploymentConfigurationMetadata: {
        ...this.requestMetadata(req),
        service: this.serviceMeta(env),
        clusterSizingOptions: CLUSTER_SIZES,
        nodeStorageProfileMetadata: STORAGE_PROFILES,
      },
    };
  }

  abortDeploymentRequest(r: Doc): Doc {
    const env = this.env(r);
    const req = this.request(env, r.deploymentRequestCrn, 'deployment');
    if (req.status === 'USED') throw failedPrecondition(`request ${req.crn} has already been deployed`);
    req.status = 'ABORTED';
    this.store.put(KIND.request, req.crn, req);
    for (const a of this.store.children<Asset>(KIND.asset, req.crn)) this.dropAsset(a.doc);
    return {};
  }

  // ---------- deployed flows ----------

  private flowState(f: DeployedFlow, d?: Deployment): { state: string; detailedState: string } {
    const own = split(stateAt(f.timeline, this.now()).state);
    if (own.state === 'TERMINATING' || own.state === 'TERMINATED') return own;
    const ds = d ? this.deploymentState(d).state : undefined;
    if (ds === 'SUSPENDING' || ds === 'SUSPENDED') return { state: 'DEPLOYMENT_SUSPENDED', detailedState: 'DEPLOYMENT_SUSPENDED' };
    if (ds === 'TERMINATING' || ds === 'TERMINATED') return { state: 'TERMINATING', detailedState: 'TERMINATING' };
    return own;
  }

  private flowIn(r: Doc): { d: Deployment; f: DeployedFlow } {
    const env = this.env(r);
    const d = this.deployment(env, r.deploymentCrn);
    const c = str(r.deployedFlowCrn);
    if (!c) throw invalid('deployedFlowCrn is required');
    const found = this.store.getByCrn<DeployedFlow>(c);
    if (!found || found.kind !== KIND.flow || found.doc.deploymentCrn !== d.crn)
      throw notFound(`flow ${c} not found in deployment ${d.name}`);
    if (this.flowState(found.doc, d).state === 'TERMINATED') {
      this.store.delete(KIND.flow, found.doc.id);
      throw notFound(`flow ${c} not found in deployment ${d.name}`);
    }
    return { d, f: found.doc };
  }

  private deployedFlowDoc(f: DeployedFlow, d: Deployment, nested = false): Doc {
    const s = this.flowState(f, d);
    const actions =
      s.state === 'FLOW_STOPPED'
        ? ['VIEW_NIFI', 'START_FLOW', 'EDIT', 'TERMINATE', 'CHANGE_FLOW_VERSION']
        : HEALTHY.has(s.state) || s.state === 'BAD_HEALTH'
          ? ['VIEW_NIFI', 'STOP_FLOW', 'EDIT', 'TERMINATE', 'CHANGE_FLOW_VERSION']
          : s.state === 'CHANGING_FLOW_VERSION'
            ? ['CANCEL_CHANGE_FLOW_VERSION']
            : [];
    return {
      ...(nested ? { id: f.id, deploymentId: crnId(d.crn) } : {}),
      name: f.name,
      crn: f.crn,
      status: s,
      configurationVersion: f.configurationVersion,
      targetProcessGroupId: f.id,
      activeInfoAlertCount: 0,
      activeWarningAlertCount: 0,
      activeErrorAlertCount: s.state === 'BAD_HEALTH' ? 1 : 0,
      environmentId: crnId(f.environmentCrn),
      deploymentName: d.name,
      artifactName: f.flowName,
      flowVersion: f.flowVersion,
      flowVersionCrn: `${f.flowCrn}/v.${f.flowVersion}`,
      flowCrn: f.flowCrn,
      creatorCrn: f.creatorCrn,
      artifactTypeName: 'flow',
      deployedByUsername: f.deployedBy,
      deployedByName: f.deployedBy,
      created: f.created,
      updated: f.updated,
      validActions: actions,
      ...(f.projectCrn ? { projectCrn: f.projectCrn } : {}),
      ...(nested ? {} : { deploymentCrn: d.crn }),
    };
  }

  private flowConfigDoc(f: DeployedFlow, d: Deployment): Doc {
    return {
      configurationVersion: f.configurationVersion,
      deployedFlowId: f.id,
      deployedFlowName: f.name,
      deployedFlowCrn: f.crn,
      parametersDirty: false,
      kpisDirty: false,
      lastUpdatedByUsername: f.deployedBy,
      parameterGroups: this.parameterGroupsWithAssets(f.parameterGroups, [d.crn, f.crn]),
      kpis: f.kpis,
    };
  }

  /** Starts or stops a flow; asking for what is already so (or under way) changes nothing. */
  private moveFlow(f: DeployedFlow, d: Deployment, start: boolean): void {
    const s = this.flowState(f, d).state;
    const ds = this.deploymentState(d).state;
    if (start) {
      if (
        ['GOOD_HEALTH', 'CONCERNING_HEALTH', 'STARTING_FLOW', 'DEPLOYING', 'IMPORTING_FLOW', 'CHANGING_FLOW_VERSION', 'UPDATING'].includes(
          s,
        )
      )
        return;
      if (s !== 'FLOW_STOPPED' && s !== 'BAD_HEALTH') throw failedPrecondition(`flow ${f.name} cannot be started while ${s}`);
      if (!STEADY_DEPLOYMENT.has(ds)) throw failedPrecondition(`deployment ${d.name} is ${ds}`);
      f.timeline = phases(this.now(), [
        ['STARTING_FLOW', 'STARTING_FLOW', 0.5],
        ['GOOD_HEALTH', 'GOOD_HEALTH', 0],
      ]);
    } else {
      if (s === 'FLOW_STOPPED' || s === 'STOPPING_FLOW') return;
      if (!STEADY_FLOW.has(s)) throw failedPrecondition(`flow ${f.name} cannot be stopped while ${s}`);
      f.timeline = phases(this.now(), [
        ['STOPPING_FLOW', 'STOPPING_FLOW', 0.5],
        ['FLOW_STOPPED', 'FLOW_STOPPED', 0],
      ]);
    }
    this.putFlow(f);
  }

  private changeVersion(f: DeployedFlow, d: Deployment, r: Doc): void {
    const s = this.flowState(f, d).state;
    if (!STEADY_FLOW.has(s)) throw failedPrecondition(`flow ${f.name} cannot change version while ${s}`);
    f.previousFlowVersion = f.flowVersion;
    if (r.deploymentRequestCrn) {
      const req = this.useRequest(f.environmentCrn, r.deploymentRequestCrn, 'deployment');
      f.flowVersion = req.flowVersion === f.flowVersion ? f.flowVersion + 1 : req.flowVersion;
      this.moveAssets(req.crn, f.crn);
    } else f.flowVersion += 1;
    if (Array.isArray(r.parameterGroups)) f.parameterGroups = r.parameterGroups as Doc[];
    if (Array.isArray(r.kpis)) f.kpis = r.kpis as Doc[];
    if (r.assetUpdateRequestCrn) this.applyAssetRequest(f.environmentCrn, r.assetUpdateRequestCrn, d, f);
    f.configurationVersion += 1;
    f.timeline = phases(this.now(), [
      ['CHANGING_FLOW_VERSION', 'CHANGING_FLOW_VERSION', 1],
      ['GOOD_HEALTH', 'GOOD_HEALTH', 0],
    ]);
    this.putFlow(f);
  }

  private cancelChange(f: DeployedFlow, d: Deployment): void {
    const s = this.flowState(f, d);
    if (s.state !== 'CHANGING_FLOW_VERSION') throw failedPrecondition(`flow ${f.name} is not changing version`);
    if (f.previousFlowVersion !== undefined) f.flowVersion = f.previousFlowVersion;
    delete f.previousFlowVersion;
    f.timeline = phases(this.now(), [
      ['CHANGING_FLOW_VERSION', 'CANCELLING_CHANGE_FLOW_VERSION', 0.5],
      ['GOOD_HEALTH', 'GOOD_HEALTH', 0],
    ]);
    this.putFlow(f);
  }

  addFlowToDeployment(r: Doc): Doc {
    const env = this.env(r);
    const d = this.deployment(env, r.deploymentCrn);
    const s = this.deploymentState(d).state;
    if (!HEALTHY.has(s)) throw failedPrecondition(`deployment ${d.name} is ${s}; flows can be added to a healthy deployment only`);
    const name = String(r.name);
    const taken = this.store.getByName<DeployedFlow>(KIND.flow, `${d.crn}|${name}`);
    if (taken && this.flowState(taken, d).state !== 'TERMINATED')
      throw alreadyExists(`deployment ${d.name} already has a flow named "${name}"`);
    if (r.useSharedParameterGroupCrn) this.parameterGroup(env, r.useSharedParameterGroupCrn);
    const req = this.useRequest(env, r.deployedFlowRequestCrn, 'flow');
    const f = this.newFlow(d, {
      name,
      req,
      parameterGroups: list(r.parameterGroups),
      kpis: list(r.kpis),
      configurationVersion: num(r.configurationVersion) ?? 0,
      autoStart: r.autoStartFlow !== false,
      sharedParameterGroupCrn: str(r.useSharedParameterGroupCrn),
      deployFor: 1,
    });
    if (r.projectCrn) {
      f.projectCrn = String(r.projectCrn);
      this.putFlow(f);
    }
    this.moveAssets(req.crn, f.crn);
    return { deployedFlow: this.deployedFlowDoc(f, d) };
  }

  startFlowInDeployment(r: Doc): Doc {
    const { d, f } = this.flowIn(r);
    this.moveFlow(f, d, true);
    return { deployedFlow: this.deployedFlowDoc(f, d) };
  }

  stopFlowInDeployment(r: Doc): Doc {
    const { d, f } = this.flowIn(r);
    this.moveFlow(f, d, false);
    return { deployedFlow: this.deployedFlowDoc(f, d) };
  }

  terminateFlowInDeployment(r: Doc): Doc {
    const { d, f } = this.flowIn(r);
    if (this.flowState(f, d).state !== 'TERMINATING') {
      f.timeline = phases(this.now(), [
        ['TERMINATING', 'TERMINATING', 0.5],
        ['TERMINATED', 'TERMINATED', 0],
      ]);
      this.putFlow(f);
    }
    return { deployedFlow: this.deployedFlowDoc(f, d) };
  }

  updateFlowInDeployment(r: Doc): Doc {
    const { d, f } = this.flowIn(r);
    const s = this.flowState(f, d);
    if (s.state === 'TERMINATING') throw failedPrecondition(`flow ${f.name} is terminating`);
    this.checkVersion(f.configurationVersion, r.configurationVersion, 'flow');
    if (Array.isArray(r.parameterGroups)) f.parameterGroups = r.parameterGroups as Doc[];
    if (Array.isArray(r.kpis)) f.kpis = r.kpis as Doc[];
    if (r.assetUpdateRequestCrn) this.applyAssetRequest(f.environmentCrn, r.assetUpdateRequestCrn, d, f);
    for (const pg of Array.isArray(r.updateSharedParameterGroupCrns) ? (r.updateSharedParameterGroupCrns as string[]) : [])
      this.parameterGroup(f.environmentCrn, pg);
    f.configurationVersion += 1;
    f.deployedBy = this.actorName();
    if (STEADY_FLOW.has(s.state))
      f.timeline = phases(this.now(), [
        ['UPDATING', 'UPDATING', 0.5],
        [s.state, s.detailedState, 0],
      ]);
    this.putFlow(f);
    return { deployedFlowConfiguration: this.flowConfigDoc(f, d) };
  }

  changeFlowVersionInDeployment(r: Doc): Doc {
    const { d, f } = this.flowIn(r);
    this.changeVersion(f, d, r);
    return { deployedFlowConfiguration: this.flowConfigDoc(f, d) };
  }

  cancelChangeFlowVersionInDeployment(r: Doc): Doc {
    const { d, f } = this.flowIn(r);
    this.cancelChange(f, d);
    return { deployedFlowConfiguration: this.flowConfigDoc(f, d) };
  }

  getFlowConfigurationInDeployment(r: Doc): Doc {
    const { d, f } = this.flowIn(r);
    return { deployedFlowConfiguration: this.flowConfigDoc(f, d) };
  }

  getFlowConfigurationMetadataInDeployment(r: Doc): Doc {
    const { d, f } = this.flowIn(r);
    return {
      deployedFlowConfigurationMetadata: {
        flowCrn: f.flowCrn,
        flowName: f.flowName,
        flowVersion: f.flowVersion,
        flowVersionCrn: `${f.flowCrn}/v.${f.flowVersion}`,
        requiresEnvironmentSslContextService: false,
        artifactTypeName: 'flow',
        parameterGroups: this.parameterGroupsWithAssets(f.parameterGroups, [d.crn, f.crn]),
        kpiMetaData: KPI_METADATA,
      },
    };
  }

  getFlowRequestDetailsInDeployment(r: Doc): Doc {
    const req = this.request(this.env(r), r.deployedFlowRequestCrn, 'flow', true);
    return { deployedFlowConfigurationMetadata: this.requestMetadata(req) };
  }

  abortFlowRequestInDeployment(r: Doc): Doc {
    const req = this.request(this.env(r), r.deployedFlowRequestCrn, 'flow');
    if (req.status === 'USED') throw failedPrecondition(`request ${req.crn} has already been deployed`);
    req.status = 'ABORTED';
    this.store.put(KIND.request, req.crn, req);
    return {};
  }

  // ---------- assets ----------

  /** The parameter groups of a flow with the files uploaded for its parameters. */
  private parameterGroupsWithAssets(groups: readonly Doc[], owners: readonly string[]): Doc[] {
    const out = groups.map((g) => ({ ...g, parameters: list(g.parameters).map((p) => ({ ...p })) })) as Array<Doc & { parameters: Doc[] }>;
    for (const owner of owners) {
      for (const { doc: a } of this.store.children<Asset>(KIND.asset, owner)) {
        let g = out.find((x) => x.name === a.parameterGroup);
        if (!g) {
          g = { name: a.parameterGroup, parameters: [] };
          out.push(g);
        }
        let p = g.parameters.find((x) => x.name === a.parameterName);
        if (!p) {
          p = { name: a.parameterName, type: 'FILE' };
          g.parameters.push(p);
        }
        const refs = list(p.assetReferences).filter((x) => x.name !== a.name);
        refs.push({ id: a.id, name: a.name, path: a.path, version: String(a.created), environmentProvided: false });
        p.assetReferences = refs;
        if (refs.length > 1) p.type = 'FILES';
      }
    }
    return out;
  }

  private moveAssets(from: string, to: string): void {
    for (const { id, doc } of this.store.children<Asset>(KIND.asset, from)) {
      doc.owner = to;
      this.store.put(KIND.asset, id, doc, { parent: to });
    }
  }

  private dropAsset(a: Asset): void {
    rmSync(a.storedAt, { force: true });
    this.store.delete(KIND.asset, a.id);
  }

  private assetRequest(env: string, c: unknown): AssetRequest {
    const s = str(c);
    if (!s) throw invalid('assetUpdateRequestCrn is required');
    const found = this.store.get<AssetRequest>(KIND.assetRequest, s);
    if (!found || (env && found.environmentCrn !== env)) throw notFound(`asset update request ${s} not found`);
    return found;
  }

  private applyAssetRequest(env: string, c: unknown, d: Deployment, f?: DeployedFlow): void {
    const req = this.assetRequest(env, c);
    if (req.deploymentCrn !== d.crn) throw invalid(`asset update request ${req.crn} belongs to another deployment`);
    if (req.status !== 'OPEN') throw failedPrecondition(`asset update request ${req.crn} is ${req.status.toLowerCase()}`);
    req.status = 'USED';
    this.store.put(KIND.assetRequest, req.crn, req, { parent: req.deploymentCrn });
    this.moveAssets(req.crn, f?.crn ?? d.crn);
  }

  createAssetUpdateRequest(r: Doc): Doc {
    const env = this.env(r);
    const d = this.deployment(env, r.deploymentCrn);
    if (r.deployedFlowCrn) this.flowIn(r);
    const id = uuid();
    const req: AssetRequest = {
      crn: this.crnOf('assetUpdateRequest', id),
      environmentCrn: env,
      deploymentCrn: d.crn,
      deployedFlowCrn: str(r.deployedFlowCrn),
      status: 'OPEN',
    };
    this.store.put(KIND.assetRequest, req.crn, req, { parent: d.crn });
    return { assetUpdateRequestCrn: req.crn };
  }

  abortAssetUpdateRequest(r: Doc): Doc {
    const env = this.env(r);
    const d = this.deployment(env, r.deploymentCrn);
    const req = this.assetRequest(env, r.assetUpdateRequestCrn);
    if (req.deploymentCrn !== d.crn) throw notFound(`asset update request ${req.crn} not found for deployment ${d.name}`);
    if (req.status === 'USED') throw failedPrecondition(`asset update request ${req.crn} has already been applied`);
    req.status = 'ABORTED';
    this.store.put(KIND.assetRequest, req.crn, req, { parent: req.deploymentCrn });
    for (const a of this.store.children<Asset>(KIND.asset, req.crn)) this.dropAsset(a.doc);
    return {};
  }

  private upload(): NonNullable<RequestContext['upload']> {
    const u = this.ctx.upload;
    if (!u) throw invalid('this operation takes the file as an application/octet-stream body at its upload path');
    return u;
  }

  private storeAsset(env: string, owner: string, group: string, param: string, filePath: string, deployedFlowName?: string): Asset {
    const u = this.upload();
    const name = filePath.split(/[\\/]/).pop() || filePath;
    // A new upload for the same parameter and file name replaces the earlier one.
    for (const { doc } of this.store.children<Asset>(KIND.asset, owner))
      if (doc.parameterGroup === group && doc.parameterName === param && doc.name === name) this.dropAsset(doc);
    const a: Asset = {
      id: uuid(),
      environmentCrn: env,
      owner,
      parameterGroup: group,
      parameterName: param,
      name,
      path: filePath,
      size: u.size,
      storedAt: u.path,
      deployedFlowName,
      created: this.now(),
    };
    this.store.put(KIND.asset, a.id, a, { parent: owner });
    return a;
  }

  uploadAsset(r: Doc): Doc {
    const env = this.env(r);
    this.upload();
    let owner: string;
    if (r.assetUpdateRequestCrn) {
      const req = this.assetRequest(env, r.assetUpdateRequestCrn);
      if (req.status !== 'OPEN') throw failedPrecondition(`asset update request ${req.crn} is ${req.status.toLowerCase()}`);
      owner = req.crn;
    } else if (r.deploymentRequestCrn) {
      const req = this.request(env, r.deploymentRequestCrn, 'deployment');
      if (req.status !== 'OPEN') throw failedPrecondition(`deployment request ${req.crn} is ${req.status.toLowerCase()}`);
      owner = req.crn;
    } else throw invalid('give deploymentRequestCrn or assetUpdateRequestCrn');
    this.storeAsset(env, owner, String(r.parameterGroup), String(r.parameterName), String(r.filePath), str(r.deployedFlowName));
    return {};
  }

  uploadParameterAsset(r: Doc): Doc {
    const env = this.env(r);
    const g = this.parameterGroup(env, r.parameterGroupCrn);
    const param = str(r.parameterName);
    if (!param) throw invalid('parameterName is required');
    const filePath = str(r.filePath);
    if (!filePath) throw invalid('filePath is required');
    const a = this.storeAsset(env, g.crn, g.name, param, filePath);
    let p = g.parameters.find((x) => x.name === param);
    if (!p) {
      p = { name: param, sensitive: false };
      g.parameters.push(p);
    }
    const refs = list(p.assetReferences).filter((x) => x.name !== a.name);
    refs.push({ id: a.id, name: a.name, path: a.path, version: String(a.created), environmentProvided: false });
    p.assetReferences = refs;
    this.putParameterGroup(g, true);
    return {};
  }

  // ---------- reporting tasks ----------

  createReportingTask(r: Doc): Doc {
    const env = this.env(r);
    const u = this.upload();
    const deploymentCrn = str(r.deploymentCrn);
    if (deploymentCrn) this.deployment(env, deploymentCrn);
    const filePath = String(r.filePath);
    let name = (filePath.split(/[\\/]/).pop() ?? filePath).replace(/\.json$/i, '');
    let type = 'org.apache.nifi.reporting.ReportingTask';
    if (u.size <= 1024 * 1024) {
      try {
        const def = JSON.parse(readFileSync(u.path, 'utf8')) as Doc;
        name = str(def.name) ?? name;
        type = str(def.type) ?? type;
      } catch {
        throw invalid('the reporting task definition is not valid JSON');
      }
    } else throw invalid('the reporting task definition is over 1 MiB');
    const id = uuid();
    const rec = {
      crn: this.crnOf('reportingTask', id),
      identifier: id,
      name,
      type,
      environmentCrn: env,
      deploymentCrn,
      storedAt: u.path,
      size: u.size,
    };
    this.store.put(KIND.reportingTask, id, rec, { crn: rec.crn, parent: deploymentCrn ?? env });
    return { crn: rec.crn };
  }

  deleteReportingTask(r: Doc): Doc {
    const env = this.env(r);
    const found = this.store.getByCrn<Doc>(String(r.reportingTaskCrn));
    if (!found || found.kind !== KIND.reportingTask || found.doc.environmentCrn !== env || found.doc.deploymentCrn !== r.deploymentCrn)
      throw notFound(`reporting task ${String(r.reportingTaskCrn)} not found`);
    rmSync(String(found.doc.storedAt), { force: true });
    this.store.delete(KIND.reportingTask, found.id);
    return { crn: found.doc.crn };
  }

  listReportingTasks(r: Doc): Doc {
    const env = this.env(r);
    const dep = str(r.deploymentCrn);
    if (dep) this.deployment(env, dep);
    const tasks = this.store
      .list<Doc>(KIND.reportingTask)
      .map((x) => x.doc)
      .filter((t) => t.environmentCrn === env && (!dep || t.deploymentCrn === dep))
      .map((t) => ({ crn: t.crn, identifier: t.identifier, name: t.name, type: t.type }));
    return { reportingTasks: tasks };
  }

  // ---------- custom NAR / Python configurations ----------

  private customConfig(kind: string, env: string, c: string): CustomConfig {
    const found = this.store.getByCrn<CustomConfig>(c);
    if (!found || found.kind !== kind || (env && found.doc.environmentCrn !== env))
      throw notFound(`${kind === KIND.nar ? 'custom NAR' : 'custom Python'} configuration ${c} not found`);
    return found.doc;
  }

  private configDoc(c: CustomConfig): Doc {
    // The stored secret is never sent back.
    return {
      username: c.username,
      password: '********',
      storageLocation: c.storageLocation,
      configurationVersion: c.configurationVersion,
      ...(c.projectCrn ? { projectCrn: c.projectCrn } : {}),
      crn: c.crn,
    };
  }

  private checkLocation(r: Doc): void {
    const loc = String(r.storageLocation);
    if (!storageLocationOk(loc))
      throw invalid(`storage location "${loc.slice(0, 200)}" is not an object-store URL such as s3a://bucket/path`);
    if (!String(r.username).trim()) throw invalid('username must not be empty');
  }

  createConfig(kind: string, r: Doc): Doc {
    const env = this.env(r);
    this.checkLocation(r);
    const id = uuid();
    const c: CustomConfig = {
      crn: this.crnOf(kind === KIND.nar ? 'customNarConfiguration' : 'customPythonConfiguration', id),
      environmentCrn: env,
      username: String(r.username),
      password: String(r.password),
      storageLocation: String(r.storageLocation),
      configurationVersion: num(r.configurationVersion) ?? 0,
      projectCrn: str(r.projectCrn),
    };
    this.store.put(kind, id, c, { crn: c.crn });
    return this.configDoc(c);
  }

  getConfig(kind: string, r: Doc, field: string): Doc {
    const env = this.env(r);
    let c = str(r[field]);
    if (!c && r.deploymentCrn) {
      const d = this.deployment(env, r.deploymentCrn);
      c = str(d.config[kind === KIND.nar ? 'customNarConfigurationCrn' : 'customPythonConfigurationCrn']);
      if (!c) throw notFound(`deployment ${d.name} uses no ${kind === KIND.nar ? 'custom NAR' : 'custom Python'} configuration`);
    }
    if (!c) throw invalid(`give ${field} or deploymentCrn`);
    return this.configDoc(this.customConfig(kind, env, c));
  }

  updateConfig(kind: string, r: Doc): Doc {
    const env = this.env(r);
    const key = str(r.crn);
    if (!key) throw invalid('crn is required: the configuration to update');
    const c = this.customConfig(kind, env, key);
    this.checkVersion(c.configurationVersion, r.configurationVersion, kind === KIND.nar ? 'custom NAR' : 'custom Python');
    this.checkLocation(r);
    c.username = String(r.username);
    c.password = String(r.password);
    c.storageLocation = String(r.storageLocation);
    if (r.projectCrn !== undefined) c.projectCrn = str(r.projectCrn);
    c.configurationVersion += 1;
    this.store.put(kind, crnId(c.crn), c, { crn: c.crn });
    return this.configDoc(c);
  }

  deleteConfig(kind: string, r: Doc, field: string): Doc {
    const env = this.env(r);
    const c = this.customConfig(kind, env, String(r[field]));
    this.checkVersion(c.configurationVersion, r.configurationVersion, kind === KIND.nar ? 'custom NAR' : 'custom Python');
    const key = kind === KIND.nar ? 'customNarConfigurationCrn' : 'customPythonConfigurationCrn';
    const user = this.store
      .list<Deployment>(KIND.deployment)
      .map((x) => x.doc)
      .find((d) => d.config[key] === c.crn && this.deploymentState(d).state !== 'TERMINATED');
    if (user) throw failedPrecondition(`the configuration is used by deployment ${user.name}; only unused configurations can be deleted`);
    this.store.delete(kind, crnId(c.crn));
    return this.configDoc(c);
  }

  validateConfig(r: Doc): Doc {
    this.env(r);
    this.checkLocation(r);
    return {};
  }

  getDefaultCustomNarConfiguration(r: Doc): Doc {
    const env = this.env(r);
    const first = this.store
      .list<CustomConfig>(KIND.nar)
      .map((x) => x.doc)
      .find((c) => c.environmentCrn === env);
    if (!first) throw notFound('the environment has no custom NAR configuration');
    return this.configDoc(first);
  }

  // ---------- parameter groups ----------

  private parameterGroup(env: string, c: unknown): ParameterGroupRec {
    const s = str(c);
    if (!s) throw invalid('parameterGroupCrn is required');
    const found = this.store.getByCrn<ParameterGroupRec>(s);
    if (!found || found.kind !== KIND.parameterGroup || (env && found.doc.environmentCrn !== env))
      throw notFound(`parameter group ${s} not found`);
    return found.doc;
  }

  private putParameterGroup(g: ParameterGroupRec, bump: boolean): void {
    if (bump) g.version += 1;
    g.updated = this.now();
    this.store.put(KIND.parameterGroup, g.id, g, { crn: g.crn, name: `${g.environmentCrn}|${g.name}` });
  }

  private usages(g: ParameterGroupRec): Doc[] {
    const out: Doc[] = [];
    for (const { doc: f } of this.store.list<DeployedFlow>(KIND.flow)) {
      if (f.sharedParameterGroupCrn !== g.crn) continue;
      const d = this.store.getByCrn<Deployment>(f.deploymentCrn)?.doc;
      if (!d || this.flowState(f, d).state === 'TERMINATED') continue;
      out.push({
        resourceId: f.id,
        resourceType: 'DEPLOYED_FLOW',
        parentResourceId: d.id,
        resourceName: f.name,
        status: this.flowState(f, d).state,
      });
    }
    return out;
  }

  private groupSummary(g: ParameterGroupRec): Doc {
    return {
      name: g.name,
      id: g.id,
      source: 'USER',
      ...(g.projectCrn ? { projectId: crnId(g.projectCrn) } : {}),
      usages: this.usages(g),
      created: g.created,
      updated: g.updated,
      ...(g.description !== undefined ? { description: g.description } : {}),
      crn: g.crn,
      createdBy: g.createdBy,
      version: g.version,
    };
  }

  private groupDoc(g: ParameterGroupRec): Doc {
    const parameters = g.parameters.map((p) => {
      const out: Doc = { ...p, valueSet: p.value !== undefined && p.value !== null };
      if (p.sensitive && out.valueSet) delete out.value;
      return out;
    });
    return { ...this.groupSummary(g), parameters };
  }

  private checkParameters(params: unknown): Doc[] {
    const ps = list(params);
    const seen = new Set<string>();
    for (const p of ps) {
      const n = str(p.name);
      if (!n) throw invalid('every parameter needs a name');
      if (seen.has(n)) throw invalid(`parameter "${n}" is given twice`);
      seen.add(n);
    }
    return ps.map((p) => ({ ...p }));
  }

  createParameterGroup(r: Doc): Doc {
    const env = this.env(r);
    const name = str(r.name);
    if (!name) throw invalid('name is required');
    if (this.store.getByName(KIND.parameterGroup, `${env}|${name}`))
      throw alreadyExists(`a parameter group named "${name}" already exists`);
    const id = uuid();
    const g: ParameterGroupRec = {
      id,
      crn: this.crnOf('parameterGroup', id),
      name,
      environmentCrn: env,
      description: str(r.description),
      parameters: this.checkParameters(r.parameters),
      version: 1,
      created: this.now(),
      updated: this.now(),
      createdBy: this.actorName(),
      projectCrn: str(r.projectCrn),
    };
    this.putParameterGroup(g, false);
    return { parameterGroup: this.groupSummary(g) };
  }

  describeParameterGroup(r: Doc): Doc {
    return { parameterGroup: this.groupDoc(this.parameterGroup(this.env(r), r.parameterGroupCrn)) };
  }

  updateParameterGroup(r: Doc): Doc {
    const g = this.parameterGroup(this.env(r), r.parameterGroupCrn);
    if (r.description !== undefined) g.description = str(r.description);
    if (r.parameters !== undefined) g.parameters = this.checkParameters(r.parameters);
    this.putParameterGroup(g, true);
    return { parameterGroup: this.groupDoc(g) };
  }

  deleteParameterGroup(r: Doc): Doc {
    const g = this.parameterGroup(this.env(r), r.parameterGroupCrn);
    const used = this.usages(g);
    if (used.length > 0) throw failedPrecondition(`parameter group ${g.name} is used by flow ${String(used[0]?.resourceName)}`);
    for (const a of this.store.children<Asset>(KIND.asset, g.crn)) this.dropAsset(a.doc);
    this.store.delete(KIND.parameterGroup, g.id);
    return {};
  }

  duplicateParameterGroup(r: Doc): Doc {
    const env = this.env(r);
    const g = this.parameterGroup(env, r.parameterGroupCrn);
    const name = str(r.newParameterGroupName);
    if (!name) throw invalid('newParameterGroupName is required');
    if (this.store.getByName(KIND.parameterGroup, `${g.environmentCrn}|${name}`))
      throw alreadyExists(`a parameter group named "${name}" already exists`);
    const id = uuid();
    const copy: ParameterGroupRec = {
      ...g,
      id,
      crn: this.crnOf('parameterGroup', id),
      name,
      description: r.description !== undefined ? str(r.description) : g.description,
      parameters: g.parameters.map((p) => ({ ...p, assetReferences: undefined })),
      version: 1,
      created: this.now(),
      updated: this.now(),
      createdBy: this.actorName(),
    };
    this.putParameterGroup(copy, false);
    return { parameterGroup: this.groupDoc(copy) };
  }

  listParameterGroups(r: Doc): Doc {
    const env = this.env(r);
    const term = str(r.searchTerm)?.toLowerCase();
    const projects = Array.isArray(r.projectCrns) ? (r.projectCrns as string[]) : [];
    const groups = this.store
      .list<ParameterGroupRec>(KIND.parameterGroup)
      .map((x) => x.doc)
      .filter(
        (g) =>
          (!env || g.environmentCrn === env) &&
          (!term || g.name.toLowerCase().includes(term)) &&
          (projects.length === 0 || (g.projectCrn !== undefined && projects.includes(g.projectCrn))),
      )
      .map((g) => this.groupSummary(g));
    return { parameterGroups: groups };
  }

  // ---------- inbound connection endpoints ----------

  private putInbound(e: InboundEndpoint): void {
    this.store.put(KIND.inbound, crnId(e.crn), e, { crn: e.crn, name: e.fullyQualifiedDomainName });
  }

  private inbound(env: string, c: unknown): InboundEndpoint {
    const s = str(c);
    if (!s) throw invalid('crn is required');
    const found = this.store.getByCrn<InboundEndpoint>(s);
    if (!found || found.kind !== KIND.inbound || found.doc.environmentCrn !== env)
      throw notFound(`inbound connection endpoint ${s} not found`);
    return found.doc;
  }

  private inboundDoc(e: InboundEndpoint): Doc {
    const now = this.now();
    const cert = (type: string, exp: number): Doc => ({
      expiration: exp,
      certificateType: type,
      state: exp > now ? 'CURRENT' : 'EXPIRED',
    });
    return {
      fullyQualifiedDomainName: e.fullyQualifiedDomainName,
      state: e.deploymentCrn ? 'ASSIGNED' : 'UNASSIGNED',
      ...(e.deploymentCrn ? { deploymentCrn: e.deploymentCrn } : {}),
      crn: e.crn,
      certificateSummaries: [
        cert('SERVER_ENTITY', e.serverCertExpiry),
        cert('CLIENT_ENTITY', e.clientCertExpiry),
        cert('CLIENT_CA', e.clientCertExpiry),
      ],
      ...(e.projectCrn ? { projectCrn: e.projectCrn } : {}),
      authorizedIpRanges: e.authorizedIpRanges,
    };
  }

  private newInbound(env: string, hostname: string | undefined, projectCrn?: string): InboundEndpoint {
    const id = uuid();
    const fqdn = (
      hostname ??
      `ingest-${id.slice(0, 8)}.${crnId(env)
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '-')}.dfx.example.com`
    ).toLowerCase();
    if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/.test(fqdn))
      throw invalid(`"${fqdn.slice(0, 100)}" is not a valid host name`);
    if (this.store.getByName(KIND.inbound, fqdn)) throw alreadyExists(`host name ${fqdn} is already reserved`);
    const year = 365 * 24 * 3600_000;
    const e: InboundEndpoint = {
      crn: this.crnOf('inboundConnectionEndpoint', id),
      environmentCrn: env,
      fullyQualifiedDomainName: fqdn,
      projectCrn,
      authorizedIpRanges: [],
      serverCertExpiry: this.now() + year,
      clientCertExpiry: this.now() + year,
      clientKeyId: randomBytes(8).toString('hex'),
    };
    this.putInbound(e);
    return e;
  }

  private assignInbound(env: string, hostname: string, deploymentCrn: string): string {
    const found = this.store.getByName<InboundEndpoint>(KIND.inbound, hostname.toLowerCase());
    const e = found ?? this.newInbound(env, hostname);
    if (e.environmentCrn !== env) throw alreadyExists(`host name ${hostname} is reserved in another environment`);
    if (e.deploymentCrn && e.deploymentCrn !== deploymentCrn)
      throw failedPrecondition(`host name ${hostname} is already used by another deployment`);
    e.deploymentCrn = deploymentCrn;
    this.putInbound(e);
    return e.crn;
  }

  private releaseInbound(d: Deployment): void {
    if (!d.inboundEndpointCrn) return;
    const found = this.store.getByCrn<InboundEndpoint>(d.inboundEndpointCrn);
    if (found && found.doc.deploymentCrn === d.crn) {
      delete found.doc.deploymentCrn;
      this.putInbound(found.doc);
    }
    delete d.inboundEndpointCrn;
  }

  createInboundConnectionEndpoint(r: Doc): Doc {
    const e = this.newInbound(this.env(r), str(r.hostname), str(r.projectCrn));
    return { inboundConnectionEndpointSummary: this.inboundDoc(e) };
  }

  describeInboundConnectionEndpoint(r: Doc): Doc {
    return { inboundConnectionEndpointSummary: this.inboundDoc(this.inbound(this.env(r), r.crn)) };
  }

  deleteInboundConnectionEndpoint(r: Doc): Doc {
    const e = this.inbound(this.env(r), r.crn);
    if (e.deploymentCrn) {
      const d = this.store.getByCrn<Deployment>(e.deploymentCrn);
      if (d && this.deploymentState(d.doc).state !== 'TERMINATED')
        throw failedPrecondition(
          `the endpoint is used by deployment ${d.doc.name}; detach it first (deployments update --deactivate-inbound-connection)`,
        );
    }
    this.store.delete(KIND.inbound, crnId(e.crn));
    return {};
  }

  listInboundConnectionEndpoints(r: Doc): Doc {
    const env = this.env(r);
    return {
      inboundConnectionEndpoints: this.store
        .list<InboundEndpoint>(KIND.inbound)
        .map((x) => x.doc)
        .filter((e) => e.environmentCrn === env)
        .map((e) => this.inboundDoc(e)),
    };
  }

  renewInboundConnectionEndpointCertificates(r: Doc): Doc {
    const e = this.inbound(this.env(r), r.crn);
    const year = 365 * 24 * 3600_000;
    if (r.renewServerCertificate) e.serverCertExpiry = this.now() + year;
    if (r.renewClientCertificates) {
      e.clientCertExpiry = this.now() + year;
      if (r.revokeClientCertificates) e.clientKeyId = randomBytes(8).toString('hex');
    }
    this.putInbound(e);
    return {};
  }

  getClientCertificatesEncoded(r: Doc): Doc {
    const e = this.inbound(this.env(r), r.crn);
    const pem = (label: string, seed: string): string => {
      const body = Buffer.from(`${label}:${e.fullyQualifiedDomainName}:${seed}:${randomBytes(48).toString('hex')}`).toString('base64');
      const lines = body.match(/.{1,64}/g) ?? [];
      return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
    };
    return {
      clientCertificate: Buffer.from(pem('CERTIFICATE', e.clientKeyId)).toString('base64'),
      clientPrivateKey: Buffer.from(pem('PRIVATE KEY', e.clientKeyId)).toString('base64'),
    };
  }

  listNifiVersions(r: Doc): Doc {
    this.env(r);
    return { nifiVersions: NIFI_VERSIONS };
  }

  // ---------- flow drafts and test sessions ----------

  /** Drafts come from the flow designer, which is not part of this API: each environment starts with two. */
  private drafts(env: string): FlowDraft[] {
    const key = `dfworkload.draftsSeeded ${this.ctx.info.accountId} ${env}`;
    if (!this.store.meta(key)) {
      this.store.setMeta(key, '1');
      const at = this.now();
      for (const [name, session] of [
        ['orders-draft', true],
        ['metrics-draft', false],
      ] as const) {
        const id = uuid();
        const draft: FlowDraft = {
          crn: this.crnOf('flowDraft', id),
          environmentCrn: env,
          flowName: name,
          created: at,
          lastModified: at,
          createdBy: this.actorName(),
          runtimeVersion: DEFAULT_NIFI,
          ...(session ? { session: this.newSession(name, at, [['GOOD_HEALTH', 'GOOD_HEALTH', 0]]) } : {}),
        };
        this.store.put(KIND.draft, id, draft, { crn: draft.crn, parent: env });
      }
    }
    return this.store.children<FlowDraft>(KIND.draft, env).map((x) => x.doc);
  }

  private newSession(name: string, at: number, steps: readonly Phase[]): NonNullable<FlowDraft['session']> {
    const id = uuid();
    return { crn: this.crnOf('testSession', id), name: `${name}-session`, created: at, timeline: phases(at, steps) };
  }

  private draft(env: string, c: unknown): FlowDraft {
    const s = str(c);
    if (!s) throw invalid('flowDraftCrn is required');
    const found = this.drafts(env).find((d) => d.crn === s);
    if (!found) throw notFound(`flow draft ${s} not found`);
    return found;
  }

  private putDraft(d: FlowDraft): void {
    d.lastModified = this.now();
    this.store.put(KIND.draft, crnId(d.crn), d, { crn: d.crn, parent: d.environmentCrn });
  }

  private sessionState(d: FlowDraft): { state: string; detailedState: string } | undefined {
    return d.session ? split(stateAt(d.session.timeline, this.now()).state) : undefined;
  }

  private sessionDoc(d: FlowDraft): Doc | undefined {
    const s = this.sessionState(d);
    if (!d.session || !s) return undefined;
    return {
      status: s,
      runtimeStatus: s,
      runtimeVersion: d.runtimeVersion,
      createdTimestamp: d.session.created,
      crn: d.session.crn,
      name: d.session.name,
    };
  }

  private draftSummary(d: FlowDraft): Doc {
    const session = this.sessionDoc(d);
    return {
      flowName: d.flowName,
      created: d.created,
      lastModified: d.lastModified,
      lastModifiedBy: d.createdBy,
      createdBy: d.createdBy,
      resourceType: 'FLOW_DRAFT',
      nifiMajorVersion: Number(d.runtimeVersion.split('.')[0]),
      crn: d.crn,
      ...(session ? { runtimeSession: session } : {}),
    };
  }

  listFlowDrafts(r: Doc): Doc {
    return { flowSummaries: this.drafts(this.env(r)).map((d) => this.draftSummary(d)) };
  }

  listTestSessions(r: Doc): Doc {
    return {
      runtimeSessions: this.drafts(this.env(r))
        .filter((d) => {
          const s = this.sessionState(d);
          return s !== undefined && s.state !== 'TERMINATED';
        })
        .map((d) => this.draftSummary(d)),
    };
  }

  restartTestSession(r: Doc): Doc {
    const d = this.draft(this.env(r), r.flowDraftCrn);
    const s = this.sessionState(d);
    if (s?.state === 'TERMINATING') throw failedPrecondition(`the test session of ${d.flowName} is terminating`);
    const steps: Phase[] = [
      ['RESTARTING', 'RESTARTING', 1],
      ['GOOD_HEALTH', 'GOOD_HEALTH', 0],
    ];
    if (!d.session || s?.state === 'TERMINATED') d.session = this.newSession(d.flowName, this.now(), steps);
    else d.session.timeline = phases(this.now(), steps);
    this.putDraft(d);
    return { runtimeSession: this.sessionDoc(d) };
  }

  suspendTestSession(r: Doc): Doc {
    const d = this.draft(this.env(r), r.flowDraftCrn);
    const s = this.sessionState(d);
    if (!d.session || !s || s.state === 'TERMINATED') throw failedPrecondition(`flow draft ${d.flowName} has no test session`);
    if (s.state !== 'SUSPENDING' && s.state !== 'SUSPENDED') {
      if (!STEADY_DEPLOYMENT.has(s.state)) throw failedPrecondition(`the test session cannot be suspended while ${s.state}`);
      d.session.timeline = phases(this.now(), [
        ['SUSPENDING', 'SUSPENDING', 0.5],
        ['SUSPENDED', 'TEST_SESSION_SUSPENDED', 0],
      ]);
      this.putDraft(d);
    }
    return { runtimeSession: this.sessionDoc(d) };
  }

  terminateTestSession(r: Doc): Doc {
    const d = this.draft(this.env(r), r.flowDraftCrn);
    const s = this.sessionState(d);
    if (!d.session || !s || s.state === 'TERMINATED') throw failedPrecondition(`flow draft ${d.flowName} has no test session`);
    if (s.state !== 'TERMINATING') {
      d.session.timeline = phases(this.now(), [
        ['TERMINATING', 'TERMINATING', 0.5],
        ['TERMINATED', 'TEST_SESSION_TERMINATED', 0],
      ]);
      this.putDraft(d);
    }
    return { runtimeSession: this.sessionDoc(d) };
  }

  deleteFlowDraft(r: Doc): Doc {
    const d = this.draft(this.env(r), r.flowDraftCrn);
    const s = this.sessionState(d);
    if (s && s.state !== 'TERMINATED')
      throw failedPrecondition(`flow draft ${d.flowName} has a test session (${s.state}); terminate it first`);
    this.store.delete(KIND.draft, crnId(d.crn));
    return {
      flowMetadata: {
        runtimeVersion: d.runtimeVersion,
        flowName: d.flowName,
        created: d.created,
        updated: d.lastModified,
        resourceType: 'FLOW_DRAFT',
        crn: d.crn,
        nifiMajorVersion: Number(d.runtimeVersion.split('.')[0]),
      },
    };
  }

  // ---------- projects ----------

  reassignResources(r: Doc): Doc {
    const env = this.env(r);
    const dest = str(r.destinationProjectCrn);
    const kinds = new Set<string>([KIND.deployment, KIND.flow, KIND.parameterGroup, KIND.inbound, KIND.nar, KIND.python]);
    const items = list(r.workloadResourceSummaries);
    const found = items.map((it) => {
      const c = String(it.resourceCrn);
      const hit = this.store.getByCrn<Doc>(c);
      if (!hit || !kinds.has(hit.kind) || hit.doc.environmentCrn !== env) throw notFound(`resource ${c} not found`);
      if (it.projectCrn !== undefined && hit.doc.projectCrn !== it.projectCrn)
        throw failedPrecondition(`resource ${c} is not in project ${String(it.projectCrn)}`);
      return hit;
    });
    for (const hit of found) {
      if (dest) hit.doc.projectCrn = dest;
      else delete hit.doc.projectCrn;
      const doc = hit.doc as Doc & { name?: string; deploymentCrn?: string; fullyQualifiedDomainName?: string; environmentCrn?: string };
      const name =
        hit.kind === KIND.deployment || hit.kind === KIND.parameterGroup
          ? `${String(doc.environmentCrn)}|${String(doc.name)}`
          : hit.kind === KIND.flow
            ? `${String(doc.deploymentCrn)}|${String(doc.name)}`
            : hit.kind === KIND.inbound
              ? doc.fullyQualifiedDomainName
              : undefined;
      this.store.put(hit.kind, hit.id, hit.doc, {
        crn: String(hit.doc.crn),
        name,
        parent: hit.kind === KIND.flow ? doc.deploymentCrn : undefined,
      });
    }
    return {};
  }
}

const KPI_METADATA: Doc = {
  kpiScopes: [
    {
      type: 'SYSTEM',
      label: 'System',
      metricTypes: [
        { id: 'cpuUtilization', label: 'CPU utilization', unitTypeKey: 'RATIO', defaultUnitId: 'percentage' },
        { id: 'memoryUtilization', label: 'Memory utilization', unitTypeKey: 'RATIO', defaultUnitId: 'percentage' },
      ],
    },
    {
      type: 'NIFI_FLOW',
      label: 'Flow',
      metricTypes: [{ id: 'dataIn', label: 'Data in', unitTypeKey: 'RATE', defaultUnitId: 'bytesPerSecond' }],
    },
  ],
  unitTypes: {
    RATIO: [{ id: 'percentage', label: 'Percent', factor: 1 }],
    RATE: [{ id: 'bytesPerSecond', label: 'Bytes/s', factor: 1 }],
  },
  alertFrequencyTolerance: {
    units: [
      { id: 'SECONDS', label: 'Seconds', abbreviation: 's' },
      { id: 'MINUTES', label: 'Minutes', abbreviation: 'm' },
      { id: 'HOURS', label: 'Hours', abbreviation: 'h' },
    ],
    defaultUnitId: 'MINUTES',
  },
};

const CLUSTER_SIZES: Doc[] = [
  { name: 'EXTRA_SMALL', coresPerNode: 2, memoryLimit: 4, text: 'Extra small', heapSize: 2, enabled: true },
  { name: 'SMALL', coresPerNode: 3, memoryLimit: 6, text: 'Small', heapSize: 3, enabled: true },
  { name: 'MEDIUM', coresPerNode: 6, memoryLimit: 12, text: 'Medium', heapSize: 6, enabled: true },
  { name: 'LARGE', coresPerNode: 12, memoryLimit: 24, text: 'Large', heapSize: 12, enabled: true },
];

/**
 * A deployment's node size in full (a sizing option): a named size has the
 * cores and memory the sizing options list; CUSTOM has the ones given.
 */
function clusterSizeOf(given: unknown): Doc {
  const g = typeof given === 'object' && given !== null ? (given as Doc) : {};
  const name = str(g.name) ?? 'EXTRA_SMALL';
  const named = CLUSTER_SIZES.find((x) => x.name === name);
  if (named) return { ...named };
  return { name, coresPerNode: num(g.coresPerNode) ?? 2, memoryLimit: num(g.memoryLimit) ?? 4, text: 'Custom', enabled: true };
}

/** The BasicClusterSize of a deployment's configuration. */
function basicSize(given: unknown): Doc {
  const { name, coresPerNode, memoryLimit } = clusterSizeOf(given);
  return { name, coresPerNode, memoryLimit };
}

/** A named size takes its own cores and memory; other values need CUSTOM, which needs both. */
function checkClusterSize(given: unknown): void {
  const g = typeof given === 'object' && given !== null ? (given as Doc) : {};
  const named = CLUSTER_SIZES.find((x) => x.name === g.name);
  if (named) {
    for (const k of ['coresPerNode', 'memoryLimit'] as const)
      if (g[k] !== undefined && g[k] !== named[k])
        throw invalid(
          `clusterSize ${String(g.name)} has ${String(named.coresPerNode)} cores and ${String(named.memoryLimit)} GB per node; give name=CUSTOM for other values`,
        );
    return;
  }
  if (g.name === 'CUSTOM' && (num(g.coresPerNode) === undefined || num(g.memoryLimit) === undefined))
    throw invalid('clusterSize CUSTOM needs coresPerNode and memoryLimit');
}

const STORAGE_PROFILES: Doc[] = [
  {
    name: 'STANDARD_AWS',
    text: 'Standard',
    contentRepoSize: 512,
    provenanceRepoSize: 512,
    flowfileRepoSize: 10,
    iops: '3000',
    throughput: '125',
    storageVolumeType: 'gp3',
  },
  {
    name: 'PERFORMANCE_AWS',
    text: 'Performance',
    contentRepoSize: 1024,
    provenanceRepoSize: 1024,
    flowfileRepoSize: 20,
    iops: '6000',
    throughput: '250',
    storageVolumeType: 'gp3',
  },
];
