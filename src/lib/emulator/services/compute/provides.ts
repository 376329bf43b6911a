/** What the compute service tells the rest of the emulator (world/contracts.ts `computeClusters`): its clusters and when they ran. */
import type { Hook } from '../../engine/declare.js';
import type { ComputeClusters } from '../../world/contracts.js';
import type { R } from './clusters.js';

export function computeClusters(h: Hook<R>): ComputeClusters {
  const clusters = h.records('cluster');
  const view = (c: Parameters<typeof clusters.runs>[0]) => ({
    crn: String(c.crn),
    name: String(c.name),
    environmentCrn: String(c.env),
    environmentName: String(c.doc.envName),
    cloudPlatform: c.doc.envCloudProvider === 'AZURE' ? ('AZURE' as const) : ('AWS' as const),
    status: clusters.state(c),
    runs: clusters.runs(c),
    tags: (c.doc.labels ?? {}) as Record<string, string>,
  });
  return {
    all: () => clusters.all().map(view),
    find: (crn) => {
      const c = clusters.find(crn);
      return c && !c.deleted ? view(c) : undefined;
    },
  };
}
