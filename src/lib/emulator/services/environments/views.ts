/** What the wire shows of an environment beyond its document (its FreeIPA, its proxy configuration), and FreeIPA's own answers. */
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import type { Doc } from '../../types.js';
import { backendOf, type R } from './backend.js';
import { DEFAULT_FREEIPA_IMAGE, FREEIPA_CATALOG } from './catalogue.js';
import { domainOf, imageById, ipaOf, ipaRequired, ipaStatus, nodeStatuses } from './freeipa.js';
import type { EnvRecord, IpaState } from './records.js';

/** The status of an environment's FreeIPA and of each of its servers (getFreeipaStatus). */
export function freeipaStatus(h: Hook<R>, env: Readonly<EngineRecord>): Doc {
  const e = backendOf(h).of(env);
  const f = ipaRequired(e);
  const nodes = nodeStatuses(h, e, env, f);
  return {
    environmentCrn: e.crn,
    environmentName: e.environmentName,
    status: ipaStatus(h, e, env),
    instances: Object.fromEntries(f.instances.map((n) => [n.id, { hostname: n.fqdn, status: nodes.get(n.id), instanceId: n.id }])),
  };
}

function freeipaDetails(e: EnvRecord, f: IpaState, nodes: ReadonlyMap<string, string>): Doc {
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
      instanceStatus: nodes.get(n.id),
      instanceType: 'GATEWAY_PRIMARY',
      instanceVmType: f.instanceType,
      privateIP: n.ip,
      sshPort: 22,
      subnetId: n.subnet,
    })),
  };
}

/** What an environment shows beyond its stored document: its FreeIPA, its proxy configuration (never its password), its network as the wire has it. */
export function environmentView(h: Hook<R>, e: EnvRecord, env: Readonly<EngineRecord>, proxy?: Doc): Doc {
  const f = ipaOf(e);
  return {
    network: { ...e.network, networkCidr: e.network.networkCidr || undefined },
    freeipa: f ? freeipaDetails(e, f, nodeStatuses(h, e, env, f)) : undefined,
    ipa: undefined,
    proxyConfig: proxy,
    // A private cloud environment is neither a public cloud nor a hybrid one.
    environmentType: e.privateCloud ? undefined : e.environmentType,
  };
}
