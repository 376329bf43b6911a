/**
 * Diagnostics collections of a data lake: each runs on the emulator clock
 * (COLLECTION: RUNNING, then FINISHED or FAILED; CANCELLED once cancelled)
 * with an operation record of the lake that getOperation reads. A lake named
 * `fail-...` fails its collections.
 */
import { resources } from '../../../model/services/datalake/resources.js';
import type { Hook } from '../../engine/declare.js';
import type { Doc } from '../../engine/context.js';
import { uuid } from '../../ids.js';
import { iso, str, text } from '../../values.js';
import { Operations, Resources, failsOnPurpose, type Lifecycle, type Progress } from '../../lifecycle.js';
import type { RequestContext } from '../../types.js';
import type { R } from './lakes.js';
import { KIND, lakeDoc, type DiagRec, type Lake } from './records.js';

/** A lake's actions: `fail-<action>-` names one of them, and then its collections do not fail. */
const LAKE_ACTIONS = Object.keys(resources.resources.datalake.lifecycle);

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
  private readonly ctx: RequestContext;

  constructor(h: Hook<R>) {
    const ctx = h.ctx;
    this.ctx = ctx;
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
  collect(lake: Lake, spec: CollectionSpec): DiagRec {
    const flowId = uuid();
    return this.store.create(
      {
        flowId,
        lakeId: lake.id,
        datalakeName: String(lake.name),
        kind: spec.kind,
        created: this.ctx.clock.now(),
        destination: spec.destination,
        description: spec.description,
        caseNumber: spec.caseNumber,
      },
      spec.kind,
      { fail: failsOnPurpose(lake.name, 'diagnostics', LAKE_ACTIONS), operationId: flowId },
    );
  }

  list(lake: Lake): DiagRec[] {
    return this.store.children(lake.id);
  }

  /** Cancels every running collection of the lake (and its operation). */
  cancelAll(lake: Lake): void {
    const ops = new Operations(this.ctx, KIND.operation);
    for (const d of this.list(lake)) {
      if (this.progress(d).done) continue;
      d.activity.cancelledAt = this.ctx.clock.now();
      this.store.save(d);
      ops.cancel(d.flowId);
    }
  }
}

/** A diagnostics collection with its progress and where its output goes. */
export function diagnosticsView(h: Hook<R>, rec: Lake, d: DiagRec): Doc {
  const lake = lakeDoc(rec);
  const p = new Diagnostics(h).progress(d);
  const status = p.state;
  const upTo = p.cancelled ? p.endsAt : h.ctx.clock.now();
  return {
    status,
    flowId: d.flowId,
    flowState: status === 'RUNNING' ? 'SALT_COLLECTION_IN_PROGRESS' : `DIAGNOSTICS_${status}`,
    created: iso(d.created),
    progressPercentage: p.succeeded ? 100 : Math.min(99, Math.floor(((upTo - d.created) / (endOf(d) - d.created)) * 100)),
    collectionDetails: {
      case: d.caseNumber,
      output:
        d.destination === 'CLOUD_STORAGE'
          ? `${lake.storage.replace(/\/$/, '')}/diagnostics/${d.flowId}.tar.gz`
          : d.destination === 'LOCAL'
            ? `/var/lib/filecollector/${d.flowId}.tar.gz`
            : `support case ${d.caseNumber ?? '(none)'}`,
      destination: d.destination,
      description: d.description,
      accountId: h.ctx.info.accountId,
      resourceCrn: lake.crn,
      clusterVersion: lake.runtime,
    },
  };
}

/** When a collection would have ended had it not been cancelled. */
const endOf = (d: DiagRec): number => d.activity.tl.startedAt + (d.activity.tl.steps[d.activity.tl.steps.length - 1]?.afterMs ?? 0);

// ---- operations ---------------------------------------------------------------------

const lakeOf = (h: Hook<R>, req: Doc): Lake => h.records('datalake').get(text(req.crn));

/** Starts a collection of the lake's logs (collectDatalakeDiagnostics) or Cloudera Manager's (collectCmDiagnostics). */
export function collectDiagnostics(h: Hook<R>, req: Doc): Doc {
  const d = new Diagnostics(h).collect(lakeOf(h, req), {
    kind: h.ctx.op.name === 'collectCmDiagnostics' ? 'cm' : 'datalake',
    destination: text(req.destination),
    description: str(req.description),
    caseNumber: str(req.caseNumber),
  });
  return { operationId: d.flowId };
}

export function listDatalakeDiagnostics(h: Hook<R>, req: Doc): Doc {
  const lake = lakeOf(h, req);
  return { collections: new Diagnostics(h).list(lake).map((d) => diagnosticsView(h, lake, d)) };
}

export function cancelDatalakeDiagnostics(h: Hook<R>, req: Doc): Doc {
  new Diagnostics(h).cancelAll(lakeOf(h, req));
  return {};
}
