/**
 * The lakehouse optimizer in the emulator: state and rules, no HTTP.
 *
 * Policies (versions of a script plus JSON arguments) are associated with
 * single tables or with whole namespaces of the one optimizer Data Hub of
 * the built-in catalogue. Running a policy for real starts a task whose
 * lifecycle (TASK) goes INIT -> SUBMITTED -> COMPLETED on the emulator clock
 * (FAILED when the policy name starts with `fail-`), read lazily: the SDK's
 * TaskObject.status. A table's status follows its latest finished task:
 * SUCCESS (COMPLETED) or ERROR (FAILED), UNAVAILABLE
 * when no task ran in the last day, PAUSED while paused (pausing stops new
 * runs). Scheduled policies make their tasks when the hub is next read, for
 * every time their schedule fired since (cron.ts), so a paused or advanced
 * clock moves them too.
 */
import { CronError, firesBetween, parseCron, type Cron } from '../../cron.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { requireEnvironment } from '../../environments.js';
import { uuid } from '../../ids.js';
import { Resources, type Activity, type Lifecycle, type Progress } from '../../lifecycle.js';
import type { BackendContext, Doc } from '../../types.js';
import { CATALOG, NAMESPACES, SCRIPTS, TIMEZONES, environments, type EnvironmentEntry } from './catalogue.js';

export const KIND = {
  policy: 'lakehouseopt.policy',
  table: 'lakehouseopt.table',
  task: 'lakehouseopt.task',
} as const;

/**
 * A maintenance task, in the SDK's words (TaskObject.status): INIT for half a
 * minute, SUBMITTED to Spark for two, then COMPLETED or FAILED.
 */
const TASK: Lifecycle = {
  run: {
    phases: [
      ['INIT', 0.5],
      ['SUBMITTED', 2],
    ],
    success: 'COMPLETED',
    failure: 'FAILED',
  },
};

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

