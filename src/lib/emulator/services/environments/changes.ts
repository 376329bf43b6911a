/**
 * An environment after it is made: private cloud environments registered
 * with their Cloudera Manager; the settings that only new Data Hubs take
 * (subnets, security groups, SSH key, encryption, Docker registry...),
 * changed at once while the environment is at rest; and the changes that
 * take time and show in its status (CCM upgrade, compute cluster,
 * endpoint access gateway, cross-realm trust with Active Directory), each
 * an operation `operations describe` follows.
 */
import type { CloudPlatform } from '../../environments.js';
import { alreadyExists, failedPrecondition, invalid } from '../../errors.js';
import { isCrn } from '../../ids.js';
import type { EnvironmentsBackend } from './backend.js';
import { AZURE_ZONES } from './catalogue.js';
import { domainOf, realmOf } from './freeipa.js';
import { usersFingerprint } from './identity.js';
import { ACTION_WORDS, ENVIRONMENT_WORK } from './lifecycles.js';
import type { AzureEncryption, ComputeClusterConfiguration, EnvRecord, PrivateCloudRecord, TrustRecord } from './records.js';

export interface PrivateEnvironmentSpec extends PrivateCloudRecord {
  readonly name: string;
  readonly description?: string;
}

export interface TrustSpec {
  readonly realm: string;
  readonly kdcServers: Array<{ fqdn: string; ip: string }>;
  readonly dnsServerIps: string[];
  readonly remoteEnvironmentCrn: string;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

export class EnvironmentChanges {
  constructor(private readonly b: EnvironmentsBackend) {}

  private get ctx(): EnvironmentsBackend['ctx'] {
    return this.b.ctx;
  }

  /** The environment, at rest (no action under way), on one of `clouds` when given. */
  private atRest(ref: string, what: string, clouds?: readonly CloudPlatform[]): EnvRecord {
    const e = this.b.environment(ref);
    if (clouds && !clouds.includes(e.cloudPlatform))
      throw failedPrecondition(
        `environment ${e.environmentName} runs on ${e.cloudPlatform}; ${what} is for ${clouds.join(' and ')} environments`,
      );
    if (this.b.envs.busy(e)) throw failedPrecondition(`environment ${e.environmentName} is ${e.status}; ${what} waits until it is done`);
    return e;
  }

  /** Begins a change of the whole environment; `effect` is what its success sets. */
  private begin(e: EnvRecord, action: string, effect: Partial<EnvRecord>): string {
    const from = ENVIRONMENT_WORK[action]?.from;
    if (from) this.b.envs.require(e, from, ACTION_WORDS[action] ?? action);
    return this.b.envs.begin(e, action, { effect, anyState: true }).operationId ?? '';
  }

  // ---- private cloud ------------------------------------------------------------

  /** Registers a private cloud environment: its Cloudera Manager's base cluster is its data lake. */
  createPrivate(spec: PrivateEnvironmentSpec): EnvRecord {
    if (this.b.envs.find(spec.name)) throw alreadyExists(`an environment named ${spec.name} already exists`);
    const url = /^https?:\/\/([^/:\s]+)(:\d+)?\/?$/.exec(spec.address);
    if (!url) throw invalid(`${spec.address.slice(0, 200)} is not the address of a Cloudera Manager (https://host:port)`);
    if (spec.clusterNames.length === 0) throw invalid('give the base cluster(s) to use as the data lake: --cluster-names');
    const { name, description, ...privateCloud } = spec;
    const rec: Omit<EnvRecord, 'activity'> = {
      environmentName: name,
      crn: this.b.crnOf('environment'),
      status: '',
      region: 'on-premises',
      // A private cloud environment runs on its Kubernetes platform, which the public clouds' type does not list:
      // other services compare it with their clouds and refuse it, as the control plane does.
      cloudPlatform: spec.platform.toUpperCase() as CloudPlatform,
      credentialName: '',
      description: description ?? '',
      created: this.ctx.clock.iso(),
      creator: this.ctx.caller.actorCrn,
      network: { networkName: `${name}-network`, subnetIds: [], networkCidr: '' },
      logStorage: { enabled: false },
      computeClusterEnabled: true,
      environmentType: 'PUBLIC_CLOUD',
      tags: { userDefined: {}, defaults: { 'Cloudera-Environment-Resource-Name': name } },
      freeipa: { instanceCountByGroup: 0, multiAz: false, recipes: [] },
      usersSeen: { fingerprint: usersFingerprint(this.ctx), at: this.ctx.clock.now() },
      privateCloud,
    };
    const env = this.b.envs.create(rec, 'register');
    env.status = this.b.envs.state(env);
    return env;
  }

