/**
 * Which base URL a service's requests go to (DESIGN "Credentials, config,
 * endpoints"): --endpoint-url, then cdp_endpoint_url/endpoint_url in config
 * (`%s` becomes `iam` or `api`), then the region's default host.
 */
import { usageError } from './errors.js';

export const REGIONS = ['us-west-1', 'eu-1', 'ap-1', 'usg-1'] as const;
export const DEFAULT_REGION = 'us-west-1';

export interface EndpointInput {
  readonly endpointUrl?: string; // --endpoint-url
  readonly region?: string; // --cdp-region
  readonly config: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export function resolveRegion(input: EndpointInput): string {
  const region = input.region || input.env?.CDP_REGION || input.config.cdp_region || DEFAULT_REGION;
  if (!(REGIONS as readonly string[]).includes(region)) {
    throw usageError(`unknown region "${region}"; expected one of ${REGIONS.join(', ')}`);
  }
  return region;
}

function checkUrl(url: string, source: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usageError(`${source} "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw usageError(`${source} "${url}" must start with http:// or https://`);
  }
  return url;
}

/** Base URL for a service whose endpoint kind is `iam` or `api`. */
export function resolveEndpoint(kind: 'iam' | 'api', input: EndpointInput): string {
  if (input.endpointUrl) return checkUrl(input.endpointUrl, '--endpoint-url');
  const configured = input.config.cdp_endpoint_url || input.config.endpoint_url;
  if (configured) return checkUrl(configured.replace('%s', kind), 'cdp_endpoint_url');
  const region = resolveRegion(input);
  const domain = region === 'usg-1' ? 'cdp.clouderagovt.com' : 'cdp.cloudera.com';
  if (kind === 'iam' && region === 'us-west-1') return 'https://iamapi.us-west-1.altus.cloudera.com';
  return `https://api.${region}.${domain}`;
}

/** Joins a base URL and an operation path with exactly one slash between them. */
export function joinUrl(base: string, path: string): URL {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
  return url;
}
