/**
 * The DataFlow workload of an account, for one request: what its parts
 * share (the clock, CRNs, the caller's workload user name, the environment
 * a request is for), what it stores, and what every part reads of
 * deployments and flows (engine records whose lifecycles are the model's
 * `STATE/DETAILED_STATE` pairs, read lazily). A terminated deployment or
 * flow is gone once its termination has finished; a flow shows its
 * deployment's suspension and termination. Configurations carry a version:
 * an update must name the current one and moves it on by one.
 */
import type { ActionFacts } from '../../../model/resources.js';
import { resources } from '../../../model/services/dataflow/resources.js';
import type { Hook, Resource } from '../../engine/declare.js';
import type { BeginOptions, EngineRecord, Records } from '../../engine/records.js';
import { code, type CodeEntry } from '../../engine/table.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { crn, crnId } from '../../ids.js';
import type { Doc } from '../../types.js';
import { str } from '../../values.js';

/** The resources of the service's facts (model/services/dataflow/resources.ts). */
export type R = keyof typeof resources.resources;

/**
 * What every engine resource of the workload is: of an environment (named by
 * `environmentCrn`), and a part of it, not one of its dependents (it neither
 * holds up its delete nor follows its stop and start).
 */
export const inEnvironment = (noun: string, keys: readonly string[]): Pick<Resource<R>, 'noun' | 'keys' | 'lives' | 'withEnvironment'> => ({
  noun,
  keys,
  lives: { in: 'environment', by: ['environmentCrn'] },
  withEnvironment: 'part',
});

export const KIND = { request: 'dfworkload.request', asset: 'dfworkload.asset' } as const;

/** What a deployment and a flow both keep: where, whose, since when, and at which configuration version. */
interface Deployed {
  environmentCrn: string;
  projectCrn?: string;
  creatorCrn: string;
  deployedBy: string;
  created: number;
  updated: number;
  configurationVersion: number;
}

/** A deployment: an engine record of the `deployment` resource (in its environment); its status is its lifecycle's. */
export interface Deployment extends EngineRecord {
  name: string;
  crn: string;
  doc: Doc & Deployed & { deploymentRequestCrn: string; config: Doc; cfmNifiVersion: string; inboundEndpointCrn?: string };
}

/** A deployed flow: an engine record of the `deployedFlow` resource (in its deployment). */
export interface DeployedFlow extends EngineRecord {
  name: string;
  crn: string;
  doc: Doc &
    Deployed & {
      deploymentCrn: string;
      parameterGroups: Doc[];
      kpis: Doc[];
      flowName: string;
      flowCrn: string;
      flowVersion: number;
      previousFlowVersion?: number;
      sharedParameterGroupCrn?: string;
      /** Terminated with its deployment. */
      withDeployment?: true;
    };
}

export interface FlowRequest {
  crn: string;
  kind: 'deployment' | 'flow';
  environmentCrn: string;
  status: 'OPEN' | 'USED' | 'ABORTED';
  flowName: string;
  flowVersion: number;
  /**
   * The catalog's flow definition it deploys, as the control plane named it
   * (`...:flow:<name>`, or `...:readyFlow:<slug>` for an added ReadyFlow);
   * absent for a request this service only knows by its CRN: `flow:<flowName>`.
   */
  flowCrn?: string;
  archive?: string;
}

export interface Asset {
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

/** A `STATE/DETAILED_STATE` lifecycle state as the wire has it. */
export interface Status {
  readonly state: string;
  readonly detailedState: string;
}

export function split(step: string): Status {
  const [state = 'UNKNOWN', detailedState = 'UNKNOWN'] = step.split('/');
  return { state, detailedState };
}

export const HEALTHY = new Set(['GOOD_HEALTH', 'CONCERNING_HEALTH']);
export const STEADY_DEPLOYMENT = new Set([...HEALTHY, 'BAD_HEALTH']);
export const STEADY_FLOW = new Set([...STEADY_DEPLOYMENT, 'FLOW_STOPPED']);

/** The states of a resource's lifecycle (the model's facts) whose STATE (before the `/`) passes `keep`. */
export function statesOf(resource: 'deployment' | 'deployedFlow', keep: (state: string) => boolean): string[] {
  const actions = Object.values(resources.resources[resource].lifecycle as Readonly<Record<string, ActionFacts>>);
  const all = actions.flatMap((a) => [...a.through, a.success ?? '', a.failure ?? '']);
  return [...new Set(all)].filter((s) => s !== '' && keep(split(s).state));
}

/** Fails unless a configuration change names the current version. */
export function checkVersion(current: number, given: unknown, what: string): void {
  if (given !== current)
    throw failedPrecondition(
      `the ${what} configuration has changed: version ${String(given)} is stale, the current version is ${current}; read it again and retry`,
    );
}

/** What the workload's parts share, made for one request. */
export class Workload {
  readonly ctx: Hook<R>['ctx'];
  readonly store: Hook<R>['ctx']['store'];
  readonly deployments: Records;
  readonly flows: Records;

  constructor(readonly h: Hook<R>) {
    [this.ctx, this.store, this.deployments, this.flows] = [h.ctx, h.ctx.store, h.records('deployment'), h.records('deployedFlow')];
  }

  get now(): number {
    return this.ctx.clock.now();
  }

  readonly crnOf = (type: string, id: string): string => crn('df', this.ctx.info.region, this.ctx.info.accountId, type, id);

  /** The flow definition a request deploys: the one the control plane named, else `flow:<its flow's name>`. */
  readonly flowCrnOf = (req: FlowRequest): string => req.flowCrn ?? this.crnOf('flow', req.flowName);

