/**
 * The clusters of the account as other services see them: its data lakes
 * (the datalake service) and Data Hub clusters (the datahub service), read
 * from their stored records and settled on the clock the way their own
 * services read them, so a cluster that was stopped or deleted is stopped or
 * gone here at once. Replication Manager replicates between them, and Data
 * Engineering needs an environment's data lake. Nothing here writes.
 */
import { findEnvironment, type EnvironmentScope } from '../../environments.js';
import { progress, type Activity } from '../../lifecycle.js';
import type { ClusterView } from '../../world/contracts.js';

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

/** The fields of the datahub service's records this reads. */
interface StoredHub {
  crn: string;
  clusterName: string;
  environmentCrn: string;
  clusterTemplateName?: string;
  groups?: Array<{ type?: string; instances?: Array<{ fqdn?: string }> }>;
  activity: Activity;
}

const LAKE_KIND = 'datalake.datalake';
const HUB_KIND = 'datahub.cluster';
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

function hubCluster(scope: EnvironmentScope, c: StoredHub): WorldCluster | undefined {
  const now = stateOf(c.activity, scope.clock.now());
  const env = findEnvironment(scope, c.environmentCrn);
  if (!now || !env) return undefined;
  const template = c.clusterTemplateName ?? '';
  const groups = c.groups ?? [];
  const ordered = [...groups.filter((g) => g.type === 'GATEWAY'), ...groups.filter((g) => g.type !== 'GATEWAY')];
  return {
    crn: c.crn,
    name: c.clusterName,
    type: 'DISTROX',
    environmentCrn: env.crn,
    environmentName: env.environmentName,
    cloudPlatform: env.cloudPlatform,
    region: env.region,
    ...now,
    up: now.state === 'AVAILABLE',
    runtime: /^(\d+\.\d+\.\d+)/.exec(template)?.[1] ?? DEFAULT_RUNTIME,
    template,
    hosts: ordered.flatMap((g) => (g.instances ?? []).flatMap((i) => (i.fqdn ? [i.fqdn] : []))),
  };
}

/** Every data lake and Data Hub cluster of the account, in creation order (data lakes first). */
export function worldClusters(scope: EnvironmentScope): WorldCluster[] {
  const lakes = scope.store.list<StoredLake>(LAKE_KIND).map((d) => lakeCluster(scope, d.doc));
  const hubs = scope.store.list<StoredHub>(HUB_KIND).map((d) => hubCluster(scope, d.doc));
  return [...lakes, ...hubs].filter((c): c is WorldCluster => c !== undefined);
}

/** The cluster a CRN names, if the account has it. */
export function worldCluster(scope: EnvironmentScope, crn: string): WorldCluster | undefined {
  return worldClusters(scope).find((c) => c.crn === crn);
}

/** The data lake of an environment, if it has one. */
export function dataLakeOf(scope: EnvironmentScope, environmentCrn: string): WorldCluster | undefined {
  return worldClusters(scope).find((c) => c.type === 'SDX' && c.environmentCrn === environmentCrn);
}
