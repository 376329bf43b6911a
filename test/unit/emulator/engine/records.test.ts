/**
 * The engine's records (engine/records.ts), in process on a store and a
 * clock of the test's own, with the resources the engine derives from the
 * opdb model: a record's lifecycle read off the clock and its status
 * written when an action ends; lookups by id, name in any case and CRN,
 * within a scope; paged listings that skip what they leave out; the
 * actions a record went through kept as its past and shown as events; a
 * failed action's retry; a patch applied on success only; an action ended
 * on request (abort) with its reason; a record made without its lifecycle's
 * create, settled in the resource's first state.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { Clock } from '../../../../src/lib/emulator/clock.js';
import { fromTable } from '../../../../src/lib/emulator/engine/compile.js';
import { deriveService, type ResourceModel } from '../../../../src/lib/emulator/engine/derive.js';
import { Records, type EngineRecord } from '../../../../src/lib/emulator/engine/records.js';
import type { EmulatedService } from '../../../../src/lib/emulator/engine/table.js';
import { ApiError } from '../../../../src/lib/emulator/errors.js';
import { loadServiceModule } from '../../../../src/lib/emulator/services/index.js';
import { Store } from '../../../../src/lib/emulator/store.js';
import type { BackendContext } from '../../../../src/lib/emulator/types.js';
import { World } from '../../../../src/lib/emulator/world.js';
import { loadService } from '../../../../src/lib/model/index.js';
import { refusal } from '../../../helpers/emulator-unit.js';

const MIN = 60_000;
const T0 = Date.parse('2026-03-01T12:00:00Z');
const ENV_A = 'crn:cdp:environments:us-west-1:acct:environment:a';
const ENV_B = 'crn:cdp:environments:us-west-1:acct:environment:b';

const model = deriveService(await loadService('opdb'), fromTable((await loadServiceModule('opdb')) as EmulatedService));
const resource = (key: string): ResourceModel => {
  const r = model.resources.get(key);
  if (!r) throw new Error(`no resource ${key}`);
  return r;
};

let store: Store;
let clock: Clock;
let ctx: BackendContext;
let databases: Records;

beforeEach(() => {
  clock = new Clock(1, { now: T0, paused: true }, () => T0);
  store = new Store(':memory:', 'acct');
  ctx = {
    store,
    clock,
    caller: { accountId: 'acct', actorCrn: 'crn:altus:iam:us-west-1:acct:user:u', kind: 'user' },
    info: { accountId: 'acct', region: 'us-west-1', baseUrl: 'http://localhost:1' },
    world: World.empty,
  };
  databases = new Records(ctx, resource('database'));
});

/** A database record in an environment, its create begun now. */
const database = (name: string, scope = ENV_A): EngineRecord =>
  databases.create({
    id: `id-${name}`,
    name,
    crn: `crn:cdp:opdb:us-west-1:acct:database:${name}`,
    scope,
    env: scope,
    doc: { databaseName: name },
  });

