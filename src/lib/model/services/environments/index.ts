/**
 * Environments: the CLI half of the environments model. An environment is
 * the cloud footprint (credential, network, security, log storage) that data
 * lakes, Data Hubs and data services run in, with its FreeIPA identity
 * server. Commands group by what a platform engineer manages: the
 * environments themselves, credentials, audit credentials, proxy
 * configurations, FreeIPA, ID Broker mappings, user sync, Active Directory
 * trust and telemetry. Long-running work answers --wait through
 * describeEnvironment (create, delete), getOperation (operation ids),
 * getRepairFreeipaStatus, syncStatus and getIdBrokerMappingsSyncStatus.
 */
import type { OperationCli, Rule, ServiceDefinition, WaiterSpec } from '../../types.js';
import { kebab } from '../../names.js';
import { operations, service, shapes } from './wire.js';
import { asObject, given, lowerCaseName } from '../../rules.js';

/** Given, and not an empty list. */
const set = (v: unknown): boolean => given(v) && !(Array.isArray(v) && v.length === 0);

// ---- example values ------------------------------------------------------

const ACCOUNT = '9d74eee4-1cad-45d7-b645-7ccf9edbb73d';
const ENV_CRN = `crn:cdp:environments:us-west-1:${ACCOUNT}:environment:4c8e3f2a-7b1d-4e6f-9a2c-5d0b8e1f3a7c`;
const REMOTE_ENV_CRN = `crn:cdp:environments:us-west-1:${ACCOUNT}:environment:0e5b7d21-93c4-4f8a-b6d2-1a7c9e3f5b80`;
const CREDENTIAL_CRN = `crn:cdp:environments:us-west-1:${ACCOUNT}:credential:6a1f0c3e-2d4b-4c7a-9e8f-3b5d7c9a1e2f`;
const GROUP_CRN = `crn:altus:iam:us-west-1:${ACCOUNT}:group:data-eng/2b7e4c1a-9f3d-4a6e-8c5b-7d1f0e3a9b64`;
const MACHINE_USER_CRN = `crn:altus:iam:us-west-1:${ACCOUNT}:machineUser:etl-bot/5f2c8a1e-4b7d-4e9a-a3c6-0d8b2f6e1c47`;
const REGISTRY_CRN = `crn:cdp:environments:us-west-1:${ACCOUNT}:customDockerRegistry:8e3a6c2f-1b5d-4f7e-9a0c-4d6b8e2f0a13`;
const OPERATION_ID = '3c9e5a1f-7d2b-4e8c-a6f0-1b4d7e9c2a58';
const SSH_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIEAHpXQkrJ5e6dICESCOP3PRuqTFVJP/bcx0vlgn7or ops@example.com';
const AZURE_SUB = '3f2a1b0c-5d6e-4f70-8a9b-c0d1e2f3a4b5';
const AZURE_TENANT = '7e6d5c4b-3a29-4180-9f8e-7d6c5b4a3928';
const AZURE_APP = 'c4d5e6f7-0819-4a2b-8c3d-4e5f60718293';
const AZURE_MI = (name: string): string =>
  `/subscriptions/${AZURE_SUB}/resourceGroups/ops-rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${name}`;

// ---- rules ---------------------------------------------------------------

const ENVIRONMENT_NAME: Rule = lowerCaseName('environmentName', 'environment');

/** The security access request: a CIDR or security groups, not both. */
const SECURITY_ACCESS: Rule = {
  kind: 'custom',
  field: 'securityAccess',
  check: (r) => {
    const s = asObject(r.securityAccess);
    if (!s || !set(s.cidr)) return undefined;
    const groups = ['securityGroupIdForKnox', 'defaultSecurityGroupId', 'securityGroupIDsForKnox', 'defaultSecurityGroupIDs'].filter((k) =>
      set(s[k]),
    );
    return groups.length > 0
      ? `securityAccess takes either cidr or security groups, not both (got cidr and ${groups.join(', ')})`
      : undefined;
  },
};

const AUTHENTICATION: Rule = {
  kind: 'custom',
  field: 'authentication',
  check: (r) => {
    const a = asObject(r.authentication);
    return a && set(a.publicKey) && set(a.publicKeyId) ? 'authentication takes either publicKey or publicKeyId, not both' : undefined;
  },
};

const COMPUTE_CLUSTER: Rule = {
  kind: 'custom',
  field: 'computeClusterConfiguration',
  check: (r) => {
    const c = asObject(r.computeClusterConfiguration);
    return c && c.privateCluster === true && set(c.kubeApiAuthorizedIpRanges)
      ? 'a private compute cluster takes no kubeApiAuthorizedIpRanges: give one or the other'
      : undefined;
  },
};

/** Log storage locations by cloud, as the service documents them. */
const logStorage = (format: RegExp, shape: string): Rule => ({
  kind: 'custom',
  field: 'logStorage',
  check: (r) => {
    const l = asObject(r.logStorage);
    for (const key of ['storageLocationBase', 'backupStorageLocationBase']) {
      const loc = l?.[key];
      if (typeof loc === 'string' && !format.test(loc)) return `logStorage ${key} must be ${shape}; got "${loc}"`;
    }
    return undefined;
  },
});
const AWS_LOGS = logStorage(/^s3a:\/\/[^/\s]+/, 's3a://<bucket>[/path]');
const AZURE_LOGS = logStorage(
  /^abfss?:\/\/[^@\s/]+@[^.\s/]+\.dfs\.core\.windows\.net(\/.*)?$/,
  'abfs://<filesystem>@<account>.dfs.core.windows.net',
);
const GCP_LOGS = logStorage(/^gs:\/\/[^/\s]+/, 'gs://<bucket>[/path]');

/** Secret-based Azure credentials need the subscription and tenant. */
const AZURE_SECRET_IDS: Rule = {
  kind: 'custom',
  field: 'appBased',
  check: (r) => {
    if (asObject(r.appBased)?.authenticationType !== 'SECRET') return undefined;
    const missing = ['subscriptionId', 'tenantId'].filter((k) => !set(r[k]));
    return missing.length ? `a SECRET credential needs ${missing.map((k) => `--${kebab(k)}`).join(' and ')}` : undefined;
  },
};

/**
 * Exactly one of two fields, where false, "" and [] count as not given:
 * `none` when neither is, `both` when both are.
 */
const oneGiven = (field: string, other: string, none: string, both: string): Rule => ({
  kind: 'custom',
  field,
  check: (r) => {
    const n = [set(r[field]), set(r[other])].filter(Boolean).length;
    return n === 0 ? none : n === 2 ? both : undefined;
  },
});

/** --set-empty-mappings is required without mappings and refused with them. */
const EMPTY_MAPPINGS = oneGiven(
  'setEmptyMappings',
  'mappings',
  'give --mappings, or --set-empty-mappings to confirm that every individual mapping is removed',
  '--set-empty-mappings cannot be combined with --mappings',
);

const PROXY_CHOICE = oneGiven(
  'proxyConfigName',
  'removeProxy',
  'say what to do: --proxy-config-name NAME sets a proxy, --remove-proxy removes it',
  'give --proxy-config-name or --remove-proxy, not both',
);

const SSH_KEY_CHOICE = oneGiven(
  'newPublicKey',
  'existingPublicKeyId',
  'give --new-public-key or --existing-public-key-id',
  'give --new-public-key or --existing-public-key-id, not both',
);

// ---- waiters -------------------------------------------------------------

const HOUR = 3600;

/** Environment status work: describeEnvironment until `success`. */
const envWait = (success: string[], failure: string[], extra: Partial<WaiterSpec> = {}): WaiterSpec => ({
  poll: 'describeEnvironment',
  input: { environmentName: 'request.environmentName' },
  state: 'environment.status',
  success,
  failure,
  reason: 'environment.statusReason',
  interval: 30,
  timeout: 2 * HOUR,
  ...extra,
});

const CREATE_WAIT = envWait(['AVAILABLE'], ['CREATE_FAILED']);

/** Work that answers an operation id: getOperation until FINISHED. `env` names the environment. */
const opWait = (env: string, timeout = 2 * HOUR, interval = 15): WaiterSpec => ({
  poll: 'getOperation',
  input: { environmentName: env, operationId: 'response.operationId' },
  state: 'operationStatus',
  success: ['FINISHED'],
  failure: ['FAILED', 'CANCELLED'],
  interval,
  timeout,
});

/** User sync and password operations: syncStatus until COMPLETED. */
const SYNC_WAIT: WaiterSpec = {
  poll: 'syncStatus',
  input: { operationId: 'response.operationId' },
  state: 'status',
  success: ['COMPLETED'],
  failure: ['FAILED', 'REJECTED', 'TIMEDOUT'],
  reason: 'error',
  interval: 5,
  timeout: HOUR,
};

// ---- shared help ---------------------------------------------------------

