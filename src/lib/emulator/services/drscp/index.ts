/**
 * The Data Recovery Service of a private cloud control plane, on the
 * operation table; its jobs' states are the model's
 * (model/services/drscp/resources.ts). A backup is a real export of the
 * emulator's state (state.ts, what `cdpctl emulator export` writes), taken
 * when it is asked for; its job then runs its phases on the emulator clock. A restore
 * imports a completed backup's state at once, in the request's transaction,
 * and its job runs its phases after. What a restore leaves as it is: the
 * backups and restores themselves (restoring an old backup must not lose
 * the newer ones, nor the restore that is running) and the audit trail
 * (a restore is audited; it never rewrites the audit log). The clock is not
 * restored: emulated time never runs backwards.
 *
 * Failing on purpose: a backup named `fail-...` fails; one named
 * `fail-restore-...` backs up, and restores from it fail (restoring
 * nothing).
 */
import type { OperationName } from '../../../model/services/drscp/wire.js';
import { resources } from '../../../model/services/drscp/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { code, defineService, fixed, verbs } from '../../engine/table.js';
import { failsOnPurpose } from '../../engine/timeline.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { crn, stableUuid, uuid } from '../../ids.js';
import { exportState, importState, type StateFile } from '../../state.js';
import { iso, str, strings, text } from '../../values.js';

type R = keyof typeof resources.resources;
type Rec = Readonly<EngineRecord>;

/** What the control plane can back up: its namespace. */
const ITEMS = ['cdp'];

/** A job's phases and their minutes; the job is NOT_STARTED in the first, IN_PROGRESS in the others, and FINISHED after. */
const BACKUP_PHASES: ReadonlyArray<readonly [string, number]> = [
  ['PENDING', 0.5],
  ['PRE_VALIDATION', 0.5],
  ['SAVING_OBJECTS', 2],
  ['CREATING_SNAPSHOTS', 1.5],
];
const RESTORE_PHASES: ReadonlyArray<readonly [string, number]> = [
  ['PENDING', 0.5],
  ['PRE_VALIDATION', 0.5],
  ['STOPPING_APPS', 1],
  ['DELETING_OBJECTS', 1],
  ['DELETING_OBJECTS_PVC', 0.5],
  ['RESTORING_PVC', 1],
  ['RESTORING_OBJECTS', 1],
  ['STARTING_APPS', 1.5],
];

/** A job's emulated minutes: its first phase NOT_STARTED, the others IN_PROGRESS. */
const jobMinutes = (phases: ReadonlyArray<readonly [string, number]>): number[] => [
  phases[0]?.[1] ?? 0,
  phases.slice(1).reduce((t, [, m]) => t + m, 0),
];

/** Every job a backup's name can fail on purpose (`fail-restore-`: its restores). */
const JOBS = ['create', 'delete', 'restore'];

/** What a backup holds and a restore leaves as it is: these services' own records. */
const KEPT = ['drscp.', 'audit.'];
const kept = (kind: string): boolean => KEPT.some((p) => kind.startsWith(p));
/** Meta entries of the kept services (the audit trail's count, numbered ids of theirs). */
const keptMeta = (key: string): boolean => KEPT.some((p) => key.startsWith(p) || key.startsWith(`engine.seq:${p}`));

const SNAPSHOT_KIND = 'drscp.snapshot';

/**
 * The emulator's data directory, where uploaded files live: the one the
 * server exports and imports state with, also when the state is kept in
 * memory (the library's default), which has no database file to find it by.
 */
function dataDirOf(h: Hook<R>): string {
  const dir = h.ctx.info.dataDir;
  if (!dir) throw new Error("drscp needs the emulator's data directory");
  return dir;
}

/** The phase a job is in, read off its timeline: FINISHED once it ended. */
function phaseOf(h: Hook<R>, rec: Rec, phases: ReadonlyArray<readonly [string, number]>): { phase: string; since: number } {
  const started = rec.activity.tl.startedAt;
  const elapsed = h.ctx.clock.now() - started;
  let t = 0;
  for (const [phase, m] of phases) {
    if (elapsed < (t + m) * 60_000) return { phase, since: started + t * 60_000 };
    t += m;
  }
  return { phase: 'FINISHED', since: started + t * 60_000 };
}

