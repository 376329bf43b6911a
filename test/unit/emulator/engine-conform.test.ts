/**
 * How a record meets the wire (engine/conform.ts): what conforming keeps,
 * converts, drops and makes up, on a small made-up model. The every-operation
 * test checks that every answer validates; these pin the rules themselves.
 */
import { describe, expect, test } from '@jest/globals';
import { Conformer, type FillContext } from '../../../src/lib/emulator/engine/conform.js';
import { loadAllServices } from '../../../src/lib/model/index.js';
import { ShapeIndex } from '../../../src/lib/model/shapes.js';

const shapes = new ShapeIndex({
  Thing: {
    thingId: 'string!',
    crn: 'string',
    name: 'string',
    status: 'Status!',
    size: 'int32',
    ratio: 'double',
    enabled: 'boolean',
    createdAt: 'datetime',
    labels: '{string}',
    parts: '[Part]',
    counts: '[int64]',
    extra: 'object',
    note: 'string deprecated',
    old: 'ThingOld',
  },
  Part: { partName: 'string!', inner: 'Part', sizes: '{int32}' },
  ThingOld: { oldId: 'string' },
  Deletion: { deleteThingRequestCrn: 'string!' },
  Status: 'enum CREATING RUNNING STOPPED',
});
const ctx: FillContext = { seed: 'seed-1', now: Date.UTC(2026, 0, 2, 3, 4, 5), service: 'svc', region: 'us-west-1', account: 'acct' };

describe('conforming to a shape', () => {
  const c = new Conformer(shapes);

  test('fields of the shape are kept; others dropped; types converted where the meaning is plain, else dropped', () => {
    const out = c.struct(
      'Thing',
      {
        thingId: 't1',
        status: 'running',
        size: '42',
        ratio: 'x',
        enabled: 'yes',
        createdAt: ctx.now,
        labels: { a: 'b', n: 1, gone: null },
        counts: [1.9, '2', 'x', null],
        extra: { free: ['form'] },
        unknown: 1,
      },
      ctx,
    );
    expect(out).toEqual({
      thingId: 't1',
      status: 'RUNNING',
      size: 42,
      createdAt: '2026-01-02T03:04:05.000Z',
      labels: { a: 'b', n: '1' },
      counts: [1, 2],
      extra: { free: ['form'] },
    });
  });

  test('an enum value not of the model becomes its first value', () => {
    expect(c.struct('Thing', { thingId: 't', status: 'EXPLODED' }, ctx).status).toBe('CREATING');
  });

  test('nested structs in lists and maps are conformed too; a required field absent inside is made up', () => {
    const out = c.struct(
      'Thing',
      { thingId: 't', status: 'RUNNING', parts: [{ partName: 'p', inner: { sizes: { a: '3', b: 'x' } } }, 'junk'] },
      ctx,
    );
    expect(out.parts).toEqual([{ partName: 'p', inner: { partName: expect.stringMatching(/^part-name-[0-9a-f]{8}$/), sizes: { a: 3 } } }]);
  });

  test("'required' makes up only required fields; 'known' also what the name tells at the top, never a deprecated one", () => {
    expect(c.struct('Thing', {}, ctx)).toEqual({ thingId: expect.any(String), status: 'CREATING' });
    const known = c.struct('Thing', {}, ctx, 'known');
    expect(Object.keys(known).sort()).toEqual(['createdAt', 'crn', 'name', 'status', 'thingId']);
    expect(known.crn).toMatch(/^crn:cdp:svc:us-west-1:acct:resource:/);
    expect(known.createdAt).toBe('2026-01-02T03:04:05.000Z');
    // 'none' makes up nothing.
    expect(c.struct('Thing', { size: 1 }, ctx, 'none')).toEqual({ size: 1 });
  });

  test('a made-up CRN names the resource type its field names, spelt as the API spells types (camelCase, no "-")', () => {
    const out = c.struct('Deletion', {}, ctx);
    expect(out.deleteThingRequestCrn).toMatch(/^crn:cdp:svc:us-west-1:acct:deleteThingRequest:[0-9a-f-]{36}$/);
  });

  test('made-up values are stable for one seed and path, and differ by path', () => {
    const a = c.struct('Thing', { parts: [{}, {}] }, ctx);
    const b = c.struct('Thing', { parts: [{}, {}] }, ctx);
    expect(a).toEqual(b);
    const parts = a.parts as Array<{ partName: string }>;
    expect(parts[0]?.partName).not.toBe(parts[1]?.partName);
    expect(c.struct('Thing', {}, { ...ctx, seed: 'seed-2' }).thingId).not.toBe(a.thingId);
  });

  test('a shape that holds itself is walked only so deep', () => {
    let deep: Record<string, unknown> = { partName: 'leaf' };
    for (let i = 0; i < 30; i++) deep = { partName: `p${i}`, inner: deep };
    let out = c.struct('Part', deep, ctx) as Record<string, unknown>;
    let depth = 0;
    while (out.inner) {
      out = out.inner as Record<string, unknown>;
      depth++;
    }
    expect(depth).toBeGreaterThan(3);
    expect(depth).toBeLessThan(30);
  });
});

