/**
 * The clusters of the account as other services see them: its data lakes
 * (the datalake service, as the world's `lakes` tells them) and Data Hub
 * clusters (the datahub service, as the world's `hubs` tells them), settled, so a cluster that was stopped
 * or deleted is stopped or gone here at once. Replication Manager
 * replicates between them, and Data Engineering needs an environment's data
 * lake. Nothing here writes (the datahub service settles what it tells).
 */
import { resources as lakeFacts } from '../../../model/services/datalake/resources.js';
import type { ProviderScope } from '../../world.js';
import type { ClusterView, Environments, HubView, LakeView } from '../../world/contracts.js';

/** A cluster Replication Manager can know: a data lake (SDX) or a Data Hub cluster (DISTROX), as the world's `clusters` tells them. */
export type WorldCluster = ClusterView;

const DEFAULT_RUNTIME = '7.2.18';

/** The states a data lake passes through while it is made: it is known to Cloudera Manager once they are over. */
const LAKE_CREATING: readonly string[] = lakeFacts.resources.datalake.lifecycle.create.through;

function lakeCluster(envs: Environments, l: LakeView): WorldCluster | undefined {
  const env = envs.find(l.environmentCrn);
  if (!env) return undefined;
  return {
    crn: l.crn,
    name: l.name,
    type: 'SDX',
    environmentCrn: env.crn,
    environmentName: env.environmentName,
    cloudPlatform: env.cloudPlatform,
    region: env.region,
    state: l.status,
    registered: !LAKE_CREATING.includes(l.status),
    up: l.status === 'RUNNING',
    runtime: l.runtime || DEFAULT_RUNTIME,
    template: 'Data Lake',
    hosts: l.hosts,
    ...(l.storage ? { storage: l.storage } : {}),
  };
}

function hubCluster(envs: Environments, h: HubView): WorldCluster | undefined {
  const env = envs.find(h.environmentCrn);
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
  // Data lakes, Data Hub clusters and their environments as their services tell them (world/contracts.ts), settled on the clock.
  const world = scope.world.in(scope);
  const lakes = world.lakes.all().map((l) => lakeCluster(world.environments, l));
  const hubs = world.hubs.all().map((h) => hubCluster(world.environments, h));
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
