/**
 * environments operations on environments, credentials, proxy configurations
 * and ID Broker mappings: unpack the wire request, call the backend, build the
 * wire answer. FreeIPA's are in freeipa-handlers.ts, the account's in
 * account-handlers.ts.
 */
import type { CloudPlatform } from '../../environments.js';
import { perRequest } from '../../service.js';
import type { Doc, Handler } from '../../types.js';
import { bool, docs, num, obj, optBool, str, stringMap, strings, text } from '../../values.js';
import { EnvironmentsBackend, type EnvironmentSpec } from './backend.js';
import { gcpKeyType } from './credentials.js';
import { keytabOf, rootCertificateOf } from './identity.js';
import type { ComputeClusterConfiguration } from './records.js';
import { credentialView, environmentSummary, environmentView, idBrokerView, proxyView } from './views.js';

export const op = perRequest((ctx) => new EnvironmentsBackend(ctx));

/** The environment with its proxy configuration, as describe and create answer it. */
export const described = (b: EnvironmentsBackend, ref: string): Doc => {
  const e = b.environment(ref);
  return environmentView(e, b.freeipa, e.proxyConfigName ? b.proxies(e.proxyConfigName)[0] : undefined);
};

/** A string-valued object's fields ({} when absent). */
const strs = (v: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(obj(v)).filter((x): x is [string, string] => typeof x[1] === 'string'));

/** A compute cluster configuration of a request. */
const computeConfig = (v: unknown): ComputeClusterConfiguration => {
  const c = obj(v);
  return {
    ...(optBool(c.privateCluster) !== undefined ? { privateCluster: bool(c.privateCluster) } : {}),
    ...(Array.isArray(c.kubeApiAuthorizedIpRanges) ? { kubeApiAuthorizedIpRanges: strings(c.kubeApiAuthorizedIpRanges) } : {}),
    ...(Array.isArray(c.workerNodeSubnets) ? { workerNodeSubnets: strings(c.workerNodeSubnets) } : {}),
    ...(str(c.outboundType) ? { outboundType: text(c.outboundType) } : {}),
  };
};

/** The answer of a change that answers the environment. */
const withEnvironment = (b: EnvironmentsBackend, e: { crn: string }, extra: Doc = {}): Doc => ({
  environment: described(b, e.crn),
  ...extra,
});

function createEnvironment(platform: CloudPlatform, gov = false): Handler {
  return op((b, req) => {
    const net = obj(req.existingNetworkParams);
    const auth = obj(req.authentication);
    const access = strs(req.securityAccess);
    const ipa = obj(req.freeIpa);
    const image = obj(req.image);
    const dataServices = obj(obj(req.dataServices).azure);
    const publicKey = str(req.publicKey) ?? str(auth.publicKey);
    const spec: EnvironmentSpec = {
      name: text(req.environmentName),
      platform,
      gov,
      credentialName: text(req.credentialName),
      region: text(req.region),
      description: str(req.description),
      network:
        platform === 'AWS'
          ? { id: str(req.vpcId), subnets: strings(req.subnetIds), cidr: str(req.networkCidr) }
          : platform === 'AZURE'
            ? { id: str(net.networkId), subnets: strings(net.subnetIds) }
            : { id: str(net.networkName), subnets: strings(net.subnetNames) },
      endpointAccessGatewayScheme: str(req.endpointAccessGatewayScheme),
      logStorage: strs(req.logStorage),
      authentication:
        publicKey || str(auth.publicKeyId)
          ? {
              ...(publicKey ? { publicKey } : {}),
              ...(str(auth.publicKeyId) ? { publicKeyId: text(auth.publicKeyId) } : {}),
              loginUserName: 'cloudbreak',
            }
          : undefined,
      securityAccess: Object.keys(access).length > 0 ? access : undefined,
      usePublicIp: bool(req.usePublicIp),
      freeipa: {
        instanceCountByGroup: num(ipa.instanceCountByGroup) ?? 1,
        multiAz: bool(ipa.multiAz),
        recipes: strings(ipa.recipes),
        instanceType: str(ipa.instanceType),
        image: { id: str(image.id), os: str(image.os), catalog: str(image.catalog) },
      },
      tags: Object.fromEntries(docs(req.tags).map((t) => [text(t.key), text(t.value)])),
      proxyConfigName: str(req.proxyConfigName),
      workloadAnalytics: optBool(req.workloadAnalytics),
      enableComputeCluster: bool(req.enableComputeCluster),
      computeCluster: req.computeClusterConfiguration ? computeConfig(req.computeClusterConfiguration) : undefined,
      environmentType: req.environmentType === 'HYBRID' ? 'HYBRID' : undefined,
      enableTunnel: optBool(req.enableTunnel) ?? true,
      encryptionKeyArn: str(req.encryptionKeyArn),
      customDockerRegistry: str(obj(req.customDockerRegistry).crn),
      availabilityZones: strings(req.availabilityZones),
      endpointAccessGatewaySubnetIds: strings(req.endpointAccessGatewaySubnetIds),
      azure: {
        resourceGroupName: str(req.resourceGroupName) ?? str(net.resourceGroupName),
        sharedManagedIdentity: str(dataServices.sharedManagedIdentity),
        aksPrivateDnsZoneId: str(dataServices.aksPrivateDnsZoneId) ?? str(net.aksPrivateDnsZoneId),
        databasePrivateDnsZoneId: str(net.databasePrivateDnsZoneId),
        flexibleServerSubnetIds: strings(req.flexibleServerSubnetIds),
        encryptionKeyUrl: str(req.encryptionKeyUrl),
        encryptionKeyResourceGroupName: str(req.encryptionKeyResourceGroupName),
        encryptionUserManagedIdentity: str(req.encryptionUserManagedIdentity),
      },
    };
    const env = b.create(spec);
    return { environment: described(b, env.crn) };
  });
}

