/**
 * `--output text` as the official CLI writes it (the AWS CLI's text layout),
 * byte for byte, so `awk` and `cut` scripts written for `cdp` keep working:
 *
 * - a dict: its scalar values on one tab-separated line in sorted key order,
 *   prefixed with the upper-cased key it sits under when nested; then each
 *   non-scalar value under its key, in sorted key order;
 * - a list of dicts: one row per element over the sorted union of all the
 *   elements' scalar keys (empty where an element lacks one), each row
 *   followed by that element's non-scalar values;
 * - a list of scalars: `KEY<TAB>value` per item under a key, or one
 *   tab-joined line when bare;
 * - values as Python's str() prints them (True, False, None, floats).
 *
 * Responses are first read the way the official CLI's parser reads them
 * (`textView`): only the fields the model knows, no nulls, date-time fields
 * as Python prints a datetime (`2026-11-22 11:13:37.702000+00:00`).
 */
import type { ShapeIndex, Type } from '../model/shapes.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): boolean => typeof v !== 'object' || v === null;

/** Python's repr() of a float (shortest digits; exponent below 1e-4 and from 1e16). */
export function pyFloat(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  const [mantissa = '0', exp = '0'] = n.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 16) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  const fixed = String(n);
  return Number.isInteger(n) ? `${fixed}.0` : fixed;
}

/** Python's repr() of a string: single quotes unless the text has one and no double quote. */
function pyStringRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += `\\${q}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + q;
}

function pyNumber(n: number): string {
  if (!Number.isInteger(n)) return pyFloat(n);
  // JSON integers are Python ints: all their digits, never an exponent.
  return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
}

function pyRepr(v: unknown): string {
  if (typeof v === 'string') return pyStringRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (isObj(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${pyStringRepr(k)}: ${pyRepr(x)}`)
      .join(', ')}}`;
  return pyStr(v);
}

/** A value as Python's str() prints it. */
export function pyStr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return pyNumber(v);
  if (typeof v === 'string') return v;
  return pyRepr(v);
}

const TIME = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * A wire date-time as Python prints the datetime the official CLI parses it
 * into: `2026-11-22 11:13:37.702000+00:00`, no fraction when it is zero, the
 * offset as given (`Z` is `+00:00`), none when the wire gave none.
 */
export function pyDateTime(wire: string): string {
  const m = TIME.exec(wire.trim());
  if (!m) return wire;
  const [, date, hh = '00', mm = '00', ss = '00', frac, zone] = m;
  const micro = frac ? frac.slice(0, 6).padEnd(6, '0') : '';
  let out = `${date} ${hh}:${mm}:${ss}${micro && /[1-9]/.test(micro) ? `.${micro}` : ''}`;
  if (zone) {
    if (zone === 'Z' || zone === 'z') out += '+00:00';
    else {
      const digits = zone.replace(':', '');
      out += `${digits.slice(0, 3)}:${digits.slice(3, 5) || '00'}`;
    }
  }
  return out;
}

/**
 * A response as the official CLI's parser hands it to the formatter: the
 * model's fields only, nulls left out, date-times as Python prints them.
 * Free-form objects are kept as they are.
 */
export function textView(shapes: ShapeIndex, type: Type, value: unknown): unknown {
  const t = shapes.resolve(type);
  if (value === null || value === undefined) return value;
  switch (t.kind) {
    case 'datetime':
      return typeof value === 'string' ? pyDateTime(value) : value;
    case 'list':
      return Array.isArray(value) ? value.map((v) => textView(shapes, t.of ?? { kind: 'string' }, v)) : value;
    case 'map':
      return isObj(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, textView(shapes, t.of ?? { kind: 'string' }, v)]))
        : value;
    case 'ref': {
      const struct = shapes.struct(t);
      if (!struct || !isObj(value)) return value;
      const out: Obj = {};
      for (const f of struct.fields) {
        const v = value[f.name];
        if (v !== null && v !== undefined) out[f.name] = textView(shapes, f.type, v);
      }
      return out;
    }
    default:
      return value;
  }
}

/** The whole text output of a value. */
export function formatText(value: unknown): string {
  return [...textParts(value)].join('');
}

/** About how much text a part holds. */
const PART_CHARS = 64 * 1024;

/**
 * The text output of a value, a part of about PART_CHARS at a time: an
 * answer of a million items is written as it is made, never held as one
 * string. Lists are walked with loops (no recursion on their length), only
 * on their nesting.
 */
export function* textParts(value: unknown): Generator<string> {
  let part = '';
  for (const line of lines(value)) {
    part += line;
    if (part.length >= PART_CHARS) {
      yield part;
      part = '';
    }
  }
  if (part) yield part;
}

function* lines(item: unknown, identifier?: string, scalarKeys?: readonly string[]): Generator<string> {
  if (Array.isArray(item)) yield* listLines(item, identifier);
  else if (isObj(item)) yield* dictLines(item, identifier, scalarKeys);
  else yield `${pyStr(item)}\n`;
}

function* listLines(items: readonly unknown[], identifier?: string): Generator<string> {
  if (items.length === 0) return;
  if (items.some(isObj)) {
    const keys = new Set<string>();
    for (const el of items) if (isObj(el)) for (const [k, v] of Object.entries(el)) if (isScalar(v)) keys.add(k);
    const all = [...keys].sort();
    for (const el of items) yield* lines(el, identifier, all);
    return;
  }
  if (items.some(Array.isArray)) {
    const scalars = items.filter(isScalar);
    if (scalars.length > 0) yield* scalarLines(scalars, identifier);
    for (const el of items) if (!isScalar(el)) yield* lines(el, identifier);
    return;
  }
  yield* scalarLines(items, identifier);
}

function* scalarLines(items: readonly unknown[], identifier?: string): Generator<string> {
  if (identifier !== undefined) for (const v of items) yield `${identifier.toUpperCase()}\t${pyStr(v)}\n`;
  else yield `${items.map(pyStr).join('\t')}\n`;
}

const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function* dictLines(item: Obj, identifier?: string, scalarKeys?: readonly string[]): Generator<string> {
  const scalars: string[] = [];
  const nested: Array<[string, unknown]> = [];
  if (scalarKeys === undefined) {
    for (const key of Object.keys(item).sort(byKey)) {
      const v = item[key];
      if (isScalar(v)) scalars.push(pyStr(v));
      else nested.push([key, v]);
    }
  } else {
    for (const key of scalarKeys) scalars.push(Object.hasOwn(item, key) ? pyStr(item[key]) : '');
    const known = new Set(scalarKeys);
    for (const key of Object.keys(item).sort(byKey)) if (!known.has(key)) nested.push([key, item[key]]);
  }
  if (scalars.length > 0) {
    if (identifier !== undefined) scalars.unshift(identifier.toUpperCase());
    yield `${scalars.join('\t')}\n`;
  }
  for (const [key, v] of nested) yield* lines(v, key);
}
