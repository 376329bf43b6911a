/**
 * Archiving the audit trail, in the two ways the API has. Automated
 * archiving (`configureArchiving` with enabled): the service archives a
 * time range itself (`archiveAuditEvents`), one archive run per batch of
 * events, to the configured storage. Archiving by the caller (when
 * automated archiving is off): a task cuts a time range into batches
 * (`batchEventsForArchiving`); the caller lists each batch's events, writes
 * them wherever it archives, and marks the batch successful, after which
 * its events can no longer be listed from it. An event goes into one batch
 * only. Tasks and runs are records of the engine whose states are the
 * model's (OPEN, CREATED) for emulated minutes before they end; a storage
 * location starting with `fail-` fails every run to it.
 */
import type { resources } from '../../../model/services/audit/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { failsOnPurpose } from '../../engine/timeline.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { bool, iso, num, str, strings, text } from '../../values.js';
import { EVENT_KIND, EventLog, type EventRecord } from './events.js';

export type R = keyof typeof resources.resources;

/** Events per batch. */
export const BATCH_SIZE = 1000;

/** What the fail- rule knows a storage location by: every run to a `fail-` location fails. */
const RUN_ACTIONS = ['archive'];

/** A batch as kept beside its view: its task, the store positions of its first and last events, when it is ready. */
interface BatchData {
  taskId: string;
  /** Store positions of its first and last events. */
  first: number;
  last: number;
  /** When its task ends: from then on the batch exists for the caller. */
  readyAt: number;
  /** Archived by an archive run (automated archiving), not by the caller. */
  automated: boolean;
  markedAt?: number;
}

/** A task: batching events for the caller (`batch`), or archiving them (`archive`), and the batches it cut. */
interface TaskData {
  kind: 'batch' | 'archive';
  archiveIds: string[];
}

const now = (h: Hook<R>): number => h.ctx.clock.now();
const batchData = (b: Readonly<EngineRecord>): BatchData => b.data as unknown as BatchData;
const taskData = (t: Readonly<EngineRecord>): TaskData => t.data as unknown as TaskData;

// ---- configuration -------------------------------------------------------------

/** The configuration's fields: a configure sets all of them (a storage region left out is none). */
const CONFIG_FIELDS = ['storageLocation', 'credentialName', 'enabled', 'storageRegion'];

/** The account's archiving configuration, once one names its storage (the engine's one record an account: `perAccount`). */
export function config(h: Hook<R>): Doc | undefined {
  const doc = h.records('config').byId(h.ctx.info.accountId)?.doc;
  return str(doc?.storageLocation) ? doc : undefined;
}

const automated = (h: Hook<R>): boolean => config(h)?.enabled === true;

/** A configuration's check: the storage named, the credential one of the account's; one only verified must be writable. */
export function checkArchiving(h: Hook<R>, _rec: Readonly<EngineRecord>, req: Doc): void {
  const location = text(req.storageLocation);
  if (location.trim() === '') throw invalid('storageLocation must name the storage, e.g. an S3 bucket');
  const ref = text(req.credentialName);
  const envs = h.world.environments;
  const names = envs.credentials().map((c) => c.credentialName);
  if (!envs.credential(ref)) throw notFound(`credential ${ref.slice(0, 200)} not found; this account has ${names.join(', ') || 'none'}`);
  if (bool(req.verifyOnly) && failsOnPurpose(location, 'archive', RUN_ACTIONS))
    throw failedPrecondition(
      `storage ${location} cannot be written with credential ${ref}: access denied (the location starts with "fail-")`,
    );
}

/** What a configure sets: every field (a region left out is none); one only verified keeps the configuration as it was. */
export function configured(h: Hook<R>, _rec: Readonly<EngineRecord>, req: Doc): Doc {
  const was = bool(req.verifyOnly) ? (h.records('config').byId(h.ctx.info.accountId)?.doc ?? { enabled: false }) : req;
  return Object.fromEntries(CONFIG_FIELDS.map((f) => [f, was[f]]));
}

