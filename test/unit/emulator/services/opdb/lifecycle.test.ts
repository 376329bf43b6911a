/**
 * opdb's databases in-process: their states are the model's facts
 * (model/services/opdb/resources.ts), so a client polling an update sees
 * UPDATE_REQUESTED before UPDATE_IN_PROGRESS (the status enum lists them the
 * other way round; a lifecycle guessed from it ran backwards).
 */
import { beforeEach, expect, test } from '@jest/globals';
import { Store } from '../../../../../src/lib/emulator/store.js';
import type { Doc } from '../../../../../src/lib/emulator/types.js';
import { clockAt, serviceCaller, UNIT_ACCOUNT, UNIT_ADMIN, UNIT_INFO } from '../../../../helpers/emulator-unit.js';

const MIN = 60_000;

let store: Store;
let now: number;
const clock = clockAt(() => now);
const opdb = await serviceCaller('opdb', () => ({ store, clock, caller: UNIT_ADMIN, info: UNIT_INFO }));
const DB = { environmentName: 'sales-env', databaseName: 'orders' };
const status = (): unknown => (opdb.call('describeDatabase', DB).databaseDetails as Doc).status;

beforeEach(() => {
  store = new Store(':memory:', UNIT_ACCOUNT);
  now = Date.parse('2026-01-01T00:00:00Z');
});

test('an update passes through UPDATE_REQUESTED, then UPDATE_IN_PROGRESS, and ends AVAILABLE', () => {
  opdb.call('createDatabase', DB);
  expect(status()).toBe('CREATE_IN_PROGRESS');
  now += 5 * MIN;
  expect(status()).toBe('AVAILABLE');
  opdb.call('updateDatabase', { ...DB, numDesiredRestworkerNodes: 2 });
  expect(status()).toBe('UPDATE_REQUESTED');
  now += 2 * MIN;
  expect(status()).toBe('UPDATE_IN_PROGRESS');
  now += 2 * MIN;
  expect(status()).toBe('AVAILABLE');
});
