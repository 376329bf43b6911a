/**
 * Documents that conform to a shape of the model. The engine builds every
 * answer from stored records; this is where a record meets the wire: only
 * the shape's fields are kept, values of the wrong type are dropped, enum
 * values are the model's, and a required field the record does not have is
 * made up once, deterministically, from the field's name and type (`crn` a
 * CRN, `*Url` a URL, `*Time` a time...). Records are made with `fill: 'known'`
 * so that what an answer shows was stored when the resource was made, and
 * answers are conformed again so that they always validate against the
 * model (test/unit/emulator/every-operation.test.ts checks every
 * operation).
 */
import type { Field, ShapeIndex, Type } from '../../model/shapes.js';
import { crn as makeCrn, stableUuid } from '../ids.js';
import { hex } from '../values.js';
import type { Doc } from './context.js';

/** What made-up values are made of. */
export interface FillContext {
  /** Makes made-up values stable for one record: the same seed and path give the same value. */
  readonly seed: string;
  readonly now: number;
  readonly service: string;
  readonly region: string;
  readonly account: string;
  /** The resource type in made-up CRNs (`database`). */
  readonly resource?: string;
}

/**
 * Which absent fields get a made-up value: `required` only those the model
 * requires; `known` also optional ones whose meaning the name tells (ids,
 * CRNs, names, times, URLs, versions), the fields a record is expected to show.
 */
export type FillMode = 'none' | 'required' | 'known';

const MAX_DEPTH = 12;

const STRING: Type = { kind: 'string' };
const EMPTY: Doc = {};

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Field names whose meaning a made-up value can honour. */
const KNOWN =
  /(^id$|Id$|^crn$|Crn$|^name$|Name$|Url$|^url$|Uri$|Endpoint$|^endpoint$|^created|Created$|^creat\w*(Time|Date|Timestamp)$|(Time|Date|Timestamp|At)$|^version$|Version$|^creator|Creator)/;

/** A field of a struct, with what the walk needs of it worked out once. */
interface FieldPlan {
  readonly field: Field;
  /** Its type with a ref to an enum resolved to a string of those values. */
  readonly type: Type;
  /** Absent at the top of a `known` fill, it gets a made-up value. */
  readonly known: boolean;
}

/** A struct's field plans, and where each field stands in its order (what a conformed document's keys follow). */
interface StructPlan {
  readonly fields: readonly FieldPlan[];
  readonly at: ReadonlyMap<string, number>;
  readonly required: readonly string[];
}

export class Conformer {
  /**
   * Each struct's fields, worked out when the shape is first conformed to:
   * answers are conformed on every request (a poll of a describe), so the
   * walk does no lookups of shapes or types, and builds a field's path
   * (what made-up values are seeded with) only where something is made.
   */
  private readonly plans = new Map<string, StructPlan | undefined>();
  /** Element types of lists and maps, resolved. */
  private readonly elements = new WeakMap<Type, Type>();
  /**
   * Frozen values (documents as the store keeps them: Store.peek) found to
   * conform already, with the type and the deepest position they were found
   * so at: such a value is its own conformed copy, and cannot change.
   */
  private readonly conforming = new WeakMap<object, { type: Type; depth: number }>();
  private readonly refs = new Map<string, Type>();

  constructor(private readonly shapes: ShapeIndex) {}

  private plan(shape: string): StructPlan | undefined {
    if (this.plans.has(shape)) return this.plans.get(shape);
    const s = this.shapes.get(shape);
    let plan: StructPlan | undefined;
    if (s.kind === 'struct') {
      const fields = s.fields.map((field) => ({
        field,
        type: this.shapes.resolve(field.type),
        known: KNOWN.test(field.name) && !field.deprecated,
      }));
      plan = {
        fields,
        at: new Map(fields.map((p, i) => [p.field.name, i])),
        required: fields.filter((p) => p.field.required).map((p) => p.field.name),
      };
    }
    this.plans.set(shape, plan);
    return plan;
  }

  /** A ref to a struct, one per shape (conformsAsKept remembers values by type). */
  private refTo(shape: string): Type {
    let t = this.refs.get(shape);
    if (!t) {
      t = { kind: 'ref', ref: shape };
      this.refs.set(shape, t);
    }
    return t;
  }

  private element(of: Type | undefined): Type {
    if (!of) return STRING;
    let t = this.elements.get(of);
    if (!t) {
      t = this.shapes.resolve(of);
      this.elements.set(of, t);
    }
    return t;
  }

