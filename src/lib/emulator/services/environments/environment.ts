/**
 * An environment, the table's `environment` resource: what a create makes
 * of a request (a public cloud's, or a private cloud's registered with its
 * Cloudera Manager), what every answer shows of it (its FreeIPA, its proxy
 * configuration), and the rules of its actions and changes, as the control
 * plane has them:
 * - names are unique per account; an environment needs a credential of its
 *   own cloud (GovCloud for GovCloud) and, when it names one, an existing
 *   proxy configuration;
 * - an environment with data lakes or Data Hubs is deleted only with
 *   `cascading`, which removes them as the delete starts; `forced` deletes
 *   never fail;
 * - stopping an environment stops what runs in it (its Data Hubs, data lake
 *   and data services) with it; starting it starts them again, its Data
 *   Hubs only when asked to; neither while its FreeIPA works;
 * - the settings only new Data Hubs take (subnets, security groups, SSH key,
 *   encryption, Docker registry...) change at once while it is at rest; the
 *   changes that take time (CCM upgrade, compute cluster, endpoint access
 *   gateway, cross-realm trust with Active Directory) show in its status,
 *   each an operation getOperation follows.
 */
import { alreadyExists, failedPrecondition, invalid } from '../../errors.js';
import { isCrn } from '../../ids.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { verbs } from '../../engine/table.js';
import type { Doc } from '../../types.js';
import { bool, docs, num, obj, optBool, str, stringMap, strings, text } from '../../values.js';
import { backendOf, type EnvironmentsBackend, type R } from './backend.js';
import { AZURE_ZONES } from './catalogue.js';
import { catalogSet, domainOf, ipaIdle, ipaRequired, newIpa, realmOf, recipesAttached, recipesDetached } from './freeipa.js';
import { usersFingerprint } from './identity.js';
import { ACTION_WORDS, ENVIRONMENT } from './lifecycles.js';
import { networkOf } from './pre-created.js';
import type { AzureEncryption, CloudPlatform, ComputeClusterConfiguration, EnvRecord, PrivateCloudRecord, TrustRecord } from './records.js';
import { environmentView } from './views.js';

type Rec = Readonly<EngineRecord>;

/** Request fields that name an environment (the resource's keys). */
export const ENVIRONMENT_KEYS = ['environmentName', 'environment', 'environmentCrn'] as const;

const refIn = (req: Doc): string | undefined => ENVIRONMENT_KEYS.map((k) => str(req[k])).find(Boolean);

/** A request that names an environment the account has (else NOT_FOUND naming those it has), as sent. */
export function existing(h: Hook<R>, sent: Doc): Doc {
  const ref = refIn(sent);
  if (ref) backendOf(h).record(ref);
  return sent;
}

/** A change of an environment: the environment it names, and the request as sent for its effect (`change`). */
export function asChange(h: Hook<R>, sent: Doc): Doc {
  const ref = refIn(sent);
  if (ref) backendOf(h).record(ref);
  return { environmentName: ref, change: sent };
}

// ---- create ---------------------------------------------------------------------------

