/**
 * What cloudprivatelinks offers where: the regions each cloud has private
 * links in, the control-plane components a network gets an endpoint for, and
 * the private-link services of a region (one a component), as
 * listPrivateLinkServicesForRegion, authorize and revoke name them.
 */
import type { Doc } from '../../engine/context.js';
import { invalid } from '../../errors.js';
import { hex, str } from '../../values.js';

export type Provider = 'AWS' | 'AZURE';
export const SERVICE_GROUP = 'CDP-CONTROL-PLANE';

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

export function checkRegion(provider: Provider, region: string | undefined): string {
  if (!region) throw invalid(provider === 'AWS' ? 'the AWS region is required' : 'the Azure location is required');
  if (!REGIONS[provider].includes(region))
    throw invalid(`private links are not offered in ${provider} region "${region}"; use one of ${REGIONS[provider].join(', ')}`);
  return region;
}

export function checkServiceGroup(group: string | undefined): void {
  if (group !== undefined && group !== SERVICE_GROUP) throw invalid(`serviceGroup must be ${SERVICE_GROUP}; got "${group}"`);
}

/** The private-link services of a region, one per component. */
export function serviceResults(provider: Provider, region: string): Doc[] {
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
export function servicesForRegion(_h: unknown, req: Doc): Doc {
  checkServiceGroup(str(req.serviceGroup));
  const region = String(req.region);
  const provider: Provider = REGIONS.AZURE.includes(region) ? 'AZURE' : 'AWS';
  checkRegion(provider, region);
  return { listPrivateLinkServicesForRegionResults: serviceResults(provider, region) };
}