  // ---- settings new Data Hubs take -------------------------------------------------

  updateSubnets(ref: string, subnetIds: readonly string[], gatewaySubnetIds: readonly string[]): EnvRecord {
    const e = this.atRest(ref, 'a subnet update');
    if (subnetIds.length === 0 && gatewaySubnetIds.length === 0)
      throw invalid('nothing to update: give --subnet-ids or --endpoint-access-gateway-subnet-ids');
    if (subnetIds.length > 0) e.network.subnetIds = [...new Set(subnetIds)];
    if (gatewaySubnetIds.length > 0) e.network.endpointAccessGatewaySubnetIds = [...new Set(gatewaySubnetIds)];
    return this.b.envs.save(e);
  }

  updateSecurityAccess(ref: string, gatewayGroup: string, defaultGroup: string): EnvRecord {
    const e = this.atRest(ref, 'a security access update');
    e.securityAccess = { securityGroupIdForKnox: gatewayGroup, defaultSecurityGroupId: defaultGroup };
    return this.b.envs.save(e);
  }

  updateSshKey(ref: string, key: { publicKey?: string; publicKeyId?: string }): EnvRecord {
    const e = this.atRest(ref, 'an SSH key update');
    if (key.publicKey && !/^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp\d+) [A-Za-z0-9+/=]+( .*)?$/.test(key.publicKey.trim()))
      throw invalid('--new-public-key is not an OpenSSH public key ("ssh-ed25519 AAAA..." or "ssh-rsa AAAA...")');
    e.authentication = {
      ...(key.publicKey ? { publicKey: key.publicKey.trim() } : {}),
      ...(key.publicKeyId ? { publicKeyId: key.publicKeyId } : {}),
      loginUserName: e.authentication?.loginUserName ?? 'cloudbreak',
    };
    return this.b.envs.save(e);
  }

  updateAwsEncryption(ref: string, keyArn: string): EnvRecord {
    const e = this.atRest(ref, 'a disk encryption key update', ['AWS']);
    if (!/^arn:aws(-us-gov)?:kms:[a-z0-9-]+:\d{12}:(key|alias)\/.+$/.test(keyArn))
      throw invalid(`${keyArn.slice(0, 200)} is not the ARN of a KMS key`);
    e.encryptionKeyArn = keyArn;
    return this.b.envs.save(e);
  }

  updateAzureEncryption(ref: string, enc: AzureEncryption): EnvRecord {
    const e = this.atRest(ref, 'an encryption resources update', ['AZURE']);
    if (!/^https:\/\/[a-z0-9-]+\.vault\.azure\.net\/keys\/[^/]+\/[0-9a-f]+$/i.test(enc.encryptionKeyUrl))
      throw invalid(`${enc.encryptionKeyUrl.slice(0, 200)} is not the URL of a key version in an Azure key vault`);
    const group = enc.encryptionKeyResourceGroupName ?? e.azureDetails?.resourceGroupName ?? e.network.azure?.resourceGroupName;
    e.azureDetails = {
      ...e.azureDetails,
      resourceEncryptionParameters: {
        ...enc,
        ...(group ? { encryptionKeyResourceGroupName: group } : {}),
        diskEncryptionSetId: `/subscriptions/${e.crn.split(':')[4] ?? ''}/resourceGroups/${group ?? 'cdp'}/providers/Microsoft.Compute/diskEncryptionSets/${e.environmentName}-des`,
      },
    };
    return this.b.envs.save(e);
  }

