/**
 * The resource engine (engine/index.ts) in process, with operation tables
 * of the test's own on the opdb model (so what is pinned is the engine's,
 * not a service's): a handler for every operation and the setup run before
 * each; creates placed in their environment or parent,
 * names unique in a scope unless said otherwise, numbered ids for integer
 * id fields, the record made from the request and conformed to its shape;
 * a request that names nothing; deletes refused while a record holds
 * others unless forced, or cascading, or taking its parts along; a delete
 * already under way; actions with no effect twice when idempotent; a
 * resource whose deletes are immediate removed at once; a check's refusal
 * leaving nothing; perform().
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { Clock } from '../../../../src/lib/emulator/clock.js';
import { fromTable } from '../../../../src/lib/emulator/engine/compile.js';
import type { Resource } from '../../../../src/lib/emulator/engine/declare.js';
import { Engine } from '../../../../src/lib/emulator/engine/index.js';
import { code, type CodeEntry } from '../../../../src/lib/emulator/engine/table.js';
import { failedPrecondition } from '../../../../src/lib/emulator/errors.js';
import { Store } from '../../../../src/lib/emulator/store.js';
import type { Doc, RequestContext } from '../../../../src/lib/emulator/types.js';
import { loadService } from '../../../../src/lib/model/index.js';
import type { OperationName } from '../../../../src/lib/model/services/opdb/wire.js';
import { emulatedWorld, operationRefs, refusal } from '../../../helpers/emulator-unit.js';
import { OPDB_RESOURCES, opdbTable, type OpdbResource } from '../../../helpers/opdb-table.js';

const MIN = 60_000;
const T0 = Date.parse('2026-03-01T12:00:00Z');
const opdb = await loadService('opdb');
const opRef = await operationRefs('opdb');
const world = await emulatedWorld();

/** opdb's databases and snapshots, their lifecycles the model's facts (model/services/opdb/resources.ts). */
const { database: DATABASE, snapshot: SNAPSHOT } = OPDB_RESOURCES;

let store: Store;
let clock: Clock;
let setups = 0;

beforeEach(() => {
  clock = new Clock(1, { now: T0, paused: true }, () => T0);
  store = new Store(':memory:', 'acct');
  setups = 0;
});

/**
 * An engine of the tests' opdb table with these resources (and entries of
 * its own), and a call of one of its operations as a request would make it.
 */
function engineOf(
  resources: Partial<Record<OpdbResource, Resource<OpdbResource>>>,
  own: Partial<Record<OperationName, CodeEntry<OpdbResource>>> = {},
) {
  const table = opdbTable(resources, own, () => void setups++);
  const engine = new Engine(opdb, fromTable(table));
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
  test('every operation of the table has one, verbs and code alike, and no other; the setup runs before each', () => {
    const { handlers, call } = engineOf(
      { database: DATABASE, snapshot: SNAPSHOT },
      { listSupportedEnvironments: code(() => ({ environments: [] })) },
    );
    expect(Object.keys(handlers)).toEqual(
      expect.arrayContaining(['createDatabase', 'describeDatabase', 'createSnapshot', 'listSupportedEnvironments']),
    );
    expect(Object.keys(handlers).sort()).toEqual(
      opdb
        .operations()
        .map((o) => o.name)
        .sort(),
    );
    expect(handlers).not.toHaveProperty('nothing');
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
    const loose = engineOf({ database: { ...DATABASE, names: 'repeat' } });
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

  test("a create's check refusing leaves nothing behind", () => {
    const { call, fails } = engineOf({
      database: {
        ...DATABASE,
        hooks: {
          check: {
            create: (_h, rec) => {
              if (rec.name === 'refused') throw failedPrecondition('not this one');
            },
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
    const tables: Array<[string, { database: Resource<OpdbResource>; snapshot: Resource<OpdbResource> }]> = [
      ['cascading', { database: { ...DATABASE, deletes: { cascades: true } }, snapshot: SNAPSHOT }],
      ['with-parts', { database: DATABASE, snapshot: { ...SNAPSHOT, lives: { in: 'parent', parent: 'database', part: true } } }],
    ];
    for (const [name, resources] of tables) {
      const { call } = engineOf(resources);
      call('createDatabase', at(name));
      call('createSnapshot', { ...at(name), snapshotName: 'nightly', tableName: 't', snapshotLocation: 'l' });
      expect(call('dropDatabase', at(name))).toEqual({ status: 'PRE_DELETE_IN_PROGRESS' });
      expect(call('listSnapshots', at(name)).snapshots).toEqual([]);
    }
  });

  test('a resource whose deletes are immediate is removed at once, even with a delete in its lifecycle', () => {
    const { call, fails } = engineOf({ database: { ...DATABASE, deletes: { immediate: true } } });
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

  test("an action's effect hook's fields are set when the action succeeds", () => {
    const { call } = engineOf({
      database: { ...DATABASE, hooks: { effect: { start: () => ({ dbVersion: '7.3.1' }) } } },
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

  test('perform() serves an operation of the table as a request would, its rules applying; a resource the table lacks is an Error', () => {
    const { call, engine } = engineOf(
      { database: DATABASE },
      {
        restoreSnapshot: code((h, req) =>
          h.perform('createDatabase', { environmentName: req.targetEnvironmentName, databaseName: req.targetDatabaseName }),
        ),
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
