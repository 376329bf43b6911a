/**
 * What df shows of how services, deployments and their flows are doing,
 * computed from their records: events (the actions each has been through,
 * with who started them, and an alert while it is in bad health), the active
 * alerts, notifications (the events of every service and deployment since a
 * time), metric charts (system metrics, and the KPIs a deployment or flow is
 * configured with, with their alert thresholds) over a time span of the
 * emulator clock, and the values the listings' filters take.
 *
 * Events are kept in the wire's Event shape (with the CRN of what they are
 * about): the answers of the reads that show them are conformed to the
 * response, which keeps the fields of EventSummary or Event, in its order.
 */
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf, type PastActivity } from '../../engine/records.js';
import { paged } from '../../engine/paging.js';
import { invalid, notFound } from '../../errors.js';
import { stableUuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, hex, num, obj, str, text } from '../../values.js';
import type { DataflowDeploymentView as Deployment, DataflowFlowView as DeployedFlow } from '../../world/contracts.js';
import { filtered, sorted } from './listing.js';
import { HEALTHY, UP, actorAt, allServices, deploymentsOf, notEnabled, recordsIn, stateOf, userNameOf } from './services.js';
import type { R, Rec } from './services.js';

/** An event of a service, deployment or flow (the wire Event, with the CRN of what it is about). */
export interface DfEvent {
  readonly crn: string;
  readonly name: string;
  readonly severity: 'INFO' | 'WARNING' | 'ERROR';
  readonly eventType: string;
  readonly firstOccurrence: number;
  readonly lastOccurrence: number;
  readonly referenceType: Subject['type'];
  readonly referenceId: string;
  readonly description: string;
  readonly userName?: string;
  readonly alertType?: string;
}

/** What an event is about. */
interface Subject {
  readonly type: 'SERVICE' | 'DEPLOYMENT' | 'DEPLOYED_FLOW';
  readonly crn: string;
  readonly noun: string;
  readonly name: string;
}

/** An action a subject has been through, or is going through: whether it is done, and who started it (a user CRN). */
type Action = PastActivity & { readonly done: boolean; readonly by?: string | undefined };

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

/** An event about a subject; its CRN is made of what it is about and `seed`, so that it stays the same. */
const eventOf = (h: Hook<R>, about: Subject, seed: string, e: Omit<DfEvent, 'crn' | 'referenceType' | 'referenceId'>): DfEvent => ({
  crn: h.crn('event', stableUuid(`${about.crn}/${seed}`)),
  referenceType: about.type,
  referenceId: about.crn,
  ...e,
});

/** The events of a subject: the actions it has been through (oldest first), and an alert while it is in bad health; newest first. */
function eventsOf(h: Hook<R>, about: Subject, actions: readonly Action[], bad: boolean): DfEvent[] {
  const out = actions.map((a) => {
    const what = ACTION_WORDS[a.action] ?? a.action;
    const outcome = a.failed ? 'failed' : a.done ? 'completed' : 'started';
    return eventOf(h, about, `${a.action}/${a.startedAt}`, {
      name: `${what} ${outcome}`,
      severity: a.failed ? 'ERROR' : 'INFO',
      eventType: `${about.type}_${snake(a.action)}`,
      firstOccurrence: a.startedAt,
      lastOccurrence: a.done ? a.endedAt : a.startedAt,
      description: `${about.noun} ${about.name}: ${what.toLowerCase()} ${outcome} (${a.state})`,
      ...(a.by ? { userName: userNameOf(h, a.by) } : {}),
    });
  });
  const since = actions.at(-1)?.endedAt;
  if (bad && since !== undefined)
    out.push(
      eventOf(h, about, `alert/${since}`, {
        name: `${about.noun} in bad health`,
        severity: 'ERROR',
        eventType: `${about.type}_HEALTH`,
        firstOccurrence: since,
        lastOccurrence: h.ctx.clock.now(),
        description: `${about.noun} ${about.name} is in bad health`,
        alertType: 'HEALTH',
      }),
    );
  return out.sort((a, b) => b.firstOccurrence - a.firstOccurrence);
}

export function serviceEvents(h: Hook<R>, s: Rec): DfEvent[] {
  const records = h.records('service');
  const done = records.progress(s as EngineRecord).done;
  const events = records.events(s as EngineRecord);
  const actions = events.map((a, i) => ({ ...a, done: i < events.length - 1 || done, by: actorAt(s, a.startedAt) }));
  const about = { type: 'SERVICE', crn: s.crn ?? s.id, noun: 'DataFlow service', name: nameOf(s) } as const;
  return eventsOf(h, about, actions, stateOf(h, s) === 'BAD_HEALTH');
}

