/**
 * The lakehouse optimizer in the emulator: state and rules, no HTTP.
 *
 * Policies (versions of a script plus JSON arguments) are associated with
 * single tables or with whole namespaces of the one optimizer Data Hub of
 * the built-in catalogue. Running a policy for real starts a task that goes
 * INIT -> RUNNING -> SUCCESS on the emulator clock (ERROR when the policy
 * name starts with `fail-`), computed when read. A table's status follows
 * its latest finished task: SUCCESS or ERROR, UNAVAILABLE when no task ran
 * in the last day, PAUSED while paused (pausing stops new runs).
 */
import { stateAt, timeline, type Timeline } from '../../clock.js';
import { CronError, firesBetween, parseCron, type Cron } from '../../cron.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { page } from '../../paging.js';
import { requireEnvironment } from '../../environments.js';
import type { Doc, RequestContext } from '../../types.js';
import { CATALOG, NAMESPACES, SCRIPTS, TIMEZONES, environments, type EnvironmentEntry } from './catalogue.js';

export const KIND = {
  policy: 'lakehouseopt.policy',
  table: 'lakehouseopt.table',
  task: 'lakehouseopt.task',
} as const;

/** A task counts for a table's status for this long after it ends. */
const RECENT_MS = 24 * 3_600_000;

interface Version {
  version: string;
  script: string;
  arguments: string;
  creationTime: number;
}

interface PolicyRecord {
  policyName: string;
  hubCrn: string;
  versions: Version[];
  creationTime: number;
  /** namespace -> tables associated one by one */
  tables: Record<string, string[]>;
  /** namespaces associated as a whole */
  namespaces: string[];
  /** Scheduled runs up to this time (emulated ms) have been made; see runSchedules. */
  scheduledThrough?: number;
}

interface TableRecord {
  paused: boolean;
  pausedSince?: string;
  reasons?: string[];
}