  /**
   * `value` made to conform to the struct `shape`: unknown fields dropped,
   * wrong types dropped, absent fields filled by `mode`.
   */
  struct(shape: string, value: unknown, ctx: FillContext, mode: FillMode = 'required', path = '', depth = 0): Doc {
    const out: Doc = {};
    const plan = this.plan(shape);
    if (!plan) return out;
    const src = isObject(value) ? value : EMPTY;
    const fillKnown = mode === 'known' && depth === 0;
    if (!fillKnown && Object.isFrozen(src) && src !== EMPTY && this.conformsAsKept(this.refTo(shape), src, depth)) return src;
    for (const p of plan.fields) {
      const name = p.field.name;
      const v = this.value(p.type, src[name], ctx, mode, path, name, depth + 1);
      if (v !== undefined) out[name] = v;
      else if (p.field.required || (fillKnown && p.known)) {
        const made = this.make(p.field, p.type, ctx, mode === 'known' ? 'required' : mode, `${path}${name}`, depth + 1);
        if (made !== undefined) out[name] = made;
      }
    }
    return out;
  }

  /** A given value of a type (resolved): as given when it fits, else undefined. `at` + `key` is its path. */
  private value(type: Type, v: unknown, ctx: FillContext, mode: FillMode, at: string, key: string, depth: number): unknown {
    if (v === undefined || v === null) return undefined;
    // A frozen value that conforms already is its own conformed copy: nothing in it is rebuilt.
    if (typeof v === 'object' && Object.isFrozen(v) && this.conformsAsKept(type, v, depth)) return v;
    switch (type.kind) {
      case 'string':
      case 'bytes':
        if (typeof v === 'number' || typeof v === 'boolean') v = String(v);
        if (typeof v !== 'string') return undefined;
        if (type.enum && !type.enum.includes(v)) return enumValue(type.enum, v);
        return v;
      case 'datetime':
        if (typeof v === 'number') return new Date(v).toISOString();
        return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : undefined;
      case 'int32':
      case 'int64':
        if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
        return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : undefined;
      case 'double':
        return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
      case 'boolean':
        return typeof v === 'boolean' ? v : undefined;
      case 'object':
        return isObject(v) ? v : undefined;
      case 'list': {
        if (!Array.isArray(v)) return undefined;
        const of = this.element(type.of);
        const path = `${at}${key}`;
        const out: unknown[] = [];
        for (let i = 0; i < v.length; i++) {
          const c = this.value(of, v[i], ctx, mode, path, `[${i}]`, depth + 1);
          if (c !== undefined) out.push(c);
        }
        return out;
      }
      case 'map': {
        if (!isObject(v)) return undefined;
        const of = this.element(type.of);
        const path = `${at}${key}.`;
        const out: Doc = {};
        for (const [k, x] of Object.entries(v)) {
          const c = this.value(of, x, ctx, mode, path, k, depth + 1);
          if (c !== undefined) out[k] = c;
        }
        return out;
      }
      case 'ref': {
        if (!isObject(v) || depth > MAX_DEPTH) return undefined;
        return this.struct(type.ref ?? '', v, ctx, mode === 'known' ? 'required' : mode, `${at}${key}.`, depth);
      }
    }
  }

  /** Whether a frozen value at a depth conforms to a type as it is (value() would give an equal copy), remembered. */
  private conformsAsKept(type: Type, v: object, depth: number): boolean {
    const seen = this.conforming.get(v);
    // At a shallower position there is more room below it before MAX_DEPTH cuts it off.
    if (seen && seen.type === type && depth <= seen.depth) return true;
    if (!this.conforms(type, v, depth)) return false;
    this.conforming.set(v, { type, depth });
    return true;
  }

