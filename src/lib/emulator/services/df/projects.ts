/**
 * Projects and diagnostics collections: both live in a DataFlow service
 * (the engine's `service` records, named by `serviceCrn` or `dfServiceCrn`).
 *
 * A project is named uniquely in its service, which must be healthy to get
 * one. Every change names the revision the caller last read and moves it on
 * by one (a stale revision is refused): an update, a delete (DELETING for two
 * minutes, then gone; its resources stay, unassigned) and the cancellation
 * of a delete still under way.
 *
 * A diagnostics collection runs for five minutes (INPROGRESS, then SUCCESS;
 * FAILED for a description starting with `fail-`), while its service shows
 * COLLECTING_DIAGNOSTICS; the deployments it names must be the service's,
 * and a bundle for cloud storage goes under the environment's log storage.
 */
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import type { Doc } from '../../types.js';
import { iso, num, obj, str, strings, text } from '../../values.js';
import { filtered, sorted } from './listing.js';
import { collectDiagnostics, recordsIn, requireHealthy, serviceMeta, serviceOf, type R, type Rec } from './services.js';

// ---- projects ----

/** A change names the project's revision (a stale one is refused). */
function checkRevision(rec: Rec, req: Doc): void {
  const current = num(rec.doc.revision) ?? 1;
  const given = num(req.projectRevision);
  if (given !== current)
    throw failedPrecondition(
      `project ${nameOf(rec)} is at revision ${current}, not ${String(given)}: read it again (df projects describe) and retry`,
    );
}

/** What every change of a project sets: its next revision, and when. */
const revised = (h: Hook<R>, rec: Rec): Doc => ({ revision: (num(rec.doc.revision) ?? 1) + 1, updated: h.ctx.clock.now() });

function projectName(given: unknown): string {
  const name = text(given).trim();
  if (!name) throw invalid('a project needs a name');
  if (name.length > 64 || /\p{Cc}/u.test(name))
    throw invalid(`a project name has 1 to 64 characters and no control characters; got "${name.slice(0, 64)}"`);
  return name;
}

/** createProject: its service must be healthy, its name fit. */
export function checkProject(h: Hook<R>, rec: Rec): void {
  requireHealthy(h, serviceOf(h, rec), 'a new project');
  projectName(rec.name);
}

export const fillProject = (h: Hook<R>, rec: Rec): Doc => ({
  service: serviceMeta(serviceOf(h, rec)),
  revision: 1,
  updated: h.ctx.clock.now(),
});

/** updateProject: at the revision read, a new name unique in its service. */
export function checkProjectUpdate(h: Hook<R>, rec: Rec, req: Doc): void {
  checkRevision(rec, req);
  if (req.projectName === undefined) return;
  const name = projectName(req.projectName);
  const other = h.records('project').find(name, rec.scope);
  if (other && other.id !== rec.id)
    throw alreadyExists(`DataFlow service ${String((rec.doc.service as Doc).name)} already has a project named ${name}`);
}

/** updateProject's effect: the next revision, its new name (the resource renames) and description, from fields of the request's own names. */
export const projectUpdated = (h: Hook<R>, rec: Rec, req: Doc): Doc => ({
  ...revised(h, rec),
  ...(req.projectName !== undefined ? { name: projectName(req.projectName) } : {}),
  ...(req.projectDescription !== undefined ? { description: text(req.projectDescription) } : {}),
});

/**
 * A project being deleted: DELETING (`deleting: true`) for two minutes, then
 * gone, unless the delete is cancelled meanwhile. Its shape has no status
 * field for a lifecycle of the facts to move, so the time it was asked is
 * kept beside it, and the delete ends as df is next called (setup).
 */
const DELETING_MS = 2 * 60_000;
const deletingSince = (rec: Rec): number | undefined => num((rec.data ?? {}).deletingSince);

export const projectShown = (_h: Hook<R>, rec: Rec): Doc => ({ deleting: deletingSince(rec) !== undefined });

/** Projects whose delete has run its time are gone. */
export function endProjectDeletes(h: Hook<R>): void {
  const all = h.records('project');
  const now = h.ctx.clock.now();
  for (const p of all.all()) {
    const since = deletingSince(p);
    if (since !== undefined && since + DELETING_MS <= now) all.remove(p);
  }
}

/**
 * Code: a delete under way (or its cancellation) is no state of the record
 * (see DELETING_MS); either moves the revision on.
 */
