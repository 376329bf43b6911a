/**
 * The lakehouse optimizer's records and rules. Policies (versions of a
 * script plus JSON arguments) are associated with single tables or with
 * whole namespaces of the one optimizer Data Hub of the built-in catalogue;
 * every record lives in the hub's environment (its scope). Running a policy
 * for real starts a task whose lifecycle (the model's facts) goes INIT ->
 * SUBMITTED -> COMPLETED on the emulator clock (FAILED when the policy name
 * starts with `fail-`). A table's status follows its latest finished task:
 * SUCCESS (COMPLETED) or ERROR (FAILED), UNAVAILABLE when no task ran in the
 * last day, PAUSED while paused (a `table` record: pausing stops new runs).
 * Scheduled policies make their tasks when the hub is next named, for every
 * time their schedule fired since (cron.ts), so a paused or advanced clock
 * moves them too.
 */
import { CronError, firesBetween, parseCron, type Cron } from '../../cron.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { str } from '../../values.js';
import { CATALOG, NAMESPACES, SCRIPTS, TIMEZONES, environments, type EnvironmentEntry } from './catalogue.js';

export type R = 'environment' | 'hub' | 'policy' | 'table' | 'task';
type Rec = Readonly<EngineRecord>;

/** The table status a finished task leaves (GetTableStatusDetailsRequest.status): SUCCESS or ERROR. */
export const tableStatusAfter = (taskState: string): string => (taskState === 'FAILED' ? 'ERROR' : 'SUCCESS');

/** A task counts for a table's status for this long after it ends. */
const RECENT_MS = 24 * 3_600_000;
/** Scheduled runs looked back over at most this far; the emulator keeps this many tasks per Data Hub. */
const SCHEDULE_LOOKBACK_MS = 30 * 24 * 3_600_000;
const TASKS_KEPT = 1000;

export interface Version {
  version: string;
  script: string;
  arguments: string;
  creationTime: number;
}

/** A policy's document: PolicyObject's stored fields, and its versions and associations. */
export interface PolicyRecord {
  policyName: string;
  creationTime: number;
  versions: Version[];
  /** namespace -> tables associated one by one */
  tables: Record<string, string[]>;
  /** namespaces associated as a whole */
  namespaces: string[];
  /** Scheduled runs up to this time (emulated ms) have been made; see runSchedules. */
  scheduledThrough?: number;
}

/** A task's document: TaskObject's stored fields, and what its run does. */
export interface TaskRecord {
  taskId: string;
  policy: string;
  version: string;
  namespace: string;
  table: string;
  actions: string[];
  createdAt: number;
  /** Made by the policy's schedule rather than by executePolicy. */
  scheduled?: boolean;
}

export const latest = (p: PolicyRecord): Version => p.versions[p.versions.length - 1] as Version;
export const appliesTo = (p: PolicyRecord, ns: string, table: string): boolean =>
  p.namespaces.includes(ns) || (p.tables[ns] ?? []).includes(table);
export const directlyOn = (p: PolicyRecord, ns: string, table: string): boolean => (p.tables[ns] ?? []).includes(table);
export const inNamespace = (p: PolicyRecord, ns: string): boolean => p.namespaces.includes(ns) || (p.tables[ns] ?? []).length > 0;

/** The tables a policy covers, namespace by namespace. */
export function coveredTables(p: PolicyRecord): Array<{ namespace: string; tables: string[] }> {
  return Object.keys(NAMESPACES)
    .map((ns) => ({ namespace: ns, tables: (NAMESPACES[ns] ?? []).filter((t) => appliesTo(p, ns, t)) }))
    .filter((x) => x.tables.length > 0);
}

/** The status of many tables as one: ERROR wins, all PAUSED is USER_PAUSED, some paused a WARNING. */
export function aggregate(statuses: string[]): string {
  if (statuses.length === 0) return 'UNAVAILABLE';
  if (statuses.includes('ERROR')) return 'ERROR';
  if (statuses.every((s) => s === 'PAUSED')) return 'USER_PAUSED';
  if (statuses.includes('PAUSED')) return 'WARNING';
  if (statuses.includes('SUCCESS')) return 'SUCCESS';
  return 'UNAVAILABLE';
}

