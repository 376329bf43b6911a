/**
 * Compute clusters: the CLI half of the compute model. Clusters are
 * Kubernetes clusters of an environment; deployments are the charts
 * installed in them. --wait follows cluster status through describeCluster
 * and operation ids through getOperationStatus.
 */
import type { OperationCli, Rule, ServiceDefinition, WaiterSpec } from '../../types.js';
import { operations, service, shapes } from './wire.js';

const CLUSTER_CRN: Rule = {
  kind: 'pattern',
  field: 'clusterCrn',
  pattern: /^crn:cdp:compute:[a-z0-9-]+:[^:]+:cluster:[^:]+$/,
  message: '--cluster-crn must be a compute cluster CRN (crn:cdp:compute:<region>:<account>:cluster:<id>)',
};

const CIDR = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\/(3[0-2]|[12]?\d)$/;

const NETWORK: Rule = {
  kind: 'custom',
  field: 'network',
  check: (r) => {
    const n = r.network;
    if (typeof n !== 'object' || n === null) return undefined;
    const net = n as Record<string, unknown>;
    for (const key of ['podCidr', 'serviceCidr']) {
      const v = net[key];
      if (typeof v === 'string' && !CIDR.test(v)) return `network.${key} must be an IPv4 CIDR such as 10.244.0.0/16; got "${v}"`;
    }
    if (Array.isArray(net.subnets) && net.subnets.some((s) => typeof s !== 'string' || s.trim() === ''))
      return 'network.subnets must be subnet ids';
    return undefined;
  },
};

const OVERRIDES_JSON: Rule = {
  kind: 'custom',
  field: 'overrides',
  check: (r) => {
    if (typeof r.overrides !== 'string') return undefined;
    try {
      const v: unknown = JSON.parse(r.overrides);
      return typeof v === 'object' && v !== null && !Array.isArray(v) ? undefined : '--overrides must be a JSON object of chart values';
    } catch {
      return '--overrides must be a JSON object of chart values (escaped JSON text)';
    }
  },
};

const clusterWait = (success: string[], failure: string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
  poll: 'describeCluster',
  input: { clusterCrn: 'response.clusterCrn || request.clusterCrn' },
  state: 'status',
  success,
  failure,
  reason: 'message',
  interval: 15,
  timeout: 3 * 3600,
  ...extra,
});

const OPERATION_WAIT: WaiterSpec = {
  poll: 'getOperationStatus',
  input: { operationId: 'response.operationId' },
  state: 'operationStatus',
  success: ['COMPLETED'],
  failure: ['FAILED', 'CANCELLED', 'TIMED_OUT'],
  reason: 'message',
  interval: 10,
  timeout: 3 * 3600,
};

const CRN_HELP = { clusterCrn: 'CRN of the compute cluster (see `compute clusters list`)' };
const ENVIRONMENT = 'CRN or name of the environment (see `environments list`)';
const NETWORK_HELP =
  'Subnets and pod/service CIDRs: {"subnets":[...],"podCidr":"10.244.0.0/16","serviceCidr":"10.96.0.0/16"}; outboundType: only udr, where the platform supports it';
const OPERATION_ID = 'ID of the long-running operation, as printed by the command that started it';
const DEPLOYMENT = {
  namespace: 'Kubernetes namespace of the deployment (see `compute deployments list`)',
  name: 'Name of the deployment (see `compute deployments list`)',
};