/**
 * The events of a deployment or a flow: how it was made (unless that is what
 * it is doing now), its current work as the workload tells it, by whoever
 * made it, and an alert while it is in bad health.
 */
function workloadEvents(h: Hook<R>, about: Subject, x: Deployment | DeployedFlow, made: 'create' | 'deploy'): DfEvent[] {
  const w = x.work;
  const now: Action = { ...w, endedAt: w.endsAt, by: x.creatorCrn };
  const first: Action = { action: made, startedAt: x.created, endedAt: x.created, state: 'GOOD_HEALTH', failed: false, done: true };
  return eventsOf(h, about, w.action.startsWith(made) ? [now] : [first, now], x.status.state === 'BAD_HEALTH');
}

export const deploymentEvents = (h: Hook<R>, d: Deployment): DfEvent[] =>
  workloadEvents(h, { type: 'DEPLOYMENT', crn: d.crn, noun: 'Deployment', name: d.name }, d, 'create');

export const flowEvents = (h: Hook<R>, d: Deployment, f: DeployedFlow): DfEvent[] =>
  workloadEvents(h, { type: 'DEPLOYED_FLOW', crn: f.crn, noun: 'Flow', name: `${f.name} of ${d.name}` }, f, 'deploy');

/** Active alerts by severity, for the counts summaries show. */
export function alertCounts(events: readonly DfEvent[]): Doc {
  const active = events.filter((e) => e.alertType !== undefined);
  const count = (severity: DfEvent['severity']): number => active.filter((e) => e.severity === severity).length;
  return { activeInfoAlertCount: count('INFO'), activeWarningAlertCount: count('WARNING'), activeErrorAlertCount: count('ERROR') };
}

// ---- the answers of a service's, deployment's or flow's reads: its events, one of them, its active alerts ----

/**
 * The event answers of a resource's reads, from its events and how a
 * refusal names it: a list (through `timestampFrom`, filters, `rows`, a
 * page when the operation pages), one event by CRN (a service's answer holds
 * it as `event`, a deployment's or flow's in `eventDetail`: the response
 * keeps its own) and the active alerts, in the order `sort` asks.
 */
export function eventAnswers(of: (h: Hook<R>, rec: Rec) => { events: DfEvent[]; what: string }) {
  return {
    listed(h: Hook<R>, rec: Rec, req: Doc): Doc {
      const before = num(req.timestampFrom);
      const events = of(h, rec).events.filter((e) => before === undefined || e.firstOccurrence <= before);
      const wanted = filtered(events, req.filters, { severity: (e) => e.severity, eventType: (e) => e.eventType });
      const rows = num(req.rows);
      const list = rows === undefined ? wanted : wanted.slice(0, Math.max(0, rows));
      return h.ctx.op.paging ? paged(h.ctx, req, list) : { eventSummaries: list };
    },
    detail(h: Hook<R>, rec: Rec, req: Doc): Doc {
      const { events, what } = of(h, rec);
      const ref = text(req.eventCrn);
      const event = events.find((x) => x.crn === ref);
      if (!event) throw notFound(`event ${ref.slice(0, 200)} not found for ${what}`);
      return { event, eventDetail: { event } };
    },
    alerts: (h: Hook<R>, rec: Rec, req: Doc): Doc => ({
      eventSummaries: sorted(
        of(h, rec).events.filter((e) => e.alertType !== undefined),
        [str(req.sort) ?? 'firstOccurrence:asc'],
        { firstOccurrence: (e) => e.firstOccurrence, name: (e) => e.name, eventType: (e) => e.eventType },
      ),
    }),
  };
}

/** What can be done with a service in a state. */
function serviceActions(state: string): string[] {
  if (HEALTHY.includes(state))
    return [
      'UPDATE',
      'UPGRADE',
      'DISABLE',
      'RENEW_CERTIFICATES',
      'ROTATE_PASSWORD',
      'UPDATE_NODE_IMAGES',
      'COLLECT_DIAGNOSTICS',
      'GET_KUBECONFIG',
    ];
  return state === 'BAD_HEALTH' ? ['DISABLE', 'COLLECT_DIAGNOSTICS'] : [];
}

