/**
 * Audit: the CLI half of the audit model. Searching the audit events of the
 * account, and archiving them to cloud storage: the archiving configuration,
 * archive runs (the service archives), and archive batches (a caller archives
 * the events itself and marks the batches done). Runs and batch creation are
 * asynchronous tasks whose --wait polls the task's status call.
 */
import type { OperationCli, ServiceDefinition, WaiterSpec } from '../../types.js';
import { operations, service, shapes } from './wire.js';

const ACCOUNT = '9d74eee4-1cad-45d7-b645-7ccf9edbb73d';
const ARCHIVE_ID = '5f0d9c1e-2b7a-4e3c-8d6f-a1b2c3d4e5f6';
const TASK_ID = 'archive-3c9e5a7b-1d2f-4e6a-8b0c-9d8e7f6a5b4c';

/** Asynchronous task states: OPEN is running; CONTINUED_AS_NEW hands over to a new run of the same task. */
const taskWait = (poll: string): WaiterSpec => ({
  poll,
  input: { taskId: 'response.taskId' },
  state: 'status',
  success: ['COMPLETED'],
  failure: ['FAILED', 'CANCELED', 'TERMINATED', 'TIMED_OUT'],
  interval: 10,
  timeout: 2 * 3600,
});

const EVENT_COLUMNS = {
  id: 'id',
  time: 'timestamp',
  source: 'eventSource',
  event: 'eventName',
  actor: 'actorIdentity.actorCrn',
  result: 'resultCode',
  requestId: 'requestId',
};

const BATCH_COLUMNS = { archiveId: 'archiveId', events: 'eventCount', archived: 'archiveTimestamp' };

