/**
 * The clusters of the account as other services see them: its data lakes
 * (the datalake service, read from its stored records and settled on the
 * clock the way it reads them) and Data Hub clusters (the datahub service,
 * as the world's `hubs` tells them, settled), so a cluster that was stopped
 * or deleted is stopped or gone here at once. Replication Manager
 * replicates between them, and Data Engineering needs an environment's data
 * lake. Nothing here writes (the datahub service settles what it tells).
 */
import { findEnvironment, type EnvironmentScope } from '../../environments.js';
import { progress, type Activity } from '../../lifecycle.js';
import type { ProviderScope } from '../../world.js';
import type { ClusterView, HubView } from '../../world/contracts.js';

/** A cluster Replication Manager can know: a data lake (SDX) or a Data Hub cluster (DISTROX), as the world's `clusters` tells them. */
export type WorldCluster = ClusterView;

/** The fields of the datalake service's records this reads. */
interface StoredLake {
  crn: string;
  datalakeName: string;
  environmentCrn: string;
  runtime?: string;
  storage?: string;
  groups?: Array<{ instances?: Array<{ discoveryFQDN?: string; clouderaManagerServer?: boolean }> }>;
  activity: Activity;
}

const LAKE_KIND = 'datalake.datalake';
const DEFAULT_RUNTIME = '7.2.18';

/** Its state now and whether its creation has ended; undefined once a delete has ended (its service removes it on its next read). */
function stateOf(activity: Activity, now: number): { state: string; registered: boolean } | undefined {
  const p = progress(activity, now);
  if (activity.action === 'delete' && p.succeeded) return undefined;
  return { state: p.state, registered: activity.action !== 'create' || p.done };
}

function lakeCluster(scope: EnvironmentScope, l: StoredLake): WorldCluster | undefined {
  const now = stateOf(l.activity, scope.clock.now());
  const env = findEnvironment(scope, l.environmentCrn);
  if (!now || !env) return undefined;
  const instances = (l.groups ?? []).flatMap((g) => g.instances ?? []);
  const cm = instances.filter((i) => i.clouderaManagerServer);
  return {
    crn: l.crn,
    name: l.datalakeName,
    type: 'SDX',
    environmentCrn: env.crn,
    environmentName: env.environmentName,
    cloudPlatform: env.cloudPlatform,
    region: env.region,
    ...now,
    up: now.state === 'RUNNING',
    runtime: l.runtime ?? DEFAULT_RUNTIME,
    template: 'Data Lake',
    hosts: [...cm, ...instances.filter((i) => !i.clouderaManagerServer)].flatMap((i) => (i.discoveryFQDN ? [i.discoveryFQDN] : [])),
    ...(l.storage ? { storage: l.storage } : {}),
  };
}

function hubCluster(scope: EnvironmentScope, h: HubView): WorldCluster | undefined {
  const env = findEnvironment(scope, h.environmentCrn);
  if (!env) return undefined;
  return {
    crn: h.crn,
    name: h.name,
    type: 'DISTROX',
    environmentCrn: env.crn,
    environmentName: env.environmentName,
    cloudPlatform: env.cloudPlatform,
    region: env.region,
    state: h.status,
    registered: h.registered,
    up: h.status === 'AVAILABLE',
    runtime: /^(\d+\.\d+\.\d+)/.exec(h.template)?.[1] ?? DEFAULT_RUNTIME,
    template: h.template,
    hosts: h.hosts,
  };
}

/** Every data lake and Data Hub cluster of the account, in creation order (data lakes first). */
export function worldClusters(scope: ProviderScope): WorldCluster[] {
  const lakes = scope.store.list<StoredLake>(LAKE_KIND).map((d) => lakeCluster(scope, d.doc));
  // Data Hub clusters as their service tells them (world/contracts.ts `hubs`), settled on the clock.
  const hubs = scope.world
    .in(scope)
    .hubs.all()
    .map((h) => hubCluster(scope, h));
  return [...lakes, ...hubs].filter((c): c is WorldCluster => c !== undefined);
}

/** The cluster a CRN names, if the account has it. */
export function worldCluster(scope: ProviderScope, crn: string): WorldCluster | undefined {
  return worldClusters(scope).find((c) => c.crn === crn);
}

/** The data lake of an environment, if it has one. */
export function dataLakeOf(scope: ProviderScope, environmentCrn: string): WorldCluster | undefined {
  return worldClusters(scope).find((c) => c.type === 'SDX' && c.environmentCrn === environmentCrn);
}
