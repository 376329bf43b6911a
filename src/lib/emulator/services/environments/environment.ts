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
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { verbs } from '../../engine/table.js';
import type { Doc } from '../../types.js';
import { bool, compact, docs, num, obj, optBool, str, stringMap, strings, text, uniq } from '../../values.js';
import { busy, credentialOf, environmentOf, environmentRecord, envOf, proxyName, requireState, type R } from './backend.js';
import { AZURE_ZONES } from './catalogue.js';
import {
  catalogSet,
  domainOf,
  freeipaDetails,
  ipaIdle,
  ipaRequired,
  newIpa,
  realmOf,
  recipesAttached,
  recipesDetached,
} from './freeipa.js';
import { usersFingerprint } from './identity.js';
import { ACTION_WORDS, ENVIRONMENT } from './lifecycles.js';
import { networkOf } from './pre-created.js';
import type { CloudPlatform, ComputeClusterConfiguration, EnvRecord, TrustRecord } from './records.js';

type Rec = Readonly<EngineRecord>;

/** Request fields that name an environment (the resource's keys). */
export const ENVIRONMENT_KEYS = ['environmentName', 'environment', 'environmentCrn'] as const;

const refIn = (req: Doc): string | undefined => ENVIRONMENT_KEYS.map((k) => str(req[k])).find(Boolean);

/** A request that names an environment the account has (else NOT_FOUND naming those it has), as sent. */
export function existing(h: Hook<R>, sent: Doc): Doc {
  const ref = refIn(sent);
  if (ref) environmentRecord(h, ref);
  return sent;
}

/** A change of an environment: the environment it names, and the request as sent for its effect (`change`). */
export const asChange = (h: Hook<R>, sent: Doc): Doc => ({ environmentName: refIn(existing(h, sent)), change: sent });

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
  const list = (x: unknown): string[] | undefined => (Array.isArray(x) ? strings(x) : undefined);
  return compact({
    privateCluster: optBool(c.privateCluster),
    kubeApiAuthorizedIpRanges: list(c.kubeApiAuthorizedIpRanges),
    workerNodeSubnets: list(c.workerNodeSubnets),
    outboundType: str(c.outboundType),
  });
};

/** A create's request as the verb reads it: the new environment's name, and the request as sent for `fill` (a name taken is refused first). */
export function newEnvironment(h: Hook<R>, sent: Doc): Doc {
  const name = text(sent.environmentName);
  if (h.records('environment').find(name)) throw alreadyExists(`an environment named ${name} already exists`);
  return { environmentName: name, sent };
}

/** A list, or nothing when it is empty. */
const some = <T>(xs: T[]): T[] | undefined => (xs.length > 0 ? xs : undefined);

const LOG_DETAILS = { AWS: 'awsDetails', AZURE: 'azureDetails', GCP: 'gcpDetails' } as const;

