/**
 * Shared parameter groups, records of the engine (index.ts's
 * `parameterGroup`): versioned sets of parameters (files too) of an
 * environment, used by flows; a used group cannot be deleted, and a
 * sensitive value is never shown.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, invalid } from '../../errors.js';
import { crnId } from '../../ids.js';
import { docs, num, str, strings, text } from '../../values.js';
import { Workload, inEnvironment, type R } from './workload.js';
import { dropAssets, keepUpload, reference } from './assets.js';

type Rec = Readonly<EngineRecord>;

/** Parameters need a name each, given once. */
function checkParameters(_h: Hook<R>, rec: Rec): void {
  const seen = new Set<string>();
  for (const p of docs(rec.doc.parameters)) {
    const n = str(p.name);
    if (!n) throw invalid('every parameter needs a name');
    if (seen.has(n)) throw invalid(`parameter "${n}" is given twice`);
    seen.add(n);
  }
}

/** The flows (not terminated) using a group, as its usages. */
function usages(h: Hook<R>, crn: string | undefined): Doc[] {
  const w = new Workload(h);
  return w.allFlows().flatMap((f) => {
    const d = f.doc.sharedParameterGroupCrn === crn ? w.findDeployment(f.doc.deploymentCrn) : undefined;
    const status = d && w.flowStatus(f, d).state;
    if (!d || status === 'TERMINATED') return [];
    return [{ resourceId: f.id, resourceType: 'DEPLOYED_FLOW', parentResourceId: d.id, resourceName: f.name, status }];
  });
}

/** An update (an upload too) moves the version on by one. */
export const nextGroupVersion = (h: Hook<R>, sent: Doc): Doc => ({
  ...sent,
  version: (num(h.locate('parameterGroup', sent).doc.version) ?? 1) + 1,
  updated: h.ctx.clock.now(),
});

/** A copy under a new name in the group's environment and project (its files are not copied); its description unless another is given. */
export function copyOf(h: Hook<R>, sent: Doc): Doc {
  const g = h.locate('parameterGroup', sent);
  if (!str(sent.newParameterGroupName)) throw invalid('newParameterGroupName is required');
  return {
    environmentCrn: g.scope,
    name: sent.newParameterGroupName,
    description: sent.description === undefined ? g.doc.description : sent.description,
    parameters: docs(g.doc.parameters).map(({ assetReferences: _files, ...p }) => p),
    projectCrn: g.doc.projectCrn,
  };
}

/** An upload keeps the file for a parameter of the group (added when missing) and refers to it there. */
export function withUpload(h: Hook<R>, sent: Doc): Doc {
  const g = h.locate('parameterGroup', sent);
  const parameterName = str(sent.parameterName);
  const filePath = str(sent.filePath);
  if (!parameterName) throw invalid('parameterName is required');
  if (!filePath) throw invalid('filePath is required');
  const a = keepUpload(new Workload(h), g.scope, String(g.crn), { parameterGroup: String(g.name), parameterName, filePath });
  const parameters = docs(g.doc.parameters).map((p) => ({ ...p }));
  let p = parameters.find((x) => x.name === parameterName);
  if (!p) parameters.push((p = { name: parameterName, sensitive: false }));
  p.assetReferences = [...docs(p.assetReferences).filter((x) => x.name !== a.name), reference(a)];
  return { ...nextGroupVersion(h, sent), parameters };
}

/** A shared parameter group of the environment (any, when none is given) a flow is to use, or NOT_FOUND. */
export const sharedGroup = (w: Workload, env: string, crn: string): EngineRecord =>
  w.h.locate('parameterGroup', { environmentCrn: env || undefined, parameterGroupCrn: crn });

/** The declaration of parameter groups. */
export const parameterGroup: Resource<R> = {
  ...inEnvironment('parameter group', ['parameterGroupCrn']),
  hooks: {
    check: {
      create: (h, rec) => {
        if (!rec.name) throw invalid('name is required');
        checkParameters(h, rec);
      },
      update: checkParameters,
      // A used group stays; an unused one takes its files with it.
      delete: (h, rec) => {
        const used = usages(h, rec.crn)[0];
        if (used) throw failedPrecondition(`parameter group ${String(rec.name)} is used by flow ${text(used.resourceName)}`);
        dropAssets(new Workload(h), String(rec.crn));
      },
    },
    // In the project asked for or none; made by the caller, at version 1.
    fill: (h, _rec, req) => ({
      projectCrn: str(req.projectCrn),
      source: 'USER',
      version: 1,
      updated: h.ctx.clock.now(),
      createdBy: new Workload(h).actorName(),
    }),
    // Its usages now; a sensitive value that is set is not shown; an emptied description is none.
    show: (h, rec) => ({
      usages: usages(h, rec.crn),
      projectId: str(rec.doc.projectCrn) ? crnId(String(rec.doc.projectCrn)) : undefined,
      description: str(rec.doc.description),
      parameters: docs(rec.doc.parameters).map((p) => {
        const valueSet = p.value !== undefined && p.value !== null;
        return { ...p, valueSet, ...(p.sensitive && valueSet ? { value: undefined } : {}) };
      }),
    }),
  },
};

/** The groups of an environment, by name (containing `searchTerm`) and projects when given. */
export function groupsFound(h: Hook<R>, req: Doc): EngineRecord[] {
  const env = str(req.environmentCrn) ? h.world.environments.require(text(req.environmentCrn)).crn : undefined;
  const t = str(req.searchTerm)?.toLowerCase();
  const projects = strings(req.projectCrns);
  const groups = h.records('parameterGroup').all(env);
  const inProjects = (g: EngineRecord): boolean =>
    projects.length === 0 || (str(g.doc.projectCrn) !== undefined && projects.includes(String(g.doc.projectCrn)));
  return groups.filter((g) => (!t || String(g.name).toLowerCase().includes(t)) && inProjects(g));
}
