/**
 * Turns what the user typed into a wire request: flag strings converted by
 * the field's type (JSON, `key=value` shorthand, `file://`), merged over an
 * `--input` document (JSON or YAML, from a file or stdin).
 */
import type { Field, ShapeIndex, Type } from '../model/shapes.js';
import { READ_LIMITS, readBounded, readStreamBounded } from '../core/bounded-read.js';
import { CdpError, fileProblem, usageError } from '../core/errors.js';
import { expandPath } from '../core/files.js';
import { printable } from '../core/validate.js';
import { parseShorthandText, takesShorthand, toInteger, toNumber, typeShorthand } from './shorthand.js';

export type Doc = Record<string, unknown>;

export { expandPath } from '../core/files.js';

/** A numeric flag's value (`--max-items 10`), or undefined when it is not given; anything else is a usage error. */
export function numberFlag(
  flags: Readonly<Record<string, unknown>>,
  name: string,
  opts: { min?: number; integer?: boolean } = {},
): number | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (
    typeof raw !== 'string' ||
    raw.trim() === '' ||
    !Number.isFinite(n) ||
    (opts.integer && !Number.isInteger(n)) ||
    (opts.min !== undefined && n < opts.min)
  ) {
    throw usageError(
      `--${name} must be ${opts.integer ? 'an integer' : 'a number'}${opts.min !== undefined ? ` of at least ${opts.min}` : ''}; got "${printable(String(raw), 40)}"`,
    );
  }
  return n;
}

/** A file a value names, within the request cap; a pipe (`file://<(…)`) is read too. */
function readFile(path: string, label: string): Buffer {
  try {
    return readBounded(expandPath(path), { label, maxBytes: READ_LIMITS.request, pipes: true });
  } catch (err) {
    if (err instanceof CdpError) throw err;
    throw usageError(`${label}: cannot read ${path}: ${fileProblem(err)}`);
  }
}

/** Reads `file://path` values (unless expansion is off: --no-parameter-expansion); other text is returned as it is. */
export function readValue(raw: string, label: string, expand = true): string {
  if (!expand || !raw.startsWith('file://')) return raw;
  const path = raw.slice('file://'.length);
  return decodeUtf8(readFile(path, label), `${label}: ${path}`);
}

/**
 * Reads file references in string and base64 fields at any depth, as the
 * official CLI does for flags and --cli-input-json alike: `file://path` as
 * UTF-8 text, `fileb://path` (base64 fields only) as the file's bytes.
 */
export function expandFiles(shapes: ShapeIndex, type: Type, value: unknown, label: string): unknown {
  const t = shapes.resolve(type);
  if (typeof value === 'string') {
    if (t.kind !== 'string' && t.kind !== 'bytes') return value;
    if (value.startsWith('fileb://')) {
      if (t.kind !== 'bytes') throw usageError(`${label}: fileb:// is for base64 fields; use file:// for text`);
      return readFile(value.slice('fileb://'.length), label).toString('base64');
    }
    return readValue(value, label);
  }
  if (Array.isArray(value) && t.kind === 'list') return value.map((v) => expandFiles(shapes, t.of ?? { kind: 'string' }, v, label));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const obj = value as Doc;
  if (t.kind === 'map')
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, expandFiles(shapes, t.of ?? { kind: 'string' }, v, label)]));
  const struct = shapes.struct(t);
  if (!struct) return value;
  // fromEntries defines own properties: a `__proto__` key stays a key, for the validator to refuse like any unknown field.
  return Object.fromEntries(
    Object.entries(obj).map(([k, v]) => {
      const f = struct.byName.get(k);
      return [k, f ? expandFiles(shapes, f.type, v, label) : v];
    }),
  );
}

/** Strict UTF-8: invalid bytes are an input error, not silently replaced. */
export function decodeUtf8(buf: Buffer, label: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw usageError(`${label} is not valid UTF-8 text`);
  }
}

function parseJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw usageError(`${label} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The name the request document's flag was given on the command line. A
 * `cdp` user types `--cli-input-json`: errors name what they typed, and the
 * document is sent as `cdp` sends it (see withoutPlaceholders).
 */
export function inputFlagOf(argv: readonly string[]): '--input' | '--cli-input-json' {
  return argv.some((a) => a === '--cli-input-json' || a.startsWith('--cli-input-json=')) ? '--cli-input-json' : '--input';
}

/** Loads an --input document: JSON or YAML, from a path, `file://path` or `-` (stdin); `flag` is how it was given. */
export async function loadInputDocument(spec: string, readStdin: () => Promise<Buffer>, flag = '--input'): Promise<Doc> {
  const label = spec === '-' ? `${flag} (stdin)` : `${flag} ${spec}`;
  let text: string;
  if (spec === '-') text = decodeUtf8(await readStdin(), label);
  else if (spec.trimStart().startsWith('{')) text = spec;
  else text = readValue(spec.startsWith('file://') ? spec : `file://${spec}`, flag);
  let doc: unknown;
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) doc = parseJson(text, label);
  else {
    const { parse } = await import('yaml');
    try {
      doc = parse(text, { maxAliasCount: 100 });
    } catch (err) {
      throw usageError(`${label} is neither JSON nor YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw usageError(`${label} must hold an object of request fields`);
  return doc as Doc;
}

/**
 * Parses `key=value,key2=[a,b],key3={x=1}` shorthand into an object typed by
 * the structure's fields, as the official CLI reads it (see shorthand.ts).
 */
export function parseShorthand(text: string, shapes: ShapeIndex, type: Type, label: string): Doc {
  return typeShorthand(parseShorthandText(text, label), type, shapes, label) as Doc;
}

/** A scalar flag value as cdp converts it: Python's int() and float() for numbers. */
export function convertScalar(raw: string, type: Type, label: string): unknown {
  switch (type.kind) {
    case 'int32':
    case 'int64':
      return toInteger(raw, label);
    case 'double':
      return toNumber(raw, label);
    case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw usageError(`${label} must be true or false; got "${clip(raw)}"`);
    default:
      return raw;
  }
}

/** User text quoted in a message: control characters escaped (one line), long text cut. */
const clip = (s: string): string => printable(s, 40);

function jsonObject(text: string, label: string): Doc {
  const v = parseJson(text, label);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw usageError(`${label} must be a JSON object`);
  return v as Doc;
}

/** One structure value: JSON when it starts with `{`, else shorthand (a lone `Value` member takes the bare text). */
function structValue(raw: string, type: Type, shapes: ShapeIndex, label: string): unknown {
  const trimmed = raw.trim();
  if (trimmed.startsWith('{')) return jsonObject(trimmed, label);
  if (trimmed.startsWith('[')) throw usageError(`${label} must be a JSON object or key=value shorthand; got a list`);
  const struct = shapes.struct(type);
  const only = struct?.fields.length === 1 ? struct.fields[0] : undefined;
  if (only?.name === 'Value' && shapes.resolve(only.type).kind === 'string' && !raw.includes('=')) return { Value: raw };
  return parseShorthand(raw, shapes, type, label);
}

/**
 * Converts the raw string values of one flag to the field's wire value, by
 * the official CLI's rules (`file://` read unless `expand` is false):
 * - a list takes its values as separate words (`--groups ops dev`, or the flag
 *   repeated); a comma is part of a value (`--groups ops,dev` is one group);
 *   one value starting with `[` is the whole list as JSON;
 * - a list of structures takes one JSON object or one shorthand structure per
 *   word (a structure of one field takes bare values: `--ids a b`);
 * - a structure or map takes JSON or shorthand; a scalar its text.
 */
export function convertFlag(values: readonly string[], field: Field, shapes: ShapeIndex, flag: string, expand = true): unknown {
  const label = `--${flag}`;
  const type = shapes.resolve(field.type);
  if (type.kind === 'list') {
    // As cdp does, a file is read only when it is the flag's one value.
    const raw = values.length === 1 ? [readValue(values[0] ?? '', label, expand)] : [...values];
    const first = (raw[0] ?? '').trim();
    if (raw.length === 1 && first.startsWith('[')) {
      const parsed = parseJson(first, label);
      if (!Array.isArray(parsed)) throw usageError(`${label} must be a JSON list`);
      return parsed;
    }
    const ofType = type.of ?? { kind: 'string' };
    const of = shapes.resolve(ofType);
    if (takesShorthand(of, shapes)) {
      if (first.startsWith('{') || first.startsWith('[')) return raw.map((v) => jsonObject(v.trim(), label));
      const struct = shapes.struct(of);
      const only = struct?.fields.length === 1 ? struct.fields[0] : undefined;
      if (only) return raw.map((v) => ({ [only.name]: v }));
      return raw.map((v) => parseShorthand(v, shapes, of, label));
    }
    return raw.map((v) => convertScalar(v, of, label));
  }
  const rawValue = values[values.length - 1] ?? '';
  const raw = readValue(rawValue, label, expand);
  if (takesShorthand(type, shapes)) return structValue(raw, type, shapes, label);
  return convertScalar(raw, type, label);
}

/** Reads all of the process's stdin (`--input -`), within the request cap; a run context reads its IO's (IO.readInput). */
export function readAllStdin(): Promise<Buffer> {
  return readStreamBounded(process.stdin, { label: '--input', name: 'stdin', maxBytes: READ_LIMITS.request });
}

/** The date a skeleton shows in a date-time field (the official CLI's). */
export const SKELETON_DATETIME = '2002-10-02T13:00:00+00:00';

/**
 * A request skeleton with every field, nested shapes expanded (cycles cut),
 * as the official CLI's --generate-cli-skeleton writes it: "" for text and
 * enums, 0 for numbers, true for booleans, one sample item in lists,
 * `{"KeyName": ...}` for maps.
 */
export function skeleton(shapes: ShapeIndex, shapeName: string, seen: ReadonlySet<string> = new Set()): Doc {
  const shape = shapes.get(shapeName);
  if (shape.kind !== 'struct') return {};
  const out: Doc = {};
  for (const f of shape.fields) out[f.name] = sample(shapes, f.type, new Set([...seen, shapeName]));
  return out;
}

function sample(shapes: ShapeIndex, raw: Type, seen: ReadonlySet<string>): unknown {
  const t = shapes.resolve(raw);
  switch (t.kind) {
    case 'string':
    case 'bytes':
      return '';
    case 'datetime':
      return SKELETON_DATETIME;
    case 'int32':
    case 'int64':
    case 'double':
      return 0;
    case 'boolean':
      return true;
    case 'object':
      return {};
    case 'list':
      return [sample(shapes, t.of ?? { kind: 'string' }, seen)];
    case 'map':
      return { KeyName: sample(shapes, t.of ?? { kind: 'string' }, seen) };
    case 'ref':
      return t.ref && !seen.has(t.ref) ? skeleton(shapes, t.ref, seen) : {};
  }
}

/** Marks a value left out. */
const ABSENT = Symbol('absent');

/**
 * An --input document with the skeleton's placeholders that were not filled
 * in left out, so an edited skeleton sends only what was filled in. Only for
 * cdpctl's own `--input`: under `--cli-input-json` the document goes as
 * `cdp` sends it, "" and all (`"imageVersion": ""` can mean "the default"
 * to a service). Left out: "" in a
 * text or enum field, the skeleton's date, a list of nothing but
 * placeholders, a `{"KeyName": ...}` map, and a structure whose every field
 * was a placeholder. Numbers and booleans are values (0, true) and stay.
 * Fields the request does not have are kept for the validator to report.
 */
export function withoutPlaceholders(shapes: ShapeIndex, shapeName: string, doc: Doc): Doc {
  const out = strip(shapes, { kind: 'ref', ref: shapeName }, doc);
  return out === ABSENT ? {} : (out as Doc);
}

function strip(shapes: ShapeIndex, raw: Type, value: unknown): unknown {
  const t = shapes.resolve(raw);
  switch (t.kind) {
    case 'string':
    case 'bytes':
      return value === '' ? ABSENT : value;
    case 'datetime':
      return value === '' || value === SKELETON_DATETIME ? ABSENT : value;
    case 'list': {
      if (!Array.isArray(value) || value.length === 0) return value;
      const items = value.map((v) => strip(shapes, t.of ?? { kind: 'string' }, v));
      return items.every((v) => v === ABSENT) ? ABSENT : items.map((v, i) => (v === ABSENT ? value[i] : v));
    }
    case 'map': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      const keys = Object.keys(value);
      const only = keys.length === 1 && keys[0] === 'KeyName';
      return only && strip(shapes, t.of ?? { kind: 'string' }, (value as Doc).KeyName) === ABSENT ? ABSENT : value;
    }
    case 'ref': {
      const struct = shapes.struct(t);
      if (!struct || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      const entries = Object.entries(value as Doc);
      if (entries.length === 0) return value;
      const kept = entries
        .map(([k, v]): [string, unknown] => {
          const f = struct.byName.get(k);
          return [k, f ? strip(shapes, f.type, v) : v];
        })
        .filter(([, v]) => v !== ABSENT);
      // As own properties (fromEntries), so that a `__proto__` key is kept and refused, never taken for the prototype.
      return kept.length === 0 ? ABSENT : Object.fromEntries(kept);
    }
    default:
      return value;
  }
}
