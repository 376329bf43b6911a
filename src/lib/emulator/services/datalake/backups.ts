/**
 * Backups and restores of data lakes: a plan of steps (admin operations,
 * database, HBase tables, Solr collections), each skipped or timed, and an
 * overall status on the emulator clock (the model's: STARTED, IN_PROGRESS,
 * then SUCCESSFUL or FAILED; VALIDATION_* for a validation-only run;
 * CANCELLED once cancelled). A backup whose name starts with `fail-` fails; so does a
 * restore whose location contains `fail-`.
 */
import type { Hook } from '../../engine/declare.js';
import { failedPrecondition, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../engine/context.js';
import { bool, iso, str, text } from '../../values.js';
import type { EngineRecord } from '../../engine/records.js';
import { progress, type Progress } from '../../engine/timeline.js';
import type { R } from './lakes.js';
import { lakeDoc, type BrDoc, type BrRec, type Lake, type StagePlan } from './records.js';

/** What a backup or restore leaves out (the request's skip flags). */
export interface BackupOptions {
  readonly validationOnly: boolean;
  readonly skipValidation: boolean;
  /** false: services are not stopped and started around the backup. */
  readonly closeDbConnections: boolean;
  readonly skipRangerHmsMetadata: boolean;
  readonly skipAtlasMetadata: boolean;
  readonly skipRangerAudits: boolean;
  readonly skipAtlasIndexes: boolean;
}

type Stage = readonly [StagePlan['section'], string, number];

function plan(stages: readonly Stage[], skip: (s: Stage) => boolean): StagePlan[] {
  let t = 0;
  return stages.map((s) => {
    const skipped = skip(s);
    const p: StagePlan = { section: s[0], name: s[1], start: t, minutes: s[2], skipped };
    if (!skipped) t += s[2];
    return p;
  });
}

const VALIDATION: readonly Stage[] = [['adminOperations', 'dryRunValidation', 0.5]];

/** The steps the options leave out (a validation-only run keeps only its checks). */
function planned(o: BackupOptions, stages: readonly Stage[], restore: boolean): StagePlan[] {
  return plan(stages, ([section, name]) => {
    if (o.validationOnly) return !(section === 'adminOperations' && name !== 'stopServices' && name !== 'startServices');
    if (name === 'precheckStoragePermission' || name === 'rangerAuditCollectionValidation') return o.skipValidation;
    if (!restore && (name === 'stopServices' || name === 'startServices')) return !o.closeDbConnections;
    if (section === 'database') return o.skipRangerHmsMetadata;
    if (section === 'hbase') return o.skipAtlasMetadata;
    if (name.startsWith('rangerAuditsCollection')) return o.skipRangerAudits;
    if (section === 'solr') return o.skipAtlasIndexes;
    return false;
  });
}

const COLLECTIONS = ['edgeIndexCollection', 'fulltextIndexCollection', 'rangerAuditsCollection', 'vertexIndexCollection'];
const collectionMinutes = (c: string): number => (c === 'rangerAuditsCollection' ? 0.5 : 0.25);

/** The steps of a backup or restore: checks, services stopped, database, HBase tables, Solr collections (a restore deletes each first), services started. */
function stagesOf(o: BackupOptions, restore: boolean): StagePlan[] {
  const solr: Stage[] = COLLECTIONS.flatMap((c) =>
    restore
      ? ([
          ['solr', `${c}Delete`, 0.25],
          ['solr', c, collectionMinutes(c)],
        ] as Stage[])
      : ([['solr', c, collectionMinutes(c)]] as Stage[]),
  );
  const stages: Stage[] = [
    ['adminOperations', 'precheckStoragePermission', 0.25],
    ['adminOperations', 'rangerAuditCollectionValidation', 0.25],
    ...(o.validationOnly ? VALIDATION : []),
    ['adminOperations', 'stopServices', 0.25],
    ['database', 'database', 1.25],
    ['hbase', 'atlasEntityAuditEventTable', 0.75],
    ['hbase', 'atlasJanusTable', 0.75],
    ...solr,
    ['adminOperations', 'startServices', 0.25],
  ];
  return planned(o, stages, restore);
}

/** How long a plan runs (minutes). */
export const totalMinutes = (r: Pick<BrRec, 'stages'>): number =>
  r.stages.filter((s) => !s.skipped).reduce((a, s) => Math.max(a, s.start + s.minutes), 0);

/** The step a failing run fails in: its last one. */
export const lastStage = (r: BrRec): StagePlan | undefined => r.stages.filter((s) => !s.skipped).pop();

export function failReason(r: BrRec): string {
  return r.kind === 'backup'
    ? `writing to ${r.backupLocation} failed (the backup name starts with "fail-")`
    : `reading the backup from ${r.backupLocation} failed (the location contains "fail-")`;
}

/** A backup or restore as its views read it: its document, its lake and its run on the clock. */
const runOf = (rec: Readonly<EngineRecord>): BrRec => ({
  ...(rec.doc as unknown as BrDoc),
  id: rec.id,
  lakeId: rec.scope,
  activity: rec.activity,
});

/** A lake's backups and restores (engine records of the lake: they go with it). */
export class Backups {
  constructor(private readonly h: Hook<R>) {}

  private get now(): number {
    return this.h.ctx.clock.now();
  }

  progress(r: BrRec): Progress {
    return progress(r.activity, this.now);
  }

  /** The step running now, if any. */
  running(r: BrRec): StagePlan | undefined {
    const elapsed = (this.now - r.activity.tl.startedAt) / 60_000;
    return this.progress(r).done ? undefined : r.stages.find((s) => !s.skipped && elapsed >= s.start && elapsed < s.start + s.minutes);
  }

  /** A backup or restore of the lake that is still running. */
  private busyWith(lake: Lake): BrRec | undefined {
    for (const kind of ['backup', 'restore'] as const)
      for (const rec of this.h.records(kind).all(lake.id)) if (!this.progress(runOf(rec)).done) return runOf(rec);
    return undefined;
  }

  /** Starts a run: STARTED for half a minute, IN_PROGRESS until its plan's last step ends. */
  private startRun(lake: Lake, id: string, doc: BrDoc, fail: boolean): BrRec {
    const minutes = totalMinutes(doc);
    const rec = this.h.records(doc.kind).create(
      {
        id,
        ...(doc.backupName !== undefined ? { name: doc.backupName } : {}),
        scope: lake.id,
        ...(lake.env ? { env: lake.env } : {}),
        doc: { ...doc },
      },
      doc.validationOnly ? 'validate' : 'run',
      { fail, minutes },
    );
    return runOf(rec);
  }

  private ready(lake: Lake, what: string): void {
    this.h.records('datalake').require(lake, ['RUNNING'], what);
    const busy = this.busyWith(lake);
    if (busy) throw failedPrecondition(`data lake ${lake.name} is busy with ${busy.kind} ${busy.restoreId ?? busy.backupId}`);
  }

  private who(): Pick<BrDoc, 'accountId' | 'userCrn'> {
    return { accountId: this.h.ctx.info.accountId, userCrn: this.h.ctx.caller.actorCrn };
  }

  backup(lake: Lake, name: string | undefined, location: string | undefined, o: BackupOptions): BrRec {
    this.ready(lake, 'a backup');
    const l = lakeDoc(lake);
    const id = uuid();
    const doc: BrDoc = {
      kind: 'backup',
      backupId: id,
      ...(name !== undefined ? { backupName: name } : {}),
      datalakeName: l.datalakeName,
      ...this.who(),
      backupLocation: `${location ?? `${l.storage.replace(/\/$/, '')}/backups`}/${id}`,
      runtimeVersion: l.runtime,
      validationOnly: o.validationOnly,
      stages: stagesOf(o, false),
    };
    return this.startRun(lake, id, doc, name?.startsWith('fail-') ?? false);
  }

  /** A backup of the lake by id, or its latest (with that name, when given). */
  find(lake: Lake, by: { id?: string; name?: string }): BrRec {
    if (by.id) {
      const rec = this.h.records('backup').byId(by.id);
      if (!rec || rec.scope !== lake.id) throw notFound(`backup ${by.id} of data lake ${lake.name} not found`);
      return runOf(rec);
    }
    const all = this.list(lake);
    const hit = (by.name ? all.filter((b) => b.backupName === by.name) : all).pop();
    if (!hit) throw notFound(by.name ? `backup ${by.name} of data lake ${lake.name} not found` : `data lake ${lake.name} has no backups`);
    return hit;
  }

  list(lake: Lake): BrRec[] {
    return this.h.records('backup').all(lake.id).map(runOf);
  }

  /** Restores a backup (by id, of any lake; by name; or the lake's latest successful one). */
  restore(lake: Lake, by: { id?: string; name?: string }, locationOverride: string | undefined, o: BackupOptions): BrRec {
    this.ready(lake, 'a restore');
    let source: BrRec;
    if (by.id) {
      // A backup id may name a backup of another lake (moving metadata between lakes).
      const rec = this.h.records('backup').byId(by.id);
      if (!rec) throw notFound(`backup ${by.id} not found`);
      source = runOf(rec);
    } else if (by.name) source = this.find(lake, { name: by.name });
    else {
      const ok = this.list(lake)
        .filter((b) => this.progress(b).state === 'SUCCESSFUL')
        .pop();
      if (!ok) throw failedPrecondition(`data lake ${lake.name} has no successful backup to restore`);
      source = ok;
    }
    const sourceStatus = this.progress(source).state;
    if (sourceStatus !== 'SUCCESSFUL')
      throw failedPrecondition(`backup ${source.backupId} is ${sourceStatus}; only a SUCCESSFUL backup can be restored`);
    const location = locationOverride ?? source.backupLocation;
    const id = uuid();
    const doc: BrDoc = {
      kind: 'restore',
      backupId: source.backupId,
      restoreId: id,
      ...(source.backupName !== undefined ? { backupName: source.backupName } : {}),
      datalakeName: String(lake.name),
      ...this.who(),
      backupLocation: location,
      runtimeVersion: source.runtimeVersion,
      validationOnly: o.validationOnly,
      stages: stagesOf(o, true),
    };
    return this.startRun(lake, id, doc, location.includes('fail-'));
  }

  /** A restore of the lake by id, or its latest. */
  findRestore(lake: Lake, id: string | undefined): BrRec {
    const restores = this.h.records('restore');
    const rec = id ? restores.byId(id) : restores.all(lake.id).pop();
    if (id && (!rec || rec.scope !== lake.id)) throw notFound(`restore ${id} of data lake ${lake.name} not found`);
    if (!rec) throw notFound(`data lake ${lake.name} has no restores`);
    return runOf(rec);
  }

  /** Cancels a running backup or restore; with force, its running steps too. */
  cancel(kind: 'backup' | 'restore', id: string, force: boolean): void {
    const records = this.h.records(kind);
    const rec = records.byId(id);
    if (!rec) throw notFound(`${kind} ${id} not found`);
    const { state } = this.progress(runOf(rec));
    if (state !== 'STARTED' && state !== 'IN_PROGRESS')
      throw failedPrecondition(`${kind} ${id} is ${state}; only a ${kind} that is STARTED or IN_PROGRESS can be cancelled`);
    rec.activity.cancelledAt = this.now;
    rec.doc.forced = force;
    records.save(rec);
  }
}

// ---- views ----------------------------------------------------------------------------

const MINUTE = 60_000;

function stageStatus(r: BrRec, s: StagePlan, now: number): Doc {
  const predicted = String(s.minutes);
  if (s.skipped) return { status: 'SKIPPED', predictedDurationInMinutes: '0' };
  const startAt = r.activity.tl.startedAt + s.start * MINUTE;
  const endAt = startAt + s.minutes * MINUTE;
  const failing = s === lastStage(r) && r.activity.tl.steps[r.activity.tl.steps.length - 1]?.state === r.activity.failure;
  const c = r.activity.cancelledAt;
  if (c !== undefined) {
    if (startAt > c) return { status: 'CANCELLED', predictedDurationInMinutes: predicted };
    if (endAt > c && r.forced) return { status: 'CANCELLED', predictedDurationInMinutes: predicted };
  }
  if (now < startAt) return { status: 'INIT', predictedDurationInMinutes: predicted };
  if (now < endAt) return { status: 'IN_PROGRESS', predictedDurationInMinutes: predicted };
  return {
    status: failing ? 'FAILED' : 'SUCCESSFUL',
    durationInMinutes: String(s.minutes),
    predictedDurationInMinutes: predicted,
    ...(failing ? { failureReason: failReason(r) } : {}),
  };
}

export function brView(h: Hook<R>, r: BrRec, withPrediction: boolean): Doc {
  const now = h.ctx.clock.now();
  const backups = new Backups(h);
  const p = backups.progress(r);
  const status = p.state;
  const endAt = p.done ? p.endsAt : undefined;
  const running = backups.running(r);
  const states: Record<string, Record<string, Doc>> = { adminOperations: {}, hbase: {}, solr: {}, database: {} };
  for (const s of r.stages) states[s.section]![s.name] = stageStatus(r, s, now);
  // Required stage entries a plan left out (validation-only runs have no data stages).
  for (const name of ['stopServices', 'startServices', 'precheckStoragePermission', 'rangerAuditCollectionValidation'])
    states.adminOperations![name] ??= { status: 'SKIPPED' };
  for (const name of ['atlasEntityAuditEventTable', 'atlasJanusTable']) states.hbase![name] ??= { status: 'SKIPPED' };
  for (const name of ['edgeIndexCollection', 'fulltextIndexCollection', 'rangerAuditsCollection', 'vertexIndexCollection'])
    states.solr![name] ??= { status: 'SKIPPED' };
  states.database!.database ??= { status: 'SKIPPED' };
  const failed = status === 'FAILED' || status === 'VALIDATION_FAILED';
  return {
    accountId: r.accountId,
    ...(r.restoreId ? { restoreId: r.restoreId } : {}),
    backupId: r.backupId,
    userCrn: r.userCrn,
    internalState: running ? `${running.section}.${running.name}: IN_PROGRESS` : status,
    status,
    startTime: iso(r.activity.tl.startedAt),
    endTime: endAt !== undefined ? iso(endAt) : '',
    backupLocation: r.backupLocation,
    operationStates: states,
    runtimeVersion: r.runtimeVersion,
    ...(r.backupName !== undefined ? { backupName: r.backupName } : {}),
    ...(failed
      ? { failureReason: failReason(r) }
      : status === 'CANCELLED'
        ? { failureReason: `cancelled${r.forced ? ' (forced)' : ''}` }
        : {}),
    ...(withPrediction ? { totalPredictedDurationInMinutes: String(totalMinutes(r)) } : {}),
  };
}

// ---- operations ---------------------------------------------------------------------

/** A backup's or restore's skip flags. */
const optionsOf = (req: Doc): BackupOptions => ({
  validationOnly: bool(req.validationOnly),
  skipValidation: bool(req.skipValidation),
  closeDbConnections: req.closeDbConnections !== false,
  skipRangerHmsMetadata: bool(req.skipRangerHmsMetadata),
  skipAtlasMetadata: bool(req.skipAtlasMetadata),
  skipRangerAudits: bool(req.skipRangerAudits),
  skipAtlasIndexes: bool(req.skipAtlasIndexes),
});

const lakeOf = (h: Hook<R>, req: Doc): Lake => h.records('datalake').get(text(req.datalakeName));

/** Starts a backup (code: whether it runs or only validates, and how long, is the request's plan, not one action of the table). */
export function backupDatalake(h: Hook<R>, req: Doc): Doc {
  const b = new Backups(h);
  return brView(h, b.backup(lakeOf(h, req), str(req.backupName), str(req.backupLocation), optionsOf(req)), false);
}

/** A backup of the lake by id, or its latest (with that name, when given), with its steps and how long it is predicted to take. */
export const backupStatus = (h: Hook<R>, lake: Lake, req: Doc): Doc =>
  brView(h, new Backups(h).find(lake, { id: str(req.backupId), name: str(req.backupName) }), true);

/** A lake's backups as listed: each one's status view (the list's shape keeps what it has of it), no name or failure as ''. */
export const listBackups = (h: Hook<R>, lake: Lake): Doc => ({
  backups: new Backups(h).list(lake).map((r) => ({ backupName: '', failureReason: '', ...brView(h, r, false) })),
});

/** Starts a restore of a backup, of this lake or another (code: as a backup's, its action and length are its plan's). */
export function restoreDatalake(h: Hook<R>, req: Doc): Doc {
  const by = { id: str(req.backupId), name: str(req.backupName) };
  return brView(h, new Backups(h).restore(lakeOf(h, req), by, str(req.backupLocationOverride), optionsOf(req)), false);
}

/** A restore of the lake by id, or its latest. */
export const restoreStatus = (h: Hook<R>, lake: Lake, req: Doc): Doc =>
  brView(h, new Backups(h).findRestore(lake, str(req.restoreId)), true);

/** Cancels a running backup or restore by its id alone (code: the model has no cancel action; the run ends CANCELLED, not in a state of its lifecycle). */
const cancel = (kind: 'backup' | 'restore', h: Hook<R>, req: Doc): Doc => {
  const id = text(req[`${kind}Id`]);
  const force = bool(req.force);
  new Backups(h).cancel(kind, id, force);
  return { result: `${kind} ${id} cancelled; ${force ? 'unfinished' : 'pending'} steps were marked cancelled` };
};
export const cancelBackup = (h: Hook<R>, req: Doc): Doc => cancel('backup', h, req);
export const cancelRestore = (h: Hook<R>, req: Doc): Doc => cancel('restore', h, req);
