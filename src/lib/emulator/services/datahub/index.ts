/** The datahub service of the emulator. */
import type { ServiceModule } from '../../types.js';
import { dependentKind } from '../../world.js';
import { clusterResources } from './backend.js';
import { handlers } from './handlers.js';

const datahub: ServiceModule = {
  service: 'datahub',
  handlers,
  dependents: [
    dependentKind({
      service: 'datahub',
      noun: 'Data Hub cluster',
      resources: clusterResources,
      environmentOf: (c) => c.environmentCrn,
      nameOf: (c) => c.clusterName,
    }),
  ],
};
export default datahub;
