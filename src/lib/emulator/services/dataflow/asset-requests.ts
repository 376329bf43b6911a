/**
 * Asset update requests: a deployment's (or one of its flows') request to
 * change the files of its parameters. Files are uploaded for an open one (or
 * for an open deployment request), and go to the deployment or flow that
 * uses it; an aborted one takes its files with it.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { KIND, type Asset, type AssetRequest, type DeployedFlow, type Deployment } from './records.js';
import type { Workload } from './workload.js';
import { getDeployment, getFlow } from './deployed.js';
import { drop, keepUpload, moveAssets, upload, type AssetSpec } from './assets.js';
import * as requests from './requests.js';

/** Where an upload goes: to a request (deployment or asset update) of the environment. */
export interface UploadTarget {
  readonly assetUpdateRequestCrn?: string;
  readonly deploymentRequestCrn?: string;
}

export function request(w: Workload, env: string, crn: string | undefined): AssetRequest {
  if (!crn) throw invalid('assetUpdateRequestCrn is required');
  const found = w.store.get<AssetRequest>(KIND.assetRequest, crn);
  if (!found || (env && found.environmentCrn !== env)) throw notFound(`asset update request ${crn} not found`);
  return found;
}

function saveRequest(w: Workload, req: AssetRequest): void {
  w.store.put(KIND.assetRequest, req.crn, req, { parent: req.deploymentCrn });
}

/** Uses an open asset update request of the deployment: its assets go to the flow (or the deployment). */
export function applyRequest(w: Workload, env: string, crn: string, d: Deployment, f?: DeployedFlow): void {
  const req = request(w, env, crn);
  if (req.deploymentCrn !== d.crn) throw invalid(`asset update request ${req.crn} belongs to another deployment`);
  if (req.status !== 'OPEN') throw failedPrecondition(`asset update request ${req.crn} is ${req.status.toLowerCase()}`);
  req.status = 'USED';
  saveRequest(w, req);
  moveAssets(w, req.crn, f?.crn ?? d.crn);
}

export function createRequest(w: Workload, env: string, deploymentCrn: string | undefined, flowCrn?: string): AssetRequest {
  const d = getDeployment(w, env, deploymentCrn);
  if (flowCrn) getFlow(w, env, deploymentCrn, flowCrn);
  const req: AssetRequest = {
    crn: w.crnOf('assetUpdateRequest', uuid()),
    environmentCrn: env,
    deploymentCrn: d.crn,
    deployedFlowCrn: flowCrn,
    status: 'OPEN',
  };
  saveRequest(w, req);
  return req;
}

export function abortRequest(w: Workload, env: string, deploymentCrn: string | undefined, crn: string | undefined): void {
  const d = getDeployment(w, env, deploymentCrn);
  const req = request(w, env, crn);
  if (req.deploymentCrn !== d.crn) throw notFound(`asset update request ${req.crn} not found for deployment ${d.name}`);
  if (req.status === 'USED') throw failedPrecondition(`asset update request ${req.crn} has already been applied`);
  req.status = 'ABORTED';
  saveRequest(w, req);
  for (const a of w.store.children<Asset>(KIND.asset, req.crn)) drop(w, a.doc);
}

/** An asset uploaded for an open asset update request or deployment request. */
export function uploadFor(w: Workload, env: string, target: UploadTarget, spec: AssetSpec): Asset {
  upload(w);
  let owner: string;
  if (target.assetUpdateRequestCrn) {
    const req = request(w, env, target.assetUpdateRequestCrn);
    if (req.status !== 'OPEN') throw failedPrecondition(`asset update request ${req.crn} is ${req.status.toLowerCase()}`);
    owner = req.crn;
  } else if (target.deploymentRequestCrn) {
    owner = requests.open(w, env, target.deploymentRequestCrn, 'deployment', 'deployment request').crn;
  } else throw invalid('give deploymentRequestCrn or assetUpdateRequestCrn');
  return keepUpload(w, env, owner, spec);
}