/** The cloud each public cloud create is for. */
const CREATES: Readonly<Record<string, { platform: CloudPlatform; gov: boolean }>> = {
  createAWSEnvironment: { platform: 'AWS', gov: false },
  createAWSGovCloudEnvironment: { platform: 'AWS', gov: true },
  createAzureEnvironment: { platform: 'AZURE', gov: false },
  createGCPEnvironment: { platform: 'GCP', gov: false },
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

/** A create's request as the verb reads it: the new environment's name, and the request as sent for `fill` (a name taken is refused first). */
export function newEnvironment(h: Hook<R>, sent: Doc): Doc {
  const name = text(sent.environmentName);
  if (backendOf(h).envs.find(name)) throw alreadyExists(`an environment named ${name} already exists`);
  return { environmentName: name, sent };
}

const LOG_DETAILS = { AWS: 'awsDetails', AZURE: 'azureDetails', GCP: 'gcpDetails' } as const;

/** The fields a new environment gets from its request: a public cloud's, with its FreeIPA made beside it, or a private cloud's. */
export function environmentFields(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const b = backendOf(h);
  const sent = obj(req.sent);
  const name = rec.name ?? '';
  const made = {
    environmentName: name,
    crn: rec.crn ?? '',
    status: '',
    created: h.ctx.clock.iso(),
    creator: h.ctx.caller.actorCrn,
    usersSeen: { fingerprint: usersFingerprint(h.ctx), at: h.ctx.clock.now() },
  };
  const cloud = CREATES[h.ctx.op.name];
  if (!cloud) return privateFields(made, sent);
  const { platform } = cloud;
  const region = text(sent.region);
  if (platform === 'AWS' && region.startsWith('us-gov-') !== cloud.gov)
    throw invalid(
      cloud.gov
        ? `${region} is not an AWS GovCloud region (us-gov-west-1, us-gov-east-1)`
        : `${region} is a GovCloud region: use create-aws-gov-cloud-environment`,
    );
  const cred = b.credential(text(sent.credentialName));
  const credGov = cred.awsCredentialProperties?.govCloud === true;
  if (cred.cloudPlatform !== platform || credGov !== cloud.gov)
    throw invalid(
      `credential ${cred.credentialName} is for ${credGov ? 'AWS GovCloud' : cred.cloudPlatform}; this environment needs a ${cloud.gov ? 'AWS GovCloud' : platform} credential`,
    );
  const ipa = obj(sent.freeIpa);
  const image = obj(sent.image);
  const freeipa = {
    instanceCountByGroup: num(ipa.instanceCountByGroup) ?? 1,
    multiAz: bool(ipa.multiAz),
    recipes: strings(ipa.recipes),
    instanceType: str(ipa.instanceType),
    image: { id: str(image.id), os: str(image.os), catalog: str(image.catalog) },
  };
  const servers = freeipa.instanceCountByGroup;
  if (!Number.isInteger(servers) || servers < 1 || servers > 3)
    throw invalid(`FreeIPA runs one to three servers (freeIpa instanceCountByGroup 1-3); got ${servers}`);
  const zones = strings(sent.availabilityZones);
  if (platform === 'AZURE' && zones.some((z) => !AZURE_ZONES.includes(z)))
    throw invalid(`Azure availability zones are ${AZURE_ZONES.join(', ')}; got ${zones.join(', ')}`);
  const proxy = str(sent.proxyConfigName) ? b.proxyName(text(sent.proxyConfigName)) : undefined;
  const net = obj(sent.existingNetworkParams);
  const network = networkOf(
    name,
    platform,
    platform === 'AWS'
      ? { id: str(sent.vpcId), subnets: strings(sent.subnetIds), cidr: str(sent.networkCidr) }
      : platform === 'AZURE'
        ? { id: str(net.networkId), subnets: strings(net.subnetIds) }
        : { id: str(net.networkName), subnets: strings(net.subnetNames) },
  );
  const scheme = str(sent.endpointAccessGatewayScheme);
  const gatewaySubnets = strings(sent.endpointAccessGatewaySubnetIds);
  if (scheme) network.endpointAccessGatewayScheme = scheme;
  if (gatewaySubnets.length > 0) network.endpointAccessGatewaySubnetIds = gatewaySubnets;
  const dataServices = obj(obj(sent.dataServices).azure);
  const group = str(sent.resourceGroupName) ?? str(net.resourceGroupName);
  if (network.azure) {
    const dbZone = str(net.databasePrivateDnsZoneId);
    const aksZone = str(dataServices.aksPrivateDnsZoneId) ?? str(net.aksPrivateDnsZoneId);
    const flexible = strings(sent.flexibleServerSubnetIds);
    network.azure.usePublicIp = bool(sent.usePublicIp);
    if (group) network.azure.resourceGroupName = group;
    if (dbZone) network.azure.databasePrivateDnsZoneId = dbZone;
    if (aksZone) network.azure.aksPrivateDnsZoneId = aksZone;
    if (flexible.length > 0) network.azure.flexibleServerSubnetIds = flexible;
  }
  if (network.gcp) network.gcp.usePublicIp = bool(sent.usePublicIp);
  const auth = obj(sent.authentication);
  const publicKey = str(sent.publicKey) ?? str(auth.publicKey);
  const publicKeyId = str(auth.publicKeyId);
  const access = strs(sent.securityAccess);
  const computeCluster = bool(sent.enableComputeCluster);
  const config = sent.computeClusterConfiguration ? computeConfig(sent.computeClusterConfiguration) : {};
  const identity = str(dataServices.sharedManagedIdentity);
  const keyUrl = str(sent.encryptionKeyUrl);
  const keyArn = str(sent.encryptionKeyArn);
  const registry = str(obj(sent.customDockerRegistry).crn);
  const workloadAnalytics = optBool(sent.workloadAnalytics);
  const env: EnvRecord = {
    ...made,
    region,
    cloudPlatform: platform,
    credentialName: cred.credentialName,
    description: str(sent.description) ?? '',
    network,
    logStorage: { enabled: true, [LOG_DETAILS[platform]]: strs(sent.logStorage) },
    computeClusterEnabled: computeCluster,
    ...(computeCluster && platform === 'AWS' ? { awsComputeClusterConfiguration: config } : {}),
    ...(computeCluster && platform === 'AZURE' ? { azureComputeClusterConfiguration: config } : {}),
    environmentType: sent.environmentType === 'HYBRID' ? 'HYBRID' : 'PUBLIC_CLOUD',
    tunnel: (optBool(sent.enableTunnel) ?? true) ? 'CCMV2_JUMPGATE' : 'DIRECT',
    ...(keyArn ? { encryptionKeyArn: keyArn } : {}),
    ...(registry ? { customDockerRegistry: { crn: registry } } : {}),
    ...(zones.length > 0 ? { availabilityZones: zones } : {}),
    ...(identity ? { dataServices: { azure: { sharedManagedIdentity: identity } } } : {}),
    ...(platform === 'AZURE'
      ? {
          azureDetails: {
            resourceGroupName: network.azure?.resourceGroupName,
            ...(keyUrl
              ? {
                  resourceEncryptionParameters: {
                    encryptionKeyUrl: keyUrl,
                    encryptionKeyResourceGroupName: str(sent.encryptionKeyResourceGroupName),
                    encryptionUserManagedIdentity: str(sent.encryptionUserManagedIdentity),
                  },
                }
              : {}),
          },
        }
      : {}),
    tags: {
      userDefined: Object.fromEntries(docs(sent.tags).map((t) => [text(t.key), text(t.value)])),
      defaults: { 'Cloudera-Environment-Resource-Name': name },
    },
    ...(publicKey || publicKeyId
      ? { authentication: { ...(publicKey ? { publicKey } : {}), ...(publicKeyId ? { publicKeyId } : {}), loginUserName: 'cloudbreak' } }
      : {}),
    ...(Object.keys(access).length > 0 ? { securityAccess: access } : {}),
    ...(proxy ? { proxyConfigName: proxy } : {}),
    ...(workloadAnalytics !== undefined ? { workloadAnalytics } : {}),
    freeipa: { instanceCountByGroup: servers, multiAz: freeipa.multiAz, recipes: [...freeipa.recipes] },
  };
  env.ipa = newIpa(env, freeipa);
  return env as unknown as Doc;
}

/** A private cloud environment: its Cloudera Manager's base cluster is its data lake; it has no FreeIPA. */
function privateFields(made: Pick<EnvRecord, 'environmentName' | 'crn' | 'status' | 'created' | 'creator' | 'usersSeen'>, sent: Doc): Doc {
  const address = text(sent.address);
  const clusterNames = strings(sent.clusterNames);
  if (!/^https?:\/\/([^/:\s]+)(:\d+)?\/?$/.test(address))
    throw invalid(`${address.slice(0, 200)} is not the address of a Cloudera Manager (https://host:port)`);
  if (clusterNames.length === 0) throw invalid('give the base cluster(s) to use as the data lake: --cluster-names');
  const platform = str(sent.platform) ?? 'OPENSHIFT';
  const quota = obj(sent.environmentQuota);
  const privateCloud: PrivateCloudRecord = {
    address,
    user: text(sent.user),
    clusterNames,
    platform,
    namespacePrefix: str(sent.namespacePrefix) ?? 'cdp',
    ...(str(sent.domain) ? { domain: text(sent.domain) } : {}),
    ...(str(sent.storageClass) ? { storageClass: text(sent.storageClass) } : {}),
    ...(Object.keys(quota).length > 0
      ? { quota: { cpuQuota: num(quota.cpuQuota), memoryQuota: num(quota.memoryQuota), gpuQuota: num(quota.gpuQuota) } }
      : {}),
  };
  const env: EnvRecord = {
    ...made,
    region: 'on-premises',
    // A private cloud environment runs on its Kubernetes platform, which the public clouds' type does not list:
    // other services compare it with their clouds and refuse it, as the control plane does.
    cloudPlatform: platform.toUpperCase() as CloudPlatform,
    credentialName: '',
    description: str(sent.description) ?? '',
    network: { networkName: `${made.environmentName}-network`, subnetIds: [], networkCidr: '' },
    logStorage: { enabled: false },
    computeClusterEnabled: true,
    environmentType: 'PUBLIC_CLOUD',
    tags: { userDefined: {}, defaults: { 'Cloudera-Environment-Resource-Name': made.environmentName } },
    freeipa: { instanceCountByGroup: 0, multiAz: false, recipes: [] },
    privateCloud,
  };
  return env as unknown as Doc;
}

// ---- what every answer shows ----------------------------------------------------------------

/** What an environment shows beyond its document: its FreeIPA, its proxy configuration (never its password), its network as the wire has it. */
export function environmentShown(h: Hook<R>, rec: Rec, view: Doc): Doc {
  const e = view as unknown as EnvRecord;
  const proxy = e.proxyConfigName ? h.records('proxyConfig').find(e.proxyConfigName)?.doc : undefined;
  return environmentView(h, e, rec, proxy);
}

/** The environment as answers show it. */
const shown = (h: Hook<R>, rec: Rec): Doc => h.records('environment').view(rec as EngineRecord);

// ---- stop, start, delete ----------------------------------------------------------------------

/** Stopping: not a private cloud environment, not while FreeIPA works, from a state it stops from. */
export function canStop(h: Hook<R>, rec: Rec): void {
  const b = backendOf(h);
  const e = b.of(rec);
  if (e.privateCloud) throw failedPrecondition(`environment ${e.environmentName} is a private cloud environment; it does not stop`);
  ipaIdle(h, e, rec, 'a stop');
  b.require(e, ENVIRONMENT.stop?.from ?? [], 'stop');
}

/** What runs in the environment stops with it. */
export function stopsWhatRuns(h: Hook<R>, rec: Rec): Doc {
  h.ctx.world.follow(h.ctx, rec.crn ?? '', 'stop');
  return {};
}

/** Starting: not a private cloud environment, not while FreeIPA works, from a state it starts from. */
export function canStart(h: Hook<R>, rec: Rec): void {
  const b = backendOf(h);
  const e = b.of(rec);
  if (e.privateCloud)
    throw failedPrecondition(`environment ${e.environmentName} is a private cloud environment; it does not stop or start`);
  ipaIdle(h, e, rec, 'a start');
  b.require(e, ENVIRONMENT.start?.from ?? [], 'start');
}

/**
 * What runs in the environment starts with it (its data lake and data
 * services, and its Data Hubs when `withDatahubStart`); FreeIPA syncs the
 * users it missed.
 */
export function startsWhatRuns(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const withDatahubs = bool(req.withDatahubStart);
  for (const d of h.ctx.world.inEnvironment(h.ctx, rec.crn ?? '')) if (withDatahubs || d.service !== 'datahub') d.follow('start');
  return { usersSeen: { fingerprint: usersFingerprint(h.ctx), at: h.ctx.clock.now() } };
}

/** Deleting: not twice; what runs in it holds it up, unless `cascading` removes it first (at once here). */
export function canDelete(h: Hook<R>, rec: Rec, req: Doc): void {
  const all = h.records('environment');
  const name = rec.name ?? rec.id;
  if (rec.activity.action === 'delete' && all.busy(rec as EngineRecord))
    throw failedPrecondition(`environment ${name} is already being deleted (${all.state(rec as EngineRecord)})`);
  // What every service runs in it, read settled: a delete that has ended is gone, whoever asked since.
  const deps = h.ctx.world.inEnvironment(h.ctx, rec.crn ?? '');
  if (deps.length > 0 && !bool(req.cascading))
    throw failedPrecondition(
      `environment ${name} still has ${deps.map((d) => d.what).join(', ')}; delete them first, or delete with --cascading`,
    );
  for (const d of deps) d.remove();
}

// ---- changes at once ---------------------------------------------------------------------------

/** The environment, at rest (no action under way), on one of `clouds` when given. */
function atRest(b: EnvironmentsBackend, e: EnvRecord, what: string, clouds?: readonly CloudPlatform[]): EnvRecord {
  if (clouds && !clouds.includes(e.cloudPlatform))
    throw failedPrecondition(
      `environment ${e.environmentName} runs on ${e.cloudPlatform}; ${what} is for ${clouds.join(' and ')} environments`,
    );
  if (b.busy(e)) throw failedPrecondition(`environment ${e.environmentName} is ${e.status}; ${what} waits until it is done`);
  return e;
}

type Change = (b: EnvironmentsBackend, e: EnvRecord, req: Doc) => Partial<EnvRecord>;

/** What each change of an environment sets, by operation: its request as sent (`asChange`). */
const CHANGES: Readonly<Record<string, Change>> = {
  setCatalog: (_b, e, req) => catalogSet(e, req),
  attachFreeIpaRecipes: (_b, e, req) => recipesAttached(e, req),
  detachFreeIpaRecipes: (_b, e, req) => recipesDetached(e, req),
  changeEnvironmentCredential: (b, e, req) => {
    const cred = b.credential(text(req.credentialName));
    if (cred.cloudPlatform !== e.cloudPlatform)
      throw invalid(
        `credential ${cred.credentialName} is for ${cred.cloudPlatform}; environment ${e.environmentName} runs on ${e.cloudPlatform}`,
      );
    return { credentialName: cred.credentialName };
  },
  updateTags: (_b, e, req) => ({ tags: { ...e.tags, userDefined: { ...e.tags.userDefined, ...stringMap(req.tags) } } }),
  updateProxyConfig: (b, _e, req) => {
    const name = bool(req.removeProxy) ? undefined : str(req.proxyConfigName);
    return { proxyConfigName: name ? b.proxyName(name) : undefined };
  },
  setTelemetryFeatures: (_b, _e, req) => {
    const workloadAnalytics = optBool(req.workloadAnalytics);
    return workloadAnalytics !== undefined ? { workloadAnalytics } : {};
  },
  updateSubnet: (b, e, req) => {
    atRest(b, e, 'a subnet update');
    const subnetIds = strings(req.subnetIds);
    const gateway = strings(req.endpointAccessGatewaySubnetIds);
    if (subnetIds.length === 0 && gateway.length === 0)
      throw invalid('nothing to update: give --subnet-ids or --endpoint-access-gateway-subnet-ids');
    return {
      network: {
        ...e.network,
        ...(subnetIds.length > 0 ? { subnetIds: [...new Set(subnetIds)] } : {}),
        ...(gateway.length > 0 ? { endpointAccessGatewaySubnetIds: [...new Set(gateway)] } : {}),
      },
    };
  },
  updateSecurityAccess: (b, e, req) => {
    atRest(b, e, 'a security access update');
    return {
      securityAccess: {
        securityGroupIdForKnox: text(req.gatewayNodeSecurityGroupId),
        defaultSecurityGroupId: text(req.defaultSecurityGroupId),
      },
    };
  },
  updateSshKey: (b, e, req) => {
    atRest(b, e, 'an SSH key update');
    const publicKey = str(req.newPublicKey);
    const publicKeyId = str(req.existingPublicKeyId);
    if (publicKey && !/^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp\d+) [A-Za-z0-9+/=]+( .*)?$/.test(publicKey.trim()))
      throw invalid('--new-public-key is not an OpenSSH public key ("ssh-ed25519 AAAA..." or "ssh-rsa AAAA...")');
    return {
      authentication: {
        ...(publicKey ? { publicKey: publicKey.trim() } : {}),
        ...(publicKeyId ? { publicKeyId } : {}),
        loginUserName: e.authentication?.loginUserName ?? 'cloudbreak',
      },
    };
  },
  updateAwsDiskEncryptionParameters: (b, e, req) => {
    atRest(b, e, 'a disk encryption key update', ['AWS']);
    const keyArn = text(req.encryptionKeyArn);
    if (!/^arn:aws(-us-gov)?:kms:[a-z0-9-]+:\d{12}:(key|alias)\/.+$/.test(keyArn))
      throw invalid(`${keyArn.slice(0, 200)} is not the ARN of a KMS key`);
    return { encryptionKeyArn: keyArn };
  },
  updateAzureEncryptionResources: (b, e, req) => {
    atRest(b, e, 'an encryption resources update', ['AZURE']);
    const enc: AzureEncryption = {
      encryptionKeyUrl: text(req.encryptionKeyUrl),
      ...(str(req.encryptionKeyResourceGroupName) ? { encryptionKeyResourceGroupName: text(req.encryptionKeyResourceGroupName) } : {}),
      ...(str(req.encryptionUserManagedIdentity) ? { encryptionUserManagedIdentity: text(req.encryptionUserManagedIdentity) } : {}),
    };
    if (!/^https:\/\/[a-z0-9-]+\.vault\.azure\.net\/keys\/[^/]+\/[0-9a-f]+$/i.test(enc.encryptionKeyUrl))
      throw invalid(`${enc.encryptionKeyUrl.slice(0, 200)} is not the URL of a key version in an Azure key vault`);
    const group = enc.encryptionKeyResourceGroupName ?? e.azureDetails?.resourceGroupName ?? e.network.azure?.resourceGroupName;
    return {
      azureDetails: {
        ...e.azureDetails,
        resourceEncryptionParameters: {
          ...enc,
          ...(group ? { encryptionKeyResourceGroupName: group } : {}),
          diskEncryptionSetId: `/subscriptions/${e.crn.split(':')[4] ?? ''}/resourceGroups/${group ?? 'cdp'}/providers/Microsoft.Compute/diskEncryptionSets/${e.environmentName}-des`,
        },
      },
    };
  },
  updateAzureDatabaseResources: (b, e, req) => {
    atRest(b, e, 'a database resources update', ['AZURE']);
    const net = e.network.azure;
    if (!net) throw failedPrecondition(`environment ${e.environmentName} has no Azure network`);
    const zoneId = str(req.databasePrivateDnsZoneId);
    const subnets = strings(req.flexibleServerSubnetIds);
    if (!zoneId && subnets.length === 0)
      throw invalid('nothing to update: give --database-private-dns-zone-id or --flexible-server-subnet-ids');
    const azure = {
      ...net,
      ...(zoneId ? { databasePrivateDnsZoneId: zoneId } : {}),
      ...(subnets.length > 0 ? { flexibleServerSubnetIds: subnets } : {}),
    };
    return { network: { ...e.network, azure } };
  },
  updateAzureAvailabilityZones: (b, e, req) => {
    atRest(b, e, 'an availability zone update', ['AZURE']);
    const zones = strings(req.availabilityZones);
    const bad = zones.filter((z) => !AZURE_ZONES.includes(z));
    if (zones.length === 0 || bad.length > 0)
      throw invalid(`Azure availability zones are ${AZURE_ZONES.join(', ')}; got ${zones.join(', ') || 'none'}`);
    return { availabilityZones: [...new Set([...(e.availabilityZones ?? []), ...zones])].sort() };
  },
  updateCustomDockerRegistry: (b, e, req) => {
    atRest(b, e, 'a Docker registry update');
    const registry = text(req.customDockerRegistry);
    if (!isCrn(registry)) throw invalid(`${registry.slice(0, 200)} is not the CRN of a custom Docker registry`);
    return { customDockerRegistry: { crn: registry } };
  },
  updateDataServiceResources: (b, e, req) => {
    atRest(b, e, 'a data services update', ['AZURE']);
    const azure = obj(obj(req.dataServices).azure);
    const identity = str(azure.sharedManagedIdentity);
    if (!identity) throw invalid('give the Azure shared managed identity: --data-services \'{"azure":{"sharedManagedIdentity":"..."}}\'');
    const aks = str(azure.aksPrivateDnsZoneId);
    return {
      dataServices: { azure: { sharedManagedIdentity: identity } },
      ...(aks && e.network.azure ? { network: { ...e.network, azure: { ...e.network.azure, aksPrivateDnsZoneId: aks } } } : {}),
    };
  },
};

