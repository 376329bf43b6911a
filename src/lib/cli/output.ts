/**
 * Output formats (json, yaml, table, text, tsv, jsonl) and --query.
 * Formatters are pure functions from a value to text; streaming variants
 * write items of a paged listing as pages arrive so memory stays flat.
 * `text` is the official CLI's layout (text.ts); `tsv` is cdpctl's compact
 * one-row-per-item form.
 */
import { CdpError } from '../core/errors.js';

export type OutputFormat = 'json' | 'yaml' | 'table' | 'text' | 'tsv' | 'jsonl';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['json', 'yaml', 'table', 'text', 'tsv', 'jsonl'];

export type Columns = Readonly<Record<string, string>>;

type JsonValue = unknown;

/** A compiled --query: applied to a result, throws when the expression fails on it. */
export type Query = ((v: JsonValue) => JsonValue) & { readonly expression: string };

/**
 * Backtick literals that are not JSON taken as strings (``users[?email==`a@x`]``),
 * as the Python JMESPath library under the official and AWS CLIs reads them:
 * the text, left-trimmed, becomes a JSON string literal. Raw strings and
 * quoted identifiers are left alone.
 */
export function lenientLiterals(expr: string): string {
  let out = '';
  let i = 0;
  while (i < expr.length) {
    const ch = expr[i] ?? '';
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < expr.length && expr[j] !== ch) j += expr[j] === '\\' ? 2 : 1;
      out += expr.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch !== '`') {
      out += ch;
      i++;
      continue;
    }
    let j = i + 1;
    while (j < expr.length && expr[j] !== '`') j += expr[j] === '\\' && expr[j + 1] === '`' ? 2 : 1;
    if (j >= expr.length) {
      out += expr.slice(i);
      break;
    }
    const raw = expr.slice(i + 1, j);
    const lexeme = raw.replace(/\\`/g, '`');
    let literal = raw;
    try {
      JSON.parse(lexeme);
    } catch {
      try {
        literal = JSON.stringify(JSON.parse(`"${lexeme.trimStart()}"`) as string).replace(/`/g, '\\`');
      } catch {
        // Neither JSON nor a string: the parser reports it.
      }
    }
    out += `\`${literal}\``;
    i = j + 1;
  }
  return out;
}

/** Compiles a JMESPath expression once; a syntax error is a usage error (nothing is sent). */
export async function compileQuery(expr: string): Promise<Query> {
  const { compile, TreeInterpreter } = await import('@jmespath-community/jmespath');
  let ast: ReturnType<typeof compile>;
  try {
    ast = compile(lenientLiterals(expr));
  } catch (err) {
    throw new CdpError({
      kind: 'usage',
      code: 'INVALID_QUERY',
      message: `--query "${expr}" is not valid JMESPath: ${(err as Error).message}`,
    });
  }
  const run = (v: JsonValue): JsonValue => TreeInterpreter.search(ast, v as Parameters<typeof TreeInterpreter.search>[1]);
  return Object.assign(run, { expression: expr });
}

/** JSON as the official CLI's --ensure-ascii writes it: every non-ASCII UTF-16 unit as \\uXXXX. */
export const asciiJson = (text: string): string =>
  text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function formatJson(value: JsonValue): string {
  return JSON.stringify(value, null, 2) + '\n';
}

export function formatJsonl(value: JsonValue, listKey?: string): string {
  const items = listOf(value, listKey);
  if (items) return items.map((i) => JSON.stringify(i)).join('\n') + (items.length ? '\n' : '');
  return JSON.stringify(value) + '\n';
}

export async function formatYaml(value: JsonValue): Promise<string> {
  const { stringify } = await import('yaml');
  return stringify(value, { lineWidth: 0 });
}

/** The list a result holds: the named key, the only array field, or the value itself. */
export function listOf(value: JsonValue, listKey?: string): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const obj = value as Record<string, unknown>;
  if (listKey && Array.isArray(obj[listKey])) return obj[listKey] as unknown[];
  const arrays = Object.values(obj).filter(Array.isArray);
  const scalars = Object.entries(obj).filter(([k, v]) => !Array.isArray(v) && k !== 'nextToken' && k !== 'nextPageToken');
  return arrays.length === 1 && scalars.length === 0 ? (arrays[0] as unknown[]) : undefined;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: making one costs far more than using it. */
function timeFormat(timeZone?: string): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let f = timeFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    timeFormats.set(key, f);
  }
  return f;
}

/**
 * A wire time in the user's time zone ($TZ, else the system's) for people:
 * `2026-11-22 11:00:00 GMT+1`. Sortable, fixed width, and says which zone.
 */
