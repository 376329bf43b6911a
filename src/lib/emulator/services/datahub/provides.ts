/** What the datahub service tells the rest of the emulator (world/contracts.ts `hubs`): its clusters, settled on the clock. */
import type { HubView, Hubs } from '../../world/contracts.js';
import { clusterResources } from './backend.js';
import type { ClusterRec, DatahubHook } from './records.js';

export function hubs(h: DatahubHook): Hubs {
  const res = clusterResources(h.ctx);
  const view = (c: ClusterRec): HubView => ({
    crn: c.crn,
    name: c.clusterName,
    environmentCrn: c.environmentCrn,
    status: res.state(c),
    template: c.clusterTemplateName,
    registered: c.activity.action !== 'create' || res.progress(c).done,
    hosts: [...c.groups.filter((g) => g.type === 'GATEWAY'), ...c.groups.filter((g) => g.type !== 'GATEWAY')].flatMap((g) =>
      g.instances.map((i) => i.fqdn),
    ),
  });
  return {
    find: (ref) => {
      const c = res.find(ref);
      return c ? view(c) : undefined;
    },
    all: () => res.all().map(view),
  };
}