/** What a change of an environment sets (CHANGES, by operation), from the request as sent. */
export function environmentChange(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const change = CHANGES[h.ctx.op.name];
  if (!change) throw new Error(`environments ${h.ctx.op.name} is no change of an environment`);
  const b = backendOf(h);
  return change(b, b.of(rec), obj(req.change)) as Doc;
}

/** updateAwsDiskEncryptionParameters' answer: the environment and its key. */
export const withDiskEncryption = (h: Hook<R>, rec: Rec): Doc => ({
  environment: shown(h, rec),
  awsDiskEncryptionParameters: { encryptionKeyArn: rec.doc.encryptionKeyArn },
});

/** updateAzureEncryptionResources' answer: the environment and its encryption parameters. */
export const withResourceEncryption = (h: Hook<R>, rec: Rec): Doc => ({
  environment: shown(h, rec),
  resourceEncryptionParameters: (rec.doc as unknown as EnvRecord).azureDetails?.resourceEncryptionParameters,
});

/** updateAzureDatabaseResources' answer: the environment and its database resources. */
export const withDatabaseResources = (h: Hook<R>, rec: Rec): Doc => {
  const net = (rec.doc as unknown as EnvRecord).network.azure;
  return {
    environment: shown(h, rec),
    azureDatabaseResources: {
      databasePrivateDnsZoneId: net?.databasePrivateDnsZoneId,
      flexibleServerSubnetIds: net?.flexibleServerSubnetIds,
    },
  };
};

