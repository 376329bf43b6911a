/**
 * Data Engineering services: a Kubernetes cluster enabled in an environment
 * that has a running data lake. What a service shows is made from the
 * settings it was enabled with (kept on its record: its enable request, or
 * what a restore or an update left in `data.settings`, so that a backup can
 * restore it), its environment and the environment's data lake.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { failedPrecondition, invalid } from '../../errors.js';
import { paged } from '../../engine/paging.js';
import { kubeconfig } from '../../shared/kubeconfig.js';
import { b64, hex, iso, num, str, strings } from '../../values.js';
import type { ClusterView, EnvironmentView } from '../../world/contracts.js';
import { callerOf, firstActionLog, LATEST_VERSION, PREVIOUS_VERSION, USABLE, type R, type Rec } from './common.js';

/** Service names as the service takes them. */
const SERVICE_NAME = /^[a-zA-Z][a-zA-Z0-9.-]+[a-zA-Z0-9]$/;

/** Settings only an Azure environment takes. */
const AZURE_ONLY = `azureFilesharePrivateDNSZoneId azureDatabasePrivateDNSZoneId customAzureFilesConfigs azureServiceManagedIdentity
  azureVirtualClusterManagedIdentities`.split(/\s+/);

/** The environment's data lake, when the environment is available and its data lake running; else FAILED_PRECONDITION. */
export function readyLake(h: Hook<R>, env: EnvironmentView, what: string): ClusterView {
  if (env.status !== 'AVAILABLE')
    throw failedPrecondition(`environment ${env.environmentName} is ${env.status}; ${what} needs it AVAILABLE`);
  const lake = h.world.clusters.lakeOf(env.crn);
  if (!lake) throw failedPrecondition(`environment ${env.environmentName} has no data lake; ${what} needs a running one`);
  if (!lake.up)
    throw failedPrecondition(`data lake ${lake.name} of environment ${env.environmentName} is ${lake.state}; ${what} needs it RUNNING`);
  return lake;
}

/** A setting's name in a group of settings: `minimumInstances`, or `allPurposeMinimumInstances` with the prefix `allPurpose`. */
const named = (prefix: string, name: string): string => (prefix ? `${prefix}${name.charAt(0).toUpperCase()}${name.slice(1)}` : name);

/** A lower and an upper bound, and where a start value sits between them. */
function range(s: Doc, low: string, high: string, start: string): void {
  const [a, b, c] = [num(s[low]), num(s[high]), num(s[start])];
  if (a !== undefined && a < 0) throw invalid(`${low} must be 0 or more`);
  if (a !== undefined && b !== undefined && a > b) throw invalid(`${low} (${a}) is above ${high} (${b})`);
  if (c !== undefined && ((a !== undefined && c < a) || (b !== undefined && c > b)))
    throw invalid(`${start} (${c}) must lie between ${low} (${a ?? 0}) and ${high} (${b ?? '-'})`);
}

/** The rules the settings of a service follow in its environment. */
function check(s: Doc, env: EnvironmentView): void {
  for (const p of ['', 'allPurpose'])
    for (const spot of ['', 'Spot'])
      range(s, named(p, `minimum${spot}Instances`), named(p, `maximum${spot}Instances`), named(p, `initial${spot}Instances`));
  if (s.useSsd === true && env.cloudPlatform !== 'AWS')
    throw invalid(`useSsd is supported on AWS only; environment ${env.environmentName} is on ${env.cloudPlatform}`);
  const azure = AZURE_ONLY.filter((f) => s[f] !== undefined);
  if (azure.length > 0 && env.cloudPlatform !== 'AZURE')
    throw invalid(`${azure.join(', ')} apply to Azure environments only; environment ${env.environmentName} is on ${env.cloudPlatform}`);
  if (s.enablePrivateNetwork === true && s.enablePublicEndpoint === true)
    throw invalid('a fully private service (enablePrivateNetwork) has no public endpoint (enablePublicEndpoint)');
  const foreign = strings(s.subnets).filter((id) => !env.network.subnetIds.includes(id));
  if (foreign.length > 0)
    throw invalid(
      `subnet ${foreign.join(', ')} is not a subnet of environment ${env.environmentName}; it has ${env.network.subnetIds.join(', ')}`,
    );
}

