/**
 * lakehouseopt on the operation table: the lakehouse optimizer's policies,
 * paused tables and tasks, records in the environment of the one optimizer
 * Data Hub (its hub, named by datahubCrn). A task's states are the model's
 * (model/services/lakehouse/resources.ts: INIT -> SUBMITTED -> COMPLETED |
 * FAILED). The service's guard checks the hub a request names and makes
 * the tasks its scheduled policies ran since it was last named. What the
 * model cannot say is optimizer.ts (records, rules, answers and code) and
 * catalogue.ts (the built-in catalogue).
 */
import type { OperationName } from '../../../model/services/lakehouse/wire.js';
import { resources } from '../../../model/services/lakehouse/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { code, defineService, fixed } from '../../engine/table.js';
import { NAMESPACES, SCRIPTS, TIMEZONES } from './catalogue.js';
import * as ops from './optimizer.js';

/** The operations that name no hub (environments, time zones). */
const HUBLESS: ReadonlySet<string> = new Set(['listEnvironments', 'getCloDatahub', 'getDatahubCrn', 'getTimezones']);

/** Every other operation names the optimizer's hub: it must be one, its tables are there, and its schedules are brought up to now first. */
function hubGuard(h: Hook<ops.R>, op: string, req: Doc): void {
  if (HUBLESS.has(op)) return;
  const scope = ops.hubScope(h, req);
  ops.catalogueTables(h, scope);
  ops.runSchedules(h, scope);
}

/** A change whose answer is empty. */
const NOTHING = { answer: () => ({}) };

/** Policies, tables and tasks live in the hub's environment, as parts of it (they neither hold up its delete nor follow it). */
const AT_HUB = { lives: { in: 'environment', by: ['environmentCrn'] }, withEnvironment: 'part' } as const;

export default defineService<OperationName>()({
  service: 'lakehouseopt',
  facts: resources,
  resources: {
    // The environments and the hub are the world's (environments) and the built-in catalogue's: no records of their own.
    environment: { keys: ['environmentCrn'] },
    // The hubs are read off the world's environments (catalogue.ts): reads of a hub compute their answers over its records.
    hub: { noun: 'lakehouse optimizer Data Hub', keys: ['datahubCrn'], readsFrom: ops.hubs },
    policy: {
      keys: ['policyName'],
      ...AT_HUB,
      hooks: { check: { create: ops.checkNewPolicy }, fill: ops.newPolicy, show: ops.showPolicy, effect: { update: ops.newVersion } },
    },
    table: {
      keys: ['tableName'],
      ...AT_HUB,
      idempotent: ['pause'],
      minutes: { pause: 0, unpause: 0 },
      hooks: { check: { unpause: ops.checkPaused }, effect: { pause: ops.pause }, show: ops.showTable },
    },
    task: { keys: ['taskId'], ...AT_HUB, names: 'repeat', minutes: { run: [0.5, 2] }, hooks: { show: ops.showTask } },
  },
  guard: hubGuard,
  operations: (r) => ({
    listEnvironments: code(ops.listEnvironments),
    getCloDatahub: code(ops.getCloDatahub),
    getDatahubCrn: code(ops.getDatahubCrn),
    getHealth: r.hub.read({ answer: ops.health }),
    getNamespaces: fixed({ namespaces: Object.keys(NAMESPACES) }),
    getScripts: fixed({ scripts: SCRIPTS }),
    getTimezones: fixed({ timezones: TIMEZONES }),
    listTables: r.table.list({ rewrite: ops.atHub, select: ops.tablesIn }),
    getTableNames: r.hub.read({ answer: ops.namesOfTables }),
    getTablePolicies: r.table.read({ rewrite: ops.atTable, answer: ops.tablePolicyRuns }),
    getTableStatusDetails: r.table.read({ rewrite: ops.atTable, answer: ops.tableStatusDetails }),
    pauseTable: r.table.act('pause', { rewrite: ops.atTable, ...NOTHING }),
    unpauseTable: r.table.act('unpause', { rewrite: ops.atTable, ...NOTHING }),
    changeTablePolicy: code(ops.changeTablePolicy),
    createTablePoliciesAssociations: code(ops.createTablePoliciesAssociations),
    createPolicy: r.policy.create({ rewrite: ops.newPolicyRequest }),
    updatePolicy: r.policy.update({ rewrite: ops.onPolicy, ...NOTHING }),
    deletePolicy: code(ops.deletePolicy),
    getPolicy: r.policy.read({ rewrite: ops.onPolicy, answer: ops.policyDetail }),
    listPolicies: r.policy.list({ rewrite: ops.atHub, select: ops.policiesIn }),
    getPolicyNames: r.hub.read({ answer: ops.policyNames }),
    downloadPolicy: r.policy.read({ rewrite: ops.onPolicy, answer: ops.download }),
    executePolicy: code(ops.executePolicy),
    listTasks: r.task.list({ rewrite: ops.atHub, select: ops.tasksIn }),
    createAssociations: code(ops.createAssociations),
    getAssociations: r.policy.read({ rewrite: ops.onPolicy, answer: ops.associations }),
    getAssociatedNamespaces: r.policy.read({ rewrite: ops.onPolicy, answer: ops.associatedNamespaces }),
    getAssociatedTables: r.policy.read({ rewrite: ops.onPolicy, answer: ops.associatedTables }),
    getAssociationDetails: r.hub.read({ answer: ops.associationDetails }),
    unsubscribePolicy: code(ops.unsubscribePolicy),
  }),
});
