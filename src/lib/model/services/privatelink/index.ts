/**
 * Private links to the control plane: the CLI half of the cloudprivatelinks
 * model. Endpoint work is asynchronous; create, update, delete and migrate
 * return a tracking id that `endpoints status` (and --wait) follows.
 */
import type { OperationCli, Rule, ServiceDefinition, WaiterSpec } from '../../types.js';
import { operations, service, shapes } from './wire.js';
import { given, type Req } from '../../rules.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * How an account object names its credentials: AWS by a credential CRN or
 * the cross-account role itself; Azure by a credential CRN or a client secret
 * credential. Exactly one of the two.
 */
function credentialProblem(field: string, details: Record<string, unknown>, provider: 'AWS' | 'AZURE'): string | undefined {
  const alt = provider === 'AWS' ? 'crossAccountRoleDetails' : 'azureClientSecretCredential';
  const crn = given(details.credentialCrn);
  const other = given(details[alt]);
  if (crn && other) return `${field}: give either credentialCrn or ${alt}, not both`;
  if (!crn && !other) return `${field}: credentials are missing; give credentialCrn or ${alt}`;
  if (provider === 'AZURE' && isObj(details.azureClientSecretCredential)) {
    const c = details.azureClientSecretCredential;
    const missing = ['clientId', 'clientSecret', 'tenantId'].filter((k) => !given(c[k]));
    if (missing.length > 0) return `${field}.azureClientSecretCredential needs ${missing.join(', ')}`;
  }
  return undefined;
}

interface AccountRuleOptions {
  aws: string;
  azure: string;
  /** The provider may be left out (then the object given decides). */
  providerOptional?: boolean;
  network?: { aws: string; azure: string };
}

/** Which account object a request must carry, or what is wrong with the choice (reported against the provider). */
function accountChoice(opts: AccountRuleOptions, r: Req): { problem?: string; provider?: 'AWS' | 'AZURE' } {
  const aws = r[opts.aws];
  const azure = r[opts.azure];
  if (given(aws) && given(azure)) return { problem: `give either ${opts.aws} or ${opts.azure}, not both` };
  let provider = r.cloudServiceProvider as 'AWS' | 'AZURE' | undefined;
  if (!provider && opts.providerOptional) provider = given(aws) ? 'AWS' : given(azure) ? 'AZURE' : undefined;
  if (!provider) return { problem: `give ${opts.aws} (AWS) or ${opts.azure} (AZURE)` };
  const field = provider === 'AWS' ? opts.aws : opts.azure;
  const wrong = provider === 'AWS' ? opts.azure : opts.aws;
  if (given(r[wrong])) return { problem: `${wrong} does not apply to ${provider}; give ${field}` };
  return { provider };
}

/**
 * The account object must match the cloud provider: AWS takes the AWS
 * object, AZURE the Azure one, never both. `network` names the field that
 * identifies the customer network and must be present. A wrong choice is
 * reported against --cloud-service-provider; what is wrong inside the object
 * (missing, no network, credentials) against the object's own flag.
 */
function accountRules(opts: AccountRuleOptions): Rule[] {
  const inside = (provider: 'AWS' | 'AZURE'): Rule => {
    const field = provider === 'AWS' ? opts.aws : opts.azure;
    return {
      kind: 'custom',
      field,
      check: (r: Req) => {
        if (accountChoice(opts, r).provider !== provider) return undefined;
        const details = r[field];
        if (!isObj(details)) return `${provider} needs ${field}`;
        const network = opts.network?.[provider === 'AWS' ? 'aws' : 'azure'];
        if (network && !given(details[network])) return `${field}.${network} is required`;
        return credentialProblem(field, details, provider);
      },
    };
  };
  return [
    { kind: 'custom', field: 'cloudServiceProvider', check: (r: Req) => accountChoice(opts, r).problem },
    inside('AWS'),
    inside('AZURE'),
  ];
}

