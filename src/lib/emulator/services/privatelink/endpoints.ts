/**
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
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { verbs } from '../../engine/table.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { hex, obj, str, strings } from '../../values.js';
import { COMPONENTS, checkRegion, checkServiceGroup, type Provider } from './regions.js';

export type R = 'network' | 'endpoint' | 'access';
type Rec = Readonly<EngineRecord>;
type Tags = Array<{ key: string; value: string }>;

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
export function showNetwork(h: Hook<R>, net: Rec): Doc {
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

/** The answer of every change: the tracking id of the work it started (the network's newest). */
const tracking = (h: Hook<R>, net: Rec): Doc => ({ trackingId: newestWork(h, net)?.id });

/**
 * A change's request, as the work verb reads it: the network it names (one
 * never seen has no endpoints), and what the work keeps of the network (its
 * cloud, region and DNS) to show its endpoints.
 */
function onNetwork(awsField: string, azureField: string, fixedProvider?: Provider) {
  return (h: Hook<R>, sent: Doc): Doc => {
    const provider: Provider =
      fixedProvider ?? (str(sent.cloudServiceProvider) as Provider | undefined) ?? (sent[awsField] ? 'AWS' : 'AZURE');
    if (provider === 'AWS' && typeof sent.resourceGroup === 'string') throw invalid('resourceGroup applies to AZURE only');
    const { network } = accountOf(sent, provider, awsField, azureField);
    const name = nameOf(provider, network);
    const net = h.records('network').peek(name);
    if (!net) throw notFound(`no private-link endpoints in ${provider} network "${network}"`);
    return { ...sent, networkName: name, ...kept(netOf(net)) };
  };
}

/** What a work keeps of its network: enough to show its endpoints as they were made. */
const kept = (n: Network): Doc => ({ provider: n.provider, network: n.network, region: n.region, privateDns: n.privateDns });

/** An update's or a delete's request: the provider given, or the account object's. */
export const changeRequest = onNetwork('awsAccountInfo', 'azureAccountInfo');
/** A migration is of AWS endpoints. */
export const migrateRequest = onNetwork('awsAccountInfo', 'azureAccountInfo', 'AWS');

/** An update's success: subnets appended (or replaced), tags and the resource group as given. */
function updated(_h: Hook<R>, net: Rec, req: Doc): Doc {
  const n = netOf(net);
  const ids = strings(req.subnetIds);
  return {
    ...(Array.isArray(req.subnetIds)
      ? { subnetIds: req.updateOperation === 'REPLACE' ? [...new Set(ids)] : [...new Set([...n.subnetIds, ...ids])] }
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

/** The hooks of the endpoint work: each kind's check, and what its success brings the network. */
export const workHooks = {
  check: { update: hasEndpoints, delete: hasEndpoints, migrate: migrateCheck },
  effect: { create: () => ({ endpoints: true }), update: updated, delete: () => ({ endpoints: false }) },
};

export const changeAnswer = { answer: tracking };

/**
 * createPrivateLinkEndpoint: code, because the network it names may be new
 * (the work verb finds a record): checks the request, makes or refreshes
 * the network's record (a network whose endpoints are gone, or never came,
 * takes the new request), then hands on to the work verb.
 */
export function createEndpoints(h: Hook<R>, req: Doc): Doc {
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
  return h.serve(verbs<R>('network').work('create', changeAnswer), { ...req, networkName: name, ...kept(spec) });
}

/** listPrivateLinkEndpointStatuses: one endpoint a component, with its id and DNS names once done (SUCCESS), or its error (ERROR). */
export function endpointStatuses(h: Hook<R>, work: Rec): Doc {
  const { state, done } = h.records('endpoint').progress(work as EngineRecord);
  const w = obj(work.data?.request) as unknown as Network;
  const kind = work.activity.action;
  const created = new Date(work.createdAt).toISOString();
  return {
    privatelinkEndpoints: COMPONENTS.map(({ component, hostname }) => {
      const item: Doc = { serviceComponent: component, status: state, creationTimestamp: created };
      if (done && state === 'SUCCESS') {
        const endpointId =
          w.provider === 'AWS' ? `vpce-${hex(`${w.network}/${component}`, 17)}` : `pe-${component.toLowerCase()}-${hex(w.network, 8)}`;
        item.endpointId = endpointId;
        // endpointId and dnsNames are set on success, for every kind of work (a delete names what it removed).
        item.dnsNames =
          w.provider === 'AWS'
            ? [`${endpointId}.vpce-svc-${hex(component, 17)}.${w.region}.vpce.amazonaws.com`, ...(w.privateDns ? [hostname] : [])]
            : [`${hostname.split('.')[0] ?? 'api'}.privatelink.cdp.cloudera.com`, ...(w.privateDns ? [hostname] : [])];
      }
      if (done && state === 'ERROR')
        item.error = `could not ${kind} the ${component} endpoint in ${w.provider === 'AWS' ? 'VPC' : 'VNet'} ${w.network}: the network refused the endpoint`;
      return item;
    }),
  };
}

/** getPrivateLinkStatus: the status of a network's endpoints, DISABLED for a network the emulator has never had any in. */
export function getPrivateLinkStatus(h: Hook<R>, req: Doc): Doc {
  const provider: Provider = (str(req.cloudServiceProvider) as Provider | undefined) ?? (str(req.vpcId) ? 'AWS' : 'AZURE');
  const networks = h.records('network');
  const net = networks.find(nameOf(provider, str(provider === 'AWS' ? req.vpcId : req.vNetId) ?? ''));
  return { status: net ? networks.view(net).status : 'DISABLED' };
}
