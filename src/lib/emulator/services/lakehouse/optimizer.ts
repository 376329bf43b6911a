/**
 * The lakehouse optimizer's records, rules and answers. Policies (versions
 * of a script plus JSON arguments) are associated with single tables or
 * with whole namespaces of the one optimizer Data Hub of the built-in
 * catalogue; every record lives in the hub's environment (its scope).
 * Running a policy for real starts a task whose lifecycle (the model's
 * facts) goes INIT -> SUBMITTED -> COMPLETED on the emulator clock (FAILED
 * when the policy name starts with `fail-`). A table's status follows its
 * latest finished task: SUCCESS (COMPLETED) or ERROR (FAILED), UNAVAILABLE
 * when no task ran in the last day, PAUSED while paused (a `table` record:
 * pausing stops new runs). Scheduled policies make their tasks when the hub
 * is next named, for every time their schedule fired since (cron.ts), so a
 * paused or advanced clock moves them too. The code entries (last) each
 * say why they are not verbs.
 */
import { CronError, firesBetween, parseCron, type Cron } from '../../cron.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { paged } from '../../engine/paging.js';
import { readRecord, type EngineRecord } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { b64, docs, obj, str, strings } from '../../values.js';
import { CATALOG, NAMESPACES, SCRIPTS, TIMEZONES, environments, type EnvironmentEntry } from './catalogue.js';

export type R = 'environment' | 'hub' | 'policy' | 'table' | 'task';
type Rec = Readonly<EngineRecord>;

/** A task counts for a table's status for this long after it ends. */
const RECENT_MS = 24 * 3_600_000;
/** Scheduled runs looked back over at most this far; the emulator keeps this many tasks per Data Hub. */
const SCHEDULE_LOOKBACK_MS = 30 * 24 * 3_600_000;
const TASKS_KEPT = 1000;

type Version = { version: string; script: string; arguments: string; creationTime: number };

/**
 * A policy's document: PolicyObject's stored fields, its versions, the
 * tables associated one by one (namespace -> tables), the namespaces
 * associated as a whole, and the time up to which its scheduled runs have
 * been made (emulated ms; see runSchedules).
 */
interface PolicyRecord {
  policyName: string;
  creationTime: number;
  versions: Version[];
  tables: Record<string, string[]>;
  namespaces: string[];
  scheduledThrough?: number;
}

/** A task's document: TaskObject's stored fields, what its run does, and whether the policy's schedule made it (not executePolicy). */
interface TaskRecord {
  taskId: string;
  policy: string;
  version: string;
  namespace: string;
  table: string;
  actions: string[];
  createdAt: number;
  scheduled?: boolean;
}

const policyOf = (rec: Rec): PolicyRecord => rec.doc as unknown as PolicyRecord;
const taskOf = (rec: Rec): TaskRecord => rec.doc as unknown as TaskRecord;
const latest = (p: PolicyRecord): Version => p.versions[p.versions.length - 1] as Version;
const directlyOn = (p: PolicyRecord, ns: string, table: string): boolean => (p.tables[ns] ?? []).includes(table);
const appliesTo = (p: PolicyRecord, ns: string, table: string): boolean => p.namespaces.includes(ns) || directlyOn(p, ns, table);
const inNamespace = (p: PolicyRecord, ns: string): boolean => p.namespaces.includes(ns) || (p.tables[ns] ?? []).length > 0;

/** The tables a policy covers, namespace by namespace. */
function coveredTables(p: PolicyRecord): Array<{ namespace: string; tables: string[] }> {
  return Object.entries(NAMESPACES)
    .map(([ns, tables]) => ({ namespace: ns, tables: tables.filter((t) => appliesTo(p, ns, t)) }))
    .filter((x) => x.tables.length > 0);
}

const tableCount = (p: PolicyRecord): number => coveredTables(p).reduce((n, x) => n + x.tables.length, 0);

