/**
 * The audit service: every mutating call of every service the emulator
 * served or refused becomes an audit event (the module observes calls, see
 * CallObserver), without the request fields the model marks secret. Events
 * are searched by time range, source, name, actor, request, result and API
 * request details (events.ts), and archived in the two ways the API has.
 * Automated archiving (`configureArchiving` with enabled): the service
 * archives a time range itself (`archiveAuditEvents`), one archive run per
 * batch of events, to the configured storage. Archiving by the caller (when
 * automated archiving is off): a task cuts a time range into batches
 * (`batchEventsForArchiving`); the caller lists each batch's events, writes
 * them wherever it archives, and marks the batch successful, after which its
 * events can no longer be listed from it. An event goes into one batch only.
 * Tasks and runs are records of the engine whose states are the model's
 * (OPEN, CREATED) for emulated minutes before they end; a storage location
 * starting with `fail-` fails every run to it.
 */
import type { OperationName } from '../../../model/services/audit/wire.js';
import { resources } from '../../../model/services/audit/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { code, defineService } from '../../engine/table.js';
import { paged } from '../../engine/paging.js';
import { failsOnPurpose } from '../../engine/timeline.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { bool, iso, num, obj, str, strings, text } from '../../values.js';
import { EventLog, type EventRecord } from './events.js';

type R = keyof typeof resources.resources;

/** The criteria a criteria object gives: its non-empty string fields. */
const criteria = (v: unknown): Array<[string, string]> =>
  Object.entries(obj(v)).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '');

/** Which events a search keeps, besides its time range and source. */
function eventFilter(req: Doc): (rec: EventRecord) => boolean {
  const tests: Array<(rec: EventRecord) => boolean> = [];
  for (const field of ['requestId', 'eventName', 'actorCrn', 'resultCode', 'resultMessage']) {
    const want = str(req[field]);
    // The actor is the one field an event holds deeper.
    const value = (e: Doc): unknown => (field === 'actorCrn' ? obj(e.actorIdentity).actorCrn : e[field]);
    if (want !== undefined) tests.push((r) => value(r.event) === want);
  }
  // Criteria of one kind of event keep only events of that kind that match them all.
  for (const part of ['apiRequestEvent', 'interactiveLoginEvent']) {
    const want = criteria(req[`${part}Criteria`]);
    if (want.length > 0) tests.push(({ event: e }) => e[part] !== undefined && want.every(([k, v]) => obj(e[part])[k] === v));
  }
  const resource = str(obj(req.cdpServiceEventCriteria).resourceCrn);
  if (resource)
    tests.push((r) => (r.crns ?? []).includes(resource) || strings(obj(r.event.cdpServiceEvent).resourceCrns).includes(resource));
  return (rec) => tests.every((t) => t(rec));
}

/** Events of a time range (of one source), found by the search's criteria, paged; one request's event by its id. */
function listEvents(h: Hook<R>, req: Doc): Doc {
  const { from, to } = range(req);
  const keep = eventFilter(req);
  const requestId = str(req.requestId);
  const source = str(req.eventSource);
  const events = new EventLog(h.ctx.store);
  const inRange = (rec: EventRecord): boolean => rec.event.timestamp >= from && rec.event.timestamp < to;
  if (requestId !== undefined) {
    const rec = events.byRequest(requestId);
    const hits = rec && inRange(rec) && keep(rec) && (source === undefined || rec.event.eventSource === source) ? [rec.event] : [];
    return paged(h.ctx, req, hits);
  }
  return paged(h.ctx, req, events.range(from, to, keep, source), (row) => row.doc.event);
}

/** Events per batch. */
const BATCH_SIZE = 1000;

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

const batchData = (b: Readonly<EngineRecord>): BatchData => b.data as unknown as BatchData;
const taskData = (t: Readonly<EngineRecord>): TaskData => t.data as unknown as TaskData;

// ---- configuration -------------------------------------------------------------

/** The configuration's fields: a configure sets all of them (a storage region left out is none). */
const CONFIG_FIELDS = ['storageLocation', 'credentialName', 'enabled', 'storageRegion'];

/** The account's archiving configuration, once one names its storage (the engine's one record an account: `perAccount`). */
function config(h: Hook<R>): Doc | undefined {
  const doc = h.records('config').byId(h.ctx.info.accountId)?.doc;
  return str(doc?.storageLocation) ? doc : undefined;
}

const automated = (h: Hook<R>): boolean => config(h)?.enabled === true;

