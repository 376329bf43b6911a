/**
 * Deleting instances of a Data Hub cluster, through the library's client
 * against an emulator in this process on a paused clock: a downscale of
 * their groups (its operation and scaling activity say why), Cloudera
 * Manager's host refused, an instance the cluster has not refused.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import { emulatorWithRunningHub } from '../../../../helpers/hub.js';

let emu: RunningEmulator;
const clusterName = 'shrinking-hub';

beforeAll(async () => {
  emu = await emulatorWithRunningHub(clusterName);
});

afterAll(async () => {
  await emu?.stop();
});

const refusal = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'accepted',
    (e: unknown) => `${String((e as { code?: string }).code)}: ${String((e as Error).message)}`,
  );

describe('datahub deleteInstances', () => {
  test('removes the instances named (a downscale), says why, and refuses the gateway and unknown instances', async () => {
    const groups = async (): Promise<Array<{ name?: string; instances?: Array<{ id?: string }> }>> =>
      (await emu.client.datahub.describeCluster({ clusterName })).cluster?.instanceGroups ?? [];
    const before = await groups();
    const worker = before.find((g) => g.name === 'worker')?.instances?.map((i) => String(i.id)) ?? [];
    const gateway = String(before.find((g) => g.name === 'master')?.instances?.[0]?.id);
    expect(worker).toHaveLength(3);
    expect(await refusal(emu.client.datahub.deleteInstances({ clusterName, instanceIds: [gateway] }))).toMatch(
      /^INVALID_ARGUMENT: instance .* is in instance group master, which holds Cloudera Manager/,
    );
    expect(await refusal(emu.client.datahub.deleteInstances({ clusterName, instanceIds: ['i-0nosuch'] }))).toBe(
      `NOT_FOUND: cluster ${clusterName} has no instance i-0nosuch`,
    );
    const gone = worker.slice(0, 2);
    const answer = await emu.client.datahub.deleteInstances({ clusterName, instanceIds: gone });
    expect(answer.cluster?.status).toBe('UPDATE_REQUESTED');
    const activities = await emu.client.datahub.listScalingActivities({ cluster: clusterName, duration: 60 });
    expect(activities.scalingActivity?.map((a) => [a.operationId, a.scalingActivityReason])).toEqual([
      [answer.operationId, `Instances ${gone.join(', ')} removed`],
    ]);
    emu.clock.advance('5m');
    const after = await groups();
    expect(after.find((g) => g.name === 'worker')?.instances?.map((i) => i.id)).toEqual(worker.slice(2));
    expect((await emu.client.datahub.describeCluster({ clusterName })).cluster?.status).toBe('AVAILABLE');
  });
});
