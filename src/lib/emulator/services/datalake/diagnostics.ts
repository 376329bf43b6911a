/**
 * Diagnostics collections of a data lake: work beside the lake (the engine's
 * `work` verb: its kinds, a collection of the lake's own logs or of Cloudera
 * Manager's, are the model's actions), one of each kind at a time, each an
 * operation of the lake (getOperation reads it; a collection's flow id is its
 * operation's id): RUNNING, then FINISHED or FAILED; CANCELLED once
 * cancelled. A lake named `fail-...` fails its collections.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { iso, obj, str, text } from '../../values.js';
import { lakeDoc, type Lake, type R } from './lakes.js';

/** When a collection would have ended had it not been cancelled. */
const endOf = (d: EngineRecord): number => d.activity.tl.startedAt + (d.activity.tl.steps[d.activity.tl.steps.length - 1]?.afterMs ?? 0);

/** A diagnostics collection with its progress and where its output goes. */
function collectionView(h: Hook<R>, rec: Lake, d: EngineRecord): Doc {
  const lake = lakeDoc(rec);
  const req = obj(d.data?.request);
  const destination = text(req.destination);
  const caseNumber = str(req.caseNumber);
  const p = h.records('diagnostics').progress(d);
  const status = p.state;
  const upTo = p.cancelled ? p.endsAt : h.ctx.clock.now();
  return {
    status,
    flowId: d.id,
    flowState: status === 'RUNNING' ? 'SALT_COLLECTION_IN_PROGRESS' : `DIAGNOSTICS_${status}`,
    created: iso(d.createdAt),
    progressPercentage: p.succeeded ? 100 : Math.min(99, Math.floor(((upTo - d.createdAt) / (endOf(d) - d.createdAt)) * 100)),
    collectionDetails: {
      case: caseNumber,
      output:
        destination === 'CLOUD_STORAGE'
          ? `${lake.storage.replace(/\/$/, '')}/diagnostics/${d.id}.tar.gz`
          : destination === 'LOCAL'
            ? `/var/lib/filecollector/${d.id}.tar.gz`
            : `support case ${caseNumber ?? '(none)'}`,
      destination,
      description: str(req.description),
      accountId: h.ctx.info.accountId,
      resourceCrn: lake.crn,
      clusterVersion: lake.runtime,
    },
  };
}

export const listCollections = (h: Hook<R>, lake: Lake): Doc => ({
  collections: h
    .records('diagnostics')
    .all(lake.id)
    .map((d) => collectionView(h, lake, d)),
});

/** Cancels every running collection of the lake, and its operation (code: a change of the lake's work, not of the lake). */
export function cancelDatalakeDiagnostics(h: Hook<R>, req: Doc): Doc {
  const lake = h.records('datalake').get(text(req.crn));
  const collections = h.records('diagnostics');
  for (const d of collections.all(lake.id)) {
    if (collections.progress(d).done) continue;
    d.activity.cancelledAt = h.ctx.clock.now();
    collections.save(d);
    collections.operations().cancel(d.id);
  }
  return {};
}
