/**
 * Maintenance of running clusters (WORK in records.ts): each piece is a
 * record beside its cluster, on the emulator clock, with an operation record
 * getOperation reads. What it changes (a certificate's issue time, the Java
 * version, stopped instances...) reaches the cluster once it has finished,
 * the first time the cluster is read after that. A cluster named `fail-...`
 * fails its maintenance; `fail-<action>-...` only that action, once.
 */
import { failedPrecondition } from '../../errors.js';
import { uuid } from '../../ids.js';
import { Operations } from '../../engine/operations.js';
import { Resources } from '../../engine/records.js';
import { failsOnPurpose, type EngineContext, type Progress } from '../../engine/timeline.js';
import type { Doc } from '../../types.js';
import { ALL_ACTIONS, KIND, WORK, WORK_GROUP, type ClusterRec, type WorkEffect, type WorkRec } from './records.js';

const groupOf = (action: string): string => WORK_GROUP[action] ?? action;

/** What a running piece of work is called in messages. */
const what = (action: string): string => (WORK[action]?.operation ?? action).toLowerCase().replace(/_/g, ' ');

export class Works {
  private readonly all: Resources<WorkRec>;

  constructor(private readonly ctx: EngineContext) {
    this.all = new Resources<WorkRec>(ctx, {
      kind: KIND.work,
      noun: 'operation',
      lifecycle: WORK,
      id: (w) => w.operationId,
      name: (w) => w.clusterName,
      keys: (w) => ({ parent: w.clusterId }),
      operations: KIND.operation,
      operationOwner: (w) => w.clusterId,
    });
  }

  /** The cluster's work, oldest first, settled. */
  of(c: ClusterRec): WorkRec[] {
    return this.all.children(c.id);
  }

  progress(w: WorkRec): Progress {
    return this.all.progress(w);
  }

  /** Work of the cluster still running, of one action or its group. */
  running(c: ClusterRec, action?: string): WorkRec[] {
    return this.of(c).filter((w) => !this.progress(w).done && (!action || groupOf(w.activity.action) === groupOf(action)));
  }

  /** Starts a piece of work on a cluster (none of its kind may be running); returns its operation id. */
  begin(c: ClusterRec, action: string, effect?: WorkEffect, details?: Doc): WorkRec {
    const busy = this.running(c, action)[0];
    if (busy)
      throw failedPrecondition(
        `cluster ${c.doc.clusterName} is already running ${what(busy.activity.action)} (operation ${busy.operationId}); wait for it to end`,
      );
    const ranBefore = this.of(c).some((w) => w.activity.action === action && this.progress(w).failed);
    const operationId = uuid();
    return this.all.create(
      {
        operationId,
        clusterId: c.id,
        clusterName: c.doc.clusterName,
        created: this.ctx.clock.now(),
        ...(effect ? { effect } : {}),
        ...(details ? { details } : {}),
      },
      action,
      { operationId, fail: failsOnPurpose(c.doc.clusterName, action, ALL_ACTIONS, ranBefore) },
    );
  }

  /** Cancels running work (and its operation record). */
  cancel(w: WorkRec): void {
    w.activity.cancelledAt = this.ctx.clock.now();
    w.done = true;
    this.all.save(w);
    new Operations(this.ctx, KIND.operation).cancel(w.operationId);
  }

  /** Puts what finished work changed on the cluster, once; returns whether anything changed. */
  settle(c: ClusterRec): boolean {
    let changed = false;
    for (const w of this.of(c)) {
      if (w.done) continue;
      const p = this.progress(w);
      if (!p.done) continue;
      if (p.succeeded && w.effect) applyEffect(c, w.effect);
      w.done = true;
      this.all.save(w);
      changed = true;
    }
    return changed;
  }
}

function applyEffect(c: ClusterRec, e: WorkEffect): void {
  if (e.fields) Object.assign(c.doc, e.fields);
  const mark = (ids: readonly string[] | undefined, stopped: boolean): void => {
    if (!ids) return;
    for (const g of c.doc.groups)
      for (const i of g.instances)
        if (ids.includes(i.id)) {
          if (stopped) i.stopped = true;
          else delete i.stopped;
        }
  };
  mark(e.stop, true);
  mark(e.start, false);
}
