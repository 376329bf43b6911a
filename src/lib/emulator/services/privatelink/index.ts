/**
 * cloudprivatelinks on the operation table. The states are the model's
 * (model/services/privatelink/resources.ts); what it cannot say is here.
 *
 * The private-link endpoints of a customer's VPC or VNet: a `network` record
 * a network (named `<provider>:<network id>`), and beside it the work each
 * create, update, delete or migrate starts on its endpoints (`endpoint`
 * records, the engine's work: IN_PROGRESS, then SUCCESS or ERROR, read by
 * the work's id, its tracking id). What a work's success brings the network
 * (its `effect`): endpoints after a create, none after a delete, the subnets
 * and tags of an update. The network's status is read off its newest work:
 * ERROR when that failed, else ENABLED or DISABLED by whether it has
 * endpoints. A VPC or VNet id starting with `fail-` makes its work end in
 * ERROR.
 *
 * Cloud accounts authorized for the private-link services of a region: an
 * `access` record each (named `<provider>:<account>:<region>`, whose names
 * replace: authorizing again changes nothing); revoking one that is not
 * there is NOT_FOUND. The private-link services of a region are one a
 * control-plane component, as listPrivateLinkServicesForRegion, authorize
 * and revoke name them.
 */
import type { OperationName } from '../../../model/services/privatelink/wire.js';
import { resources } from '../../../model/services/privatelink/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { code, defineService, verbs } from '../../engine/table.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { hex, obj, str, strings } from '../../values.js';

type R = keyof typeof resources.resources;
type Rec = Readonly<EngineRecord>;
type Provider = 'AWS' | 'AZURE';
type Tags = Array<{ key: string; value: string }>;

const SERVICE_GROUP = 'CDP-CONTROL-PLANE';

/** The control-plane components a network gets an endpoint for. */
const COMPONENTS = [
  { component: 'API', hostname: 'api.us-west-1.cdp.cloudera.com' },
  { component: 'IAM', hostname: 'iamapi.us-west-1.altus.cloudera.com' },
  { component: 'CONSOLE', hostname: 'console.us-west-1.cdp.cloudera.com' },
];

/** The regions each cloud has private links in. */
const REGIONS: Readonly<Record<Provider, readonly string[]>> = {
  AWS: 'us-east-1 us-east-2 us-west-1 us-west-2 ca-central-1 eu-central-1 eu-west-1 eu-west-2 ap-southeast-1 ap-southeast-2 ap-northeast-1'.split(
    ' ',
  ),
  AZURE: 'eastus eastus2 centralus westus2 westus3 canadacentral westeurope northeurope uksouth australiaeast southeastasia'.split(' '),
};

/** The cloud a request names: its own, else AWS when it has the AWS field. */
const providerOf = (req: Doc, awsField: string): Provider =>
  (str(req.cloudServiceProvider) as Provider | undefined) ?? (req[awsField] ? 'AWS' : 'AZURE');

function checkRegion(provider: Provider, region: string | undefined): string {
  if (!region) throw invalid(provider === 'AWS' ? 'the AWS region is required' : 'the Azure location is required');
  if (!REGIONS[provider].includes(region))
    throw invalid(`private links are not offered in ${provider} region "${region}"; use one of ${REGIONS[provider].join(', ')}`);
  return region;
}

function checkServiceGroup(group: string | undefined): void {
  if (group !== undefined && group !== SERVICE_GROUP) throw invalid(`serviceGroup must be ${SERVICE_GROUP}; got "${group}"`);
}

/** The private-link services of a region, one per component. */
function serviceResults(provider: Provider, region: string): Doc[] {
  return COMPONENTS.map(({ component, hostname }) => ({
    serviceComponent: component,
    privateLinkService:
      provider === 'AWS'
        ? `com.amazonaws.vpce.${region}.vpce-svc-${hex(`${region}/${component}`, 17)}`
        : `cdp-${component.toLowerCase()}-pls.${hex(`${region}/${component}`, 8)}.${region}.azure.privatelinkservice`,
    availabilityZoneList: provider === 'AWS' ? ['a', 'b', 'c'].map((z) => `${region}${z}`).join(',') : '1,2,3',
    vpceClientTcpPortList: '443',
    hostname,
  }));
}

