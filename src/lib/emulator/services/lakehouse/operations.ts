/**
 * The lakehouse optimizer's code entries and computed answers: the
 * environments and hub it reports (the world's environments), table and
 * association views computed over the built-in catalogue, and the changes
 * that edit a policy's versions and associations or several records at
 * once. Each says why it is not a verb.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { readRecord, type EngineRecord } from '../../engine/records.js';
import { failedPrecondition, notFound } from '../../errors.js';
import { paged } from '../../engine/paging.js';
import { b64, docs, str, strings } from '../../values.js';
import { CATALOG, NAMESPACES } from './catalogue.js';
import {
  actionsOf,
  addTable,
  aggregate,
  appliesTo,
  coveredTables,
  directlyOn,
  dropTable,
  environmentOf,
  hubScope,
  inNamespace,
  isPaused,
  latest,
  namespace,
  optimizerEnvironments,
  paused,
  policies,
  policiesOfTable,
  policy,
  policyOf,
  policyTableStats,
  requireCovers,
  required,
  scriptText,
  startTask,
  tableOf,
  tableStatus,
  tableStatusAfter,
  takeOff,
  taskOf,
  tasks,
  throughNamespace,
  type R,
} from './policies.js';

type Rec = Readonly<EngineRecord>;

/** An optional namespace filter (`*` or none: every namespace). */
const namespaceFilter = (req: Doc): string | undefined => (str(req.namespace) && req.namespace !== '*' ? namespace(req) : undefined);

// ---- environments and hub: read off the world, not records

/** listEnvironments: code, because it reads the world's environments (a page token of ALL lists every one in one answer). */
export function listEnvironments(h: Hook<R>, req: Doc): Doc {
  const all: Doc[] = optimizerEnvironments(h).map((e) => ({ ...e }));
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
      ? [readRecord({ id: e.datahubCrn, crn: e.datahubCrn, name: e.datahubName, doc: { ...e } }, e.environmentCrn)]
      : [],
  );

/** getHealth's answer: checks made up of the clock and the hub's policies. */
export function health(h: Hook<R>, hub: Rec, req: Doc): Doc {
  const scope = hub.scope;
  const full = req.scope === 'Full';
  const check = (message: string, duration: number, details: Record<string, string>): Doc => ({
    isHealthy: true,
    message,
    details,
    time: h.ctx.clock.now(),
    duration,
  });
  return {
    result: {
      scheduler: check('scheduler is running', 4, { jobs: String(policies(h, scope).length) }),
      dispatcher: check('dispatcher is accepting tasks', 3, { queue: '0' }),
      dataAccess: check(full ? 'opened an interactive session and read the catalog' : 'catalog reachable', full ? 2150 : 12, {
        catalog: CATALOG,
        ...(full ? { session: 'interactive' } : {}),
      }),
    },
    action: 'NOOP',
  };
}

// ---- tables: the catalogue's, with the records that say how they are

export const namesOfTables = (_h: Hook<R>, _hub: Rec, req: Doc): Doc => ({ tables: [...(NAMESPACES[namespace(req)] ?? [])] });

/** listTables' records: the hub's tables of the namespace asked for, in the catalogue's order. */
export function tablesIn(h: Hook<R>, req: Doc): EngineRecord[] {
  const ns = namespace(req);
  return h
    .records('table')
    .all(String(req.environmentCrn))
    .filter((t) => t.doc.namespace === ns);
}

const tableNames = (rec: Rec): { ns: string; table: string } => ({ ns: String(rec.doc.namespace), table: String(rec.doc.tableName) });

/** What a table shows: its status after its latest task (or PAUSED), the policies covering it and when it last ran. */
export function showTable(h: Hook<R>, rec: Rec): Doc {
  const { ns, table } = tableNames(rec);
  const st = tableStatus(h, rec.scope, ns, table, tasks(h, rec.scope));
  return { status: st.status, policies: policiesOfTable(h, rec.scope, ns, table), lastExecutionTime: st.last };
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
      .map((p) => {
        const s = policyTableStats(p, all, ns, table);
        return { status, policyName: p.policyName, taskCount: s.taskCount, ...(s.last !== undefined ? { lastExecutionTime: s.last } : {}) };
      }),
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
    return p.done && tableStatusAfter(p.state) === wantStatus;
  });
  if (recent) {
    const t = taskOf(recent);
    const { state } = works.progress(recent);
    out.recentTask = {
      actions: t.actions.map((action) => ({ action, status: state })),
      policyName: t.policy,
      tableName: t.table,
      lastExecutionTime: t.createdAt,
    };
  }
  return out;
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
  for (const rec of named) onTable(h, rec, ns, table);
  return {};
}

/** Associates a policy with one table. */
function onTable(h: Hook<R>, rec: EngineRecord, ns: string, table: string): void {
  addTable(policyOf(rec), ns, table);
  h.records('policy').save(rec);
}

/** createTablePoliciesAssociations: code, because it changes several policies; answers the table's policies. */
export function createTablePoliciesAssociations(h: Hook<R>, req: Doc): Doc {
  const { namespace: ns, table } = tableOf(req);
  const scope = hubScope(h, req);
  for (const rec of strings(req.policies).map((n) => policy(h, scope, n))) onTable(h, rec, ns, table);
  return { policies: policiesOfTable(h, scope, ns, table) };
}