// ---- changes that take time (actions) -------------------------------------------------------------

/** FAILED_PRECONDITION unless the environment is in a state the action starts from (the action in words). */
function startsFrom(b: EnvironmentsBackend, e: EnvRecord, action: string): void {
  const from = ENVIRONMENT[action]?.from;
  if (from) b.require(e, from, ACTION_WORDS[action] ?? action);
}

/** A CCM upgrade: of an environment on an older Cluster Connectivity Manager. */
export function canUpgradeCcm(h: Hook<R>, rec: Rec): void {
  const b = backendOf(h);
  const e = atRest(b, b.of(rec), 'a CCM upgrade');
  const tunnel = e.tunnel ?? 'CCMV2';
  if (tunnel === 'DIRECT')
    throw failedPrecondition(
      `environment ${e.environmentName} does not use Cluster Connectivity Manager (it was created without a tunnel)`,
    );
  if (tunnel === 'CCMV2_JUMPGATE')
    throw failedPrecondition(`environment ${e.environmentName} already runs the newest Cluster Connectivity Manager (CCMV2_JUMPGATE)`);
  startsFrom(b, e, 'upgradeccm');
}

/** The cloud a compute cluster initialization is for, by its operation. */
const computeCloud = (h: Hook<R>): 'AWS' | 'AZURE' => (h.ctx.op.name === 'initializeAzureComputeCluster' ? 'AZURE' : 'AWS');

