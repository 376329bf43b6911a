/**
 * What the API says of the Data Recovery Service's resources (the format:
 * ../../resources.ts): a backup and a restore are jobs, NOT_STARTED in their
 * first phase, IN_PROGRESS through the others, then COMPLETED or FAILED
 * (JobState, described in that order); their phases are the fixed values
 * their descriptions list. A deleted backup is TERMINATING, then gone
 * ("Deletes an existing control plane backup"; JobState has no deleted
 * state). A delete answers the CRN of its Kubernetes delete request, whose
 * resource type is deleteBackupRequest (the service declares it). Read by the
 * emulator; checked against the wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

const JOB_STATES = ['NOT_STARTED', 'IN_PROGRESS', 'COMPLETED', 'PARTIALLY_FAILED', 'FAILED', 'TERMINATING'];
const JOB = { through: ['NOT_STARTED', 'IN_PROGRESS'], success: 'COMPLETED', failure: 'FAILED' } as const;

export const resources = {
  resources: {
    backup: {
      shape: 'Backup',
      fields: { status: 'backupJobState', created: 'backupCreationTime' },
      crnType: 'backup',
      // Its delete answers the CRN of "the kubernetes delete backup custom resource", which nothing describes.
      alsoMints: ['deleteBackupRequest'],
      lifecycle: { create: JOB, delete: { through: ['TERMINATING'] } },
      deleted: { ends: 'gone' },
      values: {
        backupJobState: JOB_STATES,
        backupPhase: ['PENDING', 'PRE_VALIDATION', 'SAVING_OBJECTS', 'CREATING_SNAPSHOTS', 'FINISHED'],
      },
    },
    restore: {
      shape: 'Restore',
      fields: { status: 'restoreJobState', created: 'restoreCreationTime' },
      crnType: 'restore',
      lifecycle: { restore: JOB },
      values: {
        restoreJobState: JOB_STATES,
        restorePhase: [
          'PENDING',
          'PRE_VALIDATION',
          'STOPPING_APPS',
          'DELETING_OBJECTS',
          'DELETING_OBJECTS_PVC',
          'RESTORING_PVC',
          'RESTORING_OBJECTS',
          'STARTING_APPS',
          'FINISHED',
        ],
      },
    },
  },
} as const satisfies ServiceResources;
