/**
 * User syncs are records of their own: one that overlaps a sync still
 * running in the same environments is refused at once, REJECTED, naming
 * the sync it met; the running one goes on to COMPLETED. Driven through the
 * library's client against an emulator in this process.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
});

afterAll(async () => {
  await emu?.stop();
});

test('a sync that meets one running is REJECTED at once; the running one completes', async () => {
  const first = await emu.client.environments.syncAllUsers({});
  expect(first.status).toBe('REQUESTED');
  const second = await emu.client.environments.syncAllUsers({});
  const rejected = await emu.client.environments.syncStatus({ operationId: second.operationId });
  expect(rejected.status).toBe('REJECTED');
  expect(rejected.error).toContain(`a user sync (${first.operationId}) is already running in`);
  expect(rejected.endDate).toBe(rejected.startDate);
  emu.clock.advance('5m');
  expect((await emu.client.environments.syncStatus({ operationId: first.operationId })).status).toBe('COMPLETED');
});
