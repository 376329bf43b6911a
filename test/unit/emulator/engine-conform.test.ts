/**
 * How a record meets the wire (engine/conform.ts): what conforming keeps,
 * converts, drops and makes up, on a small made-up model. The every-operation
 * test checks that every answer validates; these pin the rules themselves.
 */
import { describe, expect, test } from '@jest/globals';
import { Conformer, type FillContext } from '../../../src/lib/emulator/engine/conform.js';
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
