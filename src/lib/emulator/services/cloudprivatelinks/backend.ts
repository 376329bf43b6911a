/**
 * Private links in the emulator: state and rules, no HTTP. Each create,
 * update, delete or migrate starts "work" on a customer network: one
 * endpoint per control-plane component, IN_PROGRESS for a while and then
 * SUCCESS (endpoint id and DNS names set) or ERROR (error set). The outcome
 * is a timeline read lazily, so nothing runs in the background. A VPC or
 * VNet id starting with `fail-` makes the work end in ERROR.
 */
import { createHash } from 'node:crypto';
import { stateAt, timeline, type Timeline } from '../../clock.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import type { Doc, RequestContext } from '../../types.js';

export const KIND = {
  work: 'cloudprivatelinks.work',
  network: 'cloudprivatelinks.network',
  access: 'cloudprivatelinks.access',
} as const;

type Provider = 'AWS' | 'AZURE';
type WorkKind = 'create' | 'update' | 'delete' | 'migrate';

/** Minutes endpoint work stays IN_PROGRESS. */
const WORK_MINUTES = 3;

export const SERVICE_GROUP = 'CDP-CONTROL-PLANE';

/** The control-plane components a network gets an endpoint for. */
const COMPONENTS: ReadonlyArray<{ component: string; host: (region: string) => string }> = [
  { component: 'API', host: () => 'api.us-west-1.cdp.cloudera.com' },
  { component: 'IAM', host: () => 'iamapi.us-west-1.altus.cloudera.com' },
  { component: 'CONSOLE', host: () => 'console.us-west-1.cdp.cloudera.com' },
];

const REGIONS: Readonly<Record<Provider, readonly string[]>> = {
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

interface WorkRecord {
  trackingId: string;
  accountId: string;
  kind: WorkKind;
  provider: Provider;
  network: string;
  region: string;
  privateDns: boolean;
  fail: boolean;
  timeline: Timeline;
  createdAt: string;
}

interface NetworkRecord {
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

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Doc => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Doc) : {});
const hex = (seed: string, n: number): string => createHash('sha256').update(seed).digest('hex').slice(0, n);

function checkRegion(provider: Provider, region: string | undefined): string {
  if (!region) throw invalid(provider === 'AWS' ? 'the AWS region is required' : 'the Azure location is required');
  if (!REGIONS[provider].includes(region))
    throw invalid(`private links are not offered in ${provider} region "${region}"; use one of ${REGIONS[provider].join(', ')}`);
  return region;
}

function checkServiceGroup(group: unknown): void {
  if (group !== undefined && group !== SERVICE_GROUP) throw invalid(`serviceGroup must be ${SERVICE_GROUP}; got "${String(group)}"`);
}

const networkKey = (ctx: RequestContext, provider: Provider, network: string): string =>
  `${ctx.caller.accountId}:${provider}:${network.toLowerCase()}`;

function workOutcome(w: WorkRecord, now: number): { state: string; done: boolean } {
  const { state, done } = stateAt(w.timeline, now);
  return { state, done };
}

/** What a network looks like now: whether it has endpoints, whether work is running, its status. */
function networkState(ctx: RequestContext, net: NetworkRecord): { has: boolean; busy: boolean; status: 'ENABLED' | 'DISABLED' | 'ERROR' } {
  const w = ctx.store.get<WorkRecord>(KIND.work, net.lastTrackingId);
  if (!w) return { has: net.hadEndpoints, busy: false, status: net.hadEndpoints ? 'ENABLED' : 'DISABLED' };
  const { state, done } = workOutcome(w, ctx.clock.now());
  if (!done) return { has: net.hadEndpoints, busy: true, status: net.hadEndpoints ? 'ENABLED' : 'DISABLED' };
  const ok = state === 'SUCCESS';
  const has = w.kind === 'create' ? ok || net.hadEndpoints : w.kind === 'delete' ? !ok && net.hadEndpoints : net.hadEndpoints;
  return { has, busy: false, status: !ok ? 'ERROR' : has ? 'ENABLED' : 'DISABLED' };
}

function startWork(
  ctx: RequestContext,
  kind: WorkKind,
  provider: Provider,
  network: string,
  region: string,
  privateDns: boolean,
  net: NetworkRecord | undefined,
  changes: Partial<NetworkRecord>,
): Doc {
  const trackingId = uuid();
  const now = ctx.clock.now();
  const fail = network.toLowerCase().startsWith('fail-');
  const work: WorkRecord = {
    trackingId,
    accountId: ctx.caller.accountId,
    kind,
    provider,
    network,
    region,
    privateDns,
    fail,
    timeline: timeline(now, [
      ['IN_PROGRESS', WORK_MINUTES],
      [fail ? 'ERROR' : 'SUCCESS', 0],
    ]),
    createdAt: ctx.clock.iso(now),
  };
  ctx.store.put(KIND.work, trackingId, work);
  const key = networkKey(ctx, provider, network);
  const had = net ? networkState(ctx, net).has : false;
  const next: NetworkRecord = {
    key,
    provider,
    network,
    region,
    subnetIds: [],
    resourceTags: [],
    privateDns,
    ...net,
    ...changes,
    hadEndpoints: had,
    lastTrackingId: trackingId,
  };
  ctx.store.put(KIND.network, key, next);
  return { trackingId };
}

