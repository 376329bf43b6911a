/**
 * Generators shared by the reliability tests: request documents with one
 * known defect for any operation of the model, and hostile flag values.
 */
import fc from 'fast-check';
import type { Operation } from '../../src/lib/model/index.js';
import type { Field, ShapeIndex, Type } from '../../src/lib/model/shapes.js';

export type Doc = Record<string, unknown>;

/** A defect put into an otherwise arbitrary request, and how to recognise its report. */
export interface Defect {
  readonly kind: 'unknown' | 'missing' | 'wrongType' | 'enumTypo' | 'tooLong' | 'deep' | 'outOfRange';
  /** The wire path the validator must name (prefix match). */
  readonly path: string;
  /** The top-level field (its flag or its quoted name must appear in the report). */
  readonly field: string;
}

export const resolved = (shapes: ShapeIndex, f: Field): Type => shapes.resolve(f.type);

/** One-character typos of a name that are not themselves in `taken`. */
export function typoArb(name: string, taken: ReadonlySet<string>): fc.Arbitrary<string> {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_';
  return fc
    .tuple(
      fc.nat({ max: Math.max(0, name.length) }),
      fc.constantFrom(...letters),
      fc.constantFrom('insert', 'delete', 'replace', 'swap', 'case'),
    )
    .map(([i, ch, how]) => {
      const at = Math.min(i, name.length - 1);
      switch (how) {
        case 'insert':
          return name.slice(0, i) + ch + name.slice(i);
        case 'delete':
          return name.length > 1 ? name.slice(0, at) + name.slice(at + 1) : name + ch;
        case 'replace':
          return name.slice(0, at) + ch + name.slice(at + 1);
        case 'swap':
          return at + 1 < name.length ? name.slice(0, at) + name.charAt(at + 1) + name.charAt(at) + name.slice(at + 2) : name + ch;
        default:
          return name === name.toLowerCase() ? name.toUpperCase() : name.toLowerCase();
      }
    })
    .filter((s) => s.length > 0 && !taken.has(s));
}

/** Values of a kind the field does not take (never null: null means "absent"). */
export function wrongValueArb(t: Type): fc.Arbitrary<unknown> {
  const str = fc.string({ maxLength: 20 });
  const obj = fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.integer(), { minKeys: 0, maxKeys: 3 });
  const arr = fc.array(fc.integer(), { maxLength: 3 });
  switch (t.kind) {
    case 'string':
    case 'datetime':
    case 'bytes':
      return fc.oneof(fc.integer(), fc.boolean(), obj, arr, fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'int32':
    case 'int64':
      return fc.oneof(
        str,
        fc.boolean(),
        obj,
        arr,
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
        fc.constantFrom(2 ** 53, -(2 ** 60), 1e300),
      );
    case 'double':
      return fc.oneof(str, fc.boolean(), obj, arr);
    case 'boolean':
      return fc.oneof(str, fc.integer(), obj, arr, fc.constantFrom('true', 'false', 0, 1));
    case 'list':
      return fc.oneof(str, fc.integer(), fc.boolean(), obj);
    case 'map':
    case 'object':
    case 'ref':
      return fc.oneof(str, fc.integer(), fc.boolean(), arr);
  }
}

/** A value nested deeper than the validator's limit (33..3000 levels). */
export function deepArb(t: Type): fc.Arbitrary<unknown> {
  return fc.tuple(fc.integer({ min: 34, max: 3000 }), fc.boolean()).map(([depth, lists]) => {
    let v: unknown = 'x';
    for (let i = 0; i < depth; i++) v = lists ? [v] : { a: v };
    // The outer layer has the field's own kind, so the defect is depth, not type.
    if (t.kind === 'list') return Array.isArray(v) ? v : [v];
    return Array.isArray(v) ? { a: v } : v;
  });
}