/** A compute cluster: of the operation's cloud, private without public API ranges, on the environment's own subnets. */
export function canMakeComputeCluster(h: Hook<R>, rec: Rec, req: Doc): void {
  const b = backendOf(h);
  const e = atRest(b, b.of(rec), 'a compute cluster', [computeCloud(h)]);
  const config = computeConfig(req.computeClusterConfiguration);
  if (config.privateCluster && (config.kubeApiAuthorizedIpRanges?.length ?? 0) > 0)
    throw invalid('a private compute cluster has no public API server: leave out kubeApiAuthorizedIpRanges');
  const unknown = (config.workerNodeSubnets ?? []).filter((s) => !e.network.subnetIds.includes(s));
  if (unknown.length > 0)
    throw invalid(
      `worker node subnets ${unknown.join(', ')} are not subnets of environment ${e.environmentName} (${e.network.subnetIds.join(', ')})`,
    );
  startsFrom(b, e, e.computeClusterEnabled ? 'computereinit' : 'computecluster');
}

/** What a compute cluster's success sets: enabled, with its configuration. */
export function computeClusterMade(h: Hook<R>, _rec: Rec, req: Doc): Doc {
  const config = computeConfig(req.computeClusterConfiguration);
  return {
    computeClusterEnabled: true,
    [computeCloud(h) === 'AWS' ? 'awsComputeClusterConfiguration' : 'azureComputeClusterConfiguration']: config,
  };
}