const ENV = 'Name or CRN of the environment (see `environments list`)';
const NEW_ENV = 'Name of the new environment: lower-case letters, digits and "-"';
const ENV_COLUMNS = {
  name: 'environmentName',
  status: 'status',
  cloud: 'cloudPlatform',
  region: 'region',
  credential: 'credentialName',
  created: 'created',
};
const CREDENTIAL_COLUMNS = { name: 'credentialName', cloud: 'cloudPlatform', created: 'created', description: 'description' };

/** Help shared by the public cloud creates. */
const IMAGE_HELP = 'FreeIPA image: catalog, id and/or os, e.g. os=redhat8';
const ENV_TYPE_HELP = 'PUBLIC_CLOUD (default) or HYBRID for an environment paired with an on-premises base cluster';

const CREATE_HELP = {
  environmentName: NEW_ENV,
  credentialName: 'Name of the credential the environment provisions with (see `environments credentials list`)',
  description: 'Free text shown with the environment',
  enableTunnel: 'Reach the cluster hosts through Cluster Connectivity Manager, without inbound ports',
  workloadAnalytics: 'Send job and query diagnostics of Data Hubs in this environment to Workload Manager',
  reportDeploymentLogs: 'Send extra deployment diagnostics to Cloudera; no longer used',
  proxyConfigName: 'Proxy configuration for outbound traffic (see `environments proxy-configs list`)',
  endpointAccessGatewayScheme: 'PUBLIC puts an endpoint gateway on the internet; PRIVATE (default) keeps traffic inside the network',
  endpointAccessGatewaySubnetIds: 'Subnets for the endpoint access gateway (public subnets for PUBLIC)',
  customDockerRegistry: 'Custom Docker registry for data services: crn=<registry CRN>',
};

const AWS_CREATE_HELP = {
  ...CREATE_HELP,
  image: IMAGE_HELP,
  region: 'AWS region, e.g. us-west-2',
  securityAccess:
    'Inbound access: cidr=<range>, or securityGroupIdForKnox and defaultSecurityGroupId (or their ...IDs list forms) of existing groups',
  authentication: 'SSH key for root access to cluster hosts: publicKeyId=<name of an EC2 key pair> or publicKey=<OpenSSH public key>',
  logStorage:
    'Where logs go: storageLocationBase (s3a://bucket/path), instanceProfile (ARN of the instance profile that writes there) and optionally backupStorageLocationBase',
  vpcId: 'ID of an existing VPC, e.g. vpc-0a1b2c3d4e5f67890',
  subnetIds: 'Subnets of the VPC to deploy into',
  createPrivateSubnets: 'Create private subnets in a network the control plane creates',
  createServiceEndpoints: 'Create VPC endpoints for S3 and other AWS services',
  s3GuardTableName: 'DynamoDB table for S3Guard; no longer used since S3 is consistent',
  freeIpa: 'FreeIPA shape: instanceCountByGroup, instanceType, multiAz, recipes, architecture (X86_64 or ARM64)',
  tags: 'Tags for the cloud resources: [{"key":"team","value":"sales"}]',
  encryptionKeyArn: 'ARN of a KMS customer managed key that encrypts the disks and storage',
};

const AZURE_CREATE_HELP = {
  ...CREATE_HELP,
  image: IMAGE_HELP,
  environmentType: ENV_TYPE_HELP,
  region: 'Azure region, e.g. westus2',
  publicKey: 'OpenSSH public key for root access to cluster hosts ("ssh-ed25519 AAAA..." or "ssh-rsa AAAA...")',
  securityAccess:
    'Inbound access: cidr=<range>, or securityGroupIdForKnox and defaultSecurityGroupId (network security group resource ids)',
  usePublicIp: 'Give the cluster hosts public IP addresses',
  logStorage:
    'Where logs go: storageLocationBase (abfs://<filesystem>@<account>.dfs.core.windows.net), managedIdentity (resource id of the identity that writes there)',
  existingNetworkParams:
    'The VNet: networkId, resourceGroupName, subnetIds, and optionally databasePrivateDnsZoneId and aksPrivateDnsZoneId',
  freeIpa: 'FreeIPA shape: instanceCountByGroup, instanceType, multiAz, recipes',
  enableComputeCluster: 'Create a Kubernetes compute cluster for data services with the environment',
  computeClusterConfiguration: 'Compute cluster: privateCluster, kubeApiAuthorizedIpRanges, outboundType (udr), workerNodeSubnets',
  tags: 'Tags for the cloud resources: [{"key":"team","value":"ops"}]',
  resourceGroupName: 'Existing resource group to put everything in; default: new resource groups per resource',
  createPrivateEndpoints: 'Reach the Postgres database through a private endpoint and private DNS zone instead of service endpoints',
  encryptionAtHost: 'Encrypt the virtual machines at the host',
  encryptionUserManagedIdentity: 'Resource id of the managed identity that reads the disk encryption key',
  encryptionKeyUrl: 'Key Vault key URL that encrypts the managed disks',
  encryptionKeyResourceGroupName: 'Resource group of the Key Vault holding the encryption key',
  enableOutboundLoadBalancer: 'Create outbound load balancers (default: none)',
  availabilityZones: 'Availability zones of the region to use, e.g. 1 2 3',
  flexibleServerSubnetIds: 'Subnets delegated to the Flexible Server database (names or resource ids)',
  dataServices: 'Data services settings: {"azure":{"sharedManagedIdentity":"<identity id>","aksPrivateDnsZoneId":"<zone id>"}}',
};

const GCP_CREATE_HELP = {
  ...CREATE_HELP,
  environmentType: ENV_TYPE_HELP,
  region: 'GCP region, e.g. us-west1',
  publicKey: 'OpenSSH public key for root access to cluster hosts ("ssh-ed25519 AAAA..." or "ssh-rsa AAAA...")',
  usePublicIp: 'Give the cluster hosts public IP addresses',
  existingNetworkParams: 'The VPC: networkName, subnetNames (from one region), and sharedProjectId for a shared VPC',
  securityAccess: 'Firewall rules: securityGroupIdForKnox (Knox hosts) and defaultSecurityGroupId (all other hosts)',
  logStorage: 'Where logs go: storageLocationBase (gs://bucket/path), serviceAccountEmail (service account that writes there)',
  freeIpa: 'FreeIPA shape: instanceCountByGroup, instanceType, multiAz, recipes',
  tags: 'Labels for the cloud resources: [{"key":"team","value":"ml"}] (GCP label rules apply)',
  encryptionKey: 'Resource id of the Cloud KMS key that encrypts the resources',
  availabilityZones: 'Zone of the region to use, e.g. us-west1-a',
};

const AZURE_APP_HELP = 'The app registration: authenticationType (SECRET or CERTIFICATE), applicationId, and secretKey for SECRET';

