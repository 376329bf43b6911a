/**
 * datacatalog on the operation table: data shares and external users of a
 * data lake (records in the lake's environment that hold the lake's CRN),
 * tag suggestions and their review, and the profilers a data lake launches.
 * What the model says of them is model/services/datacatalog/resources.ts;
 * what it cannot say is shares.ts, users.ts and tags.ts.
 */
import type { OperationName } from '../../../model/services/datacatalog/wire.js';
import { resources } from '../../../model/services/datacatalog/resources.js';
import { code, defineService } from '../../engine/table.js';
import {
  accessGranted,
  accessRemoved,
  addedAssets,
  assetsAdded,
  assetsRemoved,
  checkShareName,
  checkShareUpdate,
  fillShare,
  inLake,
  lakeGuard,
  lastPageToken,
  notShared,
  shareChanged,
  sharesNamed,
  sharing,
  showShare,
} from './shares.js';
import { checkLaunch, fillProfilers, getFgacStatusByAssets, getSuggestedTags, profilersNamed, reviewSuggestedTags } from './tags.js';
import {
  createExternalUsers,
  credentialsChanged,
  regenerated,
  regenerating,
  revoking,
  succeeded,
  userLeaving,
  usersMatching,
} from './users.js';

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
        check: { create: checkShareName, update: checkShareUpdate, delete: notShared('delete it') },
        effect: { update: shareChanged },
        fill: fillShare,
        show: showShare,
      },
    },
    externalUser: {
      noun: 'external user',
      keys: ['externalUserId'],
      ...IN_ENVIRONMENT,
      names: 'repeat',
      hooks: { effect: { update: credentialsChanged } },
    },
    tagReview: { noun: 'tag review', keys: ['datalakeCrn'] },
    // Named by their data lake (profilersNamed); launched once a data lake (checkLaunch, with its own message).
    profilers: { noun: 'profilers', keys: ['datalake'], names: 'repeat', hooks: { check: { create: checkLaunch }, fill: fillProfilers } },
  },
  guard: lakeGuard,
  operations: (r) => ({
    createDataShare: r.dataShare.create(),
    getDataShare: r.dataShare.read({ rewrite: inLake }),
    listDataShares: r.dataShare.list({ select: sharesNamed, beside: lastPageToken }),
    updateDataShare: r.dataShare.update({ rewrite: inLake }),
    deleteDataShare: r.dataShare.delete({ rewrite: inLake }),
    shareDataShare: r.dataShare.update({ rewrite: sharing(true), answer: succeeded }),
    unshareDataShare: r.dataShare.update({ rewrite: sharing(false) }),
    addAssetsToDataShare: r.dataShare.update({ rewrite: assetsAdded, answer: addedAssets }),
    removeAssetsFromDataShare: r.dataShare.update({ rewrite: assetsRemoved }),
    grantAccessToExternalUsersOnDataShare: r.dataShare.update({ rewrite: accessGranted }),
    updateAccessOfExternalUsersOnDataShare: r.dataShare.update({ rewrite: accessGranted }),
    removeAccessOfExternalUsersOnDataShare: r.dataShare.update({ rewrite: accessRemoved }),
    createExternalUsers: code(createExternalUsers),
    listExternalUsers: r.externalUser.list({ select: usersMatching }),
    deleteExternalUser: r.externalUser.delete({ rewrite: userLeaving, answer: succeeded }),
    revokeExternalUserCredentials: r.externalUser.update({ rewrite: revoking, answer: succeeded }),
    regenerateExternalUserCredentials: r.externalUser.update({ rewrite: regenerating, answer: regenerated }),
    getSuggestedTags: code(getSuggestedTags),
    reviewSuggestedTags: code(reviewSuggestedTags),
    launchProfilers: r.profilers.create({ rewrite: profilersNamed }),
    getFgacStatusByAssets: code(getFgacStatusByAssets),
  }),
});
