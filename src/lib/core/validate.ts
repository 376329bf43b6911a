/**
 * Checks a request document against its shape and the operation's rules
 * before anything is sent (CLI) or acted on (emulator). All problems are
 * collected, each naming the field.
 */
import type { Field, ShapeIndex, Type } from '../model/shapes.js';
import type { Rule } from '../model/types.js';
import { oneLine } from './visible.js';

export interface Issue {
  /** Wire path: `userId`, `instances.instanceIds[0]`. */
  readonly path: string;
  /** Top-level field the issue belongs to. */
  readonly field: string;
  /** In the wire's words, naming the wire path (what the emulator answers). */
  readonly message: string;
  /** The message without its subject (`is required`, `must be a string`), for a caller that names the field its own way. */
  readonly problem?: string;
  /** The message with each wire field named by `name` (a rule's own wording about several fields). */
  readonly say?: (name: (field: string) => string) => string;
  /** Which rule of the operation found it; shape checks have none. */
  readonly rule?: Rule['kind'];
  /** A field its object does not have: the fields it has, in the model's order, and the nearest of them as a hint. */
  readonly unknown?: { readonly known: readonly string[]; readonly hint: string };
}

/** An issue about the value at `path`: `"path" problem`. */
const at = (path: string, field: string, problem: string): Issue => ({ path, field, message: `"${printable(path)}" ${problem}`, problem });

const MAX_DEPTH = 32;
const INT32 = 2 ** 31;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function describe(type: Type, shapes: ShapeIndex): string {
  const t = shapes.resolve(type);
  switch (t.kind) {
    case 'list':
      return 'a list';
    case 'map':
    case 'object':
      return 'an object';
    case 'ref':
      return 'an object';
    case 'int32':
    case 'int64':
      return 'an integer';
    case 'double':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'datetime':
      return 'a date-time (ISO 8601)';
    case 'bytes':
      return 'base64 text';
    default:
      return 'a string';
  }
}

export function validateRequest(shapes: ShapeIndex, shapeName: string, request: unknown, rules: readonly Rule[] = []): Issue[] {
  const issues: Issue[] = [];
  if (!isObject(request)) return [{ path: '', field: '', message: 'the request must be a JSON object' }];
  checkStruct(shapes, shapeName, request, '', '', issues, 0);
  // Everything wrong at once: the rules run too, except those about a field already found wrong or missing.
  checkRules(rules, request, issues, new Set(issues.map((i) => i.field)));
  return issues;
}

/** The request fields a rule reads (for a custom rule, the one it reports against). */
function ruleFields(rule: Rule): readonly string[] {
  switch (rule.kind) {
    case 'exclusive':
    case 'oneOf':
    case 'anyOf':
      return rule.fields;
    case 'requires':
      return [rule.field, rule.needs];
    default:
      return [rule.field];
  }
}

function checkStruct(
  shapes: ShapeIndex,
  shapeName: string,
  value: Record<string, unknown>,
  prefix: string,
  top: string,
  issues: Issue[],
  depth: number,
): void {
  const shape = shapes.get(shapeName);
  if (shape.kind !== 'struct') return;
  for (const key of Object.keys(value)) {
    if (!shape.byName.has(key)) {
      const path = prefix + key;
      const known = [...shape.byName.keys()];
      const hint = suggest(key, known);
      issues.push({
        path,
        field: top || key,
        message: `unknown field "${printable(path)}"${hint}`,
        problem: `is not a field of the request${hint}`,
        unknown: { known, hint },
      });
    }
  }
  for (const field of shape.fields) {
    const path = prefix + field.name;
    const v = value[field.name];
    if (v === undefined || v === null) {
      if (field.required)
        issues.push({ path, field: top || field.name, message: `missing required field "${printable(path)}"`, problem: 'is required' });
      continue;
    }
    checkValue(shapes, field, field.type, v, path, top || field.name, issues, depth + 1);
  }
}