/** Creates (or creates again) the Kubernetes compute cluster of an AWS or Azure environment: code, as the action depends on whether it has one. */
export function initializeComputeCluster(h: Hook<R>, req: Doc): Doc {
  const e = backendOf(h).environment(text(req.environmentName));
  return h.serve(verbs<R>('environment').act(e.computeClusterEnabled ? 'computereinit' : 'computecluster'), req);
}

/** An endpoint access gateway: a public one needs public subnets. */
export function canSetGateway(h: Hook<R>, rec: Rec, req: Doc): void {
  const b = backendOf(h);
  const e = atRest(b, b.of(rec), 'an endpoint access gateway update');
  if (
    req.endpointAccessGatewayScheme === 'PUBLIC' &&
    strings(req.endpointAccessGatewaySubnetIds).length === 0 &&
    !e.network.endpointAccessGatewaySubnetIds?.length
  )
    throw invalid('a PUBLIC endpoint access gateway needs public subnets: give --endpoint-access-gateway-subnet-ids');
  startsFrom(b, e, 'endpointgateway');
}

/** What an endpoint access gateway's success sets: its scheme and subnets. */
export function gatewaySet(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const e = backendOf(h).of(rec);
  const subnets = strings(req.endpointAccessGatewaySubnetIds);
  return {
    network: {
      ...e.network,
      endpointAccessGatewayScheme: req.endpointAccessGatewayScheme === 'PUBLIC' ? 'PUBLIC' : 'PRIVATE',
      ...(subnets.length > 0 ? { endpointAccessGatewaySubnetIds: [...subnets] } : {}),
    },
  };
}

