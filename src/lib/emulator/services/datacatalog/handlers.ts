/** datacatalog operations: wire in, plain result out; the rules live in backend.ts. */
import type { Handler } from '../../types.js';
import * as b from './backend.js';

export const handlers: Record<string, Handler> = {
  createDataShare: (req, ctx) => b.createShare(req, ctx),
  getDataShare: (req, ctx) => b.describeShare(req, ctx),
  listDataShares: (req, ctx) => b.listShares(req, ctx),
  updateDataShare: (req, ctx) => b.updateShare(req, ctx),
  deleteDataShare: (req, ctx) => b.deleteShare(req, ctx),
  shareDataShare: (req, ctx) => b.share(req, ctx),
  unshareDataShare: (req, ctx) => b.unshare(req, ctx),
  addAssetsToDataShare: (req, ctx) => b.addAssets(req, ctx),
  removeAssetsFromDataShare: (req, ctx) => b.removeAssets(req, ctx),
  grantAccessToExternalUsersOnDataShare: (req, ctx) => b.grant(req, ctx),
  updateAccessOfExternalUsersOnDataShare: (req, ctx) => b.grant(req, ctx),
  removeAccessOfExternalUsersOnDataShare: (req, ctx) => b.removeAccess(req, ctx),
  createExternalUsers: (req, ctx) => b.createUsers(req, ctx),
  listExternalUsers: (req, ctx) => b.listUsers(req, ctx),
  deleteExternalUser: (req, ctx) => b.deleteUser(req, ctx),
  revokeExternalUserCredentials: (req, ctx) => b.revokeUser(req, ctx),
  regenerateExternalUserCredentials: (req, ctx) => b.regenerateUser(req, ctx),
  getSuggestedTags: (req, ctx) => b.suggestedTags(req, ctx),
  reviewSuggestedTags: (req, ctx) => b.reviewTags(req, ctx),
  launchProfilers: (req, ctx) => b.launchProfilers(req, ctx),
  getFgacStatusByAssets: (req) => b.fgacStatus(req),
};
