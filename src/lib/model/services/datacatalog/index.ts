/**
 * The data catalog: the CLI half of the datacatalog model. Data shares are
 * named sets of tables offered to external users; most changes to a share
 * are refused while it is shared. Profilers and tag suggestions live here too.
 */
import type { OperationCli, Rule, ServiceDefinition, Shapes, WireOperations } from '../../types.js';
import { operations, service, shapes } from './wire.js';
import { atLeastOne } from '../../rules.js';

const LAKE =
  '--datalake-crn crn:cdp:datalake:us-west-1:acct:datalake:dl1 --environment-crn crn:cdp:environments:us-west-1:acct:environment:env1';
const SHARE = `${LAKE} --data-share-id 6f0c2b8e-1d4a-4c3b-9e7f-2a1b3c4d5e6f`;

const MAX_NODES: Rule = {
  kind: 'custom',
  field: 'maxNodes',
  check: (r) =>
    typeof r.maxNodes === 'number' && (r.maxNodes < 30 || r.maxNodes > 100)
      ? `maxNodes must be between 30 and 100; got ${r.maxNodes}`
      : undefined,
};

const NAME_NOT_BLANK: Rule = {
  kind: 'custom',
  field: 'dataShareName',
  check: (r) =>
    typeof r.dataShareName === 'string' && r.dataShareName.trim() === '' ? 'the data share name must not be blank' : undefined,
};

/** The seed's limit on every data share name, also when a share is renamed (the update shape has no maxLen). */
const NAME_LIMIT = 512;
const NAME_LENGTH: Rule = {
  kind: 'custom',
  field: 'dataShareName',
  check: (r) =>
    typeof r.dataShareName === 'string' && r.dataShareName.length > NAME_LIMIT
      ? `"dataShareName" must be at most ${NAME_LIMIT} characters; got ${r.dataShareName.length}`
      : undefined,
};

const SHARE_COLUMNS = {
  id: 'dataShareId',
  name: 'dataShareName',
  shared: 'isShared',
  createdBy: 'createdBy',
  created: 'createdAt',
  expires: 'expiryTime',
};

const KEEP = '; omit to keep the current value';
const ACCESS_EXAMPLE = '[{"externalUserId":7,"expiryTime":"2027-01-01T00:00:00Z"}] (IDs: see `datacatalog external-users list`)';
const DATALAKE_CRN = 'CRN of the data lake that holds the tables (see `datalake list`)';

const ASSET_HELP = 'Tables as JSON: [{"databaseName":"sales","tableName":"orders","columns":["id","total"]}]; columns default to all';