/** Authorize/revoke: AWS accounts are named by cloudAccountId, Azure ones by subscriptionId. */
const ACCOUNT_ID_RULE: Rule = {
  kind: 'custom',
  field: 'cloudServiceProvider',
  check: (r) => {
    if (given(r.cloudAccountId) && given(r.subscriptionId)) return 'give either cloudAccountId (AWS) or subscriptionId (AZURE), not both';
    if (r.cloudServiceProvider === 'AWS' && !given(r.cloudAccountId)) return 'AWS needs cloudAccountId';
    if (r.cloudServiceProvider === 'AZURE' && !given(r.subscriptionId)) return 'AZURE needs subscriptionId';
    if (r.cloudServiceProvider === 'AWS' && given(r.subscriptionId)) return 'subscriptionId does not apply to AWS';
    if (r.cloudServiceProvider === 'AZURE' && given(r.cloudAccountId)) return 'cloudAccountId does not apply to AZURE';
    if (!r.cloudServiceProvider && !given(r.cloudAccountId) && !given(r.subscriptionId))
      return 'give cloudAccountId (AWS) or subscriptionId (AZURE)';
    return undefined;
  },
};

const STATUS_NETWORK_RULE: Rule = {
  kind: 'custom',
  field: 'cloudServiceProvider',
  check: (r) => {
    if (given(r.vpcId) && given(r.vNetId)) return 'give either vpcId (AWS) or vNetId (AZURE), not both';
    if (r.cloudServiceProvider === 'AWS' && given(r.vNetId)) return 'vNetId does not apply to AWS; give vpcId';
    if (r.cloudServiceProvider === 'AZURE' && given(r.vpcId)) return 'vpcId does not apply to AZURE; give vNetId';
    if (!given(r.vpcId) && !given(r.vNetId)) return 'give vpcId (AWS) or vNetId (AZURE)';
    return undefined;
  },
};

/** Follows the endpoint work of a tracking id until every endpoint is done. */
const WAIT: WaiterSpec = {
  poll: 'listPrivateLinkEndpointStatuses',
  input: { trackingId: 'response.trackingId' },
  state: 'privatelinkEndpoints[].status',
  success: ['SUCCESS'],
  failure: ['ERROR'],
  reason: "privatelinkEndpoints[?status=='ERROR'].join(': ', [serviceComponent || 'endpoint', error || 'failed'])",
  interval: 5,
  timeout: 1800,
};

const ENDPOINT_COLUMNS = {
  component: 'serviceComponent',
  status: 'status',
  endpointId: 'endpointId',
  dnsNames: 'dnsNames',
  error: 'error',
  created: 'creationTimestamp',
};

const SERVICE_COLUMNS = {
  component: 'serviceComponent',
  service: 'privateLinkService',
  hostname: 'hostname',
  zones: 'availabilityZoneList',
  ports: 'vpceClientTcpPortList',
};

const SERVICE_GROUP = 'Group of endpoint services; only CDP-CONTROL-PLANE, the control plane, is offered';
const CREDENTIALS_AWS = 'credentialCrn (see `environments credentials list`) or crossAccountRoleDetails (crossAccountRole ARN, externalId)';
const CREDENTIALS_AZURE =
  'credentialCrn (see `environments credentials list`) or azureClientSecretCredential (clientId, clientSecret, tenantId)';
const AWS_INFO = `AWS only: the VPC the endpoints are in (vpcId, region) and ${CREDENTIALS_AWS}`;
const AZURE_INFO = `AZURE only: the VNet the endpoints are in (vNetId, location) and ${CREDENTIALS_AZURE}`;

const AWS_DETAILS =
  '\'{"cloudAccountId":"123456789012","credentialCrn":"crn:cdp:environments:us-west-1:acct:credential:aws-cred","region":"us-west-2","vpcId":"vpc-0a1b2c3d","subnetIds":["subnet-11","subnet-22"]}\'';

