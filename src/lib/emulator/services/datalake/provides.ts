/** What the datalake service tells the rest of the emulator (world/contracts.ts `lakes`): its data lakes, settled on the clock. */
import type { ProviderScope } from '../../world.js';
import type { LakeView, Lakes } from '../../world/contracts.js';
import { lakeResources } from './lakes.js';
import type { LakeRec } from './records.js';

export function lakes(scope: ProviderScope): Lakes {
  const res = lakeResources(scope);
  const view = (l: LakeRec): LakeView => {
    const instances = l.groups.flatMap((g) => g.instances);
    const cm = instances.filter((i) => i.clouderaManagerServer);
    return {
      crn: l.crn,
      name: l.datalakeName,
      environmentCrn: l.environmentCrn,
      status: res.state(l),
      runtime: l.runtime,
      hosts: [...cm, ...instances.filter((i) => !i.clouderaManagerServer)].map((i) => i.discoveryFQDN),
      ...(l.storage ? { storage: l.storage } : {}),
    };
  };
  const all = (): LakeView[] => res.all().map(view);
  return {
    of: (environmentCrn) => all().find((l) => l.environmentCrn === environmentCrn),
    find: (ref) => {
      const l = res.find(ref);
      return l ? view(l) : undefined;
    },
    all,
  };
}