/** The status of many tables as one: ERROR wins, all PAUSED is USER_PAUSED, some paused a WARNING. */
function aggregate(statuses: string[]): string {
  if (statuses.length === 0) return 'UNAVAILABLE';
  if (statuses.includes('ERROR')) return 'ERROR';
  if (statuses.every((s) => s === 'PAUSED')) return 'USER_PAUSED';
  return statuses.includes('PAUSED') ? 'WARNING' : statuses.includes('SUCCESS') ? 'SUCCESS' : 'UNAVAILABLE';
}

/** The table status a finished task leaves (GetTableStatusDetailsRequest.status): SUCCESS or ERROR. */
const statusAfter = (taskState: string): string => (taskState === 'FAILED' ? 'ERROR' : 'SUCCESS');

const builtinScript = (script: string) => SCRIPTS.find((s) => s.name === script || s.uri === script);

/** What a script does when it runs. */
const actionsOf = (script: string): string[] => [...(builtinScript(script)?.actions ?? ['custom_script'])];

/** A script as downloaded: a built-in's source, or the text given. */
function scriptText(script: string): string {
  const builtin = builtinScript(script);
  if (!builtin) return script;
  const runs = builtin.actions.map((a) => `run_action("${a}", args)`);
  return [`# ${builtin.name}: ${builtin.description}`, `# source: ${builtin.uri}`, ...runs, ''].join('\n');
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
function checkArguments(text = '{}'): string {
  scheduleOf(text);
  return text;
}

/**
 * Why a table cannot lose a policy on its own: the policy applies to the
 * whole namespace, and an association with a namespace has no exceptions
 * (the wire has no way to show one).
 */
const throughNamespace = (policy: string, ns: string, table: string): string =>
  `table ${ns}.${table} gets policy ${policy} through its association with all of namespace ${ns}, which has no per-table exceptions; ` +
  `pause the table (tables pause) or delete the policy (policies delete --resource-scope '${CATALOG}.*')`;

function addTable(p: PolicyRecord, ns: string, table: string): void {
  const list = p.tables[ns] ?? [];
  if (!list.includes(table)) p.tables[ns] = [...list, table];
}

function dropTable(p: PolicyRecord, ns: string, table: string): boolean {
  const list = p.tables[ns] ?? [];
  if (!list.includes(table)) return false;
  if (list.length === 1) delete p.tables[ns];
  else p.tables[ns] = list.filter((t) => t !== table);
  return true;
}

/** Takes a policy off one table it is associated with by name (not through its namespace). */
function takeOff(p: PolicyRecord, ns: string, table: string): void {
  if (dropTable(p, ns, table)) return;
  if (p.namespaces.includes(ns)) throw failedPrecondition(throughNamespace(p.policyName, ns, table));
  throw notFound(`policy ${p.policyName} is not associated with table ${ns}.${table}`);
}

// ---- the hub a request names, and its records ------------------------------------

const required = (req: Doc, field: string): string => {
  const v = str(req[field]);
  if (!v) throw invalid(`${field} is required`);
  return v;
};

/** The optimizer's environments, with their hubs. */
const optimizerEnvironments = (h: Hook<R>): EnvironmentEntry[] => environments(h.world, h.ctx.info);

/** The environment a request names (by CRN or name), with its optimizer hub if it has one. */
function environmentOf(h: Hook<R>, req: Doc): EnvironmentEntry {
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

function namespace(req: Doc): string {
  const ns = required(req, 'namespace');
  if (!NAMESPACES[ns]) throw notFound(`namespace ${ns} not found`);
  return ns;
}

/** An optional namespace filter (`*` or none: every namespace). */
const namespaceFilter = (req: Doc): string | undefined => (str(req.namespace) && req.namespace !== '*' ? namespace(req) : undefined);

function tableOf(req: Doc): { namespace: string; table: string } {
  const ns = namespace(req);
  const table = required(req, 'tableName');
  if (!NAMESPACES[ns]?.includes(table)) throw notFound(`table ${ns}.${table} not found`);
  return { namespace: ns, table };
}

const policies = (h: Hook<R>, scope: string): EngineRecord[] => h.records('policy').all(scope);

function policy(h: Hook<R>, scope: string, name: string): EngineRecord {
  const rec = h.records('policy').find(name, scope);
  if (!rec) throw notFound(`policy ${name} not found`);
  return rec;
}

/** The names of the policies covering a table. */
const policiesOfTable = (h: Hook<R>, scope: string, ns: string, table: string): string[] =>
  policies(h, scope)
    .map(policyOf)
    .filter((p) => appliesTo(p, ns, table))
    .map((p) => p.policyName);

/** A hub's tasks, newest first. */
const tasks = (h: Hook<R>, scope: string): EngineRecord[] =>
  h
    .records('task')
    .all(scope)
    .sort((a, b) => taskOf(b).createdAt - taskOf(a).createdAt);

/**
 * The hub's tables as records, made the first time the hub is named: the
 * catalogue's tables are there from the start. A table's record is named
 * `<namespace>.<table>` in the hub's scope (table names repeat across namespaces).
 */
export function catalogueTables(h: Hook<R>, scope: string): void {
  const all = h.records('table');
  for (const [ns, tables] of Object.entries(NAMESPACES))
    for (const tableName of tables)
      if (!all.find(`${ns}.${tableName}`, scope))
        all.create({ id: uuid(), name: `${ns}.${tableName}`, scope, env: scope, doc: { namespace: ns, tableName } });
}

/** A request about one table, as the verbs read it: in the hub's environment, the table by its record's name. */
export function atTable(h: Hook<R>, req: Doc): Doc {
  const { namespace: ns, table } = tableOf(req);
  return { ...req, environmentCrn: hubScope(h, req), tableName: `${ns}.${table}` };
}

/** Whether a table's maintenance is paused (its record's state). */
const isPaused = (h: Hook<R>, rec: Rec | undefined): boolean => rec !== undefined && h.records('table').state(rec) === 'PAUSED';
const paused = (h: Hook<R>, scope: string, ns: string, table: string): boolean =>
  isPaused(h, h.records('table').find(`${ns}.${table}`, scope));

/** The status of a table now, and the time of its latest task. */
function tableStatus(h: Hook<R>, scope: string, ns: string, table: string, all: readonly Rec[]): { status: string; last?: number } {
  const mine = all.filter((t) => taskOf(t).namespace === ns && taskOf(t).table === table);
  const last = mine[0] ? taskOf(mine[0]).createdAt : undefined;
  if (paused(h, scope, ns, table)) return { status: 'PAUSED', last };
  const works = h.records('task');
  const finished = mine.map((t) => works.progress(t)).find((p) => p.done);
  if (!finished || h.ctx.clock.now() - finished.endsAt > RECENT_MS) return { status: 'UNAVAILABLE', last };
  return { status: statusAfter(finished.state), last };
}

/** How many tasks a policy ran (on a namespace or table) and when the latest started. */
function policyTableStats(
  p: PolicyRecord,
  all: readonly Rec[],
  ns?: string,
  table?: string,
): { taskCount: number; lastExecutionTime?: number } {
  const mine = all
    .map(taskOf)
    .filter((t) => t.policy.toLowerCase() === p.policyName.toLowerCase() && (!ns || t.namespace === ns) && (!table || t.table === table));
  return { taskCount: mine.length, lastExecutionTime: mine.length > 0 ? Math.max(...mine.map((t) => t.createdAt)) : undefined };
}

/** A maintenance task of a policy on a table (its run: the model's lifecycle), started now or when its schedule fired. */
function startTask(h: Hook<R>, scope: string, p: PolicyRecord, ns: string, table: string, scheduledAt?: number): TaskRecord {
  const { version, script } = latest(p);
  const at = scheduledAt ?? h.ctx.clock.now();
  const taskId = uuid();
  const doc: TaskRecord = { taskId, policy: p.policyName, version, namespace: ns, table, actions: actionsOf(script), createdAt: at };
  if (scheduledAt !== undefined) doc.scheduled = true;
  h.records('task').create({ id: taskId, name: p.policyName, scope, env: scope, doc: doc as unknown as Doc }, 'run', { at });
  return doc;
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
    let sched: ReturnType<typeof scheduleOf>;
    try {
      sched = scheduleOf(latest(p).arguments);
    } catch {
      continue; // checked when stored: arguments stored before the check came in never run
    }
    if (!sched) continue;
    const targets = coveredTables(p)
      .flatMap((c) => c.tables.map((table) => ({ namespace: c.namespace, table })))
      .filter((t) => !paused(h, scope, t.namespace, t.table));
    const fires = firesBetween(sched.cron, sched.offset, since, now, Math.max(1, Math.ceil(TASKS_KEPT / Math.max(1, targets.length))));
    if (fires.length === 0) continue;
    for (const at of fires.reverse()) for (const t of targets) startTask(h, scope, p, t.namespace, t.table, at);
    made += fires.length * targets.length;
    p.scheduledThrough = now;
    h.records('policy').save(rec);
  }
  if (made > 0) for (const t of tasks(h, scope).slice(TASKS_KEPT)) h.records('task').remove(t);
}

// ---- hooks of policies, tables and tasks -------------------------------------------

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
  const res = obj(req.resources);
  if (!str(res.script)) throw invalid('resources.script is required: a script name from scripts list, its URI or the script text');
  checkArguments(str(res.arguments));
}

