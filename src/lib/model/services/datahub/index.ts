/**
 * Data Hub: the CLI half of the datahub model. Workload clusters (created per
 * cloud from a cluster template and a cluster definition) and the reusable
 * pieces they are built from: cluster templates, cluster definitions, recipes
 * and custom configurations; autoscaling, diagnostics, certificates, secrets
 * and upgrades of a running cluster.
 *
 * --wait: creating, starting, stopping, retrying and deleting a cluster poll
 * describeCluster for the cluster status (the StackStatus values). Work on a
 * cluster that stays available meanwhile (scaling, repair, upgrades,
 * rotations, diagnostics...) polls getOperation with the operation id the
 * call returns, since the cluster status alone cannot tell "not started yet"
 * from "done".
 */
import type { OperationCli, Rule, ServiceDefinition, WaiterSpec } from '../../types.js';
import { operations, service, shapes } from './wire.js';
import { atLeastOne, given, lowerCaseName } from '../../rules.js';

// ---- rules ---------------------------------------------------------------

/** Documented for every create: lower-case letters, digits and hyphens (length from the facts). */
const CLUSTER_NAME: Rule = lowerCaseName('clusterName', 'cluster');

const RECIPE_NAME: Rule = lowerCaseName('recipeName', 'recipe');

/** A deprecated field and the field that replaced it carry the same value: one of them. */
const notBoth = (older: string, newer: string, flagOld: string, flagNew: string): Rule => ({
  kind: 'exclusive',
  fields: [older, newer],
  message: `give ${flagNew} (or the older ${flagOld}), not both`,
});

/** Documented: one of imageId, runtime or lockComponents, or imageId with lockComponents, or none. */
const UPGRADE_COMBOS: Rule = {
  kind: 'custom',
  field: 'runtime',
  check: (r) => {
    if (given(r.runtime) && given(r.imageId)) return 'give --image-id or --runtime, not both';
    if (given(r.runtime) && given(r.lockComponents)) return '--lock-components upgrades the OS only; do not combine it with --runtime';
    return undefined;
  },
};

// ---- waiters -------------------------------------------------------------

/** Cluster status work: describeCluster until a `success` state. `cluster` names the cluster. */
const clusterWait = (cluster: string, success: string[], failure: string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
  poll: 'describeCluster',
  input: { clusterName: cluster },
  state: 'cluster.status',
  label: 'cluster.clusterName',
  success,
  failure,
  reason: 'cluster.statusReason',
  interval: 20,
  timeout: 3600,
  ...extra,
});

/** Operation-id work: getOperation until FINISHED. `cluster` is the expression naming the cluster. */
const opWait = (cluster: string, timeout = 2 * 3600): WaiterSpec => ({
  poll: 'getOperation',
  input: { clusterName: cluster, operationId: 'response.operationId' },
  state: 'operationStatus',
  success: ['FINISHED'],
  failure: ['FAILED', 'CANCELLED'],
  interval: 15,
  timeout,
});

/** The answer of a create names the cluster by CRN; the request by name (or not at all, with a request template). */
const CREATED = 'response.cluster.crn || request.clusterName';

const CREATE_WAIT = clusterWait(
  CREATED,
  ['AVAILABLE'],
  ['CREATE_FAILED', 'ENABLE_SECURITY_FAILED', 'EXTERNAL_DATABASE_CREATION_FAILED', 'DELETE_COMPLETED', 'DELETED_ON_PROVIDER_SIDE'],
  { interval: 30, timeout: 2 * 3600 },
);

// ---- shared help ---------------------------------------------------------

const CLUSTER = 'Name or CRN of the Data Hub cluster (see `datahub clusters list`)';
const CLUSTER_CRN = 'CRN of the Data Hub cluster (see `datahub clusters list`)';

const CLUSTER_COLUMNS = {
  name: 'clusterName',
  status: 'status',
  environment: 'environmentName',
  cloud: 'cloudPlatform',
  nodes: 'nodeCount',
  workload: 'workloadType',
  certificates: 'certificateExpirationState',
  created: 'creationDate',
};

/** What every cluster create shares. */
const CREATE_HELP = {
  clusterName: 'Name of the new cluster: lower-case letters, digits and "-", unique in the account',
  image: 'Image to launch from: id and catalogName (see `imagecatalog catalogs describe`), or only os',
  requestTemplate: 'The whole cluster request as a JSON template (not a cluster template); being phased out',
  datahubDatabase: 'External database of the cluster services: highly available, single instance, or none (embedded)',
  clusterExtension: 'Extensions: customProperties, a base64-encoded JSON of custom properties',
  javaVersion: 'Java major version for the cluster services, e.g. 11 or 17',
};

const CUSTOM_CONFIGURATIONS = 'Custom configurations to apply on top of the template (see `datahub custom-configurations list`)';
const SUBNET = 'Subnet to place the cluster in; default: one the environment chooses';
const LOAD_BALANCER = 'Put a load balancer in front of the service endpoints (for highly available shapes)';

const TEMPLATE_HELP = 'Name or CRN of the cluster template: the services and roles (see `datahub cluster-templates list`)';
const DEFINITION_HELP =
  "Name or CRN of the cluster definition: the cloud settings (see `datahub cluster-definitions list`); its runtime may be no newer than the data lake's";

/** Fields of the AWS and AWS GovCloud creates. */
const AWS_HELP = {
  ...CREATE_HELP,
  subnetId: SUBNET,
  enableLoadBalancer: LOAD_BALANCER,
  clusterDefinition: DEFINITION_HELP,
  clusterTemplate: TEMPLATE_HELP,
  instanceGroups:
    'Instance groups to override: nodeCount, instanceGroupName, instanceGroupType (CORE or GATEWAY), instanceType, attachedVolumeConfiguration...',
  tags: 'Tags for the cloud resources, e.g. [{"key":"team","value":"data"}]',
  subnetIds: 'Subnets to spread the cluster over (multi-AZ); default: the ones the environment suggests',
  multiAz: 'Spread the cluster over availability zones, on the subnets the environment suggests',
};