/** What a script does when it runs. */
export function actionsOf(script: string): string[] {
  const builtin = SCRIPTS.find((s) => s.name === script || s.uri === script);
  return builtin ? [...builtin.actions] : ['custom_script'];
}

/** A script as downloaded: a built-in's source, or the text given. */
export function scriptText(script: string): string {
  const builtin = SCRIPTS.find((s) => s.name === script || s.uri === script);
  if (!builtin) return script;
  return [
    `# ${builtin.name}: ${builtin.description}`,
    `# source: ${builtin.uri}`,
    ...builtin.actions.map((a) => `run_action("${a}", args)`),
    '',
  ].join('\n');
}

/**
 * The schedule in policy arguments (`schedule`: a five-field cron
 * expression, `timezone`: an id from getTimezones, UTC when left out), or
 * undefined when they have none. Throws INVALID_ARGUMENT for arguments that
 * are no JSON object, or a bad schedule or time zone.
 */
function scheduleOf(args: string): { cron: Cron; offset: number } | undefined {
  let v: unknown;
  try {
    v = JSON.parse(args);
  } catch {
    v = undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw invalid('resources.arguments must be a JSON object in text, e.g. {"schedule":"0 2 * * *","timezone":"UTC"}');
  const { timezone: tz, schedule } = v as Doc;
  if (tz !== undefined && (typeof tz !== 'string' || !TIMEZONES.some((t) => t.id === tz)))
    throw invalid(
      `resources.arguments timezone ${JSON.stringify(tz)} is not a time zone of getTimezones (timezones list), e.g. UTC or Europe/Berlin`,
    );
  if (schedule === undefined) return undefined;
  if (typeof schedule !== 'string') throw invalid('resources.arguments schedule must be a cron expression in text, e.g. "0 2 * * *"');
  try {
    return { cron: parseCron(schedule), offset: TIMEZONES.find((t) => t.id === (tz ?? 'UTC'))?.offset ?? 0 };
  } catch (e) {
    if (e instanceof CronError) throw invalid(`resources.arguments schedule "${schedule}" is not a valid cron expression: ${e.message}`);
    throw e;
  }
}

/** Policy arguments as stored, once checked ({} when none are given). */
function checkArguments(text: string | undefined): string {
  scheduleOf(text ?? '{}');
  return text ?? '{}';
}

/** The schedule of stored arguments (checked when stored; one stored before the check came in never runs). */
function storedSchedule(args: string): ReturnType<typeof scheduleOf> {
  try {
    return scheduleOf(args);
  } catch {
    return undefined;
  }
}

/**
 * Why a table cannot lose a policy on its own: the policy applies to the
 * whole namespace, and an association with a namespace has no exceptions
 * (the wire has no way to show one).
 */
export function throughNamespace(policy: string, ns: string, table: string): string {
  return (
    `table ${ns}.${table} gets policy ${policy} through its association with all of namespace ${ns}, which has no per-table exceptions; ` +
    `pause the table (tables pause) or delete the policy (policies delete --resource-scope '${CATALOG}.*')`
  );
}

export function addTable(p: PolicyRecord, ns: string, table: string): void {
  const list = p.tables[ns] ?? [];
  if (!list.includes(table)) p.tables[ns] = [...list, table];
}

export function dropTable(p: PolicyRecord, ns: string, table: string): boolean {
  const list = p.tables[ns] ?? [];
  if (!list.includes(table)) return false;
  p.tables[ns] = list.filter((t) => t !== table);
  if (p.tables[ns].length === 0) delete p.tables[ns];
  return true;
}

/** Takes a policy off one table it is associated with by name (not through its namespace). */
export function takeOff(p: PolicyRecord, ns: string, table: string): void {
  if (dropTable(p, ns, table)) return;
  if (p.namespaces.includes(ns)) throw failedPrecondition(throughNamespace(p.policyName, ns, table));
  throw notFound(`policy ${p.policyName} is not associated with table ${ns}.${table}`);
}

// ---- the hub a request names, and its records ------------------------------------

export const policyOf = (rec: Rec): PolicyRecord => rec.doc as unknown as PolicyRecord;
export const taskOf = (rec: Rec): TaskRecord => rec.doc as unknown as TaskRecord;

export const required = (req: Doc, field: string): string => {
  const v = str(req[field]);
  if (!v) throw invalid(`${field} is required`);
  return v;
};

/** The optimizer's environments, with their hubs. */
export const optimizerEnvironments = (h: Hook<R>): EnvironmentEntry[] => environments(h.world, h.ctx.info);

/** The environment a request names (by CRN or name), with its optimizer hub if it has one. */
export function environmentOf(h: Hook<R>, req: Doc): EnvironmentEntry {
  const ref = required(req, 'environmentCrn');
  const crn = h.world.environments.require(ref).crn;
  const env = optimizerEnvironments(h).find((e) => e.environmentCrn === crn);
  if (!env) throw notFound(`environment ${ref} not found`);
  return env;
}

/** The scope of a hub's records: the environment of the hub a request names by datahubCrn (its CRN or name). */
export function hubScope(h: Hook<R>, req: Doc): string {
  const ref = required(req, 'datahubCrn');
  const env = optimizerEnvironments(h).find((e) => e.datahubCrn === ref || e.datahubName === ref);
  if (!env?.datahubCrn) throw notFound(`no lakehouse optimizer Data Hub ${ref}`);
  return env.environmentCrn;
}

/** A request about a hub's records, as the verbs read it: in the hub's environment. */
export const atHub = (h: Hook<R>, req: Doc): Doc => ({ ...req, environmentCrn: hubScope(h, req) });

/** A request about one policy, as the verbs read it: in the hub's environment, the policy there (NOT_FOUND naming it alone, as the code entries do). */
export function onPolicy(h: Hook<R>, req: Doc): Doc {
  const environmentCrn = hubScope(h, req);
  policy(h, environmentCrn, required(req, 'policyName'));
  return { ...req, environmentCrn };
}

export function namespace(req: Doc, field = 'namespace'): string {
  const ns = required(req, field);
  if (!NAMESPACES[ns]) throw notFound(`namespace ${ns} not found`);
  return ns;
}

export function tableOf(req: Doc): { namespace: string; table: string } {
  const ns = namespace(req);
  const table = required(req, 'tableName');
  if (!NAMESPACES[ns]?.includes(table)) throw notFound(`table ${ns}.${table} not found`);
  return { namespace: ns, table };
}

export const policies = (h: Hook<R>, scope: string): EngineRecord[] => h.records('policy').all(scope);

export function policy(h: Hook<R>, scope: string, name: string): EngineRecord {
  const rec = h.records('policy').find(name, scope);
  if (!rec) throw notFound(`policy ${name} not found`);
  return rec;
}

/** A hub's tasks, newest first. */
export const tasks = (h: Hook<R>, scope: string): EngineRecord[] =>
  h
    .records('task')
    .all(scope)
    .sort((a, b) => taskOf(b).createdAt - taskOf(a).createdAt);

/** A table's record: named `<namespace>.<table>` in the hub's scope (table names repeat across namespaces). */
export const tableRecord = (h: Hook<R>, scope: string, ns: string, table: string): EngineRecord | undefined =>
  h.records('table').find(`${ns}.${table}`, scope);

/** The hub's tables as records, made the first time the hub is named: the catalogue's tables are there from the start. */
export function catalogueTables(h: Hook<R>, scope: string): void {
  for (const [ns, tables] of Object.entries(NAMESPACES))
    for (const tableName of tables)
      if (!tableRecord(h, scope, ns, tableName))
        h.records('table').create({ id: uuid(), name: `${ns}.${tableName}`, scope, env: scope, doc: { namespace: ns, tableName } });
}

/** A request about one table, as the verbs read it: in the hub's environment, the table by its record's name. */
export function atTable(h: Hook<R>, req: Doc): Doc {
  const { namespace: ns, table } = tableOf(req);
  return { ...req, environmentCrn: hubScope(h, req), tableName: `${ns}.${table}` };
}

/** Whether a table's maintenance is paused (its record's state). */
export const isPaused = (h: Hook<R>, rec: Rec): boolean => h.records('table').state(rec as EngineRecord) === 'PAUSED';

export const paused = (h: Hook<R>, scope: string, ns: string, table: string): boolean => {
  const rec = tableRecord(h, scope, ns, table);
  return rec !== undefined && isPaused(h, rec);
};

/** The status of a table now, and the time of its latest task. */
export function tableStatus(h: Hook<R>, scope: string, ns: string, table: string, all: readonly Rec[]): { status: string; last?: number } {
  const mine = all.filter((t) => taskOf(t).namespace === ns && taskOf(t).table === table);
  const last = mine[0] ? taskOf(mine[0]).createdAt : undefined;
  if (paused(h, scope, ns, table)) return { status: 'PAUSED', last };
  const works = h.records('task');
  const finished = mine.map((t) => works.progress(t as EngineRecord)).find((p) => p.done);
  if (!finished || h.ctx.clock.now() - finished.endsAt > RECENT_MS) return { status: 'UNAVAILABLE', last };
  return { status: tableStatusAfter(finished.state), last };
}

/** How many tasks a policy ran (on a namespace or table) and when the latest started. */
export function policyTableStats(p: PolicyRecord, all: readonly Rec[], ns?: string, table?: string): { taskCount: number; last?: number } {
  const mine = all
    .map(taskOf)
    .filter((t) => t.policy.toLowerCase() === p.policyName.toLowerCase() && (!ns || t.namespace === ns) && (!table || t.table === table));
  const last = mine.reduce<number | undefined>((m, t) => (m === undefined || t.createdAt > m ? t.createdAt : m), undefined);
  return { taskCount: mine.length, last };
}

/** A maintenance task of a policy on a table, started at a time (its run: the model's lifecycle). */
export function startTask(
  h: Hook<R>,
  scope: string,
  p: PolicyRecord,
  ns: string,
  table: string,
  at: number,
  scheduled: boolean,
): EngineRecord {
  const v = latest(p);
  const taskId = uuid();
  const doc: TaskRecord = {
    taskId,
    policy: p.policyName,
    version: v.version,
    namespace: ns,
    table,
    actions: actionsOf(v.script),
    createdAt: at,
    ...(scheduled ? { scheduled } : {}),
  };
  return h.records('task').create({ id: taskId, name: p.policyName, scope, env: scope, doc: doc as unknown as Doc }, 'run', { at });
}

/**
 * Makes the tasks a hub's scheduled policies have run since they were last
 * looked at, up to now: one task per covered, unpaused table at every time
 * the policy's schedule fired. Runs before every request that names the
 * hub (the service's guard), so changes (associations, pauses, new
 * versions) apply from the moment they are made; nothing runs in the
 * background.
 */
export function runSchedules(h: Hook<R>, scope: string): void {
  const now = h.ctx.clock.now();
  let made = 0;
  for (const rec of policies(h, scope)) {
    const p = policyOf(rec);
    const since = Math.max(p.scheduledThrough ?? p.creationTime, now - SCHEDULE_LOOKBACK_MS);
    if (since >= now) continue;
    const sched = storedSchedule(latest(p).arguments);
    if (!sched) continue;
    const targets = coveredTables(p)
      .flatMap((c) => c.tables.map((table) => ({ namespace: c.namespace, table })))
      .filter((t) => !paused(h, scope, t.namespace, t.table));
    const fires = firesBetween(sched.cron, sched.offset, since, now, Math.max(1, Math.ceil(TASKS_KEPT / Math.max(1, targets.length))));
    if (fires.length === 0) continue;
    for (const at of fires.reverse()) for (const t of targets) startTask(h, scope, p, t.namespace, t.table, at, true);
    made += fires.length * targets.length;
    p.scheduledThrough = now;
    h.records('policy').save(rec);
  }
  if (made > 0) for (const t of tasks(h, scope).slice(TASKS_KEPT)) h.records('task').remove(t);
}

/** The policy, which must cover the table (for a run or a dry run). */
export function requireCovers(h: Hook<R>, scope: string, name: string, ns: string, table: string): EngineRecord {
  const rec = policy(h, scope, name);
  const p = policyOf(rec);
  if (!appliesTo(p, ns, table)) throw failedPrecondition(`policy ${p.policyName} is not associated with table ${ns}.${table}`);
  return rec;
}

// ---- a policy's hooks ------------------------------------------------------------

/** A create's request, as the verb reads it: in the hub's environment, with a name that is valid and free there. */
export function newPolicyRequest(h: Hook<R>, req: Doc): Doc {
  const environmentCrn = hubScope(h, req);
  const name = required(req, 'policyName');
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(name))
    throw invalid('policy names use letters, digits, ".", "_" and "-", start with a letter or digit and are at most 128 characters');
  if (h.records('policy').find(name, environmentCrn)) throw alreadyExists(`policy ${name} already exists`);
  return { ...req, environmentCrn };
}

