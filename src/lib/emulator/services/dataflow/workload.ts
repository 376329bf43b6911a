/**
 * The DataFlow workload of an account, for one request: what its parts
 * share (the clock, CRNs, the caller's workload user name, the environment
 * a request is for), and the move of resources between projects. The parts
 * are modules of functions over it: deployed.ts (what every part reads of
 * deployments and flows, engine records), assets.ts, requests.ts,
 * inbound.ts, configurations.ts, parameter-groups.ts, asset-requests.ts,
 * reporting-tasks.ts, then flows.ts, deployments.ts and archives.ts (what
 * changes them, and their declarations). Records are in records.ts, the
 * fixed world in catalogue.ts, wire views in views.ts.
 *
 * Deployments and flows move through the model's `STATE/DETAILED_STATE`
 * pairs, read lazily. Calls that ask for a state (suspend, resume, start,
 * stop) change nothing when the resource is already in that state or on
 * its way there (`unchangedIn`). Configurations carry a version:
 * an update must name the current one and moves it on by one.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { crn, crnId } from '../../ids.js';
import type { Hook } from '../../engine/declare.js';
import type { BackendContext } from '../../types.js';
import type { FlowRequest, R } from './records.js';

/** A resource moved between projects by reassignResources. */
export interface Reassignment {
  readonly resourceCrn: string;
  /** The project it must be in now, when given. */
  readonly projectCrn?: string;
}

/** What the workload's parts share, made for one request. */
export class Workload {
  constructor(readonly h: Hook<R>) {}

  get ctx(): BackendContext {
    return this.h.ctx;
  }

  get now(): number {
    return this.ctx.clock.now();
  }

  get store(): BackendContext['store'] {
    return this.ctx.store;
  }

  crnOf(type: string, id: string): string {
    return crn('df', this.ctx.info.region, this.ctx.info.accountId, type, id);
  }

  /** The flow definition a request deploys: the one the control plane named, else `flow:<its flow's name>`. */
  flowCrnOf(req: FlowRequest): string {
    return req.flowCrn ?? this.crnOf('flow', req.flowName);
  }

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
  actorName(): string {
    return this.h.world.identities.actor(this.ctx.caller.actorCrn)?.workloadUsername ?? crnId(this.ctx.caller.actorCrn);
  }

  /** Moves resources of the environment to another project (none: out of any project). */
  reassign(env: string, destination: string | undefined, items: readonly Reassignment[]): void {
    const found = items.map((it) => {
      const hit = this.projectHolder(env, it.resourceCrn);
      if (!hit) throw notFound(`resource ${it.resourceCrn} not found`);
      if (it.projectCrn !== undefined && hit.doc.projectCrn !== it.projectCrn)
        throw failedPrecondition(`resource ${it.resourceCrn} is not in project ${it.projectCrn}`);
      return hit;
    });
    for (const hit of found) {
      if (destination) hit.doc.projectCrn = destination;
      else delete hit.doc.projectCrn;
      hit.save();
    }
  }

  /** A resource of the environment that is in a project, as reassignResources moves it: its document, and how it is kept. */
  private projectHolder(env: string, ref: string): { doc: Record<string, unknown>; save(): void } | undefined {
    for (const r of PROJECT_HOLDERS) {
      const records = this.h.records(r);
      const rec = records.find(ref);
      if (rec && rec.env === env) return { doc: rec.doc, save: () => void records.save(rec) };
    }
    return undefined;
  }
}

/** The resources of the workload a project holds. */
const PROJECT_HOLDERS = [
  'customNarConfiguration',
  'customPythonConfiguration',
  'inboundConnectionEndpoint',
  'parameterGroup',
  'deployment',
  'deployedFlow',
] as const satisfies readonly R[];
