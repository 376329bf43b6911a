/**
 * Autoscaling rules of a cluster: one set per cluster, of policies that each
 * name instance groups (comma separated) and scale them either by load
 * (between a minimum and a maximum, with a cool-down) or on schedules (a cron
 * trigger in a time zone and a target count). The request's nested fields
 * are checked as the model describes them: the schedule configuration (an
 * object in the wire shape) against IndividualScheduleRequestConfiguration.
 * The rules keep a history of what was done to them.
 */
import { validateRequest } from '../../../core/validate.js';
import { ShapeIndex } from '../../../model/shapes.js';
import { shapes } from '../../../model/services/datahub/wire.js';
import { alreadyExists, invalid, notFound } from '../../errors.js';
import type { Doc } from '../../types.js';
import { docs, num, obj, optBool, str, text } from '../../values.js';
import type { EngineRecord } from '../../engine/records.js';
import { asCluster, type AutoscaleRec, type ClusterRec, type DatahubHook } from './records.js';

/** The model's shapes, for checking the nested schedule configuration. */
const SHAPES = new ShapeIndex(shapes);

const ADJUSTMENT_TYPES = ['ABSOLUTE_COUNT'];
const HISTORY_KEPT = 1000;

/** Seven Quartz cron fields at most (seconds minutes hours day-of-month month day-of-week [year]), six at least. */
const cronFields = (expr: string): number => expr.trim().split(/\s+/).length;

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The policies of a request, checked against the cluster's groups; identifiers made up where none is given. */
function policiesOf(h: DatahubHook, c: ClusterRec, given: readonly Doc[]): Doc[] {
  if (given.length === 0) throw invalid('give at least one autoscale policy');
  const claimed = new Map<string, number>();
  const ids = new Set<string>();
  const idOf = (given: unknown, kind: string, i: number, j = 0): string => {
    const id = str(given) ?? `${c.doc.clusterName}-${kind}-${i + 1}${kind === 'schedule' ? `-${j + 1}` : ''}`;
    if (ids.has(id)) throw invalid(`autoscale rule identifier ${id} is given twice`);
    ids.add(id);
    return id;
  };
  return given.map((p, i) => {
    const where = `autoScalePolicies[${i}]`;
    const groups = text(p.hostGroups)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (groups.length === 0) throw invalid(`${where}.hostGroups names no instance group`);
    for (const name of groups) {
      const g = c.doc.groups.find((x) => x.name === name);
      if (!g)
        throw invalid(
          `${where}: cluster ${c.doc.clusterName} has no instance group ${name}; it has ${c.doc.groups.map((x) => x.name).join(', ')}`,
        );
      if (g.type === 'GATEWAY') throw invalid(`${where}: instance group ${name} holds Cloudera Manager (GATEWAY) and cannot autoscale`);
      const other = claimed.get(name);
      if (other !== undefined) throw invalid(`${where}: instance group ${name} already has a policy (autoScalePolicies[${other}])`);
      claimed.set(name, i);
    }
    const load = p.loadBasedPolicy === undefined ? undefined : obj(p.loadBasedPolicy);
    const schedule = p.scheduleBasedPolicy === undefined ? undefined : obj(p.scheduleBasedPolicy);
    if ((load ? 1 : 0) + (schedule ? 1 : 0) !== 1) throw invalid(`${where}: give a loadBasedPolicy or a scheduleBasedPolicy (one of them)`);
    const out: Doc = { hostGroups: groups.join(',') };
    if (load) {
      const cfg = obj(load.configuration);
      const min = num(cfg.minResourceValue) ?? 0;
      const max = num(cfg.maxResourceValue) ?? 0;
      if (max < 1) throw invalid(`${where}.loadBasedPolicy: maxResourceValue must be 1 or more`);
      if (min > max) throw invalid(`${where}.loadBasedPolicy: minResourceValue ${min} is above maxResourceValue ${max}`);
      const cool = num(cfg.coolDownMinutes);
      if (cool !== undefined && cool < 0) throw invalid(`${where}.loadBasedPolicy: coolDownMinutes cannot be negative`);
      out.loadBasedPolicy = {
        identifier: idOf(load.identifier, 'load', i),
        ...(str(load.description) !== undefined ? { description: load.description } : {}),
        configuration: { minResourceValue: min, maxResourceValue: max, ...(cool !== undefined ? { coolDownMinutes: cool } : {}) },
      };
    }
    if (schedule) {
      const list = docs(schedule.schedules);
      if (list.length === 0) throw invalid(`${where}.scheduleBasedPolicy has no schedules`);
      out.scheduleBasedPolicy = {
        schedules: list.map((s, j) => {
          const at = `${where}.scheduleBasedPolicy.schedules[${j}].configuration`;
          const cfg = obj(s.configuration);
          const issues = validateRequest(SHAPES, 'IndividualScheduleRequestConfiguration', cfg);
          if (issues.length > 0) throw invalid(`${at}: ${issues.map((x) => x.message).join('; ')}`);
          const trigger = obj(cfg.trigger);
          const action = obj(cfg.action);
          const cron = str(trigger.cronExpression);
          if (!cron) throw invalid(`${at}.trigger.cronExpression is missing`);
          if (cronFields(cron) < 6 || cronFields(cron) > 7)
            throw invalid(`${at}.trigger.cronExpression "${cron}" is not a Quartz cron expression (6 or 7 fields, seconds first)`);
          const zone = str(trigger.timeZone) ?? 'UTC';
          if (!validTimeZone(zone)) throw invalid(`${at}.trigger.timeZone ${zone} is not a time zone`);
          const type = str(action.resourceAdjustmentType);
          if (!type || !ADJUSTMENT_TYPES.includes(type))
            throw invalid(`${at}.action.resourceAdjustmentType must be ${ADJUSTMENT_TYPES.join(' or ')}`);
          const value = num(action.resourceAdjustmentValue);
          if (value === undefined || value < 0) throw invalid(`${at}.action.resourceAdjustmentValue must be 0 or more`);
          return {
            identifier: idOf(s.identifier, 'schedule', i, j),
            ...(str(s.description) !== undefined ? { description: s.description } : {}),
            configuration: {
              trigger: { cronExpression: cron, timeZone: zone },
              action: { resourceAdjustmentType: type, resourceAdjustmentValue: value },
            },
          };
        }),
      };
    }
    return out;
  });
}

