/** environments operations: unpack the wire request, call the backend, build the wire answer. */
import type { CloudPlatform } from '../../environments.js';
import { perRequest } from '../../service.js';
import type { Doc, Handler } from '../../types.js';
import { bool, docs, num, obj, optBool, str, stringMap, strings, text } from '../../values.js';
import { EnvironmentsBackend, type EnvironmentSpec } from './backend.js';
import { credentialView, environmentSummary, environmentView, freeipaStatusView, idBrokerView, proxyView } from './views.js';

const op = perRequest((ctx) => new EnvironmentsBackend(ctx));

/** The environment with its proxy configuration, as describe and create answer it. */
const described = (b: EnvironmentsBackend, ref: string): Doc => {
  const e = b.environment(ref);
  return environmentView(e, e.proxyConfigName ? b.proxies(e.proxyConfigName)[0] : undefined);
};

/** A string-valued object's fields ({} when absent). */
const strs = (v: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(obj(v)).filter((x): x is [string, string] => typeof x[1] === 'string'));

function createEnvironment(platform: CloudPlatform, gov = false): Handler {
  return op((b, req) => {
    const net = obj(req.existingNetworkParams);
    const auth = obj(req.authentication);
    const access = strs(req.securityAccess);
    const ipa = obj(req.freeIpa);
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
      freeipa: { instanceCountByGroup: num(ipa.instanceCountByGroup) ?? 1, multiAz: bool(ipa.multiAz), recipes: strings(ipa.recipes) },
      tags: Object.fromEntries(docs(req.tags).map((t) => [text(t.key), text(t.value)])),
      proxyConfigName: str(req.proxyConfigName),
      workloadAnalytics: optBool(req.workloadAnalytics),
      enableComputeCluster: bool(req.enableComputeCluster),
    };
    const env = b.create(spec);
    return { environment: described(b, env.crn) };
  });
}

const credential = (c: ReturnType<EnvironmentsBackend['createCredential']>): Doc => ({ credential: credentialView(c) });

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
  createGCPCredential: op((b, req) => {
    // The key itself is never kept: only that one was given.
    let keyType = 'JSON';
    try {
      JSON.parse(Buffer.from(text(req.credentialKey), 'base64').toString('utf8'));
    } catch {
      keyType = 'P12';
    }
    return credential(
      b.createCredential({
        credentialName: text(req.credentialName),
        cloudPlatform: 'GCP',
        description: str(req.description),
        gcpCredentialProperties: { keyType },
      }),
    );
  }),
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
  startEnvironment: op((b, req) => ({ operationId: b.start(text(req.environmentName)) })),
  getOperation: op((b, req) => b.operations.view(b.operation(text(req.environmentName), str(req.operationId)))),
  changeEnvironmentCredential: op((b, req) => ({
    environment: environmentSummary(b.changeCredential(text(req.environmentName), text(req.credentialName))),
  })),
  updateTags: op((b, req) => {
    const e = b.updateTags(text(req.environment), stringMap(req.tags));
    return { environment: described(b, e.crn) };
  }),

  // FreeIPA
  getFreeipaStatus: op((b, req) => freeipaStatusView(b.environment(text(req.environmentName)))),

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
