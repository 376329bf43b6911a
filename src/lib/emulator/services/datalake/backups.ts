/**
 * Backups and restores of data lakes: a plan of steps (admin operations,
 * database, HBase tables, Solr collections), each skipped or timed, and an
 * overall status on the emulator clock (the model's: STARTED, IN_PROGRESS,
 * then SUCCESSFUL or FAILED; VALIDATION_* for a validation-only run;
 * CANCELLED once cancelled). A backup whose name starts with `fail-` fails; so does a
 * restore whose location contains `fail-`.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { bool, iso, str, text } from '../../values.js';
import { lakeDoc, type Lake, type R } from './lakes.js';

type Kind = 'backup' | 'restore';

/** One step of a backup or restore: when it starts (minutes in), how long it takes, whether the request skips it. */
interface StagePlan {
  section: 'adminOperations' | 'hbase' | 'solr' | 'database';
  name: string;
  start: number;
  minutes: number;
  skipped: boolean;
}

/** A backup's or restore's document (an engine record in its lake). */
interface BrDoc {
  kind: Kind;
  backupId: string;
  restoreId?: string;
  backupName?: string;
  datalakeName: string;
  accountId: string;
  userCrn: string;
  backupLocation: string;
  runtimeVersion: string;
  stages: StagePlan[];
  validationOnly: boolean;
  /** Set when cancelled: with force, running steps are cancelled too. */
  forced?: boolean;
}

/** A backup or restore as read: its document, and its record (its id, lake and run on the clock). */
type Run = BrDoc & { readonly rec: Readonly<EngineRecord> };
const runOf = (rec: Readonly<EngineRecord>): Run => ({ ...(rec.doc as unknown as BrDoc), rec });

const COLLECTIONS = ['edgeIndexCollection', 'fulltextIndexCollection', 'rangerAuditsCollection', 'vertexIndexCollection'];

/**
 * The steps of a backup or restore: checks, services stopped, database, HBase tables, Solr collections (a restore
 * deletes each first), services started; each skipped by the request's flags, and a validation-only run keeps only its checks.
 */
function stagesOf(req: Doc, restore: boolean): StagePlan[] {
  const checks = bool(req.skipValidation);
  const services = !restore && req.closeDbConnections === false;
  const [audits, indexes] = [bool(req.skipRangerAudits), bool(req.skipAtlasIndexes)];
  const solr = COLLECTIONS.flatMap((c): Array<[string, number, boolean]> => {
    const skip = c === 'rangerAuditsCollection' ? audits : indexes;
    const step: [string, number, boolean] = [c, c === 'rangerAuditsCollection' ? 0.5 : 0.25, skip];
    return restore ? [[`${c}Delete`, 0.25, skip], step] : [step];
  });
  const steps: Array<readonly [StagePlan['section'], string, number, boolean]> = [
    ['adminOperations', 'precheckStoragePermission', 0.25, checks],
    ['adminOperations', 'rangerAuditCollectionValidation', 0.25, checks],
    ...(bool(req.validationOnly) ? [['adminOperations', 'dryRunValidation', 0.5, false] as const] : []),
    ['adminOperations', 'stopServices', 0.25, services],
    ['database', 'database', 1.25, bool(req.skipRangerHmsMetadata)],
    ['hbase', 'atlasEntityAuditEventTable', 0.75, bool(req.skipAtlasMetadata)],
    ['hbase', 'atlasJanusTable', 0.75, bool(req.skipAtlasMetadata)],
    ...solr.map(([name, minutes, skip]) => ['solr', name, minutes, skip] as const),
    ['adminOperations', 'startServices', 0.25, services],
  ];
  let t = 0;
  return steps.map(([section, name, minutes, flag]) => {
    const skipped = bool(req.validationOnly) ? section !== 'adminOperations' || name.endsWith('Services') : flag;
    const p: StagePlan = { section, name, start: t, minutes, skipped };
    if (!skipped) t += minutes;
    return p;
  });
}

/** How long a plan runs (minutes). */
const totalMinutes = (r: Pick<BrDoc, 'stages'>): number =>
  r.stages.filter((s) => !s.skipped).reduce((a, s) => Math.max(a, s.start + s.minutes), 0);

const failReason = (r: Run): string =>
  r.kind === 'backup'
    ? `writing to ${r.backupLocation} failed (the backup name starts with "fail-")`
    : `reading the backup from ${r.backupLocation} failed (the location contains "fail-")`;

const progressOf = (h: Hook<R>, r: Run) => h.records(r.kind).progress(r.rec);

/** Refuses a backup or restore unless the lake is RUNNING and runs no other. */
function ready(h: Hook<R>, lake: Lake, what: string): void {
  h.records('datalake').require(lake, ['RUNNING'], what);
  for (const kind of ['backup', 'restore'] as const)
    for (const rec of h.records(kind).all(lake.id)) {
      const busy = runOf(rec);
      if (!progressOf(h, busy).done)
        throw failedPrecondition(`data lake ${lake.name} is busy with ${busy.kind} ${busy.restoreId ?? busy.backupId}`);
    }
}

