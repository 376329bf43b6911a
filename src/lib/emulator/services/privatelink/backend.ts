/**
 * Private links in the emulator: state and rules, no HTTP. Each create,
 * update, delete or migrate starts work on a customer network: one endpoint
 * per control-plane component, IN_PROGRESS for a while and then SUCCESS
 * (endpoint id and DNS names set) or ERROR. The work is a lifecycle on the
 * emulator clock (WORK below), read lazily. A VPC or VNet id starting with
 * `fail-` makes the work end in ERROR.
 */
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { Resources, type Activity, type Lifecycle } from '../../lifecycle.js';
import type { BackendContext } from '../../types.js';

export const KIND = {
  work: 'cloudprivatelinks.work',
  network: 'cloudprivatelinks.network',
  access: 'cloudprivatelinks.access',
} as const;

export type Provider = 'AWS' | 'AZURE';
export type WorkKind = 'create' | 'update' | 'delete' | 'migrate';

export const SERVICE_GROUP = 'CDP-CONTROL-PLANE';

/** Endpoint work: three minutes IN_PROGRESS, then SUCCESS or ERROR. */
const WORK: Lifecycle = Object.fromEntries(
  (['create', 'update', 'delete', 'migrate'] as const).map((k) => [
    k,
    { phases: [['IN_PROGRESS', 3]], success: 'SUCCESS', failure: 'ERROR' },
  ]),
);

/** The control-plane components a network gets an endpoint for. */
export const COMPONENTS: ReadonlyArray<{ component: string; hostname: string }> = [
  { component: 'API', hostname: 'api.us-west-1.cdp.cloudera.com' },
  { component: 'IAM', hostname: 'iamapi.us-west-1.altus.cloudera.com' },
  { component: 'CONSOLE', hostname: 'console.us-west-1.cdp.cloudera.com' },
];

export const REGIONS: Readonly<Record<Provider, readonly string[]>> = {
  AWS: [
    'us-east-1',
    'us-east-2',
    'us-west-1',
    'us-west-2',
    'ca-central-1',
    'eu-central-1',
    'eu-west-1',
    'eu-west-2',
    'ap-southeast-1',
    'ap-southeast-2',
    'ap-northeast-1',
  ],
  AZURE: [
    'eastus',
    'eastus2',
    'centralus',
    'westus2',
    'westus3',
    'canadacentral',
    'westeurope',
    'northeurope',
    'uksouth',
    'australiaeast',
    'southeastasia',
  ],
};

export interface WorkRecord {
  trackingId: string;
  accountId: string;
  kind: WorkKind;
  provider: Provider;
  network: string;
  region: string;
  privateDns: boolean;
  createdAt: string;
  activity: Activity;
}

export interface NetworkRecord {
  key: string;
  provider: Provider;
  network: string;
  region: string;
  subnetIds: string[];
  resourceTags: Array<{ key: string; value: string }>;
  resourceGroup?: string;
  privateDns: boolean;
  /** Whether endpoints existed before the last work started. */
  hadEndpoints: boolean;
  lastTrackingId: string;
}

interface AccessRecord {
  provider: Provider;
  account: string;
  region: string;
  authorizedAt: string;
}

/** Where a network's endpoints stand: whether it has them, whether work runs, its status. */
export interface NetworkState {
  readonly has: boolean;
  readonly busy: boolean;
  readonly status: 'ENABLED' | 'DISABLED' | 'ERROR';
}

/** A new set of endpoints. */
export interface EndpointSpec {
  readonly provider: Provider;
  readonly network: string;
  readonly region?: string;
  readonly subnetIds: readonly string[];
  readonly resourceTags: NetworkRecord['resourceTags'];
  readonly resourceGroup?: string;
  readonly privateDns: boolean;
}

/** A change to existing endpoints. */
export interface EndpointChange {
  readonly provider: Provider;
  readonly network: string;
  readonly subnetIds?: { readonly ids: readonly string[]; readonly replace: boolean };
  readonly resourceTags?: NetworkRecord['resourceTags'];
  readonly resourceGroup?: string;
}

/** A cloud account allowed to reach the private-link services of a region. */
export interface AccessTarget {
  readonly provider: Provider;
  readonly account: string;
  readonly region: string;
}

export function checkRegion(provider: Provider, region: string | undefined): string {
  if (!region) throw invalid(provider === 'AWS' ? 'the AWS region is required' : 'the Azure location is required');
  if (!REGIONS[provider].includes(region))
    throw invalid(`private links are not offered in ${provider} region "${region}"; use one of ${REGIONS[provider].join(', ')}`);
  return region;
}

export function checkServiceGroup(group: string | undefined): void {
  if (group !== undefined && group !== SERVICE_GROUP) throw invalid(`serviceGroup must be ${SERVICE_GROUP}; got "${group}"`);
}

export class PrivateLinkBackend {
  private readonly work: Resources<WorkRecord>;

  constructor(private readonly ctx: BackendContext) {
    this.work = new Resources<WorkRecord>(ctx, {
      kind: KIND.work,
      noun: 'private-link work',
      lifecycle: WORK,
      id: (w) => w.trackingId,
      name: (w) => w.network,
      keys: () => ({}),
    });
  }

  private key(provider: Provider, network: string): string {
    return `${this.ctx.caller.accountId}:${provider}:${network.toLowerCase()}`;
  }

  /** Work by tracking id (of the caller's account), or NOT_FOUND. */
  workOf(trackingId: string): WorkRecord {
    const w = this.work.byId(trackingId);
    if (!w || w.accountId !== this.ctx.caller.accountId) throw notFound(`no private-link work with tracking id "${trackingId}"`);
    return w;
  }