  /**
   * Whether value() gives `v` back unchanged: every value of the type, no
   * field it drops or converts, no field it would make up (required ones
   * present), a struct's fields in the shape's order. False sends the value
   * through the walk, which is always right; true must be exact.
   */
  private conforms(type: Type, v: unknown, depth: number): boolean {
    if (v === undefined || v === null) return false;
    switch (type.kind) {
      case 'string':
      case 'bytes':
        return typeof v === 'string' && (!type.enum || type.enum.includes(v));
      case 'datetime':
        return typeof v === 'string' && !Number.isNaN(Date.parse(v));
      case 'int32':
      case 'int64':
        return typeof v === 'number' && Number.isFinite(v) && Math.trunc(v) === v;
      case 'double':
        return typeof v === 'number' && Number.isFinite(v);
      case 'boolean':
        return typeof v === 'boolean';
      case 'object':
        return isObject(v);
      case 'list': {
        if (!Array.isArray(v)) return false;
        const of = this.element(type.of);
        for (const x of v as unknown[]) if (!this.conforms(of, x, depth + 1)) return false;
        return true;
      }
      case 'map': {
        if (!isObject(v)) return false;
        const of = this.element(type.of);
        for (const x of Object.values(v)) if (!this.conforms(of, x, depth + 1)) return false;
        return true;
      }
      case 'ref': {
        if (!isObject(v) || depth > MAX_DEPTH) return false;
        const plan = this.plan(type.ref ?? '');
        if (!plan) return false;
        let last = -1;
        for (const k of Object.keys(v)) {
          const i = plan.at.get(k);
          if (i === undefined || i <= last) return false;
          last = i;
          const p = plan.fields[i];
          if (!p || !this.conforms(p.type, v[k], depth + 1)) return false;
        }
        for (const name of plan.required) if (v[name] === undefined || v[name] === null) return false;
        return true;
      }
    }
  }

  /** A made-up value for an absent field of a type (resolved). */
  private make(field: Field, type: Type, ctx: FillContext, mode: FillMode, path: string, depth: number): unknown {
    if (mode === 'none' || depth > MAX_DEPTH) return undefined;
    const name = field.name;
    switch (type.kind) {
      case 'string':
        return type.enum ? type.enum[0] : madeUpText(name, ctx, path);
      case 'bytes':
        return Buffer.from(madeUpText(name, ctx, path)).toString('base64');
      case 'datetime':
        return new Date(ctx.now).toISOString();
      case 'int32':
      case 'int64':
        return /(Time|Date|Timestamp|At)$|^created/i.test(name) && type.kind === 'int64' ? ctx.now : (field.min ?? 0);
      case 'double':
        return field.min ?? 0;
      case 'boolean':
        return field.default === 'true';
      case 'object':
      case 'map':
        return {};
      case 'list':
        return [];
      case 'ref':
        return this.struct(type.ref ?? '', {}, ctx, mode, `${path}.`, depth);
    }
  }
}

/** The enum value a given value stands for (any case, `-`/`_`/space alike), else the first. */
function enumValue(values: readonly string[], v: string): string | undefined {
  const norm = (s: string): string => s.toLowerCase().replace(/[-_ ]/g, '');
  const hit = values.find((x) => norm(x) === norm(v));
  return hit ?? values[0];
}

/** Text for a string field by what its name says it holds. */
function madeUpText(name: string, ctx: FillContext, path: string): string {
  const tag = hex(`${ctx.seed}/${path}`, 8);
  const lower = name.toLowerCase();
  if (lower === 'crn' || name.endsWith('Crn') || name.endsWith('CRN'))
    return makeCrn(ctx.service, ctx.region, ctx.account, resourceOf(name, ctx), stableUuid(`${ctx.seed}/${path}`));
  if (/(url|uri|endpoint|link|address|host)$/i.test(name)) return `https://${tag}.${ctx.service}.${ctx.region}.emulator.invalid`;
  if (/(time|date|timestamp|at)$/i.test(name) || lower.startsWith('created')) return new Date(ctx.now).toISOString();
  if (/version$/i.test(name)) return '7.2.18';
  if (/email$/i.test(name)) return `user-${tag}@example.com`;
  if (lower === 'id' || name.endsWith('Id') || name.endsWith('ID')) return stableUuid(`${ctx.seed}/${path}`);
  if (/(status|state)$/i.test(name)) return 'UNKNOWN';
  return `${kebabName(name)}-${tag}`;
}

/**
 * The resource type a CRN field names, spelt as the API spells types (camelCase,
 * word characters only, as CDP's CRN parser takes them): `environmentCrn` ->
 * environment, `deploymentRequestCrn` -> deploymentRequest, `crn` -> the record's own.
 */
function resourceOf(field: string, ctx: FillContext): string {
  if (field === 'crn') return ctx.resource ?? 'resource';
  return field.replace(/(Crn|CRN)$/, '') || (ctx.resource ?? 'resource');
}

const kebabName = (s: string): string => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/^-/, '');