// ---- tasks -----------------------------------------------------------------------

/** The newest task of a kind (one of a kind runs at a time: only the newest can be open). */
const latest = (h: Hook<R>, kind: TaskData['kind']): EngineRecord | undefined =>
  h
    .records('task')
    .all()
    .filter((t) => taskData(t).kind === kind)
    .pop();

/** One task of a kind at a time. */
function refuseBusy(h: Hook<R>, kind: TaskData['kind'], what: string): void {
  const open = latest(h, kind);
  if (open && h.records('task').busy(open))
    throw failedPrecondition(`${what} task ${open.id} is still in progress; wait for it to end (its status is OPEN)`);
}

/** Tasks are open a minute, and a minute more per batch; the runs of an archive task last as long. */
const taskMinutes = (batches: readonly unknown[]): number => 1 + batches.length;

/** A batch cut from the events, before its task stores it. */
interface NewBatch {
  readonly archiveId: string;
  eventCount: number;
  readonly data: Omit<BatchData, 'taskId' | 'readyAt'>;
}

/** Stores a task and the batches it cut, each ready when the task ends. */
function newTask(
  h: Hook<R>,
  kind: TaskData['kind'],
  cutOut: readonly NewBatch[],
  fail: boolean,
): { task: EngineRecord; batches: EngineRecord[] } {
  const tasks = h.records('task');
  const taskId = `${kind === 'archive' ? 'archive' : 'batch'}-${uuid()}`;
  const eventCount = cutOut.reduce((n, b) => n + b.eventCount, 0);
  const data: TaskData = { kind, archiveIds: cutOut.map((b) => b.archiveId) };
  const minutes = taskMinutes(cutOut);
  const made = tasks.create({ id: taskId, scope: '', doc: { eventCount }, data: { ...data } }, 'run', { minutes, fail });
  const readyAt = tasks.progress(made).endsAt;
  const all = h.records('batch');
  const batches = cutOut.map((b) =>
    all.create({
      id: b.archiveId,
      scope: '',
      doc: { archiveId: b.archiveId, eventCount: b.eventCount },
      data: { ...b.data, taskId, readyAt },
    }),
  );
  return { task: made, batches };
}

/** The events of [from, to) not in a batch yet, cut into batches; `mark` files each event under its batch. */
function cut(h: Hook<R>, from: number, to: number, isAutomated: boolean, mark: boolean): NewBatch[] {
  const events = new EventLog(h.ctx.store);
  const batches: NewBatch[] = [];
  let current: NewBatch | undefined;
  for (const row of events.each(from, to)) {
    if (row.doc.archiveId) continue;
    if (!current || current.eventCount === BATCH_SIZE) {
      current = { archiveId: uuid(), eventCount: 0, data: { first: row.seq, last: row.seq, automated: isAutomated } };
      batches.push(current);
    }
    current.eventCount++;
    current.data.last = row.seq;
    if (mark) events.save(row.id, { ...row.doc, archiveId: current.archiveId });
  }
  return batches;
}

/** A task's status now (OPEN, COMPLETED, FAILED). */
const statusOf = (h: Hook<R>, t: Readonly<EngineRecord>): string => h.records('task').state(t as EngineRecord);

/** The batches of a task, as the API shows them. */
const batchesOf = (h: Hook<R>, t: Readonly<EngineRecord>): Doc[] =>
  taskData(t)
    .archiveIds.map((id) => h.records('batch').byId(id))
    .filter((b): b is EngineRecord => b !== undefined)
    .map((b) => h.records('batch').view(b));