function checkValue(
  shapes: ShapeIndex,
  field: Field,
  rawType: Type,
  v: unknown,
  path: string,
  top: string,
  issues: Issue[],
  depth: number,
): void {
  if (depth > MAX_DEPTH) {
    issues.push(at(path, top, 'is nested too deeply'));
    return;
  }
  const type = shapes.resolve(rawType);
  const bad = (): void => {
    issues.push(at(path, top, `must be ${describe(type, shapes)}`));
  };
  switch (type.kind) {
    case 'string':
    case 'datetime':
    case 'bytes': {
      if (typeof v !== 'string') return bad();
      if (type.enum && !type.enum.includes(v)) {
        issues.push(at(path, top, `must be one of ${type.enum.join(', ')}; got "${clip(v)}"${suggest(v, type.enum)}`));
        return;
      }
      if (type.kind === 'datetime' && !ISO_DATE.test(v)) return bad();
      if (type.kind === 'bytes' && !BASE64.test(v)) return bad();
      if (field.minLen !== undefined && v.length < field.minLen) issues.push(at(path, top, `must be at least ${field.minLen} characters`));
      if (field.maxLen !== undefined && v.length > field.maxLen)
        issues.push(at(path, top, `must be at most ${field.maxLen} characters; got ${v.length}`));
      return;
    }
    case 'int32':
    case 'int64': {
      if (typeof v !== 'number' || !Number.isInteger(v)) return bad();
      if (type.kind === 'int32' && (v < -INT32 || v >= INT32)) return bad();
      if (!Number.isSafeInteger(v)) return bad();
      return checkRange(field, v, path, top, issues);
    }
    case 'double':
      if (typeof v !== 'number' || !Number.isFinite(v)) return bad();
      return checkRange(field, v, path, top, issues);
    case 'boolean':
      if (typeof v !== 'boolean') return bad();
      return;
    case 'object':
      if (!isObject(v)) return bad();
      if (depthOf(v, depth) > MAX_DEPTH) issues.push(at(path, top, 'is nested too deeply'));
      return;
    case 'list': {
      if (!Array.isArray(v)) return bad();
      const of = type.of ?? { kind: 'string' };
      const before = issues.length;
      v.forEach((item, i) => checkValue(shapes, field, of, item, `${path}[${i}]`, top, issues, depth + 1));
      // Only items that passed (so are not nested too deeply to serialise) are compared.
      if (field.unique && issues.length === before && new Set(v.map((x) => JSON.stringify(x))).size !== v.length)
        issues.push(at(path, top, 'must not repeat items'));
      return;
    }
    case 'map': {
      if (!isObject(v)) return bad();
      const of = type.of ?? { kind: 'string' };
      for (const [k, item] of Object.entries(v)) checkValue(shapes, field, of, item, `${path}.${k}`, top, issues, depth + 1);
      return;
    }
    case 'ref': {
      if (!isObject(v)) return bad();
      checkStruct(shapes, type.ref ?? '', v, `${path}.`, top, issues, depth + 1);
      return;
    }
  }
}

/** How deep a value nests below `depth`, counted no further than one past `limit` (so never deeper than that on the stack). */
function depthOf(v: unknown, depth: number, limit = MAX_DEPTH): number {
  if (depth > limit) return depth;
  let deepest = depth;
  // A loop, not Math.max(...items): a list of 200,000 items must not overflow the stack.
  if (Array.isArray(v) || isObject(v)) {
    for (const x of Object.values(v)) {
      deepest = Math.max(deepest, depthOf(x, depth + 1, limit));
      if (deepest > limit) break;
    }
  }
  return deepest;
}

/** Whether a value nests lists and objects more than `limit` levels deep (a JSON document as a server receives it). */
export const deeperThan = (v: unknown, limit: number): boolean => depthOf(v, 0, limit) > limit;

function checkRange(field: Field, v: number, path: string, top: string, issues: Issue[]): void {
  const { min, max } = field;
  if ((min !== undefined && v < min) || (max !== undefined && v > max)) {
    const range =
      min !== undefined && max !== undefined ? `between ${min} and ${max}` : min !== undefined ? `at least ${min}` : `at most ${max}`;
    issues.push(at(path, top, `must be ${range}; got ${v}`));
  }
}