/** A new policy: its first version, no associations yet. */
export function newPolicy(h: Hook<R>, _rec: Rec, req: Doc): Doc {
  const res = obj(req.resources);
  const now = h.ctx.clock.now();
  const first = { version: uuid(), script: str(res.script), arguments: checkArguments(str(res.arguments)), creationTime: now };
  return { creationTime: now, versions: [first], tables: {}, namespaces: [] };
}

/**
 * What updatePolicy sets: a new version with the script or arguments
 * changed (the others as they were), whose schedule runs from now on (the
 * old one's runs up to now were made by the guard).
 */
export function newVersion(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const res = obj(req.resources);
  const script = str(res.script);
  if (script === undefined && res.arguments === undefined) throw invalid('give resources.script or resources.arguments to change');
  const p = policyOf(rec);
  const prev = latest(p);
  const now = h.ctx.clock.now();
  const args = res.arguments !== undefined ? checkArguments(str(res.arguments)) : prev.arguments;
  const version: Version = { version: uuid(), script: script ?? prev.script, arguments: args, creationTime: now };
  return { versions: [...p.versions, version], scheduledThrough: now };
}

/** What a policy shows in lists: the status of its tables as one, its task and table counts, its latest run. */
export function showPolicy(h: Hook<R>, rec: Rec): Doc {
  const p = policyOf(rec);
  const all = tasks(h, rec.scope);
  const statuses = coveredTables(p).flatMap((c) => c.tables.map((t) => tableStatus(h, rec.scope, c.namespace, t, all).status));
  return { status: aggregate(statuses), ...policyTableStats(p, all), tableCount: tableCount(p), isDefault: false };
}