/** Archives [from, to) to the configured storage: a task, and an archive run per batch. */
export function archiveAuditEvents(h: Hook<R>, req: Doc): Doc {
  const { from, to } = range(req);
  const conf = config(h);
  if (!conf) throw failedPrecondition('archiving is not configured; configure it with: cdpctl audit archiving configure');
  if (!conf.enabled) throw failedPrecondition('archiving is disabled; enable it with: cdpctl audit archiving configure --enabled');
  refuseBusy(h, 'archive', 'an archive');
  const location = String(conf.storageLocation);
  const fail = failsOnPurpose(location, 'archive', RUN_ACTIONS);
  // A run that fails archives nothing: its events stay unarchived for the next run.
  const { task: t, batches } = newTask(h, 'archive', cut(h, from, to, true, !fail), fail);
  const runs = h.records('run');
  for (const b of batches) {
    const runId = uuid();
    const data = { eventCount: b.doc.eventCount, storageLocation: location };
    runs.create({ id: runId, scope: '', doc: { runId, archiveId: b.id }, data }, 'archive', { minutes: taskMinutes(batches), fail });
  }
  return { taskId: t.id, eventCount: t.doc.eventCount, eventBatches: batches.map((b) => h.records('batch').view(b)) };
}

/** An archive task's status, and once it has completed, what it archived. */
export function archivingStatus(h: Hook<R>, t: Readonly<EngineRecord>): Doc {
  const status = statusOf(h, t);
  return { status, ...(status === 'COMPLETED' ? { eventCount: t.doc.eventCount, eventBatches: batchesOf(h, t) } : {}) };
}

/** Cuts [from, to) into batches for the caller to archive (automated archiving off, one task at a time). */
export function batchEventsForArchiving(h: Hook<R>, req: Doc): Doc {
  const { from, to } = range(req);
  refuseAutomated(h, 'batching events');
  refuseBusy(h, 'batch', 'a batching');
  return { taskId: newTask(h, 'batch', cut(h, from, to, false, true), false).task.id };
}

/** getBatchEventsForArchivingStatus reads the task named, or the newest that batched events (refused while automated archiving is on). */
export function newestBatching(h: Hook<R>, sent: Doc): Doc {
  refuseAutomated(h, 'batching events');
  const taskId = str(sent.taskId) ?? latest(h, 'batch')?.id;
  if (!taskId) throw notFound('no task has batched events for archiving yet; start one with: cdpctl audit archive-batches create');
  return { taskId };
}

/** A batching task's status, and once it has completed, the batches it cut. */
export function batchingStatus(h: Hook<R>, t: Readonly<EngineRecord>): Doc {
  const status = statusOf(h, t);
  return { status, ...(status === 'COMPLETED' ? { eventBatches: batchesOf(h, t) } : {}) };
}

/** Refuses what only the caller's archiving does while automated archiving is on. */
function refuseAutomated(h: Hook<R>, what: string): void {
  if (automated(h))
    throw failedPrecondition(
      `${what} is disabled while automated archiving is configured; turn it off with: cdpctl audit archiving configure --no-enabled`,
    );
}

// ---- batches ---------------------------------------------------------------------

/** A batch of the caller's archiving that is ready (as found: `rec`), or the reason it cannot be used. */
function outstanding(h: Hook<R>, archiveId: string, what: string, rec?: Readonly<EngineRecord>): Readonly<EngineRecord> {
  refuseAutomated(h, what);
  const b = rec ?? h.records('batch').byId(archiveId);
  if (!b || batchData(b).automated) throw notFound(`archive batch ${archiveId.slice(0, 200)} not found`);
  if (batchData(b).readyAt > now(h))
    throw failedPrecondition(`archive batch ${archiveId} is still being made by task ${batchData(b).taskId}`);
  return b;
}

/** listOutstandingArchiveBatches: the batches of the caller's archiving not marked yet whose time is in [from, to). */
export function outstandingBatches(h: Hook<R>, req: Doc): EngineRecord[] {
  refuseAutomated(h, 'listing archive batches');
  const { from, to } = range(req);
  const at = now(h);
  return h
    .records('batch')
    .all()
    .filter((b) => {
      const d = batchData(b);
      return !d.automated && d.markedAt === undefined && d.readyAt <= at && d.readyAt >= from && d.readyAt < to;
    });
}

