/** Environments records -> wire documents (Environment, EnvironmentSummary, Credential, ProxyConfig, FreeIPA). */
import type { CredentialRecord, EnvironmentRecord } from '../../environments.js';
import type { Doc } from '../../types.js';
import { compact, hex } from '../../values.js';
import type { IdBrokerRecord, ProxyRecord } from './backend.js';

/** FreeIPA's status while its environment is in a state. */
const FREEIPA_STATUS: Readonly<Record<string, string>> = {
  CREATION_INITIATED: 'REQUESTED',
  ENVIRONMENT_VALIDATION_IN_PROGRESS: 'REQUESTED',
  NETWORK_CREATION_IN_PROGRESS: 'REQUESTED',
  FREEIPA_CREATION_IN_PROGRESS: 'CREATE_IN_PROGRESS',
  CREATE_FAILED: 'CREATE_FAILED',
  STOP_FREEIPA_STARTED: 'STOP_IN_PROGRESS',
  STOP_FREEIPA_FAILED: 'STOP_FAILED',
  ENV_STOPPED: 'STOPPED',
  START_FREEIPA_STARTED: 'START_IN_PROGRESS',
  START_FREEIPA_FAILED: 'START_FAILED',
  FREEIPA_DELETE_IN_PROGRESS: 'DELETE_IN_PROGRESS',
  NETWORK_DELETE_IN_PROGRESS: 'DELETE_COMPLETED',
  DELETE_FAILED: 'DELETE_FAILED',
};

/** Each FreeIPA node's status while FreeIPA is in a state. */
const NODE_STATUS: Readonly<Record<string, string>> = {
  REQUESTED: 'REQUESTED',
  CREATE_IN_PROGRESS: 'REQUESTED',
  CREATE_FAILED: 'FAILED',
  STOPPED: 'STOPPED',
  DELETE_COMPLETED: 'TERMINATED',
  DELETE_IN_PROGRESS: 'DELETE_REQUESTED',
};

export const freeipaStatus = (e: EnvironmentRecord): string => FREEIPA_STATUS[e.status] ?? 'AVAILABLE';

const domainOf = (e: EnvironmentRecord): string => `${e.environmentName}.${hex(e.crn, 4)}-${hex(`${e.crn}/d`, 4)}.cloudera.site`;

/** FreeIPA's instances: `instanceCountByGroup` servers in the environment's first subnets. */
function freeipaNodes(e: EnvironmentRecord): Array<{ id: string; fqdn: string; ip: string; subnet: string }> {
  return Array.from({ length: e.freeipa.instanceCountByGroup }, (_, i) => ({
    id: `${e.cloudPlatform === 'AWS' ? 'i-' : ''}${hex(`${e.crn}/ipa/${i}`, 17)}`,
    fqdn: `ipaserver${i}.${domainOf(e)}`,
    ip: `10.10.${i}.${10 + (parseInt(hex(`${e.crn}/ip/${i}`, 2), 16) % 200)}`,
    subnet: e.network.subnetIds[i % Math.max(1, e.network.subnetIds.length)] ?? '',
  }));
}

export function freeipaStatusView(e: EnvironmentRecord): Doc {
  const status = freeipaStatus(e);
  const node = NODE_STATUS[status] ?? 'CREATED';
  return {
    environmentCrn: e.crn,
    environmentName: e.environmentName,
    status,
    instances: Object.fromEntries(freeipaNodes(e).map((n) => [n.id, { hostname: n.fqdn, status: node, instanceId: n.id }])),
  };
}

function freeipaDetails(e: EnvironmentRecord): Doc {
  const nodes = freeipaNodes(e);
  return {
    crn: e.crn.replace(':environments:', ':freeipa:').replace(':environment:', ':freeipa:'),
    domain: domainOf(e),
    hostname: 'ipaserver',
    serverIP: nodes.map((n) => n.ip),
    recipes: e.freeipa.recipes,
    instanceCountByGroup: e.freeipa.instanceCountByGroup,
    multiAz: e.freeipa.multiAz,
    instances: nodes.map((n) => ({
      instanceId: n.id,
      discoveryFQDN: n.fqdn,
      instanceGroup: 'master',
      instanceStatus: NODE_STATUS[freeipaStatus(e)] ?? 'CREATED',
      instanceType: 'GATEWAY_PRIMARY',
      privateIP: n.ip,
      sshPort: 22,
      subnetId: n.subnet,
    })),
  };
}

/** The wire `Environment`. */
export function environmentView(e: EnvironmentRecord, proxy?: ProxyRecord): Doc {
  const { activity: _activity, freeipa: _freeipa, proxyConfigName: _proxy, ...wire } = e;
  return compact({
    ...wire,
    statusReason: e.statusReason,
    freeipa: freeipaDetails(e),
    proxyConfig: proxy ? proxyView(proxy) : undefined,
  });
}

/** The wire `EnvironmentSummary`. */
export const environmentSummary = (e: EnvironmentRecord): Doc =>
  compact({
    environmentName: e.environmentName,
    crn: e.crn,
    status: e.status,
    region: e.region,
    cloudPlatform: e.cloudPlatform,
    credentialName: e.credentialName,
    description: e.description,
    created: e.created,
    proxyConfigName: e.proxyConfigName,
    computeClusterEnabled: e.computeClusterEnabled,
  });

export const credentialView = (c: CredentialRecord): Doc => ({ ...c });

/** The wire `ProxyConfig`; the password is never answered. */
export const proxyView = (p: ProxyRecord): Doc => {
  const { hasPassword: _hasPassword, ...wire } = p;
  return compact({ ...wire });
};

export const idBrokerView = (m: IdBrokerRecord): Doc =>
  compact({
    mappingsVersion: m.mappingsVersion,
    dataAccessRole: m.dataAccessRole,
    rangerAuditRole: m.rangerAuditRole,
    rangerCloudAccessAuthorizerRole: m.rangerCloudAccessAuthorizerRole,
    baselineRole: m.baselineRole,
    mappings: m.mappings,
  });
