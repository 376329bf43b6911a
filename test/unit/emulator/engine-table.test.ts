/**
 * The operation table and the declaration language (engine/table.ts,
 * declare.ts) on a made-up service (test/helpers/engine-fixture.ts): each
 * verb (create, read, list, update, delete, an action, work, an operation
 * record, events), code entries that hand on to a verb, the hooks keyed by
 * the change they are for, both deletion ends (kept with a retention and a
 * list flag, gone), ids, a place another service provides, the guard, and
 * how the coverage table names each entry; a seed, run before the world
 * reads what lives in an environment.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import type { DependentKind, Doc, RequestContext, Scope } from '../../../src/lib/emulator/engine/context.js';
import { Engine, serve } from '../../../src/lib/emulator/engine/index.js';
import { readRecord, type EngineRecord } from '../../../src/lib/emulator/engine/records.js';
import type { Hook } from '../../../src/lib/emulator/engine/declare.js';
import { code, defineService, verbs, type OperationTable } from '../../../src/lib/emulator/engine/table.js';
import { ApiError, failedPrecondition } from '../../../src/lib/emulator/errors.js';
import { preCreatedEnvironmentCrn } from '../../../src/lib/emulator/shared/pre-created.js';
import { pagingOf } from '../../../src/lib/emulator/engine/paging.js';
import { Store } from '../../../src/lib/emulator/store.js';
import { World } from '../../../src/lib/emulator/world.js';
import { guarded, VERSIONS, widgetFacts, widgetModel, widgets, type WidgetOperation } from '../../helpers/engine-fixture.js';
import { clockAt, refusal, UNIT_ACCOUNT, UNIT_ADMIN, UNIT_INFO, worldProviders } from '../../helpers/emulator-unit.js';

const MIN = 60_000;
const HOST = 'crn:cdp:hosts:us-west-1:acct-1:host:h1';
const providers = await worldProviders();
/** The world as the server makes it, but for its clusters: one made-up host a mount lives in. */
const world = new World([], {
  ...providers,
  clusters: () => ({
    all: () => [],
    find: () => undefined,
    lakeOf: () => undefined,
    place: (ref) => (ref === HOST ? { scope: ref, where: 'host h1' } : undefined),
  }),
});
const served = serve(widgetModel, widgets);

let store: Store;
let now: number;
const clock = clockAt(() => now);

function call(op: WidgetOperation, req: Doc = {}, by: ReturnType<typeof serve> = served): Doc {
  const h = by.handlers[op];
  if (!h) throw new Error(`no handler for ${op}`);
  const o = widgetModel.operation(op);
  const ctx: RequestContext = {
    store,
    clock,
    caller: UNIT_ADMIN,
    info: UNIT_INFO,
    world,
    op: { service: 'widgets', name: op, paging: pagingOf(o) },
  };
  return store.transaction(() => h(req, ctx));
}
const fails = (op: WidgetOperation, req: Doc = {}): ApiError => refusal(() => call(op, req), op);
const cluster = (name = 'c1'): Doc => call('describeCluster', { clusterName: name }).cluster as Doc;
const CLUSTER = { environmentName: 'sales-env', clusterName: 'c1' };

beforeEach(() => {
  store = new Store(':memory:', UNIT_ACCOUNT);
  now = Date.parse('2026-01-01T00:00:00Z');
  guarded.length = 0;
});

describe('the table', () => {
  test('is exact at compile time: an operation left out, or one the model does not have, is a type error', () => {
    const r = { cluster: {}, certificate: {}, backup: {}, note: {}, mount: {} } as const;
    const make = defineService<'createNote' | 'listNotes'>();
    // Every operation there: fine.
    const ok = make({
      service: 'x',
      facts: widgetFacts,
      resources: { ...r, note: { keys: ['noteName'] } } as never,
      operations: (v) => ({ createNote: v.note.create(), listNotes: v.note.list() }),
    });
    expect(Object.keys(ok.operations)).toEqual(['createNote', 'listNotes']);
    // Checked by the compiler (npm run typecheck), never run: each call below must be a type error.
    const wrong = (): void => {
      // @ts-expect-error listNotes is missing
      make({ service: 'x', facts: widgetFacts, resources: r as never, operations: (v) => ({ createNote: v.note.create() }) });
      make({
        service: 'x',
        facts: widgetFacts,
        resources: r as never,
        // @ts-expect-error listNotez is no operation of the model, even through a spread
        operations: (v) => ({ ...{ listNotez: v.note.list() }, createNote: v.note.create(), listNotes: v.note.list() }),
      });
      make({
        service: 'x',
        facts: widgetFacts,
        resources: r as never,
        // @ts-expect-error notes is no resource of the facts
        operations: (v) => ({ createNote: v.notes.create(), listNotes: v.note.list() }),
      });
    };
    expect(typeof wrong).toBe('function');
    const table: OperationTable<'a', 'note'> = { a: { serve: 'code', run: () => ({}) } };
    expect(table.a.serve).toBe('code');
  });

  test('refuses at start what the compiler cannot check: an action its resource does not have', () => {
    const bad = {
      ...widgets,
      operations: { ...widgets.operations, stopCluster: { ...widgets.operations.stopCluster, verb: { action: 'halt' } } },
    };
    expect(() => Engine.of(widgetModel, bad)).toThrow(/no action halt/);
  });

  test('names how each operation is served: declared, with the hooks that run, or the code entry', () => {
    expect(served.servedBy('listBackups')).toEqual({ how: 'declared', what: 'backup.list' });
    expect(served.servedBy('createCluster')).toEqual({ how: 'hook', what: 'cluster.create', hooks: ['check.create', 'fill', 'show'] });
    expect(served.servedBy('upgradeCluster')?.hooks).toEqual(['check.upgrade', 'effect.upgrade', 'show']);
    expect(served.servedBy('renewCertificate')).toEqual({
      how: 'hook',
      what: 'cluster.work:renew',
      hooks: ['check.renew', 'effect.renew'],
    });
    expect(served.servedBy('describeNote')).toEqual({ how: 'hook', what: 'note.read', hooks: ['answer'] });
    expect(served.servedBy('validateCluster')).toEqual({ how: 'code', what: 'validateCluster' });
    expect(served.servedBy('getOperation')).toEqual({ how: 'declared', what: 'cluster.operation' });
    expect(served.servedBy('listSizes')).toEqual({ how: 'declared', what: 'fixed answer' });
  });

  test('the guard runs before every entry, code ones too', () => {
    call('listNotes');
    call('validateCluster', { ...CLUSTER, clusterName: 'bad_name' });
    expect(guarded).toEqual(['listNotes', 'validateCluster']);
  });

  test("a service's own dependent kinds (records not the engine's yet) live in environments beside its resources", () => {
    const gadgets: DependentKind = { service: 'widgets', noun: 'gadget', in: () => [] };
    const engineKinds = served.dependents.map((k) => k.noun);
    const withOwn = serve(widgetModel, { ...widgets, dependents: [gadgets] });
    expect(withOwn.dependents.map((k) => k.noun)).toEqual([...engineKinds, 'gadget']);
    expect(engineKinds).not.toContain('gadget');
  });
});

