/**
 * Long-running workflows: every lifecycle action of a workbench, AI registry
 * or inference service is one (`UPGRADE_WORKSPACE`, `PROVISION_MODEL_REGISTRY`),
 * numbered per resource in the order they ran. A running one may be
 * cancelled (it ends now, in its failure state) except a deprovision; an
 * upgrade may be rolled back.
 */
import type { Doc } from '../../engine/context.js';
import type { EngineRecord, Records } from '../../engine/records.js';
import { failedPrecondition, notFound } from '../../errors.js';
import { stableUuid } from '../../ids.js';
import { str, text } from '../../values.js';
import type { Hook, R, Rec } from './clusters.js';

/** The resources that run workflows, and the noun their workflow types end in. */
export const WORKFLOW_OWNERS: Readonly<Partial<Record<R, string>>> = {
  workspace: 'WORKSPACE',
  modelRegistry: 'MODEL_REGISTRY',
  app: 'ML_SERVING_APP',
};

/** What the service calls an action in workflow types. */
const WORD: Readonly<Record<string, string>> = { create: 'PROVISION', delete: 'DEPROVISION' };

export const workflowType = (action: string, owner: string): string =>
  `${WORD[action] ?? action.toUpperCase()}_${WORKFLOW_OWNERS[owner as R] ?? owner.toUpperCase()}`;

/** The id of the workflow an action of a record was (the same every time it is read). */
export const workflowId = (rec: Rec, action: string, startedAt: number): string => stableUuid(`${rec.id}/${action}/${startedAt}`);

/** The workflows of a record, oldest first, as WorkflowMetadata. */
export function workflows(all: Records, rec: Rec): Doc[] {
  return all.events(rec).map((e, i) => ({
    resourceId: rec.crn,
    workflowIndex: i + 1,
    workflowType: workflowType(e.action, all.model.key),
    workflowId: workflowId(rec, e.action, e.startedAt),
    lastKnownStatus: e.state,
  }));
}

/** The record of the service a CRN names, among those that run workflows, or NOT_FOUND. */
export function workflowOwner(h: Hook, ref: string): { all: Records; rec: EngineRecord } {
  for (const key of Object.keys(WORKFLOW_OWNERS) as R[]) {
    const all = h.records(key);
    const rec = all.find(ref);
    if (rec) return { all, rec };
  }
  throw notFound(`no workbench, model registry or inference service has id ${ref.slice(0, 200)}`);
}

/**
 * Cancels the running workflow of a resource (of the type asked for, when
 * one is): it ends now in its failure state. Answers those cancelled; none
 * when nothing of that type runs. A deprovision cannot be cancelled.
 */
export function requestWorkflowCancellation(h: Hook, req: Doc): Doc {
  const { all, rec } = workflowOwner(h, text(req.resourceId));
  const wanted = str(req.workflowType)?.toUpperCase();
  const running = workflowType(rec.activity.action, all.model.key);
  if (!all.busy(rec) || (wanted && wanted !== running)) return { workflowMetadata: [] };
  if (rec.activity.action === 'delete') throw failedPrecondition(`${running} of ${rec.name ?? rec.id} cannot be cancelled`);
  all.abort(rec, `${running} was cancelled on request`);
  return { workflowMetadata: workflows(all, rec).slice(-1) };
}

/** requestWorkflowRollback's answer: the workflow it undoes, the upgrade before it. */
export const rolledBack = (h: Hook, rec: Rec): Doc => ({ workflowMetadata: workflows(h.records('workspace'), rec).slice(-2, -1) });
