/**
 * The Data Recovery Service (private cloud) against the emulator, through
 * the binary. The emulator's profile names http://localhost:PORT/, which the
 * CLI (as the official one) reads as a public control plane, so drscp
 * commands give --form-factor private (or an http://127.0.0.1:PORT/ endpoint
 * URL). A backup is the emulator's state when it was taken; restoring it
 * brings that state back (what changed since is gone) while the backups,
 * the restores and the audit trail stay; jobs run their phases on the
 * emulator clock, and nothing else of the service starts while a restore
 * runs. `fail-` and `fail-restore-` backups fail on purpose; bad input and
 * refusals change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunResult, type TestEmulator } from '../helpers/cli.js';

interface Backup {
  backupCrn: string;
  backupName: string;
  backupJobState: string;
  backupPhase: string;
  includedNamespaces?: string[];
  errors?: Array<{ text: string }>;
}
interface Restore {
  restoreCrn: string;
  backupCrn: string;
  restoreJobState: string;
  restorePhase: string;
}

let em: TestEmulator;
const PRIVATE = ['--form-factor', 'private'];
const WAIT = ['--wait', '--poll-interval', '0.2'];

const dr = (...args: string[]): Promise<RunResult> => em.cli(['drscp', ...args, ...PRIVATE]);
const drJson = <T>(...args: string[]): Promise<T> => em.json<T>(['drscp', ...args, ...PRIVATE]);
const refused = (r: RunResult, code: string, exit = 1): void => {
  expect([r.code, r.stderr]).toEqual([exit, expect.stringContaining(code)]);
};
const groups = async (): Promise<string[]> =>
  ((await em.json<{ groups?: Array<{ groupName: string }> }>(['iam', 'groups', 'list'])).groups ?? []).map((g) => g.groupName).sort();

/** Backs up with --wait; the backup as described after (a failed wait prints only its error). */
async function backup(name: string): Promise<{ run: RunResult; backup: Backup }> {
  const run = await dr('backups', 'create', '--backup-name', name, ...WAIT);
  const [listed] = (await drJson<{ backups: Backup[] }>('backups', 'list', '--backup-name', name)).backups;
  const crn = listed?.backupCrn ?? 'missing';
  return { run, backup: (await drJson<{ backup: Backup }>('backups', 'describe', '--backup-crn', crn)).backup };
}

const restore = async (crn: string, ...more: string[]): Promise<RunResult> =>
  dr('backups', 'restore', '--backup-crn', crn, '--yes', ...more, '--output', 'json');

async function clock(...flags: string[]): Promise<void> {
  const r = await em.raw(['emulator', 'clock', ...flags, '--data-dir', em.dataDir]);
  if (r.code !== 0) throw new Error(r.stderr);
}

beforeAll(async () => {
  em = await startEmulator();
});

afterAll(async () => {
  await em?.stop();
});

describe('reaching a private-cloud service', () => {
  test('the profile reads as a public control plane: refused before sending; --form-factor private or a 127.0.0.1 URL reach it', async () => {
    const pub = await em.cli(['drscp', 'backup-items', 'list']);
    expect([pub.code, pub.stderr]).toEqual([2, expect.stringContaining('--form-factor private')]);
    expect(await drJson('backup-items', 'list')).toEqual({ items: ['cdp'] });
    const byUrl = await em.cli(['drscp', 'backups', 'list', '--endpoint-url', `http://127.0.0.1:${em.port}/`, '--output', 'json']);
    expect([byUrl.code, JSON.parse(byUrl.stdout) as unknown]).toEqual([0, { backups: [] }]);
  });
});

