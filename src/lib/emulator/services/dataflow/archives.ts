/**
 * Deployment archives, records of the engine (index.ts's `archive`): a
 * deployment's configuration and flows exported under a name made of its
 * own and the time, the snapshot kept beside it; a deployment (or a flow)
 * is later made from one, tied to its open request.
 */
import { randomBytes } from 'node:crypto';
import type { Doc } from '../../engine/context.js';
import type { Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { invalid, notFound } from '../../errors.js';
import { str } from '../../values.js';
import { flowsOf, getDeployment, nifiVersionOf } from './deployed.js';
import { inEnvironment, type R } from './records.js';
import * as requests from './requests.js';
import { importedConfig } from './views.js';
import { Workload } from './workload.js';

/** An export: the deployment's archive as the request the create reads, its snapshot beside (kept, never shown). */
export function exported(h: Hook<R>, sent: Doc): Doc {
  const w = new Workload(h);
  const env = w.environment(str(sent.environmentCrn));
  const d = getDeployment(w, env, str(sent.deploymentCrn));
  const flows = flowsOf(w, d);
  const stamp = new Date(w.now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
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
  return h
    .records('archive')
    .all(env)
    .filter((a) => !t || String(a.name).toLowerCase().includes(t));
}

export const archive: Resource<R> = {
  ...inEnvironment('archive', ['archiveName']),
  hooks: { keep: { create: (_h, _rec, req) => ({ snapshot: req.snapshot }) } },
};

/**
 * Ties an archive of the environment to an open request, for a deployment
 * (or a flow) made from it: the configuration it holds (of the flow named).
 */
export function importFrom(w: Workload, env: string, requestCrn: string | undefined, kind: 'deployment' | 'flow', r: Doc): Doc {
  const req = requests.open(w, env, requestCrn, kind);
  const name = str(r.archiveName);
  if (!name) throw invalid('archiveName is required');
  const a = w.h.records('archive').find(name, env);
  if (!a) throw notFound(`archive ${name} not found`);
  req.archive = String(a.name);
  requests.save(w, req);
  const flow = str(r.flowName);
  const imported = importedConfig(a.data?.snapshot as Doc, a.doc.projectCrn, flow);
  if (!imported) throw notFound(`archive ${String(a.name)} has no flow ${String(flow)}`);
  return { rpcImportedDeploymentConfiguration: imported };
}
