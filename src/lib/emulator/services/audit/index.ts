/**
 * The audit service: every mutating call of every service the emulator
 * served or refused becomes an audit event (the module observes calls, see
 * CallObserver), without the request fields the model marks secret. Events
 * are searched by time range, source, name, actor, request, result and API
 * request details (events.ts), and archived, by the service or by the caller
 * in batches (archiving.ts).
 */
import { invalid } from '../../errors.js';
import { paged } from '../../paging.js';
import { perRequest } from '../../service.js';
import type { Doc, ServiceModule } from '../../types.js';
import { bool, num, obj, str, strings, text } from '../../values.js';
import { Archiving } from './archiving.js';
import { EventLog, type EventRecord } from './events.js';

const op = perRequest((ctx) => new Archiving(ctx));

/** A time of a request (checked against the model as a date-time), in ms. */
const time = (v: unknown, fallback: number): number => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? fallback : t;
};

function range(req: Doc): { from: number; to: number } {
  const from = time(req.fromTimestamp, 0);
  const to = time(req.toTimestamp, Number.MAX_SAFE_INTEGER);
  if (from > to) throw invalid('fromTimestamp must not be after toTimestamp');
  return { from, to };
}

/** The criteria a criteria object gives: its non-empty string fields. */
const criteria = (v: unknown): Array<[string, string]> =>
  Object.entries(obj(v)).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '');

/** Which events a search keeps, besides its time range and source. */
function eventFilter(req: Doc): (rec: EventRecord) => boolean {
  const e = (rec: EventRecord): Doc => rec.event;
  const tests: Array<(rec: EventRecord) => boolean> = [];
  const exact = (field: string, value: (rec: EventRecord) => unknown): void => {
    const want = str(req[field]);
    if (want !== undefined) tests.push((rec) => value(rec) === want);
  };
  exact('requestId', (r) => e(r).requestId);
  exact('eventName', (r) => e(r).eventName);
  exact('actorCrn', (r) => obj(e(r).actorIdentity).actorCrn);
  exact('resultCode', (r) => e(r).resultCode);
  exact('resultMessage', (r) => e(r).resultMessage);
  // Criteria of one kind of event keep only events of that kind that match them all.
  const kinds: Array<[string, string]> = [
    ['apiRequestEventCriteria', 'apiRequestEvent'],
    ['interactiveLoginEventCriteria', 'interactiveLoginEvent'],
  ];
  for (const [field, part] of kinds) {
    const want = criteria(req[field]);
    if (want.length > 0) tests.push((r) => e(r)[part] !== undefined && want.every(([k, v]) => obj(e(r)[part])[k] === v));
  }
  const resource = str(obj(req.cdpServiceEventCriteria).resourceCrn);
  if (resource) tests.push((r) => (r.crns ?? []).includes(resource) || strings(obj(e(r).cdpServiceEvent).resourceCrns).includes(resource));
  return (rec) => tests.every((t) => t(rec));
}

const service: ServiceModule = {
  service: 'audit',
  observe: (call, scope) => new EventLog(scope.store).record(call),
  handlers: {
    listEvents: op((b, req, ctx) => {
      const { from, to } = range(req);
      const keep = eventFilter(req);
      const requestId = str(req.requestId);
      const source = str(req.eventSource);
      const inRange = (rec: EventRecord): boolean => rec.event.timestamp >= from && rec.event.timestamp < to;
      if (requestId !== undefined) {
        const rec = b.events.byRequest(requestId);
        const hits = rec && inRange(rec) && keep(rec) && (source === undefined || rec.event.eventSource === source) ? [rec.event] : [];
        return paged(ctx, req, hits);
      }
      return paged(ctx, req, b.events.range(from, to, keep, source), (row) => row.doc.event);
    }),

    getArchivingConfig: op((b) => ({ configuration: b.config() ?? { enabled: false } })),
    configureArchiving: op((b, req) => {
      const config = b.configure(
        {
          storageLocation: text(req.storageLocation),
          credentialName: text(req.credentialName),
          enabled: bool(req.enabled),
          ...(str(req.storageRegion) ? { storageRegion: text(req.storageRegion) } : {}),
        },
        bool(req.verifyOnly),
      );
      return { configuration: config ?? { enabled: false } };
    }),

    archiveAuditEvents: op((b, req) => {
      const { from, to } = range(req);
      const { task, batches } = b.archive(from, to);
      return { taskId: task.taskId, eventCount: task.eventCount, eventBatches: batches.map((x) => b.batchView(x)) };
    }),
    getArchivingStatus: op((b, req) => {
      const task = b.task(text(req.taskId));
      const status = b.status(task);
      const done = status === 'COMPLETED';
      return {
        status,
        ...(done ? { eventCount: task.eventCount, eventBatches: b.batches(task.archiveIds).map((x) => b.batchView(x)) } : {}),
      };
    }),
    listRecentArchiveRuns: op((b, req) => {
      const limit = num(req.limit) ?? 20;
      if (limit < 1) throw invalid('limit must be 1 or more');
      return { archiveRuns: b.recentRuns(limit) };
    }),

    batchEventsForArchiving: op((b, req) => {
      const { from, to } = range(req);
      return { taskId: b.batchForArchiving(from, to).taskId };
    }),
    getBatchEventsForArchivingStatus: op((b, req) => {
      b.refuseAutomated('batching events');
      const id = str(req.taskId);
      const task = id ? b.task(id) : b.latestBatching();
      const status = b.status(task);
      return { status, ...(status === 'COMPLETED' ? { eventBatches: b.batches(task.archiveIds).map((x) => b.batchView(x)) } : {}) };
    }),
    listOutstandingArchiveBatches: op((b, req, ctx) => {
      const { from, to } = range(req);
      return paged(ctx, req, b.outstandingBatches(from, to), (x) => b.batchView(x));
    }),
    listEventsInArchiveBatch: op((b, req) => ({ auditEvents: b.eventsIn(text(req.archiveId)).map((r) => r.event) })),
    markArchiveBatchesAsSuccessful: op((b, req) => {
      const ids = strings(req.archiveIds);
      const at = b.markArchived(ids);
      return { archiveIds: ids, archiveTimestamp: new Date(at).toISOString() };
    }),
  },
};

export default service;
