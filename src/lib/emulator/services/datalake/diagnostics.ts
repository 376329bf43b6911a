/**
 * Diagnostics collections of a data lake: each runs on the emulator clock
 * (COLLECTION: RUNNING, then FINISHED or FAILED; CANCELLED once cancelled)
 * with an operation record of the lake that getOperation reads. A lake named
 * `fail-...` fails its collections.
 */
import { uuid } from '../../ids.js';
import { Operations, Resources, failsOnPurpose, type Lifecycle, type Progress } from '../../lifecycle.js';
import type { BackendContext } from '../../types.js';
import { LAKE } from './lakes.js';
import { KIND, type DiagRec, type LakeRec } from './records.js';

/** A collection of the lake's own logs (4 minutes) or of Cloudera Manager's (6). */
const COLLECTION: Lifecycle = {
  datalake: { phases: [['RUNNING', 4]], success: 'FINISHED', failure: 'FAILED', operation: 'DIAGNOSTICS_COLLECTION' },
  cm: { phases: [['RUNNING', 6]], success: 'FINISHED', failure: 'FAILED', operation: 'CM_DIAGNOSTICS_COLLECTION' },
};

export interface CollectionSpec {
  readonly kind: 'datalake' | 'cm';
  readonly destination: string;
  readonly description?: string;
  readonly caseNumber?: string;
}

export class Diagnostics {
  private readonly store: Resources<DiagRec>;

  constructor(private readonly ctx: BackendContext) {
    this.store = new Resources<DiagRec>(ctx, {
      kind: KIND.diagnostics,
      noun: 'diagnostics collection',
      lifecycle: COLLECTION,
      id: (d) => d.flowId,
      name: (d) => d.datalakeName,
      keys: (d) => ({ parent: d.lakeId }),
      operations: KIND.operation,
      operationOwner: (d) => d.lakeId,
    });
  }

  progress(d: DiagRec): Progress {
    return this.store.progress(d);
  }

  /** Starts a collection; its flow id is its operation's id. */
  collect(lake: LakeRec, spec: CollectionSpec): DiagRec {
    const flowId = uuid();
    return this.store.create(
      {
        flowId,
        lakeId: lake.id,
        datalakeName: lake.datalakeName,
        kind: spec.kind,
        created: this.ctx.clock.now(),
        destination: spec.destination,
        description: spec.description,
        caseNumber: spec.caseNumber,
      },
      spec.kind,
      { fail: failsOnPurpose(lake.datalakeName, 'diagnostics', LAKE), operationId: flowId },
    );
  }

  list(lake: LakeRec): DiagRec[] {
    return this.store.children(lake.id);
  }

  /** Cancels every running collection of the lake (and its operation). */
  cancelAll(lake: LakeRec): void {
    const ops = new Operations(this.ctx, KIND.operation);
    for (const d of this.list(lake)) {
      if (this.progress(d).done) continue;
      d.activity.cancelledAt = this.ctx.clock.now();
      this.store.save(d);
      ops.cancel(d.flowId);
    }
  }
}