export function localTime(iso: string, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const parts = Object.fromEntries(
    timeFormat(timeZone)
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${parts.timeZoneName ?? ''}`.trimEnd();
}

/**
 * A cell: scalars as they are, objects as compact JSON. With `localTime`
 * (tables), wire times are shown in the user's zone; json, yaml, jsonl and
 * text keep the wire value.
 */
export function cell(v: unknown, localTimes: boolean | { timeZone?: string } = false): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') {
    if (localTimes && ISO.test(v)) return localTime(v, typeof localTimes === 'object' ? localTimes.timeZone : undefined);
    return v;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** Column set for items: the model's columns, else the scalar fields of the first item. */
export function columnsFor(items: readonly unknown[], columns?: Columns): Array<[string, (item: unknown) => unknown]> {
  if (columns) {
    return Object.entries(columns).map(([header, path]) => [header, (item: unknown) => pick(item, path)]);
  }
  // Rows of a query like `users[].[userId, email]`: one column per position.
  if (items.length > 0 && items.every(Array.isArray)) {
    const n = Math.max(...items.slice(0, 50).map((i) => (i as unknown[]).length));
    return Array.from(
      { length: n },
      (_, i) => [`[${i}]`, (item: unknown) => (item as unknown[])[i]] as [string, (item: unknown) => unknown],
    );
  }
  const keys = new Set<string>();
  for (const item of items.slice(0, 50)) {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      for (const [k, v] of Object.entries(item)) if (v === null || typeof v !== 'object') keys.add(k);
    }
  }
  if (keys.size === 0) return [['value', (item: unknown) => item]];
  return [...keys].map((k) => [k, (item: unknown) => (item as Record<string, unknown>)[k]]);
}

/** Dotted path lookup (columns use simple paths; --query is the full language). */
export function pick(item: unknown, path: string): unknown {
  let cur: unknown = item;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function textRows(items: readonly unknown[], columns?: Columns): string {
  const cols = columnsFor(items, columns);
  return items.map((item) => cols.map(([, get]) => cell(get(item)).replace(/[\t\n]/g, ' ')).join('\t') + '\n').join('');
}

/** Plain text for a non-list value: `path<TAB>value` lines. */
export function textObject(value: unknown, prefix = ''): string {
  if (value === null || typeof value !== 'object') return `${prefix ? prefix + '\t' : ''}${cell(value)}\n`;
  if (Array.isArray(value)) return value.map((v, i) => textObject(v, `${prefix}[${i}]`)).join('');
  return Object.entries(value)
    .map(([k, v]) => textObject(v, prefix ? `${prefix}.${k}` : k))
    .join('');
}

export async function formatTable(
  value: unknown,
  opts: { columns?: Columns; listKey?: string; width: number; color: boolean; timeZone?: string },
): Promise<string> {
  const items = listOf(value, opts.listKey);
  const times = { timeZone: opts.timeZone };
  if (items) {
    if (items.length === 0) return '(no items)\n';
    const cols = columnsFor(items, opts.columns);
    const head = cols.map(([h]) => h);
    const rows = items.map((item) => cols.map(([, get]) => cell(get(item), times)));
    const widths = fitWidths(
      head.map((h, i) => Math.max(textWidth(h), ...rows.map((r) => textWidth(r[i] ?? '')))),
      opts.width,
    );
    return drawTable(rows, widths, { head, color: opts.color });
  }
  if (typeof value !== 'object' || value === null) return cell(value) + '\n';
  const entries = Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.entries(v).map(([k2, v2]) => [`${k}.${k2}`, v2] as const)
      : [[k, v] as const],
  );
  if (entries.length === 0) return '(empty)\n';
  const rows = entries.map(([k, v]) => [k, cell(v, times)]);
  const keyW = Math.min(40, Math.max(3, ...entries.map(([k]) => k.length)) + 2);
  const valNatural = Math.max(...rows.map((r) => textWidth(r[1] ?? ''))) + 2;
  const valW = Math.max(10, Math.min(valNatural, opts.width - keyW - 3));
  return drawTable(rows, [keyW, valW], { color: opts.color });
}

/** Display width of the widest line of a cell. */
const textWidth = (s: string): number => Math.max(...s.split('\n').map((l) => [...l].length));

/** A cell's lines hard-wrapped to `width` characters. */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const chars = [...line];
    if (chars.length === 0) out.push('');
    for (let i = 0; i < chars.length; i += width) out.push(chars.slice(i, i + width).join(''));
  }
  return out;
}

/**
 * Draws a boxed table. `widths` include one space of padding each side, as
 * fitWidths gives them. Rows are separated by a rule only when some cell
 * wraps, so simple listings stay compact.
 */
export function drawTable(
  rows: readonly string[][],
  widths: readonly number[],
  opts: { head?: readonly string[]; color: boolean },
): string {
  const paint = (code: number, s: string): string => (opts.color ? `\u001b[${code}m${s}\u001b[39m` : s);
  const border = (s: string): string => paint(90, s);
  const rule = (l: string, m: string, r: string): string => border(l + widths.map((w) => '─'.repeat(w)).join(m) + r);
  const line = (cells: readonly string[], head: boolean): string[] => {
    const wrapped = widths.map((w, i) => wrap(cells[i] ?? '', Math.max(1, w - 2)));
    const height = Math.max(...wrapped.map((c) => c.length));
    const lines: string[] = [];
    for (let j = 0; j < height; j++) {
      const parts = wrapped.map((c, i) => {
        const text = c[j] ?? '';
        const padded = ` ${text}${' '.repeat(Math.max(0, (widths[i] ?? 2) - 2 - [...text].length))} `;
        return head ? paint(36, padded) : padded;
      });
      lines.push(border('│') + parts.join(border('│')) + border('│'));
    }
    return lines;
  };
  const body = rows.map((r) => line(r, false));
  const separate = body.some((b) => b.length > 1);
  const out = [rule('┌', '┬', '┐')];
  if (opts.head) out.push(...line(opts.head, true), rule('├', '┼', '┤'));
  body.forEach((b, i) => {
    if (separate && i > 0) out.push(rule('├', '┼', '┤'));
    out.push(...b);
  });
  out.push(rule('└', '┴', '┘'));
  return out.join('\n') + '\n';
}

/** Shrinks the widest columns until the table fits the terminal (borders take 3 per column + 1). */
export function fitWidths(natural: number[], width: number): number[] {
  const w = natural.map((n) => n + 2);
  const budget = Math.max(width - 1 - w.length, w.length * 6);
  let total = w.reduce((a, b) => a + b, 0);
  while (total > budget) {
    const i = w.indexOf(Math.max(...w));
    if ((w[i] ?? 0) <= 6) break;
    w[i] = (w[i] ?? 0) - 1;
    total--;
  }
  return w;
}
