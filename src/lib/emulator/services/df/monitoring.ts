/**
 * What df shows of how services, deployments and their flows are doing,
 * computed from their records: events (the actions each has been through,
 * with who started them, and an alert while it is in bad health), the active
 * alerts, notifications (the events of every service and deployment since a
 * time), metric charts (system metrics, and the KPIs a deployment or flow is
 * configured with, with their alert thresholds) over a time span of the
 * emulator clock, and the values the listings' filters take.
 */
import { invalid, notFound } from '../../errors.js';
import { stableUuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, hex, num, obj, str, text } from '../../values.js';
import type { DataflowDeploymentView as Deployment, DataflowFlowView as DeployedFlow, DataflowWorkView } from '../../world/contracts.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { filtered, sorted } from './listing.js';
import { HEALTHY, UP, actorAt, allServices, deploymentsOf, stateOf, userNameOf, type R, type Rec } from './services.js';

export type Severity = 'INFO' | 'WARNING' | 'ERROR';

/** An event of a service, deployment or flow (the wire Event, with what it is about). */
export interface DfEvent {
  readonly crn: string;
  readonly name: string;
  readonly severity: Severity;
  readonly eventType: string;
  readonly firstOccurrence: number;
  readonly lastOccurrence: number;
  readonly referenceType: 'SERVICE' | 'DEPLOYMENT' | 'DEPLOYED_FLOW';
  /** The CRN of what it is about. */
  readonly referenceId: string;
  readonly description: string;
  readonly userName?: string;
  readonly alertType?: string;
}

const MINUTE = 60_000;

/** What the actions are called in events. */
const ACTION_WORDS: Readonly<Record<string, string>> = {
  enable: 'Enable',
  update: 'Update',
  upgrade: 'Upgrade',
  renewCertificates: 'Certificate renewal',
  rotatePassword: 'Password rotation',
  updateNodeImages: 'Node image update',
  collectDiagnostics: 'Diagnostics collection',
  disable: 'Disable',
  create: 'Deployment',
  deploy: 'Flow deployment',
  deployStopped: 'Flow deployment',
  terminate: 'Termination',
  terminateAll: 'Termination',
  suspend: 'Suspension',
  resume: 'Resumption',
  restart: 'Restart',
  updateNifi: 'NiFi version change',
  cancelNifiUpdate: 'NiFi version change cancellation',
  start: 'Flow start',
  stop: 'Flow stop',
  changeVersion: 'Flow version change',
  cancelChange: 'Flow version change cancellation',
};

const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();

/** How the actions a record has been through read as events: the seed makes each event's CRN stable. */
function actionEvent(
  h: Hook<R>,
  about: { type: DfEvent['referenceType']; crn: string; noun: string; name: string },
  a: { action: string; startedAt: number; endedAt: number; state: string; failed: boolean; done: boolean; by?: string },
): DfEvent {
  const what = ACTION_WORDS[a.action] ?? a.action;
  const outcome = a.failed ? 'failed' : a.done ? 'completed' : 'started';
  return {
    crn: eventCrn(h, `${about.crn}/${a.action}/${a.startedAt}`),
    name: `${what} ${outcome}`,
    severity: a.failed ? 'ERROR' : 'INFO',
    eventType: `${about.type}_${snake(a.action)}`,
    firstOccurrence: a.startedAt,
    lastOccurrence: a.done ? a.endedAt : a.startedAt,
    referenceType: about.type,
    referenceId: about.crn,
    description: `${about.noun} ${about.name}: ${what.toLowerCase()} ${a.failed ? `failed (${a.state})` : a.done ? `completed (${a.state})` : `started (${a.state})`}`,
    ...(a.by ? { userName: userNameOf(h, a.by) } : {}),
  };
}

/** The alert a record in bad health raises, from when it got there. */
function healthAlert(
  h: Hook<R>,
  about: { type: DfEvent['referenceType']; crn: string; noun: string; name: string },
  since: number,
): DfEvent {
  return {
    crn: eventCrn(h, `${about.crn}/alert/${since}`),
    name: `${about.noun} in bad health`,
    severity: 'ERROR',
    eventType: `${about.type}_HEALTH`,
    firstOccurrence: since,
    lastOccurrence: h.ctx.clock.now(),
    referenceType: about.type,
    referenceId: about.crn,
    description: `${about.noun} ${about.name} is in bad health`,
    alertType: 'HEALTH',
  };
}

