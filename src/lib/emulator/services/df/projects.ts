/**
 * Projects and diagnostics collections, on the resource engine; both live in
 * a DataFlow service (the module's own record, found by the CRN a request
 * gives).
 *
 * A project is named uniquely in its service, which must be healthy to get
 * one. Every change names the revision the caller last read and moves it on
 * by one (a stale revision is refused): an update, a delete (DELETING for two
 * minutes, then gone; its resources stay, unassigned) and the cancellation
 * of a delete still under way.
 *
 * A diagnostics collection runs for DIAGNOSTICS_MINUTES (INPROGRESS, then
 * SUCCESS; FAILED for a description starting with `fail-`), while its
 * service shows COLLECTING_DIAGNOSTICS; the deployments it names must be the
 * service's, and a bundle for cloud storage goes under the environment's log
 * storage.
 */
import type { EngineRecord, Hook, ResourceSpec } from '../../engine/index.js';
import { requireEnvironment } from '../../environments.js';
import { alreadyExists, failedPrecondition, invalid } from '../../errors.js';
import { crn } from '../../ids.js';
import type { Lifecycle } from '../../lifecycle.js';
import type { Doc } from '../../types.js';
import { iso, num, str, strings, text } from '../../values.js';
import { DIAGNOSTICS_MINUTES, DfServiceBackend, type ServiceRec } from './backend.js';
import { filtered, sorted } from './listing.js';

const HEALTHY = ['GOOD_HEALTH', 'CONCERNING_HEALTH'];

const PROJECT: Lifecycle = {
  create: { phases: [], success: 'ACTIVE' },
  delete: { phases: [['DELETING', 2]], success: 'DELETED', removes: true },
  cancelDelete: { from: ['DELETING'], phases: [], success: 'ACTIVE' },
};

const DIAGNOSTICS: Lifecycle = {
  create: { phases: [['INPROGRESS', DIAGNOSTICS_MINUTES]], success: 'SUCCESS', failure: 'FAILED' },
};

/** A DataFlow service as deployments and projects name it (ServiceMeta). */
export const serviceMeta = (s: ServiceRec): Doc => ({
  crn: s.crn,
  name: s.name,
  cloudProvider: s.cloudPlatform,
  region: s.region,
  environmentCrn: s.environmentCrn,
});

/** Records that live in the DataFlow service a request field names (NOT_FOUND for one that is not enabled). */
const inService =
  (field: string) =>
  (h: Hook, req: Doc): { scope: string; where: string } | undefined => {
    const ref = str(req[field]);
    if (!ref) return undefined;
    const s = new DfServiceBackend(h.ctx).service(ref);
    return { scope: s.crn, where: `DataFlow service ${s.name}` };
  };

/** Checks the revision a change names against the project's, and moves it on. */
function revise(h: Hook, rec: EngineRecord, req: Doc): void {
  const current = num(rec.doc.revision) ?? 1;
  const given = num(req.projectRevision);
  if (given !== current)
    throw failedPrecondition(
      `project ${rec.name ?? rec.id} is at revision ${current}, not ${String(given)}: read it again (df projects describe) and retry`,
    );
  rec.doc.revision = current + 1;
  rec.doc.updated = h.ctx.clock.now();
}

function projectName(given: unknown): string {
  const name = text(given).trim();
  if (!name) throw invalid('a project needs a name');
  if (name.length > 64 || /\p{Cc}/u.test(name))
    throw invalid(`a project name has 1 to 64 characters and no control characters; got "${name.slice(0, 64)}"`);
  return name;
}