/** Fields of the Azure and GCP creates, which keep the older names. */
const OTHER_CLOUD_HELP = {
  ...CREATE_HELP,
  customConfigurationsName: CUSTOM_CONFIGURATIONS,
  clusterDefinitionName: DEFINITION_HELP,
  clusterTemplateName: TEMPLATE_HELP,
  instanceGroups:
    'Instance groups to override: nodeCount, instanceGroupName, instanceGroupType (CORE or GATEWAY), instanceType, rootVolumeSize, attachedVolumeConfiguration...',
};

const ENV_CRN = 'crn:cdp:environments:us-west-1:9d74eee4-1cad-45d7-b645-7ccf9edbb73d:environment:6b1e3f4a-2c5d-4e8f-9a0b-1c2d3e4f5a6b';
const HUB_CRN = 'crn:cdp:datahub:us-west-1:9d74eee4-1cad-45d7-b645-7ccf9edbb73d:cluster:3f8c2d1e-7b6a-4c59-8e0d-2a1b4c6d8e9f';
const OP_ID = 'b2e4c6a8-1d3f-4a5b-9c7e-0f1e2d3c4b5a';
const DE_TEMPLATE = '"7.2.18 - Data Engineering: Apache Spark3, Apache Hive, Apache Oozie"';
const SCHEDULE_POLICY =
  '\'[{"hostGroups":"compute","scheduleBasedPolicy":{"schedules":[{"identifier":"weekday-morning","configuration":{"trigger":{"cronExpression":"0 0 8 ? * MON-FRI","timeZone":"America/Los_Angeles"},"action":{"resourceAdjustmentType":"ABSOLUTE_COUNT","resourceAdjustmentValue":10}}}]}}]\'';
const LOAD_POLICY =
  '\'[{"hostGroups":"compute","loadBasedPolicy":{"configuration":{"minResourceValue":2,"maxResourceValue":20,"coolDownMinutes":10}}}]\'';