/** A deep copy, frozen throughout: a document as Store.peek hands it out. */
function frozen<T>(v: T): T {
  const copy = structuredClone(v);
  const freeze = (x: unknown): void => {
    if (typeof x !== 'object' || x === null) return;
    Object.freeze(x);
    for (const y of Object.values(x)) freeze(y);
  };
  freeze(copy);
  return copy;
}

describe('frozen values (documents as the store keeps them)', () => {
  const c = new Conformer(shapes);
  const good = { thingId: 't1', crn: 'crn:x', status: 'RUNNING', size: 3, labels: { a: 'b' }, parts: [{ partName: 'p', sizes: { x: 1 } }] };

  test('one that conforms already is its own conformed copy, at the top and inside a new document', () => {
    const kept = frozen(good);
    expect(c.struct('Thing', kept, ctx)).toBe(kept);
    const view = { ...kept, status: 'STOPPED' };
    const out = c.struct('Thing', view, ctx);
    expect(out).not.toBe(view);
    expect(out.parts).toBe(kept.parts);
    expect(out.labels).toBe(kept.labels);
    expect(out).toEqual({ ...good, status: 'STOPPED' });
  });

  test('one that does not is conformed exactly as its unfrozen copy is: same fields, values and order', () => {
    const cases: Array<Record<string, unknown>> = [
      { ...good, unknown: 1 },
      { status: 'RUNNING', thingId: 't1' },
      { ...good, size: '7' },
      { ...good, size: 2.5 },
      { ...good, status: 'running' },
      { ...good, crn: null },
      { crn: 'crn:x', status: 'RUNNING' },
      { ...good, parts: [{ sizes: { x: 1 } }] },
      { ...good, parts: [{ partName: 'p', sizes: { x: 'one' } }] },
      { ...good, createdAt: 1767322800000 },
      { ...good, createdAt: 'not a date' },
      { ...good, labels: { a: 5 } },
    ];
    for (const doc of cases)
      for (const mode of ['none', 'required', 'known'] as const) {
        const plain = JSON.stringify(c.struct('Thing', structuredClone(doc), ctx, mode));
        expect(JSON.stringify(c.struct('Thing', frozen(doc), ctx, mode))).toBe(plain);
        expect(JSON.stringify(c.struct('Thing', { ...frozen(doc) }, ctx, mode))).toBe(plain);
      }
  });

  test('a frozen shape that holds itself is cut off as deep as an unfrozen one, wherever it was seen first', () => {
    // Whole at the top of an answer; cut off when it sits two levels down (Thing.parts[0]).
    for (const levels of [10, 13, 14, 30]) {
      let deep: Record<string, unknown> = { partName: 'leaf' };
      for (let i = 1; i < levels; i++) deep = { partName: `p${i}`, inner: deep };
      const fresh = new Conformer(shapes);
      const kept = frozen(deep);
      const top = JSON.stringify(c.struct('Part', structuredClone(deep), ctx));
      const below = JSON.stringify(c.struct('Thing', { parts: [structuredClone(deep)] }, ctx));
      expect(JSON.stringify(fresh.struct('Part', kept, ctx))).toBe(top);
      expect(JSON.stringify(fresh.struct('Thing', { parts: [kept] }, ctx))).toBe(below);
      expect(JSON.stringify(fresh.struct('Part', kept, ctx))).toBe(top);
    }
  });

  test("every struct of every service's model: a filled document, frozen, conforms as it does unfrozen", async () => {
    let checked = 0;
    for (const svc of await loadAllServices()) {
      const conformer = new Conformer(svc.shapes);
      for (const name of svc.shapes.names()) {
        if (svc.shapes.get(name).kind !== 'struct') continue;
        const filled = conformer.struct(name, {}, { ...ctx, seed: name }, 'known');
        const reversed = Object.fromEntries(Object.entries(filled).reverse());
        for (const doc of [filled, reversed, { ...filled, notAField: true }]) {
          const plain = JSON.stringify(conformer.struct(name, structuredClone(doc), ctx));
          expect(JSON.stringify(conformer.struct(name, frozen(doc), ctx))).toBe(plain);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });
});
