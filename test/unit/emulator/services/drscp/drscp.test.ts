/**
 * The emulator's Data Recovery Service of a private cloud control plane
 * (drscp), driven through the library's client (form factor private)
 * against an emulator in this process, its state in memory as the
 * library keeps it by default, on a paused clock the tests move: a backup
 * is the control plane's state when it was asked for, its job NOT_STARTED,
 * IN_PROGRESS through its phases, then COMPLETED; a restore brings that
 * state back at once (keeping the backups and restores themselves) while
 * its job runs; one restore at a time, and no backup or delete of its
 * backup meanwhile; fail- and fail-restore- names; job logs; listings by
 * job state; a delete TERMINATING, then gone.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { CdpClient } from '../../../../../src/lib/sdk/index.js';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import { refused } from '../../../../helpers/refused.js';

let emu: RunningEmulator;
let client: CdpClient;

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
  client = emu.createClient({ formFactor: 'private' });
});

afterAll(async () => {
  await emu?.stop();
});

const groups = async (): Promise<string[]> => (await client.iam.listGroups({})).groups.map((g) => g.groupName);
const backupOf = async (backupCrn: string) => (await client.drscp.describeBackup({ backupCrn })).backup;
const restoreOf = async (restoreCrn: string) => (await client.drscp.describeRestore({ restoreCrn })).restore;

let nightly = '';

describe('backups', () => {
  test('the control plane is what can be backed up; anything else is INVALID_ARGUMENT', async () => {
    expect(await client.drscp.listBackupEntities({})).toEqual({ items: ['cdp'] });
    const other = await refused(client.drscp.createBackup({ itemName: 'vault' }));
    expect([other.code, other.status, other.message]).toEqual(['INVALID_ARGUMENT', 400, 'vault cannot be backed up; what can: cdp']);
  });

  test('a backup job is NOT_STARTED (PENDING), IN_PROGRESS through its phases, then COMPLETED (FINISHED) four and a half minutes on', async () => {
    await client.iam.createGroup({ groupName: 'before-backup' });
    nightly = (await client.drscp.createBackup({ backupName: 'nightly' })).backupCrn;
    expect(nightly).toMatch(/^crn:cdp:drscp:us-west-1:[^:]+:backup:[0-9a-f-]{36}$/);
    expect(await backupOf(nightly)).toMatchObject({
      backupName: 'nightly',
      backupJobState: 'NOT_STARTED',
      backupPhase: 'PENDING',
      includedNamespaces: ['cdp'],
    });
    const early = await refused(client.drscp.restoreBackup({ backupCrn: nightly }));
    expect([early.code, early.status, early.message]).toEqual([
      'FAILED_PRECONDITION',
      409,
      'backup nightly is NOT_STARTED; a restore needs it COMPLETED',
    ]);
    emu.clock.advance('1m');
    expect(await backupOf(nightly)).toMatchObject({ backupJobState: 'IN_PROGRESS', backupPhase: 'SAVING_OBJECTS' });
    emu.clock.advance('3m30s');
    expect(await backupOf(nightly)).toMatchObject({ backupJobState: 'COMPLETED', backupPhase: 'FINISHED' });
  });

  test("a job's log has a line for each phase it reached and one for how it ended", async () => {
    const { logs } = await client.drscp.getLogs({ crn: nightly });
    expect(logs.split('\n').map((l) => l.replace(/^\S+ /, ''))).toEqual([
      'INFO backup nightly: phase PENDING',
      'INFO backup nightly: phase PRE_VALIDATION',
      'INFO backup nightly: phase SAVING_OBJECTS',
      'INFO backup nightly: phase CREATING_SNAPSHOTS',
      'INFO backup nightly: phase FINISHED, job COMPLETED',
    ]);
    const unknown = await refused(client.drscp.getLogs({ crn: 'crn:cdp:drscp:us-west-1:acct:backup:none' }));
    expect([unknown.code, unknown.status]).toEqual(['NOT_FOUND', 404]);
  });
});

describe('restores', () => {
  let restore = '';

  test('a restore brings the state of the backup back at once; the backups stay; its job runs after', async () => {
    await client.iam.createGroup({ groupName: 'after-backup' });
    expect(await groups()).toEqual(['before-backup', 'after-backup']);
    restore = (await client.drscp.restoreBackup({ backupCrn: nightly })).restoreCrn;
    expect(await groups()).toEqual(['before-backup']);
    expect(await restoreOf(restore)).toMatchObject({ backupCrn: nightly, restoreJobState: 'NOT_STARTED', restorePhase: 'PENDING' });
    expect((await client.drscp.listBackups({})).backups.map((b) => b.backupName)).toEqual(['nightly']);
  });

  test('while a restore runs, nothing else is backed up or restored, and its backup is not deleted', async () => {
    const again = await refused(client.drscp.restoreBackup({ backupCrn: nightly }));
    expect([again.code, again.message]).toEqual([
      'FAILED_PRECONDITION',
      `the control plane is being restored (restore ${restore}); restore again after it ends`,
    ]);
    const backup = await refused(client.drscp.createBackup({}));
    expect(backup.message).toBe(`the control plane is being restored (restore ${restore}); back it up after it ends`);
    const del = await refused(client.drscp.deleteBackup({ backupCrn: nightly }));
    expect(del.message).toBe('backup nightly is being restored from; delete it after the restore ends');
    emu.clock.advance('7m');
    expect(await restoreOf(restore)).toMatchObject({ restoreJobState: 'COMPLETED', restorePhase: 'FINISHED' });
    const done = await client.drscp.listRestores({ jobStates: ['COMPLETED'] });
    expect(done.restores.map((r) => r.restoreCrn)).toEqual([restore]);
  });
});

describe('failing on purpose', () => {
  test('a backup named fail-... fails and cannot be restored; one named fail-restore-... backs up, and its restores fail, restoring nothing', async () => {
    const failing = (await client.drscp.createBackup({ backupName: 'fail-backup' })).backupCrn;
    const failingRestore = (await client.drscp.createBackup({ backupName: 'fail-restore-weekly' })).backupCrn;
    emu.clock.advance('5m');
    expect((await client.drscp.listBackups({ jobStates: ['FAILED'] })).backups.map((b) => b.backupName)).toEqual(['fail-backup']);
    const fromFailed = await refused(client.drscp.restoreBackup({ backupCrn: failing }));
    expect(fromFailed.message).toBe('backup fail-backup is FAILED; a restore needs it COMPLETED');
    await client.iam.createGroup({ groupName: 'kept' });
    const restore = (await client.drscp.restoreBackup({ backupCrn: failingRestore })).restoreCrn;
    expect(await groups()).toEqual(['before-backup', 'kept']);
    emu.clock.advance('7m');
    const failed = await restoreOf(restore);
    expect(failed).toMatchObject({ restoreJobState: 'FAILED', restorePhase: 'FINISHED' });
    expect(failed.errors?.[0]).toMatchObject({ namespace: 'cdp', text: 'restore failed on purpose: the restore name starts with "fail-"' });
  });
});

describe('deleting', () => {
  test('a backup is TERMINATING for a minute, then gone (NOT_FOUND); the delete answers the CRN of its deleteBackupRequest', async () => {
    const { deleteBackupCrn } = await client.drscp.deleteBackup({ backupCrn: nightly });
    // The resource type CDP's CRN parser knows (DELETE_BACKUP_REQUEST), not one made up from the field name.
    expect(deleteBackupCrn).toMatch(/^crn:cdp:drscp:us-west-1:[^:]+:deleteBackupRequest:[0-9a-f-]{36}$/);
    expect((await backupOf(nightly)).backupJobState).toBe('TERMINATING');
    emu.clock.advance('1m');
    const gone = await refused(client.drscp.describeBackup({ backupCrn: nightly }));
    expect([gone.code, gone.status]).toEqual(['NOT_FOUND', 404]);
  });
});
