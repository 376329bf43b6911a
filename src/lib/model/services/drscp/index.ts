/**
 * Data Recovery Service of the private cloud control plane: the CLI half of
 * the drscp model. Backups of the control plane (its database, Kubernetes
 * objects and volumes), restores from them, and the logs of both. Backups,
 * restores and backup deletion run as jobs; --wait polls describeBackup or
 * describeRestore for the job state.
 *
 * PARTIALLY_FAILED ends a wait as a failure (exit 5): the job finished with
 * warnings, and a script should not carry on as if the backup or restore
 * were whole. The final state and its warnings are in the describe output.
 */
import type { OperationCli, ServiceDefinition, WaiterSpec } from '../../types.js';
import { operations, service, shapes } from './wire.js';

const ACCOUNT = '9d74eee4-1cad-45d7-b645-7ccf9edbb73d';
const BACKUP = `crn:cdp:drscp:us-west-1:${ACCOUNT}:backup:6e2a9f1c-4b7d-4c3e-8a5f-0d1b2c3e4f5a`;
const RESTORE = `crn:cdp:drscp:us-west-1:${ACCOUNT}:restore:b3d8e1f0-7a2c-4e9b-9c6d-2f4a5b6c7d8e`;

const JOB_FAILED = ['FAILED', 'PARTIALLY_FAILED'];

const jobWait = (kind: 'backup' | 'restore', input: Readonly<Record<string, string>>): WaiterSpec => ({
  poll: kind === 'backup' ? 'describeBackup' : 'describeRestore',
  input,
  state: `${kind}.${kind}JobState`,
  success: ['COMPLETED'],
  failure: JOB_FAILED,
  reason: `${kind}.errors[].text`,
  interval: 15,
  timeout: 3 * 3600,
});

const JOB_STATES = 'Only jobs in these states, space-separated';

const cli: Record<string, OperationCli> = {
  // backups
  createBackup: {
    command: 'backups create',
    summary: 'Back up the control plane: its database, Kubernetes objects and persistent volumes.',
    examples: ['--backup-name before-upgrade-1-5-4 --wait', '--backup-name nightly-2024-05-01 --item-name cdp'],
    fieldHelp: {
      backupName: 'Name to show for the backup',
      itemName: 'What to back up, from `backup-items list`; default: the control plane',
    },
    wait: jobWait('backup', { backupCrn: 'response.backupCrn' }),
  },
  listBackups: {
    command: 'backups list',
    summary: 'List the backups of the control plane with their job state.',
    examples: ['', '--job-states COMPLETED PARTIALLY_FAILED --output table', '--backup-name before-upgrade-1-5-4'],
    fieldHelp: { backupName: 'Only backups with this name', jobStates: JOB_STATES },
    listKey: 'backups',
    columns: { name: 'backupName', crn: 'backupCrn', state: 'backupJobState', phase: 'backupPhase', created: 'backupCreationTime' },
  },
  describeBackup: {
    command: 'backups describe',
    summary: 'Show a backup: its job state and phase, the namespaces it holds, warnings and errors.',
    examples: [`--backup-crn ${BACKUP}`],
  },
  deleteBackup: {
    command: 'backups delete',
    summary: 'Delete a control plane backup.',
    examples: [`--backup-crn ${BACKUP} --yes --wait`],
    destructive: true,
    wait: {
      ...jobWait('backup', { backupCrn: 'request.backupCrn' }),
      success: ['DELETED'],
      failure: [],
      goneIsSuccess: true,
      timeout: 3600,
    },
  },
  restoreBackup: {
    command: 'backups restore',
    summary: 'Restore the control plane from a backup, replacing its current state.',
    description: 'The control plane stops its services while the restore runs; --wait keeps polling through the outage.',
    examples: [`--backup-crn ${BACKUP} --yes --wait`],
    fieldHelp: { backupCrn: 'CRN of the backup to restore from (see `backups list`)' },
    destructive: true,
    wait: jobWait('restore', { restoreCrn: 'response.restoreCrn' }),
  },
  listBackupEntities: {
    command: 'backup-items list',
    summary: 'List what can be backed up: the control plane namespace and its embedded vault namespace.',
    examples: [''],
    listKey: 'items',
  },

  // restores
  listRestores: {
    command: 'restores list',
    summary: 'List the restores of the control plane with their job state.',
    examples: ['', `--backup-crn ${BACKUP} --output table`, '--job-states IN_PROGRESS'],
    fieldHelp: { backupCrn: 'Only restores from this backup', jobStates: JOB_STATES },
    listKey: 'restores',
    columns: { crn: 'restoreCrn', backup: 'backupCrn', state: 'restoreJobState', phase: 'restorePhase', created: 'restoreCreationTime' },
  },
  describeRestore: {
    command: 'restores describe',
    summary: 'Show a restore: its job state and phase, what it restored, warnings and errors.',
    examples: [`--restore-crn ${RESTORE}`],
    fieldHelp: { restoreCrn: 'CRN of the restore (see `restores list`)' },
  },

  // logs
  getLogs: {
    command: 'logs get',
    summary: 'Print the job logs of a backup or a restore.',
    examples: [`--crn ${BACKUP}`, `--crn ${RESTORE} --output text`],
    fieldHelp: { crn: 'CRN of the backup or restore (see `backups list`, `restores list`)' },
  },
};

const definition: ServiceDefinition = {
  name: 'drscp',
  topic: 'drscp',
  summary: 'Data Recovery Service (private cloud): back up and restore the control plane.',
  endpoint: 'api',
  facts: service,
  topics: {
    backups: 'Backups of the control plane, and restoring from them.',
    'backup-items': 'What the control plane can back up.',
    restores: 'Restores of the control plane.',
    logs: 'Job logs of backups and restores.',
  },
  fieldHelp: {
    backupCrn: 'CRN of the backup (see `backups list`)',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
