/**
 * What the resource engine derives from a service's model (engine/derive.ts),
 * on the opdb model with a spec of the older shape (operations placed by
 * their names) and on small specs of its own: each operation's verb and
 * resource from its name (the longest noun first, explicit bindings before
 * names, hand-written operations left out), each resource's shape and the
 * roles of its fields, parents and children, and lifecycles from the
 * model's resource facts (their states in order, each action's emulated
 * minutes, where stop and start may begin, a delete that removes); and the
 * spec mistakes it refuses at start.
 */
import { describe, expect, test } from '@jest/globals';
import { fromSpec } from '../../../../src/lib/emulator/engine/compile.js';
import { deriveService, plural } from '../../../../src/lib/emulator/engine/derive.js';
import type { EngineSpec } from '../../../../src/lib/emulator/engine/spec.js';
import { loadService } from '../../../../src/lib/model/index.js';
import { resources as facts } from '../../../../src/lib/model/services/opdb/resources.js';

const opdb = await loadService('opdb');
/** opdb as an engine spec of the older shape declared it (before its move onto the operation table). */
const spec: EngineSpec = {
  facts,
  resources: {
    database: {
      keys: ['databaseName', 'database'],
      environment: ['environmentName', 'environment'],
      ops: {
        describeClientConnectivity: { verb: 'read', answer: () => ({}) },
        upgradeDatabase: { verb: { action: 'upgrade' }, keys: ['database'], environment: ['environment'] },
      },
    },
    snapshot: { parent: 'database', keys: ['snapshotName'] },
    restore: { parent: 'database', nouns: ['RestoreSnapshot'], keys: ['restoreId'], ops: { restoreSnapshot: 'create' } },
    diagnostics: {
      parent: 'database',
      nouns: ['Diagnostics'],
      keys: ['id'],
      minutes: { create: 3 },
      ops: { collectDiagnostics: 'create' },
    },
  },
  handlers: { listSupportedEnvironments: () => ({ environments: [] }) },
};
const derive = (s: EngineSpec) => deriveService(opdb, fromSpec(s));
const model = derive(spec);
const verbOf = (op: string): unknown => model.bindings.get(op)?.verb;
const resourceOf = (op: string): string | undefined => model.bindings.get(op)?.resource;

describe('plural', () => {
  test('as operation names write plurals: -s, -es after s/x/sh/ch (and the noun itself), -ies after a consonant and y', () => {
    expect(plural('Vw')).toEqual(['Vws']);
    expect(plural('Access')).toEqual(['Accesses', 'Access']);
    expect(plural('Box')).toEqual(['Boxes', 'Box']);
    expect(plural('Policy')).toEqual(['Policies', 'Policys']);
    expect(plural('Key')).toEqual(['Keys']);
  });
});

