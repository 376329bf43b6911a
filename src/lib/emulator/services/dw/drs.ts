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
import type { EngineRecord, Hook, ResourceSpec } from '../../engine/index.js';
import { crn, stableUuid } from '../../ids.js';
import type { Lifecycle } from '../../lifecycle.js';
import type { Doc } from '../../types.js';
import { str, strings, text } from '../../values.js';
import { statusSince } from './common.js';
import { actionEvents } from './events.js';
import { WORKLOAD } from './warehouses.js';

const BACKUP: Lifecycle = {
  create: {
    phases: [
      ['NOT_STARTED', 0.5],
      ['IN_PROGRESS', 4],
    ],
    success: 'COMPLETED',
    failure: 'FAILED',
  },
  // A restore taken from it: instant, and only from a backup that completed.
  restore: { from: ['COMPLETED'], phases: [] },
  delete: { phases: [['TERMINATING', 1]], success: 'DELETED', removes: true },
};

/** How long a backup's deletion takes. */
const DELETE_MS = (BACKUP.delete?.phases ?? []).reduce((t, [, m]) => t + m, 0) * 60_000;

const RESTORE: Lifecycle = {
  create: {
    phases: [
      ['NOT_STARTED', 0.5],
      ['IN_PROGRESS', 5],
    ],
    success: 'COMPLETED',
    failure: 'FAILED',
  },
};

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

interface Deletion {
  crn: string;
  backupCrn: string;
  backupName: string;
  at: number;
}

/** The namespaces of the Data Warehouse: one per catalog, warehouse and visualization of every cluster. */
export function namespaces(h: Hook): string[] {
  return ['dbc', 'vw', 'dataVisualization'].flatMap((key) =>
    h
      .resources(key)
      .all()
      .map((r) => r.id),
  );
}

export function listBackupEntities(h: Hook): Doc {
  return { items: namespaces(h) };
}

/** A job's state filter: the records whose job is in one of the states (all when none are given). */
const inStates = (h: Hook, key: string, states: readonly string[]) => (rec: EngineRecord) =>
  states.length === 0 || states.includes(h.resources(key).state(rec));

/** The fields a backup or restore computes as it is shown: phase, last update, errors of a failure. */
function jobView(prefix: 'backup' | 'restore') {
  return (h: Hook, rec: EngineRecord, view: Doc): Doc => {
    const state = String(view[`${prefix}JobState`] ?? '');
    const p = h.resources(prefix).progress(rec);
    const when = statusSince(h, rec);
    return {
      [`${prefix}Phase`]: PHASE[state] ?? state,
      [`${prefix}UpdatedTime`]: when,
      warnings: [],
      errors: p.failed ? [{ text: rec.activity.reason ?? `${prefix} failed`, timestamp: when, namespace: '' }] : [],
    };
  };
}

export const backup: ResourceSpec = {
  noun: 'backup',
  nouns: ['Backup'],
  keys: ['backupCrn'],
  status: 'backupJobState',
  lifecycle: BACKUP,
  uniqueNames: false,
  ops: {
    listBackups: {
      verb: 'list',
      select: (h, req) => {
        const name = str(req.backupName)?.toLowerCase();
        return h
          .resources('backup')
          .all('')
          .filter((b) => (!name || b.name?.toLowerCase() === name) && inStates(h, 'backup', strings(req.jobStates))(b));
      },
    },
    deleteBackup: {
      verb: 'delete',
      answer: (h, rec) => {
        const deletion: Deletion = {
          // Its CRN's resource type is the facts' (deleteBackupRequest, as CDP's CRN types write it).
          crn: crn('dw', h.ctx.info.region, h.ctx.info.accountId, facts.resources.backupDeletion.crnType, stableUuid(`${rec.id}/delete`)),
          backupCrn: rec.crn ?? '',
          backupName: rec.name ?? '',
          at: h.ctx.clock.now(),
        };
        h.ctx.store.put(DELETION_KIND, deletion.crn, deletion, { crn: deletion.crn });
        return { deleteBackupCrn: deletion.crn };
      },
    },
  },
  hooks: {
    creating: (h, rec, req) => {
      const all = namespaces(h);
      const asked = strings(req.namespaceNames);
      const unknown = asked.filter((n) => !all.includes(n));
      if (unknown.length > 0)
        throw invalid(
          `${unknown.join(', ')}: not a namespace of the Data Warehouse; see \`dw backups list-entities\` (${all.join(', ') || 'none'})`,
        );
      const now = new Date(h.ctx.clock.now()).toISOString();
      Object.assign(rec.doc, {
        backupName: rec.name ?? '',
        backupCreationTime: now,
        backupJob: `backup-${rec.id.slice(0, 8)}`,
        includedNamespaces: asked.length > 0 ? asked : all,
      });
    },
    viewing: jobView('backup'),
  },
};

