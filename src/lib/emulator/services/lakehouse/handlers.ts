/** lakehouseopt operations: unpack the wire request, call the backend, build the wire answer. */
import { invalid, notFound } from '../../errors.js';
import { paged } from '../../paging.js';
import { perRequest } from '../../service.js';
import type { Doc, Handler } from '../../types.js';
import { b64, docs, str, strings } from '../../values.js';
import {
  LakehouseBackend,
  actionsOf,
  aggregate,
  appliesTo,
  coveredTables,
  directlyOn,
  inNamespace,
  latest,
  scriptText,
  tableStatusAfter,
  type PolicyRecord,
  type TableChange,
  type TaskRecord,
} from './backend.js';
import { CATALOG, NAMESPACES, SCRIPTS, TIMEZONES, type EnvironmentEntry } from './catalogue.js';

const op = perRequest((ctx) => new LakehouseBackend(ctx));

const required = (req: Doc, field: string): string => {
  const v = str(req[field]);
  if (!v) throw invalid(`${field} is required`);
  return v;
};

/** The hub a request names by datahubCrn. */
const hubOf = (b: LakehouseBackend, req: Doc): string => b.hub(required(req, 'datahubCrn'));
const namespaceOf = (b: LakehouseBackend, req: Doc, field = 'namespace'): string => b.namespace(required(req, field));
const tableOf = (b: LakehouseBackend, req: Doc): { namespace: string; table: string } =>
  b.table(namespaceOf(b, req), required(req, 'tableName'));
/** An optional namespace filter (`*` or none: every namespace). */
const namespaceFilter = (b: LakehouseBackend, req: Doc): string | undefined =>
  str(req.namespace) && req.namespace !== '*' ? namespaceOf(b, req) : undefined;

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

function associationsOut(b: LakehouseBackend, p: PolicyRecord, all: TaskRecord[]): Doc[] {
  return coveredTables(p).map(({ namespace, tables }) => {
    const tableAssociations = tables.map((t) => {
      const s = b.policyTableStats(p, all, namespace, t);
      return {
        name: t,
        namespace,
        taskCount: s.taskCount,
        ...(s.last !== undefined ? { lastExecutionTime: s.last } : {}),
        version: latest(p).version,
        status: b.tableStatus(p.hubCrn, namespace, t, all).status,
      };
    });
    return { namespace, status: aggregate(tableAssociations.map((t) => t.status)), tableAssociations };
  });
}

function taskOut(b: LakehouseBackend, t: TaskRecord): Doc {
  const { state } = b.taskProgress(t);
  const details: Doc = {
    actions: t.actions.map((action) => ({ action, status: state })),
    version: t.version,
    trigger: t.scheduled ? 'SCHEDULE' : 'ON_DEMAND',
  };
  if (state === 'FAILED') details.error = `maintenance of ${t.namespace}.${t.table} failed: the policy ${t.policy} made the task fail`;
  return {
    status: state,
    taskId: t.taskId,
    policy: t.policy,
    catalog: CATALOG,
    namespace: t.namespace,
    table: t.table,
    createdAt: t.createdAt,
    details: b64(JSON.stringify(details)),
  };
}

