/**
 * The official CLI's shorthand syntax for structure values, read the way
 * `cdp` reads it so a command line means the same to both:
 *
 *   key=value,key2=value2           one structure
 *   key=a,b,c                       a list value (the commas after `key=`, up to the next `key=`)
 *   key=[a,b],key2={k=v,k2=[x]}     explicit lists and nested structures
 *   key="a,b" or key='a,b'          quoted text (\" or \' and \\ inside), a\,b an escaped comma
 *
 * Keys are letters, digits, `-`, `_` and `.`. Parsing knows no types; the
 * values are then typed by the model (`typeShorthand`): a single value where
 * a list belongs becomes a one-item list, integers and numbers are converted,
 * `true`/`false` (any case) become booleans, everything else stays text.
 */
import { usageError } from '../core/errors.js';
import { printable } from '../core/validate.js';
import type { ShapeIndex, Type } from '../model/shapes.js';

export type ShorthandValue = string | ShorthandValue[] | { [key: string]: ShorthandValue };

// Character classes of the grammar (as cdp defines them, as ranges of code points).
const START = '!#-&(-+\\--<>-Z\\\\-z|-\\uffff';
const FIRST_FOLLOW = '\\s!#-&(-+\\--\\\\^-|~-\\uffff';
const SECOND_FOLLOW = '\\s!#-&(-+\\--<>-\\uffff';
const word = (follow: string): RegExp => new RegExp(`^(?:\\\\,|[${START}])(?:\\\\,|[${follow}])*`, 'u');
/** A value where one value is expected: it may hold `=`, `[` or `{` after its first character. */
const FIRST_VALUE = word(FIRST_FOLLOW);
/** A further value of a comma list: it may not hold `=` (that starts the next key). */
const SECOND_VALUE = word(SECOND_FOLLOW);
const SINGLE_QUOTED = /^'(?:\\\\|\\'|[^'])*'/u;
const DOUBLE_QUOTED = /^"(?:\\\\|\\"|[^"])*"/u;
const KEY_CHAR = /[A-Za-z0-9\-_.]/;
const SPACE = /\s/u;

class ParseError extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
    readonly index: number,
  ) {
    super(`expected ${expected}, got ${actual}`);
  }
}

class Parser {
  private i = 0;
  constructor(private readonly text: string) {}

  parse(): Record<string, ShorthandValue> {
    const out: Record<string, ShorthandValue> = {};
    Object.assign(out, this.keyval());
    while (this.i < this.text.length) {
      this.expect(',', true);
      Object.assign(out, this.keyval());
    }
    return out;
  }

  private get eof(): boolean {
    return this.i >= this.text.length;
  }

  private current(): string | undefined {
    return this.text[this.i];
  }

  private skipSpace(): void {
    while (!this.eof && SPACE.test(this.text[this.i] ?? '')) this.i++;
  }

  private expect(ch: string, space = false): void {
    if (space) this.skipSpace();
    if (this.eof) throw new ParseError(`'${ch}'`, 'the end', this.i);
    const actual = this.text[this.i] ?? '';
    if (actual !== ch) throw new ParseError(`'${ch}'`, `'${actual}'`, this.i);
    this.i++;
    if (space) this.skipSpace();
  }

  private keyval(): Record<string, ShorthandValue> {
    const key = this.key();
    this.expect('=', true);
    return { [key]: this.values() };
  }

  private key(): string {
    const start = this.i;
    while (!this.eof && KEY_CHAR.test(this.text[this.i] ?? '')) this.i++;
    return this.text.slice(start, this.i);
  }

  private values(): ShorthandValue {
    if (this.eof) return '';
    if (this.current() === '[') return this.explicitList();
    if (this.current() === '{') return this.hash();
    return this.csvValue();
  }

  private match(re: RegExp): string | undefined {
    const m = re.exec(this.text.slice(this.i));
    if (!m) return undefined;
    this.i += m[0].length;
    return m[0];
  }

  private mustMatch(re: RegExp, name: string): string {
    const m = this.match(re);
    if (m === undefined) throw new ParseError(name, this.eof ? 'the end' : `'${this.current() ?? ''}'`, this.i);
    return m;
  }

  private quoted(re: RegExp, quote: string): string {
    return this.mustMatch(re, 'a closing quote').slice(1, -1).replaceAll(`\\${quote}`, quote).replaceAll('\\\\', '\\');
  }

  private firstValue(): string {
    if (this.current() === "'") return this.quoted(SINGLE_QUOTED, "'");
    if (this.current() === '"') return this.quoted(DOUBLE_QUOTED, '"');
    const m = this.match(FIRST_VALUE);
    return m === undefined ? '' : m.replaceAll('\\,', ',').trimEnd();
  }