const cli: Record<string, OperationCli> = {
  // ---- clusters: creation ------------------------------------------------
  createAWSCluster: {
    command: 'clusters create aws',
    summary: 'Create a Data Hub cluster in an AWS environment from a cluster template and definition.',
    examples: [
      `--cluster-name sales-etl --environment sales-env --cluster-template ${DE_TEMPLATE} --cluster-definition "7.2.18 - Data Engineering for AWS" --wait`,
      `--cluster-name sales-etl --environment ${ENV_CRN} --cluster-template ${DE_TEMPLATE} --instance-groups '[{"instanceGroupName":"compute","instanceGroupType":"CORE","instanceType":"m5.2xlarge","nodeCount":4,"attachedVolumeConfiguration":[{"volumeSize":500,"volumeCount":1,"volumeType":"gp3"}]}]' --tags '[{"key":"team","value":"sales"}]' --multi-az`,
    ],
    fieldHelp: {
      ...AWS_HELP,
      customConfigurationsName: CUSTOM_CONFIGURATIONS,
      clusterDefinitionName: 'Older form of --cluster-definition',
      environmentName: 'Older form of --environment',
      environment: 'Name or CRN of the AWS environment to create the cluster in (see `environments list`)',
      clusterTemplateName: 'Older form of --cluster-template',
      architecture: 'CPU architecture of the instances: X86_64 or ARM64',
    },
    rules: [
      CLUSTER_NAME,
      notBoth('clusterDefinitionName', 'clusterDefinition', '--cluster-definition-name', '--cluster-definition'),
      notBoth('environmentName', 'environment', '--environment-name', '--environment'),
      notBoth('clusterTemplateName', 'clusterTemplate', '--cluster-template-name', '--cluster-template'),
    ],
    wait: CREATE_WAIT,
  },
  createAWSGovCloudCluster: {
    command: 'clusters create aws-gov',
    summary: 'Create a Data Hub cluster in an AWS GovCloud environment.',
    examples: [
      `--cluster-name gov-etl --environment gov-env --cluster-template ${DE_TEMPLATE} --cluster-definition "7.2.18 - Data Engineering for AWS GovCloud" --wait`,
    ],
    fieldHelp: {
      ...AWS_HELP,
      environment: 'Name or CRN of the AWS GovCloud environment to create the cluster in (see `environments list`)',
    },
    rules: [CLUSTER_NAME],
    wait: CREATE_WAIT,
  },
  createAzureCluster: {
    command: 'clusters create azure',
    summary: 'Create a Data Hub cluster in an Azure environment from a cluster template and definition.',
    examples: [
      `--cluster-name ops-etl --environment-name ops-env --cluster-template-name ${DE_TEMPLATE} --cluster-definition-name "7.2.18 - Data Engineering for Azure" --wait`,
      `--cluster-name ops-etl --environment-name ops-env --cluster-template-name ${DE_TEMPLATE} --cluster-definition-name "7.2.18 - Data Engineering for Azure" --database-type FLEXIBLE_SERVER --load-balancer-sku STANDARD --tags '[{"key":"team","value":"ops"}]'`,
    ],
    fieldHelp: {
      ...OTHER_CLOUD_HELP,
      subnetId: SUBNET,
      enableLoadBalancer: LOAD_BALANCER,
      environmentName: 'Name or CRN of the Azure environment to create the cluster in (see `environments list`)',
      tags: 'Tags for the Azure resources, e.g. [{"key":"team","value":"data"}]',
      multiAz: 'Spread the cluster over availability zones, on the subnets the environment suggests',
      loadBalancerSku: 'SKU of the load balancer in front of the cluster',
      databaseType: 'Azure database kind: FLEXIBLE_SERVER (the newer service) or SINGLE_SERVER',
      flexibleServerDelegatedSubnetId: 'Subnet delegated to the flexible database server',
    },
    rules: [CLUSTER_NAME],
    wait: CREATE_WAIT,
  },
  createGCPCluster: {
    command: 'clusters create gcp',
    summary: 'Create a Data Hub cluster in a GCP environment from a cluster template and definition.',
    examples: [
      `--cluster-name ml-etl --environment-name ml-env --cluster-template-name ${DE_TEMPLATE} --cluster-definition-name "7.2.18 - Data Engineering for Google Cloud" --wait`,
    ],
    fieldHelp: {
      ...OTHER_CLOUD_HELP,
      environmentName: 'Name or CRN of the GCP environment to create the cluster in (see `environments list`)',
      subnetName: 'Name of the subnet to place the cluster in; default: one the environment chooses',
      tags: 'Labels for the GCP resources (GCP label rules apply), e.g. [{"key":"team","value":"ml"}]',
      multiAz: 'Spread the cluster over the zones of the region',
    },
    rules: [CLUSTER_NAME],
    wait: CREATE_WAIT,
  },

  // ---- clusters: reading -------------------------------------------------
  listClusters: {
    command: 'clusters list',
    summary: 'List Data Hub clusters, optionally of one environment.',
    examples: ['', '--environment-name sales-env --output table'],
    fieldHelp: { environmentName: 'Name or CRN of an environment: only its clusters' },
    listKey: 'clusters',
    columns: CLUSTER_COLUMNS,
  },
  describeCluster: {
    command: 'clusters describe',
    summary: 'Show a Data Hub cluster: status, instance groups and instances, image, endpoints.',
    examples: ['--cluster-name sales-etl', `--cluster-name ${HUB_CRN}`],
  },
  listClusterLifecycleEvents: {
    command: 'events list',
    summary: 'List what happened to a cluster over its life: status changes, scaling, repairs, failures.',
    examples: ['--cluster sales-etl --output table', '--cluster sales-etl --max-items 20'],
    columns: { time: 'eventTimestamp', type: 'eventType', status: 'stackStatus', nodes: 'nodeCount', message: 'eventMessage' },
  },
  getClusterHostStatus: {
    command: 'hosts status',
    summary: 'Show the health of each host of a cluster, as Cloudera Manager reports it.',
    examples: ['--cluster-name sales-etl --output table'],
    listKey: 'hosts',
    columns: { host: 'hostname', id: 'hostid', health: 'healthSummary' },
  },
  getClusterServiceStatus: {
    command: 'services status',
    summary: 'Show the state and health of each service of a cluster, as Cloudera Manager reports it.',
    examples: ['--cluster-name sales-etl --output table'],
    listKey: 'services',
    columns: { service: 'type', state: 'state', health: 'healthSummary' },
  },
  getOperation: {
    command: 'operations describe',
    summary: 'Show a long-running operation of a cluster; the latest one when no id is given.',
    examples: ['--cluster-name sales-etl', `--cluster-name sales-etl --operation-id ${OP_ID}`],
    fieldHelp: {
      crn: 'Older form of --cluster-name (a CRN only)',
      operationId: 'Id of the operation, as the call that started it answered; default: the latest',
    },
    rules: [notBoth('crn', 'clusterName', '--crn', '--cluster-name')],
  },

  // ---- clusters: lifecycle ----------------------------------------------
  deleteCluster: {
    command: 'clusters delete',
    summary: 'Delete a Data Hub cluster and its cloud resources.',
    examples: ['--cluster-name sales-etl --yes --wait', '--cluster-name sales-etl --force --yes'],
    fieldHelp: {
      force: 'Forget the cluster even when cleaning up fails; whatever is left in the cloud account must then be removed by hand',
    },
    destructive: true,
    wait: clusterWait('request.clusterName', ['DELETE_COMPLETED'], ['DELETE_FAILED', 'EXTERNAL_DATABASE_DELETION_FAILED'], {
      goneIsSuccess: true,
    }),
  },
  startCluster: {
    command: 'clusters start',
    summary: 'Start a stopped cluster: new instances are provisioned and its services started.',
    examples: ['--cluster-name sales-etl --wait'],
    wait: clusterWait('request.clusterName', ['AVAILABLE'], ['START_FAILED', 'EXTERNAL_DATABASE_START_FAILED']),
  },
  stopCluster: {
    command: 'clusters stop',
    summary: 'Stop a cluster: its services stop and its instances are given back to the cloud provider.',
    examples: ['--cluster-name sales-etl --wait'],
    wait: clusterWait('request.clusterName', ['STOPPED'], ['STOP_FAILED', 'EXTERNAL_DATABASE_STOP_FAILED']),
  },
  retryCluster: {
    command: 'clusters retry',
    summary: 'Resume a failed cluster creation or operation from the step that failed.',
    description:
      'With --wait, waiting ends when the cluster is available; the failed state the cluster starts from is not taken as the outcome, so a retry that fails again shows as the last state when the wait times out.',
    examples: ['--cluster-name sales-etl --wait'],
    fieldHelp: { clusterName: 'Name or CRN of the failed cluster' },
    wait: clusterWait('request.clusterName', ['AVAILABLE'], [], { interval: 30, timeout: 2 * 3600 }),
  },
  syncCluster: {
    command: 'clusters sync',
    summary: 'Refresh what CDP knows of a cluster from the cloud provider and Cloudera Manager.',
    examples: ['--cluster-name sales-etl'],
  },
  scaleCluster: {
    command: 'clusters scale',
    summary: 'Add or remove instances of one instance group.',
    examples: [
      '--cluster-name sales-etl --instance-group-name compute --instance-group-desired-count 8 --wait',
      '--cluster-name sales-etl --instance-group-name worker --instance-group-desired-count 5 --preferred-subnet-ids subnet-0a1b2c3d subnet-4e5f6a7b',
    ],
    fieldHelp: {
      instanceGroupName: 'Instance group to scale, e.g. compute or worker (see `datahub clusters describe`)',
      instanceGroupDesiredCount: 'Number of instances the group should have; fewer than now removes instances',
      preferredSubnetIds: 'AWS only: subnets to put new instances in',
      preferredZones: 'Azure and GCP only: zones to put new instances in',
    },
    rules: [
      {
        kind: 'exclusive',
        fields: ['preferredSubnetIds', 'preferredZones'],
        message: 'subnets are for AWS and zones for Azure and GCP: give one',
      },
    ],
    wait: opWait('request.clusterName'),
  },
  startClusterVerticalScaling: {
    command: 'clusters scale-vertically',
    summary: 'Change the instance type or the disks of every instance of one instance group.',
    examples: [
      '--datahub sales-etl --group compute --instance-template instanceType=m5.4xlarge --wait',
      '--datahub sales-etl --group worker --disk-options \'{"modifyDisks":{"size":1000,"diskType":"ADDITIONAL_DISK"}}\'',
    ],
    fieldHelp: {
      group: 'Instance group to change (see `datahub clusters describe`)',
      instanceTemplate: 'The new instance type: instanceType=<type>',
      diskOptions: 'Disks to add (addDisks), resize (modifyDisks) or delete (deleteDisks) on every instance of the group',
    },
    rules: [
      {
        kind: 'anyOf',
        fields: ['instanceTemplate', 'diskOptions'],
        message: 'nothing to change: give --instance-template and/or --disk-options',
      },
    ],
    wait: opWait('request.datahub'),
  },
  repairCluster: {
    command: 'clusters repair',
    summary: 'Replace the failed instances of a cluster, by instance group or by instance.',
    examples: [
      '--cluster-name sales-etl --instance-group-names compute worker --wait',
      '--cluster-name sales-etl --instances \'{"instanceIds":["i-0a1b2c3d4e5f60718"],"deleteVolumes":false}\'',
    ],
    fieldHelp: {
      instanceGroupNames: 'Instance groups whose failed instances to repair',
      instances: 'Instances to repair: {"instanceIds": [...], "deleteVolumes": true recreates their disks}',
      removeOnly: 'Only remove the failed instances; start no new ones',
    },
    rules: [
      {
        kind: 'exclusive',
        fields: ['instanceGroupNames', 'instances'],
        message: 'repair either instance groups (--instance-group-names) or instances (--instances), not both',
      },
    ],
    wait: opWait('request.clusterName'),
  },
  migrateSkus: {
    command: 'clusters migrate-skus',
    summary: 'Move the load balancers and public IPs of an Azure cluster from basic to standard SKU.',
    examples: ['--cluster-name ops-etl --wait'],
    fieldHelp: { force: 'Migrate without checking the SKUs of the cloud resources first' },
    wait: opWait('request.clusterName'),
  },

  // ---- clusters: upgrades -----------------------------------------------
  upgradeCluster: {
    command: 'clusters upgrade',
    summary: 'Upgrade the OS or the runtime of a cluster, or list the images it can be upgraded to.',
    examples: [
      '--cluster-name sales-etl --runtime 7.2.18 --wait',
      '--cluster-name sales-etl --lock-components --wait',
      '--cluster-name sales-etl --show-available-images',
    ],
    fieldHelp: {
      imageId: 'Image to upgrade to (may be combined with --lock-components)',
      runtime: 'Runtime version to upgrade to, e.g. 7.2.18',
      lockComponents: 'Upgrade the OS only: keep the runtime and Cloudera Manager versions',
      dryRun: 'Check that the upgrade can be done; change nothing',
      showAvailableImages: 'List every image the cluster can be upgraded to; change nothing',
      showLatestAvailableImagePerRuntime: 'List the newest image of each runtime the cluster can be upgraded to; change nothing',
      rollingUpgradeEnabled: 'Upgrade the runtime one host at a time, keeping services up',
    },
    rules: [
      UPGRADE_COMBOS,
      {
        kind: 'exclusive',
        fields: ['showAvailableImages', 'showLatestAvailableImagePerRuntime'],
        message: 'give --show-available-images or --show-latest-available-image-per-runtime, not both',
      },
    ],
    wait: opWait('request.clusterName', 4 * 3600),
  },
  prepareClusterUpgrade: {
    command: 'clusters prepare-upgrade',
    summary: 'Run the upgrade checks and download the parcels ahead of a runtime upgrade.',
    examples: ['--cluster sales-etl --runtime 7.2.18 --wait', '--cluster sales-etl --image-id 4d2c8e1a-6b3f-4a7d-9e5c-0b1a2c3d4e5f'],
    fieldHelp: { imageId: 'Image the upgrade will go to', runtime: 'Runtime version the upgrade will go to, e.g. 7.2.18' },
    rules: [{ kind: 'exclusive', fields: ['imageId', 'runtime'], message: 'give --image-id or --runtime, not both' }],
    wait: opWait('request.cluster'),
  },
  startDatabaseUpgrade: {
    command: 'clusters upgrade-database',
    summary: 'Upgrade the database server of a cluster to a newer major version.',
    examples: ['--cluster sales-etl --target-version VERSION_14 --wait'],
    fieldHelp: {
      targetVersion: 'Database major version to upgrade to',
      force: 'Run even when the database is already at the target version (to retry a failed upgrade)',
    },
    wait: opWait('request.cluster', 3 * 3600),
  },
  syncComponentVersionsFromCm: {
    command: 'clusters sync-component-versions',
    summary: 'Record the component versions Cloudera Manager reports, after a failed upgrade.',
    examples: ['--datahub-name sales-etl --wait'],
    wait: opWait('request.datahubName'),
  },

  // ---- instances ----------------------------------------------------------
  restartClusterInstances: {
    command: 'instances restart',
    summary: 'Restart instances of a cluster at the cloud provider.',
    examples: ['--cluster sales-etl --instances i-0a1b2c3d4e5f60718 i-0f1e2d3c4b5a69788 --wait'],
    fieldHelp: { instances: 'Ids of the instances to restart (see `datahub clusters describe`)' },
    rules: [atLeastOne('instances', 'instance id')],
    wait: opWait('request.cluster'),
  },
  startInstances: {
    command: 'instances start',
    summary: 'Start stopped instances of one instance group.',
    examples: ['--cluster sales-etl --host-group compute --instance-count 2 --wait'],
    fieldHelp: {
      hostGroup: 'Instance group whose stopped instances to start',
      instanceCount: 'How many of its stopped instances to start',
    },
    wait: opWait('request.cluster'),
  },
  stopInstances: {
    command: 'instances stop',
    summary: 'Stop instances of a cluster without removing them.',
    examples: ['--cluster sales-etl --instance-ids i-0a1b2c3d4e5f60718 i-0f1e2d3c4b5a69788 --wait'],
    fieldHelp: {
      instanceIds: 'Ids of the instances to stop (see `datahub clusters describe`)',
      forced: 'Stop them even when something would normally prevent it',
    },
    rules: [atLeastOne('instanceIds', 'instance id')],
    wait: opWait('request.cluster'),
  },
  deleteInstances: {
    command: 'instances delete',
    summary: 'Remove instances from a cluster and terminate them.',
    examples: ['--cluster-name sales-etl --instance-ids i-0a1b2c3d4e5f60718 --yes --wait'],
    fieldHelp: {
      instanceIds: 'Ids of the instances to remove (see `datahub clusters describe`)',
      force: 'Terminate them even when something would normally prevent it',
    },
    rules: [atLeastOne('instanceIds', 'instance id')],
    destructive: true,
    wait: opWait('request.clusterName'),
  },

  // ---- scaling: autoscale rules, activities ------------------------------
  createAutoScaleRules: {
    command: 'autoscale-rules create',
    summary: 'Set up load-based or schedule-based autoscaling for instance groups of a cluster.',
    examples: [
      `--cluster-name sales-etl --auto-scale-policies ${LOAD_POLICY}`,
      `--cluster-name sales-etl --auto-scale-policies ${SCHEDULE_POLICY} --no-enabled`,
    ],
    fieldHelp: {
      autoScalePolicies:
        'Per instance group (hostGroups), a loadBasedPolicy (min and max instances, cool-down minutes) or a scheduleBasedPolicy (cron schedules with a target count)',
      enabled: 'Turn the rules on (default) or create them turned off',
    },
  },
  describeAutoScaleRules: {
    command: 'autoscale-rules describe',
    summary: 'Show the autoscaling rules of a cluster and whether they are on.',
    examples: ['--cluster-name sales-etl'],
  },
  updateAutoScaleRules: {
    command: 'autoscale-rules update',
    summary: 'Replace the autoscaling rules of a cluster, or turn autoscaling on or off.',
    examples: ['--cluster-name sales-etl --no-enabled', `--cluster-name sales-etl --auto-scale-policies ${LOAD_POLICY} --enabled`],
    fieldHelp: {
      autoScalePolicies: 'The new rules, replacing the current ones (same form as in `datahub autoscale-rules create`)',
      enabled: 'Turn autoscaling on or off; default: unchanged',
    },
  },
  deleteAutoScaleRules: {
    command: 'autoscale-rules delete',
    summary: 'Remove every autoscaling rule of a cluster.',
    examples: ['--cluster-name sales-etl --yes'],
    destructive: true,
  },
  listAutoScaleHistory: {
    command: 'autoscale-rules history',
    summary: 'List what autoscaling did on a cluster, newest first.',
    examples: ['--cluster-name sales-etl --output table', '--cluster-name sales-etl --count 50'],
    fieldHelp: { count: 'How many entries to show; default 200' },
    listKey: 'historyEvents',
    columns: { time: 'eventTime', event: 'eventMessage' },
  },
  listScalingActivities: {
    command: 'scaling-activities list',
    summary: 'List the scaling activities of a cluster over a recent period or a time range.',
    examples: [
      '--cluster sales-etl --duration 1440 --output table',
      '--cluster sales-etl --start-time 1714521600000 --end-time 1714608000000 --only-failed-scaling-activities',
    ],
    fieldHelp: {
      duration: 'Minutes back from now to list activities of',
      startTime: 'Start of the range, in epoch milliseconds (with --end-time)',
      endTime: 'End of the range, in epoch milliseconds (with --start-time)',
      onlyFailedScalingActivities: 'Only the activities that failed',
    },
    rules: [
      { kind: 'exclusive', fields: ['duration', 'startTime'], message: 'give --duration or a --start-time/--end-time range, not both' },
      { kind: 'anyOf', fields: ['duration', 'startTime'], message: 'say which activities: --duration or --start-time with --end-time' },
      { kind: 'requires', field: 'startTime', needs: 'endTime', message: '--start-time needs --end-time' },
      { kind: 'requires', field: 'endTime', needs: 'startTime', message: '--end-time needs --start-time' },
    ],
    columns: {
      operationId: 'operationId',
      status: 'activityStatus',
      started: 'startTime',
      ended: 'endTime',
      reason: 'scalingActivityReason',
    },
  },
  describeScalingActivity: {
    command: 'scaling-activities describe',
    summary: 'Show one scaling activity of a cluster.',
    examples: [`--cluster sales-etl --operation-id ${OP_ID}`],
    fieldHelp: { operationId: 'Operation id of the scaling activity (see `datahub scaling-activities list`)' },
  },

  // ---- cluster templates -------------------------------------------------
  createClusterTemplate: {
    command: 'cluster-templates create',
    summary: 'Register a cluster template: the services and roles of Data Hub clusters, from a Cloudera Manager template.',
    examples: [
      '--cluster-template-name sales-etl-template --cluster-template-content file://sales-etl-template.json --description "Spark and Hive for the sales team"',
    ],
    fieldHelp: {
      clusterTemplateName: 'Name of the new template, unique in the account',
      clusterTemplateContent: 'The template: Cloudera Manager cluster template JSON (file:// reads it from a file)',
      description: 'What the template is for',
      tags: 'Tags for the template, e.g. [{"key":"team","value":"data"}]',
    },
  },
  listClusterTemplates: {
    command: 'cluster-templates list',
    summary: 'List the cluster templates: the built-in ones and those of the account.',
    examples: ['', '--output table'],
    listKey: 'clusterTemplates',
    columns: {
      name: 'clusterTemplateName',
      status: 'status',
      runtime: 'productVersion',
      groups: 'instanceGroupCount',
      description: 'description',
    },
  },
  describeClusterTemplate: {
    command: 'cluster-templates describe',
    summary: 'Show a cluster template with its content.',
    examples: [`--cluster-template-name ${DE_TEMPLATE}`, '--cluster-template-name sales-etl-template'],
    fieldHelp: { clusterTemplateName: 'Name or CRN of the cluster template (see `datahub cluster-templates list`)' },
  },
  deleteClusterTemplates: {
    command: 'cluster-templates delete',
    summary: 'Delete cluster templates of the account.',
    examples: ['--cluster-template-names sales-etl-template --yes', '--cluster-template-names sales-etl-template old-etl-template --yes'],
    fieldHelp: { clusterTemplateNames: 'Names or CRNs of the templates to delete' },
    rules: [atLeastOne('clusterTemplateNames', 'cluster template')],
    destructive: true,
  },

  // ---- cluster definitions -----------------------------------------------
  createClusterDefinition: {
    command: 'cluster-definitions create',
    summary: 'Register a cluster definition: cloud settings (instance types, disks, network) to create clusters with.',
    examples: [
      '--cluster-definition-name sales-etl-aws --workload-template file://sales-etl-definition.json --description "Sales ETL on m5 instances"',
    ],
    fieldHelp: {
      clusterDefinitionName: 'Name of the new definition, unique in the account',
      workloadTemplate:
        'The cluster request JSON the definition stands for; it must name a running environment (file:// reads it from a file)',
      description: 'What the definition is for',
    },
  },
  listClusterDefinitions: {
    command: 'cluster-definitions list',
    summary: 'List the cluster definitions: the built-in ones and those of the account.',
    examples: ['', '--output table'],
    listKey: 'clusterDefinitions',
    columns: {
      name: 'clusterDefinitionName',
      type: 'type',
      cloud: 'cloudPlatform',
      runtime: 'productVersion',
      nodes: 'nodeCount',
      environment: 'environmentCrn',
    },
  },
  describeClusterDefinition: {
    command: 'cluster-definitions describe',
    summary: 'Show a cluster definition with its workload template.',
    examples: ['--cluster-definition-name "7.2.18 - Data Engineering for AWS"', '--cluster-definition-name sales-etl-aws'],
    fieldHelp: { clusterDefinitionName: 'Name or CRN of the cluster definition (see `datahub cluster-definitions list`)' },
  },
  deleteClusterDefinitions: {
    command: 'cluster-definitions delete',
    summary: 'Delete cluster definitions of the account.',
    examples: ['--cluster-definition-names sales-etl-aws --yes', '--cluster-definition-names sales-etl-aws old-etl-aws --yes'],
    fieldHelp: { clusterDefinitionNames: 'Names or CRNs of the definitions to delete' },
    rules: [atLeastOne('clusterDefinitionNames', 'cluster definition')],
    destructive: true,
  },

  // ---- recipes -------------------------------------------------------------
  createRecipe: {
    command: 'recipes create',
    summary: 'Register a recipe: a script that runs on every instance of the instance groups it is attached to.',
    examples: [
      '--recipe-name install-agent --type POST_CLOUDERA_MANAGER_START --recipe-content file://install-agent.sh --description "Installs the monitoring agent"',
    ],
    fieldHelp: {
      recipeName: 'Name of the new recipe: lower-case letters, digits and "-", unique in the account',
      recipeContent: 'The script (file:// reads it from a file)',
      type: 'When it runs: PRE_SERVICE_DEPLOYMENT, POST_CLOUDERA_MANAGER_START, POST_SERVICE_DEPLOYMENT or PRE_TERMINATION',
      description: 'What the recipe does',
    },
    rules: [RECIPE_NAME],
  },
  listRecipes: {
    command: 'recipes list',
    summary: 'List the recipes of the account.',
    examples: ['', '--output table'],
    listKey: 'recipes',
    columns: { name: 'recipeName', type: 'type', description: 'description', crn: 'crn' },
  },
  describeRecipe: {
    command: 'recipes describe',
    summary: 'Show a recipe with its script.',
    examples: ['--recipe-name install-agent', '--recipe-name install-agent --output text'],
    fieldHelp: { recipeName: 'Name or CRN of the recipe (see `datahub recipes list`)' },
  },
  deleteRecipes: {
    command: 'recipes delete',
    summary: 'Delete recipes of the account.',
    examples: ['--recipe-names install-agent --yes', '--recipe-names install-agent tune-kernel --yes'],
    fieldHelp: { recipeNames: 'Names or CRNs of the recipes to delete' },
    rules: [atLeastOne('recipeNames', 'recipe')],
    destructive: true,
  },
  replaceRecipes: {
    command: 'recipes replace',
    summary: 'Set the recipes attached to instance groups of a running cluster.',
    examples: ['--datahub sales-etl --instance-group-recipes \'[{"instanceGroupName":"compute","recipeNames":["install-agent"]}]\''],
    fieldHelp: {
      instanceGroupRecipes: 'Per instance group, the full list of recipes it should have (an empty list detaches them all)',
    },
  },

  // ---- custom configurations -------------------------------------------
  createCustomConfigurations: {
    command: 'custom-configurations create',
    summary: 'Register custom configurations: service properties that override or add to a cluster template.',
    examples: [
      '--custom-configurations-name spark-tuning --configurations \'[{"configName":"spark_executor_memory","configValue":"8g","serviceType":"SPARK3_ON_YARN","roleType":"GATEWAY"}]\' --runtime-version 7.2.18',
    ],
    fieldHelp: {
      customConfigurationsName: 'Name of the new set, unique in the account',
      configurations: 'The properties: configName, configValue, serviceType and optionally roleType',
      runtimeVersion: 'Runtime version the properties are meant for, e.g. 7.2.18',
    },
  },
  listCustomConfigurations: {
    command: 'custom-configurations list',
    summary: 'List the custom configurations of the account.',
    examples: ['', '--output table'],
    columns: { name: 'name', runtime: 'runtimeVersion', crn: 'crn' },
  },
  describeCustomConfigurations: {
    command: 'custom-configurations describe',
    summary: 'Show a set of custom configurations with its properties.',
    examples: ['--custom-configurations spark-tuning'],
    fieldHelp: { customConfigurations: 'Name or CRN of the custom configurations (see `datahub custom-configurations list`)' },
  },
  deleteCustomConfigurations: {
    command: 'custom-configurations delete',
    summary: 'Delete sets of custom configurations.',
    examples: ['--custom-configurations spark-tuning --yes'],
    fieldHelp: { customConfigurations: 'Names or CRNs of the custom configurations to delete' },
    rules: [atLeastOne('customConfigurations', 'custom configurations name')],
    destructive: true,
  },
  getVmTypes: {
    command: 'vm-types list',
    summary: 'Recommend the instance types a cluster template can use in a region.',
    examples: [`--cluster-template ${DE_TEMPLATE} --credential sales-aws-credential --region us-west-2`],
    fieldHelp: {
      clusterTemplate: 'Name of the cluster template (see `datahub cluster-templates list`)',
      credential: 'Name or CRN of the credential to ask the cloud provider with (see `environments credentials list`)',
      region: 'Cloud region to look in, e.g. us-west-2',
      availabilityZone: 'Availability zone to look in',
      clusterDefinitionName: 'Name of a cluster definition to narrow the recommendation to',
    },
    listKey: 'vmTypesWithMetadata',
    columns: { name: 'name', properties: 'properties' },
  },

  // ---- diagnostics -------------------------------------------------------
  collectDatahubDiagnostics: {
    command: 'diagnostics collect',
    summary: 'Collect logs and diagnostics from the hosts of a cluster into a bundle.',
    examples: [
      `--crn ${HUB_CRN} --destination CLOUD_STORAGE --description "slow Hive queries" --wait`,
      `--crn ${HUB_CRN} --destination SUPPORT --description "Spark jobs failing" --case-number 00123456 --host-groups compute --include-salt-logs`,
    ],
    fieldHelp: {
      destination: 'Where the bundle goes: SUPPORT, CLOUD_STORAGE (the environment log location), ENG, or LOCAL (left on the hosts)',
      description: 'A title for the collection',
      caseNumber: 'Support case number the bundle belongs to',
      labels: 'Only logs with these labels (see `datahub diagnostics log-descriptors`)',
      startDate: 'Only files changed after this time',
      endDate: 'Only files created before this time',
      additionalLogs: 'Extra logs to collect: path (a glob) and label',
      hosts: 'Only these hosts (FQDNs)',
      hostGroups: 'Only the hosts of these instance groups',
      excludeHosts: 'Leave out these hosts (FQDNs or IP addresses)',
      skipUnresponsiveHosts: 'Leave out hosts that do not answer',
      includeNginxReport: 'Add the Nginx access report, when there is one',
      includeSaltLogs: 'Add the Salt master, minion and API logs',
      includeSarOutput: 'Add the system activity reports (sar), when there are any',
      updatePackage: 'Install or upgrade the telemetry package on the hosts first (needs network access)',
      storageValidation: 'Check on each host that it can write to the cloud storage',
    },
    wait: opWait('request.crn'),
  },
  collectCmDiagnostics: {
    command: 'diagnostics collect-cm',
    summary: 'Collect a Cloudera Manager diagnostic bundle for a cluster.',
    examples: [`--crn ${HUB_CRN} --destination SUPPORT --case-number 00123456 --wait`],
    fieldHelp: {
      destination: 'Where the bundle goes: SUPPORT, CLOUD_STORAGE (the environment log location) or LOCAL',
      description: 'A title for the collection',
      caseNumber: 'Support case number the bundle belongs to',
      roles: 'Only these Cloudera Manager roles (see `datahub diagnostics cm-roles`)',
      startDate: 'Only logs and metrics from this time on',
      endDate: 'Only logs and metrics until this time',
      updatePackage: 'Install or upgrade the telemetry package on the hosts first (needs network access)',
      storageValidation: 'Check on each host that it can write to the cloud storage',
      monitorMetricsCollection: 'Add the metrics Cloudera Manager draws its charts from',
      bundleSizeLimit: 'Largest bundle size, in MB',
    },
    wait: opWait('request.crn'),
  },
  listDatahubDiagnostics: {
    command: 'diagnostics list',
    summary: 'List the recent diagnostics collections of a cluster.',
    examples: [`--crn ${HUB_CRN} --output table`],
    listKey: 'collections',
    columns: {
      flowId: 'flowId',
      status: 'status',
      progress: 'progressPercentage',
      destination: 'collectionDetails.destination',
      created: 'created',
    },
  },
  cancelDatahubDiagnostics: {
    command: 'diagnostics cancel',
    summary: 'Cancel the running diagnostics collections of a cluster.',
    examples: [`--crn ${HUB_CRN} --yes`],
    destructive: true,
  },
  getDatahubLogDescriptors: {
    command: 'diagnostics log-descriptors',
    summary: 'List the log labels and paths a diagnostics collection can take.',
    examples: ['', '--output table'],
    listKey: 'logs',
    columns: { label: 'label', path: 'path' },
  },
  getCmRoles: {
    command: 'diagnostics cm-roles',
    summary: 'List the Cloudera Manager roles of a cluster, to narrow a Cloudera Manager bundle.',
    examples: [`--crn ${HUB_CRN}`],
  },

  // ---- certificates and secrets -------------------------------------------
  renewPublicCertificate: {
    command: 'certificates renew',
    summary: 'Renew the public certificate of the cluster gateway.',
    examples: ['--datahub sales-etl --wait'],
    wait: opWait('request.datahub'),
  },
  renewCertificate: {
    command: 'certificates renew-host',
    summary: 'Renew the certificate of a cluster (older call).',
    examples: ['--cluster-name sales-etl'],
    replacement: 'certificates renew',
    wait: opWait('request.clusterName'),
  },
  rotatePrivateCertificates: {
    command: 'certificates rotate',
    summary: 'Rotate the private host certificates of a cluster.',
    examples: ['--datahub sales-etl --wait'],
    wait: opWait('request.datahub'),
  },
  rotateAutoTlsCertificates: {
    command: 'certificates rotate-auto-tls',
    summary: 'Rotate the auto-TLS certificates on the hosts of a cluster (older call).',
    examples: ['--datahub-name sales-etl'],
    replacement: 'certificates rotate',
    wait: opWait('request.datahubName'),
  },
  rotateDbCertificate: {
    command: 'certificates rotate-database',
    summary: 'Rotate the SSL certificate of the cluster database server.',
    examples: ['--datahub-name sales-etl --wait'],
    wait: opWait('request.datahubName'),
  },
  rotateSecrets: {
    command: 'secrets rotate',
    summary: 'Rotate secrets of a cluster by type.',
    examples: [`--datahub ${HUB_CRN} --secret-types CM_ADMIN_PASSWORD SALT_PASSWORD --wait`],
    fieldHelp: {
      datahub: CLUSTER_CRN,
      secretTypes: 'Secret types to rotate (see `datahub secrets list-types`)',
    },
    rules: [atLeastOne('secretTypes', 'secret type')],
    wait: opWait('request.datahub'),
  },
  listDatahubSecretTypes: {
    command: 'secrets list-types',
    summary: 'List the types of secret of a cluster that can be rotated.',
    examples: [`--datahub ${HUB_CRN} --output table`],
    fieldHelp: { datahub: CLUSTER_CRN },
    listKey: 'datahubSecretTypes',
    columns: { type: 'secretType', description: 'description' },
  },
  rotateSaltPassword: {
    command: 'secrets rotate-salt-password',
    summary: 'Rotate the SaltStack password on the instances of a cluster (older call).',
    examples: ['--cluster sales-etl'],
    replacement: 'secrets rotate --secret-types SALT_PASSWORD',
    wait: opWait('request.cluster'),
  },

  // ---- settings ------------------------------------------------------------
  setCatalog: {
    command: 'catalog set',
    summary: 'Set the image catalog a cluster takes its upgrade images from.',
    examples: ['--cluster sales-etl --catalog-name sales-images'],
    fieldHelp: { catalogName: 'Name of the image catalog (see `imagecatalog catalogs list`)' },
  },
  setDefaultJavaVersion: {
    command: 'java set-default',
    summary: 'Set the Java version the services of a cluster run on, and restart them.',
    examples: [`--cluster-crn ${HUB_CRN} --java-version 17 --wait`, `--cluster-crn ${HUB_CRN} --java-version 11 --rolling-restart`],
    fieldHelp: {
      javaVersion: 'Java major version, e.g. 11 or 17',
      rollingRestart: 'Restart the services one host at a time, keeping them up',
    },
    wait: opWait('request.clusterCrn'),
  },
  updateOrchestratorState: {
    command: 'orchestrator update-state',
    summary: 'Apply the current orchestrator (Salt) state to the hosts of a cluster again.',
    examples: [`--cluster-crn ${HUB_CRN} --wait`],
    wait: opWait('request.clusterCrn'),
  },
  updatePublicDnsEntries: {
    command: 'dns update',
    summary: 'Update the public DNS entries of the cluster gateway.',
    examples: ['--datahub sales-etl --wait'],
    wait: opWait('request.datahub'),
  },
  updateToAwsImdsV1: {
    command: 'imds update-v1',
    summary: 'Let the instances of an AWS cluster use instance metadata service v1 again.',
    examples: [`--crn ${HUB_CRN} --wait`],
    wait: opWait('request.crn'),
  },
  updateToAwsImdsV2: {
    command: 'imds update-v2',
    summary: 'Require instance metadata service v2 on the instances of an AWS cluster.',
    examples: [`--crn ${HUB_CRN} --wait`],
    wait: opWait('request.crn'),
  },

  // ---- Kafka: ZooKeeper to KRaft ------------------------------------------
  migrateZookeeperToKraft: {
    command: 'kraft-migration start',
    summary: 'Start moving the Kafka brokers of a streaming cluster from ZooKeeper to KRaft metadata.',
    examples: [`--crn ${HUB_CRN} --wait`],
    wait: opWait('request.crn'),
  },
  finalizeZookeeperToKraftMigration: {
    command: 'kraft-migration finalize',
    summary: 'Finish a ZooKeeper to KRaft migration: the brokers leave ZooKeeper for good.',
    examples: [`--crn ${HUB_CRN} --yes --wait`],
    destructive: true,
    wait: opWait('request.crn'),
  },
  rollbackZookeeperToKraftMigration: {
    command: 'kraft-migration rollback',
    summary: 'Undo an unfinished ZooKeeper to KRaft migration: the brokers go back to ZooKeeper.',
    examples: [`--crn ${HUB_CRN} --wait`],
    wait: opWait('request.crn'),
  },
};