describe('operations placed as verbs on resources', () => {
  test('by the word their name begins with: create, describe, list, drop, update, and lifecycle actions', () => {
    expect([verbOf('createDatabase'), resourceOf('createDatabase')]).toEqual(['create', 'database']);
    expect(verbOf('describeDatabase')).toBe('read');
    expect(verbOf('listDatabases')).toBe('list');
    expect(verbOf('dropDatabase')).toBe('delete');
    expect(verbOf('updateDatabase')).toBe('update');
    expect(verbOf('startDatabase')).toEqual({ action: 'start' });
    expect(verbOf('stopDatabase')).toEqual({ action: 'stop' });
  });

  test("a name places an operation only on the noun it spells out: createSnapshot is the snapshot's, not the database's", () => {
    expect([resourceOf('createSnapshot'), verbOf('createSnapshot')]).toEqual(['snapshot', 'create']);
    expect([resourceOf('listSnapshots'), verbOf('listSnapshots')]).toEqual(['snapshot', 'list']);
    expect([resourceOf('deleteSnapshot'), verbOf('deleteSnapshot')]).toEqual(['snapshot', 'delete']);
  });

  test('where two nouns fit a name, the longer one wins', () => {
    const both = derive({
      resources: {
        snapshot: { keys: ['snapshotName'], shape: 'Snapshot' },
        snapshotList: { nouns: ['Snapshots'], keys: ['snapshotName'], shape: 'Snapshot' },
      },
    });
    // listSnapshots is the list of Snapshot and the noun Snapshots alike.
    expect(both.bindings.get('listSnapshots')).toMatchObject({ resource: 'snapshotList', verb: 'list' });
    expect(both.bindings.get('createSnapshot')).toMatchObject({ resource: 'snapshot', verb: 'create' });
  });

  test('explicit bindings place what names cannot, with their answers; hand-written operations are not placed', () => {
    expect([resourceOf('restoreSnapshot'), verbOf('restoreSnapshot')]).toEqual(['restore', 'create']);
    expect(resourceOf('collectDiagnostics')).toBe('diagnostics');
    expect(verbOf('upgradeDatabase')).toEqual({ action: 'upgrade' });
    expect(typeof model.bindings.get('describeClientConnectivity')?.answer).toBe('function');
    expect(model.bindings.has('listSupportedEnvironments')).toBe(false);
  });
});

describe('resources', () => {
  test("a resource's shape is what its describe shows; its fields' roles are read off their names", () => {
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

  test("a resource's CRN type is what its facts or spec say, else its key as it is: word characters, as CDP's CRN parser takes them", () => {
    const two = derive({
      resources: {
        snapshot: { keys: ['snapshotName'], shape: 'Snapshot', crnType: 'tableSnapshot' },
        snapshotList: { nouns: ['Snapshots'], keys: ['snapshotName'], shape: 'Snapshot' },
      },
    });
    expect(two.resources.get('snapshot')?.crnType).toBe('tableSnapshot');
    expect(two.resources.get('snapshotList')?.crnType).toBe('snapshotList');
    expect([...two.resources.values()].every((r) => /^\w+$/.test(r.crnType))).toBe(true);
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

  test("an action's emulated minutes are the spec's; a lifecycle declared in a spec without facts is taken as it is", () => {
    expect(model.resources.get('diagnostics')?.lifecycle).toEqual({
      create: { phases: [['IN_PROGRESS', 3]], success: 'FINISHED', failure: 'FAILED' },
    });
    const declared = { create: { phases: [['IN_PROGRESS', 2]], success: 'FINISHED', failure: 'FAILED' } } as const;
    const own = derive({
      resources: {
        diagnostics: { parent: 'database', keys: ['id'], shape: 'DiagnosticsBundle', lifecycle: declared },
        database: spec.resources.database ?? { keys: [] },
      },
    });
    expect(own.resources.get('diagnostics')?.lifecycle).toEqual(declared);
  });

  test('an update passes UPDATE_REQUESTED, then UPDATE_IN_PROGRESS: the order a client polling it sees, from the facts', () => {
    expect(lc.update?.phases).toEqual([
      ['UPDATE_REQUESTED', 1.5],
      ['UPDATE_IN_PROGRESS', 1.5],
    ]);
  });
});

describe('spec mistakes refused when the engine is made', () => {
  const deriving = (resources: EngineSpec['resources']) => () => derive({ resources });

  test('an explicit binding of an operation the model does not have', () => {
    expect(deriving({ database: { keys: ['databaseName'], ops: { nothing: 'read' } } })).toThrow('opdb: no operation nothing');
  });

  test('a resource no operation shows, without a shape', () => {
    expect(deriving({ widget: { keys: ['widgetName'] } })).toThrow(
      'opdb resource widget: no describe or list operation shows its shape; give it a shape',
    );
  });

  test('a parent that is not a resource', () => {
    expect(deriving({ snapshot: { keys: ['snapshotName'], parent: 'database' } })).toThrow(
      'opdb resource snapshot: no parent resource database',
    );
  });
});