  private secondValue(): string {
    if (this.current() === "'") return this.quoted(SINGLE_QUOTED, "'");
    if (this.current() === '"') return this.quoted(DOUBLE_QUOTED, '"');
    return this.mustMatch(SECOND_VALUE, 'a value').replaceAll('\\,', ',').trimEnd();
  }

  /** `key=a` is text; `key=a,b,c` a list, up to the comma before the next `key=`. */
  private csvValue(): ShorthandValue {
    const first = this.firstValue();
    this.skipSpace();
    if (this.eof || this.current() !== ',') return first;
    this.expect(',', true);
    const list: string[] = [first];
    for (;;) {
      try {
        const next = this.secondValue();
        this.skipSpace();
        if (this.eof) {
          list.push(next);
          break;
        }
        this.expect(',', true);
        list.push(next);
      } catch (err) {
        if (!(err instanceof ParseError) || this.eof) throw err;
        // That was the next key: step back to the comma before it.
        while (this.i >= 0 && this.text[this.i] !== ',') this.i--;
        break;
      }
    }
    return list.length === 1 ? first : list;
  }

  private explicitList(): ShorthandValue[] {
    this.expect('[', true);
    const out: ShorthandValue[] = [];
    while (this.current() !== ']') {
      out.push(this.explicitValue());
      this.skipSpace();
      if (this.current() !== ']') {
        this.expect(',');
        this.skipSpace();
      }
    }
    this.expect(']');
    return out;
  }

  private explicitValue(): ShorthandValue {
    if (this.current() === '[') return this.explicitList();
    if (this.current() === '{') return this.hash();
    return this.firstValue();
  }

  private hash(): Record<string, ShorthandValue> {
    this.expect('{', true);
    const out: Record<string, ShorthandValue> = {};
    while (this.current() !== '}') {
      const key = this.key();
      this.expect('=', true);
      const v = this.explicitValue();
      this.skipSpace();
      if (this.current() !== '}') {
        this.expect(',');
        this.skipSpace();
      }
      out[key] = v;
    }
    this.expect('}');
    return out;
  }
}

const clip = (s: string): string => printable(s, 60);

/** Parses shorthand text; a syntax error names the flag and where it went wrong. */
export function parseShorthandText(text: string, label: string): Record<string, ShorthandValue> {
  try {
    return new Parser(text).parse();
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    throw usageError(
      `${label}: shorthand syntax: expected ${err.expected} at character ${err.index + 1}, got ${err.actual}, in "${clip(text)}" (or give JSON)`,
    );
  }
}

/** Python's int() of text: optional sign, digits with single underscores between, spaces around. */
export function toInteger(raw: string, label: string): number {
  const t = raw.trim();
  if (!/^[+-]?\d+(?:_\d+)*$/.test(t)) throw usageError(`${label} must be an integer; got "${clip(raw)}"`);
  const n = Number(t.replace(/_/g, ''));
  if (!Number.isSafeInteger(n)) throw usageError(`${label} is too large: ${clip(raw)}`);
  return n;
}

export function toNumber(raw: string, label: string): number {
  const n = Number(raw.trim().replace(/(\d)_(?=\d)/g, '$1'));
  if (raw.trim() === '' || !Number.isFinite(n)) throw usageError(`${label} must be a number; got "${clip(raw)}"`);
  return n;
}

/**
 * Types parsed shorthand by the model, as cdp does: only fields the structure
 * knows are converted; unknown keys are left for validation to name.
 */
export function typeShorthand(value: unknown, type: Type, shapes: ShapeIndex, label: string): unknown {
  const t = shapes.resolve(type);
  if (t.kind === 'list') {
    if (!Array.isArray(value)) return value === undefined ? value : [typeShorthand(value, t.of ?? { kind: 'string' }, shapes, label)];
    return value.map((v) => typeShorthand(v, t.of ?? { kind: 'string' }, shapes, label));
  }
  if (typeof value === 'string') {
    if (t.kind === 'int32' || t.kind === 'int64') return toInteger(value, label);
    if (t.kind === 'double') return toNumber(value, label);
    if (t.kind === 'boolean') {
      const low = value.toLowerCase();
      return low === 'true' ? true : low === 'false' ? false : value;
    }
    return value;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const obj = value as Record<string, unknown>;
  if (t.kind === 'map') {
    const of = t.of ?? { kind: 'string' };
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, typeShorthand(v, of, shapes, `${label} ${k}`)]));
  }
  const struct = shapes.struct(t);
  if (!struct) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const f = struct.byName.get(k);
    out[k] = f ? typeShorthand(v, f.type, shapes, `${label} ${clip(k)}`) : v;
  }
  return out;
}

/** Structures, maps and free JSON objects take shorthand; so do lists of them. */
export function takesShorthand(type: Type, shapes: ShapeIndex): boolean {
  const t = shapes.resolve(type);
  return t.kind === 'ref' || t.kind === 'map' || t.kind === 'object';
}
