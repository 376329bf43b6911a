/**
 * Uploaded files for a flow's parameters (uploaded for a deployment
 * request, an asset update request or a parameter group, and kept with
 * their owner), and how a flow's parameters show them. The bytes are on
 * disk (the server wrote them); records point at them.
 */
import { invalid } from '../../errors.js';
import { uuid } from '../../ids.js';
import { removeUpload } from '../../uploads.js';
import type { BackendContext, Doc } from '../../types.js';
import { docs } from '../../values.js';
import { KIND, type Asset } from './records.js';
import type { Workload } from './workload.js';

export interface AssetSpec {
  readonly parameterGroup: string;
  readonly parameterName: string;
  readonly filePath: string;
  readonly deployedFlowName?: string;
}

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
      if (!g) {
        g = { name: a.parameterGroup, parameters: [] };
        out.push(g);
      }
      let p = g.parameters.find((x) => x.name === a.parameterName);
      if (!p) {
        p = { name: a.parameterName, type: 'FILE' };
        g.parameters.push(p);
      }
      const refs = docs(p.assetReferences).filter((x) => x.name !== a.name);
      refs.push(reference(a));
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

export function drop(w: Workload, a: { id: string; storedAt: string }): void {
  removeUpload(w.ctx.info.dataDir, a.storedAt);
  w.store.delete(KIND.asset, a.id);
}

/** Keeps the uploaded file as an asset of `owner` (a new upload of the same parameter and name replaces it). */
export function keepUpload(w: Workload, env: string, owner: string, spec: AssetSpec): Asset {
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
