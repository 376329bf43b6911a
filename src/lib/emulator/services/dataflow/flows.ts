/**
 * Deployed flows: their lifecycle (FLOW), deployment with or into a
 * deployment, start and stop (asking for what is already so changes
 * nothing), version changes, configuration updates and termination. A flow
 * shows its deployment's suspension and termination. A terminated flow is
 * gone once termination has finished.
 */
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { Resources, type Lifecycle } from '../../lifecycle.js';
import type { Doc } from '../../types.js';
import type { Workload } from './workload.js';
import { checkVersion } from './deployments.js';
import {
  HEALTHY,
  KIND,
  STEADY_DEPLOYMENT,
  STEADY_FLOW,
  split,
  type DeployedFlow,
  type Deployment,
  type FlowRequest,
  type Status,
} from './records.js';

const GOOD = 'GOOD_HEALTH/GOOD_HEALTH';
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

export class Flows {
  readonly store: Resources<DeployedFlow>;

  constructor(private readonly b: Workload) {
    this.store = new Resources<DeployedFlow>(b.ctx, {
      kind: KIND.flow,
      noun: 'flow',
      lifecycle: FLOW,
      touched: (f, now) => (f.updated = now),
      id: (f) => f.id,
      name: (f) => f.name,
      // A flow fails only with its deployment (deploy is told).
      subject: () => undefined,
      keys: (f) => ({ crn: f.crn, parent: f.deploymentCrn, name: `${f.deploymentCrn}|${f.name}` }),
    });
  }

  /** A flow's state: its own, or its deployment's suspension or termination. */
  status(f: DeployedFlow, d?: Deployment): Status {
    const own = split(this.store.state(f));
    if (own.state === 'TERMINATING' || own.state === 'TERMINATED') return own;
    const ds = d ? this.b.deployments.status(d).state : undefined;
    if (ds === 'SUSPENDING' || ds === 'SUSPENDED') return { state: 'DEPLOYMENT_SUSPENDED', detailedState: 'DEPLOYMENT_SUSPENDED' };
    if (ds === 'TERMINATING' || ds === 'TERMINATED') return { state: 'TERMINATING', detailedState: 'TERMINATING' };
    return own;
  }

  /** The flows of a deployment that are not gone. */
  of(d: Deployment): DeployedFlow[] {
    return this.store.children(d.crn).filter((f) => this.status(f, d).state !== 'TERMINATED');
  }

  /** Every flow of the account that is not gone. */
  all(): DeployedFlow[] {
    return this.store.all();
  }

  /** A flow of a deployment, or NOT_FOUND (also once terminated). */
  get(env: string, deploymentCrn: string | undefined, flowCrn: string | undefined): { d: Deployment; f: DeployedFlow } {
    const d = this.b.deployments.get(env, deploymentCrn);
    if (!flowCrn) throw invalid('deployedFlowCrn is required');
    const f = this.store.find(flowCrn);
    if (!f || f.deploymentCrn !== d.crn || this.status(f, d).state === 'TERMINATED')
      throw notFound(`flow ${flowCrn} not found in deployment ${d.name}`);
    return { d, f };
  }

  save(f: DeployedFlow): void {
    this.store.save(f);
  }

  private begin(f: DeployedFlow, action: string): void {
    this.store.begin(f, action);
  }

  /** A new flow of a deployment, importing once its deployment is ready. */
  deploy(d: Deployment, o: FlowSpec): DeployedFlow {
    const id = uuid();
    const now = this.b.now;
    return this.store.create(
      {
        id,
        crn: this.b.crnOf('deployedFlow', id),
        name: o.name,
        deploymentCrn: d.crn,
        environmentCrn: d.environmentCrn,
        projectCrn: o.projectCrn ?? d.projectCrn,
        creatorCrn: this.b.ctx.caller.actorCrn,
        deployedBy: this.b.actorName(),
        created: now,
        updated: now,
        configurationVersion: o.configurationVersion,
        parameterGroups: o.parameterGroups,
        kpis: o.kpis,
        flowName: o.req.flowName,
        flowCrn: this.b.flowCrnOf(o.req),
        flowVersion: o.req.flowVersion,
        sharedParameterGroupCrn: o.sharedParameterGroupCrn,
      },
      o.autoStart || o.failing ? 'deploy' : 'deployStopped',
      { fail: o.failing === true, minutes: Math.max(0.5, o.deployFor - 1) + 1 },
    );
  }

