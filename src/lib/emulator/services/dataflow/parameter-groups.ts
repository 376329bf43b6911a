/** Shared parameter groups: versioned sets of parameters (files too), used by flows; a used group cannot be deleted. */
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, str } from '../../values.js';
import type { Workload } from './workload.js';
import { KIND, type Asset, type ParameterGroupRec } from './records.js';
import { deploymentRecords, flowRecords, flowStatus } from './deployed.js';
import { drop, keepUpload, reference } from './assets.js';

/** A flow using a group. */
export interface Usage {
  readonly flowId: string;
  readonly deploymentId: string;
  readonly flowName: string;
  readonly status: string;
}

/** Parameters need a name each, given once. */
function checkParameters(params: unknown): Doc[] {
  const ps = docs(params);
  const seen = new Set<string>();
  for (const p of ps) {
    const n = str(p.name);
    if (!n) throw invalid('every parameter needs a name');
    if (seen.has(n)) throw invalid(`parameter "${n}" is given twice`);
    seen.add(n);
  }
  return ps.map((p) => ({ ...p }));
}

export function get(w: Workload, env: string, crn: string | undefined): ParameterGroupRec {
  if (!crn) throw invalid('parameterGroupCrn is required');
  const found = w.store.getByCrn<ParameterGroupRec>(crn);
  if (!found || found.kind !== KIND.parameterGroup || (env && found.doc.environmentCrn !== env))
    throw notFound(`parameter group ${crn} not found`);
  return found.doc;
}

function save(w: Workload, g: ParameterGroupRec, bump: boolean): void {
  if (bump) g.version += 1;
  g.updated = w.now;
  w.store.put(KIND.parameterGroup, g.id, g, { crn: g.crn, name: `${g.environmentCrn}|${g.name}` });
}

function taken(w: Workload, env: string, name: string): boolean {
  return w.store.getByName(KIND.parameterGroup, `${env}|${name}`) !== undefined;
}

/** The flows (not terminated) using a group. */
export function usages(w: Workload, g: ParameterGroupRec): Usage[] {
  const out: Usage[] = [];
  for (const f of flowRecords(w).all()) {
    if (f.sharedParameterGroupCrn !== g.crn) continue;
    const d = deploymentRecords(w).find(f.deploymentCrn);
    if (!d) continue;
    const status = flowStatus(w, f, d).state;
    if (status === 'TERMINATED') continue;
    out.push({ flowId: f.id, deploymentId: d.id, flowName: f.name, status });
  }
  return out;
}

export function create(
  w: Workload,
  env: string,
  spec: { name?: string; description?: string; parameters: unknown; projectCrn?: string },
): ParameterGroupRec {
  const name = spec.name;
  if (!name) throw invalid('name is required');
  if (taken(w, env, name)) throw alreadyExists(`a parameter group named "${name}" already exists`);
  const id = uuid();
  const g: ParameterGroupRec = {
    id,
    crn: w.crnOf('parameterGroup', id),
    name,
    environmentCrn: env,
    description: spec.description,
    parameters: checkParameters(spec.parameters),
    version: 1,
    created: w.now,
    updated: w.now,
    createdBy: w.actorName(),
    projectCrn: spec.projectCrn,
  };
  save(w, g, false);
  return g;
}

/** Changes the description (null: none) and/or the parameters. */
export function update(
  w: Workload,
  env: string,
  crn: string | undefined,
  change: { description?: string | null; parameters?: unknown },
): ParameterGroupRec {
  const g = get(w, env, crn);
  if (change.description !== undefined) g.description = change.description ?? undefined;
  if (change.parameters !== undefined) g.parameters = checkParameters(change.parameters);
  save(w, g, true);
  return g;
}

export function remove(w: Workload, env: string, crn: string | undefined): void {
  const g = get(w, env, crn);
  const used = usages(w, g);
  if (used.length > 0) throw failedPrecondition(`parameter group ${g.name} is used by flow ${String(used[0]?.flowName)}`);
  for (const a of w.store.children<Asset>(KIND.asset, g.crn)) drop(w, a.doc);
  w.store.delete(KIND.parameterGroup, g.id);
}

/** A copy under a new name (its files are not copied); the description too unless a new one (or null: none) is given. */
export function duplicate(
  w: Workload,
  env: string,
  crn: string | undefined,
  newName: string | undefined,
  description?: string | null,
): ParameterGroupRec {
  const g = get(w, env, crn);
  if (!newName) throw invalid('newParameterGroupName is required');
  if (taken(w, g.environmentCrn, newName)) throw alreadyExists(`a parameter group named "${newName}" already exists`);
  const id = uuid();
  const copy: ParameterGroupRec = {
    ...g,
    id,
    crn: w.crnOf('parameterGroup', id),
    name: newName,
    description: description !== undefined ? (description ?? undefined) : g.description,
    parameters: g.parameters.map((p) => ({ ...p, assetReferences: undefined })),
    version: 1,
    created: w.now,
    updated: w.now,
    createdBy: w.actorName(),
  };
  save(w, copy, false);
  return copy;
}

/** The groups of an environment, by name (containing `term`) and projects when given. */
export function list(w: Workload, env: string, term?: string, projects: readonly string[] = []): ParameterGroupRec[] {
  const t = term?.toLowerCase();
  return w.store
    .list<ParameterGroupRec>(KIND.parameterGroup)
    .map((x) => x.doc)
    .filter(
      (g) =>
        (!env || g.environmentCrn === env) &&
        (!t || g.name.toLowerCase().includes(t)) &&
        (projects.length === 0 || (g.projectCrn !== undefined && projects.includes(g.projectCrn))),
    );
}

/** Keeps an uploaded file for a parameter of the group (the parameter is added when missing). */
export function uploadAsset(
  w: Workload,
  env: string,
  crn: string | undefined,
  parameterName: string | undefined,
  filePath: string | undefined,
): void {
  const g = get(w, env, crn);
  if (!parameterName) throw invalid('parameterName is required');
  if (!filePath) throw invalid('filePath is required');
  const a = keepUpload(w, env, g.crn, { parameterGroup: g.name, parameterName, filePath });
  let p = g.parameters.find((x) => x.name === parameterName);
  if (!p) {
    p = { name: parameterName, sensitive: false };
    g.parameters.push(p);
  }
  const refs = docs(p.assetReferences).filter((x) => x.name !== a.name);
  refs.push(reference(a));
  p.assetReferences = refs;
  save(w, g, true);
}