  updateAzureDatabase(ref: string, zoneId: string | undefined, subnets: readonly string[]): EnvRecord {
    const e = this.atRest(ref, 'a database resources update', ['AZURE']);
    const net = e.network.azure;
    if (!net) throw failedPrecondition(`environment ${e.environmentName} has no Azure network`);
    if (!zoneId && subnets.length === 0)
      throw invalid('nothing to update: give --database-private-dns-zone-id or --flexible-server-subnet-ids');
    if (zoneId) net.databasePrivateDnsZoneId = zoneId;
    if (subnets.length > 0) net.flexibleServerSubnetIds = [...subnets];
    return this.b.envs.save(e);
  }

  updateAzureZones(ref: string, zones: readonly string[]): EnvRecord {
    const e = this.atRest(ref, 'an availability zone update', ['AZURE']);
    const bad = zones.filter((z) => !AZURE_ZONES.includes(z));
    if (zones.length === 0 || bad.length > 0)
      throw invalid(`Azure availability zones are ${AZURE_ZONES.join(', ')}; got ${zones.join(', ') || 'none'}`);
    e.availabilityZones = [...new Set([...(e.availabilityZones ?? []), ...zones])].sort();
    return this.b.envs.save(e);
  }

  updateDockerRegistry(ref: string, registry: string): EnvRecord {
    const e = this.atRest(ref, 'a Docker registry update');
    if (!isCrn(registry)) throw invalid(`${registry.slice(0, 200)} is not the CRN of a custom Docker registry`);
    e.customDockerRegistry = { crn: registry };
    return this.b.envs.save(e);
  }

  updateDataServices(ref: string, azure: { sharedManagedIdentity?: string; aksPrivateDnsZoneId?: string } | undefined): EnvRecord {
    const e = this.atRest(ref, 'a data services update', ['AZURE']);
    if (!azure?.sharedManagedIdentity)
      throw invalid('give the Azure shared managed identity: --data-services \'{"azure":{"sharedManagedIdentity":"..."}}\'');
    e.dataServices = { azure: { sharedManagedIdentity: azure.sharedManagedIdentity } };
    if (azure.aksPrivateDnsZoneId && e.network.azure) e.network.azure.aksPrivateDnsZoneId = azure.aksPrivateDnsZoneId;
    return this.b.envs.save(e);
  }

  setTelemetry(ref: string, workloadAnalytics: boolean | undefined): void {
    const e = this.b.environment(ref);
    if (workloadAnalytics !== undefined) e.workloadAnalytics = workloadAnalytics;
    this.b.envs.save(e);
  }

  // ---- changes that take time ---------------------------------------------------------

  upgradeCcm(ref: string): string {
    const e = this.atRest(ref, 'a CCM upgrade');
    const tunnel = e.tunnel ?? 'CCMV2';
    if (tunnel === 'DIRECT')
      throw failedPrecondition(
        `environment ${e.environmentName} does not use Cluster Connectivity Manager (it was created without a tunnel)`,
      );
    if (tunnel === 'CCMV2_JUMPGATE')
      throw failedPrecondition(`environment ${e.environmentName} already runs the newest Cluster Connectivity Manager (CCMV2_JUMPGATE)`);
    return this.begin(e, 'upgradeccm', { tunnel: 'CCMV2_JUMPGATE' });
  }

  /** Creates (or creates again) the Kubernetes compute cluster of an AWS or Azure environment. */
  initializeComputeCluster(ref: string, platform: 'AWS' | 'AZURE', config: ComputeClusterConfiguration): string {
    const e = this.atRest(ref, 'a compute cluster', [platform]);
    if (config.privateCluster && (config.kubeApiAuthorizedIpRanges?.length ?? 0) > 0)
      throw invalid('a private compute cluster has no public API server: leave out kubeApiAuthorizedIpRanges');
    const subnets = config.workerNodeSubnets ?? [];
    const unknown = subnets.filter((s) => !e.network.subnetIds.includes(s));
    if (unknown.length > 0)
      throw invalid(
        `worker node subnets ${unknown.join(', ')} are not subnets of environment ${e.environmentName} (${e.network.subnetIds.join(', ')})`,
      );
    const configured = platform === 'AWS' ? { awsComputeClusterConfiguration: config } : { azureComputeClusterConfiguration: config };
    return this.begin(e, e.computeClusterEnabled ? 'computereinit' : 'computecluster', { computeClusterEnabled: true, ...configured });
  }

