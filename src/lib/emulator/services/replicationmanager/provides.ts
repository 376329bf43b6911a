/**
 * What Replication Manager tells the rest of the emulator
 * (world/contracts.ts `clusters`): the account's data lakes (as the world's
 * `lakes` tells them) and Data Hub clusters (as its `hubs` tells them),
 * settled, so a cluster that was stopped or deleted is stopped or gone here
 * at once; each a replication endpoint and a place records live in. Data
 * Engineering reads an environment's data lake here. Nothing here writes
 * (the datahub service settles what it tells).
 */
import { resources as lakeFacts } from '../../../model/services/datalake/resources.js';
import { notFound } from '../../errors.js';
import type { ProviderScope } from '../../world.js';
import type { ClusterView, Clusters, HubView, LakeView } from '../../world/contracts.js';

/** A cluster Replication Manager can know: a data lake (SDX) or a Data Hub cluster (DISTROX). */
export type WorldCluster = ClusterView;

const DEFAULT_RUNTIME = '7.2.18';

/** The states a data lake passes through while it is made: it is known to Cloudera Manager once they are over. */
const LAKE_CREATING: readonly string[] = lakeFacts.resources.datalake.lifecycle.create.through;

/** What a cluster is beside its name and place, by its kind. */
type Standing = Pick<WorldCluster, 'type' | 'state' | 'registered' | 'up' | 'runtime' | 'template' | 'storage'>;

/** Every data lake and Data Hub cluster of the account, in creation order (data lakes first), each in its environment. */
function worldClusters(scope: ProviderScope): WorldCluster[] {
  const world = scope.world.in(scope);
  const lake = (l: LakeView): Standing => ({
    type: 'SDX',
    state: l.status,
    registered: !LAKE_CREATING.includes(l.status),
    up: l.status === 'RUNNING',
    runtime: l.runtime || DEFAULT_RUNTIME,
    template: 'Data Lake',
    ...(l.storage ? { storage: l.storage } : {}),
  });
  const hub = (h: HubView): Standing => ({
    type: 'DISTROX',
    state: h.status,
    registered: h.registered,
    up: h.status === 'AVAILABLE',
    runtime: /^(\d+\.\d+\.\d+)/.exec(h.template)?.[1] ?? DEFAULT_RUNTIME,
    template: h.template,
  });
  const found = [...world.lakes.all().map((l) => [l, lake(l)] as const), ...world.hubs.all().map((h) => [h, hub(h)] as const)];
  return found.flatMap(([x, c]) => {
    const env = world.environments.find(x.environmentCrn);
    if (!env) return [];
    const { environmentName, cloudPlatform, region } = env;
    return [{ crn: x.crn, name: x.name, environmentCrn: env.crn, environmentName, cloudPlatform, region, hosts: x.hosts, ...c }];
  });
}

export function clusters(scope: ProviderScope): Clusters {
  const find = (crn: string): WorldCluster | undefined => worldClusters(scope).find((c) => c.crn === crn);
  return {
    all: () => worldClusters(scope),
    find,
    lakeOf: (environmentCrn) => worldClusters(scope).find((c) => c.type === 'SDX' && c.environmentCrn === environmentCrn),
    place: (ref) => {
      const c = find(ref);
      if (!c) throw notFound(`cluster ${ref.slice(0, 200)} not found`);
      return { scope: c.crn, where: `cluster ${c.name}` };
    },
  };
}
