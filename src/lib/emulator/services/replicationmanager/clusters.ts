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

/** A data lake or Data Hub cluster in its environment, as Replication Manager knows it. */
function inEnvironment(
  envs: Environments,
  x: LakeView | HubView,
  c: Pick<WorldCluster, 'type' | 'state' | 'registered' | 'up' | 'runtime' | 'template'>,
): WorldCluster | undefined {
  const env = envs.find(x.environmentCrn);
  if (!env) return undefined;
  const { environmentName, cloudPlatform, region } = env;
  const storage = 'storage' in x && x.storage ? { storage: x.storage } : {};
  return { crn: x.crn, name: x.name, environmentCrn: env.crn, environmentName, cloudPlatform, region, hosts: x.hosts, ...c, ...storage };
}

const lakeCluster = (envs: Environments, l: LakeView): WorldCluster | undefined =>
  inEnvironment(envs, l, {
    type: 'SDX',
    state: l.status,
    registered: !LAKE_CREATING.includes(l.status),
    up: l.status === 'RUNNING',
    runtime: l.runtime || DEFAULT_RUNTIME,
    template: 'Data Lake',
  });

const hubCluster = (envs: Environments, h: HubView): WorldCluster | undefined =>
  inEnvironment(envs, h, {
    type: 'DISTROX',
    state: h.status,
    registered: h.registered,
    up: h.status === 'AVAILABLE',
    runtime: /^(\d+\.\d+\.\d+)/.exec(h.template)?.[1] ?? DEFAULT_RUNTIME,
    template: h.template,
  });

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