/** What every view of a service computes (its `show`): its status and what it runs, its alerts, what can be done with it. */
export function serviceShown(h: Hook<R>, rec: Rec): Doc {
  const state = stateOf(h, rec);
  const failed = state === 'BAD_HEALTH';
  return {
    status: { state, detailedState: state, message: failed ? (rec.activity.reason ?? `the last ${rec.activity.action} failed`) : '' },
    deploymentCount: deploymentsOf(h, rec).length,
    runningK8sNodeCount: UP.includes(state) ? num(rec.doc.minK8sNodeCount) : 0,
    ...alertCounts(serviceEvents(h, rec)),
    clusterId: `dfx-${rec.id.slice(0, 8)}`,
    validActions: notEnabled(h, rec) ? ['RESET', 'DISABLE'] : rec.deleted ? ['ENABLE', 'RESET'] : serviceActions(state),
    dfLocalUrl: `${h.ctx.info.baseUrl}/dfx/`,
    creatingK8sNodeCount: 0,
    terminatingK8sNodeCount: 0,
    k8sServerVersion: '1.30',
  };
}

export const serviceWatch = eventAnswers((h, s) => ({ events: serviceEvents(h, s), what: `DataFlow service ${nameOf(s)}` }));

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

/**
 * A metric: its label, unit, the range its values move in, and what it is
 * about (default SYSTEM); on a chart, with the KPI it is for, or its value
 * when that is not made up.
 */
interface Metric {
  readonly id: string;
  readonly label: string;
  readonly unit: string;
  readonly range: readonly [number, number];
  readonly componentType?: string;
  readonly kpi?: Doc;
  readonly fixed?: number;
}

/** The system metrics of a deployment (per NiFi node) and of a service (its Kubernetes cluster). */
const DEPLOYMENT_SYSTEM: readonly Metric[] = [
  { id: 'cpuUtilization', label: 'CPU utilization', unit: 'percentage', range: [15, 65] },
  { id: 'memoryUtilization', label: 'Memory utilization', unit: 'percentage', range: [30, 70] },
  { id: 'contentRepositoryUsage', label: 'Content repository usage', unit: 'percentage', range: [5, 40] },
];
const SERVICE_SYSTEM: readonly Metric[] = [
  { id: 'cpuUsage', label: 'CPU usage', unit: 'percentage', range: [10, 55] },
  { id: 'memoryUsage', label: 'Memory usage', unit: 'percentage', range: [25, 60] },
  { id: 'nodeCount', label: 'Kubernetes nodes', unit: 'count', range: [0, 0] },
];

/** A KPI's metric, from the workload service's KPI metadata (an unknown one counts). */
function kpiMetric(h: Hook<R>, id: string, componentType: string | undefined): Metric {
  for (const scope of docs(h.world.dataflows.kpiMetadata().kpiScopes))
    for (const m of docs(scope.metricTypes))
      if (m.id === id) {
        const unit = str(m.defaultUnitId) ?? 'count';
        const range = unit === 'percentage' ? ([10, 80] as const) : ([20_000, 400_000] as const);
        return { id, label: str(m.label) ?? id, unit, range, componentType: str(scope.type) ?? 'SYSTEM' };
      }
  return { id, label: id, unit: 'count', range: [0, 500], componentType: componentType ?? 'NIFI_FLOW' };
}

const round1 = (v: number): number => Math.round(v * 10) / 10;

function chartData(points: ReadonlyArray<{ timestamp: number; value: number }>, unit: Unit): Doc {
  const values = points.map((p) => p.value);
  const current = values[values.length - 1] ?? 0;
  const average = values.length ? round1(values.reduce((t, v) => t + v, 0) / values.length) : 0;
  return {
    averageValue: average,
    currentValue: current,
    currentValueLabel: unit.label(current),
    averageValueLabel: unit.label(average),
    tooltipValueLabel: unit.type,
    datas: points,
  };
}

/** What a subject's charts are drawn over: its seed (its CRN), since when it exists, whether it runs now. */
interface Span {
  readonly seed: string;
  readonly since: number;
  readonly running: boolean;
}

/**
 * The charts of metrics over the time span a request asks: a point per step
 * since the subject existed (none before), 0 while it is not running, else
 * steady for one subject, metric and time (or `fixed`); each with its alert
 * thresholds from the KPI it is for, when one is configured.
 */
