/**
 * A compute cluster's workflow operations: suspend, resume, update and
 * upgrade each record one when it starts (the engine's operation records,
 * named by the model's facts), which runs its phases (validate, prepare,
 * execute, finalize) as long as its action and then completes or fails. An
 * upgrade may be a dry run, which runs the operation's validation alone. A
 * failed operation can be retried: it runs again under its own id (its
 * cluster's action with it, unless it was a dry run).
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { OperationOptions, OperationRecord } from '../../engine/operations.js';
import { verbs } from '../../engine/table.js';
import { failsOnPurpose } from '../../engine/timeline.js';
import { failedPrecondition, notFound } from '../../errors.js';
import { crnId, uuid } from '../../ids.js';
import { iso, str, text } from '../../values.js';
import { checkUpgrade, type R, type Rec } from './clusters.js';

/** What compute keeps with an operation record: its runs and whether it was a dry run. */
interface WorkflowData {
  readonly dryRun?: boolean;
  readonly retryCount?: number;
  readonly runId?: string;
}

const dataOf = (op: OperationRecord): WorkflowData => (op.data ?? {}) as WorkflowData;
/** The run of an operation: a new one for each retry. */
const runOf = (op: OperationRecord): string => dataOf(op).runId ?? op.operationId;
const workflowId = (op: OperationRecord, cluster: Rec): string =>
  `${op.operationName.toLowerCase()}-${cluster.id}-${op.operationId.slice(0, 8)}`;

/** Where an operation stands now: RUNNING, then COMPLETED or FAILED (CANCELLED once cancelled). */
function statusOf(h: Hook<R>, op: OperationRecord): { status: string; endsAt: number } {
  const { status, ended } = h.records('cluster').operations().status(op);
  const endsAt = op.tl.startedAt + (op.tl.steps[op.tl.steps.length - 1]?.afterMs ?? 0);
  return { status: status === 'FINISHED' ? 'COMPLETED' : status, endsAt: ended ?? endsAt };
}

/** The phases in order, each with its share of the operation's time. */
const PHASES = Object.entries({ VALIDATE: 0.1, PREPARE: 0.2, EXECUTE: 0.6, FINALIZE: 0.1 });

/** The phases of a workflow operation: VALIDATE, PREPARE, EXECUTE, FINALIZE (a dry run: VALIDATE only). */
function phases(h: Hook<R>, op: OperationRecord): Doc[] {
  const now = h.ctx.clock.now();
  const { endsAt } = statusOf(h, op);
  const started = op.tl.startedAt;
  const total = endsAt - started;
  const dryRun = dataOf(op).dryRun === true;
  const list = dryRun ? PHASES.slice(0, 1) : PHASES;
  const failing = op.tl.steps[op.tl.steps.length - 1]?.state === 'FAILED';
  let t = started;
  return list.map(([phase, share], i) => {
    const start = t;
    const end = dryRun ? started + total : start + share * total;
    t = end;
    const failsHere = failing && (dryRun || phase === 'EXECUTE');
    let status = now < start ? 'UNKNOWN' : now < end ? 'RUNNING' : failsHere ? 'FAILED' : 'COMPLETED';
    // After a failure the later phases never start.
    if (failing && !dryRun && i > 2 && now >= started + total) status = 'CANCELLED';
    return {
      workflowPhase: phase,
      workflowStatus: status,
      message: status === 'FAILED' ? `${phase.toLowerCase()} failed` : `${phase.toLowerCase()} ${status.toLowerCase()}`,
      ...(now >= start ? { startTime: iso(start) } : {}),
      lastUpdateTime: iso(Math.min(now, end)),
    };
  });
}

/** getOperationStatus's answer, of the cluster an operation belongs to. */
function statusView(h: Hook<R>, cluster: Rec, op: OperationRecord): Doc {
  const { status, endsAt } = statusOf(h, op);
  const workflow = op.operationName.toLowerCase();
  return {
    operationId: op.operationId,
    workflowOperation: op.operationName,
    operationStatus: status,
    message:
      status === 'FAILED' ? `${workflow} failed on purpose: the cluster name starts with "fail-"` : `${workflow} ${status.toLowerCase()}`,
    clusterCrn: cluster.crn,
    startTime: iso(op.tl.startedAt),
    lastUpdateTime: iso(Math.min(h.ctx.clock.now(), endsAt)),
    workflowId: workflowId(op, cluster),
    runId: runOf(op),
    phaseWorkflowStatuses: phases(h, op).map((x) => ({ ...x, appWorkflowStatuses: [] })),
  };
}

/** getOperationStatus: an operation of a cluster by its id. */
export const operationStatus = (h: Hook<R>, rec: Rec, req: Doc): Doc =>
  statusView(h, rec, h.records('cluster').operation(rec, text(req.operationId)));

