/**
 * Deployment and flow requests. A request comes from the DataFlow control
 * plane; this service knows it once its details have been read
 * (get-deployment-request-details or get-flow-request-details-in-deployment),
 * every other use of an unknown one is refused. A request is used once.
 * Files are uploaded for an open deployment request (or an asset update
 * request), and an open request is tied to an archive a deployment (or a
 * flow) is made from.
 *
 * Deployment archives are records of the engine (index.ts's `archive`): a
 * deployment's configuration and flows exported under a name made of its
 * own and the time, the snapshot kept beside it.
 */
import { randomBytes } from 'node:crypto';
import type { Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { crnId } from '../../ids.js';
import type { Doc } from '../../types.js';
import { str, text } from '../../values.js';
import { assetRequest, dropAssets, keepUpload, requireOpen, upload } from './assets.js';
import { importedConfig, requestMetadata, serviceMeta } from './views.js';
import { CLUSTER_SIZES, STORAGE_PROFILES } from './catalogue.js';
import { KIND, Workload, inEnvironment, nifiVersionOf, type Call, type FlowRequest, type R } from './workload.js';

const field = (kind: FlowRequest['kind']): string => (kind === 'deployment' ? 'deploymentRequestCrn' : 'deployedFlowRequestCrn');

const save = (w: Workload, req: FlowRequest): void => void w.store.put(KIND.request, req.crn, req);

/** A known request; `register` (reading its details) makes an unknown one known. */
export function get(w: Workload, env: string, c: string | undefined, kind: FlowRequest['kind'], register = false): FlowRequest {
  if (!c) throw invalid(`${field(kind)} is required`);
  if (!c.startsWith('crn:')) throw invalid(`${field(kind)} must be a CRN`);
  const found = w.store.get<FlowRequest>(KIND.request, c);
  if (found) {
    if ((env && found.environmentCrn !== env) || found.kind !== kind) throw notFound(`request ${c} not found`);
    return found;
  }
  if (!register) {
    const read = kind === 'deployment' ? 'get-deployment-request-details' : 'get-flow-request-details-in-deployment';
    throw notFound(`${kind} request ${c} is not known here; read its details first (${read})`);
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
function open(w: Workload, env: string, requestCrn: string | undefined, kind: FlowRequest['kind'], what = 'request'): FlowRequest {
  const req = get(w, env, requestCrn, kind);
  if (req.status !== 'OPEN') throw failedPrecondition(`${what} ${req.crn} is ${req.status.toLowerCase()}`);
  return req;
}

/** Aborts a request that was not used; the assets uploaded for it go. */
const abort =
  (kind: FlowRequest['kind']): Call =>
  (w, r, env) => {
    const req = get(w, env, str(r[field(kind)]), kind);
    if (req.status === 'USED') throw failedPrecondition(`request ${req.crn} has already been deployed`);
    req.status = 'ABORTED';
    save(w, req);
    if (kind === 'deployment') dropAssets(w, req.crn);
    return {};
  };

/**
 * Ties an archive of the environment to an open request, for a deployment
 * (or a flow) made from it: the configuration it holds (of the flow named).
 */
const importFrom =
  (kind: FlowRequest['kind']): Call =>
  (w, r, env) => {
    const req = open(w, env, str(r[field(kind)]), kind);
    const name = str(r.archiveName);
    if (!name) throw invalid('archiveName is required');
    const a = w.h.records('archive').find(name, env);
    if (!a) throw notFound(`archive ${name} not found`);
    req.archive = String(a.name);
    save(w, req);
    const flow = str(r.flowName);
    const imported = importedConfig(a.data?.snapshot as Doc, a.doc.projectCrn, flow);
    if (!imported) throw notFound(`archive ${String(a.name)} has no flow ${String(flow)}`);
    return { rpcImportedDeploymentConfiguration: imported };
  };

export const requestCalls = {
  getDeploymentRequestDetails: (w, r, env) => {
    const req = get(w, env, str(r.deploymentRequestCrn), 'deployment', true);
    const more = { service: serviceMeta(w, env), clusterSizingOptions: CLUSTER_SIZES, nodeStorageProfileMetadata: STORAGE_PROFILES };
    return { deploymentConfigurationMetadata: { ...requestMetadata(w, req), ...more } };
  },
  getFlowRequestDetailsInDeployment: (w, r, env) => ({
    deployedFlowConfigurationMetadata: requestMetadata(w, get(w, env, str(r.deployedFlowRequestCrn), 'flow', true)),
  }),
  abortDeploymentRequest: abort('deployment'),
  abortFlowRequestInDeployment: abort('flow'),
  importDeployment: importFrom('deployment'),
  importFlowIntoDeployment: importFrom('flow'),
  // An asset uploaded for an open asset update request or deployment request.
  uploadAsset: (w, r, env) => {
    upload(w);
    const [assetRequestCrn, deploymentRequestCrn] = [str(r.assetUpdateRequestCrn), str(r.deploymentRequestCrn)];
    let owner: string;
    if (assetRequestCrn) owner = String(requireOpen(assetRequest(w, env, assetRequestCrn)).crn);
    else if (deploymentRequestCrn) owner = open(w, env, deploymentRequestCrn, 'deployment', 'deployment request').crn;
    else throw invalid('give deploymentRequestCrn or assetUpdateRequestCrn');
    const spec = { parameterGroup: text(r.parameterGroup), parameterName: text(r.parameterName), filePath: text(r.filePath) };
    keepUpload(w, env, owner, { ...spec, deployedFlowName: str(r.deployedFlowName) });
    return {};
  },
} satisfies Record<string, Call>;

// ---- archives

/** An export: the deployment's archive as the request the create reads, its snapshot beside (kept, never shown). */
export function exported(h: Hook<R>, sent: Doc): Doc {
  const w = new Workload(h);
  const env = w.environment(str(sent.environmentCrn));
  const d = w.deployment(env, str(sent.deploymentCrn));
  const flows = w.flowsOf(d);
  // The time as 20260101T000000Z.
  const stamp = new Date(w.now).toISOString().replace(/[-:]|\.\d+(?=Z$)/g, '');
  return {
    environmentCrn: env,
    archiveName: `${d.name.replace(/\s+/g, '-')}-${stamp}-${randomBytes(2).toString('hex')}`,
    archiveDescription: sent.archiveDescription,
    workloadVersion: '2.11.0',
    deploymentName: d.name,
    flowName: flows[0]?.doc.flowName ?? '',
    deployedFlows: flows.map((f) => ({ deployedFlowName: f.name, flowDefinitionName: f.doc.flowName })),
    modifiedTime: w.now,
    uploadTime: w.now,
    projectCrn: d.doc.projectCrn,
    snapshot: {
      config: d.doc.config,
      cfmNifiVersion: nifiVersionOf(d),
      flows: flows.map((f) => ({ name: f.name, flowName: f.doc.flowName, parameterGroups: f.doc.parameterGroups, kpis: f.doc.kpis })),
    },
  };
}

/** The archives of the environment whose name contains the search term, when one is given. */
export function searched(h: Hook<R>, req: Doc): EngineRecord[] {
  const env = new Workload(h).environment(str(req.environmentCrn));
  const t = str(req.searchTerm)?.toLowerCase();
  const archives = h.records('archive').all(env);
  return archives.filter((a) => !t || String(a.name).toLowerCase().includes(t));
}

export const archive: Resource<R> = {
  ...inEnvironment('archive', ['archiveName']),
  hooks: { keep: { create: (_h, _rec, req) => ({ snapshot: req.snapshot }) } },
};