/** listEventsInArchiveBatch's request, read only while automated archiving is off. */
export function whileManual(h: Hook<R>, sent: Doc): Doc {
  refuseAutomated(h, 'listing the events of a batch');
  return sent;
}

/** The events of an outstanding batch, to write to the caller's archive. */
export function eventsInBatch(h: Hook<R>, rec: Readonly<EngineRecord>): Doc {
  const archiveId = rec.id;
  const b = batchData(outstanding(h, archiveId, 'listing the events of a batch', rec));
  if (b.markedAt !== undefined)
    throw failedPrecondition(`archive batch ${archiveId} was marked as archived at ${iso(b.markedAt)}; its events can no longer be listed`);
  const out: Doc[] = [];
  for (let p = b.first - 1; p < b.last;) {
    const rows = h.ctx.store.list<EventRecord>(EVENT_KIND, p, 500);
    for (const row of rows) if (row.seq <= b.last && row.doc.archiveId === archiveId) out.push(row.doc.event);
    const last = rows[rows.length - 1];
    if (rows.length < 500 || !last) break;
    p = last.seq;
  }
  return { auditEvents: out };
}

/** Marks batches as archived by the caller, all or none; marking one again changes nothing. */
export function markArchiveBatchesAsSuccessful(h: Hook<R>, req: Doc): Doc {
  const ids = strings(req.archiveIds);
  if (ids.length === 0) throw invalid('give the archiveIds of the batches to mark (see: cdpctl audit archive-batches list)');
  const batches = ids.map((id) => outstanding(h, id, 'marking archive batches'));
  const at = now(h);
  for (const b of batches) {
    if (batchData(b).markedAt !== undefined) continue;
    h.records('batch').save({ ...b, data: { ...b.data, markedAt: at } });
  }
  return { archiveIds: ids, archiveTimestamp: new Date(at).toISOString() };
}

/** What a batch shows beyond its count and id: its account, and when it was marked archived, or became ready. */
export function showBatch(h: Hook<R>, b: Readonly<EngineRecord>): Doc {
  const d = batchData(b);
  return { accountId: h.ctx.info.accountId, archiveTimestamp: d.markedAt ?? d.readyAt };
}

// ---- runs ------------------------------------------------------------------------

/** listRecentArchiveRuns: the newest runs first, at most `limit`. */
export function recentRuns(h: Hook<R>, req: Doc): EngineRecord[] {
  const limit = num(req.limit) ?? 20;
  if (limit < 1) throw invalid('limit must be 1 or more');
  return h.records('run').all().reverse().slice(0, limit);
}

/** What a run shows beyond its id, batch and status: its account, and what it archived where, read off the clock. */
export function showRun(h: Hook<R>, r: Readonly<EngineRecord>): Doc {
  const p = h.records('run').progress(r);
  const { eventCount, storageLocation } = r.data as { eventCount: number; storageLocation: string };
  return {
    accountId: h.ctx.info.accountId,
    summary: p.failed
      ? `archiving ${eventCount} events to ${storageLocation} failed`
      : p.done
        ? `archived ${eventCount} events to ${storageLocation}`
        : `archiving ${eventCount} events to ${storageLocation}`,
    ...(p.failed ? { details: `archive failed on purpose: the storage location starts with "fail-"` } : {}),
    creationTimestamp: iso(r.activity.tl.startedAt),
    ...(p.succeeded ? { archiveTimestamp: iso(p.endsAt) } : {}),
  };
}

// ---- requests --------------------------------------------------------------------

/** A time of a request (checked against the model as a date-time), in ms. */
const time = (v: unknown, fallback: number): number => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? fallback : t;
};

/** A request's time range; from must not be after to. */
export function range(req: Doc): { from: number; to: number } {
  const from = time(req.fromTimestamp, 0);
  const to = time(req.toTimestamp, Number.MAX_SAFE_INTEGER);
  if (from > to) throw invalid('fromTimestamp must not be after toTimestamp');
  return { from, to };
}