const credential = (c: ReturnType<EnvironmentsBackend['createCredential']>): Doc => ({ credential: credentialView(c) });

/** What runs in an environment that is not a data service. */
const NOT_DATA_SERVICES = ['datalake', 'datahub', 'environments'];

function trustCommands(b: EnvironmentsBackend, ref: string, cleanup: boolean): Doc {
  const c = b.changes.trustCommands(ref, cleanup);
  return {
    environment: c.environment,
    kdcType: 'ACTIVE_DIRECTORY',
    activeDirectoryCommands: { commands: c.ad },
    baseClusterCommands: { krb5Conf: c.krb5 },
  };
}

export const handlers: Record<string, Handler> = {
  // credentials
  createAWSCredential: op((b, req) =>
    credential(
      b.createCredential({
        credentialName: text(req.credentialName),
        cloudPlatform: 'AWS',
        description: str(req.description),
        awsCredentialProperties: { roleArn: text(req.roleArn), govCloud: false },
      }),
    ),
  ),
  createAWSGovCloudCredential: op((b, req) =>
    credential(
      b.createCredential({
        credentialName: text(req.credentialName),
        cloudPlatform: 'AWS',
        description: str(req.description),
        awsCredentialProperties: { roleArn: text(req.roleArn), govCloud: true },
      }),
    ),
  ),
  createAzureCredential: op((b, req) => {
    const app = obj(req.appBased);
    return credential(
      b.createCredential({
        credentialName: text(req.credentialName),
        cloudPlatform: 'AZURE',
        description: str(req.description),
        azureCredentialProperties: {
          subscriptionId: str(req.subscriptionId),
          tenantId: str(req.tenantId),
          appId: str(app.applicationId),
          authenticationType: str(app.authenticationType) ?? 'SECRET',
        },
      }),
    );
  }),
  createGCPCredential: op((b, req) =>
    credential(
      b.createCredential({
        credentialName: text(req.credentialName),
        cloudPlatform: 'GCP',
        description: str(req.description),
        gcpCredentialProperties: { keyType: gcpKeyType(text(req.credentialKey)) },
      }),
    ),
  ),
  listCredentials: op((b, req) => ({ credentials: b.credentials(str(req.credentialName)).map(credentialView) })),
  deleteCredential: op((b, req) => {
    b.deleteCredential(text(req.credentialName));
    return {};
  }),

  // proxy configurations
  createProxyConfig: op((b, req) => ({
    proxyConfig: proxyView(
      b.createProxy({
        proxyConfigName: text(req.proxyConfigName),
        protocol: text(req.protocol),
        host: text(req.host),
        port: num(req.port) ?? 0,
        description: str(req.description),
        noProxyHosts: str(req.noProxyHosts),
        user: str(req.user),
        hasPassword: str(req.password) !== undefined,
      }),
    ),
  })),
  listProxyConfigs: op((b, req) => ({ proxyConfigs: b.proxies(str(req.proxyConfigName)).map(proxyView) })),
  deleteProxyConfig: op((b, req) => {
    b.deleteProxy(text(req.proxyConfigName));
    return {};
  }),
  updateProxyConfig: op((b, req) => {
    b.setProxy(text(req.environment), bool(req.removeProxy) ? undefined : str(req.proxyConfigName));
    return {};
  }),

  // environments
  createAWSEnvironment: createEnvironment('AWS'),
  createAWSGovCloudEnvironment: createEnvironment('AWS', true),
  createAzureEnvironment: createEnvironment('AZURE'),
  createGCPEnvironment: createEnvironment('GCP'),
  describeEnvironment: op((b, req) => ({ environment: described(b, text(req.environmentName)) })),
  listEnvironments: op((b) => ({ environments: b.environments().map(environmentSummary) })),
  deleteEnvironment: op((b, req) => {
    b.delete(text(req.environmentName), { cascading: bool(req.cascading), forced: bool(req.forced) });
    return {};
  }),
  stopEnvironment: op((b, req) => ({ operationId: b.stop(text(req.environmentName)) })),
  startEnvironment: op((b, req) => ({ operationId: b.start(text(req.environmentName), bool(req.withDatahubStart)) })),
  getOperation: op((b, req) => b.operations.view(b.operation(text(req.environmentName), str(req.operationId)))),
  changeEnvironmentCredential: op((b, req) => ({
    environment: environmentSummary(b.changeCredential(text(req.environmentName), text(req.credentialName))),
  })),
  updateTags: op((b, req) => {
    const e = b.updateTags(text(req.environment), stringMap(req.tags));
    return { environment: described(b, e.crn) };
  }),

  createPrivateEnvironment: op((b, req) => {
    const quota = obj(req.environmentQuota);
    const e = b.changes.createPrivate({
      name: text(req.environmentName),
      description: str(req.description),
      address: text(req.address),
      user: text(req.user),
      clusterNames: strings(req.clusterNames),
      platform: str(req.platform) ?? 'OPENSHIFT',
      namespacePrefix: str(req.namespacePrefix) ?? 'cdp',
      ...(str(req.domain) ? { domain: text(req.domain) } : {}),
      ...(str(req.storageClass) ? { storageClass: text(req.storageClass) } : {}),
      ...(Object.keys(quota).length > 0
        ? { quota: { cpuQuota: num(quota.cpuQuota), memoryQuota: num(quota.memoryQuota), gpuQuota: num(quota.gpuQuota) } }
        : {}),
    });
    return withEnvironment(b, e);
  }),

  // settings new Data Hubs take
  updateSubnet: op((b, req) =>
    withEnvironment(b, b.changes.updateSubnets(text(req.environment), strings(req.subnetIds), strings(req.endpointAccessGatewaySubnetIds))),
  ),
  updateSecurityAccess: op((b, req) =>
    withEnvironment(
      b,
      b.changes.updateSecurityAccess(text(req.environment), text(req.gatewayNodeSecurityGroupId), text(req.defaultSecurityGroupId)),
    ),
  ),
  updateSshKey: op((b, req) =>
    withEnvironment(
      b,
      b.changes.updateSshKey(text(req.environment), { publicKey: str(req.newPublicKey), publicKeyId: str(req.existingPublicKeyId) }),
    ),
  ),
  updateAwsDiskEncryptionParameters: op((b, req) => {
    const e = b.changes.updateAwsEncryption(text(req.environment), text(req.encryptionKeyArn));
    return withEnvironment(b, e, { awsDiskEncryptionParameters: { encryptionKeyArn: e.encryptionKeyArn } });
  }),
  updateAzureEncryptionResources: op((b, req) => {
    const e = b.changes.updateAzureEncryption(text(req.environment), {
      encryptionKeyUrl: text(req.encryptionKeyUrl),
      ...(str(req.encryptionKeyResourceGroupName) ? { encryptionKeyResourceGroupName: text(req.encryptionKeyResourceGroupName) } : {}),
      ...(str(req.encryptionUserManagedIdentity) ? { encryptionUserManagedIdentity: text(req.encryptionUserManagedIdentity) } : {}),
    });
    return withEnvironment(b, e, { resourceEncryptionParameters: e.azureDetails?.resourceEncryptionParameters });
  }),
  updateAzureDatabaseResources: op((b, req) => {
    const e = b.changes.updateAzureDatabase(text(req.environment), str(req.databasePrivateDnsZoneId), strings(req.flexibleServerSubnetIds));
    const net = e.network.azure;
    return withEnvironment(b, e, {
      azureDatabaseResources: {
        databasePrivateDnsZoneId: net?.databasePrivateDnsZoneId,
        flexibleServerSubnetIds: net?.flexibleServerSubnetIds,
      },
    });
  }),
  updateAzureAvailabilityZones: op((b, req) =>
    withEnvironment(b, b.changes.updateAzureZones(text(req.environment), strings(req.availabilityZones))),
  ),
  updateCustomDockerRegistry: op((b, req) =>
    withEnvironment(b, b.changes.updateDockerRegistry(text(req.environment), text(req.customDockerRegistry))),
  ),
  updateDataServiceResources: op((b, req) => {
    const azure = obj(obj(req.dataServices).azure);
    return withEnvironment(
      b,
      b.changes.updateDataServices(text(req.environment), {
        sharedManagedIdentity: str(azure.sharedManagedIdentity),
        aksPrivateDnsZoneId: str(azure.aksPrivateDnsZoneId),
      }),
    );
  }),
  setTelemetryFeatures: op((b, req) => {
    b.changes.setTelemetry(text(req.environmentName), optBool(req.workloadAnalytics));
    return {};
  }),

  // changes that take time
  upgradeCcm: op((b, req) => ({ operationId: b.changes.upgradeCcm(text(req.environment)) })),
  initializeAWSComputeCluster: op((b, req) => ({
    operationId: b.changes.initializeComputeCluster(text(req.environmentName), 'AWS', computeConfig(req.computeClusterConfiguration)),
  })),
  initializeAzureComputeCluster: op((b, req) => ({
    operationId: b.changes.initializeComputeCluster(text(req.environmentName), 'AZURE', computeConfig(req.computeClusterConfiguration)),
  })),
  setEndpointAccessGateway: op((b, req) => ({
    operationId: b.changes.setEndpointAccessGateway(
      text(req.environment),
      req.endpointAccessGatewayScheme === 'PUBLIC' ? 'PUBLIC' : 'PRIVATE',
      strings(req.endpointAccessGatewaySubnetIds),
    ),
  })),

  // cross-realm trust
  setupActiveDirectoryTrust: op((b, req) => {
    const id = b.changes.setupTrust(text(req.environment), {
      realm: text(req.kdcRealm),
      kdcServers: docs(req.kdcServers).map((k) => ({ fqdn: text(k.fqdn), ip: text(k.ip) })),
      dnsServerIps: strings(req.dnsServerIps),
      remoteEnvironmentCrn: text(req.remoteEnvironmentCrn),
    });
    return { flowId: id };
  }),
  finishSetupTrust: op((b, req) => {
    const id = b.changes.finishTrust(text(req.environment));
    return { flowId: id, operationId: id };
  }),
  cancelTrust: op((b, req) => {
    const id = b.changes.cancelTrust(text(req.environment));
    return { flowId: id, operationId: id };
  }),
  repairTrust: op((b, req) => {
    const id = b.changes.repairTrust(text(req.environment));
    return { flowId: id, operationId: id };
  }),
  getTrustSetupCommands: op((b, req) => trustCommands(b, text(req.environment), false)),
  getTrustCleanupCommands: op((b, req) => trustCommands(b, text(req.environment), true)),

  // what an environment hands out
  getKeytab: op((b, req, ctx) => {
    const e = b.environment(text(req.environmentName));
    b.freeipa.of(e);
    return { contents: keytabOf(b.ctx, e, str(req.actorCrn) ?? ctx.caller.actorCrn) };
  }),
  getRootCertificate: op((b, req) => {
    const e = b.environment(text(req.environmentName));
    b.freeipa.of(e);
    const cert = rootCertificateOf(e);
    if (cert.made) b.envs.save(Object.assign(e, { rootCertificate: cert.pem }));
    return { contents: cert.pem };
  }),
  listConnectedDataServices: op((b, req) => {
    const e = b.environment(text(req.environment));
    const byService = new Map<string, string[]>();
    for (const d of b.ctx.world.inEnvironment(b.ctx, e.crn))
      if (!NOT_DATA_SERVICES.includes(d.service)) byService.set(d.service, [...(byService.get(d.service) ?? []), d.name]);
    return { result: [...byService].map(([name, clusters]) => ({ name, clusters })) };
  }),

  // ID Broker mappings
  getIdBrokerMappings: op((b, req) => idBrokerView(b.idBroker(text(req.environmentName)))),
  setIdBrokerMappings: op((b, req) =>
    idBrokerView(
      b.setIdBroker(text(req.environmentName), {
        dataAccessRole: text(req.dataAccessRole),
        rangerAuditRole: str(req.rangerAuditRole) ?? text(req.dataAccessRole),
        rangerCloudAccessAuthorizerRole: str(req.rangerCloudAccessAuthorizerRole),
        baselineRole: str(req.baselineRole),
        mappings: docs(req.mappings).map((m) => ({ accessorCrn: text(m.accessorCrn), role: text(m.role) })),
      }),
    ),
  ),
  syncIdBrokerMappings: op((b, req) => {
    b.syncIdBroker(text(req.environmentName));
    return {};
  }),
  getIdBrokerMappingsSyncStatus: op((b, req) => {
    const m = b.idBroker(text(req.environmentName));
    return {
      syncNeeded: m.syncedVersion !== m.mappingsVersion,
      globalStatus: m.mappingsVersion === 0 ? 'NEVER_RUN' : 'COMPLETED',
      statuses: {},
    };
  }),
};