describe('a record and its lifecycle', () => {
  test('its state is read off the clock; the status is written into its document once the action has ended', () => {
    const r = database('orders');
    expect(databases.state(r)).toBe('REQUESTED');
    expect(databases.view(r)).toMatchObject({ databaseName: 'orders', status: 'REQUESTED' });
    expect(databases.busy(r)).toBe(true);
    clock.advance(5 * MIN);
    const settled = databases.get('orders', ENV_A);
    expect(databases.state(settled)).toBe('AVAILABLE');
    expect(settled.doc.status).toBe('AVAILABLE');
    expect(databases.busy(settled)).toBe(false);
    expect(settled.createdAt).toBe(T0);
  });

  test('an action begins only from its states (FAILED_PRECONDITION naming them); an effect is applied on success only', () => {
    const r = database('orders');
    const early = refusal(() => databases.begin(r, 'stop'), 'stop while creating');
    expect([early.code, early.message]).toEqual([
      'FAILED_PRECONDITION',
      'database orders is REQUESTED; stop needs it AVAILABLE or STOP_FAILED',
    ]);
    clock.advance(5 * MIN);
    const up = databases.get('orders');
    databases.begin(up, 'upgrade', { effect: { dbVersion: '7.3.1' } });
    expect(databases.get('orders').doc.dbVersion).toBeUndefined();
    clock.advance(3 * MIN);
    expect(databases.get('orders').doc.dbVersion).toBe('7.3.1');
    const failing = database('fail-upgrade-db');
    clock.advance(5 * MIN);
    databases.begin(databases.get('fail-upgrade-db'), 'upgrade', { effect: { dbVersion: '7.3.1' } });
    clock.advance(3 * MIN);
    const failed = databases.get(failing.id);
    expect([databases.state(failed), failed.doc.dbVersion]).toEqual(['UPDATE_FAILED', undefined]);
  });

  test('fail-<action>- fails the first run only: the run after a failure is a retry', () => {
    database('fail-stop-db');
    clock.advance(5 * MIN);
    databases.begin(databases.get('fail-stop-db'), 'stop');
    clock.advance(3 * MIN);
    expect(databases.state(databases.get('fail-stop-db'))).toBe('STOP_FAILED');
    databases.begin(databases.get('fail-stop-db'), 'stop');
    clock.advance(3 * MIN);
    expect(databases.state(databases.get('fail-stop-db'))).toBe('STOPPED');
  });

  test('the actions it went through are its past, and its events: the past, then the current one', () => {
    database('orders');
    clock.advance(5 * MIN);
    databases.begin(databases.get('orders'), 'stop');
    clock.advance(MIN);
    const r = databases.get('orders');
    expect(r.past).toEqual([{ action: 'create', startedAt: T0, endedAt: T0 + 5 * MIN, state: 'AVAILABLE', failed: false }]);
    expect(databases.events(r).map((e) => [e.action, e.state, e.endedAt])).toEqual([
      ['create', 'AVAILABLE', T0 + 5 * MIN],
      ['stop', 'STOP_REQUESTED', T0 + 6 * MIN],
    ]);
  });

  test('abort ends the action under way now, in its failure state, with its reason, which the view shows', () => {
    const snapshots = new Records(ctx, resource('snapshot'));
    const s = snapshots.create({ id: '1', name: 'nightly', scope: 'id-orders', doc: { snapshotName: 'nightly' } });
    clock.advance(MIN);
    expect(snapshots.abort(s, 'cancelled on request')).toBe(true);
    const now = snapshots.get('1');
    expect(snapshots.state(now)).toBe('FAILED');
    expect(snapshots.view(now)).toMatchObject({ status: 'FAILED', failureReason: 'cancelled on request' });
    expect(snapshots.abort(now, 'again')).toBe(false);
  });

  test('a record made by an action its lifecycle does not have is settled at once in the first state', () => {
    const snapshots = new Records(ctx, resource('snapshot'));
    const s = snapshots.create({ id: '2', name: 'imported', scope: 'id-orders', doc: {} }, 'import');
    expect([snapshots.state(s), s.doc.status, snapshots.busy(s)]).toEqual(['SUCCESSFUL', 'SUCCESSFUL', false]);
    expect(snapshots.has('import')).toBe(false);
    expect(snapshots.has('create')).toBe(true);
  });
});

describe('lookups', () => {
  test('by id, by name in any case, by CRN; within a scope, only its records', () => {
    const r = database('Orders');
    database('orders', ENV_B);
    expect(databases.find('id-Orders')?.id).toBe(r.id);
    expect(databases.find('ORDERS', ENV_A)?.id).toBe(r.id);
    expect(databases.find('orders', ENV_B)?.scope).toBe(ENV_B);
    expect(databases.find(r.crn ?? '')?.id).toBe(r.id);
    expect(databases.find(r.crn ?? '', ENV_B)).toBeUndefined();
    expect(databases.find('id-Orders', ENV_B)).toBeUndefined();
    expect(databases.peek('id-Orders')?.name).toBe('Orders');
  });

  test('get is NOT_FOUND naming what was looked for, and where', () => {
    const e = refusal(() => databases.get('nothing', ENV_A, 'environment sales-env'), 'get');
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.code, e.message]).toEqual([404, 'NOT_FOUND', 'database nothing not found in environment sales-env']);
    expect(refusal(() => databases.get('nothing'), 'get').message).toBe('database nothing not found');
  });

  test("a peeked record is the store's frozen copy: changing it is a TypeError", () => {
    database('orders');
    const kept = databases.peek('id-orders');
    expect(() => {
      (kept as EngineRecord).doc.databaseName = 'changed';
    }).toThrow(TypeError);
  });
});

describe('listings', () => {
  test('all() and listings keep creation order within a scope; a listing pages and skips what it leaves out and what has gone', () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) database(name);
    database('z', ENV_B);
    expect(databases.all(ENV_A).map((r) => r.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(databases.all().map((r) => r.name)).toEqual(['a', 'b', 'c', 'd', 'e', 'z']);
    databases.remove(databases.get('b'));
    const listing = databases.listing(ENV_A, (r) => r.name !== 'd');
    const first = listing.read(0, 2);
    expect(first.map((x) => x.item.name)).toEqual(['a', 'c']);
    const rest = listing.read(first.at(-1)?.position ?? 0, 2);
    expect(rest.map((x) => x.item.name)).toEqual(['e']);
  });
});