const cli: Record<string, OperationCli> = {
  // events
  listEvents: {
    command: 'events list',
    summary: 'Search the audit events of a time range, optionally by service, event, actor, request or result.',
    description: 'The range includes --from-timestamp and excludes --to-timestamp.',
    examples: [
      '--from-timestamp 2024-05-01T00:00:00Z --to-timestamp 2024-05-02T00:00:00Z',
      `--from-timestamp 2024-05-01T00:00:00Z --to-timestamp 2024-05-08T00:00:00Z --event-source iam --actor-crn crn:altus:iam:us-west-1:${ACCOUNT}:user:1b6e2f4a-8c3d-4e5f-9a0b-7c6d5e4f3a2b --output table`,
      '--from-timestamp 2024-05-01T00:00:00Z --to-timestamp 2024-05-02T00:00:00Z --interactive-login-event-criteria email=jdoe@example.com --output text',
    ],
    fieldHelp: {
      fromTimestamp: 'Start of the range (included), e.g. 2024-05-01T00:00:00Z',
      toTimestamp: 'End of the range (excluded), e.g. 2024-05-02T00:00:00Z',
      requestId: 'Only events of this API request ID',
      eventSource: 'Only events of this service, named as in CRNs (iam, environments, datalake...)',
      eventName: 'Only events with this name, e.g. createUser or interactiveLogin',
      actorCrn: 'Only events done by this user or machine user CRN',
      resultCode: 'Only events with this result code, e.g. SUCCESS; events without one are left out',
      resultMessage: 'Only events with this exact result message; events without one are left out',
      apiRequestEventCriteria: 'Only API calls from this IP address and/or with this user agent',
      cdpServiceEventCriteria: 'Only service events about the resource with this CRN',
      interactiveLoginEventCriteria: 'Only sign-ins matching these details (user ID at the identity provider, email, IP address, name)',
    },
    columns: EVENT_COLUMNS,
  },

  // archiving configuration
  getArchivingConfig: {
    command: 'archiving describe',
    summary: 'Show where audit events are archived to, with which credential, and whether archiving is on.',
    examples: [''],
  },
  configureArchiving: {
    command: 'archiving configure',
    summary: 'Set the cloud storage and credential audit events are archived to, replacing the current setting.',
    examples: [
      '--storage-location cdp-audit-archive --credential-name audit-archiver --enabled --storage-region us-west-2',
      '--storage-location cdp-audit-archive --credential-name audit-archiver --enabled --verify-only',
    ],
    fieldHelp: {
      storageLocation: 'Where archives go, e.g. the S3 bucket name',
      credentialName: 'Name or CRN of the environments credential used to write there',
      enabled: 'Turn archiving on (--enabled) or off (--no-enabled)',
      storageRegion: 'Region of the storage, e.g. the S3 bucket region us-west-2',
      verifyOnly: 'Only check that the setting works; keep the current one',
    },
  },

  // archive runs
  archiveAuditEvents: {
    command: 'archive-runs start',
    summary: 'Archive the audit events of a time range now, without waiting for the schedule (experimental).',
    examples: ['--from-timestamp 2024-04-01T00:00:00Z --to-timestamp 2024-05-01T00:00:00Z --wait'],
    wait: taskWait('getArchivingStatus'),
  },
  getArchivingStatus: {
    command: 'archive-runs status',
    summary: 'Show the progress of an archive run started with `archive-runs start` (experimental).',
    examples: [`--task-id ${TASK_ID}`],
    fieldHelp: { taskId: 'The taskId `archive-runs start` printed' },
  },
  listRecentArchiveRuns: {
    command: 'archive-runs list',
    summary: 'List the recent archive runs of the account with their status.',
    examples: ['', '--limit 5 --output table'],
    fieldHelp: { limit: 'Return at most this many runs, newest first' },
    listKey: 'archiveRuns',
    columns: {
      runId: 'runId',
      archiveId: 'archiveId',
      status: 'status',
      created: 'creationTimestamp',
      archived: 'archiveTimestamp',
      summary: 'summary',
    },
  },

  // archive batches (archiving done by the caller)
  batchEventsForArchiving: {
    command: 'archive-batches create',
    summary: 'Group the audit events of a time range into batches for you to archive; one task at a time.',
    description: 'Not available when automated archiving is configured.',
    examples: ['--from-timestamp 2024-04-01T00:00:00Z --to-timestamp 2024-05-01T00:00:00Z --wait'],
    fieldHelp: {
      fromTimestamp: 'Start of the range, e.g. 2024-04-01T00:00:00Z',
      toTimestamp: 'End of the range, e.g. 2024-05-01T00:00:00Z',
    },
    wait: taskWait('getBatchEventsForArchivingStatus'),
  },
  getBatchEventsForArchivingStatus: {
    command: 'archive-batches status',
    summary: 'Show the progress of an `archive-batches create` task and the batches it made.',
    examples: [`--task-id ${TASK_ID}`],
    fieldHelp: { taskId: 'The taskId `archive-batches create` printed' },
  },
  listOutstandingArchiveBatches: {
    command: 'archive-batches list',
    summary: 'List the archive batches not yet marked as archived.',
    examples: ['', '--from-timestamp 2024-04-01T00:00:00Z --to-timestamp 2024-05-01T00:00:00Z --output table'],
    fieldHelp: {
      fromTimestamp: 'Only batches from this time on (included), e.g. 2024-04-01T00:00:00Z',
      toTimestamp: 'Only batches before this time (excluded), e.g. 2024-05-01T00:00:00Z',
    },
    columns: BATCH_COLUMNS,
  },
  listEventsInArchiveBatch: {
    command: 'archive-batches list-events',
    summary: 'List the audit events of a batch that is not yet marked as archived, to write them to your archive.',
    examples: [`--archive-id ${ARCHIVE_ID}`, `--archive-id ${ARCHIVE_ID} --output table`],
    fieldHelp: { archiveId: 'Archive ID of the batch (see `archive-batches list`)' },
    listKey: 'auditEvents',
    columns: EVENT_COLUMNS,
  },
  markArchiveBatchesAsSuccessful: {
    command: 'archive-batches mark-archived',
    summary: 'Mark batches as archived; their events can no longer be listed from the service.',
    examples: [`--archive-ids ${ARCHIVE_ID} 7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d --yes`],
    fieldHelp: { archiveIds: 'Archive IDs of the batches, space-separated (see `archive-batches list`)' },
    destructive: true,
  },
};

const definition: ServiceDefinition = {
  name: 'audit',
  topic: 'audit',
  summary: 'Audit events of the account: search them, and archive them to cloud storage.',
  endpoint: 'api',
  facts: service,
  topics: {
    events: 'Audit events: API calls, service events and sign-ins.',
    archiving: 'Where and whether audit events are archived.',
    'archive-runs': 'Archive runs done by the service.',
    'archive-batches': 'Batches of audit events for archiving them yourself.',
  },
  fieldHelp: {
    fromTimestamp: 'Start of the range (included), e.g. 2024-04-01T00:00:00Z',
    toTimestamp: 'End of the range (excluded), e.g. 2024-05-01T00:00:00Z',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