const cli: Record<string, OperationCli> = {
  // ---- environments ----------------------------------------------------
  createAWSEnvironment: {
    command: 'create aws',
    summary: 'Create an AWS environment with its network, log storage, SSH access and FreeIPA server.',
    examples: [
      '--environment-name sales-env --credential-name sales-aws-cred --region us-west-2 --security-access cidr=10.0.0.0/16 --authentication publicKeyId=sales-env-key --log-storage storageLocationBase=s3a://sales-cdp-logs/logs,instanceProfile=arn:aws:iam::123456789012:instance-profile/sales-log-access --vpc-id vpc-0a1b2c3d4e5f67890 --subnet-ids subnet-0a1b2c3d4e5f67890 subnet-0f9e8d7c6b5a43210 --wait',
      `--environment-name sales-env --credential-name sales-aws-cred --region us-west-2 --security-access securityGroupIdForKnox=sg-0a1b2c3d4e5f60718,defaultSecurityGroupId=sg-0f1e2d3c4b5a69788 --authentication '{"publicKey":"${SSH_KEY}"}' --log-storage storageLocationBase=s3a://sales-cdp-logs/logs,instanceProfile=arn:aws:iam::123456789012:instance-profile/sales-log-access --vpc-id vpc-0a1b2c3d4e5f67890 --subnet-ids subnet-0a1b2c3d4e5f67890 subnet-0f9e8d7c6b5a43210 --endpoint-access-gateway-scheme PUBLIC --free-ipa instanceCountByGroup=2,multiAz=true --tags '[{"key":"team","value":"sales"}]'`,
    ],
    fieldHelp: {
      ...AWS_CREATE_HELP,
      environmentType: ENV_TYPE_HELP,
      enableComputeCluster: 'Create a Kubernetes compute cluster for data services with the environment',
      computeClusterConfiguration: 'Compute cluster: privateCluster, kubeApiAuthorizedIpRanges, workerNodeSubnets',
    },
    rules: [ENVIRONMENT_NAME, SECURITY_ACCESS, AUTHENTICATION, AWS_LOGS, COMPUTE_CLUSTER],
    wait: CREATE_WAIT,
  },
  createAWSGovCloudEnvironment: {
    command: 'create aws-gov',
    summary: 'Create an AWS GovCloud environment with its network, log storage, SSH access and FreeIPA server.',
    examples: [
      '--environment-name gov-env --credential-name gov-aws-cred --region us-gov-west-1 --security-access cidr=10.1.0.0/16 --authentication publicKeyId=gov-env-key --log-storage storageLocationBase=s3a://gov-cdp-logs/logs,instanceProfile=arn:aws-us-gov:iam::123456789012:instance-profile/gov-log-access --vpc-id vpc-0b2c3d4e5f6a78901 --subnet-ids subnet-0b2c3d4e5f6a78901 subnet-0e9d8c7b6a5f43210 --wait',
    ],
    fieldHelp: {
      ...AWS_CREATE_HELP,
      region: 'AWS GovCloud region, e.g. us-gov-west-1',
      networkCidr: 'CIDR of a new VPC the control plane creates; no longer offered',
    },
    rules: [ENVIRONMENT_NAME, SECURITY_ACCESS, AUTHENTICATION, AWS_LOGS],
    wait: CREATE_WAIT,
  },
  createAzureEnvironment: {
    command: 'create azure',
    summary: 'Create an Azure environment in an existing VNet, with log storage, SSH access and FreeIPA.',
    examples: [
      `--environment-name ops-env --credential-name ops-azure-cred --region westus2 --public-key "${SSH_KEY}" --security-access cidr=10.10.0.0/16 --no-use-public-ip --log-storage storageLocationBase=abfs://logs@opsstore.dfs.core.windows.net,managedIdentity=${AZURE_MI('ops-logger')} --existing-network-params '{"networkId":"ops-vnet","resourceGroupName":"ops-rg","subnetIds":["ops-subnet-1","ops-subnet-2"]}' --wait`,
      `--environment-name ops-env --credential-name ops-azure-cred --region westus2 --public-key "${SSH_KEY}" --security-access cidr=10.10.0.0/16 --use-public-ip --log-storage storageLocationBase=abfs://logs@opsstore.dfs.core.windows.net,managedIdentity=${AZURE_MI('ops-logger')} --existing-network-params '{"networkId":"ops-vnet","resourceGroupName":"ops-rg","subnetIds":["ops-subnet-1","ops-subnet-2"]}' --resource-group-name ops-rg --availability-zones 1 2 3 --create-private-endpoints`,
    ],
    fieldHelp: AZURE_CREATE_HELP,
    rules: [ENVIRONMENT_NAME, SECURITY_ACCESS, AZURE_LOGS, COMPUTE_CLUSTER],
    wait: CREATE_WAIT,
  },
  createGCPEnvironment: {
    command: 'create gcp',
    summary: 'Create a GCP environment in an existing VPC, with log storage, SSH access and FreeIPA.',
    examples: [
      `--environment-name ml-env --credential-name ml-gcp-cred --region us-west1 --public-key "${SSH_KEY}" --no-use-public-ip --existing-network-params '{"networkName":"ml-vpc","subnetNames":["ml-subnet-1","ml-subnet-2"]}' --log-storage storageLocationBase=gs://ml-cdp-logs/logs,serviceAccountEmail=cdp-logger@ml-project.iam.gserviceaccount.com --wait`,
    ],
    fieldHelp: GCP_CREATE_HELP,
    rules: [ENVIRONMENT_NAME, GCP_LOGS],
    wait: CREATE_WAIT,
  },
  createPrivateEnvironment: {
    command: 'create private',
    summary: 'Register a private cloud environment backed by a Cloudera Manager base cluster.',
    examples: [
      "--environment-name onprem-env --address https://cm.corp.example.com:7183 --user admin --authentication-token 'S3cret-Passw0rd' --cluster-names base-cluster",
    ],
    fieldHelp: {
      environmentName: NEW_ENV,
      address: 'URL of the Cloudera Manager that manages the base cluster, e.g. https://cm.corp.example.com:7183',
      user: 'Cloudera Manager user name',
      authenticationToken: 'Password (or token) of that Cloudera Manager user',
      authenticationTokenType: 'How to read --authentication-token (default CLEARTEXT_PASSWORD)',
      clusterNames: 'Base cluster(s) that serve as the data lake',
      environmentQuota: 'Resource quota: cpuQuota (cores), memoryQuota (GB), gpuQuota (cores); default none',
      kubeConfig: 'Kubeconfig of the Kubernetes cluster paired with the environment',
      namespacePrefix: 'Prefix of the Kubernetes namespaces the platform creates',
      domain: 'Domain suffix for workload applications',
      platform: 'Kubernetes distribution of the paired cluster',
      dockerConfigJson: 'Docker config JSON with the image pull secrets',
      dockerUserPass: 'Registry sign-in instead of --docker-config-json: username, password, server, email',
      description: 'Free text shown with the environment',
      storageClass: 'Kubernetes storage class to use; default: the cluster default',
    },
    rules: [ENVIRONMENT_NAME],
    wait: CREATE_WAIT,
  },
  listEnvironments: {
    command: 'list',
    summary: 'List the environments of the account with their status, cloud and region.',
    examples: ['', '--output table'],
    listKey: 'environments',
    columns: ENV_COLUMNS,
  },
  describeEnvironment: {
    command: 'describe',
    summary: 'Show an environment: status, network, security, storage, FreeIPA and tags.',
    examples: ['--environment-name sales-env', `--environment-name ${ENV_CRN}`],
    fieldHelp: { environmentName: `${ENV}; a hybrid environment only by CRN` },
  },
  deleteEnvironment: {
    command: 'delete',
    summary: 'Delete an environment with its FreeIPA and network resources.',
    examples: ['--environment-name sales-env --yes --wait', '--environment-name sales-env --cascading --forced --yes'],
    fieldHelp: {
      cascading: 'Delete the data lake and Data Hubs of the environment too',
      forced: 'Remove the environment from the platform even when cleaning up cloud resources fails (they may keep running)',
    },
    destructive: true,
    wait: envWait(['ARCHIVED'], ['DELETE_FAILED'], { goneIsSuccess: true }),
  },
  startEnvironment: {
    command: 'start',
    summary: 'Start a stopped environment: FreeIPA, then the data lake, and optionally its Data Hubs.',
    examples: ['--environment-name sales-env --wait', '--environment-name sales-env --with-datahub-start --wait'],
    fieldHelp: { withDatahubStart: 'Start the Data Hubs of the environment as well' },
    wait: opWait('request.environmentName'),
  },
  stopEnvironment: {
    command: 'stop',
    summary: 'Stop an environment: its Data Hubs, data lake and FreeIPA, keeping their data.',
    examples: ['--environment-name sales-env --wait'],
    wait: opWait('request.environmentName'),
  },
  getOperation: {
    command: 'operations describe',
    summary: 'Show the latest operation on an environment, or one operation by id.',
    examples: ['--environment-name sales-env', `--environment-name sales-env --operation-id ${OPERATION_ID}`],
    fieldHelp: { operationId: 'Operation id a long-running command answered with; default: the latest operation' },
  },

  // environment settings
  changeEnvironmentCredential: {
    command: 'update credential',
    summary: 'Switch an environment to another credential of the same cloud.',
    examples: ['--environment-name sales-env --credential-name sales-aws-cred-2'],
    fieldHelp: { credentialName: 'Name of an existing credential (see `environments credentials list`)' },
  },
  updateSubnet: {
    command: 'update subnets',
    summary: 'Change the subnets new Data Hubs of an environment use.',
    description: 'Existing resources (data lake, FreeIPA, running Data Hubs) stay in their subnets.',
    examples: ['--environment sales-env --subnet-ids subnet-0a1b2c3d4e5f67890 subnet-0c4d5e6f7a8b90123'],
    fieldHelp: {
      subnetIds: 'Subnets of the environment network for new clusters',
      endpointAccessGatewaySubnetIds: 'Subnets for the endpoint access gateway',
    },
    rules: [
      {
        kind: 'anyOf',
        fields: ['subnetIds', 'endpointAccessGatewaySubnetIds'],
        message: 'nothing to update: give --subnet-ids or --endpoint-access-gateway-subnet-ids',
      },
    ],
  },
  updateSecurityAccess: {
    command: 'update security-access',
    summary: 'Change the security groups new Data Hubs of an environment use.',
    description: 'Existing resources (data lake, FreeIPA, running Data Hubs) keep their security groups.',
    examples: [
      '--environment sales-env --gateway-node-security-group-id sg-0a1b2c3d4e5f60718 --default-security-group-id sg-0f1e2d3c4b5a69788',
    ],
    fieldHelp: {
      gatewayNodeSecurityGroupId: 'Security group (or network security group) for the Knox gateway hosts',
      defaultSecurityGroupId: 'Security group for all other hosts',
    },
  },
  updateSshKey: {
    command: 'update ssh-key',
    summary: 'Change the SSH key new Data Hubs of an environment get.',
    description: 'Existing resources (data lake, FreeIPA, running Data Hubs) keep the key they were created with.',
    examples: [`--environment sales-env --new-public-key "${SSH_KEY}"`, '--environment sales-env --existing-public-key-id sales-env-key-2'],
    fieldHelp: {
      newPublicKey: 'OpenSSH public key ("ssh-ed25519 AAAA..." or "ssh-rsa AAAA...")',
      existingPublicKeyId: 'Name or id of a key already registered with the cloud provider (e.g. an EC2 key pair)',
    },
    rules: [SSH_KEY_CHOICE],
  },
  updateTags: {
    command: 'update tags',
    summary: 'Replace the user-defined tags new Data Hubs of an environment get.',
    description: 'Existing resources (data lake, FreeIPA, running Data Hubs) keep their tags.',
    examples: [`--environment sales-env --tags '{"team":"sales","cost-center":"cc-1234"}'`],
    fieldHelp: { tags: 'Tag names and values: {"team":"sales"} or team=sales,owner=ops' },
  },
  updateProxyConfig: {
    command: 'update proxy-config',
    summary: 'Point an environment at another proxy configuration, or remove its proxy.',
    examples: ['--environment sales-env --proxy-config-name corp-proxy', '--environment sales-env --remove-proxy'],
    fieldHelp: {
      proxyConfigName: 'Name of the proxy configuration to use (see `environments proxy-configs list`)',
      removeProxy: 'Remove the proxy from the environment',
    },
    rules: [PROXY_CHOICE],
  },
  setEndpointAccessGateway: {
    command: 'update endpoint-gateway',
    summary: 'Turn the public endpoint access gateway of an environment on or off and pick its subnets.',
    examples: [
      '--environment sales-env --endpoint-access-gateway-scheme PUBLIC --endpoint-access-gateway-subnet-ids subnet-0d1e2f3a4b5c60718 subnet-0e2f3a4b5c6d70819 --wait',
    ],
    fieldHelp: {
      endpointAccessGatewayScheme: 'PUBLIC puts the gateway on the internet; PRIVATE keeps traffic inside the network',
      endpointAccessGatewaySubnetIds: 'Subnets for the gateway (public subnets for PUBLIC)',
    },
    wait: opWait('request.environment'),
  },
  updateCustomDockerRegistry: {
    command: 'update docker-registry',
    summary: 'Change the custom Docker registry the data services of an environment pull from.',
    examples: [`--environment sales-env --custom-docker-registry ${REGISTRY_CRN}`],
    fieldHelp: { customDockerRegistry: 'CRN of the custom Docker registry' },
  },
  updateAzureAvailabilityZones: {
    command: 'update availability-zones',
    summary: 'Change the availability zones of an Azure environment.',
    examples: ['--environment ops-env --availability-zones 1 2 3'],
    fieldHelp: { availabilityZones: 'Zones of the region, e.g. 1 2 3' },
  },
  updateAzureDatabaseResources: {
    command: 'update database',
    summary: 'Change the private DNS zone and delegated subnets of the databases of an Azure environment.',
    examples: [
      `--environment ops-env --database-private-dns-zone-id /subscriptions/${AZURE_SUB}/resourceGroups/ops-rg/providers/Microsoft.Network/privateDnsZones/privatelink.postgres.database.azure.com --flexible-server-subnet-ids ops-db-subnet`,
    ],
    fieldHelp: {
      databasePrivateDnsZoneId: 'Resource id of the private DNS zone of the Flexible Server databases',
      flexibleServerSubnetIds: 'Subnets delegated to Flexible Server (names or resource ids)',
    },
    rules: [
      {
        kind: 'anyOf',
        fields: ['databasePrivateDnsZoneId', 'flexibleServerSubnetIds'],
        message: 'nothing to update: give --database-private-dns-zone-id or --flexible-server-subnet-ids',
      },
    ],
  },
  updateAwsDiskEncryptionParameters: {
    command: 'update encryption aws',
    summary: 'Set the KMS key that encrypts the disks of an AWS environment.',
    examples: ['--environment sales-env --encryption-key-arn arn:aws:kms:us-west-2:123456789012:key/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'],
    fieldHelp: { encryptionKeyArn: 'ARN of the KMS customer managed key for the EBS volumes' },
  },
  updateAzureEncryptionResources: {
    command: 'update encryption azure',
    summary: 'Set the Key Vault key that encrypts the managed disks of an Azure environment.',
    examples: [
      `--environment ops-env --encryption-key-url https://ops-vault.vault.azure.net/keys/disk-key/0a1b2c3d4e5f46789a0b1c2d3e4f5a6b --encryption-key-resource-group-name ops-rg --encryption-user-managed-identity ${AZURE_MI('disk-encryptor')}`,
    ],
    fieldHelp: {
      encryptionKeyUrl: 'Key Vault key URL',
      encryptionKeyResourceGroupName: 'Resource group of the Key Vault',
      encryptionUserManagedIdentity: 'Resource id of the managed identity that reads the key',
    },
  },
  upgradeCcm: {
    command: 'ccm upgrade',
    summary: 'Upgrade Cluster Connectivity Manager of an environment to the newest version.',
    examples: ['--environment sales-env --wait'],
    wait: opWait('request.environment'),
  },
  initializeAWSComputeCluster: {
    command: 'compute-cluster initialize aws',
    summary: 'Create the Kubernetes compute cluster of an AWS environment for data services.',
    examples: [
      `--environment-name sales-env --compute-cluster-configuration '{"privateCluster":true,"workerNodeSubnets":["subnet-0a1b2c3d4e5f67890","subnet-0f9e8d7c6b5a43210"]}' --wait`,
    ],
    fieldHelp: {
      computeClusterConfiguration: 'privateCluster, kubeApiAuthorizedIpRanges (CIDRs; not with privateCluster), workerNodeSubnets',
    },
    rules: [COMPUTE_CLUSTER],
    wait: opWait('request.environmentName'),
  },
  initializeAzureComputeCluster: {
    command: 'compute-cluster initialize azure',
    summary: 'Create the Kubernetes compute cluster of an Azure environment for data services.',
    examples: ['--environment-name ops-env --compute-cluster-configuration privateCluster=true,outboundType=udr --wait'],
    fieldHelp: {
      computeClusterConfiguration:
        'privateCluster, kubeApiAuthorizedIpRanges (CIDRs; not with privateCluster), outboundType (udr), workerNodeSubnets',
    },
    rules: [COMPUTE_CLUSTER],
    wait: opWait('request.environmentName'),
  },
  listConnectedDataServices: {
    command: 'data-services list',
    summary: 'List the data services and their clusters that run in an environment.',
    examples: ['--environment sales-env'],
    listKey: 'result',
    columns: { service: 'name', clusters: 'clusters' },
  },
  updateDataServiceResources: {
    command: 'data-services update',
    summary: 'Change the Azure managed identity and AKS private DNS zone data services of an environment use.',
    examples: [`--environment ops-env --data-services '{"azure":{"sharedManagedIdentity":"${AZURE_MI('aks-control-plane')}"}}'`],
    fieldHelp: { dataServices: '{"azure":{"sharedManagedIdentity":"<identity id>","aksPrivateDnsZoneId":"<zone id>"}}' },
  },
  validateAwsCloudStorage: {
    command: 'storage validate-aws',
    summary: 'Check that an instance profile can write logs to an S3 location with a credential.',
    examples: [
      `--credential-crn ${CREDENTIAL_CRN} --storage-location s3a://sales-cdp-logs/logs --instance-profile arn:aws:iam::123456789012:instance-profile/sales-log-access`,
    ],
    fieldHelp: {
      credentialCrn: 'CRN of the credential (see `environments credentials list`)',
      storageLocation: 'S3 location for logs, s3a://bucket/path',
      instanceProfile: 'ARN of the instance profile that writes there',
    },
  },
  validateAzureCloudStorage: {
    command: 'storage validate-azure',
    summary: 'Check that a managed identity can write logs to an ADLS location with a credential.',
    examples: [
      `--credential-crn ${CREDENTIAL_CRN} --storage-location abfs://logs@opsstore.dfs.core.windows.net --managed-identity ${AZURE_MI('ops-logger')}`,
    ],
    fieldHelp: {
      credentialCrn: 'CRN of the credential (see `environments credentials list`)',
      storageLocation: 'ADLS location for logs, abfs://<filesystem>@<account>.dfs.core.windows.net',
      managedIdentity: 'Resource id of the managed identity that writes there',
      accountKey: 'Storage account key, instead of a managed identity',
      accountName: 'Storage account name, with --account-key',
      secure: 'Use the secure (abfss) protocol',
    },
  },
  getKeytab: {
    command: 'keytabs get',
    summary: 'Get the Kerberos keytab of a user or machine user in an environment (base64).',
    examples: ['--environment-name sales-env', `--environment-name sales-env --actor-crn ${MACHINE_USER_CRN}`],
    fieldHelp: { actorCrn: 'CRN of the user or machine user; default: the caller' },
  },
  getRootCertificate: {
    command: 'root-certificate get',
    summary: 'Get the PEM root certificate of the certificate authority of an environment.',
    examples: ['--environment-name sales-env'],
  },
  checkEnvironmentConnectivity: {
    command: 'connectivity check-manager',
    summary: 'Check that the control plane can reach a Cloudera Manager before creating a private environment.',
    examples: [
      "--address https://cm.corp.example.com:7183 --user admin --authentication-token 'S3cret-Passw0rd' --cluster-names base-cluster",
    ],
    fieldHelp: {
      address: 'URL of the Cloudera Manager, e.g. https://cm.corp.example.com:7183',
      user: 'Cloudera Manager user name',
      authenticationToken: 'Password (or token) of that user',
      authenticationTokenType: 'How to read --authentication-token (default CLEARTEXT_PASSWORD)',
      clusterNames: 'Base cluster(s) to check',
    },
  },
  checkDatabaseConnectivity: {
    command: 'connectivity check-database',
    summary: 'Check that a database accepts a connection with the given host, port and account.',
    examples: ["--host db.corp.example.com --port 5432 --name cdp --username cdp_admin --password 'S3cret-Passw0rd'"],
    fieldHelp: {
      host: 'Database host name or IP address',
      port: 'Database port, e.g. 5432',
      name: 'Database name',
      username: 'Database user',
      password: 'Password of that user',
    },
  },
  checkKubernetesConnectivity: {
    command: 'connectivity check-kubernetes',
    summary: 'Check that a Kubernetes cluster answers with the given kubeconfig.',
    examples: ['--kube-config file://kubeconfig.yaml'],
    fieldHelp: {
      kubeConfig: 'Contents of the kubeconfig file (use file://path)',
      format: 'Format of the kubeconfig (default YAML)',
    },
  },
  setTelemetryFeatures: {
    command: 'telemetry update',
    summary: 'Turn workload analytics on or off for one environment.',
    examples: ['--environment-name sales-env --workload-analytics', '--environment-name sales-env --no-workload-analytics'],
    fieldHelp: {
      workloadAnalytics: 'Send job and query diagnostics of this environment to Workload Manager',
      reportDeploymentLogs: 'Collect deployment logs; no longer used',
    },
    rules: [
      {
        kind: 'anyOf',
        fields: ['workloadAnalytics', 'reportDeploymentLogs'],
        message: 'nothing to update: give --workload-analytics or --no-workload-analytics',
      },
    ],
  },
  getEnvironmentSetting: {
    command: 'settings get',
    summary: 'Read configuration settings of a private cloud environment, or system-wide ones.',
    examples: ['--attrs backup.enabled', '--environment-name onprem-env --attrs backup.enabled backup.location'],
    fieldHelp: {
      attrs: 'Setting names to read; unknown names are skipped',
      environmentName: `${ENV}; default: the system-wide settings`,
    },
  },
  setEnvironmentSetting: {
    command: 'settings set',
    summary: 'Write configuration settings of a private cloud environment, or system-wide ones.',
    examples: [
      `--settings '{"backup.enabled":"true"}'`,
      `--environment-name onprem-env --settings '{"backup.location":"s3a://onprem-backups/cdp"}'`,
    ],
    fieldHelp: {
      settings: 'Setting names and values: {"name":"value"}',
      environmentName: `${ENV}; default: the system-wide settings`,
    },
  },

  // ---- credentials -----------------------------------------------------
  createAWSCredential: {
    command: 'credentials create aws',
    summary: 'Create an AWS credential from a cross-account role the control plane assumes.',
    examples: [
      '--credential-name sales-aws-cred --role-arn arn:aws:iam::123456789012:role/cdp-cross-account --description "Sales AWS account"',
    ],
    fieldHelp: {
      credentialName: 'Name of the new credential',
      roleArn: 'ARN of the cross-account IAM role the control plane assumes (see `environments credentials prerequisites`)',
    },
  },
  createAWSGovCloudCredential: {
    command: 'credentials create aws-gov',
    summary: 'Create an AWS GovCloud credential from a cross-account role the control plane assumes.',
    examples: ['--credential-name gov-aws-cred --role-arn arn:aws-us-gov:iam::123456789012:role/cdp-cross-account'],
    fieldHelp: {
      credentialName: 'Name of the new credential',
      roleArn: 'ARN of the cross-account IAM role the control plane assumes (see `environments credentials prerequisites aws-gov`)',
    },
  },
  createAzureCredential: {
    command: 'credentials create azure',
    summary: 'Create an Azure credential from an app registration, with a client secret or a certificate.',
    examples: [
      `--credential-name ops-azure-cred --subscription-id ${AZURE_SUB} --tenant-id ${AZURE_TENANT} --app-based '{"authenticationType":"SECRET","applicationId":"${AZURE_APP}","secretKey":"app-secret-value"}'`,
      `--credential-name ops-azure-cert --app-based authenticationType=CERTIFICATE,applicationId=${AZURE_APP}`,
    ],
    fieldHelp: {
      credentialName: 'Name of the new credential',
      appBased: AZURE_APP_HELP,
      subscriptionId: 'Azure subscription id; needed for SECRET credentials',
      tenantId: 'Azure AD tenant id of the subscription; needed for SECRET credentials',
    },
    rules: [AZURE_SECRET_IDS],
  },
  createGCPCredential: {
    command: 'credentials create gcp',
    summary: 'Create a GCP credential from the JSON key of a service account.',
    examples: ['--credential-name ml-gcp-cred --credential-key file://ml-project-key.json'],
    fieldHelp: {
      credentialName: 'Name of the new credential',
      credentialKey: 'JSON key of the service account; give it as file://path to keep it out of shell history',
    },
  },
  updateAwsCredential: {
    command: 'credentials update aws',
    summary: 'Point an AWS credential at another cross-account role or change its description.',
    examples: ['--credential-name sales-aws-cred --role-arn arn:aws:iam::123456789012:role/cdp-cross-account-v2 --verify-permissions'],
    fieldHelp: {
      credentialName: 'Name of the credential (see `environments credentials list`)',
      roleArn: 'ARN of the cross-account IAM role the control plane assumes',
      skipOrgPolicyDecisions: 'Skip the organization policy checks',
      verifyPermissions: 'Check the role permissions before saving',
    },
  },
  updateAzureCredential: {
    command: 'credentials update azure',
    summary: 'Change the subscription, tenant or app registration of an Azure credential.',
    examples: [
      `--credential-name ops-azure-cred --subscription-id ${AZURE_SUB} --tenant-id ${AZURE_TENANT} --app-based authenticationType=CERTIFICATE,applicationId=${AZURE_APP}`,
    ],
    fieldHelp: {
      credentialName: 'Name of the credential (see `environments credentials list`)',
      subscriptionId: 'Azure subscription id',
      tenantId: 'Azure AD tenant id of the subscription',
      appBased: 'The app registration: authenticationType (SECRET or CERTIFICATE) and applicationId',
    },
  },
  listCredentials: {
    command: 'credentials list',
    summary: 'List the cloud credentials of the account.',
    examples: ['', '--credential-name sales-aws-cred --output table'],
    fieldHelp: { credentialName: 'Show only the credential with this name' },
    listKey: 'credentials',
    columns: CREDENTIAL_COLUMNS,
  },
  deleteCredential: {
    command: 'credentials delete',
    summary: 'Delete a credential that no environment uses.',
    examples: ['--credential-name sales-aws-cred --yes'],
    fieldHelp: { credentialName: 'Name or CRN of the credential (see `environments credentials list`)' },
    destructive: true,
  },
  getCredentialPrerequisites: {
    command: 'credentials prerequisites',
    summary: 'Show what to set up in a cloud account before creating a credential: external id, policies, commands.',
    examples: ['--cloud-platform AWS', '--cloud-platform AZURE'],
    fieldHelp: { cloudPlatform: 'Cloud the credential is for' },
  },
  getGovCloudCredentialPrerequisites: {
    command: 'credentials prerequisites aws-gov',
    summary: 'Show what to set up in an AWS GovCloud account before creating a credential.',
    examples: ['--cloud-platform AWS'],
    fieldHelp: { cloudPlatform: 'Cloud the credential is for; AWS is the only one' },
  },

  // ---- audit credentials -------------------------------------------------
  setAWSAuditCredential: {
    command: 'audit-credentials set aws',
    summary: 'Create or replace the AWS credential that archives the audit events of the account.',
    examples: ['--role-arn arn:aws:iam::123456789012:role/cdp-audit-archiver'],
    fieldHelp: { roleArn: 'ARN of the IAM role the control plane assumes to write audit archives' },
  },
  setAWSGovCloudAuditCredential: {
    command: 'audit-credentials set aws-gov',
    summary: 'Create or replace the AWS GovCloud credential that archives the audit events of the account.',
    examples: ['--role-arn arn:aws-us-gov:iam::123456789012:role/cdp-audit-archiver'],
    fieldHelp: { roleArn: 'ARN of the IAM role the control plane assumes to write audit archives' },
  },
  setAzureAuditCredential: {
    command: 'audit-credentials set azure',
    summary: 'Create or replace the Azure credential that archives the audit events of the account.',
    examples: [
      `--subscription-id ${AZURE_SUB} --tenant-id ${AZURE_TENANT} --app-based applicationId=${AZURE_APP},secretKey=app-secret-value`,
    ],
    fieldHelp: {
      subscriptionId: 'Azure subscription id',
      tenantId: 'Azure AD tenant id of the subscription',
      appBased: 'The app registration: applicationId and secretKey (its client secret)',
    },
  },
  setGCPAuditCredential: {
    command: 'audit-credentials set gcp',
    summary: 'Create or replace the GCP credential that archives the audit events of the account.',
    examples: ['--credential-key file://audit-archiver-key.json'],
    fieldHelp: { credentialKey: 'JSON key of the service account; give it as file://path to keep it out of shell history' },
  },
  listAuditCredentials: {
    command: 'audit-credentials list',
    summary: 'List the audit archiving credentials of the account.',
    examples: ['', '--output table'],
    listKey: 'credentials',
    columns: { ...CREDENTIAL_COLUMNS, crn: 'crn' },
  },
  deleteAuditCredential: {
    command: 'audit-credentials delete',
    summary: 'Delete an audit archiving credential.',
    examples: [`--credential-name ${CREDENTIAL_CRN} --yes`],
    fieldHelp: { credentialName: 'Name or CRN of the audit credential (see `environments audit-credentials list`)' },
    destructive: true,
  },
  getAuditCredentialPrerequisites: {
    command: 'audit-credentials prerequisites',
    summary: 'Show what to set up in a cloud account before setting an audit credential.',
    examples: ['--cloud-platform AWS'],
    fieldHelp: { cloudPlatform: 'Cloud the audit credential is for' },
  },
  getGovCloudAuditCredentialPrerequisites: {
    command: 'audit-credentials prerequisites aws-gov',
    summary: 'Show what to set up in an AWS GovCloud account before setting an audit credential.',
    examples: ['--cloud-platform AWS'],
    fieldHelp: { cloudPlatform: 'Cloud the audit credential is for; AWS is the only one' },
  },

  // ---- proxy configurations ------------------------------------------------
  createProxyConfig: {
    command: 'proxy-configs create',
    summary: 'Create a proxy configuration that environments send outbound traffic through.',
    examples: [
      '--proxy-config-name corp-proxy --protocol http --host proxy.corp.example.com --port 3128',
      "--proxy-config-name corp-proxy --protocol https --host proxy.corp.example.com --port 3129 --user cdp-proxy --password 'S3cret-Passw0rd' --no-proxy-hosts .corp.example.com,10.0.0.0/8",
    ],
    fieldHelp: {
      proxyConfigName: 'Name of the new proxy configuration',
      protocol: 'http or https',
      host: 'Proxy host name or IP address',
      port: 'Proxy port, e.g. 3128',
      description: 'Free text shown with the proxy configuration',
      noProxyHosts: 'Comma-separated CIDRs, [.]host[:port] and IP[:port] entries to reach directly, e.g. .corp.example.com,10.0.0.0/8',
      user: 'Proxy user name',
      password: 'Proxy password',
    },
  },
  listProxyConfigs: {
    command: 'proxy-configs list',
    summary: 'List the proxy configurations of the account.',
    examples: ['', '--proxy-config-name corp-proxy --output table'],
    fieldHelp: { proxyConfigName: 'Show only the proxy configuration with this name' },
    listKey: 'proxyConfigs',
    columns: { name: 'proxyConfigName', protocol: 'protocol', host: 'host', port: 'port', description: 'description' },
  },
  deleteProxyConfig: {
    command: 'proxy-configs delete',
    summary: 'Delete a proxy configuration.',
    examples: ['--proxy-config-name corp-proxy --yes'],
    fieldHelp: { proxyConfigName: 'Name or CRN of the proxy configuration (see `environments proxy-configs list`)' },
    destructive: true,
  },

  // ---- FreeIPA -------------------------------------------------------------
  getFreeipaStatus: {
    command: 'freeipa status',
    summary: 'Show the health of the FreeIPA servers of an environment, node by node.',
    examples: ['--environment-name sales-env'],
  },
  repairFreeipa: {
    command: 'freeipa repair',
    summary: 'Repair failed FreeIPA nodes of an environment by rebooting or rebuilding them.',
    examples: [
      '--environment-name sales-env --wait',
      '--environment-name sales-env --instances i-0a1b2c3d4e5f67890 --repair-type REBUILD --wait',
    ],
    fieldHelp: {
      force: 'Repair even when the nodes look healthy',
      instances: 'Instance ids to repair; default: every failed instance',
      repairType: 'AUTO (reboot for now), REBOOT, or REBUILD (replace the instances)',
    },
    wait: {
      poll: 'getRepairFreeipaStatus',
      input: { operationId: 'response.operationId' },
      state: 'status',
      success: ['COMPLETED'],
      failure: ['FAILED', 'REJECTED', 'TIMEDOUT'],
      reason: 'error',
      interval: 15,
      timeout: 2 * HOUR,
    },
  },
  getRepairFreeipaStatus: {
    command: 'freeipa repair-status',
    summary: 'Show the progress of a FreeIPA repair.',
    examples: [`--operation-id ${OPERATION_ID}`],
    fieldHelp: { operationId: 'Operation id `freeipa repair` answered with' },
  },
  retryFreeipa: {
    command: 'freeipa retry',
    summary: 'Run the last failed FreeIPA operation of an environment again.',
    examples: ['--environment sales-env --wait'],
    wait: opWait('request.environment'),
  },
  upgradeFreeipa: {
    command: 'freeipa upgrade',
    summary: 'Upgrade the FreeIPA servers of an environment to the newest or a chosen image.',
    examples: [
      '--environment-name sales-env --wait',
      '--environment-name sales-env --image-id 5b8c1e3a-7f2d-4a9e-b6c0-2d4f8a1e3c57 --allow-major-os-upgrade',
    ],
    fieldHelp: {
      imageId: 'Image to upgrade to (see `environments freeipa upgrade-options`); default: the newest',
      allowMajorOsUpgrade: 'Allow moving to the next major OS version',
    },
    wait: opWait('request.environmentName', 3 * HOUR, 30),
  },
  getFreeipaUpgradeOptions: {
    command: 'freeipa upgrade-options',
    summary: 'List the images the FreeIPA servers of an environment can upgrade to.',
    examples: ['--environment sales-env', '--environment sales-env --allow-major-os-upgrade --output table'],
    fieldHelp: {
      catalog: 'URL of the image catalog to look in; default: the catalog of the current image',
      allowMajorOsUpgrade: 'Include images of the next major OS version',
    },
    listKey: 'images',
    columns: { id: 'id', name: 'imageName', os: 'os', date: 'date', catalog: 'catalogName' },
  },
  upscaleFreeipa: {
    command: 'freeipa scale up',
    summary: 'Add FreeIPA servers to an environment to reach two nodes or high availability.',
    examples: ['--environment-name sales-env --target-availability-type HA --wait'],
    fieldHelp: { targetAvailabilityType: 'TWO_NODE_BASED (two servers) or HA (three)' },
    wait: opWait('request.environmentName'),
  },
  downscaleFreeipa: {
    command: 'freeipa scale down',
    summary: 'Remove FreeIPA servers from an environment, to two nodes or chosen instances.',
    examples: [
      '--environment-name sales-env --target-availability-type TWO_NODE_BASED --wait',
      '--environment-name sales-env --instances i-0a1b2c3d4e5f67890',
    ],
    fieldHelp: {
      targetAvailabilityType: 'TWO_NODE_BASED (two servers) or HA (three)',
      instances: 'Instance ids to remove',
      force: 'Scale down whatever the state of the nodes, skipping some checks',
    },
    wait: opWait('request.environmentName'),
  },
  startFreeIpaVerticalScaling: {
    command: 'freeipa scale vertical',
    summary: 'Move the FreeIPA servers of an environment to another instance type or disk layout.',
    examples: ['--environment sales-env --instance-template instanceType=m5.2xlarge --wait'],
    fieldHelp: {
      instanceTemplate:
        'The new shape: instanceType, attachedVolumes ([{"count":1,"size":100,"volumeType":"gp3"}], size in GB), awsProperties (spotPercentage, spotMaxPrice)',
    },
    wait: opWait('request.environment'),
  },
  attachFreeIpaRecipes: {
    command: 'freeipa recipes attach',
    summary: 'Attach recipes to the FreeIPA servers of an environment.',
    examples: ['--environment sales-env --recipes install-monitoring-agent harden-sshd'],
    fieldHelp: { recipes: 'Names of the recipes to attach' },
  },
  detachFreeIpaRecipes: {
    command: 'freeipa recipes detach',
    summary: 'Detach recipes from the FreeIPA servers of an environment.',
    examples: ['--environment sales-env --recipes harden-sshd'],
    fieldHelp: { recipes: 'Names of the recipes to detach' },
  },
  collectFreeipaDiagnostics: {
    command: 'freeipa diagnostics collect',
    summary: 'Collect logs of the FreeIPA servers of an environment for support or into cloud storage.',
    examples: [
      '--environment-name sales-env --destination SUPPORT --description "Users cannot sign in" --case-number 01234567 --wait',
      '--environment-name sales-env --destination CLOUD_STORAGE --description "Weekly log snapshot" --start-date 2026-11-01T00:00:00Z --labels freeipa sssd',
    ],
    fieldHelp: {
      destination: 'SUPPORT (a support case), CLOUD_STORAGE (the log location of the environment), ENG, or LOCAL (kept on the nodes)',
      description: 'Title of the collection',
      caseNumber: 'Support case number, for SUPPORT',
      labels: 'Log labels to collect (see `environments freeipa diagnostics log-descriptors`); default: all',
      startDate: 'Collect only files changed after this time (ISO 8601)',
      endDate: 'Collect only files created before this time (ISO 8601)',
      additionalLogs: 'Extra logs: [{"path":"/var/log/custom/*.log","label":"custom"}]',
      hosts: 'Collect only from these hosts (FQDNs)',
      hostGroups: 'Collect only from these host groups',
      excludeHosts: 'Hosts to leave out (FQDNs or IP addresses)',
      skipUnresponsiveHosts: 'Leave out hosts that do not answer',
      includeNginxReport: 'Add the GoAccess report of nginx, when there is one',
      includeSaltLogs: 'Add the Salt minion, master and API logs',
      includeSarOutput: 'Add the system activity reports (sar), when there are some',
      updatePackage: 'Install or upgrade the telemetry package on the nodes first (needs network access)',
      storageValidation: 'Check from each node that the cloud storage is writable',
    },
    wait: opWait('request.environmentName', HOUR),
  },
  listFreeipaDiagnostics: {
    command: 'freeipa diagnostics list',
    summary: 'List recent FreeIPA log collections of an environment with their progress.',
    examples: ['--environment-name sales-env', '--environment-name sales-env --output table'],
    listKey: 'collections',
    columns: {
      status: 'status',
      progress: 'progressPercentage',
      destination: 'collectionDetails.destination',
      description: 'collectionDetails.description',
      created: 'created',
      flowId: 'flowId',
    },
  },
  cancelFreeipaDiagnostics: {
    command: 'freeipa diagnostics cancel',
    summary: 'Cancel the running FreeIPA log collections of an environment.',
    examples: ['--environment-name sales-env'],
  },
  getFreeipaLogDescriptors: {
    command: 'freeipa diagnostics log-descriptors',
    summary: 'List the FreeIPA logs a collection can gather, with their labels and paths.',
    examples: ['', '--output table'],
    listKey: 'logs',
    columns: { label: 'label', path: 'path' },
  },
  rotateFreeipaSecrets: {
    command: 'freeipa secrets rotate',
    summary: 'Rotate secrets of the FreeIPA servers of an environment.',
    examples: [`--environment ${ENV_CRN} --secret-types FREEIPA_ADMIN_PASSWORD SALT_PASSWORD --wait`],
    fieldHelp: {
      environment: 'CRN of the environment (see `environments list`)',
      secretTypes: 'Secrets to rotate (see `environments freeipa secrets list-types`)',
    },
    wait: opWait('request.environment', HOUR),
  },
  listFreeipaSecretTypes: {
    command: 'freeipa secrets list-types',
    summary: 'List the FreeIPA secrets that can be rotated.',
    examples: [`--environment ${ENV_CRN}`],
    fieldHelp: { environment: 'CRN of the environment (see `environments list`)' },
    listKey: 'freeipaSecretTypes',
    columns: { type: 'secretType', description: 'description' },
  },
  rotateSaltPassword: {
    command: 'freeipa secrets rotate-salt-password',
    summary: 'Rotate the SaltStack user password on the FreeIPA servers of an environment.',
    examples: ['--environment sales-env --wait'],
    replacement: 'freeipa secrets rotate --secret-types SALT_PASSWORD',
    wait: opWait('request.environment', HOUR),
  },
  setCatalog: {
    command: 'freeipa catalog set',
    summary: 'Set the image catalog the FreeIPA servers of an environment take images from.',
    examples: ['--environment sales-env --catalog https://images.example.com/freeipa-image-catalog.json'],
    fieldHelp: { catalog: 'URL of the FreeIPA image catalog' },
  },
  updateFreeipaToAwsImdsV1: {
    command: 'freeipa imds update-v1',
    summary: 'Let the FreeIPA instances of an AWS environment use instance metadata service v1 again.',
    examples: [`--environment-crn ${ENV_CRN} --wait`],
    fieldHelp: { environmentCrn: 'CRN of the environment (see `environments list`)' },
    wait: opWait('request.environmentCrn', HOUR),
  },
  updateFreeipaToAwsImdsV2: {
    command: 'freeipa imds update-v2',
    summary: 'Require instance metadata service v2 on the FreeIPA instances of an AWS environment.',
    examples: [`--environment-crn ${ENV_CRN} --wait`],
    fieldHelp: { environmentCrn: 'CRN of the environment (see `environments list`)' },
    wait: opWait('request.environmentCrn', HOUR),
  },
  updateOrchestratorState: {
    command: 'freeipa orchestrator update-state',
    summary: 'Re-apply the Salt orchestrator state on the FreeIPA servers of an environment.',
    examples: ['--environment sales-env --wait'],
    wait: opWait('request.environment', HOUR),
  },

  // ---- ID Broker mappings --------------------------------------------------
  getIdBrokerMappings: {
    command: 'id-broker-mappings describe',
    summary: 'Show which cloud roles the users, groups and data services of an environment map to.',
    examples: ['--environment-name sales-env'],
  },
  setIdBrokerMappings: {
    command: 'id-broker-mappings set',
    summary: 'Replace all ID Broker mappings of an environment: data access, audit and per user or group roles.',
    examples: [
      `--environment-name sales-env --data-access-role arn:aws:iam::123456789012:role/sales-datalake-admin --ranger-audit-role arn:aws:iam::123456789012:role/sales-ranger-audit --mappings '[{"accessorCrn":"${GROUP_CRN}","role":"arn:aws:iam::123456789012:role/data-eng"}]'`,
      '--environment-name sales-env --data-access-role arn:aws:iam::123456789012:role/sales-datalake-admin --ranger-audit-role arn:aws:iam::123456789012:role/sales-ranger-audit --set-empty-mappings',
    ],
    fieldHelp: {
      dataAccessRole: 'Cloud role the data access services map to (an IAM role ARN on AWS, a managed identity resource id on Azure)',
      rangerAuditRole: 'Cloud role for services that write Ranger audits',
      rangerCloudAccessAuthorizerRole: 'Cloud role of the Ranger RAZ service; needed when RAZ is on',
      baselineRole: 'Older name of --ranger-audit-role',
      mappings: 'Roles for users and groups: [{"accessorCrn":"<user or group CRN>","role":"<role>"}]; replaces every existing one',
      setEmptyMappings: 'Confirm that no individual mappings remain; needed when --mappings is not given',
    },
    rules: [EMPTY_MAPPINGS],
  },
  syncIdBrokerMappings: {
    command: 'id-broker-mappings sync',
    summary: 'Push the ID Broker mappings of an environment to its data lake.',
    examples: ['--environment-name sales-env --wait'],
    wait: {
      poll: 'getIdBrokerMappingsSyncStatus',
      input: { environmentName: 'request.environmentName' },
      state: 'globalStatus',
      success: ['COMPLETED'],
      failure: ['FAILED', 'REJECTED', 'TIMEDOUT'],
      reason: 'values(statuses)[].errorDetail',
      interval: 5,
      timeout: HOUR,
    },
  },
  getIdBrokerMappingsSyncStatus: {
    command: 'id-broker-mappings sync-status',
    summary: 'Show the state of the last ID Broker mappings sync of an environment.',
    examples: ['--environment-name sales-env'],
  },

  // ---- user sync -----------------------------------------------------------
  syncAllUsers: {
    command: 'users sync',
    summary: 'Sync the users and groups of the account into the FreeIPA of environments.',
    examples: ['--wait', '--environment-names sales-env ops-env --wait'],
    fieldHelp: { environmentNames: 'Names or CRNs of the environments to sync; default: all' },
    wait: SYNC_WAIT,
  },
  syncUser: {
    command: 'users sync-self',
    summary: 'Sync the calling user into the FreeIPA of every environment.',
    examples: ['--wait'],
    wait: SYNC_WAIT,
  },
  syncStatus: {
    command: 'users sync-status',
    summary: 'Show the progress of a user sync or password operation.',
    examples: [`--operation-id ${OPERATION_ID}`],
    fieldHelp: { operationId: 'Operation id `users sync` (or `users sync-self`) answered with' },
  },
  lastSyncStatus: {
    command: 'users last-sync',
    summary: 'Show the last user sync of an environment.',
    examples: ['--environment sales-env'],
    fieldHelp: { envNameOrCrn: 'Older name of --environment' },
  },
  getEnvironmentUserSyncState: {
    command: 'users sync-state',
    summary: 'Show whether the users of an environment are up to date, stale, syncing or failed to sync.',
    examples: ['--environment-name sales-env'],
  },
  getAutomatedSyncEnvironmentStatus: {
    command: 'users automated-sync-status',
    summary: 'Show the automatic user sync of an environment: pending or synced, and its last result.',
    examples: ['--environment-name sales-env'],
  },
  setPassword: {
    command: 'users set-password',
    summary: 'Set the workload password of the calling user in environments.',
    description: 'Deprecated: set workload passwords with `cdpctl iam workload-passwords set`.',
    examples: ["--password 'N3w-Workl0ad-Passw0rd' --wait"],
    fieldHelp: {
      password: 'The new workload password',
      environmentCRNs: 'CRNs of the environments to change it in; default: all',
    },
    wait: SYNC_WAIT,
  },

  // ---- Active Directory trust ----------------------------------------------
  setupActiveDirectoryTrust: {
    command: 'trust setup',
    summary: 'Start a cross-realm trust between the FreeIPA of a hybrid environment and Active Directory.',
    examples: [
      `--environment hybrid-env --kdc-servers '[{"fqdn":"ad1.corp.example.com","ip":"10.20.0.10"}]' --kdc-realm CORP.EXAMPLE.COM --remote-environment-crn ${REMOTE_ENV_CRN} --dns-server-ips 10.20.0.10 --wait`,
    ],
    fieldHelp: {
      environment: 'Name or CRN of the hybrid environment (see `environments list`)',
      kdcServers: 'Active Directory KDC servers: [{"fqdn":"ad1.corp.example.com","ip":"10.20.0.10"}] (one server for now)',
      kdcRealm: 'Kerberos realm of Active Directory, upper case by convention',
      remoteEnvironmentCrn: 'CRN of the environment of the on-premises cluster',
      dnsServerIps: 'IPv4 address of the Active Directory DNS server (one for now)',
      trustSecret: 'Shared trust secret; default: a random one',
    },
    wait: opWait('request.environment', HOUR),
  },
  finishSetupTrust: {
    command: 'trust finish-setup',
    summary: 'Finish a cross-realm trust after running the setup commands on Active Directory.',
    examples: [`--environment ${ENV_CRN} --wait`],
    fieldHelp: { environment: 'CRN of the hybrid environment (see `environments list`)' },
    wait: opWait('request.environment', HOUR),
  },
  cancelTrust: {
    command: 'trust cancel',
    summary: 'Cancel the cross-realm trust of an environment.',
    examples: ['--environment hybrid-env --yes --wait'],
    destructive: true,
    wait: opWait('request.environment', HOUR),
  },
  repairTrust: {
    command: 'trust repair',
    summary: 'Repair the cross-realm trust between the FreeIPA of an environment and Active Directory.',
    examples: ['--environment hybrid-env --wait'],
    wait: opWait('request.environment', HOUR),
  },
  getTrustSetupCommands: {
    command: 'trust setup-commands',
    summary: 'Show the commands to run on Active Directory and the base cluster to set up a trust.',
    examples: ['--environment hybrid-env'],
  },
  getTrustCleanupCommands: {
    command: 'trust cleanup-commands',
    summary: 'Show the commands to run on Active Directory and the base cluster to remove a trust.',
    examples: ['--environment hybrid-env'],
  },

  // ---- account telemetry ---------------------------------------------------
  getAccountTelemetry: {
    command: 'telemetry account describe',
    summary: 'Show the account telemetry settings: workload analytics default and log anonymization rules.',
    examples: [''],
  },
  setAccountTelemetry: {
    command: 'telemetry account set',
    summary: 'Set the workload analytics default and the log anonymization rules of the account.',
    examples: [`--workload-analytics --rules '[{"value":"acct-[0-9]{6}","replacement":"acct-XXXXXX"}]'`, '--no-workload-analytics'],
    fieldHelp: {
      workloadAnalytics: 'Default for new environments: send job and query diagnostics to Workload Manager',
      reportDeploymentLogs: 'Collect deployment logs; no longer used',
      rules: 'Anonymization rules for logs sent to Cloudera: [{"value":"<regex>","replacement":"<text>"}] (replacement default [REDACTED])',
    },
  },
  getAccountTelemetryDefault: {
    command: 'telemetry account defaults',
    summary: 'Show the default account telemetry settings, to go back to them.',
    examples: [''],
  },
  testAccountTelemetryRules: {
    command: 'telemetry account test-rules',
    summary: 'Show what anonymization rules make of a sample text.',
    examples: [`--test-input "invoice for acct-123456" --rules '[{"value":"acct-[0-9]{6}","replacement":"acct-XXXXXX"}]'`],
    fieldHelp: {
      testInput: 'Sample text to anonymize',
      rules: 'Rules to try: [{"value":"<regex>","replacement":"<text>"}] (replacement default [REDACTED])',
    },
  },

  // ---- Azure Marketplace image terms -----------------------------------------
  getAzureImageTermsPolicy: {
    command: 'azure-image-terms describe',
    summary: 'Show whether Azure Marketplace image terms are accepted automatically for the account.',
    examples: [''],
  },
  updateAzureImageTermsPolicy: {
    command: 'azure-image-terms update',
    summary: 'Turn automatic acceptance of Azure Marketplace image terms on or off for the account.',
    examples: ['--accepted', '--no-accepted'],
    fieldHelp: { accepted: 'Accept the image terms automatically when clusters are deployed' },
  },
};