/** listPrivateLinkServicesForRegion: the services of a region of either cloud (an Azure location names Azure). */
function servicesForRegion(_h: Hook<R>, req: Doc): Doc {
  checkServiceGroup(str(req.serviceGroup));
  const region = String(req.region);
  const provider: Provider = REGIONS.AZURE.includes(region) ? 'AZURE' : 'AWS';
  checkRegion(provider, region);
  return { listPrivateLinkServicesForRegionResults: serviceResults(provider, region) };
}

// ---- access ---------------------------------------------------------------------

/** The account and region a request names, as the access verbs read it (the region checked). */
function accessRequest(_h: Hook<R>, req: Doc): Doc {
  checkServiceGroup(str(req.serviceGroup));
  const provider = providerOf(req, 'cloudAccountId');
  const account = str(provider === 'AWS' ? req.cloudAccountId : req.subscriptionId) ?? '';
  const region = checkRegion(provider, str(req.region));
  return { ...req, provider, account, region, accessName: `${provider}:${account}:${region}` };
}

/** A revoke's request: the account must be authorized there. */
function revokeRequest(h: Hook<R>, sent: Doc): Doc {
  const req = accessRequest(h, sent);
  if (!h.records('access').find(String(req.accessName)))
    throw notFound(`${String(req.provider)} account "${String(req.account)}" is not authorized for private links in ${String(req.region)}`);
  return req;
}

/** An authorize's or a revoke's answer: each service of the region, with its new status (as the first time, when it is again). */
const accessAnswer =
  (results: string, status: Doc) =>
  (_h: Hook<R>, _rec: unknown, req: Doc): Doc => ({
    status: 'SUCCESS',
    [results]: serviceResults(req.provider as Provider, String(req.region)).map((r) => ({ ...r, ...status })),
  });

// ---- endpoints ------------------------------------------------------------------

/** What a network's record holds (its document), and what each of its works keeps of it. */
interface Network {
  provider: Provider;
  network: string;
  region: string;
  subnetIds: string[];
  resourceTags: Tags;
  resourceGroup?: string;
  privateDns: boolean;
  /** Whether it has endpoints: set by a create's or a delete's success. */
  endpoints?: boolean;
}

const netOf = (rec: Rec): Network => rec.doc as unknown as Network;
const nameOf = (provider: Provider, network: string): string => `${provider}:${network}`;
const tags = (v: unknown): Tags => (Array.isArray(v) ? (v as Tags) : []);
/** What a work keeps of its network: enough to show its endpoints as they were made. */
const kept = (n: Network): Doc => ({ provider: n.provider, network: n.network, region: n.region, privateDns: n.privateDns });

/** The cloud account object of a request (AWS or Azure) and the network it names. */
function accountOf(req: Doc, provider: Provider, awsField: string, azureField: string): { details: Doc; network: string } {
  const details = obj(req[provider === 'AWS' ? awsField : azureField]);
  const network = str(provider === 'AWS' ? details.vpcId : details.vNetId);
  if (!network) throw invalid(provider === 'AWS' ? `${awsField}.vpcId is required` : `${azureField}.vNetId is required`);
  return { details, network };
}

/** The newest work on a network, if any. */
function newestWork(h: Hook<R>, net: Rec): EngineRecord | undefined {
  const all = h.records('endpoint').all(net.id);
  return all[all.length - 1];
}

/** getPrivateLinkStatus's words for a network now (the `show` of its record). */
function showNetwork(h: Hook<R>, net: Rec): Doc {
  const w = newestWork(h, net);
  const works = h.records('endpoint');
  const failed = w !== undefined && !works.busy(w) && works.progress(w).failed;
  return { status: failed ? 'ERROR' : netOf(net).endpoints === true ? 'ENABLED' : 'DISABLED' };
}

/** A change needs endpoints (the engine has refused it while work runs). */
function hasEndpoints(_h: Hook<R>, net: Rec): void {
  const n = netOf(net);
  if (n.endpoints !== true) throw notFound(`no private-link endpoints in ${n.provider} network "${n.network}"`);
}

