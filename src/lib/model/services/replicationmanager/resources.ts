/**
 * What the API says of Replication Manager's resources (the format:
 * ../../resources.ts). A policy is running from its creation until it is
 * suspended, and again once activated: each change takes effect at once
 * (the status a policy shows is read off its jobs: SUBMITTED before the
 * first, RUNNING while one runs, then how the last ended, or SUSPENDED). A
 * diagnostic bundle command is collected, then downloadable with the CLI.
 * Deleted policies and cloud credentials are gone ("Permanently deletes
 * ..."). None of them has a CRN of Replication Manager's own (policies and
 * commands live in a cluster of another service, named by its CRN). Read by
 * the emulator; checked against the wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

export const resources = {
  resources: {
    credential: { shape: 'CredentialDetails', deleted: { ends: 'gone' } },
    // Read from the world: the account's data lakes and Data Hub clusters, what each runs, the credentials each holds, and
    // the HBase pairs its policies make. Nothing of Replication Manager's own makes or deletes them.
    cluster: { shape: 'Cluster' },
    serviceStatuses: { shape: 'ClusterServiceStatuses' },
    clusterCredentials: { shape: 'CredentialsResponse' },
    hbasePair: { shape: 'HbaseCrnPairs' },
    policy: {
      shape: 'Policy',
      // Each change takes effect when asked: a client polling sees only where it ends.
      lifecycle: {
        create: { through: ['SUBMITTED'], success: 'RUNNING', atOnce: true },
        suspend: { from: ['RUNNING'], through: ['RUNNING'], success: 'SUSPENDED', atOnce: true },
        activate: { from: ['SUSPENDED'], through: ['SUSPENDED'], success: 'RUNNING', atOnce: true },
      },
      deleted: { ends: 'gone' },
      // An HBase policy is a policy too (listPolicies shows it), deleted by its id.
      deletedBy: { deleteHbasePolicy: 'itself' },
    },
    command: {
      shape: 'GetCommandStatusResponse',
      fields: { status: 'bundleStatus' },
      lifecycle: { create: { through: ['IN_PROGRESS'], success: 'DOWNLOADABLE_WITH_CLI', failure: 'FAILED' } },
    },
  },
} as const satisfies ServiceResources;