/** The fields a new environment gets from its request: a public cloud's, with its FreeIPA made beside it, or a private cloud's. */
export function environmentFields(h: Hook<R>, rec: Rec, req: Doc): Doc {
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
  const cred = credentialOf(h, text(sent.credentialName));
  const credGov = cred.awsCredentialProperties?.govCloud === true;
  if (cred.cloudPlatform !== platform || credGov !== cloud.gov)
    throw invalid(
      `credential ${cred.credentialName} is for ${credGov ? 'AWS GovCloud' : cred.cloudPlatform}; this environment needs a ${cloud.gov ? 'AWS GovCloud' : platform} credential`,
    );
  const ipa = obj(sent.freeIpa);
  const image = obj(sent.image);
  const servers = num(ipa.instanceCountByGroup) ?? 1;
  if (!Number.isInteger(servers) || servers < 1 || servers > 3)
    throw invalid(`FreeIPA runs one to three servers (freeIpa instanceCountByGroup 1-3); got ${servers}`);
  const zones = strings(sent.availabilityZones);
  if (platform === 'AZURE' && zones.some((z) => !AZURE_ZONES.includes(z)))
    throw invalid(`Azure availability zones are ${AZURE_ZONES.join(', ')}; got ${zones.join(', ')}`);
  const proxy = str(sent.proxyConfigName) ? proxyName(h, text(sent.proxyConfigName)) : undefined;
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
  Object.assign(
    network,
    compact({
      endpointAccessGatewayScheme: str(sent.endpointAccessGatewayScheme),
      endpointAccessGatewaySubnetIds: some(strings(sent.endpointAccessGatewaySubnetIds)),
    }),
  );
  const dataServices = obj(obj(sent.dataServices).azure);
  if (network.azure)
    Object.assign(
      network.azure,
      compact({
        usePublicIp: bool(sent.usePublicIp),
        resourceGroupName: str(sent.resourceGroupName) ?? str(net.resourceGroupName),
        databasePrivateDnsZoneId: str(net.databasePrivateDnsZoneId),
        aksPrivateDnsZoneId: str(dataServices.aksPrivateDnsZoneId) ?? str(net.aksPrivateDnsZoneId),
        flexibleServerSubnetIds: some(strings(sent.flexibleServerSubnetIds)),
      }),
    );
  if (network.gcp) network.gcp.usePublicIp = bool(sent.usePublicIp);
  const auth = obj(sent.authentication);
  const publicKey = str(sent.publicKey) ?? str(auth.publicKey);
  const publicKeyId = str(auth.publicKeyId);
  const access = strs(sent.securityAccess);
  const computeCluster = bool(sent.enableComputeCluster);
  const config = sent.computeClusterConfiguration ? computeConfig(sent.computeClusterConfiguration) : {};
  const identity = str(dataServices.sharedManagedIdentity);
  const keyUrl = str(sent.encryptionKeyUrl);
  const registry = str(obj(sent.customDockerRegistry).crn);
  const env = compact({
    ...made,
    region,
    cloudPlatform: platform,
    credentialName: cred.credentialName,
    description: str(sent.description) ?? '',
    network,
    logStorage: { enabled: true, [LOG_DETAILS[platform]]: strs(sent.logStorage) },
    computeClusterEnabled: computeCluster,
    awsComputeClusterConfiguration: computeCluster && platform === 'AWS' ? config : undefined,
    azureComputeClusterConfiguration: computeCluster && platform === 'AZURE' ? config : undefined,
    environmentType: sent.environmentType === 'HYBRID' ? 'HYBRID' : 'PUBLIC_CLOUD',
    tunnel: (optBool(sent.enableTunnel) ?? true) ? 'CCMV2_JUMPGATE' : 'DIRECT',
    encryptionKeyArn: str(sent.encryptionKeyArn),
    customDockerRegistry: registry ? { crn: registry } : undefined,
    availabilityZones: some(zones),
    dataServices: identity ? { azure: { sharedManagedIdentity: identity } } : undefined,
    azureDetails:
      platform === 'AZURE'
        ? compact({
            resourceGroupName: network.azure?.resourceGroupName,
            resourceEncryptionParameters: keyUrl && {
              encryptionKeyUrl: keyUrl,
              encryptionKeyResourceGroupName: str(sent.encryptionKeyResourceGroupName),
              encryptionUserManagedIdentity: str(sent.encryptionUserManagedIdentity),
            },
          })
        : undefined,
    tags: {
      userDefined: Object.fromEntries(docs(sent.tags).map((t) => [text(t.key), text(t.value)])),
      defaults: { 'Cloudera-Environment-Resource-Name': name },
    },
    authentication: publicKey || publicKeyId ? compact({ publicKey, publicKeyId, loginUserName: 'cloudbreak' }) : undefined,
    securityAccess: Object.keys(access).length > 0 ? access : undefined,
    proxyConfigName: proxy,
    workloadAnalytics: optBool(sent.workloadAnalytics),
    freeipa: { instanceCountByGroup: servers, multiAz: bool(ipa.multiAz), recipes: strings(ipa.recipes) },
  }) as unknown as EnvRecord;
  env.ipa = newIpa(env, {
    ...env.freeipa,
    instanceType: str(ipa.instanceType),
    image: { id: str(image.id), os: str(image.os), catalog: str(image.catalog) },
  });
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
  const privateCloud = compact({
    address,
    user: text(sent.user),
    clusterNames,
    platform,
    namespacePrefix: str(sent.namespacePrefix) ?? 'cdp',
    domain: str(sent.domain),
    storageClass: str(sent.storageClass),
    quota:
      Object.keys(quota).length > 0
        ? { cpuQuota: num(quota.cpuQuota), memoryQuota: num(quota.memoryQuota), gpuQuota: num(quota.gpuQuota) }
        : undefined,
  });
  return {
    ...made,
    region: 'on-premises',
    // A private cloud environment runs on its Kubernetes platform, which the public clouds' type does not list:
    // other services compare it with their clouds and refuse it, as the control plane does.
    cloudPlatform: platform.toUpperCase(),
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
}

// ---- what every answer shows ----------------------------------------------------------------

/** What an environment shows beyond its document: its FreeIPA, its proxy configuration (never its password), its network as the wire has it. */
export function environmentShown(h: Hook<R>, rec: Rec, view: Doc): Doc {
  const e = view as unknown as EnvRecord;
  return {
    network: { ...e.network, networkCidr: e.network.networkCidr || undefined },
    freeipa: freeipaDetails(h, e, rec),
    ipa: undefined,
    proxyConfig: e.proxyConfigName ? h.records('proxyConfig').find(e.proxyConfigName)?.doc : undefined,
    // A private cloud environment is neither a public cloud nor a hybrid one.
    environmentType: e.privateCloud ? undefined : e.environmentType,
  };
}

/** The environment as answers show it. */
const shown = (h: Hook<R>, rec: Rec): Doc => h.records('environment').view(rec as EngineRecord);

/** What runs in an environment that is not a data service. */
const NOT_DATA_SERVICES = ['datalake', 'datahub', 'environments'];

export const connectedDataServices = (h: Hook<R>, rec: Readonly<EngineRecord>): Doc => {
  const byService = new Map<string, string[]>();
  for (const d of h.ctx.world.inEnvironment(h.ctx, rec.crn ?? ''))
    if (!NOT_DATA_SERVICES.includes(d.service)) byService.set(d.service, [...(byService.get(d.service) ?? []), d.name]);
  return { result: [...byService].map(([name, clusters]) => ({ name, clusters })) };
};

// ---- stop, start, delete ----------------------------------------------------------------------

/** Stopping or starting (`action`): not a private cloud environment (`refusal`), not while FreeIPA works, from a state it starts from. */
const canStopOrStart =
  (action: 'stop' | 'start', refusal: string) =>
  (h: Hook<R>, rec: Rec): void => {
    const e = envOf(h, rec);
    if (e.privateCloud) throw failedPrecondition(`environment ${e.environmentName} is a private cloud environment; ${refusal}`);
    ipaIdle(h, e, rec, `a ${action}`);
    requireState(h, e, ENVIRONMENT[action]?.from ?? [], action);
  };

export const canStop = canStopOrStart('stop', 'it does not stop');
export const canStart = canStopOrStart('start', 'it does not stop or start');

/** What runs in the environment stops with it. */
export function stopsWhatRuns(h: Hook<R>, rec: Rec): Doc {
  h.ctx.world.follow(h.ctx, rec.crn ?? '', 'stop');
  return {};
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
  const name = nameOf(rec);
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
function atRest(h: Hook<R>, e: EnvRecord, what: string, clouds?: readonly CloudPlatform[]): EnvRecord {
  if (clouds && !clouds.includes(e.cloudPlatform))
    throw failedPrecondition(
      `environment ${e.environmentName} runs on ${e.cloudPlatform}; ${what} is for ${clouds.join(' and ')} environments`,
    );
  if (busy(h, e)) throw failedPrecondition(`environment ${e.environmentName} is ${e.status}; ${what} waits until it is done`);
  return e;
}

type Change = (h: Hook<R>, e: EnvRecord, req: Doc) => Partial<EnvRecord>;

/** What each change of an environment sets, by operation: its request as sent (`asChange`). */
const CHANGES: Readonly<Record<string, Change>> = {
  setCatalog: (_h, e, req) => catalogSet(e, req),
  attachFreeIpaRecipes: (_h, e, req) => recipesAttached(e, req),
  detachFreeIpaRecipes: (_h, e, req) => recipesDetached(e, req),
  changeEnvironmentCredential: (h, e, req) => {
    const cred = credentialOf(h, text(req.credentialName));
    if (cred.cloudPlatform !== e.cloudPlatform)
      throw invalid(
        `credential ${cred.credentialName} is for ${cred.cloudPlatform}; environment ${e.environmentName} runs on ${e.cloudPlatform}`,
      );
    return { credentialName: cred.credentialName };
  },
  updateTags: (_h, e, req) => ({ tags: { ...e.tags, userDefined: { ...e.tags.userDefined, ...stringMap(req.tags) } } }),
  updateProxyConfig: (h, _e, req) => {
    const name = bool(req.removeProxy) ? undefined : str(req.proxyConfigName);
    return { proxyConfigName: name ? proxyName(h, name) : undefined };
  },
  setTelemetryFeatures: (_h, _e, req) => compact({ workloadAnalytics: optBool(req.workloadAnalytics) }),
  updateSubnet: (h, e, req) => {
    atRest(h, e, 'a subnet update');
    const subnetIds = strings(req.subnetIds);
    const gateway = strings(req.endpointAccessGatewaySubnetIds);
    if (subnetIds.length === 0 && gateway.length === 0)
      throw invalid('nothing to update: give --subnet-ids or --endpoint-access-gateway-subnet-ids');
    const given = compact({ subnetIds: some(uniq(subnetIds)), endpointAccessGatewaySubnetIds: some(uniq(gateway)) });
    return { network: { ...e.network, ...given } };
  },
  updateSecurityAccess: (h, e, req) => {
    atRest(h, e, 'a security access update');
    return {
      securityAccess: {
        securityGroupIdForKnox: text(req.gatewayNodeSecurityGroupId),
        defaultSecurityGroupId: text(req.defaultSecurityGroupId),
      },
    };
  },
  updateSshKey: (h, e, req) => {
    atRest(h, e, 'an SSH key update');
    const publicKey = str(req.newPublicKey);
    const publicKeyId = str(req.existingPublicKeyId);
    if (publicKey && !/^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp\d+) [A-Za-z0-9+/=]+( .*)?$/.test(publicKey.trim()))
      throw invalid('--new-public-key is not an OpenSSH public key ("ssh-ed25519 AAAA..." or "ssh-rsa AAAA...")');
    const loginUserName = e.authentication?.loginUserName ?? 'cloudbreak';
    return { authentication: compact({ publicKey: publicKey?.trim(), publicKeyId, loginUserName }) as EnvRecord['authentication'] };
  },
  updateAwsDiskEncryptionParameters: (h, e, req) => {
    atRest(h, e, 'a disk encryption key update', ['AWS']);
    const keyArn = text(req.encryptionKeyArn);
    if (!/^arn:aws(-us-gov)?:kms:[a-z0-9-]+:\d{12}:(key|alias)\/.+$/.test(keyArn))
      throw invalid(`${keyArn.slice(0, 200)} is not the ARN of a KMS key`);
    return { encryptionKeyArn: keyArn };
  },
  updateAzureEncryptionResources: (h, e, req) => {
    atRest(h, e, 'an encryption resources update', ['AZURE']);
    const encryptionKeyUrl = text(req.encryptionKeyUrl);
    if (!/^https:\/\/[a-z0-9-]+\.vault\.azure\.net\/keys\/[^/]+\/[0-9a-f]+$/i.test(encryptionKeyUrl))
      throw invalid(`${encryptionKeyUrl.slice(0, 200)} is not the URL of a key version in an Azure key vault`);
    const group = str(req.encryptionKeyResourceGroupName) ?? e.azureDetails?.resourceGroupName ?? e.network.azure?.resourceGroupName;
    return {
      azureDetails: {
        ...e.azureDetails,
        resourceEncryptionParameters: {
          encryptionKeyUrl,
          ...compact({ encryptionKeyResourceGroupName: group, encryptionUserManagedIdentity: str(req.encryptionUserManagedIdentity) }),
          diskEncryptionSetId: `/subscriptions/${e.crn.split(':')[4] ?? ''}/resourceGroups/${group ?? 'cdp'}/providers/Microsoft.Compute/diskEncryptionSets/${e.environmentName}-des`,
        },
      },
    };
  },
  updateAzureDatabaseResources: (h, e, req) => {
    atRest(h, e, 'a database resources update', ['AZURE']);
    const net = e.network.azure;
    if (!net) throw failedPrecondition(`environment ${e.environmentName} has no Azure network`);
    const zoneId = str(req.databasePrivateDnsZoneId);
    const subnets = strings(req.flexibleServerSubnetIds);
    if (!zoneId && subnets.length === 0)
      throw invalid('nothing to update: give --database-private-dns-zone-id or --flexible-server-subnet-ids');
    const given = compact({ databasePrivateDnsZoneId: zoneId, flexibleServerSubnetIds: some(subnets) });
    return { network: { ...e.network, azure: { ...net, ...given } } };
  },
  updateAzureAvailabilityZones: (h, e, req) => {
    atRest(h, e, 'an availability zone update', ['AZURE']);
    const zones = strings(req.availabilityZones);
    const bad = zones.filter((z) => !AZURE_ZONES.includes(z));
    if (zones.length === 0 || bad.length > 0)
      throw invalid(`Azure availability zones are ${AZURE_ZONES.join(', ')}; got ${zones.join(', ') || 'none'}`);
    return { availabilityZones: [...new Set([...(e.availabilityZones ?? []), ...zones])].sort() };
  },
  updateCustomDockerRegistry: (h, e, req) => {
    atRest(h, e, 'a Docker registry update');
    const registry = text(req.customDockerRegistry);
    if (!isCrn(registry)) throw invalid(`${registry.slice(0, 200)} is not the CRN of a custom Docker registry`);
    return { customDockerRegistry: { crn: registry } };
  },
  updateDataServiceResources: (h, e, req) => {
    atRest(h, e, 'a data services update', ['AZURE']);
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
  return change(h, envOf(h, rec), obj(req.change)) as Doc;
}

/** The answer of a change that shows the environment and a part of it (`field`). */
const withPart =
  (field: string, part: (e: EnvRecord) => unknown) =>
  (h: Hook<R>, rec: Rec): Doc => ({ environment: shown(h, rec), [field]: part(rec.doc as unknown as EnvRecord) });

export const withDiskEncryption = withPart('awsDiskEncryptionParameters', (e) => ({ encryptionKeyArn: e.encryptionKeyArn }));
export const withResourceEncryption = withPart('resourceEncryptionParameters', (e) => e.azureDetails?.resourceEncryptionParameters);
export const withDatabaseResources = withPart('azureDatabaseResources', ({ network: { azure } }) => ({
  databasePrivateDnsZoneId: azure?.databasePrivateDnsZoneId,
  flexibleServerSubnetIds: azure?.flexibleServerSubnetIds,
}));

// ---- changes that take time (actions) -------------------------------------------------------------

/** FAILED_PRECONDITION unless the environment is in a state the action starts from (the action in words). */
function startsFrom(h: Hook<R>, e: EnvRecord, action: string): void {
  const from = ENVIRONMENT[action]?.from;
  if (from) requireState(h, e, from, ACTION_WORDS[action] ?? action);
}

/** A CCM upgrade: of an environment on an older Cluster Connectivity Manager. */
export function canUpgradeCcm(h: Hook<R>, rec: Rec): void {
  const e = atRest(h, envOf(h, rec), 'a CCM upgrade');
  const tunnel = e.tunnel ?? 'CCMV2';
  if (tunnel === 'DIRECT')
    throw failedPrecondition(
      `environment ${e.environmentName} does not use Cluster Connectivity Manager (it was created without a tunnel)`,
    );
  if (tunnel === 'CCMV2_JUMPGATE')
    throw failedPrecondition(`environment ${e.environmentName} already runs the newest Cluster Connectivity Manager (CCMV2_JUMPGATE)`);
  startsFrom(h, e, 'upgradeccm');
}

/** The cloud a compute cluster initialization is for, by its operation. */
const computeCloud = (h: Hook<R>): 'AWS' | 'AZURE' => (h.ctx.op.name === 'initializeAzureComputeCluster' ? 'AZURE' : 'AWS');

/** A compute cluster: of the operation's cloud, private without public API ranges, on the environment's own subnets. */
export function canMakeComputeCluster(h: Hook<R>, rec: Rec, req: Doc): void {
  const e = atRest(h, envOf(h, rec), 'a compute cluster', [computeCloud(h)]);
  const config = computeConfig(req.computeClusterConfiguration);
  if (config.privateCluster && (config.kubeApiAuthorizedIpRanges?.length ?? 0) > 0)
    throw invalid('a private compute cluster has no public API server: leave out kubeApiAuthorizedIpRanges');
  const unknown = (config.workerNodeSubnets ?? []).filter((s) => !e.network.subnetIds.includes(s));
  if (unknown.length > 0)
    throw invalid(
      `worker node subnets ${unknown.join(', ')} are not subnets of environment ${e.environmentName} (${e.network.subnetIds.join(', ')})`,
    );
  startsFrom(h, e, e.computeClusterEnabled ? 'computereinit' : 'computecluster');
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
  const e = environmentOf(h, text(req.environmentName));
  return h.serve(verbs<R>('environment').act(e.computeClusterEnabled ? 'computereinit' : 'computecluster'), req);
}

/** An endpoint access gateway: a public one needs public subnets. */
export function canSetGateway(h: Hook<R>, rec: Rec, req: Doc): void {
  const e = atRest(h, envOf(h, rec), 'an endpoint access gateway update');
  if (
    req.endpointAccessGatewayScheme === 'PUBLIC' &&
    strings(req.endpointAccessGatewaySubnetIds).length === 0 &&
    !e.network.endpointAccessGatewaySubnetIds?.length
  )
    throw invalid('a PUBLIC endpoint access gateway needs public subnets: give --endpoint-access-gateway-subnet-ids');
  startsFrom(h, e, 'endpointgateway');
}

/** What an endpoint access gateway's success sets: its scheme and subnets. */
export function gatewaySet(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const e = envOf(h, rec);
  const scheme = req.endpointAccessGatewayScheme === 'PUBLIC' ? 'PUBLIC' : 'PRIVATE';
  const subnets = compact({ endpointAccessGatewaySubnetIds: some(strings(req.endpointAccessGatewaySubnetIds)) });
  return { network: { ...e.network, endpointAccessGatewayScheme: scheme, ...subnets } };
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
  const e = hybrid(envOf(h, rec));
  if (e.trust?.active)
    throw failedPrecondition(`environment ${e.environmentName} already trusts ${e.trust.realm}; cancel that trust first`);
  const spec = trustIn(req);
  if (spec.kdcServers.length !== 1) throw invalid('give one KDC server (--kdc-servers); more are not supported yet');
  if (spec.dnsServerIps.length > 1) throw invalid('give one DNS server address (--dns-server-ips); more are not supported yet');
  for (const ip of [...spec.kdcServers.map((k) => k.ip), ...spec.dnsServerIps])
    if (!IPV4.test(ip)) throw invalid(`${ip.slice(0, 100)} is not an IPv4 address`);
  if (!/^[A-Za-z0-9.-]+$/.test(spec.realm)) throw invalid(`${spec.realm.slice(0, 100)} is not a Kerberos realm`);
  if (!isCrn(spec.remoteEnvironmentCrn)) throw invalid(`${spec.remoteEnvironmentCrn.slice(0, 200)} is not an environment CRN`);
  startsFrom(h, e, 'trustsetup');
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
    const e = hybrid(envOf(h, rec));
    const trust = trustOf(e);
    if (action === 'trustrepair' && !trust.active)
      throw failedPrecondition(
        `the trust of environment ${e.environmentName} with ${trust.realm} is not set up yet; finish its setup first`,
      );
    startsFrom(h, e, action);
  };

/** What finishing a trust's setup sets: the trust in use. */
export const trustFinished = (h: Hook<R>, rec: Rec): Doc => ({ trust: { ...trustOf(envOf(h, rec)), active: true } });

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
  const e = hybrid(envOf(h, rec));
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