/** An instance group of a service as it shows it (counts as strings), from the settings named with `prefix` (`allPurpose`) or none. */
function instanceGroup(s: Doc, prefix: string): Doc {
  const get = (name: string): unknown => s[named(prefix, name)];
  const count = (name: string, otherwise: number): string => String(num(get(name)) ?? otherwise);
  const [min, minSpot] = [num(get('minimumInstances')) ?? 0, num(get('minimumSpotInstances')) ?? 0];
  return {
    instance_type: str(get('instanceType')),
    min_instances: String(min),
    max_instances: count('maximumInstances', min),
    initial_instances: count('initialInstances', min),
    min_spot_instances: String(minSpot),
    max_spot_instances: count('maximumSpotInstances', 0),
    initial_spot_instances: count('initialSpotInstances', minSpot),
    root_vol_size: count('rootVolumeSize', 200),
  };
}

/** The resources of a service as it shows them. */
const resourcesOf = (s: Doc): Doc => ({
  ...instanceGroup(s, ''),
  ...(str(s.allPurposeInstanceType) ? { allPurposeInstanceGroupDetails: instanceGroup(s, 'allPurpose') } : {}),
});

/** The settings a service was made with, and changed by updates since. */
export const settingsOf = (rec: Rec): Doc => (rec.data?.settings ?? rec.data?.request ?? {}) as Doc;

/** A service as its rules and fields read it: its id, name and environment (a restore's before it is made). */
type Placed = Pick<Rec, 'id' | 'name' | 'env'>;

const environmentOf = (h: Hook<R>, rec: Placed): EnvironmentView => h.world.environments.require(rec.env ?? '');

/** A list setting as a service shows it: its items joined by commas. */
const joined = (s: Doc, field: string): string | undefined => (Array.isArray(s[field]) ? strings(s[field]).join(',') : undefined);

/** The fields a service shows, from its settings, its environment and the environment's data lake. */
export function serviceFieldsOf(h: Hook<R>, rec: Placed, s: Doc, what: string): Doc {
  const env = environmentOf(h, rec);
  const lake = readyLake(h, env, what);
  const base = (lake.storage ?? `s3a://${env.environmentName}-storage`).replace(/\/$/, '');
  const host = `${rec.id.replace(/^cluster-/, '')}.cde-${hex(env.crn, 8)}.${env.environmentName}.emulator.invalid`;
  const caller = callerOf(h);
  return {
    name: rec.name,
    tenantId: h.ctx.info.accountId,
    creatorEmail: caller.email,
    creatorCrn: caller.crn,
    enablingTime: iso(h.ctx.clock.now()),
    clusterFqdn: host,
    cloudPlatform: env.cloudPlatform,
    dataLakeFileSystems: base,
    logLocation: `${base}/dex/logs`,
    backupLocation: `${base}/dex/backups/${rec.id}`,
    dataLakeAtlasUIEndpoint: `https://${lake.hosts[0] ?? `${lake.name}.emulator.invalid`}/${lake.name}/cdp-proxy/atlas/`,
    chartValueOverrides: Array.isArray(s.chartValueOverrides) ? s.chartValueOverrides : undefined,
    whitelistIps: joined(s, 'whitelistIps'),
    loadbalancerAllowlist: joined(s, 'loadbalancerAllowlist'),
    subnets: joined(s, 'subnets') ?? env.network.subnetIds.join(','),
    privateClusterEnabled: s.enablePrivateNetwork === true,
    publicEndpointEnabled: s.enablePublicEndpoint === true,
    // The request's enum writes it UDR; the service shows it as its description does, 'udr'.
    networkOutboundType: str(s.networkOutboundType)?.toLowerCase(),
    previousVersionDeployed: s.deployPreviousVersion === true,
    workloadAnalyticsEnabled: s.enableWorkloadAnalytics === true,
    ssdUsed: s.useSsd === true,
    version: s.deployPreviousVersion === true ? PREVIOUS_VERSION : LATEST_VERSION,
    resources: resourcesOf(s),
  };
}

