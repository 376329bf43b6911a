/**
 * Cancelling backups and restores needs them to be still running when the
 * cancel arrives: the suite pauses the emulator's clock (emulator clock
 * --pause), so a backup stays running until the clock is advanced, however
 * slow the machine is.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;
const FAST = ['--poll-interval', '0.05', '--wait-timeout', '60'];

interface Br {
  backupId: string;
  restoreId?: string;
  status: string;
  operationStates: Record<string, Record<string, { status: string }>>;
}

/** Drives the emulator's clock (emulator clock --pause / --resume / --advance 10m). */
async function clock(...flags: string[]): Promise<void> {
  const r = await em.raw(['emulator', 'clock', '--data-dir', em.dataDir, ...flags]);
  if (r.code !== 0) throw new Error(`emulator clock ${flags.join(' ')} exited ${r.code}: ${r.stderr}`);
}

beforeAll(async () => {
  em = await startEmulator();
  await em.json([
    'datalake',
    'create',
    'gcp',
    '--datalake-name',
    'cancel-lake',
    '--environment-name',
    'ml-env',
    '--cloud-provider-configuration',
    'serviceAccountEmail=idbroker@proj.iam.gserviceaccount.com,storageLocation=gs://cancel-data/lake',
    '--wait',
    ...FAST,
  ]);
  await clock('--pause');
}, 60_000);

afterAll(async () => {
  await em?.stop();
});

const statuses = (b: Br): string[] => Object.values(b.operationStates).flatMap((s) => Object.values(s).map((x) => x.status));

describe('cancelling backups and restores', () => {
  test('a backup cancelled while running ends CANCELLED; cancelling again fails (exit 1)', async () => {
    const b = await em.json<Br>(['datalake', 'backup', '--datalake-name', 'cancel-lake', '--backup-name', 'to-cancel']);
    expect(b.status).toBe('STARTED');
    const c = await em.json<{ result: string }>(['datalake', 'backup', 'cancel', '--backup-id', b.backupId, '--yes']);
    expect(c.result).toContain('cancelled');
    const s = await em.json<Br>(['datalake', 'backup', 'status', '--datalake-name', 'cancel-lake', '--backup-id', b.backupId]);
    expect(s.status).toBe('CANCELLED');
    expect(statuses(s)).toContain('CANCELLED');
    const again = await em.cli(['datalake', 'backup', 'cancel', '--backup-id', b.backupId, '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('FAILED_PRECONDITION');
  });

  test('a backup cancelled with --force while someone waits for it: the wait exits 5', async () => {
    const waiting = em.cli(['datalake', 'backup', '--datalake-name', 'cancel-lake', '--backup-name', 'watched', '--wait', ...FAST]);
    // The clock stands still: the backup runs (and its waiter waits) until it is cancelled.
    let id = '';
    for (let i = 0; i < 200 && !id; i++) {
      const s = await em.cli([
        'datalake',
        'backup',
        'status',
        '--datalake-name',
        'cancel-lake',
        '--backup-name',
        'watched',
        '--output',
        'json',
      ]);
      if (s.code === 0) id = (JSON.parse(s.stdout) as Br).backupId;
      else expect(s.stderr).toContain('NOT_FOUND');
    }
    const c = await em.cli(['datalake', 'backup', 'cancel', '--backup-id', id, '--force', '--yes']);
    expect(c.code).toBe(0);
    const w = await waiting;
    expect(w.code).toBe(5);
    expect(w.stderr).toContain('CANCELLED');
    const s = await em.json<Br>(['datalake', 'backup', 'status', '--datalake-name', 'cancel-lake', '--backup-id', id]);
    expect(s.status).toBe('CANCELLED');
    expect(statuses(s)).not.toContain('IN_PROGRESS');
    expect(statuses(s)).not.toContain('INIT');
  });

  test('a restore can be force-cancelled while running; a finished backup cannot be cancelled', async () => {
    const started = await em.json<Br>(['datalake', 'backup', '--datalake-name', 'cancel-lake', '--backup-name', 'base']);
    await clock('--advance', '10m');
    const b = await em.json<Br>(['datalake', 'backup', 'status', '--datalake-name', 'cancel-lake', '--backup-id', started.backupId]);
    expect(b.status).toBe('SUCCESSFUL');
    const late = await em.cli(['datalake', 'backup', 'cancel', '--backup-id', b.backupId, '--yes']);
    expect(late.code).toBe(1);
    const r = await em.json<Br>(['datalake', 'restore', '--datalake-name', 'cancel-lake', '--backup-id', b.backupId]);
    expect(r.status).toBe('STARTED');
    await clock('--advance', '1m');
    const running = await em.json<Br>([
      'datalake',
      'restore',
      'status',
      '--datalake-name',
      'cancel-lake',
      '--restore-id',
      String(r.restoreId),
    ]);
    expect(running.status).toBe('IN_PROGRESS');
    expect(statuses(running)).toContain('IN_PROGRESS');
    const c = await em.cli(['datalake', 'restore', 'cancel', '--restore-id', String(r.restoreId), '--force', '--yes']);
    expect(c.code).toBe(0);
    const s = await em.json<Br>(['datalake', 'restore', 'status', '--datalake-name', 'cancel-lake', '--restore-id', String(r.restoreId)]);
    expect(s.status).toBe('CANCELLED');
  });
});
