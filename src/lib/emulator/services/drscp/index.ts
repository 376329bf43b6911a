/**
 * The Data Recovery Service of a private cloud control plane, written on
 * the operation table from its model facts (model/services/drscp/
 * resources.ts: its backups and restores are jobs, their states and phases
 * the model's). What the facts cannot say is here:
 * - a backup keeps the emulator's state as it was when it was asked for
 *   (state.ts, what `cdpctl emulator export` writes) beside its record, and
 *   goes with it when it is deleted;
 * - a restore brings that state back at once, in the request's transaction
 *   (its code entry), and its job runs its phases after. It leaves the
 *   backups and restores as they are (restoring an old backup must not lose
 *   the newer ones, nor the restore that is running) and the audit trail (a
 *   restore is audited; it never rewrites the audit log). The clock is not
 *   restored: emulated time never runs backwards;
 * - a job's phase is read off the clock; while a restore runs, nothing is
 *   backed up or restored, and the backup it reads is not deleted;
 * - a job's log is a backup's or a restore's (the other code entry).
 *
 * Failing on purpose: a backup named `fail-...` fails; one named
 * `fail-restore-...` backs up, and restores from it fail (restoring nothing).
 */
import type { OperationName } from '../../../model/services/drscp/wire.js';
import { resources } from '../../../model/services/drscp/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { code, defineService, fixed, verbs } from '../../engine/table.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { crn, stableUuid } from '../../ids.js';
import { exportState, importState, type StateFile } from '../../state.js';
import { iso, str, strings, text } from '../../values.js';

type R = keyof typeof resources.resources;
type Rec = Readonly<EngineRecord>;
const JOBS = ['backup', 'restore'] as const;
type Job = (typeof JOBS)[number];

/** What the control plane can back up: its namespace. */
const ITEMS = ['cdp'];

/** A job's phases as the facts name them (`backupPhase`), each with the minute it begins at, from the minutes each lasts. */
function phases(names: readonly string[], minutes: readonly number[]): ReadonlyArray<{ name: string; at: number }> {
  return names.map((name, i) => ({ name, at: minutes.slice(0, i).reduce((t, m) => t + m, 0) }));
}
/** A job is NOT_STARTED in its first phase, IN_PROGRESS in the others, and in the last (FINISHED) once it has ended. */
const PHASES = {
  backup: phases(resources.resources.backup.values.backupPhase, [0.5, 0.5, 2, 1.5]),
  restore: phases(resources.resources.restore.values.restorePhase, [0.5, 0.5, 1, 1, 0.5, 1, 1, 1.5]),
};
/** A job's minutes in its lifecycle's states: NOT_STARTED, IN_PROGRESS. */
const jobMinutes = (job: Job): number[] => {
  const at = PHASES[job].map((p) => p.at);
  return [at[1] ?? 0, (at[at.length - 1] ?? 0) - (at[1] ?? 0)];
};
/** The phases a job has reached, the newest last. */
const reached = (h: Hook<R>, job: Job, rec: Rec): ReadonlyArray<{ name: string; at: number }> =>
  PHASES[job].filter((p) => rec.createdAt + p.at * 60_000 <= h.ctx.clock.now());

/** A job as shown: its phase, when that began, and why it failed. */
const shown =
  (job: Job) =>
  (h: Hook<R>, rec: Rec): Doc => {
    const { name, at } = reached(h, job, rec).slice(-1)[0] ?? { name: '', at: 0 };
    const p = h.records(job).progress(rec);
    const out: Doc = { [`${job}Phase`]: name, [`${job}UpdatedTime`]: iso(rec.createdAt + at * 60_000) };
    if (p.failed) out.errors = [{ text: rec.activity.reason ?? `${job} failed`, timestamp: iso(p.endsAt), namespace: ITEMS[0] }];
    return out;
  };

/** Refused while a restore runs: the state is being replaced. */
function noRestoreRunning(h: Hook<R>, what: string): void {
  const restores = h.records('restore');
  const running = restores.all().find((r) => restores.busy(r));
  if (running)
    throw failedPrecondition(`the control plane is being restored (restore ${running.crn ?? running.id}); ${what} after it ends`);
}