interface TaskRecord {
  taskId: string;
  hubCrn: string;
  policy: string;
  version: string;
  namespace: string;
  table: string;
  actions: string[];
  createdAt: number;
  timeline: Timeline;
  /** Made by the policy's schedule rather than by executePolicy. */
  scheduled?: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

// ---- the catalogue

function envs(ctx: RequestContext): EnvironmentEntry[] {
  return environments(ctx);
}

/** The environment a request names (by CRN or name), with its optimizer hub if it has one. */
function envOf(ctx: RequestContext, req: Doc): EnvironmentEntry {
  const want = str(req.environmentCrn);
  if (!want) throw invalid('environmentCrn is required');
  const crn = requireEnvironment(ctx, want).crn;
  const env = envs(ctx).find((e) => e.environmentCrn === crn);
  if (!env) throw notFound(`environment ${want} not found`);
  return env;
}

/**
 * An environment as the optimizer reports it: the hub fields and status are
 * null where the optimizer is not enabled (the seed's Environment record).
 */
function envDoc(e: EnvironmentEntry): Doc {
  return {
    environmentName: e.environmentName,
    environmentCrn: e.environmentCrn,
    isCloEnabled: Boolean(e.hub),
    datahubName: e.hub?.datahubName ?? null,
    datahubCrn: e.hub?.datahubCrn ?? null,
    cloudPlatform: e.cloudPlatform,
    status: e.hub?.status ?? null,
  };
}

/** The optimizer hub a request names by datahubCrn. */
function hubOf(ctx: RequestContext, req: Doc): string {
  const want = str(req.datahubCrn);
  if (!want) throw invalid('datahubCrn is required');
  const env = envs(ctx).find((e) => e.hub?.datahubCrn === want || e.hub?.datahubName === want);
  if (!env?.hub) throw notFound(`no lakehouse optimizer Data Hub ${want}`);
  runSchedules(ctx, env.hub.datahubCrn);
  return env.hub.datahubCrn;
}

function namespaceOf(req: Doc, field = 'namespace'): string {
  const ns = str(req[field]);
  if (!ns) throw invalid(`${field} is required`);
  if (!NAMESPACES[ns]) throw notFound(`namespace ${ns} not found`);
  return ns;
}

function tableOf(req: Doc): { namespace: string; table: string } {
  const namespace = namespaceOf(req);
  const table = str(req.tableName);
  if (!table) throw invalid('tableName is required');
  if (!NAMESPACES[namespace]?.includes(table)) throw notFound(`table ${namespace}.${table} not found`);
  return { namespace, table };
}

const hubKey = (ctx: RequestContext, hub: string): string => `${ctx.caller.accountId}|${hub}`;
const policyKey = (ctx: RequestContext, hub: string, name: string): string => `${hubKey(ctx, hub)}|${name.toLowerCase()}`;
const tableKey = (ctx: RequestContext, hub: string, ns: string, table: string): string => `${hubKey(ctx, hub)}|${ns}.${table}`;

// ---- policies and tasks

function policies(ctx: RequestContext, hub: string): PolicyRecord[] {
  return ctx.store.children<PolicyRecord>(KIND.policy, hubKey(ctx, hub)).map((r) => r.doc);
}

function getPolicy(ctx: RequestContext, hub: string, name: unknown): PolicyRecord {
  const n = str(name);
  if (!n) throw invalid('policyName is required');
  const p = ctx.store.get<PolicyRecord>(KIND.policy, policyKey(ctx, hub, n));
  if (!p) throw notFound(`policy ${n} not found`);
  return p;
}

function savePolicy(ctx: RequestContext, p: PolicyRecord): void {
  ctx.store.put(KIND.policy, policyKey(ctx, p.hubCrn, p.policyName), p, { parent: hubKey(ctx, p.hubCrn) });
}

const latest = (p: PolicyRecord): Version => p.versions[p.versions.length - 1] as Version;
const appliesTo = (p: PolicyRecord, ns: string, table: string): boolean =>
  p.namespaces.includes(ns) || (p.tables[ns] ?? []).includes(table);
const directlyOn = (p: PolicyRecord, ns: string, table: string): boolean => (p.tables[ns] ?? []).includes(table);
const inNamespace = (p: PolicyRecord, ns: string): boolean => p.namespaces.includes(ns) || (p.tables[ns] ?? []).length > 0;

function tasks(ctx: RequestContext, hub: string): TaskRecord[] {
  return ctx.store.children<TaskRecord>(KIND.task, hubKey(ctx, hub)).map((r) => r.doc);
}

function taskState(t: TaskRecord, now: number): { status: string; done: boolean; endedAt: number } {
  const { state, done } = stateAt(t.timeline, now);
  const last = t.timeline.steps[t.timeline.steps.length - 1];
  return { status: state, done, endedAt: t.timeline.startedAt + (last?.afterMs ?? 0) };
}

function tableRecord(ctx: RequestContext, hub: string, ns: string, table: string): TableRecord {
  return ctx.store.get<TableRecord>(KIND.table, tableKey(ctx, hub, ns, table)) ?? { paused: false };
}

/** The status of a table now, and the time of its latest task. */
function tableStatus(ctx: RequestContext, hub: string, ns: string, table: string, all: TaskRecord[]): { status: string; last?: number } {
  const now = ctx.clock.now();
  const mine = all.filter((t) => t.namespace === ns && t.table === table).sort((a, b) => b.createdAt - a.createdAt);
  const last = mine[0]?.createdAt;
  if (tableRecord(ctx, hub, ns, table).paused) return { status: 'PAUSED', last };
  const finished = mine.map((t) => taskState(t, now)).find((s) => s.done);
  if (!finished || now - finished.endedAt > RECENT_MS) return { status: 'UNAVAILABLE', last };
  return { status: finished.status, last };
}

function policyTableStats(p: PolicyRecord, all: TaskRecord[], ns?: string, table?: string): { taskCount: number; last?: number } {
  const mine = all.filter(
    (t) => t.policy.toLowerCase() === p.policyName.toLowerCase() && (!ns || t.namespace === ns) && (!table || t.table === table),
  );
  const last = mine.reduce<number | undefined>((m, t) => (m === undefined || t.createdAt > m ? t.createdAt : m), undefined);
  return { taskCount: mine.length, last };
}

/** The tables a policy covers, namespace by namespace. */
function coveredTables(p: PolicyRecord): Array<{ namespace: string; tables: string[] }> {
  return Object.keys(NAMESPACES)
    .map((ns) => ({ namespace: ns, tables: (NAMESPACES[ns] ?? []).filter((t) => appliesTo(p, ns, t)) }))
    .filter((x) => x.tables.length > 0);
}

function aggregate(statuses: string[]): string {
  if (statuses.length === 0) return 'UNAVAILABLE';
  if (statuses.includes('ERROR')) return 'ERROR';
  if (statuses.every((s) => s === 'PAUSED')) return 'USER_PAUSED';
  if (statuses.includes('PAUSED')) return 'WARNING';
  if (statuses.includes('SUCCESS')) return 'SUCCESS';
  return 'UNAVAILABLE';
}

function parseArguments(text: string | undefined): string {
  const args = text ?? '{}';
  let v: unknown;
  try {
    v = JSON.parse(args);
  } catch {
    v = undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw invalid('resources.arguments must be a JSON object in text, e.g. {"schedule":"0 2 * * *","timezone":"UTC"}');
  scheduleOf(args);
  return args;
}

/**
 * The schedule in a policy's arguments (`schedule`: a five-field cron
 * expression, `timezone`: an id from getTimezones, UTC when left out), or
 * undefined when it has none. Throws INVALID_ARGUMENT for a bad one.
 */
function scheduleOf(args: string): { cron: Cron; offset: number } | undefined {
  let v: Doc = {};
  try {
    v = JSON.parse(args) as Doc;
  } catch {
    return undefined;
  }
  const tz = v.timezone;
  if (tz !== undefined && (typeof tz !== 'string' || !TIMEZONES.some((t) => t.id === tz)))
    throw invalid(
      `resources.arguments timezone ${JSON.stringify(tz)} is not a time zone of getTimezones (timezones list), e.g. UTC or Europe/Berlin`,
    );
  const offset = TIMEZONES.find((t) => t.id === (tz ?? 'UTC'))?.offset ?? 0;
  if (v.schedule === undefined) return undefined;
  if (typeof v.schedule !== 'string') throw invalid('resources.arguments schedule must be a cron expression in text, e.g. "0 2 * * *"');
  try {
    return { cron: parseCron(v.schedule), offset };
  } catch (e) {
    if (e instanceof CronError) throw invalid(`resources.arguments schedule "${v.schedule}" is not a valid cron expression: ${e.message}`);
    throw e;
  }
}

/** The schedule of stored arguments (checked when stored; one stored before the check came in never runs). */
function storedSchedule(args: string): ReturnType<typeof scheduleOf> {
  try {
    return scheduleOf(args);
  } catch {
    return undefined;
  }
}

/** Scheduled runs looked back over at most this far; the emulator keeps this many tasks per Data Hub. */
const SCHEDULE_LOOKBACK_MS = 30 * 24 * 3_600_000;
const TASKS_KEPT = 1000;

/**
 * Makes the tasks a hub's scheduled policies have run since they were last
 * looked at, up to now: one task per covered, unpaused table at every time
 * the policy's schedule fired. Called before every request that names the
 * hub, so changes (associations, pauses, new versions) apply from the moment
 * they are made; nothing runs in the background.
 */
function runSchedules(ctx: RequestContext, hub: string): void {
  const now = ctx.clock.now();
  let made = 0;
  for (const p of policies(ctx, hub)) {
    const since = Math.max(p.scheduledThrough ?? p.creationTime, now - SCHEDULE_LOOKBACK_MS);
    if (since >= now) continue;
    const sched = storedSchedule(latest(p).arguments);
    if (!sched) continue;
    const targets = coveredTables(p)
      .flatMap((c) => c.tables.map((table) => ({ namespace: c.namespace, table })))
      .filter((t) => !tableRecord(ctx, hub, t.namespace, t.table).paused);
    const fires = firesBetween(sched.cron, sched.offset, since, now, Math.max(1, Math.ceil(TASKS_KEPT / Math.max(1, targets.length))));
    if (fires.length === 0) continue;
    for (const at of fires.reverse()) for (const t of targets) startTask(ctx, hub, p, t.namespace, t.table, at, true);
    made += fires.length * targets.length;
    p.scheduledThrough = now;
    savePolicy(ctx, p);
  }
  if (made > 0) {
    const old = tasks(ctx, hub)
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(TASKS_KEPT);
    for (const t of old) ctx.store.delete(KIND.task, t.taskId);
  }
}

/** A maintenance task of a policy on a table, started at a time: INIT, RUNNING, then SUCCESS (ERROR for `fail-` policies). */
function startTask(
  ctx: RequestContext,
  hub: string,
  p: PolicyRecord,
  namespace: string,
  table: string,
  at: number,
  scheduled: boolean,
): TaskRecord {
  const v = latest(p);
  const fail = p.policyName.toLowerCase().startsWith('fail-');
  const task: TaskRecord = {
    taskId: uuid(),
    hubCrn: hub,
    policy: p.policyName,
    version: v.version,
    namespace,
    table,
    actions: actionsOf(v.script),
    createdAt: at,
    timeline: timeline(at, [
      ['INIT', 0.5],
      ['RUNNING', 2],
      [fail ? 'ERROR' : 'SUCCESS', 0],
    ]),
    ...(scheduled ? { scheduled } : {}),
  };
  ctx.store.put(KIND.task, task.taskId, task, { parent: hubKey(ctx, hub) });
  return task;
}

function scriptText(script: string): string {
  const builtin = SCRIPTS.find((s) => s.name === script || s.uri === script);
  if (!builtin) return script;
  return [
    `# ${builtin.name}: ${builtin.description}`,
    `# source: ${builtin.uri}`,
    ...builtin.actions.map((a) => `run_action("${a}", args)`),
    '',
  ].join('\n');
}

function actionsOf(script: string): string[] {
  const builtin = SCRIPTS.find((s) => s.name === script || s.uri === script);
  return builtin ? [...builtin.actions] : ['custom_script'];
}

// ---- environments and hub

export function listEnvironments(req: Doc, ctx: RequestContext): Doc {
  const all = envs(ctx).map(envDoc);
  if (req.pageToken === 'ALL') return { environments: all, totalEnvironments: all.length };
  const p = page(all, req, { tokenField: 'pageToken', defaultSize: 100, maxSize: 100 });
  return { environments: p.items, totalEnvironments: all.length, ...(p.nextToken ? { nextPageToken: p.nextToken } : {}) };
}

export function getCloDatahub(req: Doc, ctx: RequestContext): Doc {
  const { isCloEnabled: _, ...doc } = envDoc(envOf(ctx, req));
  return doc;
}

export function getDatahubCrn(req: Doc, ctx: RequestContext): Doc {
  return { datahubCrn: envOf(ctx, req).hub?.datahubCrn ?? null };
}

export function getHealth(req: Doc, ctx: RequestContext): Doc {
  hubOf(ctx, req);
  const full = req.scope === 'Full';
  const now = ctx.clock.now();
  const check = (message: string, duration: number, details: Record<string, string>): Doc => ({
    isHealthy: true,
    message,
    details,
    time: now,
    duration,
  });
  const result: Record<string, Doc> = {
    scheduler: check('scheduler is running', 4, { jobs: String(policies(ctx, hubOf(ctx, req)).length) }),
    dispatcher: check('dispatcher is accepting tasks', 3, { queue: '0' }),
    dataAccess: check(full ? 'opened an interactive session and read the catalog' : 'catalog reachable', full ? 2150 : 12, {
      catalog: CATALOG,
      ...(full ? { session: 'interactive' } : {}),
    }),
  };
  return { result, action: 'NOOP' };
}

export function getNamespaces(req: Doc, ctx: RequestContext): Doc {
  hubOf(ctx, req);
  return { namespaces: Object.keys(NAMESPACES) };
}

export function getScripts(req: Doc, ctx: RequestContext): Doc {
  hubOf(ctx, req);
  return { scripts: SCRIPTS.map((s) => ({ name: s.name, uri: s.uri, description: s.description })) };
}

export function getTimezones(): Doc {
  return { timezones: TIMEZONES.map((t) => ({ ...t })) };
}

// ---- tables

export function listTables(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const ns = namespaceOf(req);
  const all = tasks(ctx, hub);
  const ps = policies(ctx, hub);
  return {
    tables: (NAMESPACES[ns] ?? []).map((table) => {
      const st = tableStatus(ctx, hub, ns, table, all);
      return {
        status: st.status,
        namespace: ns,
        tableName: table,
        policies: ps.filter((p) => appliesTo(p, ns, table)).map((p) => p.policyName),
        ...(st.last !== undefined ? { lastExecutionTime: st.last } : {}),
      };
    }),
  };
}

export function getTableNames(req: Doc, ctx: RequestContext): Doc {
  hubOf(ctx, req);
  return { tables: [...(NAMESPACES[namespaceOf(req)] ?? [])] };
}

export function getTablePolicies(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const { namespace, table } = tableOf(req);
  const all = tasks(ctx, hub);
  const status = tableStatus(ctx, hub, namespace, table, all).status;
  return {
    policies: policies(ctx, hub)
      .filter((p) => appliesTo(p, namespace, table))
      .map((p) => {
        const s = policyTableStats(p, all, namespace, table);
        return { status, policyName: p.policyName, taskCount: s.taskCount, ...(s.last !== undefined ? { lastExecutionTime: s.last } : {}) };
      }),
  };
}

export function getTableStatusDetails(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const { namespace, table } = tableOf(req);
  const rec = tableRecord(ctx, hub, namespace, table);
  const now = ctx.clock.now();
  const wantPolicy = str(req.policyName)?.toLowerCase();
  const wantStatus = str(req.status);
  const out: Doc = {};
  if (rec.paused) {
    out.pausedTable = {
      message: `maintenance of ${namespace}.${table} is paused`,
      details: { pausedSince: rec.pausedSince, reasons: rec.reasons ?? [] },
    };
  }
  const recent = tasks(ctx, hub)
    .filter((t) => t.namespace === namespace && t.table === table && (!wantPolicy || t.policy.toLowerCase() === wantPolicy))
    .sort((a, b) => b.createdAt - a.createdAt)
    .find((t) => !wantStatus || wantStatus === 'PAUSED' || wantStatus === 'UNAVAILABLE' || taskState(t, now).status === wantStatus);
  if (recent) {
    const st = taskState(recent, now);
    out.recentTask = {
      actions: recent.actions.map((action) => ({ action, status: st.status })),
      policyName: recent.policy,
      tableName: recent.table,
      lastExecutionTime: recent.createdAt,
    };
  }
  return out;
}

export function pauseTable(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const { namespace, table } = tableOf(req);
  // Pausing moves any state to PAUSED; a paused table stays as it is (since, reasons).
  if (tableRecord(ctx, hub, namespace, table).paused) return {};
  ctx.store.put<TableRecord>(KIND.table, tableKey(ctx, hub, namespace, table), {
    paused: true,
    pausedSince: ctx.clock.iso(),
    reasons: [`paused by ${ctx.caller.actorCrn}`],
  });
  return {};
}

export function unpauseTable(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const { namespace, table } = tableOf(req);
  if (!tableRecord(ctx, hub, namespace, table).paused) throw failedPrecondition(`maintenance of ${namespace}.${table} is not paused`);
  ctx.store.put<TableRecord>(KIND.table, tableKey(ctx, hub, namespace, table), { paused: false });
  return {};
}

function policiesNamed(ctx: RequestContext, hub: string, names: unknown): PolicyRecord[] {
  const list = Array.isArray(names) ? names.map(String) : [];
  return list.map((n) => getPolicy(ctx, hub, n));
}

function addTable(p: PolicyRecord, ns: string, table: string): void {
  const list = p.tables[ns] ?? [];
  if (!list.includes(table)) p.tables[ns] = [...list, table];
}

function dropTable(p: PolicyRecord, ns: string, table: string): boolean {
  const list = p.tables[ns] ?? [];
  if (!list.includes(table)) return false;
  p.tables[ns] = list.filter((t) => t !== table);
  if (p.tables[ns].length === 0) delete p.tables[ns];
  return true;
}

function policiesOfTable(ctx: RequestContext, hub: string, ns: string, table: string): string[] {
  return policies(ctx, hub)
    .filter((p) => appliesTo(p, ns, table))
    .map((p) => p.policyName);
}

export function createTablePoliciesAssociations(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const { namespace, table } = tableOf(req);
  for (const p of policiesNamed(ctx, hub, req.policies)) {
    addTable(p, namespace, table);
    savePolicy(ctx, p);
  }
  return { policies: policiesOfTable(ctx, hub, namespace, table) };
}

/**
 * Why a table cannot lose a policy on its own: the policy applies to the
 * whole namespace, and an association with a namespace has no exceptions
 * (the wire has no way to show one).
 */
function throughNamespace(policy: string, ns: string, table: string): string {
  return (
    `table ${ns}.${table} gets policy ${policy} through its association with all of namespace ${ns}, which has no per-table exceptions; ` +
    `pause the table (tables pause) or delete the policy (policies delete --resource-scope '${CATALOG}.*')`
  );
}

export function changeTablePolicy(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const { namespace, table } = tableOf(req);
  const op = str(req.operation) ?? 'APPEND';
  const named = op === 'REMOVEALL' ? [] : policiesNamed(ctx, hub, req.policies);
  if (op !== 'APPEND') {
    // REMOVEALL and REPLACEALL leave the table with exactly the policies named: refuse what would stay through the namespace.
    const kept = policies(ctx, hub).find(
      (p) => p.namespaces.includes(namespace) && !named.some((n) => n.policyName.toLowerCase() === p.policyName.toLowerCase()),
    );
    if (kept) throw failedPrecondition(`${op}: ${throughNamespace(kept.policyName, namespace, table)}`);
    for (const p of policies(ctx, hub)) if (dropTable(p, namespace, table)) savePolicy(ctx, p);
  }
  for (const p of named) {
    const fresh = getPolicy(ctx, hub, p.policyName);
    addTable(fresh, namespace, table);
    savePolicy(ctx, fresh);
  }
  return {};
}

// ---- policies

export function createPolicy(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const name = str(req.policyName);
  if (!name) throw invalid('policyName is required');
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(name))
    throw invalid('policy names use letters, digits, ".", "_" and "-", start with a letter or digit and are at most 128 characters');
  if (ctx.store.get(KIND.policy, policyKey(ctx, hub, name))) throw alreadyExists(`policy ${name} already exists`);
  const res = (req.resources ?? {}) as Doc;
  const script = str(res.script);
  if (!script) throw invalid('resources.script is required: a script name from scripts list, its URI or the script text');
  const now = ctx.clock.now();
  const p: PolicyRecord = {
    policyName: name,
    hubCrn: hub,
    versions: [{ version: uuid(), script, arguments: parseArguments(str(res.arguments)), creationTime: now }],
    creationTime: now,
    tables: {},
    namespaces: [],
  };
  savePolicy(ctx, p);
  return {};
}

export function updatePolicy(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const p = getPolicy(ctx, hub, req.policyName);
  const res = (req.resources ?? {}) as Doc;
  const prev = latest(p);
  if (res.script === undefined && res.arguments === undefined) throw invalid('give resources.script or resources.arguments to change');
  p.versions.push({
    version: uuid(),
    script: str(res.script) ?? prev.script,
    arguments: res.arguments !== undefined ? parseArguments(str(res.arguments)) : prev.arguments,
    creationTime: ctx.clock.now(),
  });
  // The new version's schedule runs from now on (the old one's runs up to now were made by hubOf).
  p.scheduledThrough = ctx.clock.now();
  savePolicy(ctx, p);
  return {};
}

export function deletePolicy(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const p = getPolicy(ctx, hub, req.policyName);
  const [catalog, namespace, table] = String(req.resourceScope).split('.');
  if (catalog !== CATALOG) throw notFound(`catalog ${String(catalog)} not found; this Data Hub has ${CATALOG}`);
  if (namespace === '*') {
    ctx.store.delete(KIND.policy, policyKey(ctx, hub, p.policyName));
    return { deletedPolicies: p.versions.length };
  }
  const ns = namespaceOf({ namespace });
  const t = tableOf({ namespace: ns, tableName: table });
  if (!dropTable(p, t.namespace, t.table)) {
    if (p.namespaces.includes(ns)) throw failedPrecondition(throughNamespace(p.policyName, ns, t.table));
    throw notFound(`policy ${p.policyName} is not associated with table ${ns}.${t.table}`);
  }
  // The table loses the policy. A policy left on no table or namespace is deleted with its versions;
  // otherwise it lives on elsewhere and no version is deleted (deletedPolicies counts versions).
  if (coveredTables(p).length === 0) {
    ctx.store.delete(KIND.policy, policyKey(ctx, hub, p.policyName));
    return { deletedPolicies: p.versions.length };
  }
  savePolicy(ctx, p);
  return { deletedPolicies: 0 };
}

function associationsOut(ctx: RequestContext, p: PolicyRecord, all: TaskRecord[]): Doc[] {
  const hub = p.hubCrn;
  return coveredTables(p).map(({ namespace, tables }) => {
    const tableAssociations = tables.map((t) => {
      const s = policyTableStats(p, all, namespace, t);
      return {
        name: t,
        namespace,
        taskCount: s.taskCount,
        ...(s.last !== undefined ? { lastExecutionTime: s.last } : {}),
        version: latest(p).version,
        status: tableStatus(ctx, hub, namespace, t, all).status,
      };
    });
    return { namespace, status: aggregate(tableAssociations.map((t) => t.status)), tableAssociations };
  });
}

export function describePolicy(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const p = getPolicy(ctx, hub, req.policyName);
  const v = latest(p);
  const all = tasks(ctx, hub);
  const stats = policyTableStats(p, all);
  return {
    versions: p.versions.map((x) => x.version),
    policyDetail: {
      version: v.version,
      arguments: b64(v.arguments),
      scope: p.namespaces.length > 0 ? 'Namespace' : 'Catalog',
      associations: associationsOut(ctx, p, all),
      tableCount: coveredTables(p).reduce((n, x) => n + x.tables.length, 0),
      creationTime: v.creationTime,
      ...(stats.last !== undefined ? { lastExecutionTime: stats.last } : {}),
    },
  };
}

export function listPolicies(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const ns = str(req.namespace) && req.namespace !== '*' ? namespaceOf(req) : undefined;
  const all = tasks(ctx, hub);
  return {
    policies: policies(ctx, hub)
      .filter((p) => !ns || inNamespace(p, ns))
      .map((p) => {
        const stats = policyTableStats(p, all);
        const covered = coveredTables(p);
        return {
          status: aggregate(covered.flatMap((c) => c.tables.map((t) => tableStatus(ctx, hub, c.namespace, t, all).status))),
          policyName: p.policyName,
          taskCount: stats.taskCount,
          tableCount: covered.reduce((n, x) => n + x.tables.length, 0),
          creationTime: p.creationTime,
          ...(stats.last !== undefined ? { lastExecutionTime: stats.last } : {}),
          isDefault: false,
        };
      }),
  };
}

export function getPolicyNames(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const ns = str(req.namespace) && req.namespace !== '*' ? namespaceOf(req) : undefined;
  return {
    policyNames: policies(ctx, hub)
      .filter((p) => !ns || inNamespace(p, ns))
      .map((p) => p.policyName),
  };
}

export function downloadPolicy(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const p = getPolicy(ctx, hub, req.policyName);
  const want = str(req.policyVersion);
  const v = want ? p.versions.find((x) => x.version === want) : latest(p);
  if (!v) throw notFound(`policy ${p.policyName} has no version ${String(want)}`);
  return { script: b64(scriptText(v.script)), arguments: b64(v.arguments) };
}

export function executePolicy(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const { namespace, table } = tableOf(req);
  const p = getPolicy(ctx, hub, req.policyName);
  if (!appliesTo(p, namespace, table))
    throw failedPrecondition(`policy ${p.policyName} is not associated with table ${namespace}.${table}`);
  const v = latest(p);
  const actions = actionsOf(v.script);
  let args: Doc = {};
  try {
    args = JSON.parse(v.arguments) as Doc;
  } catch {
    // stored arguments were checked at creation
  }
  if (req.dryRun !== false) {
    const details = { policy: p.policyName, version: v.version, table: `${CATALOG}.${namespace}.${table}`, actions, arguments: args };
    return { dryRunResult: { actions, details: b64(JSON.stringify(details)) } };
  }
  if (tableRecord(ctx, hub, namespace, table).paused)
    throw failedPrecondition(`maintenance of ${namespace}.${table} is paused; unpause it to run policies`);
  const task = startTask(ctx, hub, p, namespace, table, ctx.clock.now(), false);
  const details = { taskId: task.taskId, policy: p.policyName, version: v.version, table: `${CATALOG}.${namespace}.${table}`, actions };
  return { executionResult: { taskId: task.taskId, details: b64(JSON.stringify(details)) } };
}

export function listTasks(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const ns = str(req.namespace) ? namespaceOf(req) : undefined;
  const now = ctx.clock.now();
  const all = tasks(ctx, hub)
    .filter((t) => !ns || t.namespace === ns)
    .sort((a, b) => b.createdAt - a.createdAt);
  const p = page(all, req, { tokenField: 'pageToken', defaultSize: 1, maxSize: 100 });
  return {
    tasks: p.items.map((t) => {
      const st = taskState(t, now);
      const details: Doc = {
        actions: t.actions.map((action) => ({ action, status: st.status })),
        version: t.version,
        trigger: t.scheduled ? 'SCHEDULE' : 'ON_DEMAND',
      };
      if (st.status === 'ERROR')
        details.error = `maintenance of ${t.namespace}.${t.table} failed: the policy ${t.policy} made the task fail`;
      return {
        status: st.status,
        taskId: t.taskId,
        policy: t.policy,
        catalog: CATALOG,
        namespace: t.namespace,
        table: t.table,
        createdAt: t.createdAt,
        details: b64(JSON.stringify(details)),
      };
    }),
    ...(p.nextToken ? { nextPageToken: p.nextToken } : {}),
  };
}

// ---- associations

export function createAssociations(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const p = getPolicy(ctx, hub, req.policyName);
  const created: Doc[] = [];
  for (const a of (req.associations as Doc[] | undefined) ?? []) {
    const ns = namespaceOf(a);
    const tables = Array.isArray(a.tables) ? a.tables.map(String) : [];
    if (tables.length === 0) {
      if (!p.namespaces.includes(ns)) p.namespaces.push(ns);
      created.push({ namespace: ns, tables: [...(NAMESPACES[ns] ?? [])] });
      continue;
    }
    for (const t of tables) addTable(p, tableOf({ namespace: ns, tableName: t }).namespace, t);
    created.push({ namespace: ns, tables });
  }
  savePolicy(ctx, p);
  return { associations: created };
}

export function getAssociations(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  return { associations: coveredTables(getPolicy(ctx, hub, req.policyName)) };
}

export function getAssociatedNamespaces(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const p = getPolicy(ctx, hub, req.policyName);
  return { associatedNamespaces: Object.keys(NAMESPACES).map((namespace) => ({ namespace, isAssociated: inNamespace(p, namespace) })) };
}

export function getAssociatedTables(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const p = getPolicy(ctx, hub, req.policyName);
  return {
    associatedTables: Object.entries(NAMESPACES).map(([namespace, tables]) => ({
      namespace,
      tables: tables.map((tableName) => ({ tableName, isAssociated: appliesTo(p, namespace, tableName) })),
    })),
  };
}

export function getAssociationDetails(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const ps = policies(ctx, hub);
  const all = tasks(ctx, hub);
  const direct: Doc[] = [];
  const star: Doc[] = [];
  for (const [namespace, tables] of Object.entries(NAMESPACES)) {
    const rows = tables
      .map((tableName) => {
        const names = ps.filter((p) => directlyOn(p, namespace, tableName)).map((p) => p.policyName);
        const st = tableStatus(ctx, hub, namespace, tableName, all);
        return { tableName, policies: names, ...(st.last !== undefined ? { lastExecutionEpoch: st.last } : {}), status: st.status };
      })
      .filter((r) => r.policies.length > 0);
    if (rows.length > 0) direct.push({ namespace, status: aggregate(rows.map((r) => r.status)), tables: rows });
    const whole = ps.filter((p) => p.namespaces.includes(namespace)).map((p) => p.policyName);
    if (whole.length > 0) {
      const statuses = tables.map((t) => tableStatus(ctx, hub, namespace, t, all).status);
      star.push({ namespace, status: aggregate(statuses), policies: whole });
    }
  }
  return {
    directionAssociation: direct,
    starAssociation: star.length > 0 ? [{ catalog: CATALOG, status: aggregate(star.map((s) => String(s.status))), namespaces: star }] : [],
  };
}

export function unsubscribePolicy(req: Doc, ctx: RequestContext): Doc {
  const hub = hubOf(ctx, req);
  const { namespace, table } = tableOf(req);
  const p = getPolicy(ctx, hub, req.policyName);
  if (!dropTable(p, namespace, table)) {
    if (p.namespaces.includes(namespace)) throw failedPrecondition(throughNamespace(p.policyName, namespace, table));
    throw notFound(`policy ${p.policyName} is not associated with table ${namespace}.${table}`);
  }
  savePolicy(ctx, p);
  return { policies: policiesOfTable(ctx, hub, namespace, table) };
}
