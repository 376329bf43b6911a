/**
 * Which base URL a service's requests go to, and whether the service exists
 * under the control plane's form factor, exactly as the official CLI decides
 * (DESIGN "Credentials, config, endpoints"). Everything is driven by the
 * service's facts: a CDP-only service reads `cdp_endpoint_url` and fills a
 * `%s` with the API prefix `api`; an Altus (and CDP) service such as iam
 * reads `endpoint_url`, fills `%s` with its endpoint name and has its own
 * default host. Neither key falls back to the other.
 */
import { usageError, cdpError } from './errors.js';

export const REGIONS = ['us-west-1', 'eu-1', 'ap-1', 'usg-1'] as const;
export const DEFAULT_REGION = 'us-west-1';

/** What endpoint resolution needs of a service's facts. */
export interface EndpointFacts {
  /** Wire service name (`iam`, `datalake`). */
  readonly name: string;
  /** The service's name in URLs (`iam`, `environments2`). */
  readonly endpointName: string;
  /** `CDP` alone, or with `ALTUS`. */
  readonly products: readonly string[];
  /** `public`, `private` or both. */
  readonly formFactors: readonly string[];
}

export interface EndpointInput {
  readonly endpointUrl?: string; // --endpoint-url
  readonly region?: string; // --cdp-region
  readonly formFactor?: string; // --form-factor
  readonly config: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The API prefix the official CLI fills into `%s` for CDP-only services (its models' default `x-endpoint-prefix`). */
const CDP_PREFIX = 'api';

/** A CDP-only service (its products are exactly CDP); anything else follows the Altus rules. */
export const isCdpOnly = (facts: Pick<EndpointFacts, 'products'>): boolean => facts.products.length === 1 && facts.products[0] === 'CDP';

/** The config key that holds a service's endpoint URL. */
export const endpointKey = (facts: Pick<EndpointFacts, 'products'>): 'cdp_endpoint_url' | 'endpoint_url' =>
  isCdpOnly(facts) ? 'cdp_endpoint_url' : 'endpoint_url';

export function resolveRegion(input: EndpointInput): string {
  const explicit = input.region && input.region !== 'default' ? input.region : undefined;
  const region = explicit || input.env?.CDP_REGION || input.config.cdp_region || DEFAULT_REGION;
  if (region === 'default') return DEFAULT_REGION;
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

/** One `%s` is filled: the API prefix for CDP-only services, the endpoint name for the others. */
function substitute(url: string, facts: EndpointFacts): string {
  if (url.split('%s').length !== 2) return url;
  return url.replace('%s', isCdpOnly(facts) ? CDP_PREFIX : facts.endpointName);
}

/** Base URL of a service: --endpoint-url, else its config key, else the region's default host. */
export function resolveEndpoint(facts: EndpointFacts, input: EndpointInput): string {
  if (input.endpointUrl) return checkUrl(substitute(input.endpointUrl, facts), '--endpoint-url');
  const key = endpointKey(facts);
  const configured = input.config[key];
  if (configured) return checkUrl(substitute(configured, facts), key);
  const region = resolveRegion(input);
  if (isCdpOnly(facts))
    return region === 'usg-1' ? `https://${CDP_PREFIX}.usg-1.cdp.clouderagovt.com` : `https://${CDP_PREFIX}.${region}.cdp.cloudera.com`;
  if (region === 'us-west-1') return `https://${facts.endpointName}api.us-west-1.altus.cloudera.com`;
  return region === 'usg-1' ? 'https://api.usg-1.cdp.clouderagovt.com' : `https://api.${region}.cdp.cloudera.com`;
}

/**
 * The official CLI's test of a public-cloud control plane URL; anything
 * else is taken for a private cloud (so `http://127.0.0.1:P/` is private,
 * `http://localhost:P/` public).
 */
const PUBLIC_URL = /^(.+(altus|cdp|dev|dev2|int|int2|stage).(cloudera|clouderagovt).com)|^(http:\/\/localhost:\d+.*)/;

/** The control plane's form factor: --form-factor, the profile's form_factor, else guessed from the endpoint URL. */
export function resolveFormFactor(input: EndpointInput): 'public' | 'private' {
  if (input.formFactor) return input.formFactor === 'private' ? 'private' : 'public';
  const configured = input.config.form_factor;
  if (configured) {
    if (configured !== 'public' && configured !== 'private')
      throw usageError(`The configured form factor ${configured} is invalid. Valid values are: public, private`);
    return configured;
  }
  const url = input.endpointUrl || input.config.cdp_endpoint_url;
  return !url || PUBLIC_URL.test(url) ? 'public' : 'private';
}

/** Refuses a service the control plane's form factor does not offer, with the official CLI's words. */
export function checkFormFactor(facts: EndpointFacts, input: EndpointInput): void {
  const formFactor = resolveFormFactor(input);
  if (facts.formFactors.includes(formFactor)) return;
  throw cdpError({
    kind: 'usage',
    code: 'WRONG_FORM_FACTOR',
    message:
      `The command ${facts.name} is not available under the ${formFactor} CDP form factor. ` +
      `It is only available for these form factors: ${facts.formFactors.join(', ')}. ` +
      'Check that your profile configuration specifies the correct form factor, or that the endpoint URL in profile ' +
      'configuration or on the command line points to the correct control plane.',
    details: [`Give --form-factor ${facts.formFactors[0] ?? 'public'} if the control plane is one.`],
  });
}

/** Joins a base URL and an operation path with exactly one slash between them. */
export function joinUrl(base: string, path: string): URL {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
  return url;
}

/** A host name that is this machine: `localhost`, 127.0.0.0/8 or ::1 (requests to it never cross a network). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Plain http:// to another machine carries signatures, tokens and the keys
 * the console sends in clear text, for anyone on the path to read and
 * replay. It is refused (exit 2) unless the user said it is wanted
 * (`allowed`: --no-verify-tls or the profile's `allow_http = true`), and
 * then it goes with a warning. Loopback is fine: it never leaves the machine.
 */
export function checkCleartext(url: URL, opts: { readonly allowed: boolean; readonly warn?: (line: string) => void }): void {
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return;
  if (!opts.allowed) {
    throw cdpError({
      kind: 'usage',
      code: 'INSECURE_TRANSPORT',
      message: `${url.origin} is plain HTTP to another machine: requests and keys would cross the network in clear text; nothing was sent`,
      details: [
        'Use https://, or, if this is really wanted (a lab network), allow it with --no-verify-tls or: cdpctl configure set allow_http true',
      ],
    });
  }
  opts.warn?.(`${url.origin} is plain HTTP: requests and keys cross the network in clear text`);
}
