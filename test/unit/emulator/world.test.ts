/**
 * When a record ran (world.ts), what compute usage is computed from: from
 * the actions an engine record went through, or from the current action and
 * creation time of a record that keeps only those. Stopping, suspending and
 * deleting take a record down from their start; a failed action runs it
 * only until it failed.
 */
import { describe, expect, test } from '@jest/globals';
import { start, type Lifecycle } from '../../../src/lib/emulator/engine/timeline.js';
import { createdAtOf, runsAtAll, runsOf, spansOf, type ActionSpan } from '../../../src/lib/emulator/world.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

const LC: Lifecycle = {
  create: { phases: [['CREATING', 10]], success: 'RUNNING', failure: 'CREATE_FAILED' },
  stop: { from: ['RUNNING'], phases: [['STOPPING', 3]], success: 'STOPPED', failure: 'STOP_FAILED' },
  start: { from: ['STOPPED', 'START_FAILED'], phases: [['STARTING', 4]], success: 'RUNNING', failure: 'START_FAILED' },
  upgrade: { from: ['RUNNING'], phases: [['UPGRADING', 8]], success: 'RUNNING', failure: 'UPGRADE_FAILED' },
  delete: { phases: [['DELETING', 2]], success: 'DELETED', removes: true },
};

const span = (action: string, startedAt: number, endedAt: number, state: string, failed = false): ActionSpan => ({
  action,
  startedAt,
  endedAt,
  state,
  failed,
});

describe('runsOf', () => {
  test('made, stopped, started again, upgraded: runs from each start to the next stop, merged across actions that keep it up', () => {
    const spans = [
      span('create', 0, 10 * MIN, 'RUNNING'),
      span('stop', 3 * HOUR, 3 * HOUR + 3 * MIN, 'STOPPED'),
      span('start', 5 * HOUR, 5 * HOUR + 4 * MIN, 'RUNNING'),
      span('upgrade', 6 * HOUR, 6 * HOUR + 8 * MIN, 'RUNNING'),
    ];
    expect(runsOf(LC, spans, 8 * HOUR)).toEqual([
      { from: 0, to: 3 * HOUR },
      { from: 5 * HOUR, to: 8 * HOUR },
    ]);
  });

  test('a failed create runs until it failed; a delete takes it down from its start', () => {
    expect(runsOf(LC, [span('create', 0, 10 * MIN, 'CREATE_FAILED', true)], 5 * HOUR)).toEqual([{ from: 0, to: 10 * MIN }]);
    expect(runsOf(LC, [span('create', 0, 10 * MIN, 'RUNNING'), span('delete', HOUR, HOUR + 2 * MIN, 'DELETING')], 5 * HOUR)).toEqual([
      { from: 0, to: HOUR },
    ]);
  });

  test('an action interrupted by the next still ran until then; one still under way runs until now', () => {
    const interrupted = [span('create', 0, 5 * MIN, 'CREATING'), span('delete', 5 * MIN, 7 * MIN, 'DELETED')];
    expect(runsOf(LC, interrupted, HOUR)).toEqual([{ from: 0, to: 5 * MIN }]);
    expect(runsOf(LC, [span('create', 0, 5 * MIN, 'CREATING')], 5 * MIN)).toEqual([{ from: 0, to: 5 * MIN }]);
  });
});

describe('spansOf: a record that keeps only its current action', () => {
  test('stopped: it ran from when it was made until the stop', () => {
    const stop = start(LC, 'stop', 2 * HOUR);
    expect(runsOf(LC, spansOf(LC, stop, 4 * HOUR, 0), 4 * HOUR)).toEqual([{ from: 0, to: 2 * HOUR }]);
  });

  test('started again: only the run since the start is known', () => {
    const again = start(LC, 'start', 2 * HOUR);
    expect(runsOf(LC, spansOf(LC, again, 4 * HOUR, 0), 4 * HOUR)).toEqual([{ from: 2 * HOUR, to: 4 * HOUR }]);
  });

  test('upgraded while up: it ran from when it was made until now', () => {
    const upgrade = start(LC, 'upgrade', 2 * HOUR);
    expect(runsOf(LC, spansOf(LC, upgrade, 4 * HOUR, 0), 4 * HOUR)).toEqual([{ from: 0, to: 4 * HOUR }]);
  });
});

test('createdAtOf reads epoch ms or ISO 8601 under the names records use', () => {
  expect(createdAtOf({ createdAt: 1234 })).toBe(1234);
  expect(createdAtOf({ creationDate: '2024-05-01T00:00:00Z' })).toBe(Date.UTC(2024, 4, 1));
  expect(createdAtOf({ created: 'not a time' })).toBeUndefined();
});

test('what runs at all: what can be stopped or started, or is up once made; not a job that completes', () => {
  expect(runsAtAll(LC)).toBe(true);
  expect(runsAtAll({ create: { phases: [['CREATING', 1]], success: 'AVAILABLE' } })).toBe(true);
  expect(runsAtAll({ create: { phases: [['IN_PROGRESS', 1]], success: 'COMPLETED' } })).toBe(false);
  expect(runsAtAll(undefined)).toBe(false);
});
