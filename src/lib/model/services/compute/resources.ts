/**
 * What the API says of compute's resources (the format: ../../resources.ts):
 * a cluster's states through creation, suspension, resumption, updates,
 * Kubernetes upgrades and deletion; suspend, resume, update and upgrade each
 * run as a workflow operation (getOperationStatus). A deleted cluster stays
 * listed as DELETED (with includeDeleted) and frees its name. Read by the
 * emulator; checked against the wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

export const resources = {
  resources: {
    cluster: {
      shape: 'DescribeClusterResponse',
      crnUsesId: true,
      lifecycle: {
        create: { through: ['CREATING'], success: 'RUNNING', failure: 'CREATE_FAILED' },
        delete: { through: ['DELETING'], success: 'DELETED', failure: 'DELETE_FAILED' },
        suspend: {
          from: ['RUNNING', 'SUSPEND_FAILED'],
          through: ['SUSPENDING'],
          success: 'SUSPENDED',
          failure: 'SUSPEND_FAILED',
          operation: 'SUSPEND',
        },
        resume: {
          from: ['SUSPENDED', 'RESUME_FAILED'],
          through: ['RESUMING'],
          success: 'RUNNING',
          failure: 'RESUME_FAILED',
          operation: 'RESUME',
        },
        update: {
          from: ['RUNNING', 'UPDATE_FAILED'],
          through: ['UPDATING'],
          success: 'RUNNING',
          failure: 'UPDATE_FAILED',
          operation: 'UPDATE',
        },
        upgrade: { from: ['RUNNING'], through: ['UPGRADING'], success: 'RUNNING', failure: 'UPGRADE_FAILED', operation: 'UPGRADE' },
      },
      deleted: { ends: 'kept', status: 'DELETED', listed: { shownWhen: 'includeDeleted' } },
    },
  },
} as const satisfies ServiceResources;
