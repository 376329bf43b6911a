/**
 * Backups and restores of the Data Warehouse (its namespaces: one per
 * catalog, warehouse and visualization). A backup's job goes NOT_STARTED →
 * IN_PROGRESS → COMPLETED (FAILED when it fails); a restore is taken from a
 * COMPLETED backup, of the namespaces it holds, and with `rebuild` rebuilds
 * the catalogs and warehouses it restores. Deleting a backup returns at
 * once; its deletion goes on (TERMINATING) and leaves its own CRN, whose
 * logs, like a backup's or a restore's, `getLogs` prints.
 */
import { resources as facts } from '../../../model/services/dw/resources.js';
import { invalid, notFound } from '../../errors.js';
import type { Hook, Resource } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { crn, stableUuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { iso, str, strings, text } from '../../values.js';
import { all, statusSince, type R } from './common.js';
import { actionEvents } from './events.js';

/** How long a backup's deletion takes (emulated minutes; TERMINATING, then gone). */
const DELETE_MINUTES = 1;
const DELETE_MS = DELETE_MINUTES * 60_000;

/** The phase a job's state is shown with (as the backup tool names them). */
const PHASE: Readonly<Record<string, string>> = {
  NOT_STARTED: 'New',
  IN_PROGRESS: 'InProgress',
  COMPLETED: 'Completed',
  PARTIALLY_FAILED: 'PartiallyFailed',
  FAILED: 'Failed',
  TERMINATING: 'Deleting',
};

/** Where the deletions of backups are kept (their CRN outlives the backup, for its logs). */
const DELETION_KIND = 'dw.backupDeletion';
type Deletion = { crn: string; backupCrn: string; backupName: string; at: number };

/** The namespaces of the Data Warehouse: one per catalog, warehouse and visualization of every cluster. */
const namespaces = (h: Hook): string[] => (['dbc', 'vw', 'dataVisualization'] as const).flatMap((key) => all(h, key).map((r) => r.id));

export const listBackupEntities = (h: Hook): Doc => ({ items: namespaces(h) });

/** The jobs of a kind whose state is one of the request's `jobStates` (all when it gives none). */
const inStates = (h: Hook, key: 'backup' | 'restore', req: Doc): EngineRecord[] => {
  const states = strings(req.jobStates);
  return all(h, key, '').filter((rec) => states.length === 0 || states.includes(h.records(key).state(rec)));
};

/** The fields a backup or restore computes as it is shown: phase, last update, errors of a failure. */
function jobView(prefix: 'backup' | 'restore') {
  return (h: Hook, rec: EngineRecord, view: Doc): Doc => {
    const state = String(view[`${prefix}JobState`] ?? '');
    const p = h.records(prefix).progress(rec);
    const when = statusSince(h, rec);
    return {
      [`${prefix}Phase`]: PHASE[state] ?? state,
      [`${prefix}UpdatedTime`]: when,
      warnings: [],
      errors: p.failed ? [{ text: rec.activity.reason ?? `${prefix} failed`, timestamp: when, namespace: '' }] : [],
    };
  };
}

/** `backups list`: by name and job state. */
export function listBackups(h: Hook, req: Doc): EngineRecord[] {
  const name = str(req.backupName)?.toLowerCase();
  return inStates(h, 'backup', req).filter((b) => !name || b.name?.toLowerCase() === name);
}

/** What `backups delete` answers: the CRN of the deletion, kept for its logs once the backup is gone. */
export function backupDeletion(h: Hook, rec: EngineRecord): Doc {
  const deletion: Deletion = {
    // Its CRN's resource type is the facts' (deleteBackupRequest, as CDP's CRN types write it).
    crn: crn('dw', h.ctx.info.region, h.ctx.info.accountId, facts.resources.backupDeletion.crnType, stableUuid(`${rec.id}/delete`)),
    backupCrn: rec.crn ?? '',
    backupName: rec.name ?? '',
    at: h.ctx.clock.now(),
  };
  h.ctx.store.put(DELETION_KIND, deletion.crn, deletion, { crn: deletion.crn });
  return { deleteBackupCrn: deletion.crn };
}

/**
 * A backup of the Data Warehouse's namespaces: NOT_STARTED half a minute,
 * IN_PROGRESS four; backups taken every night may share a name.
 */
export const backup: Resource<R> = {
  noun: 'backup',
  keys: ['backupCrn'],
  names: 'repeat',
  minutes: { create: [0.5, 4], restore: 0, delete: DELETE_MINUTES },
  hooks: {
    fill: (h, rec, req) => {
      const known = namespaces(h);
      const asked = strings(req.namespaceNames);
      const unknown = asked.filter((n) => !known.includes(n));
      if (unknown.length > 0)
        throw invalid(
          `${unknown.join(', ')}: not a namespace of the Data Warehouse; see \`dw backups list-entities\` (${known.join(', ') || 'none'})`,
        );
      return {
        backupName: rec.name ?? '',
        backupCreationTime: iso(h.ctx.clock.now()),
        backupJob: `backup-${rec.id.slice(0, 8)}`,
        includedNamespaces: asked.length > 0 ? asked : known,
      };
    },
    show: jobView('backup'),
  },
};

/** What a restore does to one namespace: with `rebuild`, the catalog or warehouse there is rebuilt. */
function planFor(h: Hook, namespace: string, rebuild: boolean): { kind: string; entry: Doc } {
  for (const key of ['dbc', 'vw', 'dataVisualization'] as const) {
    const records = h.records(key);
    const rec = records.byId(namespace);
    if (!rec) continue;
    const kind = key === 'dbc' ? 'dbc' : key === 'dataVisualization' ? 'viz' : rec.doc.vwType === 'impala' ? 'impala' : 'hive';
    const from: readonly string[] = facts.resources.dbc.lifecycle.rebuild.from ?? [];
    const rebuilds = rebuild && key !== 'dataVisualization' && !records.busy(rec) && from.includes(records.state(rec));
    if (rebuilds) records.begin(rec, 'rebuild');
    const message = `restored ${rebuilds ? 'and rebuilding ' : ''}${nameOf(rec)}`;
    return { kind, entry: { ref: namespace, id: rec.id, action: 'Update', message } };
  }
  return { kind: 'dbc', entry: { ref: namespace, action: 'Skip', message: `${namespace} is no longer in the Data Warehouse` } };
}

/** What `backups restore` answers: the restore's CRN, what it does, and its plan when it rebuilds. */
export const restoreStarted = (_h: Hook, rec: EngineRecord): Doc => ({
  restoreCrn: rec.crn,
  message: String(rec.data?.message ?? ''),
  ...(rec.data?.plan ? { restorePlan: rec.data.plan } : {}),
});

/** `backups list-restores`: by backup and job state. */
export function listRestores(h: Hook, req: Doc): EngineRecord[] {
  const of = str(req.backupCrn);
  return inStates(h, 'restore', req).filter((r) => !of || r.doc.backupCrn === of);
}

/** A restore from a COMPLETED backup: NOT_STARTED half a minute, IN_PROGRESS five; it fails for a backup named fail-restore-... */
export const restore: Resource<R> = {
  noun: 'restore',
  keys: ['restoreCrn'],
  failsBy: 'data.backupName',
  minutes: { create: [0.5, 5] },
  hooks: {
    fill: (h, rec: EngineRecord, req) => {
      const backups = h.records('backup');
      const b = backups.get(text(req.backupCrn));
      const held = strings(b.doc.includedNamespaces);
      const asked = strings(req.namespaceNames);
      const outside = asked.filter((n) => !held.includes(n));
      if (outside.length > 0)
        throw invalid(`backup ${b.name || b.id} does not hold ${outside.join(', ')}; it holds ${held.join(', ') || 'nothing'}`);
      backups.begin(b, 'restore');
      const restoring = asked.length > 0 ? asked : held;
      const rebuild = req.rebuild === true;
      const plan: Record<string, Doc[]> = { dbc: [], hue: [], hive: [], impala: [], trino: [], viz: [], cdwHue: [] };
      for (const { kind, entry } of restoring.map((n) => planFor(h, n, rebuild))) (plan[kind] ??= []).push(entry);
      rec.data = {
        ...rec.data,
        backupName: b.name ?? '',
        message: `restoring ${restoring.length} namespace(s) from backup ${b.name || b.id}${rebuild ? ', rebuilding them' : ''}`,
        ...(rebuild ? { plan: { ...plan, dwxSecrets: [] } } : {}),
      };
      return {
        backupCrn: b.crn,
        restoreCreationTime: iso(h.ctx.clock.now()),
        restoreJob: `restore-${rec.id.slice(0, 8)}`,
        includedNamespaces: restoring,
        excludedResources: [],
        successConditions: [],
      };
    },
    show: jobView('restore'),
  },
};

/** `backups logs`: the job log of a backup, a restore or a backup deletion. */
export function getLogs(h: Hook, req: Doc): Doc {
  const ref = text(req.crn);
  const line = (at: number, what: string): string => `${iso(at)} ${what}`;
  const logs = (lines: string[]): Doc => ({ logs: lines.join('\n') + '\n' });
  for (const key of ['backup', 'restore'] as const) {
    const rec = h.records(key).find(ref);
    if (rec) return logs(actionEvents(h, key, rec, key).map((e) => line(e.at, `${e.event}: ${e.message}`)));
  }
  const deletion = h.ctx.store.get<Deletion>(DELETION_KIND, ref);
  if (!deletion) throw notFound(`no backup, restore or backup deletion has the CRN ${ref.slice(0, 200)}`);
  const what = `backup ${deletion.backupName || deletion.backupCrn}`;
  const gone = !h.records('backup').find(deletion.backupCrn);
  return logs([
    line(deletion.at, `DeleteRequested: ${what}`),
    ...(gone ? [line(deletion.at + DELETE_MS, `DeleteCompleted: ${what} removed`)] : []),
  ]);
}