/** A new policy's script is required, and its arguments checked (a JSON object, a valid schedule and time zone). */
export function checkNewPolicy(_h: Hook<R>, _rec: Rec, req: Doc): void {
  const res = (req.resources ?? {}) as Doc;
  if (!str(res.script)) throw invalid('resources.script is required: a script name from scripts list, its URI or the script text');
  checkArguments(str(res.arguments));
}

/** A new policy: its first version, no associations yet. */
export function newPolicy(h: Hook<R>, _rec: Rec, req: Doc): Doc {
  const res = (req.resources ?? {}) as Doc;
  const now = h.ctx.clock.now();
  return {
    creationTime: now,
    versions: [{ version: uuid(), script: str(res.script), arguments: checkArguments(str(res.arguments)), creationTime: now }],
    tables: {},
    namespaces: [],
  };
}

/** What a policy shows in lists: the status of its tables as one, its task and table counts, its latest run. */
export function showPolicy(h: Hook<R>, rec: Rec): Doc {
  const p = policyOf(rec);
  const all = tasks(h, rec.scope);
  const stats = policyTableStats(p, all);
  const covered = coveredTables(p);
  return {
    status: aggregate(covered.flatMap((c) => c.tables.map((t) => tableStatus(h, rec.scope, c.namespace, t, all).status))),
    taskCount: stats.taskCount,
    tableCount: covered.reduce((n, x) => n + x.tables.length, 0),
    lastExecutionTime: stats.last,
    isDefault: false,
  };
}

