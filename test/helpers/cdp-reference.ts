/**
 * Facts about the official CLI (`cdp` 0.9.158) that tests pin cdpctl
 * against, read from its source once (CI cannot run it; ../shared/refcli).
 */

/** The global options of cdpcli/data/cli.json, less --version (answered before any command). */
export const CDP_GLOBAL_OPTIONS: readonly string[] = [
  'debug',
  'no-verify-tls',
  'ca-bundle',
  'endpoint-url',
  'form-factor',
  'force-ipv4',
  'access-token',
  'output',
  'color',
  'cli-read-timeout',
  'cli-connect-timeout',
  'no-paginate',
  'auth-config',
  'profile',
  'cdp-region',
  'ensure-ascii',
  'deprecated',
  'no-parameter-expansion',
];
