/**
 * Replication Manager: the CLI half of the replicationmanager model. HDFS and
 * Hive replication policies, HBase replication policies and the cluster pairs
 * they run between, the cloud credentials policies write with, the clusters
 * the service can reach, and diagnostic bundles of a policy.
 *
 * The service has no describe call for one policy (listPolicies returns every
 * policy of every cluster), so policy changes take no --wait: a waiter's state
 * cannot pick one policy out of that list. Diagnostic bundles are Cloudera
 * Manager commands and wait on getCommandStatus.
 */
import type { OperationCli, Rule, ServiceDefinition, WaiterSpec } from '../../types.js';
import { kebab } from '../../names.js';
import { operations, service, shapes } from './wire.js';
import { given } from '../../rules.js';

const ACCOUNT = '9d74eee4-1cad-45d7-b645-7ccf9edbb73d';
const SOURCE = `crn:cdp:datahub:us-west-1:${ACCOUNT}:cluster:5b1f7d52-3c6e-4a2b-9f1e-8a0c2d4e6f10`;
const TARGET = `crn:cdp:datahub:us-east-1:${ACCOUNT}:cluster:0e6c2b8a-7d41-4f3e-b2a9-61c5d8e4f7a3`;
const HBASE_POLICY_ID = 'a4c1e7f2-58b3-4d6a-9e0f-3b7c2d1a8e56';

// ---- rules ---------------------------------------------------------------

/** What each credential type needs beyond name, clusters and type, as the service documents it. */
const credentialNeeds = (needs: Readonly<Record<string, readonly string[]>>): Rule => ({
  kind: 'custom',
  field: 'type',
  check: (r) => {
    const type = typeof r.type === 'string' ? r.type : '';
    const missing = (needs[type] ?? []).filter((f) => !given(r[f]));
    return missing.length > 0 ? `a ${type} credential needs ${missing.map((f) => `--${kebab(f)}`).join(' and ')}` : undefined;
  },
});

// ---- waiters -------------------------------------------------------------

/**
 * A diagnostic bundle is a Cloudera Manager command: done when the bundle can
 * be downloaded. When the service leaves bundleStatus out, the command's own
 * active/success flags decide.
 */
const BUNDLE_WAIT: WaiterSpec = {
  poll: 'getCommandStatus',
  input: { clusterCrn: 'request.clusterCrn', commandId: 'to_string(response.commandId)' },
  state: "bundleStatus || (active == `false` && (success && 'SUCCEEDED' || 'FAILED')) || 'IN_PROGRESS'",
  success: ['DOWNLOADABLE_WITH_URL', 'DOWNLOADABLE_WITH_CLI', 'SUCCEEDED'],
  failure: ['FAILED'],
  reason: 'bundleStatusMessage || resultMessage',
  interval: 10,
  timeout: 3600,
};

// ---- shared help ---------------------------------------------------------

const DEST_CLUSTER = 'CRN of the destination cluster of the HBase policy (see `clusters list`)';
const HBASE_POLICY = {
  clusterCrn: DEST_CLUSTER,
  policyId: 'ID of the HBase policy (policyId in `policies list`)',
};