describe('verbs', () => {
  test('create and read: the lifecycle from the facts, the minutes from the declaration, fill and show', () => {
    const made = call('createCluster', CLUSTER).cluster as Doc;
    expect(made).toMatchObject({ clusterName: 'c1', status: 'CREATING', version: '1.0', phase: 'busy' });
    expect(String(made.clusterId)).toMatch(/^widget-[a-z0-9]{8}$/);
    expect(String(made.crn)).toMatch(/^crn:cdp:widgets:us-west-1:acct-1:cluster:/);
    now += 10 * MIN;
    expect(cluster()).toMatchObject({ status: 'RUNNING', phase: 'idle' });
    expect(fails('createCluster', CLUSTER).code).toBe('ALREADY_EXISTS');
    expect(fails('createCluster', { ...CLUSTER, clusterName: 'taken' }).message).toBe('that name is reserved');
  });

  test("a service's CRNs name another service when it says so (crnService), its own otherwise", () => {
    const other = serve(widgetModel, { ...widgets, crnService: 'gadgets' });
    const made = (other.handlers.createCluster?.(CLUSTER, {
      store,
      clock,
      caller: UNIT_ADMIN,
      info: UNIT_INFO,
      world,
      op: { service: 'widgets', name: 'createCluster' },
    }) ?? {}) as { cluster?: Doc };
    expect(String(made.cluster?.crn)).toMatch(/^crn:cdp:gadgets:us-west-1:acct-1:cluster:/);
    expect(String((call('createCluster', { ...CLUSTER, clusterName: 'c2' }).cluster as Doc).crn)).toMatch(/^crn:cdp:widgets:/);
  });

  test("a service's CRNs in another partition (crnPartition), ending with a resource's name and id when it says so (crnTail)", () => {
    const altus = serve(widgetModel, {
      ...widgets,
      crnPartition: 'altus',
      resources: { ...widgets.resources, cluster: { ...widgets.resources.cluster, crnTail: 'name/id' } },
    });
    const ctx = (name: WidgetOperation): RequestContext => ({
      store,
      clock,
      caller: UNIT_ADMIN,
      info: UNIT_INFO,
      world,
      op: { service: 'widgets', name },
    });
    const made = (altus.handlers.createCluster?.(CLUSTER, ctx('createCluster')) ?? {}) as { cluster?: Doc };
    const crn = String(made.cluster?.crn);
    expect(crn).toMatch(/^crn:altus:widgets:us-west-1:acct-1:cluster:c1\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // The record is found by the CRN it was given.
    const found = altus.handlers.describeCluster?.({ ...CLUSTER, clusterName: crn }, ctx('describeCluster')) as { cluster?: Doc };
    expect(found.cluster?.clusterName).toBe('c1');
    // Without the options: the cdp partition, the id alone.
    expect(String((call('createCluster', { ...CLUSTER, clusterName: 'c2' }).cluster as Doc).crn)).toMatch(/^crn:cdp:widgets:[^/]+$/);
  });

  test('an action: its from states, its check and effect; an idempotent one answers as it is', () => {
    call('createCluster', CLUSTER);
    expect(fails('stopCluster', { clusterName: 'c1' }).message).toMatch(/is CREATING; stop needs it RUNNING or STOP_FAILED/);
    now += 10 * MIN;
    call('upgradeCluster', { clusterName: 'c1' });
    expect(cluster()).toMatchObject({ status: 'UPGRADING', version: '1.0' });
    now += 4 * MIN;
    expect(cluster()).toMatchObject({ status: 'RUNNING', version: '1.1' });
    call('upgradeCluster', { clusterName: 'c1' });
    now += 4 * MIN;
    expect(cluster().version).toBe(VERSIONS[2]);
    expect(fails('upgradeCluster', { clusterName: 'c1' }).message).toBe('already the newest');
    // The answer has no cluster: the `clusterStatus` its show hook computes is placed there.
    expect(call('stopCluster', { clusterName: 'c1' })).toEqual({
      clusterStatus: { status: 'STOPPING', message: 'the cluster is stopping' },
    });
    now += 3 * MIN;
    expect(call('stopCluster', { clusterName: 'c1' }).clusterStatus).toMatchObject({ status: 'STOPPED' });
    expect(cluster().clusterStatus).toBeUndefined();
  });

  test('unchangedIn: an action asked for in one of its states changes nothing, once its checks pass', () => {
    const base = widgets.resources.cluster;
    const unchanged = serve(widgetModel, {
      ...widgets,
      resources: { ...widgets.resources, cluster: { ...base, unchangedIn: { stop: ['STOPPING'] } } },
    });
    const stop = (by: ReturnType<typeof serve>): Doc => call('stopCluster', { clusterName: 'c1' }, by).clusterStatus as Doc;
    call('createCluster', CLUSTER);
    // Its checks still refuse first (from RUNNING or STOP_FAILED).
    expect(refusal(() => stop(unchanged), 'stopCluster').message).toMatch(/is CREATING; stop needs it RUNNING/);
    now += 10 * MIN;
    expect(stop(unchanged).status).toBe('STOPPING');
    now += 2 * MIN;
    // Asked again while it stops: the stop under way is kept (it ends 3 minutes after it began, not after this).
    expect(stop(unchanged).status).toBe('STOPPING');
    now += MIN;
    expect(cluster().status).toBe('STOPPED');
    // Without it, the stop's from states refuse the second stop.
    call('startCluster', { clusterName: 'c1' });
    now += 3 * MIN;
    stop(served);
    expect(fails('stopCluster', { clusterName: 'c1' }).message).toMatch(/is STOPPING; stop needs it RUNNING/);
  });

  test('an update starts the update action; what it sets shows once it has succeeded', () => {
    call('createCluster', { ...CLUSTER, size: 3 });
    now += 10 * MIN;
    call('updateCluster', { clusterName: 'c1', size: 5 });
    expect(cluster()).toMatchObject({ status: 'UPGRADING', size: 3 });
    now += MIN;
    expect(cluster()).toMatchObject({ status: 'RUNNING', size: 5 });
  });

  test("an update's effect: what it sets beyond the request's fields, once it has succeeded, named by the coverage table", () => {
    const cl = widgets.resources.cluster;
    const doubling = serve(widgetModel, {
      ...widgets,
      resources: {
        ...widgets.resources,
        cluster: {
          ...cl,
          hooks: { ...cl.hooks, effect: { ...cl.hooks?.effect, update: (_h, rec) => ({ size: Number(rec.doc.size) * 2 }) } },
        },
      },
    });
    expect(doubling.servedBy('updateCluster')?.hooks).toEqual(['effect.update', 'show']);
    expect(served.servedBy('updateCluster')?.hooks).toEqual(['show']);
    const ctx = (name: WidgetOperation): RequestContext => ({
      store,
      clock,
      caller: UNIT_ADMIN,
      info: UNIT_INFO,
      world,
      op: { service: 'widgets', name },
    });
    call('createCluster', { ...CLUSTER, size: 3 });
    now += 10 * MIN;
    store.transaction(() => doubling.handlers.updateCluster?.({ clusterName: 'c1', size: 5 }, ctx('updateCluster')));
    expect(cluster()).toMatchObject({ status: 'UPGRADING', size: 3 });
    now += MIN;
    expect(cluster()).toMatchObject({ status: 'RUNNING', size: 10 });
  });

  test('change: an update whose hooks are keyed by its own name, for a resource several updates change', () => {
    const cl = widgets.resources.cluster;
    const named = serve(widgetModel, {
      ...widgets,
      resources: {
        ...widgets.resources,
        cluster: {
          ...cl,
          hooks: {
            ...cl.hooks,
            check: {
              ...cl.hooks?.check,
              resize: (_h, _rec, req) => {
                if (Number(req.size) > 9) throw failedPrecondition('too big');
              },
            },
            effect: { ...cl.hooks?.effect, resize: (_h, rec) => ({ size: Number(rec.doc.size) + 1 }), update: () => ({ size: 0 }) },
          },
        },
      },
      operations: { ...widgets.operations, updateCluster: verbs<'cluster'>('cluster').update({ change: 'resize' }) },
    });
    expect(named.servedBy('updateCluster')?.hooks).toEqual(['check.resize', 'effect.resize', 'show']);
    call('createCluster', { ...CLUSTER, size: 3 });
    now += 10 * MIN;
    call('updateCluster', { clusterName: 'c1', size: 5 }, named);
    now += MIN;
    // Its own effect ran, not the update's.
    expect(cluster()).toMatchObject({ status: 'RUNNING', size: 6 });
    expect(() => call('updateCluster', { clusterName: 'c1', size: 10 }, named)).toThrow('too big');
    const wrong = {
      ...widgets,
      operations: { ...widgets.operations, startCluster: verbs<'cluster'>('cluster').act('start', { change: 'x' }) },
    };
    expect(() => Engine.of(widgetModel, wrong)).toThrow(/change \(x\) names an update's hooks/);
  });

  test('operation records: the newest of a record, or one by id; events of its actions', () => {
    call('createCluster', CLUSTER);
    now += 10 * MIN;
    call('upgradeCluster', { clusterName: 'c1' });
    const newest = call('getOperation', { clusterName: 'c1' });
    expect(newest).toMatchObject({ operationName: 'UPGRADE', operationStatus: 'RUNNING' });
    now += 4 * MIN;
    expect(call('getOperation', { operationId: newest.operationId })).toMatchObject({ operationStatus: 'FINISHED' });
    expect(fails('getOperation', {}).code).toBe('INVALID_ARGUMENT');
    const events = call('listClusterEvents', { clusterName: 'c1' }).events as Doc[];
    expect(events.map((e) => e.eventType)).toEqual(['CREATE', 'UPGRADE']);
  });

  test('work beside a record: one at a time, its own operation, the status stays, the effect reaches the record when it ends', () => {
    call('createCluster', CLUSTER);
    expect(fails('renewCertificate', { clusterName: 'c1' }).message).toMatch(/a certificate renewal needs it RUNNING/);
    now += 10 * MIN;
    const { operationId } = call('renewCertificate', { clusterName: 'c1' });
    expect(typeof operationId).toBe('string');
    expect(cluster()).toMatchObject({ status: 'RUNNING', certIssued: 0 });
    expect(fails('renewCertificate', { clusterName: 'c1' }).message).toMatch(/already running renew \(operation /);
    expect(call('getOperation', { operationId })).toMatchObject({ operationName: 'RENEW_CERTIFICATE', operationStatus: 'RUNNING' });
    const started = now;
    now += 5 * MIN;
    expect(cluster()).toMatchObject({ status: 'RUNNING', certIssued: started });
    expect(call('getOperation', { operationId }).operationStatus).toBe('FINISHED');
    // Once delivered, a later read does not apply it again.
    now += MIN;
    expect(cluster().certIssued).toBe(started);
    call('renewCertificate', { clusterName: 'c1' });
  });

  test('running work named by its operation in refusals, when its resource says so', () => {
    const resources = { ...widgets.resources, certificate: { ...widgets.resources.certificate, work: { named: 'operation' as const } } };
    const named = serve(widgetModel, { ...widgets, resources });
    const callNamed = (op: WidgetOperation, req: Doc): Doc => call(op, req, named);
    call('createCluster', CLUSTER);
    now += 10 * MIN;
    callNamed('renewCertificate', { clusterName: 'c1' });
    expect(refusal(() => callNamed('renewCertificate', { clusterName: 'c1' }), 'renewCertificate').message).toMatch(
      /is already running renew certificate \(operation /,
    );
  });

  test("work whose resource's check refuses it while other work runs: the engine does not (refusedBy: 'check')", () => {
    const resources = {
      ...widgets.resources,
      certificate: {
        ...widgets.resources.certificate,
        work: { refusedBy: 'check' as const },
        hooks: {
          check: {
            renew: (h: Hook<string>, rec: Readonly<EngineRecord>) => {
              const works = h.records('certificate');
              const busy = works.all(rec.id).find((x) => works.busy(x));
              if (busy) throw failedPrecondition(`certificates of ${rec.name ?? ''} are ${works.state(busy)}`);
            },
          },
        },
      },
    };
    const own = serve(widgetModel, { ...widgets, resources });
    call('createCluster', CLUSTER);
    now += 10 * MIN;
    call('renewCertificate', { clusterName: 'c1' }, own);
    expect(refusal(() => call('renewCertificate', { clusterName: 'c1' }, own), 'renewCertificate').message).toMatch(
      /^certificates of c1 are [A-Z_]+$/,
    );
    // Without it, the engine refuses first, naming the running work.
    call('createCluster', { ...CLUSTER, clusterName: 'c2' });
    now += 10 * MIN;
    call('renewCertificate', { clusterName: 'c2' });
    expect(fails('renewCertificate', { clusterName: 'c2' }).message).toMatch(/already running renew \(operation /);
  });

  test('work of a record named fail-<kind>- fails its first run only', () => {
    call('createCluster', { ...CLUSTER, clusterName: 'fail-renew-x' });
    now += 10 * MIN;
    const first = call('renewCertificate', { clusterName: 'fail-renew-x' });
    now += 5 * MIN;
    expect(call('getOperation', { operationId: first.operationId }).operationStatus).toBe('FAILED');
    expect(cluster('fail-renew-x').certIssued).toBe(0);
    const again = call('renewCertificate', { clusterName: 'fail-renew-x' });
    now += 5 * MIN;
    expect(call('getOperation', { operationId: again.operationId }).operationStatus).toBe('FINISHED');
  });

  test('a code entry answers first, or hands the request on to a verb', () => {
    expect(call('validateCluster', { ...CLUSTER, clusterName: 'bad_name' })).toEqual({ valid: false });
    const ok = call('validateCluster', CLUSTER);
    expect(ok).toMatchObject({ valid: true, cluster: { clusterName: 'c1', status: 'CREATING' } });
  });

  test('a fixed answer: the data, conformed to the response shape', () => {
    expect(call('listSizes')).toEqual({
      sizes: [
        { name: 'small', nodes: 3 },
        { name: 'large', nodes: 10 },
      ],
    });
  });

  test('an entry answer; stamped ids; repeated names', () => {
    const note = call('createNote', { noteName: 'n1', text: 'hi' }).note as Doc;
    expect(String(note.noteId)).toMatch(/^note-\d+-[a-z0-9]{4}$/);
    expect(call('describeNote', { noteName: 'n1' }).note).toMatchObject({ text: 'hi!' });
    call('createCluster', CLUSTER);
    now += 10 * MIN;
    call('createBackup', { clusterName: 'c1', backupName: 'nightly' });
    call('createBackup', { clusterName: 'c1', backupName: 'nightly' });
    expect((call('listBackups', { clusterName: 'c1' }).backups as Doc[]).length).toBe(2);
  });

  test('a resource whose names replace: a create under a name taken changes that record in place', () => {
    const replacing = serve(widgetModel, {
      ...widgets,
      resources: { ...widgets.resources, note: { ...widgets.resources.note, names: 'replace' } },
    });
    const create = (req: Doc): Doc => call('createNote', req, replacing).note as Doc;
    const first = create({ noteName: 'n1', text: 'hi' });
    now += MIN;
    const again = create({ noteName: 'n1', text: 'there' });
    expect(again).toEqual({ ...first, text: 'there' });
    expect(call('listNotes').notes).toEqual([again]);
    // Without it, the name is taken.
    expect(fails('createNote', { noteName: 'n1' }).code).toBe('ALREADY_EXISTS');
  });

  test('a resource whose updates rename it: the name an update gives becomes its name, unique in its scope', () => {
    // describeNote made an update that names a note by its id and gives it the request's text as its new name.
    const updating = (renames: boolean): ReturnType<typeof serve> =>
      serve(widgetModel, {
        ...widgets,
        resources: { ...widgets.resources, note: { ...widgets.resources.note, ...(renames ? { renames: true as const } : {}) } },
        operations: {
          ...widgets.operations,
          describeNote: verbs('note').update({
            keys: ['noteId'],
            rewrite: (h, sent) => ({ noteId: h.locate('note', { noteName: sent.noteName }).id, noteName: sent.text }),
          }),
        },
      });
    const first = call('createNote', { noteName: 'n1', text: 'hi' }).note as Doc;
    call('createNote', { noteName: 'n2' });
    const rename = (from: string, to: string, renames = true): Doc =>
      call('describeNote', { noteName: from, text: to }, updating(renames)).note as Doc;
    expect(rename('n1', 'n3')).toEqual({ ...first, noteName: 'n3' });
    expect((call('listNotes').notes as Doc[]).map((n) => n.noteName)).toEqual(['n3', 'n2']);
    expect(fails('describeNote', { noteName: 'n1' }).code).toBe('NOT_FOUND');
    expect(refusal(() => rename('n3', 'n2'), 'describeNote')).toMatchObject({ code: 'ALREADY_EXISTS', message: 'note n2 already exists' });
    // Without it, an update leaves the name as it is.
    expect(rename('n2', 'n4', false).noteName).toBe('n2');
  });

  test('keep: what a change keeps beside the record, after its check and effect, never shown', () => {
    const base = widgets.resources.cluster;
    const keeping = serve(widgetModel, {
      ...widgets,
      resources: {
        ...widgets.resources,
        cluster: {
          ...base,
          hooks: {
            ...base.hooks,
            keep: {
              create: (_h, _rec, req) => ({ token: req.size }),
              update: (_h, rec) => ({ sizeBefore: rec.doc.size }),
              upgrade: (_h, rec) => ({ versionBefore: rec.doc.version }),
            },
            // The phase shows what was kept, so the test can read it.
            show: (_h, rec) => ({ phase: [rec.data?.token, rec.data?.sizeBefore, rec.data?.versionBefore].map(String).join('/') }),
          },
        },
      },
    });
    expect(keeping.servedBy('createCluster')?.hooks).toEqual(['check.create', 'fill', 'keep.create', 'show']);
    expect(keeping.servedBy('updateCluster')?.hooks).toEqual(['keep.update', 'show']);
    expect(keeping.servedBy('upgradeCluster')?.hooks).toEqual(['check.upgrade', 'effect.upgrade', 'keep.upgrade', 'show']);
    const run = (op: WidgetOperation, req: Doc): Doc => call(op, req, keeping);
    const shown = (): Doc => run('describeCluster', { clusterName: 'c1' }).cluster as Doc;
    run('createCluster', { ...CLUSTER, size: 3 });
    expect(shown()).toMatchObject({ phase: '3/undefined/undefined', size: 3 });
    now += 10 * MIN;
    run('updateCluster', { clusterName: 'c1', size: 5 });
    now += MIN;
    // The update's hook saw the request's fields on the record; its effect shows once it has succeeded.
    expect(shown()).toMatchObject({ phase: '3/5/undefined', size: 5 });
    run('upgradeCluster', { clusterName: 'c1' });
    now += 4 * MIN;
    expect(shown()).toMatchObject({ phase: '3/5/1.0', version: '1.1' });
    // A change its check refuses keeps nothing.
    run('upgradeCluster', { clusterName: 'c1' });
    now += 4 * MIN;
    expect(() => run('upgradeCluster', { clusterName: 'c1' })).toThrow('already the newest');
    expect(shown()).toMatchObject({ phase: '3/5/1.1', version: VERSIONS[2] });
  });

  test('a resource read from the world: its reads and lists serve what another service keeps; nothing else is served', () => {
    const kept = [
      { id: 'n-1', name: 'n1', doc: { noteName: 'n1', text: 'kept elsewhere' } },
      { id: 'n-2', name: 'n2', doc: { noteName: 'n2', text: 'and this' } },
    ];
    const readOnly = {
      ...widgets,
      resources: {
        ...widgets.resources,
        note: { keys: ['noteName'], readsFrom: (_h: unknown, scope: string) => kept.map((x) => readRecord(x, scope)) },
      },
    };
    const reading = serve(widgetModel, { ...readOnly, operations: { ...widgets.operations, createNote: code(() => ({})) } });
    const ask = (op: 'describeNote' | 'listNotes', req: Doc): Doc => call(op, req, reading);
    expect(ask('listNotes', {}).notes).toEqual(kept.map((x) => x.doc));
    // By its name, id or CRN; the entry's answer as for a record of its own.
    expect(ask('describeNote', { noteName: 'n-2' }).note).toEqual({ noteName: 'n2', text: 'and this!' });
    expect(ask('describeNote', { noteName: 'n1' }).note).toEqual({ noteName: 'n1', text: 'kept elsewhere!' });
    expect(refusal(() => ask('describeNote', { noteName: 'n3' }), 'describeNote')).toMatchObject({
      code: 'NOT_FOUND',
      message: 'note n3 not found',
    });
    // A create (or any verb but a read and a list) of what another service keeps is refused at start.
    expect(() => Engine.of(widgetModel, readOnly)).toThrow(/note is read from the world/);
  });

  test('built-ins: records every account sees beside its own, listed first, found by name or CRN, never changed or stored', () => {
    const crn = 'crn:cdp:widgets:us-west-1:cloudera:note:n-0';
    const withBuiltIns = serve(widgetModel, {
      ...widgets,
      resources: {
        ...widgets.resources,
        note: { ...widgets.resources.note, builtIns: () => [{ name: 'Welcome', crn, doc: { noteName: 'Welcome', text: 'hi' } }] },
      },
      operations: { ...widgets.operations, createMount: code((h, req) => h.serve(verbs<'note'>('note').delete(), req)) },
    });
    const run = (op: WidgetOperation, req: Doc): Doc => call(op, req, withBuiltIns);
    run('createNote', { noteName: 'mine', text: 'own' });
    expect((run('listNotes', {}).notes as Doc[]).map((n) => n.noteName)).toEqual(['Welcome', 'mine']);
    // A list's filters apply to them too.
    expect((run('listNotes', { text: 'own' }).notes as Doc[]).map((n) => n.noteName)).toEqual(['mine']);
    expect(run('describeNote', { noteName: 'welcome' }).note).toEqual({ noteName: 'Welcome', text: 'hi!' });
    expect(run('describeNote', { noteName: crn }).note).toMatchObject({ noteName: 'Welcome' });
    expect(refusal(() => run('createNote', { noteName: 'WELCOME' }), 'createNote')).toMatchObject({
      code: 'ALREADY_EXISTS',
      message: 'note WELCOME already exists (a built-in one)',
    });
    expect(refusal(() => run('createMount', { noteName: 'Welcome' }), 'createMount')).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: "note Welcome is built in; only an account's own can be changed",
    });
    // Nothing of them is stored, and a table without them sees only the account's own.
    expect(store.count('widgets.note')).toBe(1);
    expect((call('listNotes', {}).notes as Doc[]).map((n) => n.noteName)).toEqual(['mine']);
  });

  test('each: a delete of the records a request field lists, each as a delete of one, all or none', () => {
    const bulk = serve(widgetModel, {
      ...widgets,
      resources: {
        ...widgets.resources,
        note: {
          ...widgets.resources.note,
          hooks: {
            check: {
              delete: (_h, rec) => {
                if (rec.name === 'pinned') throw failedPrecondition('note pinned is pinned');
              },
            },
          },
          builtIns: () => [{ name: 'Welcome', doc: { noteName: 'Welcome' } }],
        },
      },
      operations: { ...widgets.operations, listNotes: code((h, req) => h.serve(verbs<'note'>('note').delete({ each: 'noteNames' }), req)) },
    });
    for (const n of ['n1', 'n2', 'pinned']) call('createNote', { noteName: n, text: n });
    const del = (names: unknown): ApiError | Doc => {
      try {
        return call('listNotes', { noteNames: names }, bulk);
      } catch (e) {
        if (e instanceof ApiError) return e;
        throw e;
      }
    };
    const names = (): unknown[] => (call('listNotes').notes as Doc[]).map((n) => n.noteName);
    // One refused (its check, a built-in one, one not there, none given): none deleted.
    expect(del(['n1', 'pinned'])).toMatchObject({ code: 'FAILED_PRECONDITION', message: 'note pinned is pinned' });
    expect(del(['n1', 'welcome'])).toMatchObject({ code: 'FAILED_PRECONDITION', message: expect.stringMatching(/Welcome is built in/) });
    expect(del(['n1', 'n3'])).toMatchObject({ code: 'NOT_FOUND', message: 'note n3 not found' });
    expect(del([])).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(names()).toEqual(['n1', 'n2', 'pinned']);
    // The answer lists them as they were, a name given twice twice.
    expect(del(['n1', 'N2', 'n1'])).toEqual({
      notes: ['n1', 'n2', 'n1'].map((n) => ({ noteName: n, text: n, noteId: expect.any(String) })),
    });
    expect(names()).toEqual(['pinned']);
    // Only a delete's request list field is one.
    const wrong = { ...widgets, operations: { ...widgets.operations, listNotes: verbs<'note'>('note').list({ each: 'noteName' }) } };
    expect(() => Engine.of(widgetModel, wrong)).toThrow(/each \(noteName\) is a list field of a delete's request/);
  });

  test('keep: what a new record keeps beside its fields, never shown; failsFor: a fail-<action>- name of an action of others', () => {
    const variant = serve(widgetModel, {
      ...widgets,
      resources: {
        ...widgets.resources,
        note: { ...widgets.resources.note, hooks: { keep: { create: (_h, _rec, req) => ({ said: req.text }) } } },
        backup: { ...widgets.resources.backup, failsFor: ['restore'] },
      },
      operations: {
        ...widgets.operations,
        describeNote: verbs<'note'>('note').read({
          answer: (_h, rec) => ({ note: { ...rec.doc, text: `kept ${String(rec.data?.said)}` } }),
        }),
      },
    });
    expect(variant.servedBy('createNote')).toEqual({ how: 'hook', what: 'note.create', hooks: ['keep.create'] });
    expect(call('createNote', { noteName: 'n1', text: 'hi' }, variant).note).not.toHaveProperty('said');
    expect(call('describeNote', { noteName: 'n1' }, variant).note).toMatchObject({ text: 'kept hi' });
    call('createCluster', CLUSTER);
    now += 10 * MIN;
    call('createBackup', { clusterName: 'c1', backupName: 'fail-restore-x' }, variant);
    call('createBackup', { clusterName: 'c1', backupName: 'fail-restore-y' });
    now += 10 * MIN;
    const backups = call('listBackups', { clusterName: 'c1' }).backups as Doc[];
    expect(backups.map((b) => [b.backupName, b.status])).toEqual([
      ['fail-restore-x', 'SUCCESSFUL'],
      ['fail-restore-y', 'FAILED'],
    ]);
  });

  test('renames: an update whose effect changes the name field renames the record (lookups by name follow)', () => {
    const rename = (renames: boolean) =>
      serve(widgetModel, {
        ...widgets,
        resources: {
          ...widgets.resources,
          note: {
            ...widgets.resources.note,
            ...(renames ? { renames: true as const } : {}),
            hooks: { effect: { update: (_h, _rec, req) => ({ noteName: `${String(req.text)}` }) } },
          },
        },
        operations: { ...widgets.operations, describeNote: verbs<'note'>('note').update() },
      });
    call('createNote', { noteName: 'n1' });
    expect(call('describeNote', { noteName: 'n1', text: 'n2' }, rename(true))).toMatchObject({ note: { noteName: 'n2' } });
    expect(call('listNotes').notes).toEqual([expect.objectContaining({ noteName: 'n2' })]);
    expect(call('describeNote', { noteName: 'n2', text: 'n3' }, rename(true))).toMatchObject({ note: { noteName: 'n3' } });
    // Without it, the record keeps the name it was made with: the new name in its document does not find it.
    call('describeNote', { noteName: 'n3', text: 'n4' }, rename(false));
    expect(fails('describeNote', { noteName: 'n4' }).code).toBe('NOT_FOUND');
  });

  test('beside: fields a list answers beside its items', () => {
    const variant = serve(widgetModel, {
      ...widgets,
      operations: { ...widgets.operations, listNotes: verbs<'note'>('note').list({ beside: () => ({ skipped: ['n0'] }) }) },
    });
    expect(variant.servedBy('listNotes')).toEqual({ how: 'hook', what: 'note.list', hooks: ['beside'] });
    call('createNote', { noteName: 'n1' });
    expect(call('listNotes', {}, variant)).toEqual({ notes: [expect.objectContaining({ noteName: 'n1' })], skipped: ['n0'] });
    expect(call('listNotes')).not.toHaveProperty('skipped');
  });

  test("minutes: an action's length chosen by its request, else the resource's", () => {
    const variant = serve(widgetModel, {
      ...widgets,
      operations: {
        ...widgets.operations,
        stopCluster: verbs<'cluster'>('cluster').act('stop', { minutes: (_h, req) => (req.clusterName === 'slow' ? 9 : undefined) }),
      },
    });
    expect(variant.servedBy('stopCluster')).toEqual({ how: 'hook', what: 'cluster.act:stop', hooks: ['show', 'minutes'] });
    for (const name of ['slow', 'quick']) call('createCluster', { ...CLUSTER, clusterName: name });
    now += 10 * MIN;
    for (const name of ['slow', 'quick']) call('stopCluster', { clusterName: name }, variant);
    now += 3 * MIN;
    expect(cluster('quick').status).toBe('STOPPED');
    expect(cluster('slow').status).toBe('STOPPING');
    now += 6 * MIN;
    expect(cluster('slow').status).toBe('STOPPED');
  });

  test("an entry's own keys name the record and are never written into it, as the resource's keys are not", () => {
    const byCrn = serve(widgetModel, {
      ...widgets,
      operations: { ...widgets.operations, updateCluster: verbs<'cluster'>('cluster').update({ keys: ['crn'] }) },
    });
    call('createCluster', CLUSTER);
    now += 10 * MIN;
    const crn = cluster().crn;
    expect(crn).toMatch(/^crn:cdp:widgets:/);
    // Named by its name in the entry's key field: found and resized (its update takes a minute), its CRN its own.
    expect((call('updateCluster', { crn: 'c1', size: 7 }, byCrn).cluster as Doc).crn).toBe(crn);
    now += MIN;
    expect([cluster().crn, cluster().size]).toEqual([crn, 7]);
    expect(call('describeCluster', { clusterName: crn }).cluster).toMatchObject({ clusterName: 'c1', size: 7 });
  });

  test("select: the records a list shows, or, when it gives none, the list's own (those in the request's scope)", () => {
    let named: string[] = [];
    const variant = serve(widgetModel, {
      ...widgets,
      operations: {
        ...widgets.operations,
        listNotes: verbs<'note'>('note').list({
          select: (h) => (named.length > 0 ? named.map((n) => h.records('note').get(n)) : undefined),
        }),
      },
    });
    for (const n of ['n1', 'n2', 'n3']) call('createNote', { noteName: n });
    const listed = (): unknown[] => (call('listNotes', {}, variant).notes as Doc[]).map((n) => n.noteName);
    expect(listed()).toEqual(['n1', 'n2', 'n3']);
    named = ['n3', 'n1'];
    expect(listed()).toEqual(['n3', 'n1']);
  });

  test('a resource that lives in a record of another service, found through the world', () => {
    call('createMount', { hostCrn: HOST, mountName: 'm1' });
    expect(call('listMounts', { hostCrn: HOST }).mounts).toEqual([{ mountName: 'm1', hostCrn: HOST }]);
    expect(fails('createMount', { hostCrn: `${HOST}x`, mountName: 'm1' }).code).toBe('INVALID_ARGUMENT');
  });
});

describe('deletion ends', () => {
  test('kept: the deleted status stays visible for its retention, lists show it only when asked, its name is free', () => {
    call('createCluster', CLUSTER);
    now += 10 * MIN;
    call('deleteCluster', { clusterName: 'c1' });
    expect(cluster().status).toBe('DELETING');
    now += 2 * MIN;
    const deleted = cluster();
    expect(deleted.status).toBe('DELETED');
    expect(call('listClusters', { environmentName: 'sales-env' }).clusters).toEqual([]);
    expect((call('listClusters', { environmentName: 'sales-env', includeDeleted: true }).clusters as Doc[]).map((c) => c.status)).toEqual([
      'DELETED',
    ]);
    expect(fails('deleteCluster', { clusterName: 'c1' }).message).toBe('cluster c1 is already deleted');
    expect(fails('stopCluster', { clusterName: 'c1' }).code).toBe('NOT_FOUND');
    // Its name is free: a new cluster takes it, and the name finds the new one.
    call('createCluster', CLUSTER);
    expect(cluster()).toMatchObject({ status: 'CREATING' });
    expect(call('describeCluster', { clusterName: String(deleted.clusterId) }).cluster).toMatchObject({ status: 'DELETED' });
    now += 60 * MIN;
    expect(fails('describeCluster', { clusterName: String(deleted.clusterId) }).code).toBe('NOT_FOUND');
  });

  test('kept: a forced delete ends at once, in the deleted state', () => {
    call('createCluster', CLUSTER);
    const answer = call('deleteCluster', { clusterName: 'c1', force: true }).cluster as Doc;
    expect(answer.status).toBe('DELETED');
    expect(cluster().status).toBe('DELETED');
  });

  test('gone: NOT_FOUND once the delete is over; a record holding others is refused without force', () => {
    call('createCluster', CLUSTER);
    now += 10 * MIN;
    call('createBackup', { clusterName: 'c1', backupName: 'b1' });
    now += 5 * MIN;
    expect(fails('deleteCluster', { clusterName: 'c1' }).message).toMatch(/still has backup b1/);
    call('deleteBackup', { clusterName: 'c1', backupName: 'b1' });
    expect((call('listBackups', { clusterName: 'c1' }).backups as Doc[])[0]?.status).toBe('DELETING');
    now += 2 * MIN;
    expect(call('listBackups', { clusterName: 'c1' }).backups).toEqual([]);
  });

  test('gone: what its service keeps under a record by hand (goneWith: by its id, as their id or parent) goes with it', () => {
    const parted = serve(widgetModel, {
      ...widgets,
      resources: { ...widgets.resources, backup: { ...widgets.resources.backup, goneWith: ['widgets.part'] } },
    });
    call('createCluster', CLUSTER, parted);
    now += 10 * MIN;
    call('createBackup', { clusterName: 'c1', backupName: 'b1' }, parted);
    now += 5 * MIN;
    const id = store.list<{ id: string }>('widgets.backup')[0]?.id ?? '';
    store.put('widgets.part', id, { of: 'b1' });
    store.put('widgets.part', 'under-b1', { of: 'b1' }, { parent: id });
    store.put('widgets.part', 'other', { of: 'nothing' });
    call('deleteBackup', { clusterName: 'c1', backupName: 'b1' }, parted);
    expect(store.children('widgets.part', id)).toHaveLength(1);
    now += 2 * MIN;
    expect(call('listBackups', { clusterName: 'c1' }, parted).backups).toEqual([]);
    expect(store.get('widgets.part', id)).toBeUndefined();
    expect(store.children('widgets.part', id)).toEqual([]);
    expect(store.get('widgets.part', 'other')).toEqual({ of: 'nothing' });
  });
});

describe('seed', () => {
  /** The widgets service with a cluster of its own in sales-env from the start: made by its seed, once. */
  const seededWidgets: typeof widgets = {
    ...widgets,
    seed: (h) => {
      if (h.records('cluster').all().length > 0) return;
      // It reads the state only: sales-env is known by its CRN, which the account fixes.
      const env = preCreatedEnvironmentCrn(h.ctx.info.accountId, h.ctx.info.region, 'sales-env');
      h.records('cluster').create({ id: 'widget-seeded', name: 'seeded', scope: env, env, doc: { clusterName: 'seeded' } });
    },
  };
  const seeded = serve(widgetModel, seededWidgets);
  const scope = (): Scope => ({ store, clock, info: UNIT_INFO });

  test('runs before the world reads what lives in an environment, as that read (no caller, no world), and before each operation', () => {
    const sales = world.in(scope()).environments.find('sales-env');
    expect(serve(widgetModel, widgets).dependents[0]?.in(scope(), sales?.crn ?? '')).toEqual([]);
    const [kind] = seeded.dependents;
    expect(kind?.in(scope(), sales?.crn ?? '').map((d) => d.name)).toEqual(['seeded']);

    store = new Store(':memory:', UNIT_ACCOUNT);
    const listed = seeded.handlers.listClusters?.(
      { environmentName: 'sales-env' },
      { ...scope(), caller: UNIT_ADMIN, world, op: { service: 'widgets', name: 'listClusters' } },
    );
    expect((listed?.clusters as Doc[]).map((c) => c.clusterName)).toEqual(['seeded']);
  });

  test("names a resource among its environment's dependents by its environmentNoun, when it has one", () => {
    const sales = world.in(scope()).environments.find('sales-env');
    const named = serve(widgetModel, {
      ...seededWidgets,
      resources: { ...widgets.resources, cluster: { ...widgets.resources.cluster, environmentNoun: 'widget cluster' } },
    });
    const shown = (s: typeof seeded): string[][] => (s.dependents[0]?.in(scope(), sales?.crn ?? '') ?? []).map((d) => [d.noun, d.what]);
    expect(shown(seeded)).toEqual([['cluster', 'cluster seeded']]);
    expect(shown(named)).toEqual([['widget cluster', 'widget cluster seeded']]);
  });
});