export const projectResources: Readonly<Record<string, ResourceSpec>> = {
  project: {
    keys: ['projectCrn'],
    lifecycle: PROJECT,
    scope: inService('serviceCrn'),
    ops: {
      cancelDeleteProject: { verb: { action: 'cancelDelete' } },
      listProjects: {
        verb: 'list',
        select: (h, req) => {
          const all = h.resources('project');
          const state = (p: EngineRecord): string => all.state(p);
          return sorted(
            filtered(all.all(), req.filters, {
              service: (p) => [p.scope, String((p.doc.service as Doc | undefined)?.name ?? '')],
              state,
            }),
            req.sorts,
            {
              name: (p) => (p.name ?? '').toLowerCase(),
              created: (p) => num(p.doc.created) ?? 0,
              updated: (p) => num(p.doc.updated) ?? 0,
            },
          );
        },
      },
    },
    hooks: {
      creating: (h, rec) => {
        const b = new DfServiceBackend(h.ctx);
        const s = b.service(rec.scope);
        b.services.require(s, HEALTHY, 'a new project');
        rec.name = projectName(rec.name);
        rec.crn = crn('df', h.ctx.info.region, h.ctx.info.accountId, 'project', `${s.id}/${rec.id}`);
        Object.assign(rec.doc, { crn: rec.crn, name: rec.name, service: serviceMeta(s), revision: 1, updated: h.ctx.clock.now() });
      },
      updating: (h, rec, req) => {
        revise(h, rec, req);
        if (req.projectName !== undefined) {
          const name = projectName(req.projectName);
          const other = h.resources('project').find(name, rec.scope);
          if (other && other.id !== rec.id)
            throw alreadyExists(`DataFlow service ${String((rec.doc.service as Doc).name)} already has a project named ${name}`);
          rec.name = name;
          rec.doc.name = name;
        }
        if (req.projectDescription !== undefined) rec.doc.description = text(req.projectDescription);
      },
      deleting: (h, rec, req) => revise(h, rec, req),
      acting: (h, rec, _action, req) => revise(h, rec, req),
      viewing: (h, rec) => ({ deleting: h.resources('project').state(rec) === 'DELETING' }),
    },
  },
  diagnostics: {
    nouns: ['Diagnostics'],
    noun: 'diagnostics collection',
    shape: 'ListDiagnosticsResponseItem',
    keys: ['uuid'],
    lifecycle: DIAGNOSTICS,
    // A collection has no name: what it says of itself is what the fail- rule reads.
    subject: (rec) => (typeof rec.doc.description === 'string' ? rec.doc.description : undefined),
    scope: inService('dfServiceCrn'),
    ops: {
      startGetDiagnosticsCollection: { verb: 'create', answer: (_h, rec) => ({ uuid: rec.id }) },
      listDiagnostics: {
        verb: 'list',
        select: (h, req) => {
          const where = inService('dfServiceCrn')(h, req);
          const uuids = strings(req.uuids);
          return h
            .resources('diagnostics')
            .all(where?.scope ?? '')
            .filter((d) => uuids.length === 0 || uuids.includes(d.id));
        },
      },
    },
    hooks: {
      creating: (h, rec, req) => {
        const b = new DfServiceBackend(h.ctx);
        const s = b.service(rec.scope);
        for (const ref of strings(req.deployments)) {
          const d = b.deployment(ref);
          if (d.environmentCrn !== s.environmentCrn) throw invalid(`deployment ${d.name} is not in DataFlow service ${s.name}`);
        }
        const times = (['startTime', 'endTime'] as const).map((k) => {
          const v = str(req[k]);
          if (v === undefined) return undefined;
          const at = Date.parse(v);
          if (Number.isNaN(at)) throw invalid(`${k} must be a date-time (ISO 8601); got "${v.slice(0, 50)}"`);
          return at;
        });
        const [from, to] = times;
        if (from !== undefined && to !== undefined && from >= to) throw invalid('startTime must be before endTime');
        // Times nobody gave are not made up: the collection then takes all the logs there are.
        if (from === undefined) delete rec.doc.startTime;
        if (to === undefined) delete rec.doc.endTime;
        rec.doc.uuid = rec.id;
        rec.doc.dfServiceCrn = s.crn;
        rec.doc.requestedTime = iso(h.ctx.clock.now());
        if (rec.doc.destination === 'CLOUD_STORAGE') {
          const logs = requireEnvironment(h.ctx, s.environmentCrn).logStorage;
          const base =
            logs.awsDetails?.storageLocationBase ?? logs.azureDetails?.storageLocationBase ?? logs.gcpDetails?.storageLocationBase;
          if (!base) throw failedPrecondition(`environment ${s.name} has no log storage to put a diagnostic bundle in; send it to SUPPORT`);
          rec.doc.bundleCloudPath = `${base.replace(/\/$/, '')}/dataflow-diagnostics/${rec.id}.zip`;
        }
        b.collectDiagnostics(s);
      },
    },
  },
};
