// Wire shapes and operation facts of the lakehouseopt service, in the
// project's model format (see ../../shapes.ts). Regenerate with
// scripts/import-facts.mjs; CLI decorations live in ./index.ts.
import type { Shapes, WireOperations } from '../../wire.js';

export const shapes: Shapes = {
  AssociatedTableObject: {
    tableName: 'string',
    isAssociated: 'boolean',
  },
  Associations: {
    namespace: 'string',
    tables: '[string]',
  },
  ChangeTablePolicyRequest: {
    datahubCrn: 'string',
    namespace: 'string',
    tableName: 'string',
    operation: 'string default=APPEND',
    policies: '[string]',
  },
  ChangeTablePolicyResponse: {},
  CreateAssociations: {
    namespace: 'string',
    tables: '[string]',
  },
  CreateAssociationsRequest: {
    datahubCrn: 'string',
    policyName: 'string',
    associations: '[CreateAssociations]',
  },
  CreateAssociationsResponse: {
    associations: '[Associations]',
  },
  CreatePolicyRequest: {
    datahubCrn: 'string',
    policyName: 'string',
    resources: 'PolicyResource',
  },
  CreatePolicyResponse: {},
  CreateTablePoliciesAssociationsRequest: {
    datahubCrn: 'string',
    namespace: 'string',
    tableName: 'string',
    policies: '[string]',
  },
  CreateTablePoliciesAssociationsResponse: {
    policies: '[string]',
  },
  DeletePolicyRequest: {
    datahubCrn: 'string',
    policyName: 'string',
    resourceScope: 'string',
  },
  DeletePolicyResponse: {
    deletedPolicies: 'int32',
  },
  DirectAssociationDetails: {
    namespace: 'string',
    status: 'string default=UNAVAILABLE',
    tables: '[TablePolicyAssociation]',
  },
  DownloadPolicyRequest: {
    policyName: 'string',
    policyVersion: 'string',
    datahubCrn: 'string',
  },
  DownloadPolicyResponse: {
    script: 'bytes',
    arguments: 'bytes',
  },
  DryRunResult: {
    actions: '[string]',
    details: 'bytes',
  },
  Environment: {
    environmentName: 'string',
    environmentCrn: 'string',
    isCloEnabled: 'boolean',
    datahubName: 'string',
    datahubCrn: 'string',
    cloudPlatform: 'string',
    status: 'string',
  },
  Error: {
    code: 'string',
    message: 'string',
  },
  ExecutePolicyRequest: {
    datahubCrn: 'string',
    namespace: 'string',
    tableName: 'string',
    policyName: 'string',
    dryRun: 'boolean default=true',
  },
  ExecutePolicyResponse: {
    dryRunResult: 'DryRunResult',
    executionResult: 'ExecutionResult',
  },
  ExecutionResult: {
    taskId: 'string',
    details: 'bytes',
  },
  GetAssociatedNamespacesObject: {
    namespace: 'string',
    isAssociated: 'boolean',
  },
  GetAssociatedNamespacesRequest: {
    datahubCrn: 'string',
    policyName: 'string',
  },
  GetAssociatedNamespacesResponse: {
    associatedNamespaces: '[GetAssociatedNamespacesObject]',
  },
  GetAssociatedTablesObject: {
    namespace: 'string',
    tables: '[AssociatedTableObject]',
  },
  GetAssociatedTablesRequest: {
    datahubCrn: 'string',
    policyName: 'string',
  },
  GetAssociatedTablesResponse: {
    associatedTables: '[GetAssociatedTablesObject]',
  },
  GetAssociationDetailsRequest: {
    datahubCrn: 'string',
  },
  GetAssociationDetailsResponse: {
    directionAssociation: '[DirectAssociationDetails]',
    starAssociation: '[StarAssociationDetails]',
  },
  GetAssociationsRequest: {
    datahubCrn: 'string',
    policyName: 'string',
  },
  GetAssociationsResponse: {
    associations: '[Associations]',
  },
  GetCloDatahubRequest: {
    environmentCrn: 'string',
  },
  GetCloDatahubResponse: {
    environmentName: 'string',
    environmentCrn: 'string',
    datahubName: 'string',
    datahubCrn: 'string',
    cloudPlatform: 'string',
    status: 'string',
  },
  GetDatahubCrnRequest: {
    environmentCrn: 'string',
  },
  GetDatahubCrnResponse: {
    datahubCrn: 'string',
  },
  GetHealthRequest: {
    datahubCrn: 'string',
    scope: 'string default=Partial',
  },
  GetHealthResponse: {
    result: '{HealthCheckResult}',
    action: 'string',
  },
  GetNamespacesRequest: {
    datahubCrn: 'string',
  },
  GetNamespacesResponse: {
    namespaces: '[string]',
  },
  GetPolicyNamesRequest: {
    datahubCrn: 'string',
    namespace: 'string',
  },
  GetPolicyNamesResponse: {
    policyNames: '[string]',
  },
  GetPolicyRequest: {
    policyName: 'string',
    datahubCrn: 'string',
  },
  GetPolicyResponse: {
    versions: '[string]',
    policyDetail: 'GetPolicyResponsePolicyDetail',
  },
  GetPolicyResponsePolicyDetail: {
    version: 'string',
    arguments: 'bytes',
    scope: 'string',
    associations: '[NamespaceAssociation]',
    tableCount: 'int32',
    creationTime: 'int64',
    lastExecutionTime: 'int64',
  },
  GetScriptsRequest: {
    datahubCrn: 'string',
  },
  GetScriptsResponse: {
    scripts: '[Script]',
  },
  GetTableNamesRequest: {
    datahubCrn: 'string',
    namespace: 'string',
  },
  GetTableNamesResponse: {
    tables: '[string]',
  },
  GetTablePoliciesRequest: {
    datahubCrn: 'string',
    namespace: 'string',
    tableName: 'string',
  },
  GetTablePoliciesResponse: {
    policies: '[TablePoliciesObject]',
  },
  GetTableStatusDetailsRequest: {
    datahubCrn: 'string',
    namespace: 'string',
    tableName: 'string',
    policyName: 'string',
    status: 'string default=UNAVAILABLE',
  },
  GetTableStatusDetailsResponse: {
    pausedTable: 'PausedTable',
    recentTask: 'Task',
  },
  GetTimezonesRequest: {},
  GetTimezonesResponse: {
    timezones: '[TimezoneObject]',
  },
  HealthCheckResult: {
    isHealthy: 'boolean',
    message: 'string',
    error: 'string',
    details: '{string}',
    time: 'int64',
    duration: 'int64',
  },
  ListEnvironmentsRequest: {
    pageSize: 'int32',
    pageToken: 'string',
  },
  ListEnvironmentsResponse: {
    nextPageToken: 'string',
    totalEnvironments: 'int32',
    environments: '[Environment]',
  },
  ListPoliciesRequest: {
    datahubCrn: 'string',
    namespace: 'string',
  },
  ListPoliciesResponse: {
    policies: '[PolicyObject]',
  },
  ListTablesRequest: {
    datahubCrn: 'string',
    namespace: 'string',
  },
  ListTablesResponse: {
    tables: '[TableObject]',
  },
  ListTasksRequest: {
    datahubCrn: 'string',
    namespace: 'string',
    pageSize: 'int32 default=1',
    pageToken: 'string',
  },
  ListTasksResponse: {
    tasks: '[TaskObject]',
    nextPageToken: 'string',
  },
  NamespaceAssociation: {
    namespace: 'string',
    status: 'string default=UNAVAILABLE',
    tableAssociations: '[TableAssociation]',
  },
  NamespacePolicyAssociation: {
    namespace: 'string',
    status: 'string default=UNAVAILABLE',
    policies: '[string]',
  },
  PauseTableRequest: {
    datahubCrn: 'string',
    namespace: 'string',
    tableName: 'string',
  },
  PauseTableResponse: {},
  PausedDetails: {
    pausedSince: 'string',
    reasons: '[string]',
  },
  PausedTable: {
    message: 'string',
    details: 'PausedDetails',
  },
  PolicyObject: {
    status: 'string',
    policyName: 'string',
    taskCount: 'int32',
    tableCount: 'int32',
    creationTime: 'int64',
    lastExecutionTime: 'int64',
    isDefault: 'boolean',
  },
  PolicyResource: {
    arguments: 'string',
    script: 'string',
  },
  Script: {
    name: 'string',
    uri: 'string',
    description: 'string',
  },
  StarAssociationDetails: {
    catalog: 'string',
    status: 'string default=UNAVAILABLE',
    namespaces: '[NamespacePolicyAssociation]',
  },
  TableAssociation: {
    name: 'string',
    namespace: 'string',
    taskCount: 'int32',
    lastExecutionTime: 'int64',
    version: 'string',
    status: 'string',
  },
  TableObject: {
    status: 'string',
    namespace: 'string',
    tableName: 'string',
    policies: '[string]',
    lastExecutionTime: 'int64',
  },
  TablePoliciesObject: {
    status: 'string',
    policyName: 'string',
    taskCount: 'int32',
    lastExecutionTime: 'int64',
  },
  TablePolicyAssociation: {
    tableName: 'string',
    policies: '[string]',
    lastExecutionEpoch: 'int64',
    status: 'string default=UNAVAILABLE',
  },
  Task: {
    actions: '[TaskAction]',
    policyName: 'string',
    tableName: 'string',
    lastExecutionTime: 'int64',
  },
  TaskAction: {
    action: 'string',
    status: 'string',
  },
  TaskObject: {
    status: 'string default=INIT',
    taskId: 'string',
    policy: 'string',
    catalog: 'string',
    namespace: 'string',
    table: 'string',
    createdAt: 'int64',
    details: 'bytes',
  },
  TimezoneObject: {
    id: 'string',
    displayName: 'string',
    offset: 'int32',
  },
  UnpauseTableRequest: {
    datahubCrn: 'string',
    namespace: 'string',
    tableName: 'string',
  },
  UnpauseTableResponse: {},
  UnsubscribePolicyRequest: {
    datahubCrn: 'string',
    policyName: 'string',
    namespace: 'string',
    tableName: 'string',
  },
  UnsubscribePolicyResponse: {
    policies: '[string]',
  },
  UpdatePolicyRequest: {
    datahubCrn: 'string',
    policyName: 'string',
    resources: 'PolicyResource',
  },
  UpdatePolicyResponse: {},
};