/** What pausing sets: since when, and by whom. */
export const pause = (h: Hook<R>): Doc => ({ pausedSince: h.ctx.clock.iso(), reasons: [`paused by ${h.ctx.caller.actorCrn}`] });

/** Only a paused table unpauses. */
export function checkPaused(h: Hook<R>, rec: Rec): void {
  if (!isPaused(h, rec)) throw failedPrecondition(`maintenance of ${String(rec.name)} is not paused`);
}

const tableNames = (rec: Rec): { ns: string; table: string } => ({ ns: String(rec.doc.namespace), table: String(rec.doc.tableName) });

/** What a table shows: its status after its latest task (or PAUSED), the policies covering it and when it last ran. */
export function showTable(h: Hook<R>, rec: Rec): Doc {
  const { ns, table } = tableNames(rec);
  const st = tableStatus(h, rec.scope, ns, table, tasks(h, rec.scope));
  return { status: st.status, policies: policiesOfTable(h, rec.scope, ns, table), lastExecutionTime: st.last };
}

/** What a task shows: its catalog, and its details (actions with the task's status, version, trigger, and an error once failed). */
export function showTask(_h: Hook<R>, rec: Rec, view: Doc): Doc {
  const t = taskOf(rec);
  const state = String(view.status);
  const details: Doc = {
    actions: t.actions.map((action) => ({ action, status: state })),
    version: t.version,
    trigger: t.scheduled ? 'SCHEDULE' : 'ON_DEMAND',
  };
  if (state === 'FAILED') details.error = `maintenance of ${t.namespace}.${t.table} failed: the policy ${t.policy} made the task fail`;
  return { catalog: CATALOG, details: b64(JSON.stringify(details)) };
}

