/**
 * What Replication Manager tells the rest of the emulator
 * (world/contracts.ts `clusters`): the account's data lakes and Data Hub
 * clusters as replication endpoints, and each as a place records live in.
 */
import { notFound } from '../../errors.js';
import type { ProviderScope } from '../../world.js';
import type { Clusters } from '../../world/contracts.js';
import { dataLakeOf, worldCluster, worldClusters } from './clusters.js';

export function clusters(scope: ProviderScope): Clusters {
  return {
    all: () => worldClusters(scope),
    find: (crn) => worldCluster(scope, crn),
    lakeOf: (environmentCrn) => dataLakeOf(scope, environmentCrn),
    place: (ref) => {
      const c = worldCluster(scope, ref);
      if (!c) throw notFound(`cluster ${ref.slice(0, 200)} not found`);
      return { scope: c.crn, where: `cluster ${c.name}` };
    },
  };
}
