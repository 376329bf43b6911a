/**
 * What the resource engine derives from a service's model and its
 * operation table (engine/derive.ts), on the opdb model with a table of the
 * test's own (so what is pinned is the engine's, not a service's): each
 * entry's verb and resource, with its own options and answer, code entries
 * left to code; each resource's shape and the roles of its fields, its CRN
 * type, parents and children, and lifecycles from the model's resource
 * facts (their states in order, each action's emulated minutes, where stop
 * and start may begin, a delete that removes); and the table mistakes the
 * compiler cannot see, refused at start.
 */
import { describe, expect, test } from '@jest/globals';
import { fromTable } from '../../../../src/lib/emulator/engine/compile.js';
import type { Resource } from '../../../../src/lib/emulator/engine/declare.js';
import { deriveService } from '../../../../src/lib/emulator/engine/derive.js';
import { verbs, type EmulatedService, type Entry } from '../../../../src/lib/emulator/engine/table.js';
import type { ServiceResources } from '../../../../src/lib/model/resources.js';
import { loadService } from '../../../../src/lib/model/index.js';
import { opdbFacts as facts, opdbTable } from '../../../helpers/opdb-table.js';

const opdb = await loadService('opdb');
const table = opdbTable();

/**
 * A table as the compiler would not let it be written (an operation the
 * model lacks, a resource without facts or a parent): the mistakes the
 * engine itself refuses at start.
 */
function loose(resources: Record<string, Resource>, operations: Record<string, Entry>, f: ServiceResources = facts): EmulatedService {
  return { service: 'opdb', facts: f, resources, operations } as EmulatedService;
}
const derive = (t: EmulatedService) => deriveService(opdb, fromTable(t));
const model = derive(table);
const verbOf = (op: string): unknown => model.bindings.get(op)?.verb;
const resourceOf = (op: string): string | undefined => model.bindings.get(op)?.resource;

describe('operations on verbs of resources, as the table puts them', () => {
  test('create, describe, list, drop, update, and lifecycle actions', () => {
    expect([verbOf('createDatabase'), resourceOf('createDatabase')]).toEqual(['create', 'database']);
    expect(verbOf('describeDatabase')).toBe('read');
    expect(verbOf('listDatabases')).toBe('list');
    expect(verbOf('dropDatabase')).toBe('delete');
    expect(verbOf('updateDatabase')).toBe('update');
    expect(verbOf('startDatabase')).toEqual({ action: 'start' });
    expect(verbOf('stopDatabase')).toEqual({ action: 'stop' });
  });

  test("each on the resource its entry names: createSnapshot is the snapshot's, not the database's", () => {
    expect([resourceOf('createSnapshot'), verbOf('createSnapshot')]).toEqual(['snapshot', 'create']);
    expect([resourceOf('listSnapshots'), verbOf('listSnapshots')]).toEqual(['snapshot', 'list']);
    expect([resourceOf('deleteSnapshot'), verbOf('deleteSnapshot')]).toEqual(['snapshot', 'delete']);
  });

  test("an entry's own fields that name the record and its environment are kept, beside the resource's", () => {
    expect(model.bindings.get('upgradeDatabase')).toMatchObject({ keys: ['database'], environment: ['environment'] });
    expect(model.bindings.get('describeDatabase')).not.toHaveProperty('keys');
  });

  test('entries whose names say nothing of their resource, with their answers; code entries are not on verbs', () => {
    expect([resourceOf('restoreSnapshot'), verbOf('restoreSnapshot')]).toEqual(['restore', 'create']);
    expect(resourceOf('collectDiagnostics')).toBe('diagnostics');
    expect(verbOf('upgradeDatabase')).toEqual({ action: 'upgrade' });
    expect(typeof model.bindings.get('describeClientConnectivity')?.answer).toBe('function');
    expect(model.bindings.has('listSupportedEnvironments')).toBe(false);
  });
});

describe('resources', () => {
  test("a resource's shape is what its facts say; its fields' roles are read off their names", () => {
    const db = model.resources.get('database');
    expect(db).toMatchObject({ kind: 'opdb.database', shape: 'DatabaseDetails', crnType: 'database', initialState: 'AVAILABLE' });
    expect(db?.fields).toEqual({
      name: 'databaseName',
      crn: 'crn',
      status: 'status',
      environmentCrn: 'environmentCrn',
      environmentName: 'environmentName',
      created: 'creationDate',
      creator: 'creatorCrn',
    });
    expect(model.resources.get('snapshot')?.fields).toMatchObject({
      id: 'snapshotId',
      name: 'snapshotName',
      statusReason: 'failureReason',
    });
  });

  test("a resource's CRN type is what its facts say, else its key as it is: word characters, as CDP's CRN parser takes them", () => {
    const { diagnostics, snapshot, ...rest } = facts.resources;
    const { crnType: _dropped, ...untyped } = diagnostics;
    const two = derive({
      ...table,
      facts: { resources: { ...rest, snapshot: { ...snapshot, crnType: 'tableSnapshot' }, diagnostics: untyped } },
    });
    expect(two.resources.get('snapshot')?.crnType).toBe('tableSnapshot');
    expect(two.resources.get('diagnostics')?.crnType).toBe('diagnostics');
    expect([...two.resources.values()].every((r) => /^\w+$/.test(r.crnType))).toBe(true);
  });

  test('a resource without facts has the shape its describe or list answers', () => {
    const { diagnostics: _dropped, ...rest } = facts.resources;
    const bare = derive({ ...table, facts: { resources: rest } });
    expect(bare.resources.get('diagnostics')?.shape).toBe('DiagnosticsBundle');
    expect(bare.resources.get('diagnostics')?.lifecycle).toBeUndefined();
  });

  test('parents know their children, children their parent', () => {
    expect(model.resources.get('database')?.children.map((c) => c.key)).toEqual(['snapshot', 'restore', 'diagnostics']);
    expect(model.resources.get('snapshot')?.parent?.key).toBe('database');
  });
});

