/**
 * The lakehouse optimizer (table maintenance): the CLI half of the
 * lakehouseopt model. Policies are scripts plus arguments, associated with
 * tables or whole namespaces of a Data Hub; the service runs them as tasks.
 */
import type { OperationCli, PagingSpec, Rule, ServiceDefinition } from '../../types.js';
import { operations, service, shapes } from './wire.js';
import { given } from '../../rules.js';

const HUB = '--datahub-crn crn:cdp:datahub:us-west-1:acct:cluster:lakehouse-hub';

/** A string field limited to some values (the facts type them as plain strings). */
const oneOfValues = (field: string, values: readonly string[]): Rule => ({
  kind: 'custom',
  field,
  check: (r) =>
    typeof r[field] === 'string' && !values.includes(r[field] as string)
      ? `${field} must be one of ${values.join(', ')}; got "${r[field] as string}"`
      : undefined,
});

const required = (...fields: string[]): Rule[] =>
  fields.map((field) => ({
    kind: 'custom',
    field,
    check: (r: Readonly<Record<string, unknown>>) => (given(r[field]) ? undefined : `missing required field "${field}"`),
  }));

const POSITIVE_PAGE: Rule = {
  kind: 'custom',
  field: 'pageSize',
  check: (r) => (typeof r.pageSize === 'number' && r.pageSize < 1 ? `pageSize must be at least 1; got ${r.pageSize}` : undefined),
};

/** `<catalog>.<namespace>.<table>`; namespace `*` means every namespace (then no table). */
const RESOURCE_SCOPE: Rule = {
  kind: 'custom',
  field: 'resourceScope',
  check: (r) => {
    if (!given(r.resourceScope)) return 'missing required field "resourceScope" (<catalog>.<namespace>.<table>, or <catalog>.*)';
    const parts = String(r.resourceScope).split('.');
    const [catalog, namespace, table] = parts;
    if (!catalog) return 'resourceScope must start with the catalog: <catalog>.<namespace>.<table>';
    if (namespace === '*') {
      return parts.length > 3 || (table !== undefined && table !== '*' && table !== '')
        ? 'with namespace "*" the policy goes from every namespace; leave the table out (<catalog>.*)'
        : undefined;
    }
    if (parts.length !== 3 || !namespace || !table)
      return 'resourceScope must be <catalog>.<namespace>.<table> (namespace and table required), or <catalog>.* for every namespace';
    if (table === '*') return 'a table name is required unless the namespace is "*"';
    return undefined;
  },
};

const ENV_PAGING: PagingSpec = {
  result: 'environments',
  inputToken: 'pageToken',
  outputToken: 'nextPageToken',
  pageSize: 'pageSize',
  defaultMaxItems: 100,
};

const TASK_PAGING: PagingSpec = {
  result: 'tasks',
  inputToken: 'pageToken',
  outputToken: 'nextPageToken',
  pageSize: 'pageSize',
  defaultMaxItems: 100,
};

const POLICY_COLUMNS = {
  policy: 'policyName',
  status: 'status',
  tables: 'tableCount',
  tasks: 'taskCount',
  default: 'isDefault',
  created: 'creationTime',
  lastRun: 'lastExecutionTime',
};

const RESOURCES_HELP =
  'JSON {"script": "<script name or URI>", "arguments": "<JSON text of the arguments>"}, e.g. {"script":"compaction","arguments":"{\\"schedule\\":\\"0 2 * * *\\"}"} (scripts: see `lakehouse scripts list`)';
const POLICIES = 'Names of policies (see `lakehouse policies list`)';

const TABLE = `${HUB} --namespace sales --table-name orders`;

