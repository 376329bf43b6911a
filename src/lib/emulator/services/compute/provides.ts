/** What the compute service tells the rest of the emulator (world/contracts.ts `computeClusters`): its clusters and when they ran. */
import { createdAtOf, runsOf, spansOf } from '../../world.js';
import type { ProviderScope } from '../../world.js';
import type { ComputeClusters } from '../../world/contracts.js';
import { CLUSTER, ComputeBackend } from './backend.js';

export function computeClusters(scope: ProviderScope): ComputeClusters {
  return {
    all: () => {
      const now = scope.clock.now();
      const all = new ComputeBackend({ ...scope, caller: { accountId: scope.info.accountId, actorCrn: '', kind: 'user' } }).clusters.all();
      return all.map((c) => ({
        crn: c.clusterCrn,
        name: c.clusterName,
        environmentCrn: c.envCrn,
        environmentName: c.envName,
        cloudPlatform: c.provider,
        runs: runsOf(CLUSTER, spansOf(CLUSTER, c.activity, now, createdAtOf(c)), now),
        tags: c.tags,
      }));
    },
  };
}
