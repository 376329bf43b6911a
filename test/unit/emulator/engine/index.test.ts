/**
 * The resource engine (engine/index.ts) in process, with specs of the
 * test's own on the opdb model (so what is pinned is the engine's, not a
 * service's): handlers for the placed and hand-written operations and the
 * setup run before each; creates placed in their environment or parent,
 * names unique in a scope unless said otherwise, numbered ids for integer
 * id fields, the record made from the request and conformed to its shape;
 * a request that names nothing; deletes refused while a record holds
 * others unless forced, or cascading, or taking its parts along; a delete
 * already under way; actions with no effect twice when idempotent; a
 * singleton removed at once; a hook's refusal leaving nothing; perform().
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { Clock } from '../../../../src/lib/emulator/clock.js';
import { fromSpec } from '../../../../src/lib/emulator/engine/compile.js';
import { Engine } from '../../../../src/lib/emulator/engine/index.js';
import type { EngineSpec, ResourceSpec } from '../../../../src/lib/emulator/engine/spec.js';
import { failedPrecondition } from '../../../../src/lib/emulator/errors.js';
import { Store } from '../../../../src/lib/emulator/store.js';
import type { Doc, RequestContext } from '../../../../src/lib/emulator/types.js';
import { loadService } from '../../../../src/lib/model/index.js';
import { resources as facts } from '../../../../src/lib/model/services/opdb/resources.js';
import { emulatedWorld, operationRefs, refusal } from '../../../helpers/emulator-unit.js';

const MIN = 60_000;
const T0 = Date.parse('2026-03-01T12:00:00Z');
const opdb = await loadService('opdb');
const opRef = await operationRefs('opdb');
const world = await emulatedWorld();

/** opdb's databases and snapshots, their lifecycles the model's facts (model/services/opdb/resources.ts). */
const DATABASE: ResourceSpec = { keys: ['databaseName', 'database'], environment: ['environmentName', 'environment'] };
const SNAPSHOT: ResourceSpec = { parent: 'database', keys: ['snapshotName'] };

let store: Store;
let clock: Clock;
let setups = 0;

beforeEach(() => {
  clock = new Clock(1, { now: T0, paused: true }, () => T0);
  store = new Store(':memory:', 'acct');
  setups = 0;
});

/** An engine of these resources (and hand-written handlers), and a call of one of its operations as a request would make it. */
function engineOf(resources: Record<string, ResourceSpec>, handlers: EngineSpec['handlers'] = {}) {
  const engine = new Engine(opdb, fromSpec({ facts, resources, handlers, setup: () => void setups++ }));
  const all = engine.handlers();
  const call = (op: string, req: Doc): Doc => {
    const h = all[op];
    if (!h) throw new Error(`no handler for ${op}`);
    const ctx: RequestContext = {
      store,
      clock: clock.frozen(),
      caller: { accountId: 'acct', actorCrn: 'crn:altus:iam:us-west-1:acct:user:admin', kind: 'user' },
      info: { accountId: 'acct', region: 'us-west-1', baseUrl: 'http://localhost:1' },
      world,
      op: opRef(op),
    };
    return store.transaction(() => h(req, ctx));
  };
  const fails = (op: string, req: Doc) => refusal(() => call(op, req), op);
  return { engine, handlers: all, call, fails };
}

const at = (databaseName: string, environmentName = 'sales-env'): Doc => ({ environmentName, databaseName });
const statusOf = (call: (op: string, req: Doc) => Doc, name: string): unknown =>
  (call('describeDatabase', at(name)).databaseDetails as Doc | undefined)?.status;

describe('handlers', () => {
  test('every placed operation has one, the hand-written too; the setup runs before each', () => {
    const { handlers, call } = engineOf(
      { database: DATABASE, snapshot: SNAPSHOT },
      { listSupportedEnvironments: () => ({ environments: [] }) },
    );
    expect(Object.keys(handlers)).toEqual(
      expect.arrayContaining(['createDatabase', 'describeDatabase', 'createSnapshot', 'listSupportedEnvironments']),
    );
    expect(handlers).not.toHaveProperty('describeClientConnectivity');
    call('listSupportedEnvironments', {});
    call('listDatabases', {});
    expect(setups).toBe(2);
  });
});

