/**
 * Waiting in-process: a client over a fake transport whose answers step
 * through states, and a fake clock, so every wait takes no time and its
 * pauses can be read back.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { OperationClient } from '../../../src/lib/core/client.js';
import { CdpError } from '../../../src/lib/core/errors.js';
import { firstFailure, pollRequest, waitFor } from '../../../src/lib/core/waiter.js';
import { issueKey } from '../../../src/lib/emulator/keys.js';
import { loadService, type Operation } from '../../../src/lib/model/index.js';
import { FakeClock, FakeTransport, fakeProfile, type Reply } from '../../helpers/fakes.js';

const key = issueKey('V2');
let stop: Operation;
let remove: Operation;

beforeAll(async () => {
  const datalake = await loadService('datalake');
  stop = datalake.operation('stopDatalake');
  remove = datalake.operation('deleteDatalake');
});

const lake = (status: string, statusReason?: string): Reply => ({
  body: { datalake: { datalakeName: 'sales-lake', status, ...(statusReason ? { statusReason } : {}) } },
});

/** A client whose describeDatalake answers come from `answers`, one a poll (the last repeats). */
function lakeClient(
  answers: readonly Reply[],
  headers: Record<string, string> = {},
): { client: OperationClient; transport: FakeTransport } {
  const transport = FakeTransport.byPath({ '/api/v1/datalake/describeDatalake': answers.map((a) => ({ ...a, headers })) });
  const client = new OperationClient({
    endpointUrl: 'http://localhost:8080/',
    env: { CDP_ACCESS_KEY_ID: 'k', CDP_PRIVATE_KEY: key.privateKey },
    profileSettings: () => fakeProfile(),
    transport,
  });
  return { client, transport };
}

const request = { datalakeName: 'sales-lake' };