const eventCrn = (h: Hook<R>, seed: string): string => h.crn('event', stableUuid(seed));

/** The current action of a workload record (as the world tells it) as an event. */
const currentWork = (w: DataflowWorkView, by: string): Parameters<typeof actionEvent>[2] => ({
  action: w.action,
  startedAt: w.startedAt,
  endedAt: w.endsAt,
  state: w.state,
  failed: w.failed,
  done: w.done,
  by,
});

const newestFirst = (a: DfEvent, b: DfEvent): number => b.firstOccurrence - a.firstOccurrence;

// ---- events of each kind of record -------------------------------------------------------

export function serviceEvents(h: Hook<R>, s: Rec): DfEvent[] {
  const about = { type: 'SERVICE' as const, crn: s.crn ?? s.id, noun: 'DataFlow service', name: s.name ?? s.id };
  const records = h.records('service');
  const done = records.progress(s as EngineRecord).done;
  const events = records.events(s as EngineRecord);
  const out = events.map((a, i) => {
    const by = actorAt(s, a.startedAt);
    return actionEvent(h, about, { ...a, done: i < events.length - 1 || done, ...(by ? { by } : {}) });
  });
  const now = events[events.length - 1];
  if (now && stateOf(h, s) === 'BAD_HEALTH') out.push(healthAlert(h, about, now.endedAt));
  return out.sort(newestFirst);
}

export function deploymentEvents(h: Hook<R>, d: Deployment): DfEvent[] {
  const about = { type: 'DEPLOYMENT' as const, crn: d.crn, noun: 'Deployment', name: d.name };
  const now = currentWork(d.work, d.creatorCrn);
  const out: DfEvent[] = [];
  if (d.work.action !== 'create')
    out.push(
      actionEvent(h, about, {
        action: 'create',
        startedAt: d.created,
        endedAt: d.created,
        state: 'GOOD_HEALTH',
        failed: false,
        done: true,
      }),
    );
  out.push(actionEvent(h, about, now));
  if (d.status.state === 'BAD_HEALTH') out.push(healthAlert(h, about, now.endedAt));
  return out.sort(newestFirst);
}

export function flowEvents(h: Hook<R>, d: Deployment, f: DeployedFlow): DfEvent[] {
  const about = { type: 'DEPLOYED_FLOW' as const, crn: f.crn, noun: 'Flow', name: `${f.name} of ${d.name}` };
  const now = currentWork(f.work, f.creatorCrn);
  const out: DfEvent[] = [];
  if (!f.work.action.startsWith('deploy'))
    out.push(
      actionEvent(h, about, {
        action: 'deploy',
        startedAt: f.created,
        endedAt: f.created,
        state: 'GOOD_HEALTH',
        failed: false,
        done: true,
      }),
    );
  out.push(actionEvent(h, about, now));
  if (f.status.state === 'BAD_HEALTH') out.push(healthAlert(h, about, now.endedAt));
  return out.sort(newestFirst);
}

/** Active alerts by severity, for the counts summaries show. */
export function alertCounts(events: ReadonlyArray<{ alertType?: string; severity: string }>): Doc {
  const active = events.filter((e) => e.alertType !== undefined);
  return {
    activeInfoAlertCount: active.filter((e) => e.severity === 'INFO').length,
    activeWarningAlertCount: active.filter((e) => e.severity === 'WARNING').length,
    activeErrorAlertCount: active.filter((e) => e.severity === 'ERROR').length,
  };
}

// ---- answers ------------------------------------------------------------------------------

export const eventSummary = (e: DfEvent): Doc => ({
  crn: e.crn,
  name: e.name,
  severity: e.severity,
  firstOccurrence: e.firstOccurrence,
  eventType: e.eventType,
  ...(e.alertType ? { alertType: e.alertType } : {}),
});

export const eventDoc = (e: DfEvent): Doc => ({
  ...eventSummary(e),
  referenceType: e.referenceType,
  lastOccurrence: e.lastOccurrence,
  description: e.description,
  ...(e.userName ? { userName: e.userName } : {}),
});