const quoted = (f: string): string => `"${f}"`;

const present = (r: Readonly<Record<string, unknown>>, f: string): boolean => r[f] !== undefined && r[f] !== null;

function checkRules(rules: readonly Rule[], r: Readonly<Record<string, unknown>>, issues: Issue[], wrong: ReadonlySet<string>): void {
  for (const rule of rules) {
    if (ruleFields(rule).some((f) => wrong.has(f))) continue;
    switch (rule.kind) {
      case 'pattern': {
        const v = r[rule.field];
        if (typeof v === 'string' && !rule.pattern.test(v))
          issues.push({ path: rule.field, field: rule.field, message: rule.message, rule: rule.kind });
        break;
      }
      case 'exclusive': {
        const given = rule.fields.filter((f) => present(r, f) && r[f] !== false);
        if (given.length > 1) {
          const say = (name: (f: string) => string): string => rule.message ?? `give only one of ${given.map(name).join(' and ')}`;
          issues.push({ path: given[1] ?? '', field: given[1] ?? '', message: say(quoted), say, rule: rule.kind });
        }
        break;
      }
      case 'requires':
        if (present(r, rule.field) && !present(r, rule.needs)) {
          const say = (name: (f: string) => string): string => rule.message ?? `${name(rule.field)} needs ${name(rule.needs)}`;
          issues.push({ path: rule.field, field: rule.field, message: say(quoted), say, rule: rule.kind });
        }
        break;
      case 'oneOf': {
        const n = rule.fields.filter((f) => present(r, f)).length;
        if (n !== 1) {
          const say = (name: (f: string) => string): string => rule.message ?? `give exactly one of ${rule.fields.map(name).join(', ')}`;
          issues.push({ path: rule.fields[0] ?? '', field: rule.fields[0] ?? '', message: say(quoted), say, rule: rule.kind });
        }
        break;
      }
      case 'anyOf':
        if (!rule.fields.some((f) => present(r, f)))
          issues.push({ path: rule.fields[0] ?? '', field: rule.fields[0] ?? '', message: rule.message, rule: rule.kind });
        break;
      case 'custom': {
        let message: string | undefined;
        let problem: string | undefined;
        try {
          message = rule.check(r);
        } catch {
          // A rule that cannot read a field of the wrong type: the shape issue already says so.
          problem = wrong.size > 0 ? undefined : 'is not valid';
          message = problem && `"${rule.field}" ${problem}`;
        }
        if (message) issues.push({ path: rule.field, field: rule.field, message, ...(problem ? { problem } : {}), rule: rule.kind });
        break;
      }
    }
  }
}

/**
 * User text shown in a message: control and line-break characters escaped,
 * so a message stays one line, and text over `max` characters cut.
 */
export function printable(s: string, max = 100): string {
  return oneLine(s.length > max ? `${s.slice(0, max)}…` : s);
}

const clip = (s: string): string => printable(s, 40);

/**
 * ` (did you mean "X"?)` for a near miss, else empty; with `max` above one,
 * up to that many (` (did you mean "X", "Y" or "Z"?)`), the closest first.
 */
export function suggest(given: string, options: readonly string[], max = 1): string {
  const near = nearest(given, options, max);
  if (near.length === 0) return '';
  const quoted = near.map((o) => `"${o}"`);
  const last = quoted.pop() ?? '';
  return ` (did you mean ${quoted.length > 0 ? `${quoted.join(', ')} or ${last}` : last}?)`;
}

const wordsOf = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[\s:_-]+/)
    .filter(Boolean);

/** True when every word of `typed` appears in `option`, in order (`create-access-key` in `create-user-access-key`). */
function wordsWithin(typed: readonly string[], option: readonly string[]): boolean {
  let i = 0;
  for (const w of option) if (w === typed[i]) i++;
  return i === typed.length;
}