/** Starts a run: STARTED for half a minute, IN_PROGRESS until its plan's last step ends. */
function startRun(h: Hook<R>, lake: Lake, id: string, doc: BrDoc, fail: boolean): Run {
  const rec = h.records(doc.kind).create(
    {
      id,
      ...(doc.backupName !== undefined ? { name: doc.backupName } : {}),
      scope: lake.id,
      ...(lake.env ? { env: lake.env } : {}),
      doc: { ...doc },
    },
    doc.validationOnly ? 'validate' : 'run',
    { fail, minutes: totalMinutes(doc) },
  );
  return runOf(rec);
}

const who = (h: Hook<R>): Pick<BrDoc, 'accountId' | 'userCrn'> => ({ accountId: h.ctx.info.accountId, userCrn: h.ctx.caller.actorCrn });

const backupsOf = (h: Hook<R>, lake: Lake): Run[] => h.records('backup').all(lake.id).map(runOf);

/** A backup of the lake by id, or its latest (with that name, when given). */
function findBackup(h: Hook<R>, lake: Lake, id: string | undefined, name: string | undefined): Run {
  if (id) {
    const rec = h.records('backup').byId(id);
    if (!rec || rec.scope !== lake.id) throw notFound(`backup ${id} of data lake ${lake.name} not found`);
    return runOf(rec);
  }
  const all = backupsOf(h, lake);
  const hit = (name ? all.filter((b) => b.backupName === name) : all).pop();
  if (!hit) throw notFound(name ? `backup ${name} of data lake ${lake.name} not found` : `data lake ${lake.name} has no backups`);
  return hit;
}

// ---- views ----------------------------------------------------------------------------

const MINUTE = 60_000;

function stageStatus(r: Run, s: StagePlan, now: number): Doc {
  const predicted = String(s.minutes);
  if (s.skipped) return { status: 'SKIPPED', predictedDurationInMinutes: '0' };
  const { activity } = r.rec;
  const startAt = activity.tl.startedAt + s.start * MINUTE;
  const endAt = startAt + s.minutes * MINUTE;
  // A failing run fails in its last step.
  const failing =
    s === r.stages.filter((x) => !x.skipped).pop() && activity.tl.steps[activity.tl.steps.length - 1]?.state === activity.failure;
  const c = activity.cancelledAt;
  if (c !== undefined && (startAt > c || (endAt > c && r.forced))) return { status: 'CANCELLED', predictedDurationInMinutes: predicted };
  if (now < startAt) return { status: 'INIT', predictedDurationInMinutes: predicted };
  if (now < endAt) return { status: 'IN_PROGRESS', predictedDurationInMinutes: predicted };
  return {
    status: failing ? 'FAILED' : 'SUCCESSFUL',
    durationInMinutes: String(s.minutes),
    predictedDurationInMinutes: predicted,
    ...(failing ? { failureReason: failReason(r) } : {}),
  };
}

function brView(h: Hook<R>, r: Run, withPrediction: boolean): Doc {
  const now = h.ctx.clock.now();
  const p = progressOf(h, r);
  const status = p.state;
  const elapsed = (now - r.rec.activity.tl.startedAt) / MINUTE;
  const running = p.done ? undefined : r.stages.find((s) => !s.skipped && elapsed >= s.start && elapsed < s.start + s.minutes);
  const states: Record<string, Record<string, Doc>> = { adminOperations: {}, hbase: {}, solr: {}, database: {} };
  for (const s of r.stages) states[s.section]![s.name] = stageStatus(r, s, now);
  return {
    accountId: r.accountId,
    ...(r.restoreId ? { restoreId: r.restoreId } : {}),
    backupId: r.backupId,
    userCrn: r.userCrn,
    internalState: running ? `${running.section}.${running.name}: IN_PROGRESS` : status,
    status,
    startTime: iso(r.rec.activity.tl.startedAt),
    endTime: p.done ? iso(p.endsAt) : '',
    backupLocation: r.backupLocation,
    operationStates: states,
    runtimeVersion: r.runtimeVersion,
    ...(r.backupName !== undefined ? { backupName: r.backupName } : {}),
    ...(status === 'FAILED' || status === 'VALIDATION_FAILED'
      ? { failureReason: failReason(r) }
      : status === 'CANCELLED'
        ? { failureReason: `cancelled${r.forced ? ' (forced)' : ''}` }
        : {}),
    ...(withPrediction ? { totalPredictedDurationInMinutes: String(totalMinutes(r)) } : {}),
  };
}

// ---- operations ---------------------------------------------------------------------

const lakeOf = (h: Hook<R>, req: Doc): Lake => h.records('datalake').get(text(req.datalakeName));

