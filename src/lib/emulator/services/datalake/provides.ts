/** What the datalake service tells the rest of the emulator (world/contracts.ts `lakes`): its data lakes, settled on the clock. */
import type { Hook } from '../../engine/declare.js';
import type { LakeView, Lakes } from '../../world/contracts.js';
import { lakeDoc, type Lake, type R } from './lakes.js';

export function provided(h: Hook<R>): Lakes {
  const records = h.records('datalake');
  const view = (lake: Lake): LakeView => {
    const l = lakeDoc(lake);
    const instances = l.groups.flatMap((g) => g.instances);
    const cm = instances.filter((i) => i.clouderaManagerServer);
    return {
      crn: l.crn,
      name: l.datalakeName,
      environmentCrn: l.environmentCrn,
      status: records.state(lake),
      runtime: l.runtime,
      hosts: [...cm, ...instances.filter((i) => !i.clouderaManagerServer)].map((i) => i.discoveryFQDN),
      ...(l.storage ? { storage: l.storage } : {}),
    };
  };
  const all = (): LakeView[] => records.all().map(view);
  return {
    of: (environmentCrn) => all().find((l) => l.environmentCrn === environmentCrn),
    find: (ref) => {
      const l = records.find(ref);
      return l ? view(l) : undefined;
    },
    all,
  };
}