export const handlers: Record<string, Handler> = {
  // ---- environments and hub
  listEnvironments: op((b, req, ctx) => {
    const all = b.environments().map(envDoc);
    // A page token of ALL lists every environment in one answer.
    if (req.pageToken === 'ALL') return { environments: all, totalEnvironments: all.length };
    return { ...paged(ctx, req, all), totalEnvironments: all.length };
  }),
  getCloDatahub: op((b, req) => {
    const { isCloEnabled: _, ...doc } = envDoc(b.environment(required(req, 'environmentCrn')));
    return doc;
  }),
  getDatahubCrn: op((b, req) => ({ datahubCrn: b.environment(required(req, 'environmentCrn')).hub?.datahubCrn ?? null })),
  getHealth: op((b, req, ctx) => {
    const hub = hubOf(b, req);
    const full = req.scope === 'Full';
    const check = (message: string, duration: number, details: Record<string, string>): Doc => ({
      isHealthy: true,
      message,
      details,
      time: ctx.clock.now(),
      duration,
    });
    return {
      result: {
        scheduler: check('scheduler is running', 4, { jobs: String(b.policies(hub).length) }),
        dispatcher: check('dispatcher is accepting tasks', 3, { queue: '0' }),
        dataAccess: check(full ? 'opened an interactive session and read the catalog' : 'catalog reachable', full ? 2150 : 12, {
          catalog: CATALOG,
          ...(full ? { session: 'interactive' } : {}),
        }),
      },
      action: 'NOOP',
    };
  }),
  getNamespaces: op((b, req) => {
    hubOf(b, req);
    return { namespaces: Object.keys(NAMESPACES) };
  }),
  getScripts: op((b, req) => {
    hubOf(b, req);
    return { scripts: SCRIPTS.map((s) => ({ name: s.name, uri: s.uri, description: s.description })) };
  }),
  getTimezones: () => ({ timezones: TIMEZONES.map((t) => ({ ...t })) }),

  // ---- tables
  listTables: op((b, req) => {
    const hub = hubOf(b, req);
    const ns = namespaceOf(b, req);
    const all = b.tasks(hub);
    const ps = b.policies(hub);
    return {
      tables: (NAMESPACES[ns] ?? []).map((table) => {
        const st = b.tableStatus(hub, ns, table, all);
        return {
          status: st.status,
          namespace: ns,
          tableName: table,
          policies: ps.filter((p) => appliesTo(p, ns, table)).map((p) => p.policyName),
          ...(st.last !== undefined ? { lastExecutionTime: st.last } : {}),
        };
      }),
    };
  }),
  getTableNames: op((b, req) => {
    hubOf(b, req);
    return { tables: [...(NAMESPACES[namespaceOf(b, req)] ?? [])] };
  }),
  getTablePolicies: op((b, req) => {
    const hub = hubOf(b, req);
    const { namespace, table } = tableOf(b, req);
    const all = b.tasks(hub);
    const status = b.tableStatus(hub, namespace, table, all).status;
    const covering = new Set(b.policiesOfTable(hub, namespace, table));
    return {
      policies: b
        .policies(hub)
        .filter((p) => covering.has(p.policyName))
        .map((p) => {
          const s = b.policyTableStats(p, all, namespace, table);
          return {
            status,
            policyName: p.policyName,
            taskCount: s.taskCount,
            ...(s.last !== undefined ? { lastExecutionTime: s.last } : {}),
          };
        }),
    };
  }),
  getTableStatusDetails: op((b, req) => {
    const hub = hubOf(b, req);
    const { namespace, table } = tableOf(b, req);
    const rec = b.tableRecord(hub, namespace, table);
    const wantPolicy = str(req.policyName)?.toLowerCase();
    const wantStatus = str(req.status);
    const out: Doc = {};
    if (rec.paused)
      out.pausedTable = {
        message: `maintenance of ${namespace}.${table} is paused`,
        details: { pausedSince: rec.pausedSince, reasons: rec.reasons ?? [] },
      };
    const recent = b
      .tasks(hub)
      .filter((t) => t.namespace === namespace && t.table === table && (!wantPolicy || t.policy.toLowerCase() === wantPolicy))
      .find((t) => {
        // The filter is a table status: SUCCESS and ERROR pick the latest task that ended that way.
        if (!wantStatus || wantStatus === 'PAUSED' || wantStatus === 'UNAVAILABLE') return true;
        const p = b.taskProgress(t);
        return p.done && tableStatusAfter(p.state) === wantStatus;
      });
    if (recent) {
      const { state } = b.taskProgress(recent);
      out.recentTask = {
        actions: recent.actions.map((action) => ({ action, status: state })),
        policyName: recent.policy,
        tableName: recent.table,
        lastExecutionTime: recent.createdAt,
      };
    }
    return out;
  }),
  pauseTable: op((b, req) => {
    const hub = hubOf(b, req);
    const { namespace, table } = tableOf(b, req);
    b.pauseTable(hub, namespace, table);
    return {};
  }),
  unpauseTable: op((b, req) => {
    const hub = hubOf(b, req);
    const { namespace, table } = tableOf(b, req);
    b.unpauseTable(hub, namespace, table);
    return {};
  }),
  changeTablePolicy: op((b, req) => {
    const hub = hubOf(b, req);
    const { namespace, table } = tableOf(b, req);
    b.changeTablePolicy(hub, namespace, table, (str(req.operation) ?? 'APPEND') as TableChange, strings(req.policies));
    return {};
  }),
  createTablePoliciesAssociations: op((b, req) => {
    const hub = hubOf(b, req);
    const { namespace, table } = tableOf(b, req);
    return { policies: b.addTablePolicies(hub, namespace, table, strings(req.policies)) };
  }),

  // ---- policies
  createPolicy: op((b, req) => {
    const hub = hubOf(b, req);
    const res = (req.resources ?? {}) as Doc;
    b.createPolicy(hub, required(req, 'policyName'), str(res.script), str(res.arguments));
    return {};
  }),
  updatePolicy: op((b, req) => {
    const hub = hubOf(b, req);
    const res = (req.resources ?? {}) as Doc;
    b.updatePolicy(hub, required(req, 'policyName'), {
      script: str(res.script),
      arguments: res.arguments === undefined ? undefined : (str(res.arguments) ?? null),
    });
    return {};
  }),
  deletePolicy: op((b, req) => ({
    deletedPolicies: b.deletePolicy(hubOf(b, req), required(req, 'policyName'), String(req.resourceScope)),
  })),
  getPolicy: op((b, req) => {
    const hub = hubOf(b, req);
    const p = b.policy(hub, required(req, 'policyName'));
    const v = latest(p);
    const all = b.tasks(hub);
    const stats = b.policyTableStats(p, all);
    return {
      versions: p.versions.map((x) => x.version),
      policyDetail: {
        version: v.version,
        arguments: b64(v.arguments),
        scope: p.namespaces.length > 0 ? 'Namespace' : 'Catalog',
        associations: associationsOut(b, p, all),
        tableCount: coveredTables(p).reduce((n, x) => n + x.tables.length, 0),
        creationTime: v.creationTime,
        ...(stats.last !== undefined ? { lastExecutionTime: stats.last } : {}),
      },
    };
  }),
  listPolicies: op((b, req) => {
    const hub = hubOf(b, req);
    const ns = namespaceFilter(b, req);
    const all = b.tasks(hub);
    return {
      policies: b
        .policies(hub)
        .filter((p) => !ns || inNamespace(p, ns))
        .map((p) => {
          const stats = b.policyTableStats(p, all);
          const covered = coveredTables(p);
          return {
            status: aggregate(covered.flatMap((c) => c.tables.map((t) => b.tableStatus(hub, c.namespace, t, all).status))),
            policyName: p.policyName,
            taskCount: stats.taskCount,
            tableCount: covered.reduce((n, x) => n + x.tables.length, 0),
            creationTime: p.creationTime,
            ...(stats.last !== undefined ? { lastExecutionTime: stats.last } : {}),
            isDefault: false,
          };
        }),
    };
  }),
  getPolicyNames: op((b, req) => {
    const hub = hubOf(b, req);
    const ns = namespaceFilter(b, req);
    return {
      policyNames: b
        .policies(hub)
        .filter((p) => !ns || inNamespace(p, ns))
        .map((p) => p.policyName),
    };
  }),
  downloadPolicy: op((b, req) => {
    const p = b.policy(hubOf(b, req), required(req, 'policyName'));
    const want = str(req.policyVersion);
    const v = want ? p.versions.find((x) => x.version === want) : latest(p);
    if (!v) throw notFound(`policy ${p.policyName} has no version ${String(want)}`);
    return { script: b64(scriptText(v.script)), arguments: b64(v.arguments) };
  }),
  executePolicy: op((b, req) => {
    const hub = hubOf(b, req);
    const { namespace, table } = tableOf(b, req);
    const name = required(req, 'policyName');
    if (req.dryRun !== false) {
      const p = b.requireCovers(hub, name, namespace, table);
      const v = latest(p);
      const actions = actionsOf(v.script);
      let args: Doc = {};
      try {
        args = JSON.parse(v.arguments) as Doc;
      } catch {
        // stored arguments were checked at creation
      }
      const details = { policy: p.policyName, version: v.version, table: `${CATALOG}.${namespace}.${table}`, actions, arguments: args };
      return { dryRunResult: { actions, details: b64(JSON.stringify(details)) } };
    }
    const task = b.executePolicy(hub, name, namespace, table);
    const details = {
      taskId: task.taskId,
      policy: task.policy,
      version: task.version,
      table: `${CATALOG}.${namespace}.${table}`,
      actions: task.actions,
    };
    return { executionResult: { taskId: task.taskId, details: b64(JSON.stringify(details)) } };
  }),
  listTasks: op((b, req, ctx) => {
    const hub = hubOf(b, req);
    const ns = str(req.namespace) ? namespaceOf(b, req) : undefined;
    const all = b.tasks(hub).filter((t) => !ns || t.namespace === ns);
    return paged(ctx, req, all, (t) => taskOut(b, t));
  }),

  // ---- associations
  createAssociations: op((b, req) => {
    const hub = hubOf(b, req);
    const associations = docs(req.associations).map((a) => ({ namespace: required(a, 'namespace'), tables: strings(a.tables) }));
    return { associations: b.associate(hub, required(req, 'policyName'), associations) };
  }),
  getAssociations: op((b, req) => ({ associations: coveredTables(b.policy(hubOf(b, req), required(req, 'policyName'))) })),
  getAssociatedNamespaces: op((b, req) => {
    const p = b.policy(hubOf(b, req), required(req, 'policyName'));
    return { associatedNamespaces: Object.keys(NAMESPACES).map((namespace) => ({ namespace, isAssociated: inNamespace(p, namespace) })) };
  }),
  getAssociatedTables: op((b, req) => {
    const p = b.policy(hubOf(b, req), required(req, 'policyName'));
    return {
      associatedTables: Object.entries(NAMESPACES).map(([namespace, tables]) => ({
        namespace,
        tables: tables.map((tableName) => ({ tableName, isAssociated: appliesTo(p, namespace, tableName) })),
      })),
    };
  }),
  getAssociationDetails: op((b, req) => {
    const hub = hubOf(b, req);
    const ps = b.policies(hub);
    const all = b.tasks(hub);
    const direct: Doc[] = [];
    const star: Doc[] = [];
    for (const [namespace, tables] of Object.entries(NAMESPACES)) {
      const rows = tables
        .map((tableName) => {
          const names = ps.filter((p) => directlyOn(p, namespace, tableName)).map((p) => p.policyName);
          const st = b.tableStatus(hub, namespace, tableName, all);
          return { tableName, policies: names, ...(st.last !== undefined ? { lastExecutionEpoch: st.last } : {}), status: st.status };
        })
        .filter((r) => r.policies.length > 0);
      if (rows.length > 0) direct.push({ namespace, status: aggregate(rows.map((r) => r.status)), tables: rows });
      const whole = ps.filter((p) => p.namespaces.includes(namespace)).map((p) => p.policyName);
      if (whole.length > 0) {
        const statuses = tables.map((t) => b.tableStatus(hub, namespace, t, all).status);
        star.push({ namespace, status: aggregate(statuses), policies: whole });
      }
    }
    return {
      directionAssociation: direct,
      starAssociation:
        star.length > 0 ? [{ catalog: CATALOG, status: aggregate(star.map((s) => String(s.status))), namespaces: star }] : [],
    };
  }),
  unsubscribePolicy: op((b, req) => {
    const hub = hubOf(b, req);
    const { namespace, table } = tableOf(b, req);
    return { policies: b.unsubscribe(hub, required(req, 'policyName'), namespace, table) };
  }),
};