/** What a task shows: its catalog, and its details (actions with the task's status, version, trigger, and an error once failed). */
export function showTask(h: Hook<R>, rec: Rec, view: Doc): Doc {
  const t = taskOf(rec);
  const state = String(view.status);
  const details: Doc = {
    actions: t.actions.map((action) => ({ action, status: state })),
    version: t.version,
    trigger: t.scheduled ? 'SCHEDULE' : 'ON_DEMAND',
  };
  if (state === 'FAILED') details.error = `maintenance of ${t.namespace}.${t.table} failed: the policy ${t.policy} made the task fail`;
  return { catalog: CATALOG, details: Buffer.from(JSON.stringify(details), 'utf8').toString('base64') };
}

// ---- changes of policies and tables ----------------------------------------------

/**
 * What updatePolicy sets: a new version with the script or arguments
 * changed (the others as they were), whose schedule runs from now on (the
 * old one's runs up to now were made by the guard).
 */
export function newVersion(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const res = (req.resources ?? {}) as Doc;
  const script = str(res.script);
  if (script === undefined && res.arguments === undefined) throw invalid('give resources.script or resources.arguments to change');
  const p = policyOf(rec);
  const prev = latest(p);
  const now = h.ctx.clock.now();
  const version: Version = {
    version: uuid(),
    script: script ?? prev.script,
    arguments: res.arguments !== undefined ? checkArguments(str(res.arguments)) : prev.arguments,
    creationTime: now,
  };
  return { versions: [...p.versions, version], scheduledThrough: now };
}

/** What pausing sets: since when, and by whom. */
export const pause = (h: Hook<R>): Doc => ({ pausedSince: h.ctx.clock.iso(), reasons: [`paused by ${h.ctx.caller.actorCrn}`] });

/** Only a paused table unpauses. */
export function checkPaused(h: Hook<R>, rec: Rec): void {
  if (!isPaused(h, rec)) throw failedPrecondition(`maintenance of ${String(rec.name)} is not paused`);
}

/** The names of the policies covering a table. */
export const policiesOfTable = (h: Hook<R>, scope: string, ns: string, table: string): string[] =>
  policies(h, scope)
    .map(policyOf)
    .filter((p) => appliesTo(p, ns, table))
    .map((p) => p.policyName);