/** Starts a backup (code: whether it runs or only validates, and how long, is the request's plan, not one action of the table). */
export function backupDatalake(h: Hook<R>, req: Doc): Doc {
  const lake = lakeOf(h, req);
  ready(h, lake, 'a backup');
  const l = lakeDoc(lake);
  const [id, name] = [uuid(), str(req.backupName)];
  const doc: BrDoc = {
    kind: 'backup',
    backupId: id,
    ...(name !== undefined ? { backupName: name } : {}),
    datalakeName: l.datalakeName,
    ...who(h),
    backupLocation: `${str(req.backupLocation) ?? `${l.storage.replace(/\/$/, '')}/backups`}/${id}`,
    runtimeVersion: l.runtime,
    validationOnly: bool(req.validationOnly),
    stages: stagesOf(req, false),
  };
  return brView(h, startRun(h, lake, id, doc, name?.startsWith('fail-') ?? false), false);
}

/** A backup of the lake by id, or its latest (with that name, when given), with its steps and how long it is predicted to take. */
export const backupStatus = (h: Hook<R>, lake: Lake, req: Doc): Doc =>
  brView(h, findBackup(h, lake, str(req.backupId), str(req.backupName)), true);

/** A lake's backups as listed: each one's status view (the list's shape keeps what it has of it), no name or failure as ''. */
export const listBackups = (h: Hook<R>, lake: Lake): Doc => ({
  backups: backupsOf(h, lake).map((r) => ({ backupName: '', failureReason: '', ...brView(h, r, false) })),
});

/**
 * Starts a restore of a backup: by id (of any lake: moving metadata between lakes), by name, or the lake's latest
 * successful one (code: as a backup's, its action and length are its plan's).
 */
export function restoreDatalake(h: Hook<R>, req: Doc): Doc {
  const lake = lakeOf(h, req);
  ready(h, lake, 'a restore');
  const [byId, byName] = [str(req.backupId), str(req.backupName)];
  let source: Run | undefined;
  if (byId) {
    const rec = h.records('backup').byId(byId);
    if (!rec) throw notFound(`backup ${byId} not found`);
    source = runOf(rec);
  } else if (byName) source = findBackup(h, lake, undefined, byName);
  else
    source = backupsOf(h, lake)
      .filter((b) => progressOf(h, b).state === 'SUCCESSFUL')
      .pop();
  if (!source) throw failedPrecondition(`data lake ${lake.name} has no successful backup to restore`);
  const sourceStatus = progressOf(h, source).state;
  if (sourceStatus !== 'SUCCESSFUL')
    throw failedPrecondition(`backup ${source.backupId} is ${sourceStatus}; only a SUCCESSFUL backup can be restored`);
  const location = str(req.backupLocationOverride) ?? source.backupLocation;
  const id = uuid();
  const doc: BrDoc = {
    kind: 'restore',
    backupId: source.backupId,
    restoreId: id,
    ...(source.backupName !== undefined ? { backupName: source.backupName } : {}),
    datalakeName: String(lake.name),
    ...who(h),
    backupLocation: location,
    runtimeVersion: source.runtimeVersion,
    validationOnly: bool(req.validationOnly),
    stages: stagesOf(req, true),
  };
  return brView(h, startRun(h, lake, id, doc, location.includes('fail-')), false);
}

/** A restore of the lake by id, or its latest. */
export function restoreStatus(h: Hook<R>, lake: Lake, req: Doc): Doc {
  const id = str(req.restoreId);
  const restores = h.records('restore');
  const rec = id ? restores.byId(id) : restores.all(lake.id).pop();
  if (id && (!rec || rec.scope !== lake.id)) throw notFound(`restore ${id} of data lake ${lake.name} not found`);
  if (!rec) throw notFound(`data lake ${lake.name} has no restores`);
  return brView(h, runOf(rec), true);
}

/**
 * Cancels a running backup or restore by its id alone; with force, its running steps too (code: the model has no
 * cancel action; the run ends CANCELLED, not in a state of its lifecycle).
 */
function cancel(kind: Kind, h: Hook<R>, req: Doc): Doc {
  const id = text(req[`${kind}Id`]);
  const force = bool(req.force);
  const records = h.records(kind);
  const rec = records.byId(id);
  if (!rec) throw notFound(`${kind} ${id} not found`);
  const { state } = records.progress(rec);
  if (state !== 'STARTED' && state !== 'IN_PROGRESS')
    throw failedPrecondition(`${kind} ${id} is ${state}; only a ${kind} that is STARTED or IN_PROGRESS can be cancelled`);
  rec.activity.cancelledAt = h.ctx.clock.now();
  rec.doc.forced = force;
  records.save(rec);
  return { result: `${kind} ${id} cancelled; ${force ? 'unfinished' : 'pending'} steps were marked cancelled` };
}
export const cancelBackup = (h: Hook<R>, req: Doc): Doc => cancel('backup', h, req);
export const cancelRestore = (h: Hook<R>, req: Doc): Doc => cancel('restore', h, req);