/**
 * The options nearest to what was typed, closest first. Three kinds of near,
 * in this order: a typo or two away (`list-user` for `list-users`); the
 * typed words all there with a word or two more (the longer names a `cdp`
 * user half-remembers: `create-access-key` for `create-user-access-key` and
 * `create-machine-user-access-key`); then what Python's difflib calls close
 * (a similarity of 0.8 or more, the cut-off the official CLI uses for its
 * "maybe you meant"). When none is, the one fewest typing mistakes away
 * within a third of its length.
 */
export function nearest(given: string, options: readonly string[], max = 1): string[] {
  const g = given.toLowerCase();
  if (g.length > 64 || max < 1) return [];
  const typed = wordsOf(g);
  // A command path is compared after the topic both share (`datalake describe-datalakes`
  // beside `datalake resize-datalake` is two verbs apart, not a shared prefix alike).
  const space = g.indexOf(' ');
  const topic = space > 0 ? g.slice(0, space + 1) : '';
  const body = (o: string): string => (topic && o.startsWith(topic) ? o.slice(topic.length) : o);
  const candidates = options.map((o) => {
    const lower = o.toLowerCase();
    const a = topic && lower.startsWith(topic) ? g.slice(topic.length) : g;
    return { o, words: wordsOf(lower), typos: distance(a, body(lower)), ratio: similarity(a, body(lower)), size: body(lower).length };
  });
  const out: string[] = [];
  const take = (list: ReadonlyArray<{ o: string }>): void => {
    for (const { o } of list) if (out.length < max && !out.includes(o) && o.toLowerCase() !== g) out.push(o);
  };
  take(candidates.filter((c) => c.typos <= 2 && c.typos < c.size / 3).sort((a, b) => a.typos - b.typos || a.o.localeCompare(b.o)));
  if (typed.length >= 2)
    take(
      candidates
        .filter((c) => c.words.length > typed.length && c.words.length <= typed.length + 2 && wordsWithin(typed, c.words))
        .sort((a, b) => a.words.length - b.words.length || a.o.localeCompare(b.o)),
    );
  take(candidates.filter((c) => c.ratio >= 0.8).sort((a, b) => b.ratio - a.ratio || a.o.localeCompare(b.o)));
  if (out.length === 0) {
    const best = candidates.reduce<(typeof candidates)[number] | undefined>((m, c) => (!m || c.typos < m.typos ? c : m), undefined);
    if (best && best.typos <= Math.max(2, Math.floor(best.o.length / 3))) take([best]);
  }
  return out;
}

/**
 * Ratcliff and Obershelp's similarity, as Python's difflib.SequenceMatcher
 * computes it (without its junk heuristic): twice the characters in matching
 * blocks over the length of both. The longest common block is taken first,
 * then the same again on each side of it.
 */
function similarity(a: string, b: string): number {
  if (a.length + b.length === 0) return 1;
  const matched = (aLo: number, aHi: number, bLo: number, bHi: number): number => {
    let bestI = aLo;
    let bestJ = bLo;
    let size = 0;
    // run[j] = length of the common block ending at a[i-1], b[j-1].
    let run = new Array<number>(bHi - bLo + 1).fill(0);
    for (let i = aLo; i < aHi; i++) {
      const next = new Array<number>(bHi - bLo + 1).fill(0);
      for (let j = bLo; j < bHi; j++) {
        if (a[i] !== b[j]) continue;
        const k = (run[j - bLo] ?? 0) + 1;
        next[j - bLo + 1] = k;
        if (k > size) {
          size = k;
          bestI = i - k + 1;
          bestJ = j - k + 1;
        }
      }
      run = next;
    }
    if (size === 0) return 0;
    return size + matched(aLo, bestI, bLo, bestJ) + matched(bestI + size, aHi, bestJ + size, bHi);
  };
  return (2 * matched(0, a.length, 0, b.length)) / (a.length + b.length);
}

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j] ?? 0;
      prev[j] = Math.min((prev[j] ?? 0) + 1, (prev[j - 1] ?? 0) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length] ?? 0;
}