/**
 * Refuses a service whose settings break a rule: its name, its environment
 * available with a running data lake, the settings against the environment.
 */
export function checkService(h: Hook<R>, rec: Placed, settings: Doc, what: string): void {
  const name = rec.name ?? '';
  if (!SERVICE_NAME.test(name))
    throw invalid(
      `service name ${name} is not valid: at least 3 letters, digits, "-" or "."; it begins with a letter and ends with a letter or digit`,
    );
  const env = environmentOf(h, rec);
  readyLake(h, env, what);
  check(settings, env);
}

/** The settings an update leaves: those the service has, changed by the request's. */
const updated = (rec: Rec, req: Doc): Doc => ({
  ...settingsOf(rec),
  ...Object.fromEntries(Object.entries(req).filter(([k]) => k !== 'clusterId')),
});

/**
 * updateService: the new autoscaling range and allowlists, on a service
 * that is up, checked against the settings it changes merged with those
 * it has; what the service shows is made anew from them (its allowlists
 * are lists in the request, text in what it shows).
 */
export function updateService(h: Hook<R>, rec: EngineRecord, req: Doc): void {
  h.records('cluster').require(rec, USABLE, 'an update');
  const settings = updated(rec, req);
  check(settings, environmentOf(h, rec));
  Object.assign(rec.doc, {
    resources: { ...(rec.doc.resources as Doc | undefined), ...resourcesOf(settings) },
    whitelistIps: joined(settings, 'whitelistIps'),
    loadbalancerAllowlist: joined(settings, 'loadbalancerAllowlist'),
  });
}

/** An update keeps the settings it leaves (a backup restores them). */
export const keepSettings = (_h: Hook<R>, rec: Rec, req: Doc): Doc => ({ settings: updated(rec, req) });

/** A disable waits for work under way to end, unless forced. */
export function checkDisable(h: Hook<R>, rec: Rec, req: Doc): void {
  const services = h.records('cluster');
  if (services.busy(rec) && rec.activity.action !== 'delete' && req.force !== true)
    throw failedPrecondition(`service ${nameOf(rec)} is ${services.state(rec)}; disable it once that has ended, or with --force`);
}

/** The kubeconfig of the service's Kubernetes cluster, for the caller. */
export function getKubeconfig(h: Hook<R>, rec: Rec): Doc {
  h.records('cluster').require(rec, USABLE, 'a kubeconfig');
  const host = String(rec.doc.clusterFqdn ?? `${rec.id}.emulator.invalid`);
  return {
    kubeconfig: kubeconfig({
      cluster: rec.id,
      server: `https://api.${host}:443`,
      ca: b64(hex(`${rec.id}/ca`, 48)),
      user: callerOf(h).name,
      auth: { token: hex(`${rec.id}/${h.ctx.caller.actorCrn}/token`, 40) },
    }),
  };
}

/** The log of the service's first action (its enabling or restoring), as far as the clock has got. */
export function initLogs(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const lines = firstActionLog(h, 'cluster', rec, (action) => {
    const what = action === 'restore' ? 'restoring' : 'enabling';
    return {
      begin: `${what} Data Engineering service ${nameOf(rec)} (${rec.id}) in environment ${String(rec.doc.environmentName)}`,
      success: `service ${nameOf(rec)} is ready: version ${String(rec.doc.version)}, endpoint ${String(rec.doc.clusterFqdn)}`,
      failure: `${what} failed: ${rec.activity.reason ?? 'see the service status'}`,
    };
  });
  return paged(h.ctx, req, lines);
}