  workProgress(w: WorkRecord): { state: string; done: boolean } {
    return this.work.progress(w);
  }

  /** What a network looks like now: whether it has endpoints, whether work is running, its status. */
  networkState(net: NetworkRecord): NetworkState {
    const w = this.work.byId(net.lastTrackingId);
    const before = { has: net.hadEndpoints, status: net.hadEndpoints ? ('ENABLED' as const) : ('DISABLED' as const) };
    if (!w) return { ...before, busy: false };
    const p = this.work.progress(w);
    if (!p.done) return { ...before, busy: true };
    const has =
      w.kind === 'create' ? p.succeeded || net.hadEndpoints : w.kind === 'delete' ? !p.succeeded && net.hadEndpoints : net.hadEndpoints;
    return { has, busy: false, status: !p.succeeded ? 'ERROR' : has ? 'ENABLED' : 'DISABLED' };
  }

  network(provider: Provider, network: string): NetworkRecord | undefined {
    return this.ctx.store.get<NetworkRecord>(KIND.network, this.key(provider, network));
  }

  /** The network a change applies to: it must have endpoints and no work running. */
  private existing(provider: Provider, network: string): NetworkRecord {
    const net = this.network(provider, network);
    const st = net ? this.networkState(net) : undefined;
    if (!net || !st) throw notFound(`no private-link endpoints in ${provider} network "${network}"`);
    if (st.busy) throw failedPrecondition(`work on the endpoints of "${network}" is still in progress (tracking id ${net.lastTrackingId})`);
    if (!st.has) throw notFound(`no private-link endpoints in ${provider} network "${network}"`);
    return net;
  }

  private startWork(kind: WorkKind, net: Omit<NetworkRecord, 'key' | 'hadEndpoints' | 'lastTrackingId'>, had: boolean): WorkRecord {
    const w = this.work.create(
      {
        trackingId: uuid(),
        accountId: this.ctx.caller.accountId,
        kind,
        provider: net.provider,
        network: net.network,
        region: net.region,
        privateDns: net.privateDns,
        createdAt: this.ctx.clock.iso(),
      },
      kind,
    );
    const key = this.key(net.provider, net.network);
    this.ctx.store.put<NetworkRecord>(KIND.network, key, { ...net, key, hadEndpoints: had, lastTrackingId: w.trackingId });
    return w;
  }

  createEndpoints(spec: EndpointSpec): WorkRecord {
    const region = checkRegion(spec.provider, spec.region);
    if (spec.provider === 'AWS' && spec.subnetIds.length === 0)
      throw invalid('awsAccountDetails.subnetIds: give the private subnets for the endpoints');
    if (spec.provider === 'AZURE' && spec.subnetIds.length === 0) throw invalid('azureAccountDetails.subnetId is required');
    const net = this.network(spec.provider, spec.network);
    if (net) {
      const st = this.networkState(net);
      if (st.busy)
        throw failedPrecondition(`work on the endpoints of "${spec.network}" is still in progress (tracking id ${net.lastTrackingId})`);
      if (st.has) throw alreadyExists(`${spec.provider} network "${spec.network}" already has private-link endpoints; update them instead`);
    }
    return this.startWork(
      'create',
      {
        provider: spec.provider,
        network: spec.network,
        region,
        subnetIds: [...spec.subnetIds],
        resourceTags: spec.resourceTags,
        resourceGroup: spec.resourceGroup,
        privateDns: spec.privateDns,
      },
      false,
    );
  }

  updateEndpoints(change: EndpointChange): WorkRecord {
    if (change.provider === 'AWS' && change.resourceGroup !== undefined) throw invalid('resourceGroup applies to AZURE only');
    const net = this.existing(change.provider, change.network);
    const next = { ...net };
    if (change.subnetIds)
      next.subnetIds = change.subnetIds.replace
        ? [...new Set(change.subnetIds.ids)]
        : [...new Set([...net.subnetIds, ...change.subnetIds.ids])];
    if (change.resourceTags) next.resourceTags = change.resourceTags;
    if (change.resourceGroup !== undefined) next.resourceGroup = change.resourceGroup;
    return this.startWork('update', next, this.networkState(net).has);
  }

  deleteEndpoints(provider: Provider, network: string): WorkRecord {
    const net = this.existing(provider, network);
    return this.startWork('delete', net, this.networkState(net).has);
  }

  migrateEndpoints(network: string, region?: string): WorkRecord {
    const net = this.existing('AWS', network);
    if (region && region !== net.region) throw invalid(`the endpoints of "${network}" are in ${net.region}, not ${region}`);
    return this.startWork('migrate', net, this.networkState(net).has);
  }

  /** The status of a network's endpoints (DISABLED for a network without any). */
  status(provider: Provider, network: string): NetworkState['status'] {
    const net = this.network(provider, network);
    return net ? this.networkState(net).status : 'DISABLED';
  }

  private accessKey(t: AccessTarget): string {
    return `${this.ctx.caller.accountId}:${t.provider}:${t.account}:${t.region}`;
  }

  authorize(t: AccessTarget): void {
    checkRegion(t.provider, t.region);
    const rec: AccessRecord = { provider: t.provider, account: t.account, region: t.region, authorizedAt: this.ctx.clock.iso() };
    this.ctx.store.put(KIND.access, this.accessKey(t), rec);
  }

  revoke(t: AccessTarget): void {
    checkRegion(t.provider, t.region);
    if (!this.ctx.store.delete(KIND.access, this.accessKey(t)))
      throw notFound(`${t.provider} account "${t.account}" is not authorized for private links in ${t.region}`);
  }
}
