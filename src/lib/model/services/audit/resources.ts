/**
 * What the API says of the audit service's resources (the format:
 * ../../resources.ts): the tasks that batch or archive events (an
 * AsyncTaskStatus: OPEN, then COMPLETED or FAILED; getArchivingStatus and
 * getBatchEventsForArchivingStatus poll them, audit.yaml), the archive
 * batches they cut, the archive runs of automated archiving (CREATED, then
 * SUCCEEDED or FAILED), and the account's archiving configuration. None is
 * deleted and none shows a CRN (the issue 28 audit found none). The events
 * themselves are a log, not a resource: no request makes, changes or
 * deletes one (services/audit/events.ts). Read by the emulator
 * (services/audit).
 */
import type { ServiceResources } from '../../resources.js';

export const resources = {
  resources: {
    task: {
      shape: 'GetArchivingStatusResponse',
      lifecycle: { run: { through: ['OPEN'], success: 'COMPLETED', failure: 'FAILED' } },
    },
    batch: { shape: 'ArchiveBatch' },
    run: {
      shape: 'ArchiveRun',
      lifecycle: { archive: { through: ['CREATED'], success: 'SUCCEEDED', failure: 'FAILED' } },
    },
    config: { shape: 'ArchivingConfigInfo' },
  },
} as const satisfies ServiceResources;