describe('backup and restore', () => {
  let nightly: Backup;
  let second: Backup;

  test('a backup runs its phases to COMPLETED, holding the control plane namespace', async () => {
    await em.json(['iam', 'groups', 'create', '--group-name', 'before-backup']);
    const made = await backup('nightly');
    expect([made.run.code, made.run.stderr]).toEqual([0, expect.stringContaining('COMPLETED')]);
    nightly = made.backup;
    expect(nightly).toMatchObject({
      backupName: 'nightly',
      backupJobState: 'COMPLETED',
      backupPhase: 'FINISHED',
      includedNamespaces: ['cdp'],
    });
    const logs = await dr('logs', 'get', '--crn', nightly.backupCrn, '--output', 'text');
    expect(logs.stdout).toMatch(/PRE_VALIDATION[\s\S]*SAVING_OBJECTS[\s\S]*CREATING_SNAPSHOTS[\s\S]*COMPLETED/);
  });

  test('restoring brings the state of the backup back: what changed since is gone; the backups, restores and audit trail stay', async () => {
    await em.json(['iam', 'groups', 'create', '--group-name', 'after-backup']);
    await em.json(['iam', 'groups', 'delete', '--group-name', 'before-backup']);
    second = (await backup('second')).backup;
    expect(await groups()).toEqual(['after-backup']);

    const r = await restore(nightly.backupCrn, ...WAIT);
    expect([r.code, r.stderr]).toEqual([0, expect.stringMatching(/IN_PROGRESS[\s\S]*COMPLETED/)]);
    expect((JSON.parse(r.stdout) as { restore: Restore }).restore).toMatchObject({
      backupCrn: nightly.backupCrn,
      restoreJobState: 'COMPLETED',
      restorePhase: 'FINISHED',
    });
    expect(await groups()).toEqual(['before-backup']);

    const backups = await drJson<{ backups: Backup[] }>('backups', 'list');
    expect(backups.backups.map((b) => b.backupName)).toEqual(['nightly', 'second']);
    const restores = await drJson<{ restores: Restore[] }>('restores', 'list');
    expect(restores.restores.map((x) => [x.backupCrn, x.restoreJobState])).toEqual([[nightly.backupCrn, 'COMPLETED']]);
    const audited = await em.json<{ auditEvents: Array<{ apiRequestEvent: { requestParameters: string } }> }>([
      'audit',
      'events',
      'list',
      '--from-timestamp',
      '1970-01-01T00:00:00Z',
      '--to-timestamp',
      '2999-01-01T00:00:00Z',
      '--event-name',
      'createGroup',
    ]);
    expect(audited.auditEvents.map((e) => e.apiRequestEvent.requestParameters)).toContain('{"groupName":"after-backup"}');

    // The newer backup survived restoring the older one, and brings its own state back.
    expect((await restore(second.backupCrn, ...WAIT)).code).toBe(0);
    expect(await groups()).toEqual(['after-backup']);
  });

  test("a restore's status while it runs moves on the clock; meanwhile no backup, restore or delete of its backup starts", async () => {
    await clock('--pause');
    const started = await restore(nightly.backupCrn);
    expect(started.code).toBe(0);
    const { restoreCrn } = JSON.parse(started.stdout) as { restoreCrn: string };
    const describe = async (): Promise<Restore> =>
      (await drJson<{ restore: Restore }>('restores', 'describe', '--restore-crn', restoreCrn)).restore;
    expect(await describe()).toMatchObject({ restoreJobState: 'NOT_STARTED', restorePhase: 'PENDING' });
    await clock('--advance', '90s');
    expect(await describe()).toMatchObject({ restoreJobState: 'IN_PROGRESS', restorePhase: 'STOPPING_APPS' });
    refused(await dr('backups', 'create', '--backup-name', 'during'), 'FAILED_PRECONDITION');
    refused(await restore(second.backupCrn), 'FAILED_PRECONDITION');
    refused(await dr('backups', 'delete', '--backup-crn', nightly.backupCrn, '--yes'), 'FAILED_PRECONDITION');
    const running = await drJson<{ restores: Restore[] }>('restores', 'list', '--job-states', 'IN_PROGRESS');
    expect(running.restores.map((x) => x.restoreCrn)).toEqual([restoreCrn]);
    await clock('--advance', '10m');
    expect(await describe()).toMatchObject({ restoreJobState: 'COMPLETED', restorePhase: 'FINISHED' });
    await clock('--resume');
    expect((await drJson<{ backups: Backup[] }>('backups', 'list')).backups.map((b) => b.backupName)).toEqual(['nightly', 'second']);
  });

  test('a deleted backup goes (--wait until it is gone) and cannot be restored', async () => {
    const r = await dr('backups', 'delete', '--backup-crn', second.backupCrn, '--yes', ...WAIT);
    expect(r.code).toBe(0);
    refused(await dr('backups', 'describe', '--backup-crn', second.backupCrn), 'NOT_FOUND');
    refused(await restore(second.backupCrn), 'NOT_FOUND');
    expect((await drJson<{ backups: Backup[] }>('backups', 'list', '--backup-name', 'second')).backups).toEqual([]);
  });
});

describe('failing on purpose and bad input', () => {
  test('a fail- backup fails (--wait exits 5 with its error) and cannot be restored', async () => {
    const made = await backup('fail-backup');
    expect([made.run.code, made.run.stderr]).toEqual([5, expect.stringContaining('failed on purpose')]);
    expect(made.backup.backupJobState).toBe('FAILED');
    expect(made.backup.errors?.[0]?.text).toContain('fail-');
    refused(await restore(made.backup.backupCrn), 'FAILED_PRECONDITION');
    const failed = await drJson<{ backups: Backup[] }>('backups', 'list', '--job-states', 'FAILED');
    expect(failed.backups.map((b) => b.backupName)).toEqual(['fail-backup']);
  });

  test('restoring a fail-restore- backup fails and changes nothing', async () => {
    const drill = (await backup('fail-restore-drill')).backup;
    expect(drill.backupJobState).toBe('COMPLETED');
    await em.json(['iam', 'groups', 'create', '--group-name', 'drill-change']);
    const before = await groups();
    const r = await restore(drill.backupCrn, ...WAIT);
    expect([r.code, r.stderr]).toEqual([5, expect.stringContaining('FAILED')]);
    expect(await groups()).toEqual(before);
  });

  test('bad input: an item that cannot be backed up, an unknown CRN, an unknown job state', async () => {
    const before = (await drJson<{ backups: Backup[] }>('backups', 'list')).backups.length;
    refused(await dr('backups', 'create', '--backup-name', 'vault', '--item-name', 'vault'), 'INVALID_ARGUMENT');
    expect((await drJson<{ backups: Backup[] }>('backups', 'list')).backups.length).toBe(before);
    refused(await dr('restores', 'describe', '--restore-crn', 'crn:cdp:drscp:us-west-1:acct:restore:nope'), 'NOT_FOUND');
    refused(await dr('logs', 'get', '--crn', 'crn:cdp:drscp:us-west-1:acct:backup:nope'), 'NOT_FOUND');
    expect((await dr('restores', 'list', '--job-states', 'SLEEPING')).code).toBe(2);
  });
});