const cli: Record<string, OperationCli> = {
  createPrivateLinkEndpoint: {
    command: 'endpoints create',
    summary: 'Create private-link endpoints to the control plane in a customer network.',
    description:
      'The work runs in the background; the answer is a tracking id. With --wait, polls the endpoint statuses until every endpoint is SUCCESS (or one is ERROR, exit 5).',
    examples: [
      `--cloud-service-provider AWS --aws-account-details ${AWS_DETAILS} --enable-private-dns --wait`,
      '--cloud-service-provider AZURE --azure-account-details \'{"credentialCrn":"crn:cdp:environments:us-west-1:acct:credential:az-cred","subscriptionId":"sub-1","resourceGroup":"rg-net","location":"westus2","vNetId":"vnet-main","subnetId":"snet-1"}\'',
    ],
    fieldHelp: {
      awsAccountDetails: `AWS only: account (cloudAccountId), region, VPC, private subnets (subnetIds) and ${CREDENTIALS_AWS}`,
      azureAccountDetails: `AZURE only: subscription, resource group, location, VNet, subnet and ${CREDENTIALS_AZURE}`,
      enablePrivateDns: 'Create private DNS entries for the endpoints',
      resourceTags: 'Tags put on the cloud resources created, e.g. key=team,value=data',
    },
    rules: accountRules({ aws: 'awsAccountDetails', azure: 'azureAccountDetails', network: { aws: 'vpcId', azure: 'vNetId' } }),
    wait: WAIT,
  },
  updatePrivateLinkEndpoint: {
    command: 'endpoints update',
    summary: 'Change the subnets, tags or resource group of existing private-link endpoints.',
    examples: [
      '--cloud-service-provider AWS --aws-account-info \'{"credentialCrn":"crn:cdp:environments:us-west-1:acct:credential:aws-cred","region":"us-west-2","vpcId":"vpc-0a1b2c3d"}\' --subnet-ids subnet-33 --update-operation APPEND --wait',
    ],
    fieldHelp: {
      subnetIds: 'IDs of the subnets to add (APPEND) or to use instead of the current ones (REPLACE)',
      updateOperation: 'APPEND (default) adds the subnets given; REPLACE swaps the current ones for them',
      resourceTags: 'New tags for the cloud resources',
      resourceGroup: 'AZURE only: the resource group the private endpoint is in',
    },
    rules: [
      ...accountRules({
        aws: 'awsAccountInfo',
        azure: 'azureAccountInfo',
        providerOptional: true,
        network: { aws: 'vpcId', azure: 'vNetId' },
      }),
      {
        kind: 'requires',
        field: 'updateOperation',
        needs: 'subnetIds',
        message: '--update-operation applies to --subnet-ids; give the subnets',
      },
      {
        kind: 'anyOf',
        fields: ['subnetIds', 'resourceTags', 'resourceGroup'],
        message: 'nothing to update: give --subnet-ids, --resource-tags or --resource-group',
      },
    ],
    wait: WAIT,
  },
  deletePrivateLinkEndpoint: {
    command: 'endpoints delete',
    summary: 'Delete the private-link endpoints of a customer network.',
    examples: [
      '--cloud-service-provider AWS --aws-account-info \'{"credentialCrn":"crn:cdp:environments:us-west-1:acct:credential:aws-cred","region":"us-west-2","vpcId":"vpc-0a1b2c3d"}\' --yes --wait',
    ],
    destructive: true,
    fieldHelp: { cloudServiceProvider: 'Cloud of the network: AWS (give --aws-account-info) or AZURE (give --azure-account-info)' },
    rules: accountRules({ aws: 'awsAccountInfo', azure: 'azureAccountInfo', network: { aws: 'vpcId', azure: 'vNetId' } }),
    wait: WAIT,
  },
  migratePrivateLinkEndpoints: {
    command: 'endpoints migrate',
    summary: 'Move AWS endpoints from the older endpoint services to the control-plane ones.',
    description: 'AWS only. The VPC id, region and credentials are enough; everything else comes from what was stored at creation.',
    fieldHelp: { awsAccountInfo: `The VPC whose endpoints move (vpcId, region) and ${CREDENTIALS_AWS}; subnets come from what was stored` },
    examples: [
      '--aws-account-info \'{"credentialCrn":"crn:cdp:environments:us-west-1:acct:credential:aws-cred","region":"us-west-2","vpcId":"vpc-0a1b2c3d"}\' --wait',
    ],
    rules: [
      {
        kind: 'custom',
        field: 'awsAccountInfo',
        check: (r) => {
          const info = r.awsAccountInfo;
          if (!isObj(info)) return undefined;
          const missing = ['vpcId', 'region'].filter((k) => !given(info[k]));
          if (missing.length > 0) return `awsAccountInfo needs ${missing.join(' and ')}`;
          return credentialProblem('awsAccountInfo', info, 'AWS');
        },
      },
    ],
    wait: WAIT,
  },
  listPrivateLinkEndpointStatuses: {
    command: 'endpoints status',
    summary: 'Show how the endpoint work behind a tracking id is going, endpoint by endpoint.',
    examples: ['--tracking-id 0f8a1c2e-7b3d-4e5f-9a6b-1c2d3e4f5a6b --output table'],
    fieldHelp: { trackingId: 'The trackingId printed by `privatelink endpoints create`, `update`, `delete` or `migrate`' },
    columns: ENDPOINT_COLUMNS,
    listKey: 'privatelinkEndpoints',
  },
  getPrivateLinkStatus: {
    command: 'status',
    summary: 'Tell whether a network has working private links: ENABLED, DISABLED or ERROR.',
    examples: ['--cloud-service-provider AWS --vpc-id vpc-0a1b2c3d', '--cloud-service-provider AZURE --v-net-id vnet-main'],
    fieldHelp: {
      cloudServiceProvider: 'Cloud of the network: AWS (give --vpc-id) or AZURE (give --v-net-id)',
      vpcId: 'AWS only: ID of the VPC to check, e.g. vpc-0a1b2c3d',
      vNetId: 'AZURE only: ID of the virtual network to check',
      subnetIds: 'No longer used; ignored',
    },
    rules: [STATUS_NETWORK_RULE],
  },
  listPrivateLinkServicesForRegion: {
    command: 'services list',
    summary: 'List the private-link endpoint services offered in a region.',
    examples: ['--region us-west-2 --output table'],
    fieldHelp: { region: 'Cloud region whose endpoint services to list, e.g. us-west-2' },
    columns: SERVICE_COLUMNS,
    listKey: 'listPrivateLinkServicesForRegionResults',
  },
  authorizePrivateLinkServiceAccess: {
    command: 'access authorize',
    summary: 'Allow a cloud account to connect to the private-link endpoint services.',
    examples: [
      '--cloud-service-provider AWS --cloud-account-id 123456789012 --region us-west-2',
      '--cloud-service-provider AZURE --subscription-id 2f1e0d9c-8b7a-4654-3210-fedcba987654 --region westus2',
    ],
    fieldHelp: {
      cloudAccountId: 'AWS only: the 12-digit account ID to allow',
      subscriptionId: 'AZURE only: the subscription ID to allow',
    },
    rules: [ACCOUNT_ID_RULE],
    columns: { ...SERVICE_COLUMNS, status: 'authorizationStatus' },
    listKey: 'authorizePrivateLinkServiceAccessResults',
  },
  revokePrivateLinkServiceAccess: {
    command: 'access revoke',
    summary: "Withdraw a cloud account's permission to connect to the private-link endpoint services.",
    examples: ['--cloud-service-provider AWS --cloud-account-id 123456789012 --region us-west-2 --yes'],
    fieldHelp: {
      cloudAccountId: 'AWS only: the 12-digit account ID to refuse from now on',
      subscriptionId: 'AZURE only: the subscription ID to refuse from now on',
    },
    destructive: true,
    rules: [ACCOUNT_ID_RULE],
    columns: { component: 'serviceComponent', service: 'privateLinkService', status: 'revocationStatus' },
    listKey: 'revokePrivateLinkServiceAccessResults',
  },
};

const definition: ServiceDefinition = {
  name: 'cloudprivatelinks',
  topic: 'privatelink',
  summary: 'Private-link endpoints from customer networks to the control plane.',
  endpoint: 'api',
  facts: service,
  topics: {
    endpoints: 'Private-link endpoints in a customer network and the work on them.',
    services: 'Endpoint services offered per region.',
    access: 'Which cloud accounts may connect to the endpoint services.',
  },
  fieldHelp: {
    cloudServiceProvider: 'Cloud of the network: AWS or AZURE; it decides which of the AWS and AZURE flags apply',
    serviceGroup: SERVICE_GROUP,
    region: 'Cloud region of the endpoint services, e.g. us-west-2 or westus2',
    awsAccountInfo: AWS_INFO,
    azureAccountInfo: AZURE_INFO,
    resourceTags: 'Tags for the cloud resources created: key=team,value=data (repeat for more)',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