  setEndpointAccessGateway(ref: string, scheme: 'PUBLIC' | 'PRIVATE', subnets: readonly string[]): string {
    const e = this.atRest(ref, 'an endpoint access gateway update');
    if (scheme === 'PUBLIC' && subnets.length === 0 && !e.network.endpointAccessGatewaySubnetIds?.length)
      throw invalid('a PUBLIC endpoint access gateway needs public subnets: give --endpoint-access-gateway-subnet-ids');
    const network: EnvRecord['network'] = {
      ...e.network,
      endpointAccessGatewayScheme: scheme,
      ...(subnets.length > 0 ? { endpointAccessGatewaySubnetIds: [...subnets] } : {}),
    };
    return this.begin(e, 'endpointgateway', { network });
  }

  // ---- cross-realm trust -----------------------------------------------------------------

  /** The hybrid environment a trust belongs to. */
  private hybrid(ref: string): EnvRecord {
    const e = this.b.environment(ref);
    if (e.environmentType !== 'HYBRID')
      throw failedPrecondition(
        `environment ${e.environmentName} is a ${e.environmentType} environment; cross-realm trust is for HYBRID environments`,
      );
    return e;
  }

  private trustOf(e: EnvRecord): TrustRecord {
    if (!e.trust)
      throw failedPrecondition(`environment ${e.environmentName} has no cross-realm trust; set one up with environments trust setup`);
    return e.trust;
  }

  setupTrust(ref: string, spec: TrustSpec): string {
    const e = this.hybrid(ref);
    if (e.trust?.active)
      throw failedPrecondition(`environment ${e.environmentName} already trusts ${e.trust.realm}; cancel that trust first`);
    if (spec.kdcServers.length !== 1) throw invalid('give one KDC server (--kdc-servers); more are not supported yet');
    if (spec.dnsServerIps.length > 1) throw invalid('give one DNS server address (--dns-server-ips); more are not supported yet');
    for (const ip of [...spec.kdcServers.map((k) => k.ip), ...spec.dnsServerIps])
      if (!IPV4.test(ip)) throw invalid(`${ip.slice(0, 100)} is not an IPv4 address`);
    if (!/^[A-Za-z0-9.-]+$/.test(spec.realm)) throw invalid(`${spec.realm.slice(0, 100)} is not a Kerberos realm`);
    if (!isCrn(spec.remoteEnvironmentCrn)) throw invalid(`${spec.remoteEnvironmentCrn.slice(0, 200)} is not an environment CRN`);
    const trust: TrustRecord = { ...spec, realm: spec.realm.toUpperCase(), active: false };
    return this.begin(e, 'trustsetup', { trust });
  }

  finishTrust(ref: string): string {
    const e = this.hybrid(ref);
    const trust = this.trustOf(e);
    return this.begin(e, 'trustfinish', { trust: { ...trust, active: true } });
  }

  cancelTrust(ref: string): string {
    const e = this.hybrid(ref);
    this.trustOf(e);
    return this.begin(e, 'trustcancel', { trust: null });
  }

  repairTrust(ref: string): string {
    const e = this.hybrid(ref);
    const trust = this.trustOf(e);
    if (!trust.active)
      throw failedPrecondition(
        `the trust of environment ${e.environmentName} with ${trust.realm} is not set up yet; finish its setup first`,
      );
    return this.begin(e, 'trustrepair', {});
  }

  /** The commands Active Directory and the base cluster run to set up (or clean up) the trust. */
  trustCommands(ref: string, cleanup: boolean): { environment: string; ad: string; krb5: string } {
    const e = this.hybrid(ref);
    const trust = this.trustOf(e);
    const realm = realmOf(e);
    const domain = domainOf(e);
    const ipa = this.b.freeipa.of(e).instances;
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
    return { environment: e.crn, ad: adCommands.join('\n'), krb5 };
  }
}