/**
 * An update's, a delete's or a migration's request, as the work verb reads
 * it: the network it names (one never seen has no endpoints), and what the
 * work keeps of the network (its cloud, region and DNS) to show its endpoints.
 */
function changeRequest(h: Hook<R>, sent: Doc, provider = providerOf(sent, 'awsAccountInfo')): Doc {
  if (provider === 'AWS' && typeof sent.resourceGroup === 'string') throw invalid('resourceGroup applies to AZURE only');
  const { network } = accountOf(sent, provider, 'awsAccountInfo', 'azureAccountInfo');
  const name = nameOf(provider, network);
  const net = h.records('network').peek(name);
  if (!net) throw notFound(`no private-link endpoints in ${provider} network "${network}"`);
  return { ...sent, networkName: name, ...kept(netOf(net)) };
}

/** An update's success: subnets appended (or replaced), tags and the resource group as given. */
function updated(_h: Hook<R>, net: Rec, req: Doc): Doc {
  const ids = strings(req.subnetIds);
  return {
    ...(Array.isArray(req.subnetIds)
      ? { subnetIds: req.updateOperation === 'REPLACE' ? [...new Set(ids)] : [...new Set([...netOf(net).subnetIds, ...ids])] }
      : {}),
    ...(Array.isArray(req.resourceTags) ? { resourceTags: tags(req.resourceTags) } : {}),
    ...(typeof req.resourceGroup === 'string' ? { resourceGroup: req.resourceGroup } : {}),
  };
}

function migrateCheck(h: Hook<R>, net: Rec, req: Doc): void {
  hasEndpoints(h, net);
  const region = str(obj(req.awsAccountInfo).region);
  const n = netOf(net);
  if (region && region !== n.region) throw invalid(`the endpoints of "${n.network}" are in ${n.region}, not ${region}`);
}

/** Every change answers the tracking id of the work it started (the network's newest). */
const tracking = (h: Hook<R>, net: Rec): Doc => ({ trackingId: newestWork(h, net)?.id });
const change = { rewrite: changeRequest, answer: tracking };

/**
 * createPrivateLinkEndpoint: code, because the network it names may be new
 * (the work verb finds a record): checks the request, makes or refreshes
 * the network's record (a network whose endpoints are gone, or never came,
 * takes the new request), then hands on to the work verb.
 */
function createEndpoints(h: Hook<R>, req: Doc): Doc {
  const provider = req.cloudServiceProvider as Provider;
  checkServiceGroup(str(req.serviceGroup));
  const { details, network } = accountOf(req, provider, 'awsAccountDetails', 'azureAccountDetails');
  const region = checkRegion(provider, str(provider === 'AWS' ? details.region : details.location));
  const subnet = str(details.subnetId);
  const subnetIds = provider === 'AWS' ? strings(details.subnetIds) : subnet ? [subnet] : [];
  if (provider === 'AWS' && subnetIds.length === 0)
    throw invalid('awsAccountDetails.subnetIds: give the private subnets for the endpoints');
  if (provider === 'AZURE' && subnetIds.length === 0) throw invalid('azureAccountDetails.subnetId is required');
  const spec: Network = {
    provider,
    network,
    region,
    subnetIds,
    resourceTags: tags(req.resourceTags),
    ...(str(details.resourceGroup) ? { resourceGroup: str(details.resourceGroup) } : {}),
    privateDns: req.enablePrivateDns === true,
  };
  const networks = h.records('network');
  const name = nameOf(provider, network);
  const net = networks.find(name);
  if (!net) networks.create({ id: uuid(), name, scope: '', doc: { ...spec } });
  else {
    const w = newestWork(h, net);
    if (w && h.records('endpoint').busy(w))
      throw failedPrecondition(`work on the endpoints of "${network}" is still in progress (tracking id ${w.id})`);
    if (netOf(net).endpoints === true)
      throw alreadyExists(`${provider} network "${network}" already has private-link endpoints; update them instead`);
    net.doc = { ...spec };
    networks.save(net);
  }
  return h.serve(verbs<R>('network').work('create', { answer: tracking }), { ...req, networkName: name, ...kept(spec) });
}

