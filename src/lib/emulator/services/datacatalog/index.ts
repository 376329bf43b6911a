/**
 * datacatalog on the operation table: data shares and external users of a
 * data lake (records in the lake's environment that hold the lake's CRN),
 * tag suggestions and their review, and the profilers a data lake launches.
 * What the model says of them is model/services/datacatalog/resources.ts;
 * what it cannot say is shares.ts, shares.ts and tags.ts.
 */
import type { OperationName } from '../../../model/services/datacatalog/wire.js';
import { resources } from '../../../model/services/datacatalog/resources.js';
import { code, defineService } from '../../engine/table.js';
import * as shares from './shares.js';
import * as tags from './tags.js';

/** Shares and users live in their data lake's environment, as parts of it: they neither hold up its delete nor follow its stop and start. */
const IN_ENVIRONMENT = { lives: { in: 'environment', by: ['environmentCrn'] }, withEnvironment: 'part' } as const;

/** getFgacStatusByAssets is the model's too, from the newer specification (model/services/datacatalog/index.ts), not in wire.ts's union. */
export default defineService<OperationName | 'getFgacStatusByAssets'>()({
  service: 'datacatalog',
  facts: resources,
  resources: {
    dataShare: {
      noun: 'data share',
      keys: ['dataShareId'],
      ...IN_ENVIRONMENT,
      // Names are unique in a data lake, which an environment may hold more than one of (createDataShare checks).
      names: 'repeat',
      renames: true,
      hooks: {
        check: { create: shares.checkShareName, update: shares.checkShareUpdate, delete: shares.notShared('delete it') },
        effect: { update: shares.shareChanged },
        fill: shares.fillShare,
        show: shares.showShare,
      },
    },
    externalUser: {
      noun: 'external user',
      keys: ['externalUserId'],
      ...IN_ENVIRONMENT,
      names: 'repeat',
      hooks: { effect: { update: shares.credentialsChanged } },
    },
    tagReview: { noun: 'tag review', keys: ['datalakeCrn'] },
    // Named by their data lake (profilersNamed); launched once a data lake (checkLaunch, with its own message).
    profilers: {
      noun: 'profilers',
      keys: ['datalake'],
      names: 'repeat',
      hooks: { check: { create: tags.checkLaunch }, fill: tags.fillProfilers },
    },
  },
  guard: shares.lakeGuard,
  operations: (r) => ({
    createDataShare: r.dataShare.create(),
    getDataShare: r.dataShare.read({ rewrite: shares.inLake }),
    listDataShares: r.dataShare.list({ select: shares.sharesNamed, beside: shares.lastPageToken }),
    updateDataShare: r.dataShare.update({ rewrite: shares.inLake }),
    deleteDataShare: r.dataShare.delete({ rewrite: shares.inLake }),
    shareDataShare: r.dataShare.update({ rewrite: shares.sharing(true), answer: shares.succeeded }),
    unshareDataShare: r.dataShare.update({ rewrite: shares.sharing(false) }),
    addAssetsToDataShare: r.dataShare.update({ rewrite: shares.assetsAdded, answer: shares.addedAssets }),
    removeAssetsFromDataShare: r.dataShare.update({ rewrite: shares.assetsRemoved }),
    grantAccessToExternalUsersOnDataShare: r.dataShare.update({ rewrite: shares.accessGranted }),
    updateAccessOfExternalUsersOnDataShare: r.dataShare.update({ rewrite: shares.accessGranted }),
    removeAccessOfExternalUsersOnDataShare: r.dataShare.update({ rewrite: shares.accessRemoved }),
    createExternalUsers: code(shares.createExternalUsers),
    listExternalUsers: r.externalUser.list({ select: shares.usersMatching }),
    deleteExternalUser: r.externalUser.delete({ rewrite: shares.userLeaving, answer: shares.succeeded }),
    revokeExternalUserCredentials: r.externalUser.update({ rewrite: shares.revoking, answer: shares.succeeded }),
    regenerateExternalUserCredentials: r.externalUser.update({ rewrite: shares.regenerating, answer: shares.regenerated }),
    getSuggestedTags: code(tags.getSuggestedTags),
    reviewSuggestedTags: code(tags.reviewSuggestedTags),
    launchProfilers: r.profilers.create({ rewrite: tags.profilersNamed }),
    getFgacStatusByAssets: code(tags.getFgacStatusByAssets),
  }),
});
