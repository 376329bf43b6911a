/**
 * The audit trail of workbenches and AI registries: every call that changed
 * one (or an inference service) is an event with who made it and its request
 * id, the one the emulator answered with in `x-cdp-request-id`. The logs of
 * a request are its event and the states of the workflow it started, as far
 * as the clock has gone (a cancelled workflow's logs end where it ended).
 */
import type { CallObserver, Doc, Scope } from '../../engine/context.js';
import type { EngineRecord } from '../../engine/records.js';
import type { Activity, Step } from '../../engine/timeline.js';
import { invalid, notFound } from '../../errors.js';
import { iso, num, obj, str, text } from '../../values.js';
import type { Hook } from './clusters.js';
import { workflowType } from './workflows.js';

const AUDIT_KIND = 'ml.audit';

/** Store kinds of the resources audited, by their key in the module's resources. */
const KINDS: Readonly<Record<string, string>> = { workspace: 'ml.workspace', modelRegistry: 'ml.modelRegistry', app: 'ml.app' };
const BACKUP_KIND = 'ml.workspaceBackup';

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
    if (hit?.kind === BACKUP_KIND) return byCrn(obj(hit.doc.data?.request).workspaceCrn);
    const key = Object.keys(KINDS).find((k) => KINDS[k] === hit?.kind);
    return key && hit ? { key, rec: hit.doc } : undefined;
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
      .list<Stored>(KINDS[key] ?? '')
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
  const event: AuditRecord = {
    resourceCrn: target.rec.crn,
    userCrn: call.caller.actorCrn,
    requestID: call.requestId,
    action: call.operation,
    at: call.at,
    ...(started
      ? {
          workflow: {
            type: workflowType(act.action, target.key),
            startedAt: act.tl.startedAt,
            steps: [...act.tl.steps],
            ...(act.reason ? { reason: act.reason } : {}),
          },
        }
      : {}),
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
