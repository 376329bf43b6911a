/**
 * Workflows and the audit trail. Every lifecycle action of a workbench, AI
 * registry or inference service is a long-running workflow
 * (`UPGRADE_WORKSPACE`, `PROVISION_MODEL_REGISTRY`), numbered per resource
 * in the order they ran. A running one may be cancelled (it ends now, in its
 * failure state) except a deprovision; an upgrade may be rolled back.
 *
 * Every call that changed a workbench, registry or inference service is an
 * audit event with who made it and its request id, the one the emulator
 * answered with in `x-cdp-request-id`. The logs of a request are its event
 * and the states of the workflow it started, as far as the clock has gone
 * (a cancelled workflow's logs end where it ended).
 */
import type { CallObserver, Doc, Scope } from '../../engine/context.js';
import { type EngineRecord, nameOf, type Records } from '../../engine/records.js';
import type { Activity, Step } from '../../engine/timeline.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { stableUuid } from '../../ids.js';
import { iso, num, obj, str, text } from '../../values.js';
import { type Hook, type R, type Rec } from './clusters.js';

// ---- workflows ------------------------------------------------------------------

/** The resources that run workflows (and are audited), and the noun their workflow types end in. */
const OWNERS: Readonly<Record<string, string>> = { workspace: 'WORKSPACE', modelRegistry: 'MODEL_REGISTRY', app: 'ML_SERVING_APP' };

/** What the service calls an action in workflow types. */
const WORD: Readonly<Record<string, string>> = { create: 'PROVISION', delete: 'DEPROVISION' };

const workflowType = (action: string, owner: string): string =>
  `${WORD[action] ?? action.toUpperCase()}_${OWNERS[owner] ?? owner.toUpperCase()}`;

/** The id of the workflow an action of a record was (the same every time it is read). */
export const workflowId = (rec: Rec, action: string, startedAt: number): string => stableUuid(`${rec.id}/${action}/${startedAt}`);

/** The workflows of a record, oldest first, as WorkflowMetadata. */
function workflows(all: Records, rec: Rec): Doc[] {
  return all.events(rec).map((e, i) => ({
    resourceId: rec.crn,
    workflowIndex: i + 1,
    workflowType: workflowType(e.action, all.model.key),
    workflowId: workflowId(rec, e.action, e.startedAt),
    lastKnownStatus: e.state,
  }));
}

/**
 * Cancels the running workflow of a resource (of the type asked for, when
 * one is): it ends now in its failure state. Answers those cancelled; none
 * when nothing of that type runs. A deprovision cannot be cancelled.
 */
export function requestWorkflowCancellation(h: Hook, req: Doc): Doc {
  const ref = text(req.resourceId);
  const all = (Object.keys(OWNERS) as R[]).map((key) => h.records(key)).find((x) => x.find(ref));
  const rec = all?.find(ref);
  if (!all || !rec) throw notFound(`no workbench, model registry or inference service has id ${ref.slice(0, 200)}`);
  const wanted = str(req.workflowType)?.toUpperCase();
  const running = workflowType(rec.activity.action, all.model.key);
  if (!all.busy(rec) || (wanted && wanted !== running)) return { workflowMetadata: [] };
  if (rec.activity.action === 'delete') throw failedPrecondition(`${running} of ${nameOf(rec)} cannot be cancelled`);
  all.abort(rec, `${running} was cancelled on request`);
  return { workflowMetadata: workflows(all, rec).slice(-1) };
}

/** requestWorkflowRollback's answer: the workflow it undoes, the upgrade before it. */
export const rolledBack = (h: Hook, rec: Rec): Doc => ({ workflowMetadata: workflows(h.records('workspace'), rec).slice(-2, -1) });

// ---- the audit trail ----------------------------------------------------------------

const AUDIT_KIND = 'ml.audit';

interface AuditRecord {
  resourceCrn: string;
  userCrn: string;
  requestID: string;
  action: string;
  at: number;
  /** The workflow the call started: its type and timeline as it began. */
  workflow?: { type: string; startedAt: number; steps: Step[]; reason?: string };
}

type Stored = EngineRecord & { activity: Activity };