const cli: Record<string, OperationCli> = {
  // environments and the Data Hub
  listEnvironments: {
    command: 'environments list',
    summary: 'List environments and whether the optimizer is enabled in them.',
    examples: ['--output table', '--starting-token ALL'],
    description: "A starting token of 'ALL' lists every environment in one answer, whatever the page size.",
    paging: ENV_PAGING,
    rules: [POSITIVE_PAGE],
    columns: {
      environment: 'environmentName',
      enabled: 'isCloEnabled',
      datahub: 'datahubName',
      platform: 'cloudPlatform',
      status: 'status',
    },
  },
  getCloDatahub: {
    command: 'datahub describe',
    summary: 'Show the Data Hub that runs the optimizer in an environment.',
    examples: ['--environment-crn crn:cdp:environments:us-west-1:acct:environment:env1'],
    rules: required('environmentCrn'),
  },
  getDatahubCrn: {
    command: 'datahub crn',
    summary: "Print the CRN of an environment's optimizer Data Hub.",
    examples: ['--environment-crn crn:cdp:environments:us-west-1:acct:environment:env1 --query datahubCrn --output text'],
    rules: required('environmentCrn'),
  },
  getHealth: {
    command: 'health',
    summary: "Check the optimizer's scheduler, dispatcher and data access.",
    examples: [HUB, `${HUB} --scope Full`],
    fieldHelp: { scope: 'Partial: a quick check; Full: a deep check that also opens an interactive session' },
    rules: [...required('datahubCrn'), oneOfValues('scope', ['Full', 'Partial'])],
  },
  getNamespaces: {
    command: 'namespaces list',
    summary: 'List the namespaces (databases) the optimizer sees.',
    examples: [HUB],
    rules: required('datahubCrn'),
    listKey: 'namespaces',
  },

  // tables
  listTables: {
    command: 'tables list',
    summary: 'List the tables of a namespace with their maintenance status and policies.',
    examples: [`${HUB} --namespace sales --output table`],
    rules: required('datahubCrn', 'namespace'),
    listKey: 'tables',
    columns: {
      namespace: 'namespace',
      table: 'tableName',
      status: 'status',
      policies: 'policies',
      lastRun: 'lastExecutionTime',
    },
  },
  getTableNames: {
    command: 'tables names',
    summary: 'List just the table names of a namespace.',
    examples: [`${HUB} --namespace sales`],
    rules: required('datahubCrn', 'namespace'),
    listKey: 'tables',
  },
  getTablePolicies: {
    command: 'tables policies',
    summary: 'List the policies associated with a table.',
    examples: [TABLE],
    rules: required('datahubCrn', 'namespace', 'tableName'),
    listKey: 'policies',
    columns: { policy: 'policyName', status: 'status', tasks: 'taskCount', lastRun: 'lastExecutionTime' },
  },
  getTableStatusDetails: {
    command: 'tables status',
    summary: 'Show why a table is paused or how its latest maintenance task went.',
    examples: [`${TABLE} --policy-name nightly-compaction --status ERROR`],
    fieldHelp: {
      policyName: 'Only tasks of this policy (see `lakehouse tables policies`)',
      status:
        "The table's status as `lakehouse tables list` shows it: UNAVAILABLE, no task ran recently; SUCCESS or ERROR, how the latest task ended; PAUSED, its maintenance is stopped",
    },
    rules: [...required('datahubCrn', 'namespace', 'tableName'), oneOfValues('status', ['UNAVAILABLE', 'SUCCESS', 'ERROR', 'PAUSED'])],
  },
  pauseTable: {
    command: 'tables pause',
    summary: 'Stop all maintenance of a table.',
    examples: [TABLE],
    rules: required('datahubCrn', 'namespace', 'tableName'),
  },
  unpauseTable: {
    command: 'tables unpause',
    summary: 'Resume the maintenance of a paused table.',
    examples: [TABLE],
    rules: required('datahubCrn', 'namespace', 'tableName'),
  },
  changeTablePolicy: {
    command: 'tables change-policy',
    summary: "Add to, replace or clear a table's policy associations.",
    examples: [`${TABLE} --operation REPLACEALL --policies nightly-compaction`, `${TABLE} --operation REMOVEALL`],
    fieldHelp: {
      operation:
        'APPEND adds the policies; REPLACEALL puts them in place of the current ones; REMOVEALL drops every association of the table',
      policies: `${POLICIES} to add or put in place; not used with REMOVEALL`,
    },
    rules: [
      ...required('datahubCrn', 'namespace', 'tableName'),
      oneOfValues('operation', ['APPEND', 'REPLACEALL', 'REMOVEALL']),
      {
        kind: 'custom',
        field: 'policies',
        check: (r) =>
          r.operation !== 'REMOVEALL' && !(Array.isArray(r.policies) && r.policies.length > 0)
            ? `give --policies for ${String(r.operation ?? 'APPEND')}`
            : undefined,
      },
    ],
  },

  // policies
  createPolicy: {
    command: 'policies create',
    summary: 'Create a maintenance policy from a script and its arguments.',
    examples: [
      `${HUB} --policy-name nightly-compaction --resources '{"script":"compaction","arguments":"{\\"schedule\\":\\"0 2 * * *\\"}"}'`,
    ],
    fieldHelp: { policyName: 'Name of the new policy', resources: RESOURCES_HELP },
    rules: required('datahubCrn', 'policyName', 'resources'),
  },
  updatePolicy: {
    command: 'policies update',
    summary: 'Change the script or arguments of a policy; this makes a new version.',
    examples: [`${HUB} --policy-name nightly-compaction --resources '{"arguments":"{\\"schedule\\":\\"0 3 * * *\\"}"}'`],
    fieldHelp: { resources: RESOURCES_HELP },
    rules: required('datahubCrn', 'policyName', 'resources'),
  },
  deletePolicy: {
    command: 'policies delete',
    summary: 'Delete a policy from one table, or from every namespace of a catalog.',
    examples: [
      `${HUB} --policy-name nightly-compaction --resource-scope spark_catalog.sales.orders --yes`,
      `${HUB} --policy-name nightly-compaction --resource-scope 'spark_catalog.*' --yes`,
    ],
    fieldHelp: {
      resourceScope: 'Where to delete it: <catalog>.<namespace>.<table> for one table, or <catalog>.* for every namespace of the catalog',
    },
    destructive: true,
    rules: [...required('datahubCrn', 'policyName'), RESOURCE_SCOPE],
  },
  getPolicy: {
    command: 'policies describe',
    summary: 'Show the latest version of a policy and the ids of all its versions.',
    examples: [`${HUB} --policy-name nightly-compaction`],
    rules: required('datahubCrn', 'policyName'),
    decode: ['policyDetail.arguments'],
  },
  listPolicies: {
    command: 'policies list',
    summary: 'List policies, of one namespace or of all.',
    examples: [`${HUB} --output table`, `${HUB} --namespace sales`],
    fieldHelp: { namespace: 'Only policies of this namespace (see `lakehouse namespaces list`); default: every namespace' },
    rules: required('datahubCrn'),
    listKey: 'policies',
    columns: POLICY_COLUMNS,
  },
  getPolicyNames: {
    command: 'policies names',
    summary: 'List just the policy names of a namespace ("*" for all).',
    examples: [`${HUB} --namespace '*'`],
    fieldHelp: { namespace: 'Namespace whose policies to name (see `lakehouse namespaces list`), or "*" for every namespace' },
    rules: required('datahubCrn'),
    listKey: 'policyNames',
  },
  downloadPolicy: {
    command: 'policies download',
    summary: 'Fetch the script and arguments of a policy version (base64; --decode shows them as text).',
    examples: [`${HUB} --policy-name nightly-compaction --decode --output yaml`],
    fieldHelp: { policyVersion: 'A version id (see `lakehouse policies describe`); default: the latest version' },
    rules: required('datahubCrn', 'policyName'),
    decode: ['script', 'arguments'],
  },
  executePolicy: {
    command: 'policies execute',
    summary: 'Run a policy on a table now; a dry run (the default) only tells what it would do.',
    examples: [`${TABLE} --policy-name nightly-compaction`, `${TABLE} --policy-name nightly-compaction --no-dry-run`],
    fieldHelp: { dryRun: '--dry-run only evaluates and lists the actions it would take; --no-dry-run starts a maintenance task' },
    rules: required('datahubCrn', 'namespace', 'tableName', 'policyName'),
    decode: ['dryRunResult.details', 'executionResult.details'],
  },
  getAssociations: {
    command: 'policies associations',
    summary: 'List the namespaces and tables a policy is associated with.',
    examples: [`${HUB} --policy-name nightly-compaction`],
    rules: required('datahubCrn', 'policyName'),
    listKey: 'associations',
    columns: { namespace: 'namespace', tables: 'tables' },
  },
  getAssociatedNamespaces: {
    command: 'policies associated-namespaces',
    summary: 'List every namespace and whether the policy is associated with it.',
    examples: [`${HUB} --policy-name nightly-compaction`],
    rules: required('datahubCrn', 'policyName'),
    listKey: 'associatedNamespaces',
    columns: { namespace: 'namespace', associated: 'isAssociated' },
  },
  getAssociatedTables: {
    command: 'policies associated-tables',
    summary: 'List every table, namespace by namespace, and whether the policy is associated with it.',
    examples: [`${HUB} --policy-name nightly-compaction`],
    rules: required('datahubCrn', 'policyName'),
    listKey: 'associatedTables',
  },
  unsubscribePolicy: {
    command: 'policies unsubscribe',
    summary: 'Remove the association of a policy with one table.',
    examples: [`${TABLE} --policy-name nightly-compaction --yes`],
    destructive: true,
    rules: required('datahubCrn', 'policyName', 'namespace', 'tableName'),
  },

  // associations
  createAssociations: {
    command: 'associations create',
    summary: 'Associate a policy with tables, or with whole namespaces (no tables given).',
    examples: [
      `${HUB} --policy-name nightly-compaction --associations '[{"namespace":"sales","tables":["orders","returns"]}]'`,
      `${HUB} --policy-name nightly-compaction --associations '[{"namespace":"finance"}]'`,
    ],
    fieldHelp: {
      associations:
        'Where the policy applies: [{"namespace":"sales","tables":["orders"]}]; no tables means every table of the namespace (see `lakehouse tables names`)',
    },
    rules: [
      ...required('datahubCrn', 'policyName'),
      {
        kind: 'custom',
        field: 'associations',
        check: (r) => {
          if (!Array.isArray(r.associations) || r.associations.length === 0) return 'give at least one association';
          return r.associations.some((a) => !given((a as Record<string, unknown>).namespace))
            ? 'every association needs a namespace'
            : undefined;
        },
      },
    ],
    listKey: 'associations',
  },
  createTablePoliciesAssociations: {
    command: 'tables add-policies',
    summary: 'Associate policies with one table.',
    examples: [`${TABLE} --policies nightly-compaction,weekly-expire`],
    fieldHelp: { policies: `${POLICIES} to associate with the table` },
    rules: [
      ...required('datahubCrn', 'namespace', 'tableName'),
      {
        kind: 'custom',
        field: 'policies',
        check: (r) => (Array.isArray(r.policies) && r.policies.length > 0 ? undefined : 'give at least one policy'),
      },
    ],
    listKey: 'policies',
  },
  getAssociationDetails: {
    command: 'associations details',
    summary: 'Show every association of a Data Hub: per table and per whole namespace.',
    examples: [HUB],
    rules: required('datahubCrn'),
  },

  // the rest
  getScripts: {
    command: 'scripts list',
    summary: 'List the maintenance scripts policies can use.',
    examples: [`${HUB} --output table`],
    rules: required('datahubCrn'),
    listKey: 'scripts',
    columns: { name: 'name', uri: 'uri', description: 'description' },
  },
  getTimezones: {
    command: 'timezones list',
    summary: 'List the time zones policy schedules can use.',
    examples: ['--output table'],
    listKey: 'timezones',
    columns: { id: 'id', name: 'displayName', offset: 'offset' },
  },
  listTasks: {
    command: 'tasks list',
    summary: 'List the maintenance tasks of a Data Hub, newest first.',
    examples: [`${HUB} --output table`, `${HUB} --namespace sales --max-items 20`],
    fieldHelp: { namespace: 'Only tasks on tables of this namespace (see `lakehouse namespaces list`)' },
    paging: TASK_PAGING,
    rules: [...required('datahubCrn'), POSITIVE_PAGE],
    decode: ['tasks[].details'],
    columns: {
      taskId: 'taskId',
      status: 'status',
      policy: 'policy',
      namespace: 'namespace',
      table: 'table',
      created: 'createdAt',
    },
  },
};

const definition: ServiceDefinition = {
  name: 'lakehouseopt',
  topic: 'lakehouse',
  summary: 'The lakehouse optimizer: maintenance policies for lakehouse tables.',
  endpoint: 'api',
  facts: service,
  topics: {
    environments: 'Environments and whether the optimizer runs in them.',
    datahub: 'The Data Hub that runs the optimizer.',
    namespaces: 'Namespaces (databases) of the lakehouse.',
    tables: 'Tables, their maintenance status and policies.',
    policies: 'Maintenance policies: scripts plus arguments.',
    associations: 'Which policies apply to which tables and namespaces.',
    scripts: 'Maintenance scripts.',
    timezones: 'Time zones for schedules.',
    tasks: 'Maintenance tasks the optimizer ran.',
  },
  fieldHelp: {
    datahubCrn: 'CRN of the Data Hub that runs the optimizer (see `lakehouse datahub crn`)',
    environmentCrn: 'CRN of the environment (see `lakehouse environments list`)',
    namespace: 'Namespace (database) of the table (see `lakehouse namespaces list`)',
    tableName: 'Name of the table in that namespace (see `lakehouse tables names`)',
    policyName: 'Name of the maintenance policy (see `lakehouse policies list`)',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