function charts(h: Hook<R>, period: unknown, span: Span, metrics: readonly Metric[]): Doc[] {
  const p = PERIODS[typeof period === 'string' ? period : ''];
  if (!p) throw invalid(`metricsTimePeriod must be one of ${Object.keys(PERIODS).join(', ')}; got "${String(period).slice(0, 50)}"`);
  const stepMs = p.step * MINUTE;
  const last = Math.floor(h.ctx.clock.now() / stepMs) * stepMs;
  return metrics.map((m) => {
    const { kpi, fixed } = m;
    const unit = UNITS[m.unit] ?? (UNITS.count as Unit);
    const [lo, hi] = m.range;
    const valueAt = (t: number): number => round1(lo + (hi - lo) * (parseInt(hex(`${span.seed}/${m.id}/${t}`, 6), 16) / 0xffffff));
    const points: Array<{ timestamp: number; value: number }> = [];
    for (let t = last - p.minutes * MINUTE + stepMs; t <= last; t += stepMs)
      if (t >= span.since) points.push({ timestamp: t, value: !span.running ? 0 : (fixed ?? valueAt(t)) });
    const alert = obj(kpi?.alert);
    const tolerance = obj(alert.frequencyTolerance);
    const more = num(obj(alert.thresholdMoreThan).value);
    const less = num(obj(alert.thresholdLessThan).value);
    return {
      name: m.label,
      unitType: unit.type,
      componentType: m.componentType ?? 'SYSTEM',
      ...(str(kpi?.componentId) ? { componentName: str(kpi?.componentId) } : {}),
      metrics: chartData(points, unit),
      mirroredMetrics: chartData([], unit),
      alert: {
        frequencyTolerance: { unit: str(obj(tolerance.unit).id) ?? 'MINUTES', value: num(tolerance.value) ?? 5 },
        ...(more !== undefined ? { thresholdMoreThan: more } : {}),
        ...(less !== undefined ? { thresholdLessThan: less } : {}),
      },
    };
  });
}

/** Whether a deployment (or flow) state means its NiFi nodes run. */
const runs = (state: string): boolean => HEALTHY.includes(state) || state === 'BAD_HEALTH' || state === 'UPDATING';

/** The span of a deployment's or a flow's charts. */
const workloadSpan = (x: Deployment | DeployedFlow): Span => ({ seed: x.crn, since: x.created, running: runs(x.status.state) });

/** The charts of the KPIs a deployment or a flow is configured with. */
export function kpiCharts(h: Hook<R>, x: Deployment | DeployedFlow, period: unknown): Doc[] {
  const kpis = x.kpis.map((k) => ({ ...kpiMetric(h, str(k.metricId) ?? 'unknown', str(k.metricComponentType)), kpi: k }));
  return charts(h, period, workloadSpan(x), kpis);
}

export const deploymentSystemCharts = (h: Hook<R>, d: Deployment, period: unknown): Doc[] =>
  charts(h, period, workloadSpan(d), DEPLOYMENT_SYSTEM);

/** listServiceSystemMetrics: its cluster's, while it runs; its nodes, one a deployment above the least, up to the most. */
export function listServiceSystemMetrics(h: Hook<R>, s: Rec, req: Doc): Doc {
  const state = stateOf(h, s);
  const min = num(s.doc.minK8sNodeCount) ?? 0;
  const nodes = min + Math.min(deploymentsOf(h, s).length, (num(s.doc.maxK8sNodeCount) ?? min) - min);
  const span = { seed: s.crn ?? s.id, since: s.createdAt, running: UP.includes(state) || state === 'BAD_HEALTH' };
  const metrics = SERVICE_SYSTEM.map((m) => (m.id === 'nodeCount' ? { ...m, fixed: nodes } : m));
  return { metricCharts: charts(h, req.metricsTimePeriod, span, metrics) };
}

// ---- notifications and filter options ------------------------------------------------------

/** listNotifications: the events of every service and deployment of the account after a time, oldest first. */
export function listNotifications(h: Hook<R>, req: Doc): Doc {
  const after = num(req.timestampAfter) ?? 0;
  const all = [
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
];

const options = (ids: readonly string[]): Doc[] =>
  ids.map((id) => ({ identifier: id, label: id.charAt(0) + id.slice(1).toLowerCase().replace(/_/g, ' ') }));

/** The values each filter type of a listing takes: of deployments and events, or (projects) of projects. */
function filterOptions(h: Hook<R>, type: string, ofProjects: boolean): Doc {
  const kinds: Readonly<Record<string, () => Doc[]>> = {
    state: () => options(ofProjects ? ['ACTIVE', 'DELETING'] : DEPLOYMENT_STATES),
    service: () => allServices(h).map((s) => ({ identifier: s.crn, label: s.name })),
    ...(ofProjects
      ? {}
      : {
          project: () => recordsIn(h, 'project').map((p) => ({ identifier: p.crn, label: nameOf(p) })),
          severity: () => options(['INFO', 'WARNING', 'ERROR']),
        }),
  };
  const pick = kinds[type];
  if (!pick) throw invalid(`filterType must be one of ${Object.keys(kinds).join(', ')}; got "${type.slice(0, 50)}"`);
  return { filterOptions: pick() };
}

export const listFilterOptions = (h: Hook<R>, req: Doc): Doc => filterOptions(h, text(req.filterType), false);

export const listProjectFilterOptions = (h: Hook<R>, req: Doc): Doc => filterOptions(h, text(req.filterType), true);