  /** Adds a flow to a healthy deployment, from a flow request. */
  add(
    env: string,
    deploymentCrn: string | undefined,
    spec: Omit<FlowSpec, 'req' | 'deployFor'> & { requestCrn?: string },
  ): { d: Deployment; f: DeployedFlow } {
    const d = this.b.deployments.get(env, deploymentCrn);
    const s = this.b.deployments.status(d).state;
    if (!HEALTHY.has(s)) throw failedPrecondition(`deployment ${d.name} is ${s}; flows can be added to a healthy deployment only`);
    const taken = this.store.find(`${d.crn}|${spec.name}`);
    if (taken && this.status(taken, d).state !== 'TERMINATED')
      throw alreadyExists(`deployment ${d.name} already has a flow named "${spec.name}"`);
    if (spec.sharedParameterGroupCrn) this.b.groups.get(env, spec.sharedParameterGroupCrn);
    const req = this.b.requests.use(env, spec.requestCrn, 'flow');
    const f = this.deploy(d, { ...spec, req, deployFor: 1 });
    this.b.assets.move(req.crn, f.crn);
    return { d, f };
  }

  /** Starts or stops a flow; asking for what is already so (or under way) changes nothing. */
  move(f: DeployedFlow, d: Deployment, start: boolean): void {
    const s = this.status(f, d).state;
    const ds = this.b.deployments.status(d).state;
    if (start) {
      if (
        ['GOOD_HEALTH', 'CONCERNING_HEALTH', 'STARTING_FLOW', 'DEPLOYING', 'IMPORTING_FLOW', 'CHANGING_FLOW_VERSION', 'UPDATING'].includes(
          s,
        )
      )
        return;
      if (s !== 'FLOW_STOPPED' && s !== 'BAD_HEALTH') throw failedPrecondition(`flow ${f.name} cannot be started while ${s}`);
      if (!STEADY_DEPLOYMENT.has(ds)) throw failedPrecondition(`deployment ${d.name} is ${ds}`);
      this.begin(f, 'start');
    } else {
      if (s === 'FLOW_STOPPED' || s === 'STOPPING_FLOW') return;
      if (!STEADY_FLOW.has(s)) throw failedPrecondition(`flow ${f.name} cannot be stopped while ${s}`);
      this.begin(f, 'stop');
    }
  }

  /** Moves a flow to another version: the one a deployment request brings, else the next. */
  changeVersion(f: DeployedFlow, d: Deployment, change: VersionChange): void {
    const s = this.status(f, d).state;
    if (!STEADY_FLOW.has(s)) throw failedPrecondition(`flow ${f.name} cannot change version while ${s}`);
    f.previousFlowVersion = f.flowVersion;
    if (change.deploymentRequestCrn) {
      const req = this.b.requests.use(f.environmentCrn, change.deploymentRequestCrn, 'deployment');
      f.flowVersion = req.flowVersion === f.flowVersion ? f.flowVersion + 1 : req.flowVersion;
      this.b.assets.move(req.crn, f.crn);
    } else f.flowVersion += 1;
    if (change.parameterGroups) f.parameterGroups = change.parameterGroups;
    if (change.kpis) f.kpis = change.kpis;
    if (change.assetUpdateRequestCrn) this.b.assets.applyRequest(f.environmentCrn, change.assetUpdateRequestCrn, d, f);
    f.configurationVersion += 1;
    this.begin(f, 'changeVersion');
  }

  cancelChange(f: DeployedFlow, d: Deployment): void {
    if (this.status(f, d).state !== 'CHANGING_FLOW_VERSION') throw failedPrecondition(`flow ${f.name} is not changing version`);
    if (f.previousFlowVersion !== undefined) f.flowVersion = f.previousFlowVersion;
    delete f.previousFlowVersion;
    this.begin(f, 'cancelChange');
  }

  /** Terminates a flow (once: terminating again changes nothing). */
  terminate(f: DeployedFlow, d: Deployment): void {
    if (this.status(f, d).state !== 'TERMINATING') this.begin(f, 'terminate');
  }

  /** Terminates a flow with its deployment. */
  terminateWith(f: DeployedFlow): void {
    this.begin(f, 'terminateAll');
  }

  /** Changes a flow's configuration (the current version must be named). */
  update(f: DeployedFlow, d: Deployment, change: FlowChange): void {
    const s = this.status(f, d);
    if (s.state === 'TERMINATING') throw failedPrecondition(`flow ${f.name} is terminating`);
    checkVersion(f.configurationVersion, change.configurationVersion, 'flow');
    if (change.parameterGroups) f.parameterGroups = change.parameterGroups;
    if (change.kpis) f.kpis = change.kpis;
    if (change.assetUpdateRequestCrn) this.b.assets.applyRequest(f.environmentCrn, change.assetUpdateRequestCrn, d, f);
    for (const pg of change.sharedParameterGroupCrns) this.b.groups.get(f.environmentCrn, pg);
    f.configurationVersion += 1;
    f.deployedBy = this.b.actorName();
    if (STEADY_FLOW.has(s.state)) this.begin(f, 'update');
    else this.save(f);
  }
}
