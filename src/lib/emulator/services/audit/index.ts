/**
 * The audit service: every mutating call of every service the emulator
 * served or refused becomes an audit event (the module observes calls, see
 * CallObserver), without the request fields the model marks secret. Events
 * are searched by time range, source, name, actor, request, result and API
 * request details (events.ts), and archived, by the service or by the caller
 * in batches (archiving.ts).
 */
import type { OperationName } from '../../../model/services/audit/wire.js';
import { resources } from '../../../model/services/audit/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { code, defineService } from '../../engine/table.js';
import { paged } from '../../engine/paging.js';
import { obj, str, strings } from '../../values.js';
import {
  archiveAuditEvents,
  archivingStatus,
  batchEventsForArchiving,
  batchingStatus,
  checkArchiving,
  configured,
  eventsInBatch,
  markArchiveBatchesAsSuccessful,
  newestBatching,
  outstandingBatches,
  range,
  recentRuns,
  showBatch,
  showRun,
  whileManual,
  type R,
} from './archiving.js';
import { EventLog, type EventRecord } from './events.js';

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
    getArchivingStatus: r.task.read({ answer: archivingStatus }),
    listRecentArchiveRuns: r.run.list({ select: recentRuns }),
    batchEventsForArchiving: code(batchEventsForArchiving),
    getBatchEventsForArchivingStatus: r.task.read({ rewrite: newestBatching, answer: batchingStatus }),
    listOutstandingArchiveBatches: r.batch.list({ select: outstandingBatches }),
    listEventsInArchiveBatch: r.batch.read({ rewrite: whileManual, answer: eventsInBatch }),
    markArchiveBatchesAsSuccessful: code(markArchiveBatchesAsSuccessful),
  }),
});
