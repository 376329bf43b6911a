/**
 * Diagnostic bundles of a cluster, catalog or warehouse: one job at a time
 * unless forced; it starts, collects, and succeeds (fails for an owner
 * named fail-...); deleted even while running, after which it stays
 * `Deleted` for a day (the model's facts).
 */
import type { Resource } from '../../engine/declare.js';
import { invalid } from '../../errors.js';
import { iso, str, stringMap, text } from '../../values.js';
import type { R } from './common.js';

const HALF_HOUR = 30 * 60_000;

/** The diagnostic bundles of a cluster, catalog or warehouse (their resource is `<owner>Diagnostics`). */
export function diagnostics(owner: 'cluster' | 'dbc' | 'vw'): Resource<R> {
  return {
    noun: 'diagnostic job',
    keys: ['jobId'],
    lives: { in: 'parent', parent: owner, part: true },
    minutes: { create: [0.5, 2.5] },
    failsBy: 'data.owner',
    hooks: {
      // The fail- rule reads the name of the cluster, catalog or warehouse the job is of.
      keep: {
        create: (h, rec) => {
          const of = h.records(owner).byId(rec.scope);
          return { owner: of?.name ?? str(of?.doc.name) ?? rec.scope };
        },
      },
      check: {
        create: (h, rec, req) => {
          const jobs = h.records(`${owner}Diagnostics`);
          const running = jobs.all(rec.scope).find((j) => jobs.busy(j));
          if (running && req.force !== true)
            throw invalid(`diagnostic job ${running.id} is still collecting; wait for it, or give force to start another`);
        },
      },
      fill: (h, rec, req) => {
        const now = h.ctx.clock.now();
        const url = `https://dw-diagnostics.${h.ctx.info.region}.emulator.invalid/${rec.scope}/${rec.id}.zip`;
        const caseNumber = str(req.caseNumber);
        return {
          jobId: rec.id,
          startTime: str(req.startTime) ?? iso(now - HALF_HOUR),
          endTime: str(req.endTime) ?? iso(now),
          ...(req.destination === 'DOWNLOAD' ? { url } : {}),
          labels: { ...stringMap(req.bundleMetadata), destination: text(req.destination), ...(caseNumber ? { caseNumber } : {}) },
        };
      },
    },
  };
}
