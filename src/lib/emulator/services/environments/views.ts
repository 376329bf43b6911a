/** Environments records -> wire documents (Environment, EnvironmentSummary, Credential, ProxyConfig, FreeIPA). */
import type { Doc } from '../../types.js';
import { compact } from '../../values.js';
import { DEFAULT_FREEIPA_IMAGE, FREEIPA_CATALOG, type FreeipaImage } from './catalogue.js';
import { domainOf, imageById, type Freeipa } from './freeipa.js';
import type { EnvRecord, FreeipaRecord } from './records.js';

/** The wire `ImageInfoResponse` of a FreeIPA image. */
export const imageView = (i: FreeipaImage, catalog: string): Doc => ({
  catalog,
  id: i.id,
  os: i.os,
  imageName: i.imageName,
  date: i.date,
  catalogName: catalog === FREEIPA_CATALOG.url ? FREEIPA_CATALOG.name : 'custom',
});

export function freeipaStatusView(e: EnvRecord, f: FreeipaRecord, ipa: Freeipa): Doc {
  return {
    environmentCrn: e.crn,
    environmentName: e.environmentName,
    status: ipa.status(e, f),
    instances: Object.fromEntries(f.instances.map((n) => [n.id, { hostname: n.fqdn, status: ipa.nodeStatus(e, f, n), instanceId: n.id }])),
  };
}

function freeipaDetails(e: EnvRecord, f: FreeipaRecord, ipa: Freeipa): Doc {
  const image = imageById(f.image) ?? DEFAULT_FREEIPA_IMAGE;
  return {
    crn: e.crn.replace(':environments:', ':freeipa:').replace(':environment:', ':freeipa:'),
    domain: domainOf(e),
    hostname: 'ipaserver',
    serverIP: f.instances.map((n) => n.ip),
    recipes: f.recipes,
    instanceCountByGroup: f.instances.length,
    multiAz: f.multiAz,
    imageDetails: { imageId: image.id, imageCatalogName: f.catalog ?? FREEIPA_CATALOG.name, imageOs: image.os },
    instances: f.instances.map((n) => ({
      instanceId: n.id,
      discoveryFQDN: n.fqdn,
      instanceGroup: 'master',
      instanceStatus: ipa.nodeStatus(e, f, n),
      instanceType: 'GATEWAY_PRIMARY',
      instanceVmType: f.instanceType,
      privateIP: n.ip,
      sshPort: 22,
      subnetId: n.subnet,
    })),
  };
}

/** What an environment's answers all show of it. */
const basics = (e: EnvRecord): Doc => ({
  environmentName: e.environmentName,
  crn: e.crn,
  status: e.status,
  region: e.region,
  cloudPlatform: e.cloudPlatform,
  credentialName: e.credentialName,
  description: e.description,
  created: e.created,
});

/** The wire `Environment`: the shared record's wire fields and this service's, never its own bookkeeping. */
export function environmentView(e: EnvRecord, ipa: Freeipa, proxy?: Doc): Doc {
  const f = ipa.find(e);
  const { networkCidr, ...network } = e.network;
  return compact({
    ...basics(e),
    network: compact({ ...network, networkCidr: networkCidr || undefined }),
    logStorage: e.logStorage,
    authentication: e.authentication,
    securityAccess: e.securityAccess,
    statusReason: e.statusReason,
    creator: e.creator,
    azureDetails: e.azureDetails ? compact({ ...e.azureDetails }) : undefined,
    workloadAnalytics: e.workloadAnalytics,
    freeipa: f ? freeipaDetails(e, f, ipa) : undefined,
    // A proxy configuration's record never held its password.
    proxyConfig: proxy,
    tags: e.tags,
    dataServices: e.dataServices,
    customDockerRegistry: e.customDockerRegistry,
    awsComputeClusterConfiguration: e.awsComputeClusterConfiguration,
    azureComputeClusterConfiguration: e.azureComputeClusterConfiguration,
    computeClusterEnabled: e.computeClusterEnabled,
    // A private cloud environment is neither a public cloud nor a hybrid one.
    environmentType: e.privateCloud ? undefined : e.environmentType,
  });
}

/** The wire `EnvironmentSummary`. */
export const environmentSummary = (e: EnvRecord): Doc =>
  compact({ ...basics(e), proxyConfigName: e.proxyConfigName, computeClusterEnabled: e.computeClusterEnabled });