// ---- the environments and hubs: read off the world, not records ---------------------

/** listEnvironments: code, because it reads the world's environments (a page token of ALL lists every one in one answer). */
export function listEnvironments(h: Hook<R>, req: Doc): Doc {
  const all: Doc[] = optimizerEnvironments(h);
  if (req.pageToken === 'ALL') return { environments: all, totalEnvironments: all.length };
  return { ...paged(h.ctx, req, all), totalEnvironments: all.length };
}

export function getCloDatahub(h: Hook<R>, req: Doc): Doc {
  const { isCloEnabled: _, ...doc } = environmentOf(h, req);
  return doc;
}

export const getDatahubCrn = (h: Hook<R>, req: Doc): Doc => ({ datahubCrn: environmentOf(h, req).datahubCrn });

/** The optimizer's hubs, as records read off the world's environments (scoped to their environments). */
export const hubs = (h: Hook<R>): EngineRecord[] =>
  optimizerEnvironments(h).flatMap((e) =>
    e.datahubCrn && e.datahubName
      ? [readRecord({ id: e.datahubCrn, crn: e.datahubCrn, name: e.datahubName, doc: e }, e.environmentCrn)]
      : [],
  );

/** getHealth's answer: checks made up of the clock and the hub's policies. */
export function health(h: Hook<R>, hub: Rec, req: Doc): Doc {
  const full = req.scope === 'Full';
  const time = h.ctx.clock.now();
  const check = (message: string, duration: number, details: Doc): Doc => ({ isHealthy: true, message, details, time, duration });
  const access = full
    ? check('opened an interactive session and read the catalog', 2150, { catalog: CATALOG, session: 'interactive' })
    : null;
  return {
    result: {
      scheduler: check('scheduler is running', 4, { jobs: String(policies(h, hub.scope).length) }),
      dispatcher: check('dispatcher is accepting tasks', 3, { queue: '0' }),
      dataAccess: access ?? check('catalog reachable', 12, { catalog: CATALOG }),
    },
    action: 'NOOP',
  };
}

// ---- tables: the catalogue's, with the records that say how they are -----------------

export const namesOfTables = (_h: Hook<R>, _hub: Rec, req: Doc): Doc => ({ tables: [...(NAMESPACES[namespace(req)] ?? [])] });

/** listTables' records: the hub's tables of the namespace asked for, in the catalogue's order. */
export function tablesIn(h: Hook<R>, req: Doc): EngineRecord[] {
  const ns = namespace(req);
  return h
    .records('table')
    .all(String(req.environmentCrn))
    .filter((t) => t.doc.namespace === ns);
}

/** getTablePolicies' answer: the policies covering the table, each with its runs there. */
export function tablePolicyRuns(h: Hook<R>, rec: Rec): Doc {
  const { ns, table } = tableNames(rec);
  const all = tasks(h, rec.scope);
  const status = tableStatus(h, rec.scope, ns, table, all).status;
  return {
    policies: policies(h, rec.scope)
      .map(policyOf)
      .filter((p) => appliesTo(p, ns, table))
      .map((p) => ({ status, policyName: p.policyName, ...policyTableStats(p, all, ns, table) })),
  };
}