function markDeleting(h: Hook<R>, req: Doc, deleting: boolean): Doc {
  const rec = h.locate('project', req);
  if ((deletingSince(rec) !== undefined) === deleting)
    throw failedPrecondition(`project ${nameOf(rec)} is ${deleting ? 'already being deleted' : 'not being deleted'}`);
  checkRevision(rec, req);
  Object.assign(rec.doc, revised(h, rec));
  const { deletingSince: _was, ...data } = rec.data ?? {};
  rec.data = deleting ? { ...data, deletingSince: h.ctx.clock.now() } : data;
  h.records('project').save(rec);
  return {};
}

export const deleteProject = (h: Hook<R>, req: Doc): Doc => markDeleting(h, req, true);

export const cancelDeleteProject = (h: Hook<R>, req: Doc): Doc => markDeleting(h, req, false);

/** listProjects: through its filters (service, state) and sorts. */
export function projectsListed(h: Hook<R>, req: Doc): EngineRecord[] {
  const all = h.records('project');
  return sorted(
    filtered(all.all(), req.filters, {
      service: (p) => [String(obj(p.doc.service).crn ?? ''), String(obj(p.doc.service).name ?? '')],
      state: (p) => (deletingSince(p) !== undefined ? 'DELETING' : 'ACTIVE'),
    }),
    req.sorts,
    { name: (p) => (p.name ?? '').toLowerCase(), created: (p) => num(p.doc.created) ?? 0, updated: (p) => num(p.doc.updated) ?? 0 },
  );
}

// ---- diagnostics collections ----

/** A collection's deployments must be its service's; its times, when given, in order. */
export function checkDiagnostics(h: Hook<R>, rec: Rec, req: Doc): void {
  const s = serviceOf(h, rec);
  for (const ref of strings(req.deployments)) {
    const d = h.world.dataflows.deployment(ref);
    if (!d) throw notFound(`deployment ${ref.slice(0, 200)} not found`);
    if (d.environmentCrn !== s.scope) throw invalid(`deployment ${d.name} is not in DataFlow service ${nameOf(s)}`);
  }
  const [from, to] = (['startTime', 'endTime'] as const).map((k) => {
    const v = str(req[k]);
    if (v === undefined) return undefined;
    const at = Date.parse(v);
    if (Number.isNaN(at)) throw invalid(`${k} must be a date-time (ISO 8601); got "${v.slice(0, 50)}"`);
    return at;
  });
  if (from !== undefined && to !== undefined && from >= to) throw invalid('startTime must be before endTime');
}

/** What a new collection shows of itself; its service shows COLLECTING_DIAGNOSTICS meanwhile. */
export function fillDiagnostics(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const s = serviceOf(h, rec);
  let bundleCloudPath: string | undefined;
  if (rec.doc.destination === 'CLOUD_STORAGE') {
    const logs = h.world.environments.require(s.scope).logStorage;
    const base = logs.awsDetails?.storageLocationBase ?? logs.azureDetails?.storageLocationBase ?? logs.gcpDetails?.storageLocationBase;
    if (!base) throw failedPrecondition(`environment ${nameOf(s)} has no log storage to put a diagnostic bundle in; send it to SUPPORT`);
    bundleCloudPath = `${base.replace(/\/$/, '')}/dataflow-diagnostics/${rec.id}.zip`;
  }
  collectDiagnostics(h, s);
  return {
    // Times nobody gave are not made up: the collection then takes all the logs there are.
    ...(str(req.startTime) === undefined ? { startTime: undefined } : {}),
    ...(str(req.endTime) === undefined ? { endTime: undefined } : {}),
    uuid: rec.id,
    dfServiceCrn: s.crn,
    requestedTime: iso(h.ctx.clock.now()),
    ...(bundleCloudPath ? { bundleCloudPath } : {}),
  };
}

/** listDiagnostics: a service's collections, those named by `uuids` when given. */
export function diagnosticsListed(h: Hook<R>, req: Doc): EngineRecord[] {
  const ref = str(req.dfServiceCrn);
  const scope = ref ? h.records('service').get(ref).id : undefined;
  const uuids = strings(req.uuids);
  return recordsIn(h, 'diagnostics', scope).filter((d) => uuids.length === 0 || uuids.includes(d.id));
}

export const diagnosticsStarted = (_h: Hook<R>, rec: Rec): Doc => ({ uuid: rec.id });
