/**
 * What the API says of datacatalog's resources (the format:
 * ../../resources.ts): data shares and external users of a data lake, both
 * permanently deleted (cdpcli/data/datacatalog/datacatalog.yaml
 * deleteDataShare, deleteExternalUser); the relations between them (assets,
 * access, credentials) are gone once removed; a reviewed tag suggestion is
 * ACCEPTED, REJECTED or FAILED; the profilers a data lake launches run on a
 * Data Hub cluster, whose CRN is the Data Hub's (datahub's `cluster`).
 * Nothing of this service has a lifecycle on the clock. Checked against the
 * wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

export const resources = {
  resources: {
    dataShare: {
      shape: 'GetDataShareResponse',
      fields: { created: 'createdAt', creator: 'createdBy' },
      deleted: { ends: 'gone' },
      // An external user's access ends; removing assets is no delete: it changes what the share holds, and the share stays.
      deletedBy: { removeAccessOfExternalUsersOnDataShare: 'held', removeAssetsFromDataShare: 'held' },
    },
    externalUser: {
      shape: 'ExternalUserListItem',
      fields: { id: 'userId', name: 'username', created: 'createdAt' },
      deleted: { ends: 'gone' },
      // Its credentials end (regenerateExternalUserCredentials makes new ones); the user stays.
      deletedBy: { revokeExternalUserCredentials: 'held' },
    },
    /** The tags reviewed for a column of a data lake (reviewSuggestedTags). */
    tagReview: {
      shape: 'ReviewSuggestedTagsResponseReviewedTags',
      values: { status: ['ACCEPTED', 'REJECTED', 'FAILED'] },
    },
    /** The profilers of a data lake: the Data Hub cluster launchProfilers makes (a Data Hub CRN: crn:cdp:datahub:...:cluster:<uuid>). */
    profilers: {
      shape: 'Cluster',
      fields: { name: 'clusterName', status: 'clusterStatus', created: 'creationDate' },
      crnType: 'cluster',
    },
  },
} as const satisfies ServiceResources;