describe('waitFor', () => {
  test('polls until a success state, telling each new state, backing off from 1 s to the model’s interval', async () => {
    const { client, transport } = lakeClient([
      lake('STOP_IN_PROGRESS'),
      lake('STOP_IN_PROGRESS'),
      lake('STOP_IN_PROGRESS'),
      lake('STOPPED'),
    ]);
    const clock = new FakeClock();
    const seen: Array<[string, number]> = [];
    const outcome = await waitFor(client, stop, request, {}, { clock, onState: (state, ms) => seen.push([state, ms]) });
    expect(transport.sent.map((s) => s.body)).toEqual([request, request, request, request]);
    expect(seen).toEqual([
      ['STOP_IN_PROGRESS', 0],
      ['STOPPED', 7000],
    ]);
    expect(clock.slept).toEqual([1000, 2000, 4000]);
    expect(outcome).toEqual({
      final: { datalake: { datalakeName: 'sales-lake', status: 'STOPPED' } },
      polls: 4,
      state: 'STOPPED',
      elapsedMs: 7000,
      shape: 'DescribeDatalakeResponse',
    });
  });

  test('a failure state ends the wait with the reason (exit 5)', async () => {
    const { client } = lakeClient([lake('STOP_FAILED', 'the disk is full')]);
    const err = await waitFor(client, stop, request, {}, { clock: new FakeClock() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CdpError);
    expect(err).toMatchObject({ kind: 'waitFailed', message: 'stopDatalake ended in STOP_FAILED: the disk is full', exitCode: 5 });
  });

  test('gives up after the timeout, naming the last state (exit 6)', async () => {
    const { client } = lakeClient([lake('STOP_IN_PROGRESS')]);
    const clock = new FakeClock();
    const err = await waitFor(client, stop, request, {}, { clock, timeoutSec: 10 }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      kind: 'waitTimeout',
      code: 'WAIT_TIMEOUT',
      message: 'gave up waiting after 10.0 s; last state STOP_IN_PROGRESS. The operation goes on.',
      exitCode: 6,
    });
    // The last pause is cut to end at the timeout.
    expect(clock.slept).toEqual([1000, 2000, 4000, 3000]);
  });

  test('survives throttling and server trouble; a 501 is final', async () => {
    const busy = { status: 503, body: { code: 'UNAVAILABLE', message: 'busy' } };
    const { client } = lakeClient([busy, { status: 429, body: {} }, lake('STOPPED')]);
    await expect(waitFor(client, stop, request, {}, { clock: new FakeClock() })).resolves.toMatchObject({ state: 'STOPPED', polls: 3 });
    const unimplemented = lakeClient([{ status: 501, body: { code: 'NOT_EMULATED', message: 'no' } }]);
    await expect(waitFor(unimplemented.client, stop, request, {}, { clock: new FakeClock() })).rejects.toMatchObject({
      code: 'NOT_EMULATED',
    });
  });

  test('for a delete, NOT_FOUND is the success state', async () => {
    const { client } = lakeClient([lake('DELETE_IN_PROGRESS'), { status: 404, body: { code: 'NOT_FOUND', message: 'gone' } }]);
    await expect(waitFor(client, remove, request, {}, { clock: new FakeClock() })).resolves.toEqual({
      final: {},
      polls: 2,
      state: 'DELETED',
      elapsedMs: 1000,
    });
  });

  test('an emulator’s time scale shortens the pauses, unless the user fixed the interval', async () => {
    const answers = [lake('STOP_IN_PROGRESS'), lake('STOP_IN_PROGRESS'), lake('STOPPED')];
    const paced = lakeClient(answers, { 'x-cdp-emulator-time-scale': '100' });
    const clock = new FakeClock();
    await waitFor(paced.client, stop, request, {}, { clock });
    expect(clock.slept).toEqual([50, 50]);
    const fixed = lakeClient(answers, { 'x-cdp-emulator-time-scale': '100' });
    const userClock = new FakeClock();
    await waitFor(fixed.client, stop, request, {}, { clock: userClock, intervalSec: 3 });
    expect(userClock.slept).toEqual([3000, 3000]);
  });

  test('an emulator in real time is still asked at least every second: its clock may jump', async () => {
    const answers = [lake('STOP_IN_PROGRESS'), lake('STOP_IN_PROGRESS'), lake('STOP_IN_PROGRESS'), lake('STOPPED')];
    const emulator = lakeClient(answers, { 'x-cdp-emulator-time-scale': '1' });
    const clock = new FakeClock();
    await waitFor(emulator.client, stop, request, {}, { clock });
    expect(clock.slept).toEqual([1000, 1000, 1000]);
    // The real control plane says no time scale: the back-off is the model's.
    const real = lakeClient(answers);
    const realClock = new FakeClock();
    await waitFor(real.client, stop, request, {}, { clock: realClock });
    expect(realClock.slept).toEqual([1000, 2000, 4000]);
  });

  test('an aborted wait stops before the next poll (exit 130)', async () => {
    const { client, transport } = lakeClient([lake('STOP_IN_PROGRESS')]);
    const controller = new AbortController();
    const err = await waitFor(
      client,
      stop,
      request,
      {},
      {
        clock: new FakeClock(),
        onState: () => controller.abort(),
        signal: controller.signal,
      },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'interrupted', code: 'INTERRUPTED', exitCode: 130 });
    expect(transport.sent).toHaveLength(1);
  });
});

describe('the poll’s request and the first answer', () => {
  test('the poll request is built from the first call', async () => {
    expect(await pollRequest(stop, request, {})).toEqual({ datalakeName: 'sales-lake' });
  });

  test('a first answer that already reports a failure ends the work there (exit 5); any other leaves it to wait for', async () => {
    const create = (await loadService('compute')).findByCommand('compute clusters create') as Operation;
    const refused = { clusterStatus: { status: 'VALIDATION_FAILED' }, validationResponse: { message: 'no subnet' } };
    expect(await firstFailure(create, refused)).toMatchObject({
      kind: 'waitFailed',
      message: `${create.name} ended in VALIDATION_FAILED: no subnet`,
    });
    expect(await firstFailure(create, { clusterStatus: { status: 'CREATING' } })).toBe(undefined);
    expect(await firstFailure(stop, {})).toBe(undefined);
  });
});