function findNetwork(ctx: RequestContext, provider: Provider, network: string): NetworkRecord | undefined {
  return ctx.store.get<NetworkRecord>(KIND.network, networkKey(ctx, provider, network));
}

/** The network a change applies to: it must have endpoints and no work running. */
function existingNetwork(ctx: RequestContext, provider: Provider, network: string): NetworkRecord {
  const net = findNetwork(ctx, provider, network);
  const st = net ? networkState(ctx, net) : undefined;
  if (!net || !st) throw notFound(`no private-link endpoints in ${provider} network "${network}"`);
  if (st.busy) throw failedPrecondition(`work on the endpoints of "${network}" is still in progress (tracking id ${net.lastTrackingId})`);
  if (!st.has) throw notFound(`no private-link endpoints in ${provider} network "${network}"`);
  return net;
}

function accountOf(req: Doc, provider: Provider, awsField: string, azureField: string): { details: Doc; network: string } {
  const details = obj(req[provider === 'AWS' ? awsField : azureField]);
  const network = str(provider === 'AWS' ? details.vpcId : details.vNetId);
  if (!network) throw invalid(provider === 'AWS' ? `${awsField}.vpcId is required` : `${azureField}.vNetId is required`);
  return { details, network };
}

export function createEndpoint(req: Doc, ctx: RequestContext): Doc {
  const provider = req.cloudServiceProvider as Provider;
  checkServiceGroup(req.serviceGroup);
  const { details, network } = accountOf(req, provider, 'awsAccountDetails', 'azureAccountDetails');
  const region = checkRegion(provider, str(provider === 'AWS' ? details.region : details.location));
  if (provider === 'AWS' && !(Array.isArray(details.subnetIds) && details.subnetIds.length > 0))
    throw invalid('awsAccountDetails.subnetIds: give the private subnets for the endpoints');
  if (provider === 'AZURE' && !str(details.subnetId)) throw invalid('azureAccountDetails.subnetId is required');
  const net = findNetwork(ctx, provider, network);
  if (net) {
    const st = networkState(ctx, net);
    if (st.busy) throw failedPrecondition(`work on the endpoints of "${network}" is still in progress (tracking id ${net.lastTrackingId})`);
    if (st.has) throw alreadyExists(`${provider} network "${network}" already has private-link endpoints; update them instead`);
  }
  return startWork(ctx, 'create', provider, network, region, req.enablePrivateDns === true, net, {
    subnetIds: provider === 'AWS' ? (details.subnetIds as string[]) : [details.subnetId as string],
    resourceTags: (req.resourceTags as NetworkRecord['resourceTags'] | undefined) ?? [],
    resourceGroup: str(details.resourceGroup),
    privateDns: req.enablePrivateDns === true,
  });
}

export function updateEndpoint(req: Doc, ctx: RequestContext): Doc {
  const provider: Provider = (req.cloudServiceProvider as Provider | undefined) ?? (req.awsAccountInfo ? 'AWS' : 'AZURE');
  const { network } = accountOf(req, provider, 'awsAccountInfo', 'azureAccountInfo');
  if (provider === 'AWS' && req.resourceGroup !== undefined) throw invalid('resourceGroup applies to AZURE only');
  const net = existingNetwork(ctx, provider, network);
  const changes: Partial<NetworkRecord> = {};
  if (Array.isArray(req.subnetIds)) {
    const given = req.subnetIds as string[];
    changes.subnetIds = req.updateOperation === 'REPLACE' ? [...new Set(given)] : [...new Set([...net.subnetIds, ...given])];
  }
  if (Array.isArray(req.resourceTags)) changes.resourceTags = req.resourceTags as NetworkRecord['resourceTags'];
  if (typeof req.resourceGroup === 'string') changes.resourceGroup = req.resourceGroup;
  return startWork(ctx, 'update', provider, net.network, net.region, net.privateDns, net, changes);
}

export function deleteEndpoint(req: Doc, ctx: RequestContext): Doc {
  const provider = req.cloudServiceProvider as Provider;
  const { network } = accountOf(req, provider, 'awsAccountInfo', 'azureAccountInfo');
  const net = existingNetwork(ctx, provider, network);
  return startWork(ctx, 'delete', provider, net.network, net.region, net.privateDns, net, {});
}

export function migrateEndpoints(req: Doc, ctx: RequestContext): Doc {
  const { network } = accountOf(req, 'AWS', 'awsAccountInfo', 'azureAccountInfo');
  const net = existingNetwork(ctx, 'AWS', network);
  const region = str(obj(req.awsAccountInfo).region);
  if (region && region !== net.region) throw invalid(`the endpoints of "${network}" are in ${net.region}, not ${region}`);
  return startWork(ctx, 'migrate', 'AWS', net.network, net.region, net.privateDns, net, {});
}