const definition: ServiceDefinition = {
  name: 'datahub',
  topic: 'datahub',
  summary: 'Data Hub clusters: create per cloud, start, stop, scale, repair and upgrade; templates, definitions and recipes.',
  endpoint: 'api',
  facts: service,
  topics: {
    clusters: 'Data Hub clusters: create, list, describe, start, stop, scale, repair, upgrade, delete.',
    'clusters:create': 'Create a cluster on AWS, AWS GovCloud, Azure or GCP.',
    events: 'Lifecycle events of a cluster.',
    hosts: 'Host health.',
    services: 'Service health.',
    operations: 'Long-running operations of a cluster.',
    instances: 'Instances of a cluster: restart, start, stop, remove.',
    'autoscale-rules': 'Load-based and schedule-based autoscaling of instance groups.',
    'scaling-activities': 'What scaling did on a cluster.',
    'cluster-templates': 'Cluster templates: the services and roles a cluster runs.',
    'cluster-definitions': 'Cluster definitions: the cloud settings a cluster is created with.',
    recipes: 'Scripts that run on the instances of instance groups.',
    'custom-configurations': 'Service properties applied on top of a cluster template.',
    'vm-types': 'Instance type recommendations.',
    diagnostics: 'Diagnostic bundles and log collections.',
    certificates: 'Public, host and database certificates.',
    secrets: 'Secret rotation.',
    catalog: 'The image catalog of a cluster.',
    java: 'The Java version of a cluster.',
    orchestrator: 'The orchestrator state of a cluster.',
    dns: 'Public DNS entries.',
    imds: 'The AWS instance metadata service version.',
    'kraft-migration': 'Moving Kafka from ZooKeeper to KRaft.',
  },
  fieldHelp: {
    clusterName: CLUSTER,
    cluster: CLUSTER,
    datahub: CLUSTER,
    datahubName: CLUSTER,
    crn: CLUSTER_CRN,
    clusterCrn: CLUSTER_CRN,
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