const cli: Record<string, OperationCli> = {
  createDataShare: {
    command: 'shares create',
    summary: 'Create a data share from tables of a data lake; it starts not shared.',
    examples: [`${LAKE} --data-share-name q3-orders --assets '[{"databaseName":"sales","tableName":"orders"}]' --keywords sales,q3`],
    fieldHelp: {
      dataShareName: 'Name of the new data share',
      assets: ASSET_HELP,
      externalUsers: `External users given access at once, each until its expiryTime: ${ACCESS_EXAMPLE}`,
      expiryTime: 'When the share stops being available (ISO 8601)',
    },
    rules: [NAME_NOT_BLANK, atLeastOne('assets', 'asset')],
  },
  getDataShare: {
    command: 'shares describe',
    summary: 'Show a data share with its assets and external users.',
    examples: [SHARE],
  },
  listDataShares: {
    command: 'shares list',
    summary: 'List the data shares of a data lake.',
    examples: [`${LAKE} --output table`, `${LAKE} --name orders`],
    fieldHelp: { name: 'Only shares whose name contains this text' },
    columns: SHARE_COLUMNS,
  },
  updateDataShare: {
    command: 'shares update',
    summary: 'Rename a data share or change its keywords, expiry, summary or terms of use.',
    examples: [`${SHARE} --data-share-name q3-orders-final --expiry-time 2027-01-01T00:00:00Z`],
    fieldHelp: {
      dataShareName: `New name; at most ${NAME_LIMIT} characters${KEEP}`,
      keywords: `Words to find the share by, replacing the current ones${KEEP}`,
      expiryTime: `When the share stops being available (ISO 8601)${KEEP}`,
      summary: `Short description shown to the external users${KEEP}`,
      termsOfUse: `Terms the external users accept${KEEP}`,
    },
    rules: [
      NAME_NOT_BLANK,
      NAME_LENGTH,
      {
        kind: 'anyOf',
        fields: ['dataShareName', 'keywords', 'expiryTime', 'summary', 'termsOfUse'],
        message: 'nothing to update: give --data-share-name, --keywords, --expiry-time, --summary or --terms-of-use',
      },
    ],
  },
  deleteDataShare: {
    command: 'shares delete',
    summary: 'Delete a data share for good; only while it is not shared.',
    examples: [`${SHARE} --yes`],
    destructive: true,
  },
  shareDataShare: {
    command: 'shares share',
    summary: 'Share a data share: its assets become available to its external users.',
    examples: [SHARE],
  },
  unshareDataShare: {
    command: 'shares unshare',
    summary: 'Stop sharing a data share; its external users lose access until it is shared again.',
    examples: [SHARE],
  },
  addAssetsToDataShare: {
    command: 'shares add-assets',
    summary: 'Add tables to a data share; only while it is not shared.',
    examples: [`${SHARE} --assets '[{"databaseName":"sales","tableName":"returns"}]'`],
    fieldHelp: { assets: ASSET_HELP },
    rules: [atLeastOne('assets', 'asset')],
    listKey: 'assets',
    columns: { resourceId: 'resourceId', database: 'databaseName', table: 'tableName', created: 'createTime' },
  },
  removeAssetsFromDataShare: {
    command: 'shares remove-assets',
    summary: 'Remove assets from a data share by resource id; only while it is not shared.',
    examples: [`${SHARE} --resource-ids 3,4`],
    fieldHelp: { resourceIds: 'The resourceId of each asset to remove, as `datacatalog shares describe` shows it' },
    destructive: true,
    rules: [atLeastOne('resourceIds', 'resource id')],
  },
  grantAccessToExternalUsersOnDataShare: {
    command: 'shares grant-access',
    summary: 'Give external users access to a data share, optionally until a date.',
    examples: [`${SHARE} --external-users '[{"externalUserId":7,"expiryTime":"2027-01-01T00:00:00Z"}]'`],
    fieldHelp: { externalUsers: `External users to give access, each until its expiryTime (ISO 8601): ${ACCESS_EXAMPLE}` },
    rules: [atLeastOne('externalUsers', 'external user')],
  },
  updateAccessOfExternalUsersOnDataShare: {
    command: 'shares update-access',
    summary: 'Add external users to a data share or change when their access ends.',
    examples: [`${SHARE} --external-users '[{"externalUserId":7,"expiryTime":"2027-06-30T00:00:00Z"}]'`],
    fieldHelp: { externalUsers: `External users to add, or whose access gets a new expiryTime (ISO 8601): ${ACCESS_EXAMPLE}` },
    rules: [atLeastOne('externalUsers', 'external user')],
  },
  removeAccessOfExternalUsersOnDataShare: {
    command: 'shares remove-access',
    summary: 'Take external users off a data share; only while it is not shared.',
    examples: [`${SHARE} --external-user-ids 7,8`],
    destructive: true,
    rules: [atLeastOne('externalUserIds', 'external user id')],
  },

  // external users
  createExternalUsers: {
    command: 'external-users create',
    summary: 'Create external users; each gets a client id and a secret shown only now.',
    examples: [`${LAKE} --external-users '[{"email":"ana@partner.example","username":"ana","companyName":"Partner Ltd"}]'`],
    fieldHelp: {
      externalUsers: 'The users to create: [{"username":"ana","email":"ana@partner.example","companyName":"Partner Ltd"}]',
    },
    rules: [atLeastOne('externalUsers', 'external user')],
    listKey: 'externalUsers',
    columns: { userId: 'userId', username: 'username', clientId: 'clientId', secret: 'secret', error: 'error' },
  },
  listExternalUsers: {
    command: 'external-users list',
    summary: 'List the external users of a data lake.',
    examples: [`${LAKE} --output table`, `${LAKE} --search-term partner`],
    fieldHelp: { searchTerm: 'Only users whose user name, e-mail address or company name matches this text' },
    columns: {
      userId: 'userId',
      username: 'username',
      email: 'email',
      company: 'companyName',
      clientId: 'clientId',
      active: 'isActive',
    },
  },
  deleteExternalUser: {
    command: 'external-users delete',
    summary: 'Delete an external user and their access to every share; cannot be undone.',
    examples: [`${LAKE} --external-user-id 7 --yes`],
    destructive: true,
  },
  revokeExternalUserCredentials: {
    command: 'external-users revoke-credentials',
    summary: "Disable an external user's credentials: they lose access to every share at once.",
    examples: [`${LAKE} --external-user-id 7 --yes`],
    destructive: true,
  },
  regenerateExternalUserCredentials: {
    command: 'external-users regenerate-credentials',
    summary: 'Issue new credentials to an external user; the old secret stops working.',
    examples: [`${LAKE} --external-user-id 7`],
  },

  // tags
  getSuggestedTags: {
    command: 'tags suggested',
    summary: 'Show the compliance tags the profilers suggest for tables or columns.',
    examples: ['--datalake-crn crn:cdp:datalake:us-west-1:acct:datalake:dl1 --table-fqn sales.customers'],
    fieldHelp: {
      tableFQN: 'Only suggestions for this table: database.table',
      columnFQN: 'Only suggestions for this column: database.table.column',
      profiledSince: 'Only suggestions from profiling after this time (ISO 8601)',
    },
    listKey: 'suggestedTags',
    columns: { asset: 'qualifiedName', tags: 'tags' },
  },
  reviewSuggestedTags: {
    command: 'tags review',
    summary: 'Accept or reject suggested tags; each asset reports ACCEPTED, REJECTED or FAILED.',
    examples: [
      '--datalake-crn crn:cdp:datalake:us-west-1:acct:datalake:dl1 --action ACCEPT --assets \'[{"qualifiedName":"sales.customers.email","tags":["PII"]}]\'',
    ],
    fieldHelp: {
      assets:
        'Assets and the suggested tags to decide on: [{"qualifiedName":"db.table.column","tags":["PII"]}] (see `datacatalog tags suggested`)',
      action: 'ACCEPT applies the tags; REJECT dismisses them',
    },
    rules: [atLeastOne('assets', 'asset')],
    listKey: 'reviewedTags',
    columns: { asset: 'qualifiedName', status: 'status', tags: 'tagsUpdated' },
  },

  // profilers
  launchProfilers: {
    command: 'profilers launch',
    summary: 'Launch the catalog profilers of a data lake on a new Data Hub cluster.',
    examples: ['--datalake crn:cdp:datalake:us-west-1:acct:datalake:dl1', '--datalake dl1 --enable-ha --max-nodes 40'],
    fieldHelp: {
      datalake: 'Data lake name or CRN (see `datalake list`)',
      enableHA: 'Run highly available: more resilient, costs more (default: off)',
      maxNodes: 'Most nodes the profiler node group may scale to, 30 to 100; only for environments with compute clusters',
      profilers: 'Names of the profilers to launch; only for environments with compute clusters',
      instanceTypes: 'Cloud instance types for the profiler node group; only for environments with compute clusters',
    },
    rules: [MAX_NODES],
  },
};

