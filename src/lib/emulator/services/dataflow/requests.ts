/**
 * Deployment and flow requests. A request comes from the DataFlow control
 * plane; this service knows it once its details have been read
 * (get-deployment-request-details or get-flow-request-details-in-deployment),
 * every other use of an unknown one is refused. A request is used once.
 */
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { crnId } from '../../ids.js';
import type { Workload } from './workload.js';
import { KIND, type Asset, type FlowRequest } from './records.js';
import { drop } from './assets.js';

function field(kind: FlowRequest['kind']): string {
  return kind === 'deployment' ? 'deploymentRequestCrn' : 'deployedFlowRequestCrn';
}

export function save(w: Workload, req: FlowRequest): void {
  w.store.put(KIND.request, req.crn, req);
}

/** A known request; `register` (reading its details) makes an unknown one known. */
export function get(w: Workload, env: string, requestCrn: string | undefined, kind: FlowRequest['kind'], register = false): FlowRequest {
  const c = requestCrn;
  if (!c) throw invalid(`${field(kind)} is required`);
  if (!c.startsWith('crn:')) throw invalid(`${field(kind)} must be a CRN`);
  const found = w.store.get<FlowRequest>(KIND.request, c);
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
  save(w, rec);
  return rec;
}

/** Uses a request (once). */
export function use(w: Workload, env: string, requestCrn: string | undefined, kind: FlowRequest['kind']): FlowRequest {
  const req = get(w, env, requestCrn, kind);
  if (req.status === 'ABORTED') throw failedPrecondition(`request ${req.crn} was aborted`);
  if (req.status === 'USED') throw alreadyExists(`request ${req.crn} has already been used`);
  req.status = 'USED';
  save(w, req);
  return req;
}

/** An open request (for an import or an upload). */
export function open(w: Workload, env: string, requestCrn: string | undefined, kind: FlowRequest['kind'], what = 'request'): FlowRequest {
  const req = get(w, env, requestCrn, kind);
  if (req.status !== 'OPEN') throw failedPrecondition(`${what} ${req.crn} is ${req.status.toLowerCase()}`);
  return req;
}

/** Aborts a request that was not used; the assets uploaded for it go. */
export function abort(w: Workload, env: string, requestCrn: string | undefined, kind: FlowRequest['kind']): void {
  const req = get(w, env, requestCrn, kind);
  if (req.status === 'USED') throw failedPrecondition(`request ${req.crn} has already been deployed`);
  req.status = 'ABORTED';
  save(w, req);
  if (kind === 'deployment') for (const a of w.store.children<Asset>(KIND.asset, req.crn)) drop(w, a.doc);
}