export function endpointStatuses(req: Doc, ctx: RequestContext): Doc {
  const id = String(req.trackingId);
  const w = ctx.store.get<WorkRecord>(KIND.work, id);
  if (!w || w.accountId !== ctx.caller.accountId) throw notFound(`no private-link work with tracking id "${id}"`);
  const { state, done } = workOutcome(w, ctx.clock.now());
  const privatelinkEndpoints = COMPONENTS.map(({ component, host }) => {
    const item: Doc = { serviceComponent: component, status: state, creationTimestamp: w.createdAt };
    if (done && state === 'SUCCESS') {
      const svc = hex(`${w.network}/${component}`, 17);
      item.endpointId = w.provider === 'AWS' ? `vpce-${svc}` : `pe-${component.toLowerCase()}-${hex(w.network, 8)}`;
      // The seed: endpointId and dnsNames populated on success, for every kind of work (a delete names what it removed).
      const hostname = host(w.region);
      item.dnsNames =
        w.provider === 'AWS'
          ? [
              `${item.endpointId as string}.vpce-svc-${hex(component, 17)}.${w.region}.vpce.amazonaws.com`,
              ...(w.privateDns ? [hostname] : []),
            ]
          : [`${hostname.split('.')[0] ?? 'api'}.privatelink.cdp.cloudera.com`, ...(w.privateDns ? [hostname] : [])];
    }
    if (done && state === 'ERROR') {
      item.error = `could not ${w.kind} the ${component} endpoint in ${w.provider === 'AWS' ? 'VPC' : 'VNet'} ${w.network}: the network refused the endpoint`;
    }
    return item;
  });
  return { privatelinkEndpoints };
}

export function privateLinkStatus(req: Doc, ctx: RequestContext): Doc {
  const provider: Provider = (req.cloudServiceProvider as Provider | undefined) ?? (str(req.vpcId) ? 'AWS' : 'AZURE');
  const network = str(provider === 'AWS' ? req.vpcId : req.vNetId) ?? '';
  const net = findNetwork(ctx, provider, network);
  return { status: net ? networkState(ctx, net).status : 'DISABLED' };
}

function serviceResults(provider: Provider, region: string): Doc[] {
  return COMPONENTS.map(({ component, host }) => ({
    serviceComponent: component,
    privateLinkService:
      provider === 'AWS'
        ? `com.amazonaws.vpce.${region}.vpce-svc-${hex(`${region}/${component}`, 17)}`
        : `cdp-${component.toLowerCase()}-pls.${hex(`${region}/${component}`, 8)}.${region}.azure.privatelinkservice`,
    availabilityZoneList: provider === 'AWS' ? ['a', 'b', 'c'].map((z) => `${region}${z}`).join(',') : '1,2,3',
    vpceClientTcpPortList: '443',
    hostname: host(region),
  }));
}

export function servicesForRegion(req: Doc): Doc {
  checkServiceGroup(req.serviceGroup);
  const region = String(req.region);
  const provider: Provider = REGIONS.AZURE.includes(region) ? 'AZURE' : 'AWS';
  checkRegion(provider, region);
  return { listPrivateLinkServicesForRegionResults: serviceResults(provider, region) };
}

function accessTarget(req: Doc): { provider: Provider; account: string; region: string; key: (ctx: RequestContext) => string } {
  checkServiceGroup(req.serviceGroup);
  const provider: Provider = (req.cloudServiceProvider as Provider | undefined) ?? (str(req.cloudAccountId) ? 'AWS' : 'AZURE');
  const account = str(provider === 'AWS' ? req.cloudAccountId : req.subscriptionId) ?? '';
  const region = checkRegion(provider, str(req.region));
  return { provider, account, region, key: (ctx) => `${ctx.caller.accountId}:${provider}:${account}:${region}` };
}

export function authorizeAccess(req: Doc, ctx: RequestContext): Doc {
  const t = accessTarget(req);
  const rec: AccessRecord = { provider: t.provider, account: t.account, region: t.region, authorizedAt: ctx.clock.iso() };
  ctx.store.put(KIND.access, t.key(ctx), rec);
  return {
    status: 'SUCCESS',
    authorizePrivateLinkServiceAccessResults: serviceResults(t.provider, t.region).map((r) => ({
      ...r,
      authorizationStatus: 'AUTHORIZED',
    })),
  };
}

export function revokeAccess(req: Doc, ctx: RequestContext): Doc {
  const t = accessTarget(req);
  if (!ctx.store.delete(KIND.access, t.key(ctx)))
    throw notFound(`${t.provider} account "${t.account}" is not authorized for private links in ${t.region}`);
  return {
    status: 'SUCCESS',
    revokePrivateLinkServiceAccessResults: serviceResults(t.provider, t.region).map((r) => ({
      privateLinkService: r.privateLinkService,
      serviceComponent: r.serviceComponent,
      revocationStatus: 'REVOKED',
    })),
  };
}
