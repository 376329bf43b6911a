/**
 * The datahub service of the emulator. Cluster templates, cluster
 * definitions, recipes and custom configurations are resources of the
 * engine (blueprints.ts: created, described and listed from the model, with
 * the built-in templates and definitions beside the account's); the clusters
 * and everything done to them are written by hand (handlers.ts) on the
 * cluster records and their lifecycle (backend.ts, maintenance.ts,
 * autoscale.ts), with the engine's lookups at hand.
 */
import type { ServiceModule } from '../../types.js';
import { dependentKind } from '../../world.js';
import { clusterResources } from './backend.js';
import { blueprints } from './blueprints.js';
import { clustersUsing, handlers } from './handlers.js';
import { hubs } from './provides.js';

const built = blueprints({ clustersUsing });

const datahub: ServiceModule = {
  service: 'datahub',
  engine: {
    resources: built.resources,
    handlers: { ...built.handlers, ...handlers },
  },
  provides: { hubs },
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
