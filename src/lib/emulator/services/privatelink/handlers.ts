/** cloudprivatelinks operations: unpack the wire request, call the backend, build the wire answer. */
import { invalid } from '../../errors.js';
import { perRequest } from '../../service.js';
import type { Doc, Handler } from '../../types.js';
import { hex, obj, str, strings } from '../../values.js';
import {
  COMPONENTS,
  PrivateLinkBackend,
  REGIONS,
  checkRegion,
  checkServiceGroup,
  type AccessTarget,
  type NetworkRecord,
  type Provider,
  type WorkRecord,
} from './backend.js';

const op = perRequest((ctx) => new PrivateLinkBackend(ctx));

/** The cloud account object of a request (AWS or Azure) and the network it names. */
function accountOf(req: Doc, provider: Provider, awsField: string, azureField: string): { details: Doc; network: string } {
  const details = obj(req[provider === 'AWS' ? awsField : azureField]);
  const network = str(provider === 'AWS' ? details.vpcId : details.vNetId);
  if (!network) throw invalid(provider === 'AWS' ? `${awsField}.vpcId is required` : `${azureField}.vNetId is required`);
  return { details, network };
}

const tags = (v: unknown): NetworkRecord['resourceTags'] => (Array.isArray(v) ? (v as NetworkRecord['resourceTags']) : []);

function accessTarget(req: Doc): AccessTarget {
  checkServiceGroup(str(req.serviceGroup));
  const provider: Provider = (str(req.cloudServiceProvider) as Provider | undefined) ?? (str(req.cloudAccountId) ? 'AWS' : 'AZURE');
  const account = str(provider === 'AWS' ? req.cloudAccountId : req.subscriptionId) ?? '';
  return { provider, account, region: str(req.region) ?? '' };
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

/** One endpoint per component: its status, and once done its id and DNS names (SUCCESS) or error (ERROR). */
function endpointsOf(b: PrivateLinkBackend, w: WorkRecord): Doc[] {
  const { state, done } = b.workProgress(w);
  return COMPONENTS.map(({ component, hostname }) => {
    const item: Doc = { serviceComponent: component, status: state, creationTimestamp: w.createdAt };
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
      item.error = `could not ${w.kind} the ${component} endpoint in ${w.provider === 'AWS' ? 'VPC' : 'VNet'} ${w.network}: the network refused the endpoint`;
    return item;
  });
}

const tracking = (w: WorkRecord): Doc => ({ trackingId: w.trackingId });

export const handlers: Record<string, Handler> = {
  createPrivateLinkEndpoint: op((b, req) => {
    const provider = req.cloudServiceProvider as Provider;
    checkServiceGroup(str(req.serviceGroup));
    const { details, network } = accountOf(req, provider, 'awsAccountDetails', 'azureAccountDetails');
    const subnet = str(details.subnetId);
    const subnets = provider === 'AWS' ? strings(details.subnetIds) : subnet ? [subnet] : [];
    return tracking(
      b.createEndpoints({
        provider,
        network,
        region: str(provider === 'AWS' ? details.region : details.location),
        subnetIds: subnets,
        resourceTags: tags(req.resourceTags),
        resourceGroup: str(details.resourceGroup),
        privateDns: req.enablePrivateDns === true,
      }),
    );
  }),
  updatePrivateLinkEndpoint: op((b, req) => {
    const provider: Provider = (str(req.cloudServiceProvider) as Provider | undefined) ?? (req.awsAccountInfo ? 'AWS' : 'AZURE');
    const { network } = accountOf(req, provider, 'awsAccountInfo', 'azureAccountInfo');
    return tracking(
      b.updateEndpoints({
        provider,
        network,
        subnetIds: Array.isArray(req.subnetIds) ? { ids: strings(req.subnetIds), replace: req.updateOperation === 'REPLACE' } : undefined,
        resourceTags: Array.isArray(req.resourceTags) ? tags(req.resourceTags) : undefined,
        resourceGroup: typeof req.resourceGroup === 'string' ? req.resourceGroup : undefined,
      }),
    );
  }),
  deletePrivateLinkEndpoint: op((b, req) => {
    const provider = req.cloudServiceProvider as Provider;
    return tracking(b.deleteEndpoints(provider, accountOf(req, provider, 'awsAccountInfo', 'azureAccountInfo').network));
  }),
  migratePrivateLinkEndpoints: op((b, req) => {
    const { network } = accountOf(req, 'AWS', 'awsAccountInfo', 'azureAccountInfo');
    return tracking(b.migrateEndpoints(network, str(obj(req.awsAccountInfo).region)));
  }),
  listPrivateLinkEndpointStatuses: op((b, req) => ({ privatelinkEndpoints: endpointsOf(b, b.workOf(String(req.trackingId))) })),
  getPrivateLinkStatus: op((b, req) => {
    const provider: Provider = (str(req.cloudServiceProvider) as Provider | undefined) ?? (str(req.vpcId) ? 'AWS' : 'AZURE');
    return { status: b.status(provider, str(provider === 'AWS' ? req.vpcId : req.vNetId) ?? '') };
  }),
  listPrivateLinkServicesForRegion: (req) => {
    checkServiceGroup(str(req.serviceGroup));
    const region = String(req.region);
    const provider: Provider = REGIONS.AZURE.includes(region) ? 'AZURE' : 'AWS';
    checkRegion(provider, region);
    return { listPrivateLinkServicesForRegionResults: serviceResults(provider, region) };
  },
  authorizePrivateLinkServiceAccess: op((b, req) => {
    const t = accessTarget(req);
    b.authorize(t);
    return {
      status: 'SUCCESS',
      authorizePrivateLinkServiceAccessResults: serviceResults(t.provider, t.region).map((r) => ({
        ...r,
        authorizationStatus: 'AUTHORIZED',
      })),
    };
  }),
  revokePrivateLinkServiceAccess: op((b, req) => {
    const t = accessTarget(req);
    b.revoke(t);
    return {
      status: 'SUCCESS',
      revokePrivateLinkServiceAccessResults: serviceResults(t.provider, t.region).map((r) => ({
        privateLinkService: r.privateLinkService,
        serviceComponent: r.serviceComponent,
        revocationStatus: 'REVOKED',
      })),
    };
  }),
};