/**
 * getFgacStatusByAssets is in the service's 0.9.164 specification but not in
 * the older wire facts wire.ts was made from; it is added here so that a
 * regeneration of wire.ts keeps it.
 */
const SPEC_SHAPES: Shapes = {
  AssetForFGACStatus: { databaseName: 'string!', tableName: 'string!' },
  GetFgacStatusByAssetsRequest: { assets: '[AssetForFGACStatus]!', datalakeCrn: 'string!', environmentCrn: 'string!' },
  GetFgacStatusByAssetsResponse: { listOfFgacStatus: '{string}' },
};
const SPEC_OPERATIONS: WireOperations = {
  getFgacStatusByAssets: { path: '/api/v1/datacatalog/getFgacStatusByAssets', mutating: false },
};
cli.getFgacStatusByAssets = {
  command: 'fgac-status',
  summary: 'Tell for each table whether fine-grained access policies cover it.',
  examples: [`${LAKE} --assets databaseName=sales,tableName=customers --assets databaseName=hr,tableName=employees`],
  fieldHelp: { assets: 'Tables to check: databaseName=DB,tableName=TABLE (repeat for more)' },
};

const definition: ServiceDefinition = {
  name: 'datacatalog',
  topic: 'datacatalog',
  summary: 'Data catalog: data shares for external users, profilers and tag suggestions.',
  endpoint: 'api',
  facts: service,
  topics: {
    shares: 'Data shares: tables offered to external users.',
    'external-users': 'Users outside the platform who read data shares.',
    tags: 'Compliance tags the profilers suggest.',
    profilers: 'Catalog profilers of a data lake.',
  },
  fieldHelp: {
    datalakeCrn: DATALAKE_CRN,
    environmentCrn: 'CRN of the environment of that data lake (see `environments list`)',
    dataShareId: 'ID of the data share (see `datacatalog shares list`)',
    externalUserId: 'Numeric ID of the external user (see `datacatalog external-users list`)',
    externalUserIds: 'Numeric IDs of the external users (see `datacatalog shares describe`)',
    summary: 'Short description shown to the external users',
    termsOfUse: 'Terms the external users accept',
    keywords: 'Words to find the share by',
  },
  shapes: { ...shapes, ...SPEC_SHAPES },
  wire: { ...operations, ...SPEC_OPERATIONS },
  cli,
};

export default definition;