/** One event of a list by its CRN, or NOT_FOUND. */
export function eventNamed(events: readonly DfEvent[], eventCrn: string, of: string): DfEvent {
  const e = events.find((x) => x.crn === eventCrn);
  if (!e) throw notFound(`event ${eventCrn.slice(0, 200)} not found for ${of}`);
  return e;
}

/** At most `rows` of a list, when given. */
export function rowsOf<T>(items: readonly T[], req: Doc): readonly T[] {
  const rows = num(req.rows);
  return rows === undefined ? items : items.slice(0, Math.max(0, rows));
}

/** Events as the listings take them: before `timestampFrom`, through `type:value` filters (severity, eventType). */
export function eventsWanted(events: readonly DfEvent[], req: Doc): DfEvent[] {
  const before = num(req.timestampFrom);
  const kept = before === undefined ? events : events.filter((e) => e.firstOccurrence <= before);
  return filtered(kept, req.filters, { severity: (e) => e.severity, eventType: (e) => e.eventType });
}

/** The active alerts of a list of events, in the order `sort` asks (default firstOccurrence:asc). */
export function activeAlerts(events: readonly DfEvent[], sort: unknown): Doc[] {
  const alerts = events.filter((e) => e.alertType !== undefined);
  return sorted(alerts, [str(sort) ?? 'firstOccurrence:asc'], {
    firstOccurrence: (e) => e.firstOccurrence,
    name: (e) => e.name,
    eventType: (e) => e.eventType,
  }).map(eventSummary);
}

// ---- metrics -----------------------------------------------------------------------------

/** The time spans of the metrics operations: how long, and how far apart their points are. */
const PERIODS: Readonly<Record<string, { minutes: number; step: number }>> = {
  LAST_THIRTY_MINUTES: { minutes: 30, step: 1 },
  LAST_ONE_HOUR: { minutes: 60, step: 2 },
  LAST_TWELVE_HOURS: { minutes: 720, step: 30 },
  LAST_ONE_DAY: { minutes: 1440, step: 60 },
};

interface Unit {
  readonly type: string;
  readonly label: (v: number) => string;
}

const UNITS: Readonly<Record<string, Unit>> = {
  percentage: { type: 'RATIO', label: (v) => `${v.toFixed(1)}%` },
  bytesPerSecond: { type: 'RATE', label: (v) => `${(v / 1024).toFixed(1)} KB/s` },
  bytes: { type: 'SIZE', label: (v) => `${(v / 1024 / 1024 / 1024).toFixed(2)} GB` },
  count: { type: 'COUNT', label: (v) => v.toFixed(0) },
};

/** A metric: its label, unit, the range its values move in, and what it is about. */
interface Metric {
  readonly id: string;
  readonly label: string;
  readonly unit: string;
  readonly range: readonly [number, number];
  readonly componentType: string;
}

/** The system metrics of a deployment (per NiFi node) and of a service (its Kubernetes cluster). */
const DEPLOYMENT_SYSTEM: readonly Metric[] = [
  { id: 'cpuUtilization', label: 'CPU utilization', unit: 'percentage', range: [15, 65], componentType: 'SYSTEM' },
  { id: 'memoryUtilization', label: 'Memory utilization', unit: 'percentage', range: [30, 70], componentType: 'SYSTEM' },
  { id: 'contentRepositoryUsage', label: 'Content repository usage', unit: 'percentage', range: [5, 40], componentType: 'SYSTEM' },
];
const SERVICE_SYSTEM: readonly Metric[] = [
  { id: 'cpuUsage', label: 'CPU usage', unit: 'percentage', range: [10, 55], componentType: 'SYSTEM' },
  { id: 'memoryUsage', label: 'Memory usage', unit: 'percentage', range: [25, 60], componentType: 'SYSTEM' },
  { id: 'nodeCount', label: 'Kubernetes nodes', unit: 'count', range: [0, 0], componentType: 'SYSTEM' },
];

/** A KPI's metric, from the workload service's KPI metadata (an unknown one counts). */
function kpiMetric(h: Hook<R>, id: string, componentType: string | undefined): Metric {
  for (const scope of docs(h.world.dataflows.kpiMetadata().kpiScopes))
    for (const m of docs(scope.metricTypes))
      if (m.id === id) {
        const unit = str(m.defaultUnitId) ?? 'count';
        return {
          id,
          label: str(m.label) ?? id,
          unit,
          range: unit === 'percentage' ? [10, 80] : [20_000, 400_000],
          componentType: str(scope.type) ?? 'SYSTEM',
        };
      }
  return { id, label: id, unit: 'count', range: [0, 500], componentType: componentType ?? 'NIFI_FLOW' };
}