const cli: Record<string, OperationCli> = {
  // clusters
  listClusters: {
    command: 'clusters list',
    summary: 'List the clusters Replication Manager can replicate between, with their managers and locations.',
    examples: ['', '--output table'],
    listKey: 'clusters',
    columns: {
      name: 'name',
      crn: 'crn',
      dataCenter: 'dataCenter',
      type: 'clusterType',
      engine: 'replicationEngineType',
      hosts: 'totalHosts',
      version: 'stackVersion',
    },
  },
  listClusterServiceStatuses: {
    command: 'clusters service-statuses',
    summary: 'Show whether HDFS, Hive, HBase and the other services of every cluster are healthy.',
    examples: ['', '--output table'],
    listKey: 'statuses',
    columns: { cluster: 'clusterCrn', services: 'serviceStatuses' },
  },
  getClusterConfig: {
    command: 'clusters describe-config',
    summary: 'Show the replication-related configuration of a cluster: services, supported features, Hive file system.',
    examples: [`--cluster-crn ${SOURCE}`],
    fieldHelp: { clusterCrn: 'CRN of the cluster (see `clusters list`)' },
  },

  // credentials
  listAllCredentials: {
    command: 'credentials list',
    summary: 'List the cloud credentials on every cluster, grouped by cluster.',
    examples: ['', '--output table'],
    listKey: 'credentials',
    columns: { cluster: 'clusterCrn', url: 'clusterUrl', engine: 'replicationEngineType', credentials: 'credentials.totalResults' },
  },
  getCredentials: {
    command: 'credentials describe',
    summary: 'Show the cloud credentials on one cluster, or one of them by name or ID.',
    examples: [`--cluster-crn ${SOURCE}`, `--cluster-crn ${SOURCE} --credential-name dr-aws-keys`],
    fieldHelp: {
      clusterCrn: 'CRN of the cluster that holds the credentials (see `clusters list`)',
      credentialName: 'Show only the credential with this name',
      credentialId: 'Show only the credential with this ID; wins over --credential-name',
    },
    listKey: 'credentials',
    columns: { name: 'name', id: 'id', provider: 'provider', authType: 'authType', created: 'creationTime' },
  },
  createAwsCredential: {
    command: 'credentials create aws',
    summary: 'Create an AWS credential on clusters, with an IAM role or an access key, for replicating to S3.',
    examples: [
      `--name dr-aws-keys --clusters ${SOURCE} ${TARGET} --type ACCESSKEY --access-key AKIAIOSFODNN7EXAMPLE --secret-key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`,
      `--name dr-aws-role --clusters ${SOURCE} --type IAM`,
    ],
    fieldHelp: {
      type: 'IAM uses the role of the cluster hosts; ACCESSKEY needs --access-key and --secret-key',
      accessKey: 'AWS access key ID (with --type ACCESSKEY)',
      secretKey: 'AWS secret access key (with --type ACCESSKEY)',
    },
    rules: [credentialNeeds({ ACCESSKEY: ['accessKey', 'secretKey'] })],
  },
  createAbfsCredential: {
    command: 'credentials create azure',
    summary: 'Create an Azure (ABFS) credential on clusters, with a service principal or a storage key, for replicating to ADLS.',
    examples: [
      `--name dr-adls --clusters ${SOURCE} --type CLIENTKEY --client-id 3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d --client-secret-key Zx9~example.secret --tenant-id 72f988bf-86f1-41af-91ab-2d7cd011db47`,
      `--name dr-adls-key --clusters ${SOURCE} --type ACCESSKEY --storage-account-name drstore --access-key c3RvcmFnZS1rZXk=`,
    ],
    fieldHelp: {
      type: 'CLIENTKEY (a service principal; Cloudera Manager clusters) or ACCESSKEY (a storage account key; Ambari clusters)',
      accessKey: 'Storage account access key (with --type ACCESSKEY)',
      storageAccountName: 'Name of the ADLS Gen2 storage account (with --type ACCESSKEY)',
      clientId: 'Application (client) ID of the service principal (with --type CLIENTKEY)',
      clientSecretKey: 'Client secret of the service principal (with --type CLIENTKEY)',
      tenantId: 'Azure AD tenant (directory) ID of the service principal (with --type CLIENTKEY)',
    },
    rules: [credentialNeeds({ ACCESSKEY: ['storageAccountName', 'accessKey'], CLIENTKEY: ['clientId', 'clientSecretKey', 'tenantId'] })],
  },
  deleteCredential: {
    command: 'credentials delete',
    summary: 'Delete a cloud credential from the clusters that hold it.',
    examples: ['--name dr-aws-keys --yes'],
    fieldHelp: { name: 'Name of the credential (see `credentials list`)' },
    destructive: true,
  },

  // HDFS and Hive policies
  listPolicies: {
    command: 'policies list',
    summary: 'List the replication policies of every cluster with their status, schedule and last runs.',
    examples: ['', '--output table'],
    listKey: 'policies',
    columns: {
      name: 'name',
      policyId: 'policyId',
      type: 'type',
      status: 'status',
      cluster: 'targetClusterCrn',
      source: 'sourceCluster',
      target: 'targetCluster',
      nextRun: 'nextRun',
    },
  },
  createPolicy: {
    command: 'policies create',
    summary: 'Create an HDFS or Hive replication policy that copies data on a schedule.',
    examples: [
      `--cluster-crn ${TARGET} --policy-name sales-hdfs --policy-definition '{"name":"sales-hdfs","type":"FS","sourceDataset":{"hdfsArguments":{"path":"/data/sales"}},"frequencyInSec":86400,"targetDataset":"s3a://dr-sales/data/sales","cloudCredential":"dr-aws-keys","sourceCluster":"us-west$prod-base"}'`,
      `--cluster-crn ${TARGET} --policy-name sales-hive --policy-definition '{"name":"sales-hive","type":"HIVE","sourceDataset":{"hiveArguments":{"databasesAndTables":[{"database":"sales","tablesIncludeRegex":".*"}]}},"frequencyInSec":3600,"sourceCluster":"us-west$prod-base","targetCluster":"us-east$dr-base"}'`,
    ],
    fieldHelp: {
      clusterCrn: 'CRN of the cluster the policy runs on, usually the destination (see `clusters list`)',
      policyName: 'Name of the new policy; the same as "name" in --policy-definition',
      policyDefinition:
        'The policy as JSON: name, type (FS, HIVE or HBASE), sourceDataset (hdfsArguments with a path, or hiveArguments with databasesAndTables), frequencyInSec (seconds between runs), and optionally targetDataset, cloudCredential, sourceCluster and targetCluster ("dataCenter$cluster"), startTime, endTime, queueName',
    },
  },
  deletePolicy: {
    command: 'policies delete',
    summary: 'Delete a replication policy; data already copied stays where it is.',
    examples: [`--cluster-crn ${TARGET} --policy-name sales-hdfs --yes`],
    fieldHelp: { policyName: 'Name of the policy (see `policies list`)' },
    destructive: true,
  },
  suspendPolicy: {
    command: 'policies suspend',
    summary: 'Stop the scheduled runs of a replication policy until it is resumed.',
    examples: [`--cluster-crn ${TARGET} --policy-name sales-hdfs`],
    fieldHelp: { policyName: 'Name of the policy (see `policies list`)' },
  },
  activatePolicy: {
    command: 'policies resume',
    summary: 'Resume the scheduled runs of a suspended replication policy.',
    examples: [`--cluster-crn ${TARGET} --policy-name sales-hdfs`],
    fieldHelp: { policyName: 'Name of the suspended policy (see `policies list`)' },
  },

  // HBase policies
  createHbasePolicy: {
    command: 'hbase-policies create',
    summary: 'Create an HBase replication policy between two clusters, optionally copying a first snapshot.',
    description:
      'Check the pair with `hbase-pairs verify` first. When the source is a classic cluster, restart its HBase service by hand and then run `hbase-policies continue-setup`.',
    examples: [
      `--cluster-crn ${TARGET} --policy-name orders-hbase --policy-definition '{"hbasePolicyArguments":{"tables":["default:orders","default:customers"]},"sourceCluster":"us-west$prod-opdb","targetCluster":"us-east$dr-opdb","initialSnapshot":true,"description":"orders to DR"}'`,
    ],
    fieldHelp: {
      clusterCrn: DEST_CLUSTER,
      policyName: 'Name of the new policy',
      policyDefinition:
        'The policy as JSON: hbasePolicyArguments (tables as "namespace:table"; none means every table), sourceCluster and targetCluster ("dataCenter$cluster"), initialSnapshot (copy existing data first), and optionally description, machineUser, queueName, distcpMaxMaps, sourceRestartType and targetRestartType (RESTART or ROLLING_RESTART, the default)',
    },
  },
  updateHbasePolicy: {
    command: 'hbase-policies update',
    summary: 'Rename an HBase replication policy or change its description or tables.',
    examples: [
      `--cluster-crn ${TARGET} --policy-id ${HBASE_POLICY_ID} --update-hbase-policy-definition '{"tables":["default:orders","default:customers","default:invoices"]}'`,
    ],
    fieldHelp: {
      ...HBASE_POLICY,
      updateHbasePolicyDefinition: 'What to change, as JSON: name, description, tables ("namespace:table")',
    },
  },
  continueHbaseSetup: {
    command: 'hbase-policies continue-setup',
    summary: 'Finish setting up an HBase policy after restarting HBase on its classic source cluster by hand.',
    examples: [`--cluster-crn ${TARGET} --policy-id ${HBASE_POLICY_ID}`],
    fieldHelp: HBASE_POLICY,
  },
  suspendHbasePolicy: {
    command: 'hbase-policies suspend',
    summary: 'Pause an HBase replication policy (on newer Cloudera Manager, every policy of the same cluster pair).',
    examples: [`--cluster-crn ${TARGET} --policy-id ${HBASE_POLICY_ID}`],
    fieldHelp: HBASE_POLICY,
  },
  activateHbasePolicy: {
    command: 'hbase-policies resume',
    summary: 'Resume a paused HBase replication policy (on newer Cloudera Manager, every policy of the same cluster pair).',
    examples: [`--cluster-crn ${TARGET} --policy-id ${HBASE_POLICY_ID}`],
    fieldHelp: HBASE_POLICY,
  },
  deleteHbasePolicy: {
    command: 'hbase-policies delete',
    summary: 'Delete an HBase replication policy; --force removes it even when the source cannot be reached.',
    examples: [
      `--cluster-crn ${TARGET} --policy-id ${HBASE_POLICY_ID} --yes`,
      `--cluster-crn ${TARGET} --policy-id ${HBASE_POLICY_ID} --force --yes`,
    ],
    fieldHelp: { ...HBASE_POLICY, force: 'Delete even when a normal delete fails, e.g. because the source cluster is unreachable' },
    destructive: true,
  },

  // HBase cluster pairs
  listPairedHbaseClusters: {
    command: 'hbase-pairs list',
    summary: 'List the cluster pairs that have an active HBase replication policy.',
    examples: [''],
    listKey: 'pairings',
    columns: { clusters: 'pairedCrns' },
  },
  verifyHbaseClusterPair: {
    command: 'hbase-pairs verify',
    summary: 'Check whether two clusters are ready for an HBase policy, and list the manual steps still needed.',
    examples: [`--source-cluster-crn ${SOURCE} --destination-cluster-crn ${TARGET}`],
    fieldHelp: {
      sourceClusterCrn: 'CRN of the cluster HBase data comes from (see `clusters list`)',
      destinationClusterCrn: 'CRN of the cluster HBase data goes to (see `clusters list`)',
    },
  },

  // diagnostics
  collectDiagnosticBundle: {
    command: 'diagnostics collect',
    summary: 'Start collecting a diagnostic bundle for a replication policy; --wait until it can be downloaded.',
    examples: [`--cluster-crn ${TARGET} --policy-name sales-hdfs --wait`],
    fieldHelp: { policyName: 'Name of the policy to diagnose (see `policies list`)' },
    wait: BUNDLE_WAIT,
  },
  getCommandStatus: {
    command: 'diagnostics status',
    summary: 'Show the progress of a diagnostic bundle collection, or of any Cloudera Manager command.',
    examples: [`--cluster-crn ${TARGET} --command-id 1546335`],
    fieldHelp: {
      clusterCrn: 'CRN of the cluster the command runs on',
      commandId: 'ID of the Cloudera Manager command, e.g. the commandId `diagnostics collect` printed',
    },
  },
  downloadDiagnosticBundle: {
    command: 'diagnostics download',
    summary: 'Fetch a collected diagnostic bundle (base64) once its status is DOWNLOADABLE_WITH_CLI.',
    description:
      'The bundle arrives base64-encoded in bundleFile; save it with `--query bundleFile --output text | base64 -d > bundle.zip`. A bundle whose status is DOWNLOADABLE_WITH_URL is only available at its resultDataUrl.',
    examples: [`--cluster-crn ${TARGET} --command-id 1546335`],
    fieldHelp: { clusterCrn: 'CRN of the cluster the bundle was collected on', commandId: 'The commandId `diagnostics collect` printed' },
  },
};

const definition: ServiceDefinition = {
  name: 'replicationmanager',
  topic: 'replicationmanager',
  summary: 'Replication Manager: HDFS, Hive and HBase replication policies, their credentials, clusters and diagnostics.',
  endpoint: 'api',
  facts: service,
  topics: {
    clusters: 'Clusters Replication Manager can reach, their services and configuration.',
    credentials: 'Cloud credentials that policies use to write to cloud storage.',
    'credentials:create': 'Create a cloud credential for AWS or Azure storage.',
    policies: 'HDFS and Hive replication policies.',
    'hbase-policies': 'HBase replication policies.',
    'hbase-pairs': 'Source and destination cluster pairs for HBase replication.',
    diagnostics: 'Diagnostic bundles of replication policies.',
  },
  fieldHelp: {
    clusterCrn: 'CRN of the cluster that holds the policy, usually its destination (targetClusterCrn in `policies list`)',
    clusters: 'CRNs of the clusters to create the credential on, space-separated (see `clusters list`)',
    name: 'Name of the new credential, as policies will refer to it',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