  /**
   * The CRN of the environment a request names; the workload token's
   * environment when it names none (the server has checked they agree).
   */
  environment(ref: string | undefined): string {
    const e = ref ?? this.ctx.caller.workload?.environmentCrn;
    if (!e) return '';
    if (!e.startsWith('crn:')) throw invalid(`environmentCrn must be a CRN; got "${e.slice(0, 100)}"`);
    return this.h.world.environments.require(e).crn;
  }

  /** The caller's workload user name (what DataFlow shows as "deployed by"). */
  readonly actorName = (): string =>
    this.h.world.identities.actor(this.ctx.caller.actorCrn)?.workloadUsername ?? crnId(this.ctx.caller.actorCrn);

  /** Every deployment of the account that is not gone. */
  readonly allDeployments = (): Deployment[] => this.deployments.all() as Deployment[];

  /** Every flow of the account that is not gone. */
  readonly allFlows = (): DeployedFlow[] => this.flows.all() as DeployedFlow[];

  /** A deployment by CRN (or name), settled; undefined once gone. */
  readonly findDeployment = (ref: string, env?: string): Deployment | undefined =>
    this.deployments.find(ref, env || undefined) as Deployment | undefined;

  /** The deployment, or NOT_FOUND (also once termination has finished). */
  deployment(env: string, deploymentCrn: string | undefined): Deployment {
    if (!deploymentCrn) throw invalid('deploymentCrn is required');
    const d = this.findDeployment(deploymentCrn);
    if (!d || (env && d.doc.environmentCrn !== env)) throw notFound(`deployment ${deploymentCrn} not found`);
    return d;
  }

  /** A flow of a deployment, or NOT_FOUND (also once terminated). */
  flow(env: string, deploymentCrn: string | undefined, flowCrn: string | undefined): { d: Deployment; f: DeployedFlow } {
    const d = this.deployment(env, deploymentCrn);
    if (!flowCrn) throw invalid('deployedFlowCrn is required');
    const f = this.flows.find(flowCrn, d.id) as DeployedFlow | undefined;
    if (!f || this.flowStatus(f, d).state === 'TERMINATED') throw notFound(`flow ${flowCrn} not found in deployment ${d.name}`);
    return { d, f };
  }

  /** The flows of a deployment that are not gone. */
  readonly flowsOf = (d: Deployment): DeployedFlow[] =>
    (this.flows.all(d.id) as DeployedFlow[]).filter((f) => this.flowStatus(f, d).state !== 'TERMINATED');

  deploymentStatus(d: Readonly<EngineRecord>): Status & { done: boolean; failed: boolean } {
    const p = this.deployments.progress(d);
    return { ...split(p.state), done: p.done, failed: p.failed };
  }

  /** A flow's state: its own, or its deployment's suspension or termination. */
  flowStatus(f: DeployedFlow, d?: Deployment): Status {
    const own = split(this.flows.state(f));
    if (own.state === 'TERMINATING' || own.state === 'TERMINATED') return own;
    const ds = d ? this.deploymentStatus(d).state : undefined;
    if (ds === 'SUSPENDING' || ds === 'SUSPENDED') return { state: 'DEPLOYMENT_SUSPENDED', detailedState: 'DEPLOYMENT_SUSPENDED' };
    if (ds === 'TERMINATING' || ds === 'TERMINATED') return { state: 'TERMINATING', detailedState: 'TERMINATING' };
    return own;
  }

  /** The records a deployment or a flow is one of. */
  readonly recordsOf = (x: Deployment | DeployedFlow): Records => (x.doc.deploymentCrn === undefined ? this.deployments : this.flows);

  /** When a deployment or flow last changed: by hand, or by its action (begun, or ended). */
  changedAt(x: Deployment | DeployedFlow): number {
    const p = this.recordsOf(x).progress(x);
    return Math.max(x.doc.updated, p.done ? Math.min(p.endsAt, this.now) : x.activity.tl.startedAt);
  }

  /** Starts an action of a deployment or flow. */
  readonly begin = (x: Deployment | DeployedFlow, action: string, opts?: BeginOptions): void =>
    void this.recordsOf(x).begin(x, action, opts);

  /** Keeps a deployment or flow changed by hand, stamped as changed now. */
  save(x: Deployment | DeployedFlow): void {
    x.doc.updated = this.now;
    this.recordsOf(x).save(x);
  }
}

/** The NiFi version a deployment shows: the one it moves to while its update runs (the update's effect), else its own. */
export const nifiVersionOf = (d: Deployment): string =>
  (d.activity.action === 'updateNifi' && typeof d.activity.effect?.cfmNifiVersion === 'string'
    ? d.activity.effect.cfmNifiVersion
    : undefined) ?? d.doc.cfmNifiVersion;

/** The artifact type of a flow definition, as its CRN's resource type says: `flow` or `readyFlow`. */
export const artifactTypeOf = (flowCrn: string): string => (flowCrn.split(':')[5] === 'readyFlow' ? 'readyFlow' : 'flow');

/** The work of a code entry: given the request's workload, the request, and the environment it is for (its own, or its workload token's). */
export type Call = (w: Workload, r: Doc, env: string) => Doc;

/** The table's code entries (index.ts): each call over the request's workload, named after its operation for the coverage table. */
export const codeEntries = <K extends string>(calls: Record<K, Call>): { readonly [op in K]: CodeEntry<R> } =>
  Object.fromEntries(
    Object.entries<Call>(calls).map(([op, call]) => {
      const run = (h: Hook<R>, req: Doc): Doc => {
        const w = new Workload(h);
        return call(w, req, w.environment(str(req.environmentCrn)));
      };
      return [op, code(Object.defineProperty(run, 'name', { value: op }))];
    }),
  ) as { readonly [op in K]: CodeEntry<R> };
