/**
 * Asset references that name local files (an operation's `assetUploads`,
 * model data): what the official CLI's DataFlow extension is built to do for
 * updateDeployment and updateFlowInDeployment. Before the call, an asset
 * update request is opened for the deployment, each file is uploaded under
 * it, the reference is rewritten to the uploaded file's name and directory,
 * and the call names the request. An upload that fails aborts the request.
 * Every file is checked before anything is sent.
 */
import { accessSync, constants, statSync } from 'node:fs';
import type { OperationClient, Doc, Upload } from './client.js';
import { usageError } from './errors.js';
import type { Operation } from '../model/index.js';
import { expandPath } from './files.js';

interface Reference {
  readonly group: string;
  readonly parameter: string;
  readonly ref: Doc;
  readonly path: string;
}

const isObj = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Doc[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** Every asset reference with a path, in request order. */
export function localReferences(request: Doc): Reference[] {
  const out: Reference[] = [];
  for (const g of list(request.parameterGroups))
    for (const p of list(g.parameters))
      for (const ref of list(p.assetReferences))
        if (typeof ref.path === 'string' && ref.path !== '')
          out.push({ group: String(g.name ?? ''), parameter: String(p.name ?? ''), ref, path: ref.path });
  return out;
}

/** Python's os.path.split: the directory (without trailing slashes, unless it is the root) and the name. */
export function splitPath(path: string): [string, string] {
  const i = path.lastIndexOf('/') + 1;
  const head = path.slice(0, i);
  const dir = /^\/+$/.test(head) ? head : head.replace(/\/+$/, '');
  return [dir, path.slice(i)];
}

export interface AssetUploadHelpers {
  readonly open: (op: Operation, request: Doc) => Upload;
  readonly check: (op: Operation, request: Doc) => void;
}

export async function uploadAssetReferences(
  client: OperationClient,
  op: Operation,
  request: Doc,
  helpers: AssetUploadHelpers,
): Promise<void> {
  const spec = op.cli.assetUploads;
  const refs = localReferences(request);
  if (!spec || refs.length === 0) return;
  for (const r of refs) {
    const local = expandPath(r.path);
    try {
      if (!statSync(local).isFile()) throw new Error('not a file');
      accessSync(local, constants.R_OK);
    } catch {
      throw usageError(
        `--parameter-groups: asset ${r.path} (parameter ${r.parameter} of ${r.group}) is not a readable file; nothing was sent`,
      );
    }
  }
  const svc = op.service;
  const open = svc.operation(spec.open);
  const upload = svc.operation(spec.upload);
  const abort = svc.operation(spec.abort);
  const scope: Doc = { deploymentCrn: request.deploymentCrn, environmentCrn: request.environmentCrn };
  if (request.deployedFlowCrn !== undefined && svc.requestShape(open).byName.has('deployedFlowCrn'))
    scope.deployedFlowCrn = request.deployedFlowCrn;
  const opened = await client.call(open, scope);
  const crn = opened.assetUpdateRequestCrn;
  if (typeof crn !== 'string' || !crn) throw usageError(`${svc.name} ${spec.open} answered without an assetUpdateRequestCrn`);
  request.assetUpdateRequestCrn = crn;
  try {
    for (const r of refs) {
      const req: Doc = {
        environmentCrn: request.environmentCrn,
        assetUpdateRequestCrn: crn,
        parameterGroup: r.group,
        parameterName: r.parameter,
        filePath: r.path,
      };
      helpers.check(upload, req);
      await client.call(upload, req, helpers.open(upload, req));
      const [dir, name] = splitPath(expandPath(r.path));
      r.ref.name = name;
      r.ref.path = dir;
    }
  } catch (err) {
    const abortRequest = { deploymentCrn: request.deploymentCrn, environmentCrn: request.environmentCrn, assetUpdateRequestCrn: crn };
    await client.call(abort, abortRequest).catch(() => undefined);
    throw err;
  }
}
