/** The datalake service of the emulator. */
import type { ServiceModule } from '../../types.js';
import { dependentKind } from '../../world.js';
import { handlers } from './handlers.js';
import { lakeResources } from './lakes.js';
import { lakes } from './provides.js';

const datalake: ServiceModule = {
  service: 'datalake',
  handlers,
  provides: { lakes },
  dependents: [
    dependentKind({
      service: 'datalake',
      noun: 'data lake',
      resources: lakeResources,
      environmentOf: (l) => l.environmentCrn,
      nameOf: (l) => l.datalakeName,
    }),
  ],
};
export default datalake;