/** getTableStatusDetails' answer: why it is paused, and its latest task (of a policy, or ended as a status, when asked). */
export function tableStatusDetails(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const { ns, table } = tableNames(rec);
  const wantPolicy = str(req.policyName)?.toLowerCase();
  const wantStatus = str(req.status);
  const out: Doc = {};
  if (isPaused(h, rec))
    out.pausedTable = {
      message: `maintenance of ${ns}.${table} is paused`,
      details: { pausedSince: rec.doc.pausedSince, reasons: rec.doc.reasons ?? [] },
    };
  const works = h.records('task');
  const recent = tasks(h, rec.scope).find((r) => {
    const t = taskOf(r);
    if (t.namespace !== ns || t.table !== table || (wantPolicy && t.policy.toLowerCase() !== wantPolicy)) return false;
    // The filter is a table status: SUCCESS and ERROR pick the latest task that ended that way.
    if (!wantStatus || wantStatus === 'PAUSED' || wantStatus === 'UNAVAILABLE') return true;
    const p = works.progress(r);
    return p.done && statusAfter(p.state) === wantStatus;
  });
  if (recent) {
    const t = taskOf(recent);
    const { state } = works.progress(recent);
    const actions = t.actions.map((action) => ({ action, status: state }));
    out.recentTask = { actions, policyName: t.policy, tableName: t.table, lastExecutionTime: t.createdAt };
  }
  return out;
}

/** Associates policies with one table. */
function onTable(h: Hook<R>, recs: EngineRecord[], ns: string, table: string): void {
  for (const rec of recs) {
    addTable(policyOf(rec), ns, table);
    h.records('policy').save(rec);
  }
}

/** changeTablePolicy: APPEND adds the policies to the table; REMOVEALL and REPLACEALL leave it with exactly those named (code: it changes every policy of the table). */
export function changeTablePolicy(h: Hook<R>, req: Doc): Doc {
  const { namespace: ns, table } = tableOf(req);
  const scope = hubScope(h, req);
  const op = str(req.operation) ?? 'APPEND';
  const named = op === 'REMOVEALL' ? [] : strings(req.policies).map((n) => policy(h, scope, n));
  if (op !== 'APPEND') {
    // Refuse what would stay through the namespace.
    const names = named.map((r) => policyOf(r).policyName.toLowerCase());
    const kept = policies(h, scope)
      .map(policyOf)
      .find((p) => p.namespaces.includes(ns) && !names.includes(p.policyName.toLowerCase()));
    if (kept) throw failedPrecondition(`${op}: ${throughNamespace(kept.policyName, ns, table)}`);
    for (const rec of policies(h, scope)) if (dropTable(policyOf(rec), ns, table)) h.records('policy').save(rec);
  }
  onTable(h, named, ns, table);
  return {};
}

/** createTablePoliciesAssociations: code, because it changes several policies; answers the table's policies. */
export function createTablePoliciesAssociations(h: Hook<R>, req: Doc): Doc {
  const { namespace: ns, table } = tableOf(req);
  const scope = hubScope(h, req);
  const named = strings(req.policies).map((n) => policy(h, scope, n));
  onTable(h, named, ns, table);
  return { policies: policiesOfTable(h, scope, ns, table) };
}

// ---- policies --------------------------------------------------------------------

/**
 * deletePolicy: code, because its resource scope may take the policy off one
 * table only: `<catalog>.*` deletes it with every version;
 * `<catalog>.<namespace>.<table>` takes it off the table, and deletes it
 * when that was its last. Answers the versions deleted.
 */