/** The cluster's rules, or NOT_FOUND. */
export function rulesOf(c: ClusterRec): AutoscaleRec {
  if (!c.doc.autoscale)
    throw notFound(`cluster ${c.doc.clusterName} has no autoscale rules; create them with \`datahub autoscale-rules create\``);
  return c.doc.autoscale;
}

/** The history with what was just done added (the newest kept). */
const logged = (h: DatahubHook, c: ClusterRec, ...messages: string[]): Doc => ({
  autoscaleHistory: [...(c.doc.autoscaleHistory ?? []), ...messages.map((message) => ({ at: h.ctx.clock.now(), message }))].slice(
    -HISTORY_KEPT,
  ),
});

/** What the changes of a cluster's autoscale rules set on it (effects of its updates, by change): the rules and their history. */
export const autoscaleChanges = {
  autoscaleCreate: (h: DatahubHook, rec: Readonly<EngineRecord>, req: Doc): Doc => {
    const c = asCluster(rec);
    if (c.doc.autoscale)
      throw alreadyExists(`cluster ${c.doc.clusterName} already has autoscale rules; change them with \`datahub autoscale-rules update\``);
    const enabled = optBool(req.enabled) ?? true;
    const autoscale = { enabled, policies: policiesOf(h, c, docs(req.autoScalePolicies)) };
    const what = `Autoscale rules created for ${describe(autoscale)}; autoscaling ${enabled ? 'enabled' : 'disabled'}`;
    return { autoscale, ...logged(h, c, what) };
  },
  autoscaleUpdate: (h: DatahubHook, rec: Readonly<EngineRecord>, req: Doc): Doc => {
    const c = asCluster(rec);
    const current = rulesOf(c);
    const policies = req.autoScalePolicies === undefined ? undefined : docs(req.autoScalePolicies);
    const next: AutoscaleRec = {
      enabled: optBool(req.enabled) ?? current.enabled,
      policies: policies ? policiesOf(h, c, policies) : current.policies,
    };
    const what = [
      ...(policies ? [`Autoscale rules replaced: ${describe(next)}`] : []),
      ...(next.enabled !== current.enabled ? [`Autoscaling ${next.enabled ? 'enabled' : 'disabled'}`] : []),
    ];
    return { autoscale: next, ...logged(h, c, ...what) };
  },
  autoscaleDelete: (h: DatahubHook, rec: Readonly<EngineRecord>): Doc => {
    const c = asCluster(rec);
    rulesOf(c);
    return { autoscale: undefined, ...logged(h, c, 'Autoscale rules deleted') };
  },
};

/** Newest first, at most `count` (default 200). */
export function historyOf(c: ClusterRec, count = 200): Array<{ at: number; message: string }> {
  return [...(c.doc.autoscaleHistory ?? [])].reverse().slice(0, count);
}

function describe(a: AutoscaleRec): string {
  return a.policies.map((p) => `${String(p.hostGroups)} (${p.loadBasedPolicy ? 'load based' : 'schedule based'})`).join(', ');
}
