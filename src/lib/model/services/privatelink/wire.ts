// Wire shapes and operation facts of the cloudprivatelinks service, in the
// project's model format (see ../../shapes.ts). Regenerate with
// scripts/import-facts.mjs; CLI decorations live in ./index.ts.
import type { Shapes, WireOperations } from '../../wire.js';

export const shapes: Shapes = {
  AWSAccountDetails: {
    cloudAccountId: 'string',
    crossAccountRoleDetails: 'CrossAccountRoleDetails',
    credentialCrn: 'string',
    region: 'string',
    vpcId: 'string',
    subnetIds: '[string]',
  },
  AWSAccountInfo: {
    crossAccountRoleDetails: 'CrossAccountRoleDetails',
    credentialCrn: 'string',
    region: 'string',
    vpcId: 'string',
  },
  AuthorizePrivateLinkServiceAccessRequest: {
    cloudAccountId: 'string',
    subscriptionId: 'string',
    region: 'string',
    serviceGroup: 'string',
    cloudServiceProvider: 'CloudServiceProvider',
  },
  AuthorizePrivateLinkServiceAccessResponse: {
    authorizePrivateLinkServiceAccessResults: '[AuthorizePrivateLinkServiceAccessResult]',
    status: 'string',
  },
  AuthorizePrivateLinkServiceAccessResult: {
    privateLinkService: 'string',
    serviceComponent: 'string',
    authorizationStatus: 'string',
    availabilityZoneList: 'string',
    vpceClientTcpPortList: 'string',
    hostname: 'string',
  },
  AzureAccountDetails: {
    azureClientSecretCredential: 'AzureClientSecretCredential',
    credentialCrn: 'string',
    subscriptionId: 'string',
    resourceGroup: 'string',
    location: 'string',
    vNetId: 'string',
    subnetId: 'string',
  },
  AzureAccountInfo: {
    azureClientSecretCredential: 'AzureClientSecretCredential',
    credentialCrn: 'string',
    location: 'string',
    vNetId: 'string',
  },
  AzureClientSecretCredential: {
    clientId: 'string',
    clientSecret: 'string',
    tenantId: 'string',
  },
  CloudServiceProvider: 'enum AWS AZURE',
  CreatePrivateLinkEndpointRequest: {
    cloudServiceProvider: 'CloudServiceProvider!',
    enablePrivateDns: 'boolean',
    serviceGroup: 'string',
    awsAccountDetails: 'AWSAccountDetails',
    azureAccountDetails: 'AzureAccountDetails',
    resourceTags: '[ResourceTag]',
  },
  CreatePrivateLinkEndpointResponse: {
    trackingId: 'string',
  },
  CrossAccountRoleDetails: {
    crossAccountRole: 'string',
    externalId: 'string',
  },
  DeletePrivateLinkEndpointRequest: {
    cloudServiceProvider: 'CloudServiceProvider!',
    awsAccountInfo: 'AWSAccountInfo',
    azureAccountInfo: 'AzureAccountInfo',
  },
  DeletePrivateLinkEndpointResponse: {
    trackingId: 'string',
  },
  Error: {
    code: 'string',
    message: 'string',
  },
  GetPrivateLinkStatusRequest: {
    subnetIds: '[string] deprecated',
    vNetId: 'string',
    vpcId: 'string',
    cloudServiceProvider: 'CloudServiceProvider',
  },
  GetPrivateLinkStatusResponse: {
    status: 'PrivateLinkStatus',
  },
  ListPrivateLinkEndpointStatusesRequest: {
    trackingId: 'string!',
  },
  ListPrivateLinkEndpointStatusesResponse: {
    privatelinkEndpoints: '[PrivateLinkEndpointStatus]',
  },
  ListPrivateLinkServicesForRegionRequest: {
    region: 'string!',
    serviceGroup: 'string',
  },
  ListPrivateLinkServicesForRegionResponse: {
    listPrivateLinkServicesForRegionResults: '[ListPrivateLinkServicesForRegionResult]',
  },
  ListPrivateLinkServicesForRegionResult: {
    serviceComponent: 'string',
    privateLinkService: 'string',
    availabilityZoneList: 'string',
    vpceClientTcpPortList: 'string',
    hostname: 'string',
  },
  MigratePrivateLinkEndpointsRequest: {
    awsAccountInfo: 'AWSAccountInfo!',
  },
  MigratePrivateLinkEndpointsResponse: {
    trackingId: 'string',
  },
  PrivateLinkEndpointStatus: {
    serviceComponent: 'string',
    status: 'string',
    error: 'string',
    endpointId: 'string',
    dnsNames: '[string]',
    creationTimestamp: 'string',
  },
  PrivateLinkStatus: 'enum ENABLED DISABLED ERROR',
  ResourceTag: {
    key: 'string!',
    value: 'string!',
  },
  RevokePrivateLinkServiceAccessRequest: {
    cloudAccountId: 'string',
    subscriptionId: 'string',
    region: 'string',
    serviceGroup: 'string',
    cloudServiceProvider: 'CloudServiceProvider',
  },
  RevokePrivateLinkServiceAccessResponse: {
    status: 'string',
    revokePrivateLinkServiceAccessResults: '[RevokePrivateLinkServiceAccessResult]',
  },
  RevokePrivateLinkServiceAccessResult: {
    privateLinkService: 'string',
    serviceComponent: 'string',
    revocationStatus: 'string',
  },
  UpdateOperation: 'enum APPEND REPLACE',
  UpdatePrivateLinkEndpointRequest: {
    cloudServiceProvider: 'CloudServiceProvider',
    awsAccountInfo: 'AWSAccountInfo',
    azureAccountInfo: 'AzureAccountInfo',
    subnetIds: '[string]',
    resourceTags: '[ResourceTag]',
    updateOperation: 'UpdateOperation',
    resourceGroup: 'string',
  },
  UpdatePrivateLinkEndpointResponse: {
    trackingId: 'string',
  },
};

export const operations: WireOperations = {
  authorizePrivateLinkServiceAccess: { path: '/api/v1/cloudprivatelinks/authorizePrivateLinkServiceAccess', mutating: true },
  createPrivateLinkEndpoint: { path: '/api/v1/cloudprivatelinks/createPrivateLinkEndpoint', mutating: true },
  deletePrivateLinkEndpoint: { path: '/api/v1/cloudprivatelinks/deletePrivateLinkEndpoint', mutating: true },
  getPrivateLinkStatus: { path: '/api/v1/cloudprivatelinks/getPrivateLinkStatus', mutating: false },
  listPrivateLinkEndpointStatuses: { path: '/api/v1/cloudprivatelinks/listPrivateLinkEndpointStatuses', mutating: false },
  listPrivateLinkServicesForRegion: { path: '/api/v1/cloudprivatelinks/listPrivateLinkServicesForRegion', mutating: false },
  migratePrivateLinkEndpoints: { path: '/api/v1/cloudprivatelinks/migratePrivateLinkEndpoints', mutating: true },
  revokePrivateLinkServiceAccess: { path: '/api/v1/cloudprivatelinks/revokePrivateLinkServiceAccess', mutating: true },
  updatePrivateLinkEndpoint: { path: '/api/v1/cloudprivatelinks/updatePrivateLinkEndpoint', mutating: true },
};
