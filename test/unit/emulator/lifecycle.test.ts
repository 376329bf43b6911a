/**
 * The lifecycle engine: actions as data, states read off the clock, the
 * fail- rule, effects applied once, removal, `from` checks, operation
 * records, cancellation, and a made-up service's lifecycle in the few lines
 * docs/architecture.md shows, on the engine's records (a resource the
 * engine derives from the opdb model, with that lifecycle in its place).
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { Clock } from '../../../src/lib/emulator/clock.js';
import { ApiError } from '../../../src/lib/emulator/errors.js';
import { Operations } from '../../../src/lib/emulator/engine/operations.js';
import { fromTable } from '../../../src/lib/emulator/engine/compile.js';
import { deriveService, type ResourceModel } from '../../../src/lib/emulator/engine/derive.js';
import { Records, type EngineRecord } from '../../../src/lib/emulator/engine/records.js';
import type { EmulatedService } from '../../../src/lib/emulator/engine/table.js';
import { loadServiceModule } from '../../../src/lib/emulator/services/index.js';
import { loadService } from '../../../src/lib/model/index.js';
import { failsOnPurpose, progress, settle, start, type Lifecycle } from '../../../src/lib/emulator/engine/timeline.js';
import { Store } from '../../../src/lib/emulator/store.js';
import { refusal } from '../../helpers/emulator-unit.js';
import type { BackendContext } from '../../../src/lib/emulator/types.js';
import { World } from '../../../src/lib/emulator/world.js';

const MIN = 60_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');

/** The example of docs/architecture.md: a cluster with create, stop, start and delete. */
const CLUSTER: Lifecycle = {
  create: {
    phases: [
      ['REQUESTED', 0.5],
      ['CREATE_IN_PROGRESS', 9.5],
    ],
    success: 'AVAILABLE',
    failure: 'CREATE_FAILED',
    operation: 'CREATE',
  },
  stop: { from: ['AVAILABLE'], phases: [['STOP_IN_PROGRESS', 3]], success: 'STOPPED', failure: 'STOP_FAILED', operation: 'STOP' },
  start: {
    from: ['STOPPED', 'START_FAILED'],
    phases: [['START_IN_PROGRESS', 4]],
    success: 'AVAILABLE',
    failure: 'START_FAILED',
    operation: 'START',
  },
  scale: { from: ['AVAILABLE'], phases: [['UPDATE_IN_PROGRESS', 2]], success: 'AVAILABLE', failure: 'SCALING_FAILED', operation: 'SCALE' },
  delete: { phases: [['DELETE_IN_PROGRESS', 2]], success: 'DELETED', failure: 'DELETE_FAILED', operation: 'DELETE', removes: true },
};

/** The made-up clusters: a resource of the engine (opdb's database, derived from its model) with the lifecycle above, on kinds of their own. */
const opdb = deriveService(await loadService('opdb'), fromTable((await loadServiceModule('opdb')) as EmulatedService));
const CLUSTERS: ResourceModel = (() => {
  const base = opdb.resources.get('database');
  if (!base) throw new Error('opdb has no database resource');
  const { subject: _subject, failsFor: _failsFor, goneWith: _goneWith, work: _work, ...rules } = base.rules;
  const { facts: _facts, parent: _parent, work: _w, initialState: _initial, ...rest } = base;
  return {
    ...rest,
    kind: 'test.cluster',
    noun: 'cluster',
    rules,
    fields: {},
    lifecycle: CLUSTER,
    operationKind: 'test.operation',
    children: [],
  };
})();

let store: Store;
let clock: Clock;
let ctx: BackendContext;
let clusters: Records;

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
  clusters = new Records(ctx, CLUSTERS);
});

const make = (name: string): EngineRecord =>
  store.transaction(() =>
    clusters.create({ id: name, crn: `crn:cdp:test:us-west-1:acct:cluster:${name}`, name, scope: '', doc: { nodes: 3 } }, 'create'),
  );
const stateOf = (name: string): string => store.transaction(() => clusters.state(clusters.get(name)));
const fails = (fn: () => unknown): ApiError => refusal(fn, 'the call');