export function deletePolicy(h: Hook<R>, req: Doc): Doc {
  const rec = policy(h, hubScope(h, req), required(req, 'policyName'));
  const p = policyOf(rec);
  const [catalog, ns, table] = String(req.resourceScope).split('.');
  if (catalog !== CATALOG) throw notFound(`catalog ${String(catalog)} not found; this Data Hub has ${CATALOG}`);
  if (ns !== '*') {
    const t = tableOf({ namespace: ns, tableName: table });
    takeOff(p, t.namespace, t.table);
    // A policy left on some table or namespace lives on (no version deleted).
    if (coveredTables(p).length > 0) {
      h.records('policy').save(rec);
      return { deletedPolicies: 0 };
    }
  }
  h.records('policy').remove(rec);
  return { deletedPolicies: p.versions.length };
}

/** getPolicy's answer: its versions, and its latest version's detail with its associations (each table's runs and status). */
export function policyDetail(h: Hook<R>, rec: Rec): Doc {
  const p = policyOf(rec);
  const v = latest(p);
  const all = tasks(h, rec.scope);
  const associations = coveredTables(p).map(({ namespace: ns, tables }) => {
    const tableAssociations = tables.map((name) => {
      const status = tableStatus(h, rec.scope, ns, name, all).status;
      return { name, namespace: ns, ...policyTableStats(p, all, ns, name), version: v.version, status };
    });
    return { namespace: ns, status: aggregate(tableAssociations.map((t) => t.status)), tableAssociations };
  });
  return {
    versions: p.versions.map((x) => x.version),
    policyDetail: {
      version: v.version,
      arguments: b64(v.arguments),
      scope: p.namespaces.length > 0 ? 'Namespace' : 'Catalog',
      associations,
      tableCount: tableCount(p),
      creationTime: v.creationTime,
      lastExecutionTime: policyTableStats(p, all).lastExecutionTime,
    },
  };
}

/** listPolicies' records: the hub's, those in a namespace when one is asked for. */
export function policiesIn(h: Hook<R>, req: Doc): EngineRecord[] {
  const ns = namespaceFilter(req);
  return policies(h, String(req.environmentCrn)).filter((r) => !ns || inNamespace(policyOf(r), ns));
}

export function policyNames(h: Hook<R>, hub: Rec, req: Doc): Doc {
  const ns = namespaceFilter(req);
  const names = policies(h, hub.scope)
    .map(policyOf)
    .filter((p) => !ns || inNamespace(p, ns));
  return { policyNames: names.map((p) => p.policyName) };
}

/** downloadPolicy's answer: a version's script (a built-in's source) and arguments. */
export function download(_h: Hook<R>, rec: Rec, req: Doc): Doc {
  const p = policyOf(rec);
  const want = str(req.policyVersion);
  const v = want ? p.versions.find((x) => x.version === want) : latest(p);
  if (!v) throw notFound(`policy ${p.policyName} has no version ${String(want)}`);
  return { script: b64(scriptText(v.script)), arguments: b64(v.arguments) };
}

/** executePolicy: code, because a dry run answers what would run and a real run makes a task (of another resource). */
export function executePolicy(h: Hook<R>, req: Doc): Doc {
  const scope = hubScope(h, req);
  const { namespace: ns, table } = tableOf(req);
  const p = policyOf(policy(h, scope, required(req, 'policyName')));
  if (!appliesTo(p, ns, table)) throw failedPrecondition(`policy ${p.policyName} is not associated with table ${ns}.${table}`);
  const at = `${CATALOG}.${ns}.${table}`;
  if (req.dryRun !== false) {
    const v = latest(p);
    const actions = actionsOf(v.script);
    let args: Doc = {};
    try {
      args = JSON.parse(v.arguments) as Doc;
    } catch {
      // stored arguments were checked at creation
    }
    const details = { policy: p.policyName, version: v.version, table: at, actions, arguments: args };
    return { dryRunResult: { actions, details: b64(JSON.stringify(details)) } };
  }
  if (paused(h, scope, ns, table)) throw failedPrecondition(`maintenance of ${ns}.${table} is paused; unpause it to run policies`);
  const t = startTask(h, scope, p, ns, table);
  const details = { taskId: t.taskId, policy: t.policy, version: t.version, table: at, actions: t.actions };
  return { executionResult: { taskId: t.taskId, details: b64(JSON.stringify(details)) } };
}

