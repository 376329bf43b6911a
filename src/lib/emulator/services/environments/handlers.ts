/**
 * environments operations on environments, credentials, proxy configurations
 * and ID Broker mappings: unpack the wire request, call the backend, build the
 * wire answer. FreeIPA's are in freeipa-handlers.ts, the account's in
 * account-handlers.ts.
 */
import type { CloudPlatform } from '../../environments.js';
import type { Hook } from '../../engine/declare.js';
import { createHash } from 'node:crypto';
import type { Doc } from '../../types.js';
import { bool, compact, docs, num, obj, optBool, str, stringMap, strings, text } from '../../values.js';
import { backendOf, type EnvironmentsBackend, type EnvironmentSpec, type R } from './backend.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, invalid } from '../../errors.js';
import { gcpKeyType, selfSignedCertificate } from './credentials.js';
import { keytabOf, rootCertificateOf } from './identity.js';
import type { ComputeClusterConfiguration, CredentialRec } from './records.js';
import { environmentSummary, environmentView } from './views.js';

/** The environment with its proxy configuration, as describe and create answer it. */
export const described = (b: EnvironmentsBackend, ref: string): Doc => {
  const e = b.environment(ref);
  return environmentView(e, b.freeipa, e.proxyConfigName ? b.h.records('proxyConfig').find(e.proxyConfigName)?.doc : undefined);
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

/** The create of a public cloud environment of a platform. */
function createEnvironment(platform: CloudPlatform, gov = false): (b: EnvironmentsBackend, req: Doc) => Doc {
  return (b, req) => {
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
  };
}

export const createAWSEnvironment = createEnvironment('AWS');
export const createAWSGovCloudEnvironment = createEnvironment('AWS', true);
export const createAzureEnvironment = createEnvironment('AZURE');
export const createGCPEnvironment = createEnvironment('GCP');

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
// credentials
/** The cloud a credential create is for, by its operation. */
const CREDENTIAL_CLOUD: Readonly<Record<string, CloudPlatform>> = { createAzureCredential: 'AZURE', createGCPCredential: 'GCP' };

/** What a create request makes of a credential: its cloud and that cloud's properties, never its secrets. */
export function credentialFields(h: Hook<R>, _rec: Readonly<EngineRecord>, req: Doc): Doc {
  const cloudPlatform = CREDENTIAL_CLOUD[h.ctx.op.name] ?? 'AWS';
  if (cloudPlatform === 'GCP') return { cloudPlatform, gcpCredentialProperties: { keyType: gcpKeyType(text(req.credentialKey)) } };
  if (cloudPlatform === 'AWS')
    return {
      cloudPlatform,
      awsCredentialProperties: { roleArn: text(req.roleArn), govCloud: h.ctx.op.name === 'createAWSGovCloudCredential' },
    };
  const app = obj(req.appBased);
  return {
    cloudPlatform,
    azureCredentialProperties: compact({
      subscriptionId: str(req.subscriptionId),
      tenantId: str(req.tenantId),
      appId: str(app.applicationId),
      authenticationType: str(app.authenticationType) ?? 'SECRET',
    }),
  };
}

/** Records of a resource that the request's field names (a name in any case, or a CRN); all of them when it names none. */
const namedBy =
  (resource: R, field: string) =>
  (h: Hook<R>, req: Doc): EngineRecord[] => {
    const ref = str(req[field]);
    const all = h.records(resource).all('');
    return ref ? all.filter((p) => p.name?.toLowerCase() === ref.toLowerCase() || p.crn === ref) : all;
  };

/** The credentials, or those the request names. */
export const credentialsNamed = namedBy('credential', 'credentialName');

/** Refuses deleting a record that environments use (their field `field` names it); `hint` tells what to do. */
const unusedBy =
  (field: 'credentialName' | 'proxyConfigName', noun: string, hint: string) =>
  (h: Hook<R>, rec: Readonly<EngineRecord>): void => {
    const using = backendOf(h)
      .environments()
      .filter((e) => e[field] === rec.name);
    if (using.length > 0)
      throw failedPrecondition(
        `${noun} ${rec.name ?? rec.id} is used by environment ${using.map((e) => e.environmentName).join(', ')}; ${hint}`,
      );
  };

/** A credential an environment uses is not deleted. */
export const credentialInUse = unusedBy('credentialName', 'credential', 'change their credential or delete them first');

/** An AWS credential update: another role of its partition; `fail-` role names cannot be assumed when permissions are verified. */
export function awsCredentialChange(h: Hook<R>, sent: Doc): Doc {
  const c = h.locate('credential', sent).doc as unknown as CredentialRec;
  const props = c.awsCredentialProperties;
  if (c.cloudPlatform !== 'AWS' || !props)
    throw invalid(`credential ${c.credentialName} is an ${c.cloudPlatform} credential; update it with its own cloud's command`);
  const partition = props.govCloud ? 'aws-us-gov' : 'aws';
  const roleArn = text(sent.roleArn);
  const arn = new RegExp(`^arn:${partition}:iam::\\d{12}:role/(.+)$`).exec(roleArn);
  if (!arn) throw invalid(`${roleArn.slice(0, 200)} is not an IAM role ARN of the ${partition} partition`);
  const verifyPermissions = bool(sent.verifyPermissions);
  if (verifyPermissions && /(^|\/)fail-/.test(arn[1] ?? ''))
    throw failedPrecondition(
      `the control plane could not assume ${roleArn} (a role named fail-... fails on purpose); the credential is unchanged`,
    );
  return {
    credentialName: sent.credentialName,
    description: sent.description,
    skipOrgPolicyDecisions: bool(sent.skipOrgPolicyDecisions),
    verifyPermissions,
    awsCredentialProperties: { ...props, roleArn },
  };
}

/** An Azure credential update: its subscription, tenant or app; a certificate-based one gets a new certificate. */
export function azureCredentialChange(h: Hook<R>, sent: Doc): Doc {
  const c = h.locate('credential', sent).doc as unknown as CredentialRec;
  if (c.cloudPlatform !== 'AZURE')
    throw invalid(`credential ${c.credentialName} is an ${c.cloudPlatform} credential; update it with its own cloud's command`);
  const app = obj(sent.appBased);
  const tenantId = text(sent.tenantId);
  const type = str(app.authenticationType) ?? c.azureCredentialProperties?.authenticationType ?? 'SECRET';
  const certificate =
    type === 'CERTIFICATE'
      ? selfSignedCertificate({ commonName: c.credentialName, organization: tenantId }, h.ctx.clock.now(), 1)
      : undefined;
  return {
    credentialName: sent.credentialName,
    description: sent.description,
    azureCredentialProperties: compact({
      subscriptionId: text(sent.subscriptionId),
      tenantId,
      appId: str(app.applicationId) ?? c.azureCredentialProperties?.appId,
      authenticationType: type,
      certificate: certificate && {
        status: 'ACTIVE',
        expirationDate: new Date(certificate.notAfter).toISOString(),
        sha512: createHash('sha512').update(certificate.der).digest('hex'),
        base64: certificate.der.toString('base64'),
      },
    }),
  };
}

// proxy configurations
/** A proxy configuration's password goes to the cloud, never into its record. */
export const withoutPassword = (_h: Hook<R>, { password: _password, ...rest }: Doc): Doc => rest;

/** The proxy configurations, or those the request names. */
export const proxiesNamed = namedBy('proxyConfig', 'proxyConfigName');

/** A proxy configuration an environment uses is not deleted. */
export const proxyInUse = unusedBy('proxyConfigName', 'proxy configuration', 'remove it from them first');

export const updateProxyConfig = (b: EnvironmentsBackend, req: Doc): Doc => {
  b.setProxy(text(req.environment), bool(req.removeProxy) ? undefined : str(req.proxyConfigName));
  return {};
};

export const describeEnvironment = (b: EnvironmentsBackend, req: Doc): Doc => ({ environment: described(b, text(req.environmentName)) });

export const listEnvironments = (b: EnvironmentsBackend): Doc => ({ environments: b.environments().map(environmentSummary) });

export const deleteEnvironment = (b: EnvironmentsBackend, req: Doc): Doc => {
  b.delete(text(req.environmentName), { cascading: bool(req.cascading), forced: bool(req.forced) });
  return {};
};

export const stopEnvironment = (b: EnvironmentsBackend, req: Doc): Doc => ({ operationId: b.stop(text(req.environmentName)) });

export const startEnvironment = (b: EnvironmentsBackend, req: Doc): Doc => ({
  operationId: b.start(text(req.environmentName), bool(req.withDatahubStart)),
});

export const getOperation = (b: EnvironmentsBackend, req: Doc): Doc =>
  b.operations.view(b.operation(text(req.environmentName), str(req.operationId)));

export const changeEnvironmentCredential = (b: EnvironmentsBackend, req: Doc): Doc => ({
  environment: environmentSummary(b.changeCredential(text(req.environmentName), text(req.credentialName))),
});

export const updateTags = (b: EnvironmentsBackend, req: Doc): Doc => {
  const e = b.updateTags(text(req.environment), stringMap(req.tags));
  return { environment: described(b, e.crn) };
};

export const createPrivateEnvironment = (b: EnvironmentsBackend, req: Doc): Doc => {
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
};

// settings new Data Hubs take
export const updateSubnet = (b: EnvironmentsBackend, req: Doc): Doc =>
  withEnvironment(b, b.changes.updateSubnets(text(req.environment), strings(req.subnetIds), strings(req.endpointAccessGatewaySubnetIds)));

export const updateSecurityAccess = (b: EnvironmentsBackend, req: Doc): Doc =>
  withEnvironment(
    b,
    b.changes.updateSecurityAccess(text(req.environment), text(req.gatewayNodeSecurityGroupId), text(req.defaultSecurityGroupId)),
  );

export const updateSshKey = (b: EnvironmentsBackend, req: Doc): Doc =>
  withEnvironment(
    b,
    b.changes.updateSshKey(text(req.environment), { publicKey: str(req.newPublicKey), publicKeyId: str(req.existingPublicKeyId) }),
  );

export const updateAwsDiskEncryptionParameters = (b: EnvironmentsBackend, req: Doc): Doc => {
  const e = b.changes.updateAwsEncryption(text(req.environment), text(req.encryptionKeyArn));
  return withEnvironment(b, e, { awsDiskEncryptionParameters: { encryptionKeyArn: e.encryptionKeyArn } });
};

export const updateAzureEncryptionResources = (b: EnvironmentsBackend, req: Doc): Doc => {
  const e = b.changes.updateAzureEncryption(text(req.environment), {
    encryptionKeyUrl: text(req.encryptionKeyUrl),
    ...(str(req.encryptionKeyResourceGroupName) ? { encryptionKeyResourceGroupName: text(req.encryptionKeyResourceGroupName) } : {}),
    ...(str(req.encryptionUserManagedIdentity) ? { encryptionUserManagedIdentity: text(req.encryptionUserManagedIdentity) } : {}),
  });
  return withEnvironment(b, e, { resourceEncryptionParameters: e.azureDetails?.resourceEncryptionParameters });
};

export const updateAzureDatabaseResources = (b: EnvironmentsBackend, req: Doc): Doc => {
  const e = b.changes.updateAzureDatabase(text(req.environment), str(req.databasePrivateDnsZoneId), strings(req.flexibleServerSubnetIds));
  const net = e.network.azure;
  return withEnvironment(b, e, {
    azureDatabaseResources: {
      databasePrivateDnsZoneId: net?.databasePrivateDnsZoneId,
      flexibleServerSubnetIds: net?.flexibleServerSubnetIds,
    },
  });
};

export const updateAzureAvailabilityZones = (b: EnvironmentsBackend, req: Doc): Doc =>
  withEnvironment(b, b.changes.updateAzureZones(text(req.environment), strings(req.availabilityZones)));

export const updateCustomDockerRegistry = (b: EnvironmentsBackend, req: Doc): Doc =>
  withEnvironment(b, b.changes.updateDockerRegistry(text(req.environment), text(req.customDockerRegistry)));

export const updateDataServiceResources = (b: EnvironmentsBackend, req: Doc): Doc => {
  const azure = obj(obj(req.dataServices).azure);
  return withEnvironment(
    b,
    b.changes.updateDataServices(text(req.environment), {
      sharedManagedIdentity: str(azure.sharedManagedIdentity),
      aksPrivateDnsZoneId: str(azure.aksPrivateDnsZoneId),
    }),
  );
};

export const setTelemetryFeatures = (b: EnvironmentsBackend, req: Doc): Doc => {
  b.changes.setTelemetry(text(req.environmentName), optBool(req.workloadAnalytics));
  return {};
};

// changes that take time
export const upgradeCcm = (b: EnvironmentsBackend, req: Doc): Doc => ({ operationId: b.changes.upgradeCcm(text(req.environment)) });

export const initializeAWSComputeCluster = (b: EnvironmentsBackend, req: Doc): Doc => ({
  operationId: b.changes.initializeComputeCluster(text(req.environmentName), 'AWS', computeConfig(req.computeClusterConfiguration)),
});

export const initializeAzureComputeCluster = (b: EnvironmentsBackend, req: Doc): Doc => ({
  operationId: b.changes.initializeComputeCluster(text(req.environmentName), 'AZURE', computeConfig(req.computeClusterConfiguration)),
});

export const setEndpointAccessGateway = (b: EnvironmentsBackend, req: Doc): Doc => ({
  operationId: b.changes.setEndpointAccessGateway(
    text(req.environment),
    req.endpointAccessGatewayScheme === 'PUBLIC' ? 'PUBLIC' : 'PRIVATE',
    strings(req.endpointAccessGatewaySubnetIds),
  ),
});

// cross-realm trust
export const setupActiveDirectoryTrust = (b: EnvironmentsBackend, req: Doc): Doc => {
  const id = b.changes.setupTrust(text(req.environment), {
    realm: text(req.kdcRealm),
    kdcServers: docs(req.kdcServers).map((k) => ({ fqdn: text(k.fqdn), ip: text(k.ip) })),
    dnsServerIps: strings(req.dnsServerIps),
    remoteEnvironmentCrn: text(req.remoteEnvironmentCrn),
  });
  return { flowId: id };
};

export const finishSetupTrust = (b: EnvironmentsBackend, req: Doc): Doc => {
  const id = b.changes.finishTrust(text(req.environment));
  return { flowId: id, operationId: id };
};

export const cancelTrust = (b: EnvironmentsBackend, req: Doc): Doc => {
  const id = b.changes.cancelTrust(text(req.environment));
  return { flowId: id, operationId: id };
};

export const repairTrust = (b: EnvironmentsBackend, req: Doc): Doc => {
  const id = b.changes.repairTrust(text(req.environment));
  return { flowId: id, operationId: id };
};

export const getTrustSetupCommands = (b: EnvironmentsBackend, req: Doc): Doc => trustCommands(b, text(req.environment), false);

export const getTrustCleanupCommands = (b: EnvironmentsBackend, req: Doc): Doc => trustCommands(b, text(req.environment), true);

// what an environment hands out
export const getKeytab = (b: EnvironmentsBackend, req: Doc, h: Hook<R>): Doc => {
  const e = b.environment(text(req.environmentName));
  b.freeipa.of(e);
  return { contents: keytabOf(b.ctx, e, str(req.actorCrn) ?? h.ctx.caller.actorCrn) };
};

export const getRootCertificate = (b: EnvironmentsBackend, req: Doc): Doc => {
  const e = b.environment(text(req.environmentName));
  b.freeipa.of(e);
  const cert = rootCertificateOf(e);
  if (cert.made) b.envs.save(Object.assign(e, { rootCertificate: cert.pem }));
  return { contents: cert.pem };
};

export const listConnectedDataServices = (b: EnvironmentsBackend, req: Doc): Doc => {
  const e = b.environment(text(req.environment));
  const byService = new Map<string, string[]>();
  for (const d of b.ctx.world.inEnvironment(b.ctx, e.crn))
    if (!NOT_DATA_SERVICES.includes(d.service)) byService.set(d.service, [...(byService.get(d.service) ?? []), d.name]);
  return { result: [...byService].map(([name, clusters]) => ({ name, clusters })) };
};