export interface PolicyRecord {
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

export interface TableRecord {
  paused: boolean;
  pausedSince?: string;
  reasons?: string[];
}

export interface TaskRecord {
  taskId: string;
  hubCrn: string;
  policy: string;
  version: string;
  namespace: string;
  table: string;
  actions: string[];
  createdAt: number;
  /** Made by the policy's schedule rather than by executePolicy. */
  scheduled?: boolean;
  activity: Activity;
}

export type TableChange = 'APPEND' | 'REMOVEALL' | 'REPLACEALL';

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

/** Checks policy arguments: a JSON object in text, with a valid schedule and time zone if it has them. */
function checkArguments(text: string | undefined): string {
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

export class LakehouseBackend {
  private readonly taskStore: Resources<TaskRecord>;

  constructor(private readonly ctx: BackendContext) {
    this.taskStore = new Resources<TaskRecord>(ctx, {
      kind: KIND.task,
      noun: 'task',
      lifecycle: TASK,
      id: (t) => t.taskId,
      name: (t) => t.policy,
      keys: (t) => ({ parent: this.hubKey(t.hubCrn) }),
    });
  }

  private get now(): number {
    return this.ctx.clock.now();
  }

  private hubKey(hub: string): string {
    return `${this.ctx.caller.accountId}|${hub}`;
  }

  private policyKey(hub: string, name: string): string {
    return `${this.hubKey(hub)}|${name.toLowerCase()}`;
  }

  private tableKey(hub: string, ns: string, table: string): string {
    return `${this.hubKey(hub)}|${ns}.${table}`;
  }

  // ---- environments, hub and catalogue

  environments(): EnvironmentEntry[] {
    return environments(this.ctx);
  }

  /** The environment named (by CRN or name), with its optimizer hub if it has one. */
  environment(ref: string): EnvironmentEntry {
    const crn = requireEnvironment(this.ctx, ref).crn;
    const env = this.environments().find((e) => e.environmentCrn === crn);
    if (!env) throw notFound(`environment ${ref} not found`);
    return env;
  }

  /** The optimizer hub named by CRN (or name); its scheduled policies are brought up to now first. */
  hub(ref: string): string {
    const env = this.environments().find((e) => e.hub?.datahubCrn === ref || e.hub?.datahubName === ref);
    if (!env?.hub) throw notFound(`no lakehouse optimizer Data Hub ${ref}`);
    this.runSchedules(env.hub.datahubCrn);
    return env.hub.datahubCrn;
  }

  namespace(ns: string): string {
    if (!NAMESPACES[ns]) throw notFound(`namespace ${ns} not found`);
    return ns;
  }

  table(ns: string, table: string): { namespace: string; table: string } {
    this.namespace(ns);
    if (!NAMESPACES[ns]?.includes(table)) throw notFound(`table ${ns}.${table} not found`);
    return { namespace: ns, table };
  }

  // ---- policies and tasks

  policies(hub: string): PolicyRecord[] {
    return this.ctx.store.children<PolicyRecord>(KIND.policy, this.hubKey(hub)).map((r) => r.doc);
  }

  policy(hub: string, name: string): PolicyRecord {
    const p = this.ctx.store.get<PolicyRecord>(KIND.policy, this.policyKey(hub, name));
    if (!p) throw notFound(`policy ${name} not found`);
    return p;
  }

  private savePolicy(p: PolicyRecord): void {
    this.ctx.store.put(KIND.policy, this.policyKey(p.hubCrn, p.policyName), p, { parent: this.hubKey(p.hubCrn) });
  }

  /** A hub's tasks, newest first. */
  tasks(hub: string): TaskRecord[] {
    return this.taskStore.children(this.hubKey(hub)).sort((a, b) => b.createdAt - a.createdAt);
  }

  taskProgress(t: TaskRecord): Progress {
    return this.taskStore.progress(t);
  }

  tableRecord(hub: string, ns: string, table: string): TableRecord {
    return this.ctx.store.get<TableRecord>(KIND.table, this.tableKey(hub, ns, table)) ?? { paused: false };
  }

  /** The status of a table now, and the time of its latest task. */
  tableStatus(hub: string, ns: string, table: string, all: readonly TaskRecord[]): { status: string; last?: number } {
    const mine = all.filter((t) => t.namespace === ns && t.table === table).sort((a, b) => b.createdAt - a.createdAt);
    const last = mine[0]?.createdAt;
    if (this.tableRecord(hub, ns, table).paused) return { status: 'PAUSED', last };
    const finished = mine.map((t) => this.taskProgress(t)).find((p) => p.done);
    if (!finished || this.now - finished.endsAt > RECENT_MS) return { status: 'UNAVAILABLE', last };
    return { status: tableStatusAfter(finished.state), last };
  }

  /** How many tasks a policy ran (on a namespace or table) and when the latest started. */
  policyTableStats(p: PolicyRecord, all: readonly TaskRecord[], ns?: string, table?: string): { taskCount: number; last?: number } {
    const mine = all.filter(
      (t) => t.policy.toLowerCase() === p.policyName.toLowerCase() && (!ns || t.namespace === ns) && (!table || t.table === table),
    );
    const last = mine.reduce<number | undefined>((m, t) => (m === undefined || t.createdAt > m ? t.createdAt : m), undefined);
    return { taskCount: mine.length, last };
  }

  /**
   * Makes the tasks a hub's scheduled policies have run since they were last
   * looked at, up to now: one task per covered, unpaused table at every time
   * the policy's schedule fired. Runs before every request that names the
   * hub, so changes (associations, pauses, new versions) apply from the
   * moment they are made; nothing runs in the background.
   */
  private runSchedules(hub: string): void {
    const now = this.now;
    let made = 0;
    for (const p of this.policies(hub)) {
      const since = Math.max(p.scheduledThrough ?? p.creationTime, now - SCHEDULE_LOOKBACK_MS);
      if (since >= now) continue;
      const sched = storedSchedule(latest(p).arguments);
      if (!sched) continue;
      const targets = coveredTables(p)
        .flatMap((c) => c.tables.map((table) => ({ namespace: c.namespace, table })))
        .filter((t) => !this.tableRecord(hub, t.namespace, t.table).paused);
      const fires = firesBetween(sched.cron, sched.offset, since, now, Math.max(1, Math.ceil(TASKS_KEPT / Math.max(1, targets.length))));
      if (fires.length === 0) continue;
      for (const at of fires.reverse()) for (const t of targets) this.startTask(hub, p, t.namespace, t.table, at, true);
      made += fires.length * targets.length;
      p.scheduledThrough = now;
      this.savePolicy(p);
    }
    if (made > 0) for (const t of this.tasks(hub).slice(TASKS_KEPT)) this.ctx.store.delete(KIND.task, t.taskId);
  }

  /** A maintenance task of a policy on a table, started at a time. */
  private startTask(hub: string, p: PolicyRecord, namespace: string, table: string, at: number, scheduled: boolean): TaskRecord {
    const v = latest(p);
    return this.taskStore.create(
      {
        taskId: uuid(),
        hubCrn: hub,
        policy: p.policyName,
        version: v.version,
        namespace,
        table,
        actions: actionsOf(v.script),
        createdAt: at,
        ...(scheduled ? { scheduled } : {}),
      },
      'run',
      { at },
    );
  }

  createPolicy(hub: string, name: string, script: string | undefined, args: string | undefined): void {
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(name))
      throw invalid('policy names use letters, digits, ".", "_" and "-", start with a letter or digit and are at most 128 characters');
    if (this.ctx.store.get(KIND.policy, this.policyKey(hub, name))) throw alreadyExists(`policy ${name} already exists`);
    if (!script) throw invalid('resources.script is required: a script name from scripts list, its URI or the script text');
    const now = this.now;
    this.savePolicy({
      policyName: name,
      hubCrn: hub,
      versions: [{ version: uuid(), script, arguments: checkArguments(args), creationTime: now }],
      creationTime: now,
      tables: {},
      namespaces: [],
    });
  }

  /** A new version with the script or arguments changed (the others as they were). */
  updatePolicy(hub: string, name: string, change: { script?: string; arguments?: string | null }): void {
    const p = this.policy(hub, name);
    const prev = latest(p);
    if (change.script === undefined && change.arguments === undefined)
      throw invalid('give resources.script or resources.arguments to change');
    p.versions.push({
      version: uuid(),
      script: change.script ?? prev.script,
      arguments: change.arguments !== undefined ? checkArguments(change.arguments ?? undefined) : prev.arguments,
      creationTime: this.now,
    });
    // The new version's schedule runs from now on (the old one's runs up to now were made by hub()).
    p.scheduledThrough = this.now;
    this.savePolicy(p);
  }

  /**
   * Deletes a policy from a scope: `<catalog>.*` deletes it with every
   * version; `<catalog>.<namespace>.<table>` takes it off the table, and
   * deletes it when that was its last table. Returns the versions deleted.
   */
  deletePolicy(hub: string, name: string, scope: string): number {
    const p = this.policy(hub, name);
    const [catalog, namespace, table] = scope.split('.');
    if (catalog !== CATALOG) throw notFound(`catalog ${String(catalog)} not found; this Data Hub has ${CATALOG}`);
    if (namespace === '*') {
      this.ctx.store.delete(KIND.policy, this.policyKey(hub, p.policyName));
      return p.versions.length;
    }
    const t = this.table(String(namespace), String(table));
    if (!dropTable(p, t.namespace, t.table)) {
      if (p.namespaces.includes(t.namespace)) throw failedPrecondition(throughNamespace(p.policyName, t.namespace, t.table));
      throw notFound(`policy ${p.policyName} is not associated with table ${t.namespace}.${t.table}`);
    }
    // A policy left on no table or namespace is deleted with its versions; otherwise it lives on (no version deleted).
    if (coveredTables(p).length === 0) {
      this.ctx.store.delete(KIND.policy, this.policyKey(hub, p.policyName));
      return p.versions.length;
    }
    this.savePolicy(p);
    return 0;
  }

  /** Runs a policy's latest version on a table now; the table must be covered and not paused. */
  executePolicy(hub: string, name: string, ns: string, table: string): TaskRecord {
    const p = this.requireCovers(hub, name, ns, table);
    if (this.tableRecord(hub, ns, table).paused)
      throw failedPrecondition(`maintenance of ${ns}.${table} is paused; unpause it to run policies`);
    return this.startTask(hub, p, ns, table, this.now, false);
  }

  /** The policy, which must cover the table (for a run or a dry run). */
  requireCovers(hub: string, name: string, ns: string, table: string): PolicyRecord {
    const p = this.policy(hub, name);
    if (!appliesTo(p, ns, table)) throw failedPrecondition(`policy ${p.policyName} is not associated with table ${ns}.${table}`);
    return p;
  }

  // ---- tables and associations

  pauseTable(hub: string, ns: string, table: string): void {
    // Pausing moves any state to PAUSED; a paused table stays as it is (since, reasons).
    if (this.tableRecord(hub, ns, table).paused) return;
    this.ctx.store.put<TableRecord>(KIND.table, this.tableKey(hub, ns, table), {
      paused: true,
      pausedSince: this.ctx.clock.iso(),
      reasons: [`paused by ${this.ctx.caller.actorCrn}`],
    });
  }

  unpauseTable(hub: string, ns: string, table: string): void {
    if (!this.tableRecord(hub, ns, table).paused) throw failedPrecondition(`maintenance of ${ns}.${table} is not paused`);
    this.ctx.store.put<TableRecord>(KIND.table, this.tableKey(hub, ns, table), { paused: false });
  }

  /** The names of the policies covering a table. */
  policiesOfTable(hub: string, ns: string, table: string): string[] {
    return this.policies(hub)
      .filter((p) => appliesTo(p, ns, table))
      .map((p) => p.policyName);
  }

  /** Associates policies with one table; returns the table's policies. */
  addTablePolicies(hub: string, ns: string, table: string, names: readonly string[]): string[] {
    for (const p of names.map((n) => this.policy(hub, n))) {
      addTable(p, ns, table);
      this.savePolicy(p);
    }
    return this.policiesOfTable(hub, ns, table);
  }

  /** APPEND adds the policies to the table; REMOVEALL and REPLACEALL leave it with exactly those named. */
  changeTablePolicy(hub: string, ns: string, table: string, op: TableChange, names: readonly string[]): void {
    const named = op === 'REMOVEALL' ? [] : names.map((n) => this.policy(hub, n));
    if (op !== 'APPEND') {
      // Refuse what would stay through the namespace.
      const kept = this.policies(hub).find(
        (p) => p.namespaces.includes(ns) && !named.some((n) => n.policyName.toLowerCase() === p.policyName.toLowerCase()),
      );
      if (kept) throw failedPrecondition(`${op}: ${throughNamespace(kept.policyName, ns, table)}`);
      for (const p of this.policies(hub)) if (dropTable(p, ns, table)) this.savePolicy(p);
    }
    for (const p of named) {
      const fresh = this.policy(hub, p.policyName);
      addTable(fresh, ns, table);
      this.savePolicy(fresh);
    }
  }

  /** Associates a policy with tables, or with whole namespaces (no tables given); returns what was associated. */
  associate(hub: string, name: string, associations: ReadonlyArray<{ namespace: string; tables: readonly string[] }>): Doc[] {
    const p = this.policy(hub, name);
    const created: Doc[] = [];
    for (const a of associations) {
      const ns = this.namespace(a.namespace);
      if (a.tables.length === 0) {
        if (!p.namespaces.includes(ns)) p.namespaces.push(ns);
        created.push({ namespace: ns, tables: [...(NAMESPACES[ns] ?? [])] });
        continue;
      }
      for (const t of a.tables) addTable(p, this.table(ns, t).namespace, t);
      created.push({ namespace: ns, tables: [...a.tables] });
    }
    this.savePolicy(p);
    return created;
  }

  /** Takes a policy off one table; returns the table's policies. */
  unsubscribe(hub: string, name: string, ns: string, table: string): string[] {
    const p = this.policy(hub, name);
    if (!dropTable(p, ns, table)) {
      if (p.namespaces.includes(ns)) throw failedPrecondition(throughNamespace(p.policyName, ns, table));
      throw notFound(`policy ${p.policyName} is not associated with table ${ns}.${table}`);
    }
    this.savePolicy(p);
    return this.policiesOfTable(hub, ns, table);
  }
}