// ---- the state a backup holds -----------------------------------------------------

/** What a backup holds and a restore leaves as it is: these services' own records and meta entries (their numbered ids). */
const KEPT = ['drscp.', 'audit.'];
const kept = (kind: string): boolean => KEPT.some((p) => kind.startsWith(p));
const keptMeta = (key: string): boolean => KEPT.some((p) => key.startsWith(p) || key.startsWith(`engine.seq:${p}`));

/** The emulator's data directory, where uploaded files live (also when the state is in memory: it has no database file to find it by). */
function dataDirOf(h: Hook<R>): string {
  const dir = h.ctx.info.dataDir;
  if (!dir) throw new Error("drscp needs the emulator's data directory");
  return dir;
}

/** The state now, without what a restore keeps. */
function snapshot(h: Hook<R>): StateFile {
  const full = exportState(h.ctx.store, dataDirOf(h), h.ctx.clock.state());
  return {
    ...full,
    meta: Object.fromEntries(Object.entries(full.meta).filter(([k]) => !keptMeta(k))),
    documents: full.documents.filter((d) => !kept(d.kind)),
  };
}

/** Replaces the state with a backup's, keeping the kept services' records and meta entries, and the clock. */
function restoreState(h: Hook<R>, backup: StateFile): void {
  const now = exportState(h.ctx.store, dataDirOf(h), h.ctx.clock.state());
  importState(h.ctx.store, dataDirOf(h), {
    ...backup,
    clock: now.clock,
    meta: { ...backup.meta, ...Object.fromEntries(Object.entries(now.meta).filter(([k]) => keptMeta(k))) },
    documents: [...backup.documents, ...now.documents.filter((d) => kept(d.kind))],
  });
}

/** The state a backup holds (`keep`), as its record keeps it. */
function heldState(backup: Rec): StateFile {
  const state = backup.data?.state;
  if (typeof state !== 'object' || state === null) throw failedPrecondition(`backup ${nameOf(backup)} holds no state to restore`);
  return state as StateFile;
}

// ---- backups --------------------------------------------------------------------

/** A backup not named is named for when it was asked for. */
const named = (h: Hook<R>, sent: Doc): Doc => ({
  ...sent,
  backupName: str(sent.backupName) ?? `backup-${iso(h.ctx.clock.now()).replace(/[-:]/g, '').replace(/\..*$/, '')}`,
});

function checkBackup(h: Hook<R>, _rec: Rec, req: Doc): void {
  noRestoreRunning(h, 'back it up');
  const item = str(req.itemName) ?? ITEMS[0] ?? '';
  if (!ITEMS.includes(item)) throw invalid(`${item.slice(0, 100)} cannot be backed up; what can: ${ITEMS.join(', ')}`);
}

/** A backup that a running restore reads cannot be deleted. */
function checkDelete(h: Hook<R>, rec: Rec): void {
  const restores = h.records('restore');
  if (restores.all().some((r) => r.doc.backupCrn === rec.crn && restores.busy(r)))
    throw failedPrecondition(`backup ${nameOf(rec)} is being restored from; delete it after the restore ends`);
}

/**
 * A delete answers the CRN of the Kubernetes custom resource that deletes the
 * backup ('The CRN of the kubernetes delete backup custom resource.'), whose
 * resource type CDP's CRN parser spells deleteBackupRequest (the facts' `alsoMints`).
 */
const deleteRequest = (h: Hook<R>, rec: Rec): Doc => ({
  deleteBackupCrn: crn(
    'drscp',
    h.ctx.info.region,
    h.ctx.info.accountId,
    'deleteBackupRequest',
    stableUuid(`${rec.id}/deleteBackupRequest`),
  ),
});

// ---- restores -------------------------------------------------------------------

function checkRestore(h: Hook<R>, rec: Rec): void {
  const backups = h.records('backup');
  const backup = backups.get(text(rec.doc.backupCrn));
  backups.require(backup, ['COMPLETED'], 'a restore');
  noRestoreRunning(h, 'restore again');
  heldState(backup);
}