export function periodOf(given: unknown): { minutes: number; step: number } {
  const p = PERIODS[typeof given === 'string' ? given : ''];
  if (!p) throw invalid(`metricsTimePeriod must be one of ${Object.keys(PERIODS).join(', ')}; got "${String(given).slice(0, 50)}"`);
  return p;
}

/** A value of a metric at a time: steady for one subject, metric and time; 0 while it does not run. */
function valueAt(seed: string, m: Metric, at: number): number {
  const [lo, hi] = m.range;
  const frac = parseInt(hex(`${seed}/${m.id}/${at}`, 6), 16) / 0xffffff;
  return Math.round((lo + (hi - lo) * frac) * 10) / 10;
}

function chartData(points: ReadonlyArray<{ timestamp: number; value: number }>, unit: Unit): Doc {
  const values = points.map((p) => p.value);
  const current = values[values.length - 1] ?? 0;
  const average = values.length ? Math.round((values.reduce((t, v) => t + v, 0) / values.length) * 10) / 10 : 0;
  return {
    averageValue: average,
    currentValue: current,
    currentValueLabel: unit.label(current),
    averageValueLabel: unit.label(average),
    tooltipValueLabel: unit.type,
    datas: points,
  };
}

/**
 * A metric's chart over a time span: a point per step since the subject
 * existed (none before), 0 while it was not running; its alert thresholds
 * from the KPI, when one is configured.
 */
export function metricChart(
  seed: string,
  m: Metric,
  span: { minutes: number; step: number; now: number; since: number; running: boolean; fixed?: number },
  kpi?: Doc,
): Doc {
  const unit = UNITS[m.unit] ?? (UNITS.count as Unit);
  const stepMs = span.step * MINUTE;
  const last = Math.floor(span.now / stepMs) * stepMs;
  const points: Array<{ timestamp: number; value: number }> = [];
  for (let t = last - span.minutes * MINUTE + stepMs; t <= last; t += stepMs)
    if (t >= span.since) points.push({ timestamp: t, value: !span.running ? 0 : (span.fixed ?? valueAt(seed, m, t)) });
  const alert = obj(kpi?.alert);
  const tolerance = obj(alert.frequencyTolerance);
  const more = num(obj(alert.thresholdMoreThan).value);
  const less = num(obj(alert.thresholdLessThan).value);
  return {
    name: m.label,
    unitType: unit.type,
    componentType: m.componentType,
    ...(str(kpi?.componentId) ? { componentName: str(kpi?.componentId) } : {}),
    metrics: chartData(points, unit),
    mirroredMetrics: chartData([], unit),
    alert: {
      frequencyTolerance: { unit: str(obj(tolerance.unit).id) ?? 'MINUTES', value: num(tolerance.value) ?? 5 },
      ...(more !== undefined ? { thresholdMoreThan: more } : {}),
      ...(less !== undefined ? { thresholdLessThan: less } : {}),
    },
  };
}

/** Whether a deployment (or flow) state means its NiFi nodes run. */
export const runs = (state: string): boolean => HEALTHY.includes(state) || state === 'BAD_HEALTH' || state === 'UPDATING';

export function deploymentSystemCharts(h: Hook<R>, d: Deployment, period: unknown): Doc[] {
  const p = periodOf(period);
  const running = runs(d.status.state);
  return DEPLOYMENT_SYSTEM.map((m) => metricChart(d.crn, m, { ...p, now: h.ctx.clock.now(), since: d.created, running }));
}

export function kpiCharts(h: Hook<R>, seed: string, kpis: readonly Doc[], since: number, running: boolean, period: unknown): Doc[] {
  const p = periodOf(period);
  return kpis.map((k) =>
    metricChart(
      seed,
      kpiMetric(h, str(k.metricId) ?? 'unknown', str(k.metricComponentType)),
      { ...p, now: h.ctx.clock.now(), since, running },
      k,
    ),
  );
}

