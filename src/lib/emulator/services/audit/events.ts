/**
 * The audit trail: one stored event per mutating call the emulator served or
 * refused, in the model's CdpAuditEvent shape, kept in the order the calls
 * were made. Emulated time never runs backwards while calls are made, so the
 * store's creation order is also time order: a search finds where its time
 * range starts by bisection over positions (a few dozen index seeks) and
 * stops reading at the first event past its end, so a page costs what it
 * shows, however many events there are. Events are also filed by their
 * source (a search by service reads only that service's) and by request id.
 * An account keeps at most EVENTS_KEPT events; the oldest go first.
 */
import { uuid } from '../../ids.js';
import type { Listing } from '../../engine/paging.js';
import type { Store, StoredDoc } from '../../store.js';
import type { Doc, ServedCall } from '../../types.js';

export const EVENT_KIND = 'audit.event';
/** The version of the event structure, as events carry it. */
const EVENT_VERSION = '1.0';
/** How many events an account keeps; past it, the oldest TRIMMED go at once. */
export const EVENTS_KEPT = 50_000;
const TRIMMED = 1_000;
/** The longest request text an event keeps (a 4 MB upload's fields are not an audit record). */
const REQUEST_TEXT_MAX = 16_384;

/** A stored event: the wire event, and what searches and archiving need beside it. */
export interface EventRecord {
  event: Doc & { timestamp: number };
  /** CRNs the request named: what `cdpServiceEventCriteria.resourceCrn` finds it by. */
  crns?: string[];
  /** The archive batch it went into (batched or archived events are not batched again). */
  archiveId?: string;
}

/** The CRNs anywhere in a request. */
function crnsIn(v: unknown, out: Set<string>, depth = 0): Set<string> {
  if (typeof v === 'string' && v.startsWith('crn:')) out.add(v);
  else if (Array.isArray(v) && depth < 8) for (const x of v) crnsIn(x, out, depth + 1);
  else if (typeof v === 'object' && v !== null && depth < 8) for (const x of Object.values(v)) crnsIn(x, out, depth + 1);
  return out;
}

function requestText(request: Doc): string {
  const text = JSON.stringify(request);
  return text.length <= REQUEST_TEXT_MAX ? text : `${text.slice(0, REQUEST_TEXT_MAX)}... (${text.length} characters in all)`;
}

/** The event of a call, as the audit service shows it. */
export function eventOf(call: ServedCall, id: string): EventRecord['event'] {
  const failed = call.result.code !== 'SUCCESS';
  return {
    version: EVENT_VERSION,
    id,
    eventSource: call.service,
    eventName: call.operation,
    timestamp: call.at,
    actorIdentity: { actorCrn: call.caller.actorCrn },
    accountId: call.caller.accountId,
    requestId: call.requestId,
    resultCode: call.result.code,
    ...(failed && call.result.message ? { resultMessage: call.result.message } : {}),
    apiRequestEvent: {
      requestParameters: requestText(call.request),
      mutating: true,
      ...(call.sourceIp ? { sourceIPAddress: call.sourceIp } : {}),
      ...(call.userAgent ? { userAgent: call.userAgent } : {}),
    },
  };
}

/** Where an event is filed: by request id (its name) and by source (its parent). */
const filing = (rec: EventRecord): { name?: string; parent: string } => ({
  ...(typeof rec.event.requestId === 'string' ? { name: rec.event.requestId } : {}),
  parent: String(rec.event.eventSource),
});

/** What a search reads: every event, or one source's, in order, after a position. */
type Scan = (after: number, count: number) => Array<StoredDoc<EventRecord>>;

export class EventLog {
  constructor(
    private readonly store: Store,
    private readonly kept = EVENTS_KEPT,
  ) {}

  private get countKey(): string {
    return `audit.eventCount:${this.store.account}`;
  }

  /** Keeps a call as an event; the oldest events go once there are more than the account keeps. */
  record(call: ServedCall): void {
    const id = uuid();
    const rec: EventRecord = { event: eventOf(call, id) };
    const crns = [...crnsIn(call.request, new Set())];
    if (crns.length > 0) rec.crns = crns.slice(0, 50);
    this.store.put(EVENT_KIND, id, rec, filing(rec));
    const stored = this.store.meta(this.countKey);
    let count = stored === undefined ? this.store.count(EVENT_KIND) : Number(stored) + 1;
    if (count > this.kept)
      for (const old of this.store.list<EventRecord>(EVENT_KIND, 0, TRIMMED)) if (this.store.delete(EVENT_KIND, old.id)) count--;
    this.store.setMeta(this.countKey, String(count));
  }

  /** Saves a changed event where it was filed. */
  save(id: string, rec: EventRecord): void {
    this.store.put(EVENT_KIND, id, rec, filing(rec));
  }

  scan(source?: string): Scan {
    return source === undefined
      ? (after, count) => this.store.list<EventRecord>(EVENT_KIND, after, count)
      : (after, count) => this.store.childrenAfter<EventRecord>(EVENT_KIND, source, after, count);
  }

  /** The position just before the first event at or after `from` (events are in time order). */
  static startOf(scan: Scan, from: number): number {
    let lo = 0;
    let hi = Number.MAX_SAFE_INTEGER;
    while (lo < hi) {
      const mid = lo + Math.floor((hi - lo) / 2);
      const first = scan(mid, 1)[0];
      if (!first || first.doc.event.timestamp >= from) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The rows of a scan after a position, read a chunk at a time, up to the first that is `past` the end. */
  private static *until(
    scan: Scan,
    from: number,
    past: (row: StoredDoc<EventRecord>) => boolean,
    chunk: number,
  ): Generator<StoredDoc<EventRecord>> {
    for (let p = from; ;) {
      const rows = scan(p, chunk);
      for (const row of rows) {
        if (past(row)) return;
        yield row;
      }
      const last = rows[rows.length - 1];
      if (rows.length < chunk || !last) return;
      p = last.seq;
    }
  }

  /**
   * The events of [from, to) that `keep` takes, as a paged listing (of one
   * source's events when a source is given). Positions are store positions.
   */
  range(from: number, to: number, keep: (rec: EventRecord) => boolean, source?: string): Listing<StoredDoc<EventRecord>> {
    const scan = this.scan(source);
    let start: number | undefined;
    return {
      read: (after, count) => {
        start ??= EventLog.startOf(scan, from);
        const out: Array<{ item: StoredDoc<EventRecord>; position: number }> = [];
        const rows = EventLog.until(scan, Math.max(after, start), (row) => row.doc.event.timestamp >= to, Math.max(count, 100));
        for (const row of rows) {
          if (keep(row.doc)) out.push({ item: row, position: row.seq });
          if (out.length === count) break;
        }
        return out;
      },
    };
  }

  /** The event of a request id, if there is one. */
  byRequest(requestId: string): EventRecord | undefined {
    return this.store.getByName<EventRecord>(EVENT_KIND, requestId);
  }

  /** Every event of [from, to) in order (for batching): all of them, not a page. */
  each(from: number, to: number): Generator<StoredDoc<EventRecord>> {
    const scan = this.scan();
    return EventLog.until(scan, EventLog.startOf(scan, from), (row) => row.doc.event.timestamp >= to, 500);
  }

  /** Every event at store positions first..last, in order (a batch's). */
  at(first: number, last: number): Generator<StoredDoc<EventRecord>> {
    return EventLog.until(this.scan(), first - 1, (row) => row.seq > last, 500);
  }
}
