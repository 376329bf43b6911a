/**
 * Operation records: what getOperation-style calls read. An action that
 * names an operation (`PROVISION`) records one when it starts, with its own
 * RUNNING -> FINISHED | FAILED timeline on the emulator clock, under the
 * record it belongs to (records.ts makes them; a `work` record's belong to
 * its parent).
 */
import { notFound } from '../errors.js';
import { uuid } from '../ids.js';
import type { Doc } from './context.js';
import { MINUTE, progress, timeline, willFail, type Activity, type EngineContext, type Timeline } from './timeline.js';

/** What getOperation reads: an action's record with its own RUNNING -> FINISHED | FAILED timeline. */
export interface OperationRecord {
  operationId: string;
  operationName: string;
  /** The resource it belongs to (its store id). */
  owner: string;
  tl: Timeline;
  cancelledAt?: number;
  /** Who started it (the caller's CRN). */
  startedBy?: string;
  /** What the service keeps with it beyond its timeline (a retry count, a dry run). */
  data?: Doc;
}

/** What an operation record is made with beyond its timeline. */
export interface OperationOptions {
  readonly at?: number;
  readonly minutes: number;
  readonly failed: boolean;
  readonly operationId?: string;
  readonly startedBy?: string;
  readonly data?: Doc;
}

/** How an operation record ends (getOperation's operationStatus). */
export const FINISHED = 'FINISHED';
export const FAILED = 'FAILED';

/** The operation records of one service (a store kind), listed per owner. */
export class Operations {
  constructor(
    private readonly ctx: EngineContext,
    readonly kind: string,
  ) {}

  /** Records an operation that runs `minutes` from `at` and then finishes or fails. */
  record(owner: string, name: string, opts: OperationOptions): OperationRecord {
    const rec: OperationRecord = {
      operationId: opts.operationId ?? uuid(),
      operationName: name,
      owner,
      tl: timeline(opts.at ?? this.ctx.clock.now(), [
        ['RUNNING', opts.minutes],
        [opts.failed ? FAILED : FINISHED, 0],
      ]),
      ...(opts.startedBy ? { startedBy: opts.startedBy } : {}),
      ...(opts.data ? { data: opts.data } : {}),
    };
    this.ctx.store.put(this.kind, rec.operationId, rec, { parent: owner });
    return rec;
  }

  /** Records the operation of an activity that has just started. */
  recordActivity(owner: string, name: string, act: Activity, more: Pick<OperationOptions, 'startedBy' | 'data'> = {}): OperationRecord {
    const p = progress(act, act.tl.startedAt);
    return this.record(owner, name, {
      at: act.tl.startedAt,
      minutes: (p.endsAt - act.tl.startedAt) / MINUTE,
      failed: willFail(act),
      operationId: act.operationId,
      ...more,
    });
  }

  /** Keeps what a service adds to an operation record (a retry count). */
  save(rec: OperationRecord): void {
    this.ctx.store.put(this.kind, rec.operationId, rec, { parent: rec.owner });
  }

  find(id: string): OperationRecord | undefined {
    return this.ctx.store.get<OperationRecord>(this.kind, id);
  }

  /** An operation by id, or NOT_FOUND. */
  get(id: string): OperationRecord {
    const rec = this.find(id);
    if (!rec) throw notFound(`operation ${id} not found`);
    return rec;
  }

  /** An owner's operation by id, or its newest; NOT_FOUND when it has none or the id is another's. `what` names the owner in messages. */
  ofOwner(owner: string, what: string, operationId?: string): OperationRecord {
    if (!operationId) {
      const latest = this.latest(owner);
      if (!latest) throw notFound(`${what} has no operations`);
      return latest;
    }
    const rec = this.get(operationId);
    if (rec.owner !== owner) throw notFound(`operation ${operationId} is not an operation of ${what}`);
    return rec;
  }

  /** The newest operation of an owner. */
  latest(owner: string): OperationRecord | undefined {
    const all = this.ctx.store.children<OperationRecord>(this.kind, owner);
    return all[all.length - 1]?.doc;
  }

  /** Marks a running operation cancelled now. */
  cancel(id: string): void {
    const rec = this.find(id);
    if (!rec) return;
    rec.cancelledAt = this.ctx.clock.now();
    this.ctx.store.put(this.kind, rec.operationId, rec, { parent: rec.owner });
  }

  status(rec: OperationRecord): { status: string; ended?: number } {
    const act: Activity = { action: rec.operationName, tl: rec.tl, success: FINISHED, failure: FAILED, cancelledAt: rec.cancelledAt };
    const p = progress(act, this.ctx.clock.now());
    return { status: p.state, ended: p.done ? p.endsAt : undefined };
  }

  /** The wire GetOperationResponse (datalake, datahub and environments share it). */
  view(rec: OperationRecord): Doc {
    const { status, ended } = this.status(rec);
    return {
      operationId: rec.operationId,
      operationName: rec.operationName,
      operationStatus: status,
      started: new Date(rec.tl.startedAt).toISOString(),
      ...(ended !== undefined ? { ended: new Date(ended).toISOString() } : {}),
    };
  }
}