/** A job's record as shown: its phase, when it last changed, and why it failed. */
const jobView =
  (kind: 'backup' | 'restore', phases: ReadonlyArray<readonly [string, number]>) =>
  (h: Hook<R>, rec: Rec): Doc => {
    const { phase, since } = phaseOf(h, rec, phases);
    const p = h.records(kind).progress(rec);
    const out: Doc = { [`${kind}Phase`]: phase, [`${kind}UpdatedTime`]: iso(since) };
    if (p.failed) out.errors = [{ text: rec.activity.reason ?? `${kind} failed`, timestamp: iso(p.endsAt), namespace: ITEMS[0] }];
    return out;
  };

function requireNoRestore(h: Hook<R>, what: string): void {
  const restores = h.records('restore');
  const running = restores.all().find((r) => restores.busy(r));
  if (running)
    throw failedPrecondition(`the control plane is being restored (restore ${running.crn ?? running.id}); ${what} after it ends`);
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

/** Replaces the state with a backup's, keeping the kept services' records and meta entries and the clock. */
function restoreState(h: Hook<R>, backup: StateFile): void {
  const store = h.ctx.store;
  const now = exportState(store, dataDirOf(h), h.ctx.clock.state());
  const file: StateFile = {
    ...backup,
    clock: now.clock,
    meta: { ...backup.meta, ...Object.fromEntries(Object.entries(now.meta).filter(([k]) => keptMeta(k))) },
    documents: [...backup.documents, ...now.documents.filter((d) => kept(d.kind))],
  };
  importState(store, dataDirOf(h), file);
}

/** createBackup: code, as the backup is the state exported now, kept beside its record. */
function createBackup(h: Hook<R>, req: Doc): Doc {
  requireNoRestore(h, 'back it up');
  const item = str(req.itemName) ?? ITEMS[0] ?? '';
  if (!ITEMS.includes(item)) throw invalid(`${item.slice(0, 100)} cannot be backed up; what can: ${ITEMS.join(', ')}`);
  const id = uuid();
  const now = h.ctx.clock.now();
  const name = str(req.backupName) ?? `backup-${iso(now).replace(/[-:]/g, '').replace(/\..*$/, '')}`;
  const fail = failsOnPurpose(name, 'create', JOBS);
  const backupCrn = h.crn('backup', id);
  // The state as it is now: what a restore from this backup brings back (a failing backup keeps nothing).
  if (!fail) h.ctx.store.put(SNAPSHOT_KIND, id, snapshot(h), { parent: id });
  const doc = h.conform(
    'Backup',
    { backupCrn, backupName: name, backupCreationTime: iso(now), backupJob: `backup-${id.slice(0, 8)}`, includedNamespaces: [item] },
    id,
  );
  h.records('backup').create({ id, name, crn: backupCrn, scope: '', doc }, 'create', { fail });
  return { backupCrn };
}

/** restoreBackup: code, as a restore imports the backup's state at once, in the request's transaction. */
function restoreBackup(h: Hook<R>, req: Doc): Doc {
  const backups = h.records('backup');
  const backup = backups.get(text(req.backupCrn));
  backups.require(backup, ['COMPLETED'], 'a restore');
  requireNoRestore(h, 'restore again');
  const state = h.ctx.store.get<StateFile>(SNAPSHOT_KIND, backup.id);
  if (!state) throw failedPrecondition(`backup ${backup.name ?? backup.id} holds no state to restore`);
  const fail = failsOnPurpose(backup.name, 'restore', JOBS);
  const id = uuid();
  const restoreCrn = h.crn('restore', id);
  const doc = h.conform(
    'Restore',
    {
      restoreCrn,
      backupCrn: backup.crn,
      restoreCreationTime: iso(h.ctx.clock.now()),
      includedNamespaces: strings(backup.doc.includedNamespaces),
      excludedResources: [],
      restoreJob: `restore-${id.slice(0, 8)}`,
    },
    id,
  );
  // The restore is kept through the state it replaces; a failing one replaces nothing.
  h.records('restore').create({ id, name: backup.name, crn: restoreCrn, scope: '', doc }, 'restore', { fail });
  if (!fail) restoreState(h, state);
  return { restoreCrn };
}

/** getLogs: the job log of a backup or restore, by its CRN (code: it is either); a line per phase it has reached. */
function getLogs(h: Hook<R>, req: Doc): Doc {
  const ref = text(req.crn);
  for (const [kind, phases] of [
    ['backup', BACKUP_PHASES],
    ['restore', RESTORE_PHASES],
  ] as const) {
    const rec = h.records(kind).find(ref);
    if (!rec || !ref.startsWith('crn:')) continue;
    const now = h.ctx.clock.now();
    const p = h.records(kind).progress(rec);
    const lines: string[] = [];
    let t = rec.activity.tl.startedAt;
    for (const [phase, m] of phases) {
      if (t > now) break;
      lines.push(`${iso(t)} INFO ${kind} ${rec.name ?? rec.id}: phase ${phase}`);
      t += m * 60_000;
    }
    if (p.done)
      lines.push(
        p.failed
          ? `${iso(p.endsAt)} ERROR ${kind} ${rec.name ?? rec.id}: ${rec.activity.reason ?? 'failed'}`
          : `${iso(p.endsAt)} INFO ${kind} ${rec.name ?? rec.id}: phase FINISHED, job COMPLETED`,
      );
    return { logs: lines.join('\n') };
  }
  throw notFound(`no backup or restore has the CRN ${ref.slice(0, 200)}`);
}

/** A list filtered by job states (and the fields given), as the list operations take them. */
const byJobStates =
  (kind: 'backup' | 'restore', field: string) =>
  (h: Hook<R>, req: Doc): EngineRecord[] => {
    const states = strings(req.jobStates);
    const all = h.records(kind);
    const value = str(req[field]);
    return all
      .all()
      .filter((r) => (states.length === 0 || states.includes(all.state(r))) && (value === undefined || r.doc[field] === value));
  };

/**
 * A delete answers the CRN of the Kubernetes custom resource that deletes the
 * backup ('The CRN of the kubernetes delete backup custom resource.'), whose
 * resource type CDP's CRN parser spells deleteBackupRequest.
 */
function deleteAnswer(h: Hook<R>, rec: Rec): Doc {
  const id = stableUuid(`${rec.id}/deleteBackupRequest`);
  return { deleteBackupCrn: crn('drscp', h.ctx.info.region, h.ctx.info.accountId, 'deleteBackupRequest', id) };
}

/** A backup that a running restore reads cannot be deleted. */
function checkDelete(h: Hook<R>, rec: Rec): void {
  const restores = h.records('restore');
  if (restores.all().some((r) => r.doc.backupCrn === rec.crn && restores.busy(r)))
    throw failedPrecondition(`backup ${rec.name ?? rec.id} is being restored from; delete it after the restore ends`);
}

/** deleteBackup: the backup's delete (TERMINATING, then gone); code only to drop the state it holds as well. */
function deleteBackup(h: Hook<R>, req: Doc): Doc {
  const rec = h.locate('backup', req);
  const answer = h.serve(verbs<R>('backup').delete({ answer: deleteAnswer }), req);
  h.ctx.store.delete(SNAPSHOT_KIND, rec.id);
  return answer;
}

export default defineService<OperationName>()({
  service: 'drscp',
  facts: resources,
  resources: {
    backup: {
      keys: ['backupCrn'],
      // Backups taken every night may share a name.
      names: 'repeat',
      minutes: { create: jobMinutes(BACKUP_PHASES), delete: 1 },
      hooks: { show: jobView('backup', BACKUP_PHASES), check: { delete: checkDelete } },
    },
    restore: {
      keys: ['restoreCrn'],
      names: 'repeat',
      minutes: { restore: jobMinutes(RESTORE_PHASES) },
      hooks: { show: jobView('restore', RESTORE_PHASES) },
    },
  },
  operations: (r) => ({
    createBackup: code(createBackup),
    describeBackup: r.backup.read(),
    listBackups: r.backup.list({ select: byJobStates('backup', 'backupName') }),
    deleteBackup: code(deleteBackup),
    restoreBackup: code(restoreBackup),
    describeRestore: r.restore.read(),
    listRestores: r.restore.list({ select: byJobStates('restore', 'backupCrn') }),
    getLogs: code(getLogs),
    listBackupEntities: fixed({ items: ITEMS }),
  }),
});
