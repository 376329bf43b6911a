/**
 * Deployment archives, records of the engine (index.ts's `archive`): a
 * deployment's configuration and flows exported under a name made of its
 * own and the time, the snapshot kept beside it; a deployment (or a flow)
 * is later made from one, tied to its open request (requests.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Doc } from '../../engine/context.js';
import type { Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { str } from '../../values.js';
import { Workload, inEnvironment, nifiVersionOf, type R } from './workload.js';

/** An export: the deployment's archive as the request the create reads, its snapshot beside (kept, never shown). */
export function exported(h: Hook<R>, sent: Doc): Doc {
  const w = new Workload(h);
  const env = w.environment(str(sent.environmentCrn));
  const d = w.deployment(env, str(sent.deploymentCrn));
  const flows = w.flowsOf(d);
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