/** What a restore does to one namespace: with `rebuild`, the catalog or warehouse there is rebuilt. */
function planFor(h: Hook, namespace: string, rebuild: boolean): { kind: string; entry: Doc } {
  for (const [key, kind] of [
    ['dbc', 'dbc'],
    ['vw', ''],
    ['dataVisualization', 'viz'],
  ] as const) {
    const rec = h.resources(key).byId(namespace);
    if (!rec) continue;
    const k = kind || (rec.doc.vwType === 'impala' ? 'impala' : 'hive');
    const all = h.resources(key);
    const from = WORKLOAD.rebuild?.from ?? [];
    if (rebuild && key !== 'dataVisualization' && !all.busy(rec) && from.includes(all.state(rec))) {
      all.begin(rec, 'rebuild');
      return { kind: k, entry: { ref: namespace, id: rec.id, action: 'Update', message: `restored and rebuilding ${rec.name ?? rec.id}` } };
    }
    return { kind: k, entry: { ref: namespace, id: rec.id, action: 'Update', message: `restored ${rec.name ?? rec.id}` } };
  }
  return { kind: 'dbc', entry: { ref: namespace, action: 'Skip', message: `${namespace} is no longer in the Data Warehouse` } };
}

export const restore: ResourceSpec = {
  noun: 'restore',
  nouns: ['Restore'],
  keys: ['restoreCrn'],
  status: 'restoreJobState',
  lifecycle: RESTORE,
  subject: (rec) => str(rec.data?.backupName),
  ops: {
    restoreBackup: {
      verb: 'create',
      answer: (_h, rec) => ({
        restoreCrn: rec.crn,
        message: String(rec.data?.message ?? ''),
        ...(rec.data?.plan ? { restorePlan: rec.data.plan } : {}),
      }),
    },
    listRestores: {
      verb: 'list',
      select: (h, req) => {
        const of = str(req.backupCrn);
        return h
          .resources('restore')
          .all('')
          .filter((r) => (!of || r.doc.backupCrn === of) && inStates(h, 'restore', strings(req.jobStates))(r));
      },
    },
  },
  hooks: {
    creating: (h, rec, req) => {
      const backups = h.resources('backup');
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
      for (const n of restoring) {
        const { kind, entry } = planFor(h, n, rebuild);
        (plan[kind] ??= []).push(entry);
      }
      Object.assign(rec.doc, {
        backupCrn: b.crn,
        restoreCreationTime: new Date(h.ctx.clock.now()).toISOString(),
        restoreJob: `restore-${rec.id.slice(0, 8)}`,
        includedNamespaces: restoring,
        excludedResources: [],
        successConditions: [],
      });
      rec.data = {
        ...rec.data,
        backupName: b.name ?? '',
        message: `restoring ${restoring.length} namespace(s) from backup ${b.name || b.id}${rebuild ? ', rebuilding them' : ''}`,
        ...(rebuild ? { plan: { ...plan, dwxSecrets: [] } } : {}),
      };
    },
    viewing: jobView('restore'),
  },
};

/** `backups logs`: the job log of a backup, a restore or a backup deletion. */
export function getLogs(h: Hook, req: Doc): Doc {
  const ref = text(req.crn);
  const line = (at: number, what: string): string => `${new Date(at).toISOString()} ${what}`;
  for (const key of ['backup', 'restore'] as const) {
    const rec = h.resources(key).find(ref);
    if (rec)
      return {
        logs:
          actionEvents(h, key, rec, key)
            .map((e) => line(e.at, `${e.event}: ${e.message}`))
            .join('\n') + '\n',
      };
  }
  const deletion = h.ctx.store.get<Deletion>(DELETION_KIND, ref);
  if (deletion) {
    const gone = !h.resources('backup').find(deletion.backupCrn);
    return {
      logs:
        [
          line(deletion.at, `DeleteRequested: backup ${deletion.backupName || deletion.backupCrn}`),
          ...(gone ? [line(deletion.at + DELETE_MS, `DeleteCompleted: backup ${deletion.backupName || deletion.backupCrn} removed`)] : []),
        ].join('\n') + '\n',
    };
  }
  throw notFound(`no backup, restore or backup deletion has the CRN ${ref.slice(0, 200)}`);
}
