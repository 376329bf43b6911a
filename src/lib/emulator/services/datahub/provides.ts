/** What the datahub service tells the rest of the emulator (world/contracts.ts `hubs`): its clusters, settled on the clock. */
import type { ProviderScope } from '../../world.js';
import type { HubView, Hubs } from '../../world/contracts.js';
import { clusterResources } from './backend.js';
import type { ClusterRec } from './records.js';

export function hubs(scope: ProviderScope): Hubs {
  const res = clusterResources(scope);
  const view = (c: ClusterRec): HubView => ({
    crn: c.crn,
    name: c.clusterName,
    environmentCrn: c.environmentCrn,
    status: res.state(c),
    template: c.clusterTemplateName,
  });
  return {
    find: (ref) => {
      const c = res.find(ref);
      return c ? view(c) : undefined;
    },
    all: () => res.all().map(view),
  };
}
