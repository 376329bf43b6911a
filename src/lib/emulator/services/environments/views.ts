/** What the wire shows of an environment beyond its document (its FreeIPA, its proxy configuration), and FreeIPA's own answers. */
import type { Doc } from '../../types.js';
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

/** What an environment shows beyond its stored document: its FreeIPA, its proxy configuration (never its password), its network as the wire has it. */
export function environmentView(e: EnvRecord, ipa: Freeipa, proxy?: Doc): Doc {
  const f = ipa.find(e);
  return {
    network: { ...e.network, networkCidr: e.network.networkCidr || undefined },
    freeipa: f ? freeipaDetails(e, f, ipa) : undefined,
    proxyConfig: proxy,
    // A private cloud environment is neither a public cloud nor a hybrid one.
    environmentType: e.privateCloud ? undefined : e.environmentType,
  };
}