// ---- cross-realm trust --------------------------------------------------------------------------

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** The hybrid environment a trust belongs to. */
function hybrid(e: EnvRecord): EnvRecord {
  if (e.environmentType !== 'HYBRID')
    throw failedPrecondition(
      `environment ${e.environmentName} is a ${e.environmentType} environment; cross-realm trust is for HYBRID environments`,
    );
  return e;
}

function trustOf(e: EnvRecord): TrustRecord {
  if (!e.trust)
    throw failedPrecondition(`environment ${e.environmentName} has no cross-realm trust; set one up with environments trust setup`);
  return e.trust;
}

/** A trust's setup: of a hybrid environment without one in use, with one KDC and DNS server. */
export function canSetUpTrust(h: Hook<R>, rec: Rec, req: Doc): void {
  const b = backendOf(h);
  const e = hybrid(b.of(rec));
  if (e.trust?.active)
    throw failedPrecondition(`environment ${e.environmentName} already trusts ${e.trust.realm}; cancel that trust first`);
  const spec = trustIn(req);
  if (spec.kdcServers.length !== 1) throw invalid('give one KDC server (--kdc-servers); more are not supported yet');
  if (spec.dnsServerIps.length > 1) throw invalid('give one DNS server address (--dns-server-ips); more are not supported yet');
  for (const ip of [...spec.kdcServers.map((k) => k.ip), ...spec.dnsServerIps])
    if (!IPV4.test(ip)) throw invalid(`${ip.slice(0, 100)} is not an IPv4 address`);
  if (!/^[A-Za-z0-9.-]+$/.test(spec.realm)) throw invalid(`${spec.realm.slice(0, 100)} is not a Kerberos realm`);
  if (!isCrn(spec.remoteEnvironmentCrn)) throw invalid(`${spec.remoteEnvironmentCrn.slice(0, 200)} is not an environment CRN`);
  startsFrom(b, e, 'trustsetup');
}