describe("lifecycles from the model's facts", () => {
  const lc = model.resources.get('database')?.lifecycle ?? {};

  test('create passes REQUESTED, then its in-progress state, five minutes spread evenly (the default), and ends AVAILABLE, failing in CREATE_FAILED', () => {
    expect(lc.create).toEqual({
      phases: [
        ['REQUESTED', 2.5],
        ['CREATE_IN_PROGRESS', 2.5],
      ],
      success: 'AVAILABLE',
      failure: 'CREATE_FAILED',
    });
  });

  test('stop and start pass their REQUESTED and IN_PROGRESS states, from the up or stopped state or their own failure', () => {
    expect(lc.stop).toEqual({
      phases: [
        ['STOP_REQUESTED', 1.5],
        ['STOP_IN_PROGRESS', 1.5],
      ],
      success: 'STOPPED',
      failure: 'STOP_FAILED',
      from: ['AVAILABLE', 'STOP_FAILED'],
    });
    expect(lc.start?.from).toEqual(['STOPPED', 'START_FAILED']);
    expect(lc.start?.success).toBe('AVAILABLE');
  });

  test("a delete ends in DELETE_COMPLETED and removes the record (its facts' end is gone); the upgrade passes the update states", () => {
    expect(lc.delete).toEqual({
      phases: [
        ['PRE_DELETE_IN_PROGRESS', 1],
        ['DELETE_IN_PROGRESS', 1],
      ],
      success: 'DELETE_COMPLETED',
      failure: 'DELETE_FAILED',
      removes: true,
    });
    expect(lc.upgrade).toEqual({
      phases: [
        ['UPDATE_REQUESTED', 1.5],
        ['UPDATE_IN_PROGRESS', 1.5],
      ],
      success: 'AVAILABLE',
      failure: 'UPDATE_FAILED',
    });
  });

  test("an action's emulated minutes are the declaration's", () => {
    expect(model.resources.get('diagnostics')?.lifecycle).toEqual({
      create: { phases: [['IN_PROGRESS', 3]], success: 'FINISHED', failure: 'FAILED' },
    });
  });

  test('an update passes UPDATE_REQUESTED, then UPDATE_IN_PROGRESS: the order a client polling it sees, from the facts', () => {
    expect(lc.update?.phases).toEqual([
      ['UPDATE_REQUESTED', 1.5],
      ['UPDATE_IN_PROGRESS', 1.5],
    ]);
  });
});

describe('table mistakes refused when the engine is made', () => {
  const database: Resource = { keys: ['databaseName'] };

  test('an entry of an operation the model does not have', () => {
    expect(() => derive(loose({ database }, { nothing: verbs('database').read() }))).toThrow('opdb: no operation nothing');
  });

  test('a resource no operation shows, without facts', () => {
    expect(() => derive(loose({ widget: { keys: ['widgetName'] } }, {}, { resources: {} }))).toThrow(
      'opdb resource widget: no describe or list operation shows its shape; give it a shape',
    );
  });

  test('a parent that is not a resource', () => {
    expect(() => derive(loose({ snapshot: { keys: ['snapshotName'], lives: { in: 'parent', parent: 'database' } } }, {}))).toThrow(
      'opdb resource snapshot: no parent resource database',
    );
  });

  test('an action its resource has no lifecycle for', () => {
    expect(() => derive(loose({ database }, { describeDatabase: verbs('database').act('explode') }))).toThrow(
      'opdb describeDatabase: database has no action explode in its lifecycle',
    );
  });

  test("fields an entry names its record or environment by that are not in the operation's request, unless it rewrites the request", () => {
    expect(() => derive(loose({ database }, { describeDatabase: verbs('database').read({ keys: ['nope'] }) }))).toThrow(
      'opdb describeDatabase: its request has no field nope',
    );
    expect(() => derive(loose({ database }, { describeDatabase: verbs('database').read({ environment: ['where'] }) }))).toThrow(
      'opdb describeDatabase: its request has no field where',
    );
    const rewritten = verbs('database').read({ keys: ['nope'], rewrite: (_h, sent) => sent });
    expect(derive(loose({ database }, { describeDatabase: rewritten })).bindings.get('describeDatabase')?.keys).toEqual(['nope']);
  });
});
