/**
 * A Data Hub cluster as a loop polling describe sees it (issue 28), driven
 * through the library's client against an emulator in this process on a
 * paused clock: each action shows the StackStatus values (datahub.yaml:2317)
 * in the order a client waits through them, a request before its progress.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import { emulatorWithRunningHub } from '../../../../helpers/hub.js';

let emu: RunningEmulator;
const clusterName = 'polled-hub';

beforeAll(async () => {
  emu = await emulatorWithRunningHub(clusterName);
});

afterAll(async () => {
  await emu?.stop();
});

/** The states a describe loop sees, reading every 15 s of emulator time until `done` (or 30 min); NOT_FOUND when it is gone. */
async function polled(done: (state: string) => boolean): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i <= 120; i++) {
    const state = await emu.client.datahub.describeCluster({ clusterName }).then(
      (r) => String(r.cluster?.status),
      (e: unknown) => {
        if ((e as { code?: string }).code === 'NOT_FOUND') return 'NOT_FOUND';
        throw e;
      },
    );
    if (seen.at(-1) !== state) seen.push(state);
    if (done(state)) break;
    emu.clock.advance('15s');
  }
  return seen;
}

describe('a loop polling describeCluster', () => {
  test('is AVAILABLE to begin with', async () => {
    expect(await polled((s) => s === 'AVAILABLE')).toEqual(['AVAILABLE']);
  });

  test('sees a stop STOP_REQUESTED, then STOP_IN_PROGRESS, then STOPPED', async () => {
    await emu.client.datahub.stopCluster({ clusterName });
    expect(await polled((s) => s === 'STOPPED')).toEqual(['STOP_REQUESTED', 'STOP_IN_PROGRESS', 'STOPPED']);
  });

  test('sees a start START_REQUESTED, then START_IN_PROGRESS, then AVAILABLE', async () => {
    await emu.client.datahub.startCluster({ clusterName });
    expect(await polled((s) => s === 'AVAILABLE')).toEqual(['START_REQUESTED', 'START_IN_PROGRESS', 'AVAILABLE']);
  });

  test('sees a scale UPDATE_REQUESTED, then UPDATE_IN_PROGRESS, then AVAILABLE', async () => {
    await emu.client.datahub.scaleCluster({ clusterName, instanceGroupName: 'compute', instanceGroupDesiredCount: 2 });
    expect(await polled((s) => s === 'AVAILABLE')).toEqual(['UPDATE_REQUESTED', 'UPDATE_IN_PROGRESS', 'AVAILABLE']);
  });

  test('sees a repair RECOVERY_REQUESTED, then RECOVERY_IN_PROGRESS, then AVAILABLE', async () => {
    await emu.client.datahub.repairCluster({ clusterName, instanceGroupNames: ['compute'] });
    expect(await polled((s) => s === 'AVAILABLE')).toEqual(['RECOVERY_REQUESTED', 'RECOVERY_IN_PROGRESS', 'AVAILABLE']);
  });

  test('sees a delete PRE_DELETE_IN_PROGRESS, then DELETE_IN_PROGRESS, then the cluster is gone', async () => {
    await emu.client.datahub.deleteCluster({ clusterName });
    expect(await polled((s) => s === 'NOT_FOUND')).toEqual(['PRE_DELETE_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'NOT_FOUND']);
  });
});