/** The audited resource a call's request names (CRN fields first, then an environment and a name), and its store kind. */
function auditedResource(scope: Scope, req: Doc): { key: string; rec: Stored } | undefined {
  const byCrn = (ref: unknown): { key: string; rec: Stored } | undefined => {
    const crn = str(ref);
    const hit = crn?.startsWith('crn:') ? scope.store.getByCrn<Stored>(crn) : undefined;
    // A backup's calls are its workbench's; the audited resources' store kinds are `ml.<key>`.
    if (hit?.kind === 'ml.workspaceBackup') return byCrn(obj(hit.doc.data?.request).workspaceCrn);
    const key = hit?.kind.replace(/^ml\./, '');
    return key && hit && OWNERS[key] ? { key, rec: hit.doc } : undefined;
  };
  for (const f of ['workspaceCrn', 'modelRegistryCrn', 'appCrn', 'resourceCrn', 'crn', 'resourceId', 'backupCrn']) {
    const found = byCrn(req[f]);
    if (found) return found;
  }
  // A create names its environment (by name or CRN) and the new record's name: found among ml's records of that environment.
  const created = { ...req, ...obj(req.newWorkspaceParameters) };
  const envRef = (str(created.environmentName) ?? str(created.environmentCrn) ?? str(created.id))?.toLowerCase();
  if (!envRef) return undefined;
  const inEnv = (key: string): Stored[] =>
    scope.store
      .list<Stored>(`ml.${key}`)
      .map((x) => x.doc)
      .filter((r) => r.env?.toLowerCase() === envRef || text(r.doc.environmentName).toLowerCase() === envRef);
  const named = (key: string, name: unknown): { key: string; rec: Stored } | undefined => {
    const rec = str(name) ? inEnv(key).find((r) => r.name?.toLowerCase() === text(name).toLowerCase()) : undefined;
    return rec ? { key, rec } : undefined;
  };
  const registry = inEnv('modelRegistry').pop();
  return (
    named('workspace', created.workspaceName) ??
    named('app', created.appName) ??
    (registry ? { key: 'modelRegistry', rec: registry } : undefined)
  );
}

/** Keeps each served ml call that changed a workbench, registry or inference service as an audit event. */
export const observe: CallObserver = (call, scope) => {
  if (call.service !== 'ml' || call.result.code !== 'SUCCESS') return;
  const target = auditedResource(scope, call.request);
  if (!target?.rec.crn) return;
  const act = target.rec.activity;
  const started = act.tl.startedAt === call.at && act.tl.steps.length > 1;
  const reason = act.reason ? { reason: act.reason } : {};
  const workflow = { type: workflowType(act.action, target.key), startedAt: act.tl.startedAt, steps: [...act.tl.steps], ...reason };
  const event: AuditRecord = {
    resourceCrn: target.rec.crn,
    userCrn: call.caller.actorCrn,
    requestID: call.requestId,
    action: call.operation,
    at: call.at,
    ...(started ? { workflow } : {}),
  };
  scope.store.put(AUDIT_KIND, call.requestId, event, { parent: target.rec.crn });
};

/** getAuditEvents: the events of a workbench or model registry, oldest first. */
export function getAuditEvents(h: Hook, req: Doc): Doc {
  const crn = str(req.resourceCrn) ?? str(req.workspaceCrn);
  if (!crn) throw invalid('give resourceCrn: the CRN of a workbench or model registry');
  if (!h.records('workspace').find(crn) && !h.records('modelRegistry').find(crn))
    throw notFound(`no workbench or model registry has CRN ${crn.slice(0, 200)}`);
  const events = h.ctx.store.children<AuditRecord>(AUDIT_KIND, crn).map(({ doc: e }) => ({
    workspaceCrn: e.resourceCrn,
    userCrn: e.userCrn,
    requestID: e.requestID,
    action: e.action,
    createdDate: iso(e.at),
  }));
  return { auditEvents: { workspaceCrn: crn, events } };
}

/** The log lines of an audited request: the call, then each state its workflow has reached by now. */
function logLines(h: Hook, e: AuditRecord): Array<{ at: number; log: string }> {
  const lines = [{ at: e.at, log: `${e.action} requested by ${e.userCrn}` }];
  const w = e.workflow;
  if (!w) return lines;
  // The resource's own timeline, while it still runs that workflow: a cancelled one ends where it was cancelled.
  const live = h.ctx.store.getByCrn<Stored>(e.resourceCrn)?.doc.activity;
  const current = live?.tl.startedAt === w.startedAt ? { steps: live.tl.steps, reason: live.reason } : w;
  const now = h.ctx.clock.now();
  const reached = current.steps.filter((s) => w.startedAt + s.afterMs <= now);
  for (const s of reached) lines.push({ at: w.startedAt + s.afterMs, log: `${w.type}: ${s.state}` });
  const last = reached[reached.length - 1];
  if (last && last === current.steps[current.steps.length - 1] && current.reason)
    lines.push({ at: w.startedAt + last.afterMs, log: current.reason });
  return lines;
}

/** getLogs: a page of the logs of an audited request (all of them with fetchAll). */
export function getLogs(h: Hook, req: Doc): Doc {
  const id = text(req.requestID);
  const e = h.ctx.store.get<AuditRecord>(AUDIT_KIND, id);
  if (!e) throw notFound(`no audited request has id ${id.slice(0, 200)}`);
  const all = logLines(h, e);
  const offset = Math.max(0, num(req.offset) ?? 0);
  const page = req.fetchAll === true ? all.length : Math.max(1, num(req.pageSize) ?? 100);
  const logs = all.slice(offset, offset + page).map((l) => ({ createdDate: iso(l.at), log: l.log }));
  return { auditLogs: { requestID: id, count: all.length, logs } };
}