const definition: ServiceDefinition = {
  name: 'environments',
  topic: 'environments',
  summary: 'Environments: credentials, networks and security, FreeIPA, ID Broker mappings, user sync and trust.',
  endpoint: 'api',
  facts: service,
  topics: {
    create: 'Create an environment on AWS, AWS GovCloud, Azure, GCP or private cloud.',
    update: 'Change the credential, network, security, SSH key, tags, proxy or encryption of an environment.',
    'update:encryption': 'Disk encryption keys of an environment.',
    operations: 'Long-running operations of an environment.',
    'data-services': 'Data services running in an environment and their resources.',
    ccm: 'Cluster Connectivity Manager of an environment.',
    'compute-cluster': 'The Kubernetes compute cluster of an environment.',
    'compute-cluster:initialize': 'Create the compute cluster on AWS or Azure.',
    storage: 'Log storage access checks.',
    keytabs: 'Kerberos keytabs of users and machine users.',
    'root-certificate': 'The root certificate of an environment.',
    connectivity: 'Connectivity checks for private cloud environments.',
    telemetry: 'Telemetry of an environment and of the account: workload analytics and log anonymization.',
    'telemetry:account': 'Account-wide telemetry defaults and log anonymization rules.',
    settings: 'Configuration settings of private cloud environments.',
    credentials: 'Cloud credentials that environments provision with.',
    'credentials:create': 'Create a credential for AWS, AWS GovCloud, Azure or GCP.',
    'credentials:update': 'Change an AWS or Azure credential.',
    'credentials:prerequisites': 'What a cloud account needs before a credential is created.',
    'audit-credentials': 'Credentials that archive the audit events of the account.',
    'audit-credentials:set': 'Set the audit credential for AWS, AWS GovCloud, Azure or GCP.',
    'audit-credentials:prerequisites': 'What a cloud account needs before an audit credential is set.',
    'proxy-configs': 'Proxy configurations for outbound traffic.',
    freeipa: 'The FreeIPA identity servers of an environment.',
    'freeipa:scale': 'Add, remove or resize FreeIPA servers.',
    'freeipa:recipes': 'Recipes that run on the FreeIPA servers.',
    'freeipa:diagnostics': 'FreeIPA log collections.',
    'freeipa:secrets': 'FreeIPA secret rotation.',
    'freeipa:catalog': 'The image catalog of FreeIPA.',
    'freeipa:imds': 'The AWS instance metadata service version of FreeIPA.',
    'freeipa:orchestrator': 'The Salt orchestrator state of FreeIPA.',
    'id-broker-mappings': 'ID Broker mappings from users, groups and services to cloud roles.',
    users: 'Sync users and groups into the FreeIPA of environments.',
    trust: 'Cross-realm trust between FreeIPA and Active Directory.',
    'azure-image-terms': 'Automatic acceptance of Azure Marketplace image terms.',
  },
  fieldHelp: {
    environmentName: ENV,
    environment: ENV,
    credentialName: 'Name of the credential (see `environments credentials list`)',
    description: 'Free text shown with it',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