/** getOperationDetails names an operation by its id, or by the id of one of its runs. */
export function byRun(h: Hook<R>, sent: Doc): Doc {
  const runId = str(sent.runId);
  if (str(sent.operationId) || !runId) return sent;
  const ops = h.records('cluster').operations();
  const op = h.ctx.store.list<OperationRecord>(ops.kind).find((r) => runOf(r.doc) === runId)?.doc;
  if (!op) throw notFound(`no operation has run ${runId}`);
  return { operationId: op.operationId };
}

/** getOperationDetails: the status, who started it and its retries, and each phase's activities. */
export function operationDetails(h: Hook<R>, cluster: Rec, req: Doc): Doc {
  const op = h.records('cluster').operation(cluster, text(req.operationId));
  const { phaseWorkflowStatuses, ...rest } = statusView(h, cluster, op);
  const by = op.startedBy ?? '';
  const run = runOf(op);
  return {
    ...rest,
    operationOwner: { userId: crnId(by), accountId: h.ctx.info.accountId, crn: by },
    retryCount: dataOf(op).retryCount ?? 0,
    phaseWorkflowDetails: (phaseWorkflowStatuses as Doc[]).map(({ appWorkflowStatuses: _, ...x }) => ({
      ...x,
      workflowId: `${String(rest.workflowId)}-${String(x.workflowPhase).toLowerCase()}`,
      runId: run,
      appWorkflowDetails: [],
      activities: x.startTime
        ? [
            {
              activityId: run.slice(0, 8),
              name: `${String(x.workflowPhase).toLowerCase()}-${op.operationName.toLowerCase()}`,
              status: x.workflowStatus,
              startedAt: x.startTime,
              logs: [],
            },
          ]
        : [],
    })),
    activities: [],
  };
}

/** A dry run's operation (half an emulated minute): the validation alone, failing as its action would (`retry`: its first run is over). */
function dryRun(h: Hook<R>, cluster: Rec, name: string, retry: boolean, opts: Omit<OperationOptions, 'minutes' | 'failed'>): Doc {
  const clusters = h.records('cluster');
  const failed = failsOnPurpose(cluster.name, name.toLowerCase(), clusters.model.lifecycle ?? {}, retry);
  const op = clusters.operations().record(cluster.id, name, { minutes: 0.5, failed, startedBy: h.ctx.caller.actorCrn, ...opts });
  return { operationId: op.operationId };
}

/** An upgrade: the cluster's upgrade with its operation, or a dry run, which runs the operation's validation alone. */
export function upgradeCluster(h: Hook<R>, req: Doc): Doc {
  if (req.dryRun !== true) return h.serve(verbs<R>('cluster').act('upgrade'), req);
  const rec = h.locate('cluster', req);
  checkUpgrade(h, rec);
  return dryRun(h, rec, 'UPGRADE', false, { data: { dryRun: true } });
}

/** Runs a FAILED operation again, under its own id: its cluster's action with it, unless it was a dry run. */
export function retryOperation(h: Hook<R>, req: Doc): Doc {
  const clusters = h.records('cluster');
  const ops = clusters.operations();
  const op = ops.get(text(req.operationId));
  const rec = clusters.byId(op.owner);
  if (!rec) throw notFound(`operation ${op.operationId} not found`);
  const { status } = statusOf(h, op);
  if (status !== 'FAILED') throw failedPrecondition(`operation ${op.operationId} is ${status}; only a FAILED operation can be retried`);
  const action = op.operationName.toLowerCase();
  const spec = clusters.model.lifecycle?.[action];
  if (!spec) throw failedPrecondition(`operation ${op.operationId} cannot be retried`);
  const data = dataOf(op);
  const again: WorkflowData = { ...data, retryCount: (data.retryCount ?? 0) + 1, runId: uuid() };
  if (data.dryRun)
    return dryRun(h, rec, op.operationName, true, {
      operationId: op.operationId,
      ...(op.startedBy ? { startedBy: op.startedBy } : {}),
      data: { ...again },
    });
  const state = clusters.state(rec);
  if (state !== spec.failure) throw failedPrecondition(`compute cluster ${String(rec.name)} is ${state}; the operation no longer applies`);
  // The action again, with what its success sets, under the operation's own id; a `fail-<action>-` name fails only its first run.
  clusters.begin(rec, action, {
    anyState: true,
    ...(rec.activity.effect ? { effect: rec.activity.effect } : {}),
    operationId: op.operationId,
  });
  const rerun = ops.get(op.operationId);
  ops.save({ ...rerun, ...(op.startedBy ? { startedBy: op.startedBy } : {}), data: { ...again } });
  return { operationId: op.operationId };
}