/** Candidate defects for an operation (empty kinds are skipped). */
export function defectArb(op: Operation): fc.Arbitrary<{ defect: Defect; value?: unknown }> {
  const shapes = op.service.shapes;
  const fields = op.service.requestFields(op);
  const names = new Set(fields.map((f) => f.name));
  const options: Array<fc.Arbitrary<{ defect: Defect; value?: unknown }>> = [];
  const ident = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,30}$/).filter((s) => !names.has(s));
  const unknownName = fields.length
    ? fc.oneof(
        ident,
        fc.constantFrom(...fields.map((f) => f.name)).chain((n) => typoArb(n, names)),
      )
    : ident;
  options.push(unknownName.map((n) => ({ defect: { kind: 'unknown', path: n, field: n }, value: 'x' })));
  const required = fields.filter((f) => f.required);
  if (required.length)
    options.push(fc.constantFrom(...required).map((f) => ({ defect: { kind: 'missing', path: f.name, field: f.name } })));
  if (fields.length) {
    options.push(
      fc.constantFrom(...fields).chain((f) =>
        wrongValueArb(resolved(shapes, f)).map((value) => ({
          defect: { kind: 'wrongType', path: f.name, field: f.name } as Defect,
          value,
        })),
      ),
    );
  }
  const enums = fields.filter((f) => {
    const t = resolved(shapes, f);
    return (t.enum ?? (t.kind === 'list' ? shapes.resolve(t.of ?? { kind: 'string' }).enum : undefined)) !== undefined;
  });
  if (enums.length) {
    options.push(
      fc.constantFrom(...enums).chain((f) => {
        const t = resolved(shapes, f);
        const list = t.kind === 'list';
        const values = (list ? shapes.resolve(t.of ?? { kind: 'string' }).enum : t.enum) ?? [];
        const taken = new Set(values);
        return fc
          .constantFrom(...values)
          .chain((v) => typoArb(v, taken))
          .map((typo) => ({
            defect: { kind: 'enumTypo', path: list ? `${f.name}[0]` : f.name, field: f.name } as Defect,
            value: list ? [typo] : typo,
          }));
      }),
    );
  }
  const bounded = fields.filter(
    (f) => f.maxLen !== undefined && ['string', 'datetime', 'bytes'].includes(resolved(shapes, f).kind) && !resolved(shapes, f).enum,
  );
  if (bounded.length) {
    options.push(
      fc.constantFrom(...bounded).chain((f) =>
        fc.integer({ min: 1, max: 200_000 }).map((extra) => ({
          defect: { kind: 'tooLong', path: f.name, field: f.name } as Defect,
          value: 'a'.repeat((f.maxLen ?? 0) + extra),
        })),
      ),
    );
  }
  const ranged = fields.filter(
    (f) => (f.min !== undefined || f.max !== undefined) && ['int32', 'int64', 'double'].includes(resolved(shapes, f).kind),
  );
  if (ranged.length) {
    options.push(
      fc.constantFrom(...ranged).chain((f) => {
        const below = f.min !== undefined ? [fc.integer({ min: -(2 ** 31), max: f.min - 1 })] : [];
        const above = f.max !== undefined ? [fc.integer({ min: f.max + 1, max: 2 ** 31 - 1 })] : [];
        return fc
          .oneof(...below, ...above)
          .map((value) => ({ defect: { kind: 'outOfRange', path: f.name, field: f.name } as Defect, value }));
      }),
    );
  }
  const nestable = fields.filter((f) => ['list', 'map', 'object', 'ref'].includes(resolved(shapes, f).kind));
  if (nestable.length) {
    options.push(
      fc
        .constantFrom(...nestable)
        .chain((f) =>
          deepArb(resolved(shapes, f)).map((value) => ({ defect: { kind: 'deep', path: f.name, field: f.name } as Defect, value })),
        ),
    );
  }
  return fc.oneof(...options);
}

/** Arbitrary plausible values for the other fields (valid or not: only the defect is asserted). */
export function noiseArb(op: Operation): fc.Arbitrary<Doc> {
  const fields = op.service.requestFields(op);
  if (!fields.length) return fc.constant({});
  return fc.subarray([...fields]).chain((chosen) =>
    fc.tuple(...chosen.map((f) => valueArb(op.service.shapes, f.type, 0))).map((values) => {
      const out: Doc = {};
      chosen.forEach((f, i) => (out[f.name] = values[i]));
      return out;
    }),
  );
}

function valueArb(shapes: ShapeIndex, raw: Type, depth: number): fc.Arbitrary<unknown> {
  const t = shapes.resolve(raw);
  if (depth > 3) return fc.constant(undefined);
  switch (t.kind) {
    case 'string':
      return t.enum ? fc.constantFrom(...t.enum) : fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }));
    case 'datetime':
      return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4102444800000) }).map((d) => d.toISOString());
    case 'bytes':
      return fc.base64String({ maxLength: 40 });
    case 'int32':
      return fc.integer({ min: -1000, max: 1000 });
    case 'int64':
      return fc.maxSafeInteger();
    case 'double':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'object':
      return fc.object({ maxDepth: 2, maxKeys: 3 });
    case 'list':
      return fc.array(valueArb(shapes, t.of ?? { kind: 'string' }, depth + 1), { maxLength: 3 });
    case 'map':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), valueArb(shapes, t.of ?? { kind: 'string' }, depth + 1), {
        maxKeys: 3,
      });
    case 'ref': {
      const s = shapes.struct(t);
      if (!s) return fc.constant({});
      return fc.subarray([...s.fields]).chain((chosen) =>
        fc.tuple(...chosen.map((f) => valueArb(shapes, f.type, depth + 1))).map((vals) => {
          const out: Doc = {};
          chosen.forEach((f, i) => {
            if (vals[i] !== undefined) out[f.name] = vals[i];
          });
          return out;
        }),
      );
    }
  }
}

/** Hostile raw strings for a flag. `files` are paths prepared by the test. */
export function flagStringArb(
  files: { invalidUtf8: string; dir: string; missing: string; deepJson: string },
  enumValues?: readonly string[],
): fc.Arbitrary<string> {
  const nasty = fc.constantFrom(
    '',
    ' ',
    '-1',
    '1.5',
    '1e309',
    '99999999999999999999',
    '0x10',
    'true',
    'TRUE',
    'null',
    '{',
    '}',
    '[1,2',
    '[',
    ']',
    '{"a":',
    '{"a":1}',
    '[{"a":1}]',
    'a=b',
    'a=[1,',
    'a={b=',
    '"',
    "'",
    'a,b,,c',
    'x=1,y',
    '=',
    'k=v,k2={x=[1,2]}',
    'line1\nline2',
    '\u0000\u0001\u001b[31m',
    '\ud800',
    '💥'.repeat(50),
    `file://${files.invalidUtf8}`,
    `file://${files.dir}`,
    `file://${files.missing}`,
    `file://${files.deepJson}`,
    'file://',
  );
  const huge = fc.integer({ min: 10_000, max: 300_000 }).map((n) => 'x'.repeat(n));
  const arbs: Array<fc.Arbitrary<string>> = [
    nasty,
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.json({ maxDepth: 3 }),
    fc.stringMatching(/^[a-zA-Z]{1,5}=[^,]{0,5}(,[a-zA-Z]{1,5}=[[{]?[^,]{0,5})*$/),
    huge,
  ];
  if (enumValues?.length) arbs.push(fc.constantFrom(...enumValues).chain((v) => typoArb(v, new Set(enumValues))));
  return fc.oneof(...arbs);
}