describe('lifecycle engine', () => {
  test('a create walks its phases on the clock; a paused clock holds it; advancing moves it', () => {
    make('c1');
    expect(stateOf('c1')).toBe('REQUESTED');
    expect(stateOf('c1')).toBe('REQUESTED');
    clock.advance(MIN);
    expect(stateOf('c1')).toBe('CREATE_IN_PROGRESS');
    clock.advance(9 * MIN);
    expect(stateOf('c1')).toBe('AVAILABLE');
  });

  test('from: an action starts only in the states it names, with a message naming them', () => {
    make('c2');
    const e = fails(() => store.transaction(() => clusters.begin(clusters.get('c2'), 'stop')));
    expect([e.code, e.message]).toEqual(['FAILED_PRECONDITION', 'cluster c2 is REQUESTED; stop needs it AVAILABLE']);
    clock.advance(10 * MIN);
    store.transaction(() => clusters.begin(clusters.get('c2'), 'stop'));
    expect(stateOf('c2')).toBe('STOP_IN_PROGRESS');
    clock.advance(3 * MIN);
    expect(stateOf('c2')).toBe('STOPPED');
  });

  test('an effect applies once, on the first read after success; not on failure', () => {
    make('c3');
    clock.advance(10 * MIN);
    store.transaction(() => clusters.begin(clusters.get('c3'), 'scale', { effect: { nodes: 5 } }));
    expect(store.transaction(() => clusters.get('c3')).doc.nodes).toBe(3);
    clock.advance(2 * MIN);
    expect(store.transaction(() => clusters.get('c3')).doc.nodes).toBe(5);
    make('fail-c4');
    clock.advance(10 * MIN);
    expect(stateOf('fail-c4')).toBe('CREATE_FAILED');
    expect(store.transaction(() => clusters.get('fail-c4')).activity.reason).toBe(
      'create failed on purpose: the cluster name starts with "fail-"',
    );
  });

  test('a peek is the record as kept (frozen) until its action ends; then it is read, settled and saved once, as a get would', () => {
    make('p1');
    clock.advance(10 * MIN);
    // The create's end is written by the read that first finds it ended (its past, how it ended); a peek then is the record as kept.
    expect(Object.isFrozen(store.transaction(() => clusters.peek('p1')))).toBe(false);
    const kept = store.transaction(() => clusters.peek('p1'));
    expect(Object.isFrozen(kept)).toBe(true);
    expect(store.transaction(() => clusters.peek('p1'))).toBe(kept);
    store.transaction(() => clusters.begin(clusters.get('p1'), 'scale', { effect: { nodes: 7 } }));
    expect(store.transaction(() => clusters.peek('p1'))?.doc.nodes).toBe(3);
    clock.advance(2 * MIN);
    // The first read after the end applies the effect and saves it; the store has it from then on.
    const settled = store.transaction(() => clusters.peek('crn:cdp:test:us-west-1:acct:cluster:p1'));
    expect(settled?.doc.nodes).toBe(7);
    expect(store.get<EngineRecord>('test.cluster', 'p1')?.doc.nodes).toBe(7);
    expect(store.get<EngineRecord>('test.cluster', 'p1')?.activity.applied).toBe(true);
    expect(Object.isFrozen(store.transaction(() => clusters.peek('p1')))).toBe(true);
    // A delete that has ended removes the record on the peek that finds it so.
    store.transaction(() => clusters.begin(clusters.get('p1'), 'delete'));
    clock.advance(2 * MIN);
    expect(store.transaction(() => clusters.peek('p1'))).toBeUndefined();
    expect(store.get('test.cluster', 'p1')).toBeUndefined();
  });

  test('the fail- rule: fail- fails every action; fail-<action>- only that action, and not its retry', () => {
    expect(failsOnPurpose('fail-x', 'create', CLUSTER)).toBe(true);
    expect(failsOnPurpose('fail-x', 'stop', CLUSTER, true)).toBe(true);
    expect(failsOnPurpose('FAIL-x', 'stop', CLUSTER)).toBe(true);
    expect(failsOnPurpose('fail-stop-x', 'create', CLUSTER)).toBe(false);
    expect(failsOnPurpose('fail-stop-x', 'stop', CLUSTER)).toBe(true);
    expect(failsOnPurpose('fail-stop-x', 'stop', CLUSTER, true)).toBe(false);
    expect(failsOnPurpose('fail-other-x', 'create', CLUSTER)).toBe(true);
    expect(failsOnPurpose('failing', 'create', CLUSTER)).toBe(false);
    expect(failsOnPurpose(undefined, 'create', CLUSTER)).toBe(false);
    // An action without a failure state never fails.
    expect(progress(start({ a: { phases: [['X', 1]], success: 'Y' } }, 'a', T0, { subject: 'fail-me' }), T0 + MIN).state).toBe('Y');
  });

  test('an action that removes: reads answer NOT_FOUND once it succeeded; a failed one keeps the resource', () => {
    make('c5');
    clock.advance(10 * MIN);
    store.transaction(() => clusters.begin(clusters.get('c5'), 'delete'));
    expect(stateOf('c5')).toBe('DELETE_IN_PROGRESS');
    clock.advance(2 * MIN);
    expect(fails(() => store.transaction(() => clusters.get('c5'))).code).toBe('NOT_FOUND');
    // A read that fails leaves the store as it was; a listing takes the document away for good.
    expect(store.transaction(() => clusters.all()).map((c) => c.name)).toEqual([]);
    expect(store.get('test.cluster', 'c5')).toBeUndefined();
    make('fail-c6');
    clock.advance(10 * MIN);
    store.transaction(() => clusters.begin(clusters.get('fail-c6'), 'delete', { anyState: true }));
    clock.advance(2 * MIN);
    expect(stateOf('fail-c6')).toBe('DELETE_FAILED');
  });

  test('operation records: RUNNING, then FINISHED or FAILED; the latest per resource; cancellation', () => {
    make('c7');
    const ops = new Operations(ctx, 'test.operation');
    const first = store.transaction(() => ops.latest('c7'));
    expect(first && ops.view(first)).toMatchObject({ operationName: 'CREATE', operationStatus: 'RUNNING' });
    expect(first && ops.view(first).ended).toBeUndefined();
    clock.advance(10 * MIN);
    expect(first && ops.view(first)).toMatchObject({ operationStatus: 'FINISHED', ended: new Date(T0 + 10 * MIN).toISOString() });
    const stop = store.transaction(() => clusters.begin(clusters.get('c7'), 'stop'));
    expect(ops.latest('c7')?.operationId).toBe(stop.operationId);
    store.transaction(() => ops.cancel(String(stop.operationId)));
    const cancelled = ops.find(String(stop.operationId));
    expect(cancelled && ops.view(cancelled)).toMatchObject({ operationStatus: 'CANCELLED' });
    expect(() => ops.get('nope')).toThrow(ApiError);
    make('fail-c8');
    clock.advance(10 * MIN);
    const failed = ops.latest('fail-c8');
    expect(failed && ops.view(failed).operationStatus).toBe('FAILED');
  });

  test('an action without success returns to the state it began in; minutes stretch the phase without a length', () => {
    const L: Lifecycle = {
      update: { phases: [['UPDATING', 1]] },
      deploy: {
        phases: [
          ['NEW', 0],
          ['IMPORTING', 1],
        ],
        success: 'UP',
      },
    };
    const u = start(L, 'update', T0, { current: 'STEADY' });
    expect([progress(u, T0).state, progress(u, T0 + MIN).state]).toEqual(['UPDATING', 'STEADY']);
    const d = start(L, 'deploy', T0, { minutes: 5 });
    expect([progress(d, T0 + 3 * MIN).state, progress(d, T0 + 4.5 * MIN).state, progress(d, T0 + 5 * MIN).state]).toEqual([
      'NEW',
      'IMPORTING',
      'UP',
    ]);
    const cancelled = { ...d, cancelledAt: T0 + MIN };
    expect(progress(cancelled, T0 + 10 * MIN)).toMatchObject({ state: 'CANCELLED', done: true, endsAt: T0 + MIN });
  });

  test('settle reports the end once', () => {
    const target = { activity: start(CLUSTER, 'scale', T0, { effect: { nodes: 9 } }), nodes: 1 };
    expect(settle(target, T0)).toBeUndefined();
    expect(settle(target, T0 + 2 * MIN)?.succeeded).toBe(true);
    expect(target.nodes).toBe(9);
    expect(settle(target, T0 + 3 * MIN)).toBeUndefined();
  });
});

describe('the driven clock', () => {
  test('pause holds, advance moves paused or running, resume runs from where it stood, never backwards across restarts', () => {
    let wall = T0;
    const c = new Clock(10, {}, () => wall);
    expect(c.now()).toBe(T0);
    wall += 1000;
    expect(c.now()).toBe(T0 + 10_000);
    c.pause();
    wall += 5000;
    expect(c.now()).toBe(T0 + 10_000);
    c.advance(15 * MIN);
    expect(c.now()).toBe(T0 + 10_000 + 15 * MIN);
    c.resume();
    wall += 1000;
    expect(c.now()).toBe(T0 + 20_000 + 15 * MIN);
    c.advance(MIN);
    expect(c.now()).toBe(T0 + 20_000 + 16 * MIN);
    expect(() => c.advance(-1)).toThrow(RangeError);
    // A paused clock resumes exactly; a running one never behind the wall clock.
    expect(new Clock(1, { now: T0 - 5000, paused: true }, () => wall).now()).toBe(T0 - 5000);
    expect(new Clock(1, { now: T0 - 5000, paused: false }, () => wall).now()).toBe(wall);
  });
});