/** A configuration's check: the storage named, the credential one of the account's; one only verified must be writable. */
function checkArchiving(h: Hook<R>, _rec: Readonly<EngineRecord>, req: Doc): void {
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
function configured(h: Hook<R>, _rec: Readonly<EngineRecord>, req: Doc): Doc {
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

/**
 * Stores a task and the batches it cut of the events of [from, to) not in a
 * batch yet, each ready when the task ends. A task is open a minute, and a
 * minute more per batch. A task that fails batches nothing: its events stay
 * free for the next one.
 */
function newTask(h: Hook<R>, kind: TaskData['kind'], from: number, to: number, fail = false) {
  const events = new EventLog(h.ctx.store);
  const cut: Array<{ archiveId: string; eventCount: number; first: number; last: number }> = [];
  for (const row of events.each(from, to)) {
    if (row.doc.archiveId) continue;
    let b = cut[cut.length - 1];
    if (!b || b.eventCount === BATCH_SIZE) cut.push((b = { archiveId: uuid(), eventCount: 0, first: row.seq, last: row.seq }));
    b.eventCount++;
    b.last = row.seq;
    if (!fail) events.save(row.id, { ...row.doc, archiveId: b.archiveId });
  }
  const tasks = h.records('task');
  const taskId = `${kind}-${uuid()}`;
  const eventCount = cut.reduce((n, b) => n + b.eventCount, 0);
  const data: TaskData = { kind, archiveIds: cut.map((b) => b.archiveId) };
  const task = tasks.create({ id: taskId, scope: '', doc: { eventCount }, data: { ...data } }, 'run', { minutes: 1 + cut.length, fail });
  const readyAt = tasks.progress(task).endsAt;
  const batches = cut.map(({ archiveId, eventCount, first, last }) =>
    h.records('batch').create({
      id: archiveId,
      scope: '',
      doc: { archiveId, eventCount },
      data: { first, last, automated: kind === 'archive', taskId, readyAt },
    }),
  );
  return { task, batches };
}

/** The batches of a task, as the API shows them. */
const batchesOf = (h: Hook<R>, t: Readonly<EngineRecord>): Doc[] =>
  taskData(t)
    .archiveIds.map((id) => h.records('batch').byId(id))
    .filter((b): b is EngineRecord => b !== undefined)
    .map((b) => h.records('batch').view(b));

/** Archives [from, to) to the configured storage: a task, and an archive run per batch. */
function archiveAuditEvents(h: Hook<R>, req: Doc): Doc {
  const { from, to } = range(req);
  const conf = config(h);
  if (!conf) throw failedPrecondition('archiving is not configured; configure it with: cdpctl audit archiving configure');
  if (!conf.enabled) throw failedPrecondition('archiving is disabled; enable it with: cdpctl audit archiving configure --enabled');
  refuseBusy(h, 'archive', 'an archive');
  const location = String(conf.storageLocation);
  const fail = failsOnPurpose(location, 'archive', RUN_ACTIONS);
  const { task: t, batches } = newTask(h, 'archive', from, to, fail);
  const runs = h.records('run');
  for (const b of batches) {
    const runId = uuid();
    const data = { eventCount: b.doc.eventCount, storageLocation: location };
    // Runs last as long as their task.
    runs.create({ id: runId, scope: '', doc: { runId, archiveId: b.id }, data }, 'archive', { minutes: 1 + batches.length, fail });
  }
  return { taskId: t.id, eventCount: t.doc.eventCount, eventBatches: batches.map((b) => h.records('batch').view(b)) };
}

/** A task's status, and once it has completed, the batches it cut (and for an archive task, how many events). */
const taskStatus =
  (counted: boolean) =>
  (h: Hook<R>, t: Readonly<EngineRecord>): Doc => {
    const status = h.records('task').state(t as EngineRecord);
    if (status !== 'COMPLETED') return { status };
    return { status, ...(counted ? { eventCount: t.doc.eventCount } : {}), eventBatches: batchesOf(h, t) };
  };

/** Cuts [from, to) into batches for the caller to archive (automated archiving off, one task at a time). */
function batchEventsForArchiving(h: Hook<R>, req: Doc): Doc {
  const { from, to } = range(req);
  refuseAutomated(h, 'batching events');
  refuseBusy(h, 'batch', 'a batching');
  return { taskId: newTask(h, 'batch', from, to).task.id };
}

/** getBatchEventsForArchivingStatus reads the task named, or the newest that batched events (refused while automated archiving is on). */
function newestBatching(h: Hook<R>, sent: Doc): Doc {
  refuseAutomated(h, 'batching events');
  const taskId = str(sent.taskId) ?? latest(h, 'batch')?.id;
  if (!taskId) throw notFound('no task has batched events for archiving yet; start one with: cdpctl audit archive-batches create');
  return { taskId };
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
function outstanding(h: Hook<R>, archiveId: string, b: Readonly<EngineRecord> | undefined = h.records('batch').byId(archiveId)) {
  if (!b || batchData(b).automated) throw notFound(`archive batch ${archiveId.slice(0, 200)} not found`);
  if (batchData(b).readyAt > h.ctx.clock.now())
    throw failedPrecondition(`archive batch ${archiveId} is still being made by task ${batchData(b).taskId}`);
  return b;
}

/** listOutstandingArchiveBatches: the batches of the caller's archiving not marked yet whose time is in [from, to). */
function outstandingBatches(h: Hook<R>, req: Doc): EngineRecord[] {
  refuseAutomated(h, 'listing archive batches');
  const { from, to } = range(req);
  const at = h.ctx.clock.now();
  return h
    .records('batch')
    .all()
    .filter((b) => {
      const d = batchData(b);
      return !d.automated && d.markedAt === undefined && d.readyAt <= at && d.readyAt >= from && d.readyAt < to;
    });
}

/** listEventsInArchiveBatch's request, read only while automated archiving is off. */
function whileManual(h: Hook<R>, sent: Doc): Doc {
  refuseAutomated(h, 'listing the events of a batch');
  return sent;
}

/** The events of an outstanding batch, to write to the caller's archive. */
function eventsInBatch(h: Hook<R>, rec: Readonly<EngineRecord>): Doc {
  const archiveId = rec.id;
  const b = batchData(outstanding(h, archiveId, rec));
  if (b.markedAt !== undefined)
    throw failedPrecondition(`archive batch ${archiveId} was marked as archived at ${iso(b.markedAt)}; its events can no longer be listed`);
  const events = [...new EventLog(h.ctx.store).at(b.first, b.last)].filter((row) => row.doc.archiveId === archiveId);
  return { auditEvents: events.map((row) => row.doc.event) };
}

/** Marks batches as archived by the caller, all or none; marking one again changes nothing. */
function markArchiveBatchesAsSuccessful(h: Hook<R>, req: Doc): Doc {
  const ids = strings(req.archiveIds);
  if (ids.length === 0) throw invalid('give the archiveIds of the batches to mark (see: cdpctl audit archive-batches list)');
  refuseAutomated(h, 'marking archive batches');
  const batches = ids.map((id) => outstanding(h, id));
  const at = h.ctx.clock.now();
  for (const b of batches) if (batchData(b).markedAt === undefined) h.records('batch').save({ ...b, data: { ...b.data, markedAt: at } });
  return { archiveIds: ids, archiveTimestamp: new Date(at).toISOString() };
}

/** What a batch shows beyond its count and id: its account, and when it was marked archived, or became ready. */
function showBatch(h: Hook<R>, b: Readonly<EngineRecord>): Doc {
  const d = batchData(b);
  return { accountId: h.ctx.info.accountId, archiveTimestamp: d.markedAt ?? d.readyAt };
}

// ---- runs ------------------------------------------------------------------------

/** listRecentArchiveRuns: the newest runs first, at most `limit`. */
function recentRuns(h: Hook<R>, req: Doc): EngineRecord[] {
  const limit = num(req.limit) ?? 20;
  if (limit < 1) throw invalid('limit must be 1 or more');
  return h.records('run').all().reverse().slice(0, limit);
}

/** What a run shows beyond its id, batch and status: its account, and what it archived where, read off the clock. */
function showRun(h: Hook<R>, r: Readonly<EngineRecord>): Doc {
  const p = h.records('run').progress(r);
  const { eventCount, storageLocation } = r.data as { eventCount: number; storageLocation: string };
  const what = `${eventCount} events to ${storageLocation}`;
  return {
    accountId: h.ctx.info.accountId,
    summary: p.failed ? `archiving ${what} failed` : p.done ? `archived ${what}` : `archiving ${what}`,
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
function range(req: Doc): { from: number; to: number } {
  const from = time(req.fromTimestamp, 0);
  const to = time(req.toTimestamp, Number.MAX_SAFE_INTEGER);
  if (from > to) throw invalid('fromTimestamp must not be after toTimestamp');
  return { from, to };
}

/**
 * Tasks, batches and runs are the engine's records: their statuses and
 * listings are reads, what they show beyond their records their `show`.
 * The configuration is the account's one record (`perAccount`). Code:
 * events are a log searched by time, source and criteria (events.ts), not
 * records a verb reads; the tasks that cut a time range into batches (and
 * runs) make several records at once; marking batches is all or none.
 */
export default defineService<OperationName>()({
  service: 'audit',
  facts: resources,
  resources: {
    task: { noun: 'archiving task', keys: ['taskId'] },
    batch: { noun: 'archive batch', keys: ['archiveId'], hooks: { show: showBatch } },
    run: { noun: 'archive run', keys: ['runId'], hooks: { show: showRun } },
    // The account's one configuration: read as `enabled: false` until a configure makes it.
    config: {
      noun: 'archiving configuration',
      keys: [],
      perAccount: () => ({ enabled: false }),
      hooks: { check: { update: checkArchiving }, effect: { update: configured } },
    },
  },
  observe: (call, scope) => new EventLog(scope.store).record(call),
  operations: (r) => ({
    listEvents: code(listEvents),
    getArchivingConfig: r.config.read(),
    configureArchiving: r.config.update(),
    archiveAuditEvents: code(archiveAuditEvents),
    getArchivingStatus: r.task.read({ answer: taskStatus(true) }),
    listRecentArchiveRuns: r.run.list({ select: recentRuns }),
    batchEventsForArchiving: code(batchEventsForArchiving),
    getBatchEventsForArchivingStatus: r.task.read({ rewrite: newestBatching, answer: taskStatus(false) }),
    listOutstandingArchiveBatches: r.batch.list({ select: outstandingBatches }),
    listEventsInArchiveBatch: r.batch.read({ rewrite: whileManual, answer: eventsInBatch }),
    markArchiveBatchesAsSuccessful: code(markArchiveBatchesAsSuccessful),
  }),
});