describe('creating', () => {
  test('a record is made in the environment a request names, from the request, conformed to its shape, with what it is given besides', () => {
    const { call } = engineOf({ database: DATABASE });
    const made = call('createDatabase', { ...at('orders'), scaleType: 'LIGHT', notAField: 'dropped' }).databaseDetails as Doc;
    expect(made).toMatchObject({
      databaseName: 'orders',
      environmentName: 'sales-env',
      status: 'REQUESTED',
      creationDate: new Date(T0).toISOString(),
      creatorCrn: 'crn:altus:iam:us-west-1:acct:user:admin',
      crn: expect.stringMatching(/^crn:cdp:opdb:us-west-1:acct:database:[0-9a-f-]{36}$/),
      environmentCrn: expect.stringMatching(/^crn:cdp:environments:us-west-1:acct:environment:/),
    });
    expect(made).not.toHaveProperty('notAField');
  });

  test('a create without its environment, or one naming an unknown environment, is refused', () => {
    const { fails } = engineOf({ database: DATABASE });
    expect(fails('createDatabase', { databaseName: 'x' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'give "environmentName" or "environment" to name its environment',
    });
    expect(fails('createDatabase', at('x', 'no-such-env')).code).toBe('NOT_FOUND');
  });

  test('names are unique in a scope (ALREADY_EXISTS naming it), unless the resource says they need not be', () => {
    const { call, fails } = engineOf({ database: DATABASE });
    call('createDatabase', at('orders'));
    expect(fails('createDatabase', at('orders'))).toMatchObject({
      status: 409,
      code: 'ALREADY_EXISTS',
      message: 'database orders already exists in environment sales-env',
    });
    call('createDatabase', at('orders', 'ops-env'));
    const loose = engineOf({ database: { ...DATABASE, uniqueNames: false } });
    loose.call('createDatabase', at('twice'));
    loose.call('createDatabase', at('twice'));
    expect((loose.call('listDatabases', {}).databases as Doc[]).filter((d) => d.databaseName === 'twice')).toHaveLength(2);
  });

  test('a record of a parent is made in the parent a request names; integer ids are numbered 1, 2, 3', () => {
    const { call, fails } = engineOf({ database: DATABASE, snapshot: SNAPSHOT });
    call('createDatabase', at('orders'));
    expect(fails('createSnapshot', { snapshotName: 's', tableName: 't', snapshotLocation: 'l' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'give "databaseName" or "database" to name the database it belongs to',
    });
    expect(fails('createSnapshot', { ...at('nothing'), snapshotName: 's' }).message).toBe(
      'database nothing not found in environment sales-env',
    );
    for (const name of ['a', 'b']) call('createSnapshot', { ...at('orders'), snapshotName: name, tableName: 't', snapshotLocation: 'l' });
    const listed = call('listSnapshots', at('orders')).snapshots as Doc[];
    expect(listed.map((s) => [s.snapshotName, s.snapshotId])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });

  test("a creating hook's refusal leaves nothing behind", () => {
    const { call, fails } = engineOf({
      database: {
        ...DATABASE,
        hooks: {
          creating: (_h, rec) => {
            if (rec.name === 'refused') throw failedPrecondition('not this one');
          },
        },
      },
    });
    expect(fails('createDatabase', at('refused')).message).toBe('not this one');
    expect(call('listDatabases', {}).databases).toEqual([]);
  });

  test('a request that names no record is INVALID_ARGUMENT saying which fields would', () => {
    const { fails } = engineOf({ database: DATABASE });
    expect(fails('describeDatabase', { environmentName: 'sales-env' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'give "databaseName" or "database" to name the database',
    });
  });
});

describe('deleting', () => {
  test('a record holding others is refused without force, naming them; with force its delete starts and what it holds goes at once', () => {
    const { call, fails } = engineOf({ database: DATABASE, snapshot: SNAPSHOT });
    call('createDatabase', at('orders'));
    call('createSnapshot', { ...at('orders'), snapshotName: 'nightly', tableName: 't', snapshotLocation: 'l' });
    expect(fails('dropDatabase', at('orders'))).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: 'database orders still has snapshot nightly; delete them first, or delete with force',
    });
    expect(call('dropDatabase', { ...at('orders'), force: true })).toEqual({ status: 'PRE_DELETE_IN_PROGRESS' });
    expect(call('listSnapshots', at('orders')).snapshots).toEqual([]);
    expect(fails('dropDatabase', { ...at('orders'), force: true }).message).toBe('database orders is already being deleted');
    // What a record shows once its delete has ended is not pinned here: how deletes end is about to change.
  });

  test('a resource that cascades, or whose records are parts of it, takes them along without force', () => {
    const specs: Array<[string, Record<string, ResourceSpec>]> = [
      ['cascading', { database: { ...DATABASE, cascades: true }, snapshot: SNAPSHOT }],
      ['with-parts', { database: DATABASE, snapshot: { ...SNAPSHOT, partOfParent: true } }],
    ];
    for (const [name, spec] of specs) {
      const { call } = engineOf(spec);
      call('createDatabase', at(name));
      call('createSnapshot', { ...at(name), snapshotName: 'nightly', tableName: 't', snapshotLocation: 'l' });
      expect(call('dropDatabase', at(name))).toEqual({ status: 'PRE_DELETE_IN_PROGRESS' });
      expect(call('listSnapshots', at(name)).snapshots).toEqual([]);
    }
  });

  test('a singleton is removed at once, even with a delete in its lifecycle', () => {
    const { call, fails } = engineOf({ database: { ...DATABASE, singleton: true } });
    call('createDatabase', at('only'));
    call('dropDatabase', at('only'));
    expect(fails('describeDatabase', at('only')).code).toBe('NOT_FOUND');
  });
});

describe('actions', () => {
  test('an action answers what it took and the state before; an idempotent one on a record in its end state does nothing', () => {
    const plain = engineOf({ database: DATABASE });
    plain.call('createDatabase', at('orders'));
    clock.advance(5 * MIN);
    expect(plain.call('stopDatabase', at('orders'))).toEqual({ wasStopped: true, previousStatus: 'AVAILABLE' });
    clock.advance(3 * MIN);
    expect(plain.fails('stopDatabase', at('orders')).message).toBe('database orders is STOPPED; stop needs it AVAILABLE or STOP_FAILED');
    const idempotent = engineOf({ database: { ...DATABASE, idempotent: ['stop'] } });
    expect(idempotent.call('stopDatabase', at('orders'))).toEqual({ previousStatus: 'STOPPED' });
    expect(statusOf(idempotent.call, 'orders')).toBe('STOPPED');
  });

  test("an acting hook's fields are set when the action succeeds", () => {
    const { call } = engineOf({
      database: { ...DATABASE, hooks: { acting: (_h, _rec, action) => (action === 'start' ? { dbVersion: '7.3.1' } : undefined) } },
    });
    call('createDatabase', at('orders'));
    clock.advance(5 * MIN);
    call('stopDatabase', at('orders'));
    clock.advance(3 * MIN);
    const before = (call('describeDatabase', at('orders')).databaseDetails as Doc).dbVersion;
    call('startDatabase', at('orders'));
    expect((call('describeDatabase', at('orders')).databaseDetails as Doc).dbVersion).toBe(before);
    expect(before).not.toBe('7.3.1');
    clock.advance(3 * MIN);
    expect(call('describeDatabase', at('orders')).databaseDetails).toMatchObject({ status: 'AVAILABLE', dbVersion: '7.3.1' });
  });

  test('perform() serves a placed operation as a request would, its rules applying; a resource the spec lacks is an Error', () => {
    const { call, engine } = engineOf(
      { database: DATABASE },
      {
        restoreSnapshot: (h, req) =>
          h.engine.perform(h, 'createDatabase', { environmentName: req.targetEnvironmentName, databaseName: req.targetDatabaseName }),
      },
    );
    call('restoreSnapshot', { targetEnvironmentName: 'ops-env', targetDatabaseName: 'copy' });
    expect((call('describeDatabase', at('copy', 'ops-env')).databaseDetails as Doc).status).toBe('REQUESTED');
    expect(() => call('restoreSnapshot', { targetEnvironmentName: 'ops-env', targetDatabaseName: 'copy' })).toThrow(
      'database copy already exists in environment ops-env',
    );
    expect(() => engine.resource('nothing')).toThrow('opdb has no resource nothing');
  });
});
