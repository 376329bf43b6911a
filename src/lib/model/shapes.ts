/**
 * Parses the compact field specs of ./wire.ts into typed fields, and resolves
 * a service's shapes on demand (each shape is parsed once, when first used).
 */
import type { Shapes } from './wire.js';

export type Primitive = 'string' | 'int32' | 'int64' | 'double' | 'boolean' | 'datetime' | 'bytes' | 'object';

export interface Type {
  readonly kind: Primitive | 'list' | 'map' | 'ref';
  /** Element type of a list or map. */
  readonly of?: Type;
  /** Shape name of a ref. */
  readonly ref?: string;
  readonly enum?: readonly string[];
}

export interface Field {
  readonly name: string;
  readonly type: Type;
  readonly required: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly minLen?: number;
  readonly maxLen?: number;
  readonly default?: string;
  readonly secret: boolean;
  readonly deprecated: boolean;
  readonly unique: boolean;
}

export type Shape =
  | { readonly kind: 'struct'; readonly name: string; readonly fields: readonly Field[]; readonly byName: ReadonlyMap<string, Field> }
  | { readonly kind: 'enum'; readonly name: string; readonly values: readonly string[] };

const PRIMITIVES = new Set<string>(['string', 'int32', 'int64', 'double', 'boolean', 'datetime', 'bytes', 'object']);

function parseType(text: string): Type {
  if (text.startsWith('[') && text.endsWith(']')) {
    const inner = parseSpec('', text.slice(1, -1));
    return { kind: 'list', of: inner.type };
  }
  if (text.startsWith('{') && text.endsWith('}')) {
    return { kind: 'map', of: parseType(text.slice(1, -1)) };
  }
  if (PRIMITIVES.has(text)) return { kind: text as Primitive };
  return { kind: 'ref', ref: text };
}

/** Splits on spaces outside brackets and JSON strings: `[string enum=A|B]! default="a b"` -> two parts. */
function tokens(spec: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let escaped = false;
  let cur = '';
  for (const ch of spec) {
    if (quoted) {
      cur += ch;
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    if (ch === '[' || ch === '{') depth++;
    if (ch === ']' || ch === '}') depth--;
    if (ch === ' ' && depth === 0) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

export function parseSpec(name: string, spec: string): Field {
  const [head = '', ...attrs] = tokens(spec);
  const required = head.endsWith('!');
  let type = parseType(required ? head.slice(0, -1) : head);
  const field: { -readonly [K in keyof Field]: Field[K] } = {
    name,
    type,
    required,
    secret: false,
    deprecated: false,
    unique: false,
  };
  for (const attr of attrs) {
    const eq = attr.indexOf('=');
    const key = eq < 0 ? attr : attr.slice(0, eq);
    const value = eq < 0 ? '' : attr.slice(eq + 1);
    switch (key) {
      case 'enum':
        type = { ...type, enum: value.split('|') };
        field.type = type;
        break;
      case 'min':
        field.min = Number(value);
        break;
      case 'max':
        field.max = Number(value);
        break;
      case 'minLen':
        field.minLen = Number(value);
        break;
      case 'maxLen':
        field.maxLen = Number(value);
        break;
      case 'default':
        field.default = value.startsWith('"') ? (JSON.parse(value) as string) : value;
        break;
      case 'secret':
        field.secret = true;
        break;
      case 'deprecated':
        field.deprecated = true;
        break;
      case 'unique':
        field.unique = true;
        break;
      case 'readonly':
        break;
      default:
        throw new Error(`bad field attribute "${attr}" in ${name}: ${spec}`);
    }
  }
  return field;
}

/** Lazily parsed view of one service's shapes. */
export class ShapeIndex {
  private readonly cache = new Map<string, Shape>();
  constructor(private readonly specs: Shapes) {}

  has(name: string): boolean {
    return Object.hasOwn(this.specs, name);
  }

  names(): string[] {
    return Object.keys(this.specs);
  }

  get(name: string): Shape {
    const hit = this.cache.get(name);
    if (hit) return hit;
    const spec = this.specs[name];
    if (spec === undefined) throw new Error(`unknown shape ${name}`);
    let shape: Shape;
    if (typeof spec === 'string') {
      shape = { kind: 'enum', name, values: spec.split(' ').slice(1) };
    } else {
      const fields = Object.entries(spec).map(([f, s]) => parseSpec(f, s));
      shape = { kind: 'struct', name, fields, byName: new Map(fields.map((f) => [f.name, f])) };
    }
    this.cache.set(name, shape);
    return shape;
  }

  /** A ref to an enum becomes a string with values; other types are returned as they are. */
  resolve(type: Type): Type {
    if (type.kind !== 'ref' || !type.ref) return type;
    const shape = this.get(type.ref);
    return shape.kind === 'enum' ? { kind: 'string', enum: shape.values } : type;
  }

  /** The struct a type refers to, if any. */
  struct(type: Type): Extract<Shape, { kind: 'struct' }> | undefined {
    if (type.kind !== 'ref' || !type.ref) return undefined;
    const shape = this.get(type.ref);
    return shape.kind === 'struct' ? shape : undefined;
  }
}