/** restoreBackup: code, as a restore replaces the emulator's state at once (unless it fails on purpose); its record is the engine's. */
function restoreBackup(h: Hook<R>, req: Doc): Doc {
  const backup = h.locate('backup', req);
  const fromBackup = (): Doc => ({ backupCrn: backup.crn, restoreName: backup.name, includedNamespaces: backup.doc.includedNamespaces });
  const answer = h.serve(verbs<R>('restore').create({ action: 'restore', rewrite: fromBackup }), req);
  if (!h.records('restore').get(text(answer.restoreCrn)).activity.reason) restoreState(h, heldState(backup));
  return answer;
}

// ---- both jobs --------------------------------------------------------------------

/** A list by job states, and by the one field it also filters by (compared as given). */
const byJobStates =
  (job: Job, field: string) =>
  (h: Hook<R>, req: Doc): EngineRecord[] => {
    const states = strings(req.jobStates);
    const value = str(req[field]);
    const all = h.records(job);
    return all
      .all()
      .filter((r) => (states.length === 0 || states.includes(all.state(r))) && (value === undefined || r.doc[field] === value));
  };

/** getLogs: code, as the CRN is a backup's or a restore's; a line per phase the job has reached, and one for how it ended. */
function getLogs(h: Hook<R>, req: Doc): Doc {
  const ref = text(req.crn);
  const job = ref.startsWith('crn:') ? JOBS.find((j) => h.records(j).find(ref)) : undefined;
  const rec = job && h.records(job).find(ref);
  if (!job || !rec) throw notFound(`no backup or restore has the CRN ${ref.slice(0, 200)}`);
  const who = `${job} ${nameOf(rec)}`;
  const lines = reached(h, job, rec)
    .filter((p) => p.name !== 'FINISHED')
    .map((p) => `${iso(rec.createdAt + p.at * 60_000)} INFO ${who}: phase ${p.name}`);
  const p = h.records(job).progress(rec);
  if (p.done)
    lines.push(
      p.failed
        ? `${iso(p.endsAt)} ERROR ${who}: ${rec.activity.reason ?? 'failed'}`
        : `${iso(p.endsAt)} INFO ${who}: phase FINISHED, job COMPLETED`,
    );
  return { logs: lines.join('\n') };
}

export default defineService<OperationName>()({
  service: 'drscp',
  facts: resources,
  resources: {
    backup: {
      keys: ['backupCrn'],
      // Backups taken every night may share a name; `fail-restore-` names its restores' failure, not its own.
      names: 'repeat',
      failsFor: ['restore'],
      minutes: { create: jobMinutes('backup'), delete: 1 },
      hooks: {
        check: { create: checkBackup, delete: checkDelete },
        fill: (_h, rec, req) => ({ includedNamespaces: [str(req.itemName) ?? ITEMS[0]], backupJob: `backup-${rec.id.slice(0, 8)}` }),
        keep: { create: (h) => ({ state: snapshot(h) }) },
        show: shown('backup'),
      },
    },
    restore: {
      keys: ['restoreCrn'],
      // Named after its backup, whose name is what fails it on purpose.
      names: 'repeat',
      failsFor: ['create', 'delete'],
      minutes: { restore: jobMinutes('restore') },
      hooks: {
        check: { create: checkRestore },
        fill: (_h, rec) => ({ excludedResources: [], restoreJob: `restore-${rec.id.slice(0, 8)}` }),
        show: shown('restore'),
      },
    },
  },
  operations: (r) => ({
    createBackup: r.backup.create({ rewrite: named }),
    describeBackup: r.backup.read(),
    listBackups: r.backup.list({ select: byJobStates('backup', 'backupName') }),
    deleteBackup: r.backup.delete({ answer: deleteRequest }),
    restoreBackup: code(restoreBackup),
    describeRestore: r.restore.read(),
    listRestores: r.restore.list({ select: byJobStates('restore', 'backupCrn') }),
    getLogs: code(getLogs),
    listBackupEntities: fixed({ items: ITEMS }),
  }),
});
