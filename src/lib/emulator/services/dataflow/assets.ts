/**
 * Uploaded files for a flow's parameters (uploaded for a deployment
 * request, an asset update request or a parameter group, and kept with
 * their owner), and how a flow's parameters show them. The bytes are on
 * disk (the server wrote them); records point at them.
 *
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
import { uuid } from '../../ids.js';
import type { BackendContext, Doc } from '../../types.js';
import { removeUpload } from '../../uploads.js';
import { docs, str } from '../../values.js';
import { KIND, Workload, inEnvironment, type Asset, type Call, type DeployedFlow, type Deployment, type R } from './workload.js';

export function upload(w: Workload): NonNullable<BackendContext['upload']> {
  const u = w.ctx.upload;
  if (!u) throw invalid('this operation takes the file as an application/octet-stream body at its upload path');
  return u;
}

/** The parameter groups of a flow with the files uploaded for its parameters. */
export function withAssets(w: Workload, groups: readonly Doc[], owners: readonly string[]): Doc[] {
  const out = groups.map((g) => ({ ...g, parameters: docs(g.parameters).map((p) => ({ ...p })) })) as Array<Doc & { parameters: Doc[] }>;
  for (const owner of owners) {
    for (const { doc: a } of w.store.children<Asset>(KIND.asset, owner)) {
      let g = out.find((x) => x.name === a.parameterGroup);
      if (!g) out.push((g = { name: a.parameterGroup, parameters: [] }));
      let p = g.parameters.find((x) => x.name === a.parameterName);
      if (!p) g.parameters.push((p = { name: a.parameterName, type: 'FILE' }));
      const refs = [...docs(p.assetReferences).filter((x) => x.name !== a.name), reference(a)];
      p.assetReferences = refs;
      if (refs.length > 1) p.type = 'FILES';
    }
  }
  return out;
}

/** Moves the assets of one owner (a request) to another (a deployment or flow). */
export function moveAssets(w: Workload, from: string, to: string): void {
  for (const { id, doc } of w.store.children<Asset>(KIND.asset, from)) {
    doc.owner = to;
    w.store.put(KIND.asset, id, doc, { parent: to });
  }
}

/** Drops the assets of an owner, their files with them. */
export function dropAssets(w: Workload, owner: string): void {
  for (const { doc } of w.store.children<Asset>(KIND.asset, owner)) drop(w, doc);
}

function drop(w: Workload, a: Asset): void {
  removeUpload(w.ctx.info.dataDir, a.storedAt);
  w.store.delete(KIND.asset, a.id);
}

/** Keeps the uploaded file as an asset of `owner` (a new upload of the same parameter and name replaces it). */
export function keepUpload(
  w: Workload,
  env: string,
  owner: string,
  spec: Pick<Asset, 'parameterGroup' | 'parameterName' | 'deployedFlowName'> & { filePath: string },
): Asset {
  const u = upload(w);
  const name = spec.filePath.split(/[\\/]/).pop() || spec.filePath;
  for (const { doc } of w.store.children<Asset>(KIND.asset, owner))
    if (doc.parameterGroup === spec.parameterGroup && doc.parameterName === spec.parameterName && doc.name === name) drop(w, doc);
  const a: Asset = {
    id: uuid(),
    environmentCrn: env,
    owner,
    parameterGroup: spec.parameterGroup,
    parameterName: spec.parameterName,
    name,
    path: spec.filePath,
    size: u.size,
    storedAt: u.path,
    deployedFlowName: spec.deployedFlowName,
    created: w.now,
  };
  w.store.put(KIND.asset, a.id, a, { parent: owner });
  return a;
}

/** How a flow's parameter refers to an uploaded file. */
export const reference = (a: Asset): Doc => ({
  id: a.id,
  name: a.name,
  path: a.path,
  version: String(a.created),
  environmentProvided: false,
});

/** The declaration of asset update requests. */
export const assetUpdateRequest: Resource<R> = {
  ...inEnvironment('asset update request', ['assetUpdateRequestCrn']),
  hooks: {
    // For a deployment of the environment, or one of its flows.
    check: {
      create: (h, rec, req) => {
        const w = new Workload(h);
        w.deployment(rec.scope, str(req.deploymentCrn));
        if (str(req.deployedFlowCrn)) w.flow(rec.scope, str(req.deploymentCrn), str(req.deployedFlowCrn));
      },
    },
    fill: (_h, _rec, req) => ({ deploymentCrn: str(req.deploymentCrn), deployedFlowCrn: str(req.deployedFlowCrn), status: 'OPEN' }),
  },
};

/** An asset update request of the environment (any, when none is given), or NOT_FOUND. */
export function assetRequest(w: Workload, env: string, crn: string | undefined): EngineRecord {
  if (!crn) throw invalid('assetUpdateRequestCrn is required');
  const found = w.h.records('assetUpdateRequest').find(crn, env || undefined);
  if (!found) throw notFound(`asset update request ${crn} not found`);
  return found;
}

/** Refuses a request that is no longer open. */
export function requireOpen(req: EngineRecord): EngineRecord {
  if (req.doc.status !== 'OPEN')
    throw failedPrecondition(`asset update request ${String(req.crn)} is ${String(req.doc.status).toLowerCase()}`);
  return req;
}

/** Uses an open asset update request of the deployment: its assets go to the flow (or the deployment). */
export function applyRequest(w: Workload, env: string, crn: string, d: Deployment, f?: DeployedFlow): void {
  const req = assetRequest(w, env, crn);
  if (req.doc.deploymentCrn !== d.crn) throw invalid(`asset update request ${String(req.crn)} belongs to another deployment`);
  requireOpen(req);
  req.doc.status = 'USED';
  w.h.records('assetUpdateRequest').save(req);
  moveAssets(w, String(req.crn), f?.crn ?? d.crn);
}

export const assetCalls = {
  abortAssetUpdateRequest: (w, r, env) => {
    const d = w.deployment(env, str(r.deploymentCrn));
    const req = assetRequest(w, env, str(r.assetUpdateRequestCrn));
    if (req.doc.deploymentCrn !== d.crn) throw notFound(`asset update request ${String(req.crn)} not found for deployment ${d.name}`);
    if (req.doc.status === 'USED') throw failedPrecondition(`asset update request ${String(req.crn)} has already been applied`);
    req.doc.status = 'ABORTED';
    w.h.records('assetUpdateRequest').save(req);
    dropAssets(w, String(req.crn));
    return {};
  },
} satisfies Record<string, Call>;
