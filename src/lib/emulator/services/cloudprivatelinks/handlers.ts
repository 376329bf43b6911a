/** cloudprivatelinks operations: wire in, plain result out; the rules live in backend.ts. */
import type { Handler } from '../../types.js';
import * as b from './backend.js';

export const handlers: Record<string, Handler> = {
  createPrivateLinkEndpoint: (req, ctx) => b.createEndpoint(req, ctx),
  updatePrivateLinkEndpoint: (req, ctx) => b.updateEndpoint(req, ctx),
  deletePrivateLinkEndpoint: (req, ctx) => b.deleteEndpoint(req, ctx),
  migratePrivateLinkEndpoints: (req, ctx) => b.migrateEndpoints(req, ctx),
  listPrivateLinkEndpointStatuses: (req, ctx) => b.endpointStatuses(req, ctx),
  getPrivateLinkStatus: (req, ctx) => b.privateLinkStatus(req, ctx),
  listPrivateLinkServicesForRegion: (req) => b.servicesForRegion(req),
  authorizePrivateLinkServiceAccess: (req, ctx) => b.authorizeAccess(req, ctx),
  revokePrivateLinkServiceAccess: (req, ctx) => b.revokeAccess(req, ctx),
};