// ---- policies

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

function associationsOut(h: Hook<R>, rec: Rec, all: readonly Rec[]): Doc[] {
  const p = policyOf(rec);
  return coveredTables(p).map(({ namespace: ns, tables }) => {
    const tableAssociations = tables.map((t) => {
      const s = policyTableStats(p, all, ns, t);
      return {
        name: t,
        namespace: ns,
        taskCount: s.taskCount,
        ...(s.last !== undefined ? { lastExecutionTime: s.last } : {}),
        version: latest(p).version,
        status: tableStatus(h, rec.scope, ns, t, all).status,
      };
    });
    return { namespace: ns, status: aggregate(tableAssociations.map((t) => t.status)), tableAssociations };
  });
}

/** getPolicy's answer: its versions, and its latest version's detail with its associations. */
export function policyDetail(h: Hook<R>, rec: Rec): Doc {
  const p = policyOf(rec);
  const v = latest(p);
  const all = tasks(h, rec.scope);
  const stats = policyTableStats(p, all);
  return {
    versions: p.versions.map((x) => x.version),
    policyDetail: {
      version: v.version,
      arguments: b64(v.arguments),
      scope: p.namespaces.length > 0 ? 'Namespace' : 'Catalog',
      associations: associationsOut(h, rec, all),
      tableCount: coveredTables(p).reduce((n, x) => n + x.tables.length, 0),
      creationTime: v.creationTime,
      ...(stats.last !== undefined ? { lastExecutionTime: stats.last } : {}),
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
  return {
    policyNames: policies(h, hub.scope)
      .map(policyOf)
      .filter((p) => !ns || inNamespace(p, ns))
      .map((p) => p.policyName),
  };
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
  const name = required(req, 'policyName');
  if (req.dryRun !== false) {
    const p = policyOf(requireCovers(h, scope, name, ns, table));
    const v = latest(p);
    const actions = actionsOf(v.script);
    let args: Doc = {};
    try {
      args = JSON.parse(v.arguments) as Doc;
    } catch {
      // stored arguments were checked at creation
    }
    const details = { policy: p.policyName, version: v.version, table: `${CATALOG}.${ns}.${table}`, actions, arguments: args };
    return { dryRunResult: { actions, details: b64(JSON.stringify(details)) } };
  }
  const p = policyOf(requireCovers(h, scope, name, ns, table));
  if (paused(h, scope, ns, table)) throw failedPrecondition(`maintenance of ${ns}.${table} is paused; unpause it to run policies`);
  const task = taskOf(startTask(h, scope, p, ns, table, h.ctx.clock.now(), false));
  const details = {
    taskId: task.taskId,
    policy: task.policy,
    version: task.version,
    table: `${CATALOG}.${ns}.${table}`,
    actions: task.actions,
  };
  return { executionResult: { taskId: task.taskId, details: b64(JSON.stringify(details)) } };
}

/** listTasks' records: the hub's, newest first, of a namespace when one is asked for. */
export function tasksIn(h: Hook<R>, req: Doc): EngineRecord[] {
  const ns = str(req.namespace) ? namespace(req) : undefined;
  return tasks(h, String(req.environmentCrn)).filter((t) => !ns || taskOf(t).namespace === ns);
}

// ---- associations

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
  const scope = hub.scope;
  const ps = policies(h, scope).map(policyOf);
  const all = tasks(h, scope);
  const direct: Doc[] = [];
  const star: Doc[] = [];
  for (const [ns, tables] of Object.entries(NAMESPACES)) {
    const rows = tables
      .map((tableName) => {
        const names = ps.filter((p) => directlyOn(p, ns, tableName)).map((p) => p.policyName);
        const st = tableStatus(h, scope, ns, tableName, all);
        return { tableName, policies: names, ...(st.last !== undefined ? { lastExecutionEpoch: st.last } : {}), status: st.status };
      })
      .filter((r) => r.policies.length > 0);
    if (rows.length > 0) direct.push({ namespace: ns, status: aggregate(rows.map((r) => r.status)), tables: rows });
    const whole = ps.filter((p) => p.namespaces.includes(ns)).map((p) => p.policyName);
    if (whole.length > 0) {
      const statuses = tables.map((t) => tableStatus(h, scope, ns, t, all).status);
      star.push({ namespace: ns, status: aggregate(statuses), policies: whole });
    }
  }
  return {
    directionAssociation: direct,
    starAssociation: star.length > 0 ? [{ catalog: CATALOG, status: aggregate(star.map((s) => String(s.status))), namespaces: star }] : [],
  };
}

export function unsubscribePolicy(h: Hook<R>, req: Doc): Doc {
  const scope = hubScope(h, req);
  const { namespace: ns, table } = tableOf(req);
  const rec = policy(h, scope, required(req, 'policyName'));
  takeOff(policyOf(rec), ns, table);
  h.records('policy').save(rec);
  return { policies: policiesOfTable(h, scope, ns, table) };
}