export function serviceSystemCharts(h: Hook<R>, s: Rec, period: unknown): Doc[] {
  const p = periodOf(period);
  const state = stateOf(h, s);
  const running = UP.includes(state) || state === 'BAD_HEALTH';
  const min = num(s.doc.minK8sNodeCount) ?? 0;
  const nodes = min + Math.min(deploymentsOf(h, s).length, (num(s.doc.maxK8sNodeCount) ?? min) - min);
  return SERVICE_SYSTEM.map((m) =>
    metricChart(s.crn ?? s.id, m, {
      ...p,
      now: h.ctx.clock.now(),
      since: s.createdAt,
      running,
      ...(m.id === 'nodeCount' ? { fixed: nodes } : {}),
    }),
  );
}

// ---- notifications and filter options ------------------------------------------------------

/** listNotifications: the events of every service and deployment of the account after a time, oldest first. */
export function listNotifications(h: Hook<R>, req: Doc): Doc {
  const after = num(req.timestampAfter) ?? 0;
  const all: DfEvent[] = [
    ...allServices(h).flatMap((s) => serviceEvents(h, s)),
    ...h.world.dataflows.deployments().flatMap((d) => deploymentEvents(h, d)),
  ];
  const notifications = all
    .filter((e) => e.firstOccurrence > after)
    .sort((x, y) => x.firstOccurrence - y.firstOccurrence)
    .map((e) => ({
      name: e.name,
      description: e.description,
      severity: e.severity,
      referenceId: e.referenceId,
      referenceType: e.referenceType,
      username: e.userName ?? 'DataFlow',
      eventId: e.crn,
      timestamp: e.firstOccurrence,
    }));
  return { notifications };
}

/** The states a deployment can be in (the filter options of `state`). */
const DEPLOYMENT_STATES = [
  'DEPLOYING',
  'GOOD_HEALTH',
  'CONCERNING_HEALTH',
  'BAD_HEALTH',
  'SUSPENDED',
  'UPDATING',
  'TERMINATING',
  'RESTARTING',
  'UPGRADING',
  'SUSPENDING',
  'RESUMING',
] as const;

const label = (id: string): string => id.charAt(0) + id.slice(1).toLowerCase().replace(/_/g, ' ');
const options = (ids: readonly string[]): Doc[] => ids.map((id) => ({ identifier: id, label: label(id) }));

/** The values each filter type of a listing takes: of deployments and events, or (projects) of projects. */
function filterOptions(h: Hook<R>, type: string, ofProjects: boolean): Doc[] {
  const kinds: Readonly<Record<string, () => Doc[]>> = {
    state: () => options(ofProjects ? ['ACTIVE', 'DELETING'] : DEPLOYMENT_STATES),
    service: () => allServices(h).map((s) => ({ identifier: s.crn, label: s.name })),
    ...(ofProjects
      ? {}
      : {
          project: () =>
            h
              .records('project')
              .all()
              .map((p) => ({ identifier: p.crn, label: p.name ?? p.id })),
          severity: () => options(['INFO', 'WARNING', 'ERROR']),
        }),
  };
  const pick = kinds[type];
  if (!pick) throw invalid(`filterType must be one of ${Object.keys(kinds).join(', ')}; got "${type.slice(0, 50)}"`);
  return pick();
}

export const listFilterOptions = (h: Hook<R>, req: Doc): Doc => ({ filterOptions: filterOptions(h, text(req.filterType), false) });

export const listProjectFilterOptions = (h: Hook<R>, req: Doc): Doc => ({
  filterOptions: filterOptions(h, text(req.filterType), true),
});

// ---- a service's events, alerts and metrics: answers of reads of the service ----------------

export const listServiceEvents = (h: Hook<R>, s: Rec, req: Doc): Doc => ({
  eventSummaries: rowsOf(eventsWanted(serviceEvents(h, s), req), req).map(eventSummary),
});

export const describeServiceEventDetail = (h: Hook<R>, s: Rec, req: Doc): Doc => ({
  event: eventDoc(eventNamed(serviceEvents(h, s), text(req.eventCrn), `DataFlow service ${s.name ?? s.id}`)),
});

export const listServiceActiveAlerts = (h: Hook<R>, s: Rec, req: Doc): Doc => ({
  eventSummaries: activeAlerts(serviceEvents(h, s), req.sort),
});

export const listServiceSystemMetrics = (h: Hook<R>, s: Rec, req: Doc): Doc => ({
  metricCharts: serviceSystemCharts(h, s, req.metricsTimePeriod),
});
