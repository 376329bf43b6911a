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
import { KIND, split, type DeployedFlow, type Deployment, type FlowRequest, type R } from './records.js';
import { deploymentDoc } from './views.js';
import { Workload } from './workload.js';
import { deploymentRecords, deploymentStatus, flowRecords, flowStatus, flowsOf } from './deployed.js';
import * as deployments from './deployments.js';

const kpisOf = (v: unknown): Array<Readonly<Record<string, unknown>>> => (Array.isArray(v) ? (v as Array<Record<string, unknown>>) : []);

/** Made for df's request: reads need no caller; a termination df starts is the control plane's (its request's caller when it has one). */
export function dataflows(h: Hook<R>): Dataflows {
  const w = new Workload(h);
  const work = (a: Activity): DataflowWorkView => {
    const p = progress(a, h.ctx.clock.now());
    return {
      action: a.action,
      startedAt: a.tl.startedAt,
      endsAt: p.endsAt,
      state: split(p.state).state,
      done: p.done,
      failed: p.failed,
      ...(a.reason ? { reason: a.reason } : {}),
    };
  };
  const deployment = (d: Deployment): DataflowDeploymentView => {
    const s = deploymentStatus(w, d);
    return {
      crn: d.crn,
      name: d.name,
      environmentCrn: d.environmentCrn,
      ...(d.projectCrn ? { projectCrn: d.projectCrn } : {}),
      creatorCrn: d.creatorCrn,
      deployedBy: d.deployedBy,
      created: d.created,
      updated: d.updated,
      configurationVersion: d.configurationVersion,
      cfmNifiVersion: d.cfmNifiVersion,
      kpis: kpisOf(d.config.kpis),
      status: { state: s.state, detailedState: s.detailedState },
      work: work(d.activity),
      shown: () => deploymentDoc(w, d),
    };
  };
  const flow = (f: DeployedFlow, d: Deployment | undefined): DataflowFlowView => {
    const s = flowStatus(w, f, d);
    return {
      crn: f.crn,
      name: f.name,
      deploymentCrn: f.deploymentCrn,
      environmentCrn: f.environmentCrn,
      ...(f.projectCrn ? { projectCrn: f.projectCrn } : {}),
      creatorCrn: f.creatorCrn,
      created: f.created,
      updated: f.updated,
      flowCrn: f.flowCrn,
      flowName: f.flowName,
      flowVersion: f.flowVersion,
      kpis: kpisOf(f.kpis),
      status: { state: s.state, detailedState: s.detailedState },
      work: work(f.activity),
    };
  };
  return {
    deployments: () => deploymentRecords(w).all().map(deployment),
    deployment: (crn) => {
      const d = deploymentRecords(w).find(crn);
      return d ? deployment(d) : undefined;
    },
    flowsOf: (deploymentCrn) => {
      const d = deploymentRecords(w).find(deploymentCrn);
      return d ? flowsOf(w, d).map((f) => flow(f, d)) : [];
    },
    flows: () =>
      flowRecords(w)
        .all()
        .map((f) => flow(f, undefined)),
    terminate: (deploymentCrn) => void deployments.terminate(w, '', deploymentCrn),
    openRequest: (spec) => {
      const req: FlowRequest = { ...spec, status: 'OPEN' };
      w.store.put(KIND.request, req.crn, req);
    },
    kpiMetadata: () => KPI_METADATA,
  };
}
