/**
 * Uploaded files: assets for a flow's parameters (uploaded for a deployment
 * request, an asset update request or a parameter group, and kept with
 * their owner), asset update requests, and reporting task definitions. The
 * bytes are on disk (the server wrote them); records point at them.
 */
import { readFileSync } from 'node:fs';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { removeUpload } from '../../uploads.js';
import type { BackendContext, Doc } from '../../types.js';
import { docs, str } from '../../values.js';
import type { Workload } from './workload.js';
import { KIND, type Asset, type AssetRequest, type DeployedFlow, type Deployment, type ReportingTask } from './records.js';

/** Where an upload goes: to a request (deployment or asset update) of the environment. */
export interface UploadTarget {
  readonly assetUpdateRequestCrn?: string;
  readonly deploymentRequestCrn?: string;
}

export interface AssetSpec {
  readonly parameterGroup: string;
  readonly parameterName: string;
  readonly filePath: string;
  readonly deployedFlowName?: string;
}

export class Assets {
  constructor(private readonly b: Workload) {}

  private upload(): NonNullable<BackendContext['upload']> {
    const u = this.b.ctx.upload;
    if (!u) throw invalid('this operation takes the file as an application/octet-stream body at its upload path');
    return u;
  }

  /** The parameter groups of a flow with the files uploaded for its parameters. */
  withAssets(groups: readonly Doc[], owners: readonly string[]): Doc[] {
    const out = groups.map((g) => ({ ...g, parameters: docs(g.parameters).map((p) => ({ ...p })) })) as Array<Doc & { parameters: Doc[] }>;
    for (const owner of owners) {
      for (const { doc: a } of this.b.store.children<Asset>(KIND.asset, owner)) {
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
  move(from: string, to: string): void {
    for (const { id, doc } of this.b.store.children<Asset>(KIND.asset, from)) {
      doc.owner = to;
      this.b.store.put(KIND.asset, id, doc, { parent: to });
    }
  }

  drop(a: { id: string; storedAt: string }): void {
    removeUpload(this.b.ctx.info.dataDir, a.storedAt);
    this.b.store.delete(KIND.asset, a.id);
  }

  request(env: string, crn: string | undefined): AssetRequest {
    if (!crn) throw invalid('assetUpdateRequestCrn is required');
    const found = this.b.store.get<AssetRequest>(KIND.assetRequest, crn);
    if (!found || (env && found.environmentCrn !== env)) throw notFound(`asset update request ${crn} not found`);
    return found;
  }

  private saveRequest(req: AssetRequest): void {
    this.b.store.put(KIND.assetRequest, req.crn, req, { parent: req.deploymentCrn });
  }

  /** Uses an open asset update request of the deployment: its assets go to the flow (or the deployment). */
  applyRequest(env: string, crn: string, d: Deployment, f?: DeployedFlow): void {
    const req = this.request(env, crn);
    if (req.deploymentCrn !== d.crn) throw invalid(`asset update request ${req.crn} belongs to another deployment`);
    if (req.status !== 'OPEN') throw failedPrecondition(`asset update request ${req.crn} is ${req.status.toLowerCase()}`);
    req.status = 'USED';
    this.saveRequest(req);
    this.move(req.crn, f?.crn ?? d.crn);
  }

  createRequest(env: string, deploymentCrn: string | undefined, flowCrn?: string): AssetRequest {
    const d = this.b.deployments.get(env, deploymentCrn);
    if (flowCrn) this.b.flows.get(env, deploymentCrn, flowCrn);
    const req: AssetRequest = {
      crn: this.b.crnOf('assetUpdateRequest', uuid()),
      environmentCrn: env,
      deploymentCrn: d.crn,
      deployedFlowCrn: flowCrn,
      status: 'OPEN',
    };
    this.saveRequest(req);
    return req;
  }

  abortRequest(env: string, deploymentCrn: string | undefined, crn: string | undefined): void {
    const d = this.b.deployments.get(env, deploymentCrn);
    const req = this.request(env, crn);
    if (req.deploymentCrn !== d.crn) throw notFound(`asset update request ${req.crn} not found for deployment ${d.name}`);
    if (req.status === 'USED') throw failedPrecondition(`asset update request ${req.crn} has already been applied`);
    req.status = 'ABORTED';
    this.saveRequest(req);
    for (const a of this.b.store.children<Asset>(KIND.asset, req.crn)) this.drop(a.doc);
  }

  /** Keeps the uploaded file as an asset of `owner` (a new upload of the same parameter and name replaces it). */
  store(env: string, owner: string, spec: AssetSpec): Asset {
    const u = this.upload();
    const name = spec.filePath.split(/[\\/]/).pop() || spec.filePath;
    for (const { doc } of this.b.store.children<Asset>(KIND.asset, owner))
      if (doc.parameterGroup === spec.parameterGroup && doc.parameterName === spec.parameterName && doc.name === name) this.drop(doc);
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
      created: this.b.now,
    };
    this.b.store.put(KIND.asset, a.id, a, { parent: owner });
    return a;
  }

  /** An asset uploaded for an open asset update request or deployment request. */
  uploadFor(env: string, target: UploadTarget, spec: AssetSpec): Asset {
    this.upload();
    let owner: string;
    if (target.assetUpdateRequestCrn) {
      const req = this.request(env, target.assetUpdateRequestCrn);
      if (req.status !== 'OPEN') throw failedPrecondition(`asset update request ${req.crn} is ${req.status.toLowerCase()}`);
      owner = req.crn;
    } else if (target.deploymentRequestCrn) {
      owner = this.b.requests.open(env, target.deploymentRequestCrn, 'deployment', 'deployment request').crn;
    } else throw invalid('give deploymentRequestCrn or assetUpdateRequestCrn');
    return this.store(env, owner, spec);
  }

  // ---- reporting tasks

  /** A reporting task from an uploaded JSON definition (its name and type are read from it). */
  createReportingTask(env: string, deploymentCrn: string | undefined, filePath: string): ReportingTask {
    const u = this.upload();
    if (deploymentCrn) this.b.deployments.get(env, deploymentCrn);
    let name = (filePath.split(/[\\/]/).pop() ?? filePath).replace(/\.json$/i, '');
    let type = 'org.apache.nifi.reporting.ReportingTask';
    if (u.size > 1024 * 1024) throw invalid('the reporting task definition is over 1 MiB');
    try {
      const def = JSON.parse(readFileSync(u.path, 'utf8')) as Doc;
      name = str(def.name) ?? name;
      type = str(def.type) ?? type;
    } catch {
      throw invalid('the reporting task definition is not valid JSON');
    }
    const id = uuid();
    const rec: ReportingTask = {
      crn: this.b.crnOf('reportingTask', id),
      identifier: id,
      name,
      type,
      environmentCrn: env,
      deploymentCrn,
      storedAt: u.path,
      size: u.size,
    };
    this.b.store.put(KIND.reportingTask, id, rec, { crn: rec.crn, parent: deploymentCrn ?? env });
    return rec;
  }

  deleteReportingTask(env: string, deploymentCrn: string | undefined, crn: string): ReportingTask {
    const found = this.b.store.getByCrn<ReportingTask>(crn);
    if (!found || found.kind !== KIND.reportingTask || found.doc.environmentCrn !== env || found.doc.deploymentCrn !== deploymentCrn)
      throw notFound(`reporting task ${crn} not found`);
    removeUpload(this.b.ctx.info.dataDir, found.doc.storedAt);
    this.b.store.delete(KIND.reportingTask, found.id);
    return found.doc;
  }

  reportingTasks(env: string, deploymentCrn?: string): ReportingTask[] {
    if (deploymentCrn) this.b.deployments.get(env, deploymentCrn);
    return this.b.store
      .list<ReportingTask>(KIND.reportingTask)
      .map((x) => x.doc)
      .filter((t) => t.environmentCrn === env && (!deploymentCrn || t.deploymentCrn === deploymentCrn));
  }
}

/** How a flow's parameter refers to an uploaded file. */
export const reference = (a: Asset): Doc => ({
  id: a.id,
  name: a.name,
  path: a.path,
  version: String(a.created),
  environmentProvided: false,
});
