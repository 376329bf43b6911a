/**
 * Events of the Data Warehouse. A cluster, catalog, warehouse or
 * visualization has an event when each of its actions starts and when it
 * ends (read from the actions its record has been through, so they follow
 * the clock); operations that span several of them (a cluster restore, a
 * cluster backup) log their own events under their operation id. The
 * service keeps the last 50 events of each.
 */
import { invalid, notFound } from '../../errors.js';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { iso, num, str } from '../../values.js';

/** Where operations' own events are kept, under their operation id. */
const EVENT_KIND = 'dw.event';
/** What the service keeps of each resource's events. */
const KEPT = 50;

/** An event; `at`, in emulated ms. */
type DwEvent = { operationId?: string; serviceId: string; event: string; message: string; at: number };

/** Logs an event of an operation that spans resources. */
export function logEvent(h: Hook, e: Omit<DwEvent, 'at'> & { operationId: string }): void {
  h.ctx.store.put<DwEvent>(EVENT_KIND, uuid(), { ...e, at: h.ctx.clock.now() }, { parent: e.operationId });
}

/** The events of a record's actions: each one's start, and its end once it has ended. */
export function actionEvents(h: Hook, key: string, rec: EngineRecord, noun: string): DwEvent[] {
  const acts = h.records(key).events(rec);
  const done = h.records(key).progress(rec).done;
  const serviceId = rec.id;
  return acts.flatMap((a, i) => {
    const current = i === acts.length - 1;
    const word = a.action === 'sshKey' ? 'SshKeyUpdate' : a.action.charAt(0).toUpperCase() + a.action.slice(1);
    const what = `${noun} ${nameOf(rec)}: ${a.action === 'sshKey' ? 'SSH key update' : a.action}`;
    const start: DwEvent = { serviceId, event: `${word}Requested`, message: `${what} requested`, at: a.startedAt };
    if (current && !done) return [start];
    const why = current && a.failed && rec.activity.reason ? `: ${rec.activity.reason}` : '';
    const message = a.failed ? `${what} failed${why}` : `${what} completed, ${a.state}`;
    return [start, { serviceId, event: `${word}${a.failed ? 'Failed' : 'Completed'}`, message, at: a.endedAt }];
  });
}

/** A resource's events (of its actions, and those logged for it by its id), the last KEPT of them, oldest first. */
function eventsOf(h: Hook, key: string, rec: EngineRecord, noun: string): DwEvent[] {
  const logged = h.ctx.store.list<DwEvent>(EVENT_KIND).flatMap(({ doc }) => (doc.serviceId === rec.id ? [doc] : []));
  return [...actionEvents(h, key, rec, noun), ...logged].sort((a, b) => a.at - b.at).slice(-KEPT);
}

/** Newest first unless `ascending`; at most `limit` (the newest ones). */
function ordered(events: DwEvent[], req: Doc, defaultLimit?: number): DwEvent[] {
  const limit = num(req.limit) ?? defaultLimit;
  const newest = limit !== undefined ? events.slice(-Math.max(0, limit)) : events;
  return req.ascending === true ? newest : [...newest].reverse();
}

/** The answer of `dbcs events list` and `vws events list`. */
export const eventsAnswer =
  (key: string, noun: string) =>
  (h: Hook, rec: EngineRecord, req: Doc): Doc => ({
    events: ordered(eventsOf(h, key, rec, noun), req).map((e) => ({ event: e.event, message: e.message, timestamp: iso(e.at) })),
  });

/** What `listEvents --service-id` may name, and what each is called. */
const SERVICES = {
  cluster: 'Data Warehouse cluster',
  dbc: 'Database Catalog',
  vw: 'Virtual Warehouse',
  dataVisualization: 'Data Visualization',
};

/** `events list`: the events of an operation, or of a cluster, catalog, warehouse or visualization. */
export function listEvents(h: Hook, req: Doc): Doc {
  const operationId = str(req.operationId);
  const serviceId = str(req.serviceId);
  let events: DwEvent[];
  if (operationId) {
    events = h.ctx.store.children<DwEvent>(EVENT_KIND, operationId).map((x) => x.doc);
    if (events.length === 0) throw notFound(`operation ${operationId} not found`);
    if (serviceId) events = events.filter((e) => e.serviceId === serviceId);
  } else if (serviceId) {
    const found = Object.entries(SERVICES)
      .map(([key, noun]) => ({ key, noun, rec: h.records(key).byId(serviceId) }))
      .find((x) => x.rec);
    if (!found?.rec) throw notFound(`no cluster, Database Catalog, Virtual Warehouse or Data Visualization has the id ${serviceId}`);
    events = eventsOf(h, found.key, found.rec, found.noun);
  } else throw invalid('say whose events: give operationId or serviceId');
  const filter = str(req.event)?.toLowerCase();
  if (filter) events = events.filter((e) => e.event.toLowerCase().includes(filter));
  return {
    events: ordered(events, req, 20).map(({ at, operationId: op, ...e }) => ({
      ...(op ? { operationId: op } : {}),
      ...e,
      timestamp: iso(at),
    })),
  };
}
