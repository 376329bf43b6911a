/**
 * Asset update requests, records of the engine (index.ts's
 * `assetUpdateRequest`): a deployment's (or one of its flows') request to
 * change the files of its parameters, OPEN until it is used or aborted.
 * Files are uploaded for an open one (or for an open deployment request),
 * and go to the deployment or flow that uses it; an aborted one takes its
 * files with it.
 */
import type { Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { str } from '../../values.js';
import { KIND, inEnvironment, type Asset, type DeployedFlow, type Deployment, type R } from './records.js';
import { Workload } from './workload.js';
import { getDeployment, getFlow } from './deployed.js';
import { drop, keepUpload, moveAssets, upload, type AssetSpec } from './assets.js';
import * as requests from './requests.js';

/** Where an upload goes: to a request (deployment or asset update) of the environment. */
export interface UploadTarget {
  readonly assetUpdateRequestCrn?: string;
  readonly deploymentRequestCrn?: string;
}

/** The declaration of asset update requests. */
export const assetUpdateRequest: Resource<R> = {
  ...inEnvironment('asset update request', ['assetUpdateRequestCrn']),
  hooks: {
    // For a deployment of the environment, or one of its flows.
    check: {
      create: (h, rec, req) => {
        const w = new Workload(h);
        getDeployment(w, rec.scope, str(req.deploymentCrn));
        if (str(req.deployedFlowCrn)) getFlow(w, rec.scope, str(req.deploymentCrn), str(req.deployedFlowCrn));
      },
    },
    fill: (_h, _rec, req) => ({ deploymentCrn: str(req.deploymentCrn), deployedFlowCrn: str(req.deployedFlowCrn), status: 'OPEN' }),
  },
};

/** An asset update request of the environment (any, when none is given), or NOT_FOUND. */
function request(w: Workload, env: string, crn: string | undefined): EngineRecord {
  if (!crn) throw invalid('assetUpdateRequestCrn is required');
  const found = w.h.records('assetUpdateRequest').find(crn, env || undefined);
  if (!found) throw notFound(`asset update request ${crn} not found`);
  return found;
}

/** Refuses a request that is no longer open. */
function requireOpen(req: EngineRecord): void {
  if (req.doc.status !== 'OPEN')
    throw failedPrecondition(`asset update request ${String(req.crn)} is ${String(req.doc.status).toLowerCase()}`);
}

/** Moves an open request on to USED or ABORTED. */
function settle(w: Workload, req: EngineRecord, status: 'USED' | 'ABORTED'): void {
  req.doc.status = status;
  w.h.records('assetUpdateRequest').save(req);
}

/** Uses an open asset update request of the deployment: its assets go to the flow (or the deployment). */
export function applyRequest(w: Workload, env: string, crn: string, d: Deployment, f?: DeployedFlow): void {
  const req = request(w, env, crn);
  if (req.doc.deploymentCrn !== d.crn) throw invalid(`asset update request ${String(req.crn)} belongs to another deployment`);
  requireOpen(req);
  settle(w, req, 'USED');
  moveAssets(w, String(req.crn), f?.crn ?? d.crn);
}

export function abortRequest(w: Workload, env: string, deploymentCrn: string | undefined, crn: string | undefined): void {
  const d = getDeployment(w, env, deploymentCrn);
  const req = request(w, env, crn);
  if (req.doc.deploymentCrn !== d.crn) throw notFound(`asset update request ${String(req.crn)} not found for deployment ${d.name}`);
  if (req.doc.status === 'USED') throw failedPrecondition(`asset update request ${String(req.crn)} has already been applied`);
  settle(w, req, 'ABORTED');
  for (const a of w.store.children<Asset>(KIND.asset, String(req.crn))) drop(w, a.doc);
}

/** An asset uploaded for an open asset update request or deployment request. */
export function uploadFor(w: Workload, env: string, target: UploadTarget, spec: AssetSpec): Asset {
  upload(w);
  let owner: string;
  if (target.assetUpdateRequestCrn) {
    const req = request(w, env, target.assetUpdateRequestCrn);
    requireOpen(req);
    owner = String(req.crn);
  } else if (target.deploymentRequestCrn) {
    owner = requests.open(w, env, target.deploymentRequestCrn, 'deployment', 'deployment request').crn;
  } else throw invalid('give deploymentRequestCrn or assetUpdateRequestCrn');
  return keepUpload(w, env, owner, spec);
}
