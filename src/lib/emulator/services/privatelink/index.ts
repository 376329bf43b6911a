/**
 * cloudprivatelinks on the operation table: the endpoints of a customer's
 * VPC or VNet (a network record), the work each create, update, delete and
 * migrate runs on them beside it (endpoint records, read by tracking id),
 * and the cloud accounts authorized for a region's private-link services.
 * The states are the model's (model/services/privatelink/resources.ts);
 * what it cannot say is endpoints.ts, access.ts and regions.ts.
 */
import type { OperationName } from '../../../model/services/privatelink/wire.js';
import { resources } from '../../../model/services/privatelink/resources.js';
import { code, defineService } from '../../engine/table.js';
import * as access from './access.js';
import * as endpoints from './endpoints.js';
import * as regions from './regions.js';

export default defineService<OperationName>()({
  service: 'cloudprivatelinks',
  facts: resources,
  resources: {
    network: {
      noun: 'network',
      keys: ['networkName'],
      // The fail- rule reads the VPC or VNet id (the record's name also holds its cloud).
      failsBy: 'doc.network',
      hooks: { show: endpoints.showNetwork },
    },
    endpoint: {
      noun: 'private-link work',
      keys: ['trackingId'],
      lives: { in: 'parent', parent: 'network' },
      work: true,
      minutes: { create: 3, update: 3, delete: 3, migrate: 3 },
      hooks: endpoints.workHooks,
    },
    access: {
      noun: 'private-link authorization',
      keys: ['accessName'],
      // Authorizing an authorized account succeeds as the first time did.
      names: 'replace',
    },
  },
  operations: (r) => ({
    createPrivateLinkEndpoint: code(endpoints.createEndpoints),
    updatePrivateLinkEndpoint: r.network.work('update', { rewrite: endpoints.changeRequest, ...endpoints.changeAnswer }),
    deletePrivateLinkEndpoint: r.network.work('delete', { rewrite: endpoints.changeRequest, ...endpoints.changeAnswer }),
    migratePrivateLinkEndpoints: r.network.work('migrate', { rewrite: endpoints.migrateRequest, ...endpoints.changeAnswer }),
    listPrivateLinkEndpointStatuses: r.endpoint.read({ answer: endpoints.endpointStatuses }),
    getPrivateLinkStatus: code(endpoints.getPrivateLinkStatus),
    listPrivateLinkServicesForRegion: code(regions.servicesForRegion),
    authorizePrivateLinkServiceAccess: r.access.create({ rewrite: access.accessRequest, answer: access.authorized }),
    revokePrivateLinkServiceAccess: r.access.delete({ rewrite: access.revokeRequest, answer: access.revoked }),
  }),
});