/** A trust as its setup asks for it (its secret never kept). */
const trustIn = (req: Doc): TrustRecord => ({
  realm: text(req.kdcRealm).toUpperCase(),
  kdcServers: docs(req.kdcServers).map((k) => ({ fqdn: text(k.fqdn), ip: text(k.ip) })),
  dnsServerIps: strings(req.dnsServerIps),
  remoteEnvironmentCrn: text(req.remoteEnvironmentCrn),
  active: false,
});

/** What a trust's setup sets: the trust, not yet in use. */
export const trustSetUp = (_h: Hook<R>, _rec: Rec, req: Doc): Doc => ({ trust: trustIn(req) });

/** Finishing, cancelling or repairing a trust (`action`): of a hybrid environment that has one (in use, for a repair). */
export const hasTrust =
  (action: 'trustfinish' | 'trustcancel' | 'trustrepair') =>
  (h: Hook<R>, rec: Rec): void => {
    const b = backendOf(h);
    const e = hybrid(b.of(rec));
    const trust = trustOf(e);
    if (action === 'trustrepair' && !trust.active)
      throw failedPrecondition(
        `the trust of environment ${e.environmentName} with ${trust.realm} is not set up yet; finish its setup first`,
      );
    startsFrom(b, e, action);
  };

/** What finishing a trust's setup sets: the trust in use. */
export const trustFinished = (h: Hook<R>, rec: Rec): Doc => ({ trust: { ...trustOf(backendOf(h).of(rec)), active: true } });

/** What cancelling a trust sets: none (null: an effect is stored as JSON). */
export const trustCancelled = (): Doc => ({ trust: null });

/** The answer of a trust's setup: its flow. */
export const flow = (_h: Hook<R>, rec: Rec): Doc => ({ flowId: rec.activity.operationId });

/** The answer of a trust's later steps: its flow, which is its operation. */
export const flowAndOperation = (_h: Hook<R>, rec: Rec): Doc => ({
  flowId: rec.activity.operationId,
  operationId: rec.activity.operationId,
});

/** The commands Active Directory and the base cluster run to set up (or clean up) the trust. */
export function trustCommands(h: Hook<R>, rec: Rec): Doc {
  const b = backendOf(h);
  const e = hybrid(b.of(rec));
  const trust = trustOf(e);
  const cleanup = h.ctx.op.name === 'getTrustCleanupCommands';
  const realm = realmOf(e);
  const domain = domainOf(e);
  const ipa = ipaRequired(e).instances;
  const ad = trust.kdcServers[0];
  const adCommands = cleanup
    ? [
        `netdom trust ${realm} /Domain:${trust.realm} /remove /force`,
        `ksetup /delkdc ${realm}`,
        `Remove-DnsServerZone -Name "${domain}" -Force`,
      ]
    : [
        `Add-DnsServerConditionalForwarderZone -Name "${domain}" -MasterServers ${ipa.map((n) => n.ip).join(',')}`,
        ...ipa.map((n) => `ksetup /addkdc ${realm} ${n.fqdn}`),
        `netdom trust ${realm} /Domain:${trust.realm} /add /realm /passwordt:<trust secret>`,
        `ksetup /SetEncTypeAttr ${realm} AES256-CTS-HMAC-SHA1-96`,
      ];
  const krb5 = cleanup
    ? `# remove from krb5.conf on the base cluster hosts:\n[realms]\n  ${realm} = { ... }\n[domain_realm]\n  .${domain} = ${realm}\n`
    : [
        '[realms]',
        `  ${realm} = {`,
        ...ipa.map((n) => `    kdc = ${n.fqdn}`),
        `    admin_server = ${ipa[0]?.fqdn ?? `ipaserver0.${domain}`}`,
        '  }',
        `  ${trust.realm} = {`,
        `    kdc = ${ad?.fqdn ?? ''}`,
        '  }',
        '[domain_realm]',
        `  .${domain} = ${realm}`,
        `  ${domain} = ${realm}`,
        '',
      ].join('\n');
  return {
    environment: e.crn,
    kdcType: 'ACTIVE_DIRECTORY',
    activeDirectoryCommands: { commands: adCommands.join('\n') },
    baseClusterCommands: { krb5Conf: krb5 },
  };
}