/** listPrivateLinkEndpointStatuses: one endpoint a component, with its id and DNS names once done (SUCCESS), or its error (ERROR). */
function endpointStatuses(h: Hook<R>, work: Rec): Doc {
  const { state, done } = h.records('endpoint').progress(work as EngineRecord);
  const w = obj(work.data?.request) as unknown as Network;
  const created = new Date(work.createdAt).toISOString();
  return {
    privatelinkEndpoints: COMPONENTS.map(({ component, hostname }) => {
      const item: Doc = { serviceComponent: component, status: state, creationTimestamp: created };
      // endpointId and dnsNames are set on success, for every kind of work (a delete names what it removed).
      if (done && state === 'SUCCESS') {
        const aws = w.provider === 'AWS';
        const endpointId = aws ? `vpce-${hex(`${w.network}/${component}`, 17)}` : `pe-${component.toLowerCase()}-${hex(w.network, 8)}`;
        item.endpointId = endpointId;
        item.dnsNames = [
          aws
            ? `${endpointId}.vpce-svc-${hex(component, 17)}.${w.region}.vpce.amazonaws.com`
            : `${hostname.split('.')[0] ?? 'api'}.privatelink.cdp.cloudera.com`,
          ...(w.privateDns ? [hostname] : []),
        ];
      }
      if (done && state === 'ERROR')
        item.error = `could not ${work.activity.action} the ${component} endpoint in ${w.provider === 'AWS' ? 'VPC' : 'VNet'} ${w.network}: the network refused the endpoint`;
      return item;
    }),
  };
}

/** getPrivateLinkStatus: the status of a network's endpoints, DISABLED for a network the emulator has never had any in. */
function getPrivateLinkStatus(h: Hook<R>, req: Doc): Doc {
  const provider = providerOf(req, 'vpcId');
  const networks = h.records('network');
  const net = networks.find(nameOf(provider, str(provider === 'AWS' ? req.vpcId : req.vNetId) ?? ''));
  return { status: net ? networks.view(net).status : 'DISABLED' };
}

export default defineService<OperationName>()({
  service: 'cloudprivatelinks',
  facts: resources,
  resources: {
    network: {
      noun: 'network',
      keys: ['networkName'],
      // The fail- rule reads the VPC or VNet id (the record's name also holds its cloud).
      failsBy: 'doc.network',
      hooks: { show: showNetwork },
    },
    endpoint: {
      noun: 'private-link work',
      keys: ['trackingId'],
      lives: { in: 'parent', parent: 'network' },
      work: true,
      minutes: { create: 3, update: 3, delete: 3, migrate: 3 },
      hooks: {
        check: { update: hasEndpoints, delete: hasEndpoints, migrate: migrateCheck },
        effect: { create: () => ({ endpoints: true }), update: updated, delete: () => ({ endpoints: false }) },
      },
    },
    access: {
      noun: 'private-link authorization',
      keys: ['accessName'],
      // Authorizing an authorized account succeeds as the first time did.
      names: 'replace',
    },
  },
  operations: (r) => ({
    createPrivateLinkEndpoint: code(createEndpoints),
    updatePrivateLinkEndpoint: r.network.work('update', change),
    deletePrivateLinkEndpoint: r.network.work('delete', change),
    // A migration is of AWS endpoints.
    migratePrivateLinkEndpoints: r.network.work('migrate', { ...change, rewrite: (h, sent) => changeRequest(h, sent, 'AWS') }),
    listPrivateLinkEndpointStatuses: r.endpoint.read({ answer: endpointStatuses }),
    getPrivateLinkStatus: code(getPrivateLinkStatus),
    listPrivateLinkServicesForRegion: code(servicesForRegion),
    authorizePrivateLinkServiceAccess: r.access.create({
      rewrite: accessRequest,
      answer: accessAnswer('authorizePrivateLinkServiceAccessResults', { authorizationStatus: 'AUTHORIZED' }),
    }),
    revokePrivateLinkServiceAccess: r.access.delete({
      rewrite: revokeRequest,
      answer: accessAnswer('revokePrivateLinkServiceAccessResults', { revocationStatus: 'REVOKED' }),
    }),
  }),
});
