/** What the datahub service tells the rest of the emulator (world/contracts.ts `hubs`): its clusters, settled on the clock. */
import type { HubView, Hubs } from '../../world/contracts.js';
import { asCluster, type ClusterRec, type DatahubHook } from './records.js';

export function hubs(h: DatahubHook): Hubs {
  const res = h.records('cluster');
  const view = (c: ClusterRec): HubView => ({
    crn: c.doc.crn,
    name: c.doc.clusterName,
    environmentCrn: c.doc.environmentCrn,
    status: res.state(c),
    template: c.doc.clusterTemplateName,
    registered: c.activity.action !== 'create' || res.progress(c).done,
    hosts: [...c.doc.groups.filter((g) => g.type === 'GATEWAY'), ...c.doc.groups.filter((g) => g.type !== 'GATEWAY')].flatMap((g) =>
      g.instances.map((i) => i.fqdn),
    ),
  });
  return {
    find: (ref) => {
      const c = res.find(ref);
      return c ? view(asCluster(c)) : undefined;
    },
    all: () => res.all().map((c) => view(asCluster(c))),
  };
}