export const operations: WireOperations = {
  changeTablePolicy: { path: '/api/v1/lakehouseopt/changeTablePolicy', mutating: true },
  createAssociations: { path: '/api/v1/lakehouseopt/createAssociations', mutating: true },
  createPolicy: { path: '/api/v1/lakehouseopt/createPolicy', mutating: true },
  createTablePoliciesAssociations: { path: '/api/v1/lakehouseopt/createTablePoliciesAssociations', mutating: true },
  deletePolicy: { path: '/api/v1/lakehouseopt/deletePolicy', mutating: true },
  downloadPolicy: { path: '/api/v1/lakehouseopt/downloadPolicy', mutating: false },
  executePolicy: { path: '/api/v1/lakehouseopt/executePolicy', mutating: true },
  getAssociatedNamespaces: { path: '/api/v1/lakehouseopt/getAssociatedNamespaces', mutating: false },
  getAssociatedTables: { path: '/api/v1/lakehouseopt/getAssociatedTables', mutating: false },
  getAssociationDetails: { path: '/api/v1/lakehouseopt/getAssociationDetails', mutating: false },
  getAssociations: { path: '/api/v1/lakehouseopt/getAssociations', mutating: false },
  getCloDatahub: { path: '/api/v1/lakehouseopt/getCloDatahub', mutating: false },
  getDatahubCrn: { path: '/api/v1/lakehouseopt/getDatahubCrn', mutating: false },
  getHealth: { path: '/api/v1/lakehouseopt/getHealth', mutating: false },
  getNamespaces: { path: '/api/v1/lakehouseopt/getNamespaces', mutating: false },
  getPolicy: { path: '/api/v1/lakehouseopt/getPolicy', mutating: false },
  getPolicyNames: { path: '/api/v1/lakehouseopt/getPolicyNames', mutating: false },
  getScripts: { path: '/api/v1/lakehouseopt/getScripts', mutating: false },
  getTableNames: { path: '/api/v1/lakehouseopt/getTableNames', mutating: false },
  getTablePolicies: { path: '/api/v1/lakehouseopt/getTablePolicies', mutating: false },
  getTableStatusDetails: { path: '/api/v1/lakehouseopt/getTableStatusDetails', mutating: false },
  getTimezones: { path: '/api/v1/lakehouseopt/getTimezones', mutating: false },
  listEnvironments: { path: '/api/v1/lakehouseopt/listEnvironments', mutating: false },
  listPolicies: { path: '/api/v1/lakehouseopt/listPolicies', mutating: false },
  listTables: { path: '/api/v1/lakehouseopt/listTables', mutating: false },
  listTasks: { path: '/api/v1/lakehouseopt/listTasks', mutating: false },
  pauseTable: { path: '/api/v1/lakehouseopt/pauseTable', mutating: true },
  unpauseTable: { path: '/api/v1/lakehouseopt/unpauseTable', mutating: true },
  unsubscribePolicy: { path: '/api/v1/lakehouseopt/unsubscribePolicy', mutating: true },
  updatePolicy: { path: '/api/v1/lakehouseopt/updatePolicy', mutating: true },
};