const cli: Record<string, OperationCli> = {
  createCluster: {
    command: 'clusters create',
    summary: 'Create a compute cluster in an environment.',
    examples: [
      '--environment crn:cdp:environments:us-west-1:acct:environment:env1 --name analytics --wait',
      '--environment crn:cdp:environments:us-west-1:acct:environment:env1 --name analytics --network podCidr=10.244.0.0/16,serviceCidr=10.96.0.0/16 --tags team=data',
    ],
    fieldHelp: {
      name: 'Name of the new cluster, unique in the environment',
      skipValidation: 'Create without running the validations first (see `compute clusters validate`)',
    },
    rules: [NETWORK],
    // A create refused by its own validation answers VALIDATION_FAILED at once: shown, exit 5, nothing polled.
    wait: clusterWait(['RUNNING'], ['CREATE_FAILED', 'VALIDATION_FAILED'], {
      first: { state: 'clusterStatus.status', reason: 'validationResponse.message || clusterStatus.message' },
    }),
  },
  validateCluster: {
    command: 'clusters validate',
    summary: 'Run the checks a cluster creation would run, without creating anything.',
    examples: ['--environment crn:cdp:environments:us-west-1:acct:environment:env1 --name analytics'],
    fieldHelp: { name: 'Cluster name to check' },
    rules: [NETWORK],
  },
  describeCluster: {
    command: 'clusters describe',
    summary: 'Show a compute cluster.',
    examples: ['--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123'],
    fieldHelp: CRN_HELP,
    rules: [CLUSTER_CRN],
  },
  listClusters: {
    command: 'clusters list',
    summary: 'List compute clusters, optionally of one environment.',
    examples: ['--output table', '--env-name-or-crn sales-env --status RUNNING'],
    fieldHelp: {
      envNameOrCrn: 'Only clusters of this environment: name or CRN (see `environments list`)',
      workloads: 'Only clusters running this workload, named as in the workloads that `compute clusters describe` shows',
      status: 'Only clusters in this status, e.g. RUNNING',
      includeDeleted: 'Include deleted clusters',
      default: 'Only the default cluster of each environment',
      clusterShape: 'Only clusters of this shape (Embedded or Externalized)',
    },
    columns: {
      name: 'clusterName',
      status: 'status',
      environment: 'envName',
      type: 'clusterType',
      kubernetes: 'kubernetesVersion',
      nodes: 'clusterSize',
      created: 'creationTime',
      crn: 'clusterCrn',
    },
  },
  updateCluster: {
    command: 'clusters update',
    summary: 'Update a compute cluster, e.g. refresh its instance groups.',
    examples: ['--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123 --spec refreshInstanceGroups=true --wait'],
    fieldHelp: {
      ...CRN_HELP,
      spec: 'What to update: {"refreshInstanceGroups": true}',
      clusterStateVersion:
        'The clusterStateVersion that `compute clusters describe` shows; the update fails when the cluster changed since',
    },
    rules: [
      { kind: 'anyOf', fields: ['clusterCrn'], message: 'give --cluster-crn' },
      CLUSTER_CRN,
      { kind: 'anyOf', fields: ['spec'], message: 'nothing to update: give --spec' },
    ],
    wait: clusterWait(['RUNNING'], ['UPDATE_FAILED']),
  },
  upgradeCluster: {
    command: 'clusters upgrade',
    summary: 'Upgrade the Kubernetes version of a compute cluster.',
    examples: [
      '--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123 --wait',
      '--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123 --dry-run',
    ],
    fieldHelp: { ...CRN_HELP, dryRun: 'Only check that the upgrade can run; nothing changes' },
    rules: [CLUSTER_CRN],
    wait: OPERATION_WAIT,
  },
  suspendCluster: {
    command: 'clusters suspend',
    summary: 'Suspend a compute cluster: its nodes are stopped until it is resumed.',
    examples: ['--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123 --wait'],
    fieldHelp: { ...CRN_HELP, skipWorkloadsValidation: 'Suspend even when workloads still run on it' },
    rules: [CLUSTER_CRN],
    wait: clusterWait(['SUSPENDED'], ['SUSPEND_FAILED']),
  },
  resumeCluster: {
    command: 'clusters resume',
    summary: 'Resume a suspended compute cluster.',
    examples: ['--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123 --wait'],
    fieldHelp: CRN_HELP,
    rules: [CLUSTER_CRN],
    wait: clusterWait(['RUNNING'], ['RESUME_FAILED']),
  },
  deleteCluster: {
    command: 'clusters delete',
    summary: 'Delete a compute cluster; --force removes one whose deletion failed.',
    examples: [
      '--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123 --yes --wait',
      '--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123 --force --yes',
    ],
    fieldHelp: {
      ...CRN_HELP,
      force: 'Only for a cluster in DELETE_FAILED: mark it deleted without cleaning up its cloud resources',
      skipWorkloadsValidation: 'Delete even when workloads still run on an externalized cluster',
    },
    destructive: true,
    rules: [CLUSTER_CRN],
    wait: clusterWait(['DELETED'], ['DELETE_FAILED'], { goneIsSuccess: true }),
  },

  // deployments
  listDeployments: {
    command: 'deployments list',
    summary: 'List the charts installed in a compute cluster and those that can be.',
    examples: ['--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123 --output table'],
    fieldHelp: {
      ...CRN_HELP,
      namespace: 'Only deployments in this Kubernetes namespace; default: every namespace',
      verbose: 'Include the chart details and default values (default: off)',
    },
    rules: [CLUSTER_CRN],
    listKey: 'installedDeployments',
    columns: {
      name: 'name',
      namespace: 'namespace',
      revision: 'revision',
      status: 'status',
      chart: 'chart.name',
      version: 'chart.deploymentVersion',
    },
  },
  describeDeployment: {
    command: 'deployments describe',
    summary: 'Show one deployment of a compute cluster with its revision history.',
    examples: ['--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123 --namespace kube-system --name cluster-autoscaler'],
    fieldHelp: { ...CRN_HELP, ...DEPLOYMENT },
    rules: [CLUSTER_CRN],
  },
  upgradeDeployment: {
    command: 'deployments upgrade',
    summary: 'Move a deployment to another chart version or change its values.',
    examples: [
      '--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123 --namespace kube-system --name cluster-autoscaler --chart-version 9.37.0',
      '--cluster-crn crn:cdp:compute:us-west-1:acct:cluster:liftie-abc123 --namespace monitoring --name metrics-server --overrides \'{"replicas":2}\'',
    ],
    fieldHelp: {
      ...CRN_HELP,
      ...DEPLOYMENT,
      chartVersion: 'Chart version to move to (see `compute deployments describe`); default: the newest available',
      overrides: 'Chart values to set, as JSON text, e.g. \'{"replicas":2}\'',
    },
    rules: [CLUSTER_CRN, OVERRIDES_JSON],
  },

  // operations
  getOperationStatus: {
    command: 'operations status',
    summary: 'Show the status of a long-running cluster operation, by phase.',
    examples: ['--operation-id 6a1d9c3e-2f4b-4d8a-9e7f-1b2c3d4e5f60'],
    fieldHelp: { operationId: OPERATION_ID },
  },
  getOperationDetails: {
    command: 'operations describe',
    summary: 'Show a long-running cluster operation in detail: phases, workflows and activities.',
    examples: ['--operation-id 6a1d9c3e-2f4b-4d8a-9e7f-1b2c3d4e5f60'],
    fieldHelp: {
      operationId: OPERATION_ID,
      runId: 'ID of one run of the operation, when it ran more than once (see `compute operations status`)',
    },
    rules: [{ kind: 'anyOf', fields: ['operationId', 'runId'], message: 'give --operation-id (or --run-id)' }],
  },
  retryOperation: {
    command: 'operations retry',
    summary: 'Run a failed cluster operation again.',
    examples: ['--operation-id 6a1d9c3e-2f4b-4d8a-9e7f-1b2c3d4e5f60 --wait'],
    fieldHelp: { operationId: `${OPERATION_ID}; it must have failed` },
    rules: [{ kind: 'anyOf', fields: ['operationId'], message: 'give --operation-id' }],
    wait: OPERATION_WAIT,
  },
};

const definition: ServiceDefinition = {
  name: 'compute',
  topic: 'compute',
  summary: 'Compute clusters (Kubernetes) of environments, their deployments and operations.',
  endpoint: 'api',
  facts: service,
  topics: {
    clusters: 'Compute clusters: create, suspend, resume, upgrade, delete.',
    deployments: 'Charts installed in a compute cluster.',
    operations: 'Long-running cluster operations.',
  },
  fieldHelp: {
    ...CRN_HELP,
    environment: ENVIRONMENT,
    description: 'Free text shown with the cluster',
    tags: 'Tags for the cloud resources: key=value,key=value',
    network: NETWORK_HELP,
    skipValidation: 'Skip the checks that run before the work starts',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
