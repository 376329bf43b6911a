/**
 * What the DataFlow workload service tells the rest of the emulator
 * (world/contracts.ts `dataflows`): its deployments and their flows, settled
 * on the clock, as DataFlow's control plane (df) shows them; and what df
 * starts here, a request to deploy and the termination of a disabled
 * service's deployments.
 */
import type { Hook } from '../../engine/declare.js';
import { progress, type Activity } from '../../engine/timeline.js';
import type { DataflowDeploymentView, DataflowFlowView, DataflowWorkView, Dataflows } from '../../world/contracts.js';
import { KPI_METADATA } from './catalogue.js';
import { deploymentDoc } from './views.js';
import { KIND, Workload, nifiVersionOf, split, type DeployedFlow, type Deployment, type FlowRequest, type R } from './workload.js';
import { terminate } from './deployments.js';

const kpisOf = (v: unknown): Array<Readonly<Record<string, unknown>>> => (Array.isArray(v) ? (v as Array<Record<string, unknown>>) : []);

/** Made for df's request: reads need no caller; a termination df starts is the control plane's (its request's caller when it has one). */
export function dataflows(h: Hook<R>): Dataflows {
  const w = new Workload(h);
  // A delete is a termination as df tells it; a flow's with its deployment is `terminateAll`.
  const work = (a: Activity, withDeployment = false): DataflowWorkView => {
    const p = progress(a, h.ctx.clock.now());
    return {
      action: a.action === 'delete' ? (withDeployment ? 'terminateAll' : 'terminate') : a.action,
      startedAt: a.tl.startedAt,
      endsAt: p.endsAt,
      state: split(p.state).state,
      done: p.done,
      failed: p.failed,
      ...(a.reason ? { reason: a.reason } : {}),
    };
  };
  const deployment = (d: Deployment): DataflowDeploymentView => {
    const s = w.deploymentStatus(d);
    return {
      crn: d.crn,
      name: d.name,
      environmentCrn: d.doc.environmentCrn,
      ...(d.doc.projectCrn ? { projectCrn: d.doc.projectCrn } : {}),
      creatorCrn: d.doc.creatorCrn,
      deployedBy: d.doc.deployedBy,
      created: d.doc.created,
      updated: w.changedAt(d),
      configurationVersion: d.doc.configurationVersion,
      cfmNifiVersion: nifiVersionOf(d),
      kpis: kpisOf(d.doc.config.kpis),
      status: { state: s.state, detailedState: s.detailedState },
      work: work(d.activity),
      shown: () => deploymentDoc(w, d),
    };
  };
  const flow = (f: DeployedFlow, d: Deployment | undefined): DataflowFlowView => {
    const s = w.flowStatus(f, d);
    return {
      crn: f.crn,
      name: f.name,
      deploymentCrn: f.doc.deploymentCrn,
      environmentCrn: f.doc.environmentCrn,
      ...(f.doc.projectCrn ? { projectCrn: f.doc.projectCrn } : {}),
      creatorCrn: f.doc.creatorCrn,
      created: f.doc.created,
      updated: w.changedAt(f),
      flowCrn: f.doc.flowCrn,
      flowName: f.doc.flowName,
      flowVersion: f.doc.flowVersion,
      kpis: kpisOf(f.doc.kpis),
      status: { state: s.state, detailedState: s.detailedState },
      work: work(f.activity, f.doc.withDeployment),
    };
  };
  return {
    deployments: () => w.allDeployments().map(deployment),
    deployment: (crn) => {
      const d = w.findDeployment(crn);
      return d ? deployment(d) : undefined;
    },
    flowsOf: (deploymentCrn) => {
      const d = w.findDeployment(deploymentCrn);
      return d ? w.flowsOf(d).map((f) => flow(f, d)) : [];
    },
    flows: () => w.allFlows().map((f) => flow(f, undefined)),
    terminate: (deploymentCrn) => void terminate(w, '', deploymentCrn),
    openRequest: (spec) => {
      const req: FlowRequest = { ...spec, status: 'OPEN' };
      w.store.put(KIND.request, req.crn, req);
    },
    kpiMetadata: () => KPI_METADATA,
  };
}