/** listTasks' records: the hub's, newest first, of a namespace when one is asked for. */
export function tasksIn(h: Hook<R>, req: Doc): EngineRecord[] {
  const ns = str(req.namespace) ? namespace(req) : undefined;
  return tasks(h, String(req.environmentCrn)).filter((t) => !ns || taskOf(t).namespace === ns);
}

// ---- associations -----------------------------------------------------------------

/** createAssociations: associates a policy with tables, or with whole namespaces (no tables given); answers what was associated. */
export function createAssociations(h: Hook<R>, req: Doc): Doc {
  const rec = policy(h, hubScope(h, req), required(req, 'policyName'));
  const p = policyOf(rec);
  const asked = docs(req.associations).map((a) => ({ namespace: required(a, 'namespace'), tables: strings(a.tables) }));
  const associations = asked.map((a) => {
    const ns = namespace(a);
    if (a.tables.length === 0) {
      if (!p.namespaces.includes(ns)) p.namespaces.push(ns);
      return { namespace: ns, tables: [...(NAMESPACES[ns] ?? [])] };
    }
    for (const t of a.tables) addTable(p, tableOf({ namespace: ns, tableName: t }).namespace, t);
    return a;
  });
  h.records('policy').save(rec);
  return { associations };
}

export const associations = (_h: Hook<R>, rec: Rec): Doc => ({ associations: coveredTables(policyOf(rec)) });

export const associatedNamespaces = (_h: Hook<R>, rec: Rec): Doc => ({
  associatedNamespaces: Object.keys(NAMESPACES).map((ns) => ({ namespace: ns, isAssociated: inNamespace(policyOf(rec), ns) })),
});

export const associatedTables = (_h: Hook<R>, rec: Rec): Doc => ({
  associatedTables: Object.entries(NAMESPACES).map(([ns, tables]) => ({
    namespace: ns,
    tables: tables.map((tableName) => ({ tableName, isAssociated: appliesTo(policyOf(rec), ns, tableName) })),
  })),
});

/** getAssociationDetails' answer: every policy of the hub read against every table of the catalogue. */
export function associationDetails(h: Hook<R>, hub: Rec): Doc {
  const ps = policies(h, hub.scope).map(policyOf);
  const all = tasks(h, hub.scope);
  const status = (ns: string, table: string) => tableStatus(h, hub.scope, ns, table, all);
  const direct: Doc[] = [];
  const star: Doc[] = [];
  for (const [ns, tables] of Object.entries(NAMESPACES)) {
    const rows = tables
      .map((tableName) => {
        const st = status(ns, tableName);
        const names = ps.filter((p) => directlyOn(p, ns, tableName)).map((p) => p.policyName);
        return { tableName, policies: names, lastExecutionEpoch: st.last, status: st.status };
      })
      .filter((r) => r.policies.length > 0);
    if (rows.length > 0) direct.push({ namespace: ns, status: aggregate(rows.map((r) => r.status)), tables: rows });
    const whole = ps.filter((p) => p.namespaces.includes(ns)).map((p) => p.policyName);
    if (whole.length > 0) star.push({ namespace: ns, status: aggregate(tables.map((t) => status(ns, t).status)), policies: whole });
  }
  const catalog = { catalog: CATALOG, status: aggregate(star.map((s) => String(s.status))), namespaces: star };
  return { directionAssociation: direct, starAssociation: star.length > 0 ? [catalog] : [] };
}

export function unsubscribePolicy(h: Hook<R>, req: Doc): Doc {
  const scope = hubScope(h, req);
  const { namespace: ns, table } = tableOf(req);
  const rec = policy(h, scope, required(req, 'policyName'));
  takeOff(policyOf(rec), ns, table);
  h.records('policy').save(rec);
  return { policies: policiesOfTable(h, scope, ns, table) };
}
