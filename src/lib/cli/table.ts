/**
 * Boxed tables for `--output table`, loaded only for that format. Widths are
 * display columns (string-width: CJK and emoji take two), so borders stay
 * straight; cells wrap at spaces and token boundaries (after `:` `/` `,` `=`
 * `-` `.`, between CJK characters), never inside a UUID or a number.
 *
 * A list is laid out from its first page and keeps that layout, so a listing
 * of any length streams in bounded memory: ListTable.page() turns each page
 * into text as it arrives. A single resource is a key/value table whose
 * nested objects are indented rows.
 */
import stringWidth from 'string-width';
import { cell, type Column } from './cells.js';

const PLAIN = /^[\x20-\x7e]*$/;

/** Display width of one line of text. */
export const textWidth = (s: string): number => (PLAIN.test(s) ? s.length : stringWidth(s));

/** The largest of `f` over the items, at least `floor` (a loop: Math.max(...items) overflows the stack on a long list). */
function widest<T>(items: readonly T[], f: (item: T) => number, floor: number): number {
  let w = floor;
  for (const item of items) w = Math.max(w, f(item));
  return w;
}

const lineWidth = (s: string): number => {
  if (!s.includes('\n')) return textWidth(s);
  let w = 0;
  for (const l of s.split('\n')) w = Math.max(w, textWidth(l));
  return w;
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const AFTER = new Set([':', '/', ',', ';', '=', '&', '?', '|', '@', '.', '-', '_', '+']);
const DIGIT = /[0-9]/;
const wide = (ch: string): boolean => ch > '\u007f' && stringWidth(ch) === 2;

/**
 * A word cut where a line may break: after a separator (not inside a UUID,
 * not between digits as in `2026-11-22` or `7.2.18`, not inside `//`),
 * between wide characters, and (for headers, `camel`) inside camelCase.
 */
export function chunks(word: string, camel = false): string[] {
  if (word.length <= 1) return [word];
  // A CRN breaks only between its parts (after `:` and `/`), never inside a region such as `us-west-1`.
  const crn = word.startsWith('crn:');
  const keep = new Uint8Array(word.length);
  if (word.length >= 36) {
    for (const m of word.matchAll(UUID)) keep.fill(1, m.index, m.index + m[0].length - 1);
  }
  const out: string[] = [];
  let start = 0;
  const chars = [...word];
  let pos = 0;
  for (let i = 0; i < chars.length - 1; i++) {
    const ch = chars[i] ?? '';
    const next = chars[i + 1] ?? '';
    const end = pos + ch.length;
    let cut = false;
    if (!keep[pos]) {
      if (AFTER.has(ch)) {
        cut =
          next !== ch && !(DIGIT.test(word[pos - 1] ?? '') && DIGIT.test(next)) && !AFTER.has(next) && (!crn || ch === ':' || ch === '/');
      } else if (ch > '\u007f' || next > '\u007f') {
        cut = wide(ch) || wide(next);
      } else if (camel) {
        cut = /[a-z]/.test(ch) && /[A-Z]/.test(next);
      }
    }
    if (cut) {
      out.push(word.slice(start, end));
      start = end;
    }
    pos = end;
  }
  out.push(word.slice(start));
  return out;
}

/** One segmenter for every cut: making one costs more than most cuts. */
let graphemes: Intl.Segmenter | undefined;

/** Cuts a piece wider than `width` into lines of at most `width`, between characters (emoji kept whole). */
function hardCut(piece: string, width: number): string[] {
  const out: string[] = [];
  let cur = '';
  let w = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(piece)) {
    const sw = textWidth(segment);
    if (w + sw > width && cur) {
      out.push(cur);
      cur = '';
      w = 0;
    }
    cur += segment;
    w += sw;
  }
  out.push(cur);
  return out;
}

/** A date and time with its zone (`2026-11-22 11:13:37 UTC`, `... +05:30`): one unbreakable piece. */
const DATE_TIME = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?: (?:[A-Z]{2,5}|[A-Za-z_]+\/[A-Za-z_]+|[+-]\d{2}:?\d{2}))?/g;
const GLUE = '\u00a0';
/** The spaces inside dates and times made unbreakable (a no-break space, one column wide like a space). */
const glueTimes = (text: string): string => (text.length < 16 ? text : text.replace(DATE_TIME, (m) => m.replace(/ /g, GLUE)));

/** A cell's text as lines of at most `width` display columns (`camel`: a header, which may break inside camelCase). */
export function wrap(text: string, width: number, camel = false): string[] {
  if (!text.includes('\n') && textWidth(text) <= width) return [text];
  const glued = glueTimes(text);
  if (glued !== text) return wrapLines(glued, width, camel).map((l) => l.replaceAll(GLUE, ' '));
  return wrapLines(text, width, camel);
}

function wrapLines(text: string, width: number, camel: boolean): string[] {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    let cur = '';
    let curW = 0;
    let space = '';
    for (const token of line.split(/( +)/)) {
      if (token === '') continue;
      if (token.startsWith(' ')) {
        if (cur) space = token;
        continue;
      }
      for (const piece of chunks(token, camel)) {
        const pw = textWidth(piece);
        const sw = space.length;
        if (curW + sw + pw <= width) {
          cur += space + piece;
          curW += sw + pw;
          space = '';
          continue;
        }
        if (cur) lines.push(cur);
        space = '';
        if (pw <= width) {
          cur = piece;
          curW = pw;
        } else {
          const cut = hardCut(piece, width);
          lines.push(...cut.slice(0, -1));
          cur = cut[cut.length - 1] ?? '';
          curW = textWidth(cur);
        }
      }
    }
    lines.push(cur);
  }
  return lines;
}

/** The widest piece a cell cannot be broken below without cutting a token. */
function unbreakable(text: string, camel = false): number {
  let w = 0;
  for (const word of glueTimes(text).split(/[ \t\n]+/)) {
    if (textWidth(word) <= w) continue;
    for (const piece of chunks(word, camel)) w = Math.max(w, textWidth(piece));
  }
  return w;
}

/** Unbreakable pieces wider than this may still be cut when nothing else fits. */
const MAX_MIN_WIDTH = 48;
/** A column is not narrowed below this (or its natural width) while others can be left out. */
const COMFORTABLE = 12;

/**
 * Widths (content only) that fit `available` columns: natural widths when
 * they fit, else the widest columns narrowed, never below their minimum.
 * Undefined when even the minimums do not fit.
 */
export function fitColumns(natural: readonly number[], minimum: readonly number[], available: number): number[] | undefined {
  const w = [...natural];
  let excess = w.reduce((a, b) => a + b, 0) - available;
  while (excess > 0) {
    let widest = -1;
    for (let i = 0; i < w.length; i++) if ((w[i] ?? 0) > (minimum[i] ?? 1) && (widest < 0 || (w[i] ?? 0) > (w[widest] ?? 0))) widest = i;
    if (widest < 0) return undefined;
    const floor = Math.max(minimum[widest] ?? 1, Math.max(...w.filter((_, i) => i !== widest && (w[i] ?? 0) > (minimum[i] ?? 1)), 0));
    const step = Math.max(1, Math.min(excess, (w[widest] ?? 0) - floor));
    w[widest] = (w[widest] ?? 0) - step;
    excess -= step;
  }
  return w;
}

/** Border characters and colour for a table of given content widths (one space of padding each side). */
class Box {
  constructor(
    readonly widths: readonly number[],
    private readonly color: boolean,
  ) {}

  private border(s: string): string {
    return this.color ? `\u001b[90m${s}\u001b[39m` : s;
  }

  rule(l: string, m: string, r: string): string {
    return this.border(l + this.widths.map((w) => '─'.repeat(w + 2)).join(m) + r) + '\n';
  }

  top = (): string => this.rule('┌', '┬', '┐');
  middle = (): string => this.rule('├', '┼', '┤');
  bottom = (): string => this.rule('└', '┴', '┘');

  /** One row, as many lines as its tallest cell. */
  row(cells: readonly string[], head = false): { text: string; height: number } {
    const wrapped = this.widths.map((w, i) => wrap(cells[i] ?? '', w, head));
    const height = Math.max(...wrapped.map((c) => c.length));
    const bar = this.border('│');
    let text = '';
    for (let j = 0; j < height; j++) {
      let line = bar;
      for (let i = 0; i < this.widths.length; i++) {
        const t = wrapped[i]?.[j] ?? '';
        const padded = t + ' '.repeat(Math.max(0, (this.widths[i] ?? 0) - textWidth(t)));
        line += ` ${head && this.color ? `\u001b[36m${padded}\u001b[39m` : padded} ${bar}`;
      }
      text += line + '\n';
    }
    return { text, height };
  }
}

export interface TableOptions {
  /** Terminal width to fit. */
  readonly width: number;
  readonly color: boolean;
  readonly timeZone?: string;
}

/** Columns that are kept when a table is too wide: the first, and the first identifier (`...Crn`, `...Id`). */
function keptColumns(columns: readonly Column[]): Set<number> {
  const keep = new Set([0]);
  const id = columns.findIndex((c) => /(crn|Crn|CRN|Id|ID|^id)$/.test(c.path ?? c.header));
  if (id >= 0) keep.add(id);
  return keep;
}

/**
 * A list table written page by page. The first page (with the headers)
 * decides which columns are shown and how wide they are (a long one by a
 * sample across it, plan()); later pages keep that layout, wrapping what is
 * longer. Columns that cannot fit the
 * terminal even at their narrowest are left out, from the right, keeping
 * the first and the identifier; `leftOut` names them.
 */
export class ListTable {
  private box?: Box;
  private shown: Column[] = [];
  private separate = false;
  private rows = 0;
  private headed = false;
  leftOut: string[] = [];

  constructor(
    private readonly columns: readonly Column[],
    private readonly opts: TableOptions,
  ) {}

  private cells(item: unknown, cols: readonly Column[]): string[] {
    const times = { timeZone: this.opts.timeZone };
    return cols.map((c) => cell(c.get(item), times, c.path ?? c.header));
  }

  private layout(items: readonly unknown[]): void {
    const all = items.map((item) => this.cells(item, this.columns));
    const natural = this.columns.map((c, i) => widest(all, (r) => lineWidth(r[i] ?? ''), textWidth(c.header)));
    // Narrowest a column goes before columns are left out: its longest unbroken piece, and not
    // below a width that keeps a cell to a line or two.
    const minimum = this.columns.map((c, i) =>
      Math.min(
        natural[i] ?? 1,
        Math.max(
          unbreakable(c.header, true),
          COMFORTABLE,
          Math.min(
            MAX_MIN_WIDTH,
            widest(all, (r) => unbreakable(r[i] ?? ''), 1),
          ),
        ),
      ),
    );
    const keep = keptColumns(this.columns);
    let idx = this.columns.map((_, i) => i);
    const fits = (ix: number[]): number[] | undefined =>
      fitColumns(
        ix.map((i) => natural[i] ?? 1),
        ix.map((i) => minimum[i] ?? 1),
        this.opts.width - (3 * ix.length + 1),
      );
    let widths = fits(idx);
    while (!widths) {
      const drop = [...idx].reverse().find((i) => !keep.has(i));
      if (drop === undefined) break;
      idx = idx.filter((i) => i !== drop);
      widths = fits(idx);
    }
    if (!widths) {
      // Even the first column and the identifier do not fit whole: cut them.
      const available = Math.max(idx.length * 4, this.opts.width - (3 * idx.length + 1));
      widths =
        fitColumns(
          idx.map((i) => natural[i] ?? 1),
          idx.map(() => 4),
          available,
        ) ?? idx.map(() => 4);
    }
    this.shown = idx.map((i) => this.columns[i] as Column);
    this.leftOut = this.columns.filter((_, i) => !idx.includes(i)).map((c) => c.header);
    this.box = new Box(widths, this.opts.color);
    // Rows are ruled apart only when some cell of the first page wraps.
    this.separate = all.some((r) => idx.some((i, k) => r[i]?.includes('\n') || lineWidth(r[i] ?? '') > (widths?.[k] ?? 0)));
  }

  /** The text of the next page of items (the first also lays the table out and has the head). */
  /** Lays the table out from these items before any row is written: a sample of a first page too long to lay out whole. */
  plan(items: readonly unknown[]): void {
    if (!this.box && items.length > 0) this.layout(items);
  }

  page(items: readonly unknown[]): string {
    if (items.length === 0) return '';
    let text = '';
    if (!this.box) this.layout(items);
    const box = this.box as unknown as Box;
    if (!this.headed) {
      this.headed = true;
      text +=
        box.top() +
        box.row(
          this.shown.map((c) => c.header),
          true,
        ).text +
        box.middle();
    }
    for (const item of items) {
      if (this.separate && this.rows > 0) text += box.middle();
      text += box.row(this.cells(item, this.shown)).text;
      this.rows++;
    }
    return text;
  }

  /** The closing border, or `(no items)` for a list without any. */
  end(): string {
    return this.box ? this.box.bottom() : '(no items)\n';
  }
}

/** Key/value rows of a resource: nested objects as indented rows, list items marked `- ` (YAML's way). */
export function recordRows(value: Readonly<Record<string, unknown>>, opts: { timeZone?: string } = {}): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  const times = { timeZone: opts.timeZone };
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const scalarList = (v: unknown[]): boolean => v.every((x) => x === null || typeof x !== 'object');
  const walk = (obj: Readonly<Record<string, unknown>>, indent: string, first?: string): void => {
    let lead = first;
    for (const [k, v] of Object.entries(obj)) {
      const key = (lead ?? indent) + k;
      lead = undefined;
      const inner = indent + '  ';
      if (isObj(v)) {
        if (Object.keys(v).length === 0) rows.push([key, '(none)']);
        else {
          rows.push([key, '']);
          walk(v, inner);
        }
      } else if (Array.isArray(v)) {
        if (v.length === 0) rows.push([key, '(none)']);
        else if (scalarList(v)) rows.push([key, v.map((x) => cell(x, times, k)).join(', ')]);
        else {
          rows.push([key, '']);
          for (const item of v) {
            if (isObj(item) && Object.keys(item).length > 0) walk(item, inner + '  ', inner + '- ');
            else rows.push([inner + '- ', cell(item, times, k)]);
          }
        }
      } else rows.push([key, cell(v, times, k)]);
    }
  };
  walk(value, '');
  return rows;
}

/** A resource as a two-column key/value table that fits the terminal. */
export function recordTable(value: Readonly<Record<string, unknown>>, opts: TableOptions): string {
  const rows = recordRows(value, opts);
  if (rows.length === 0) return '(empty)\n';
  const available = Math.max(20, opts.width - 7);
  const keyNatural = widest(rows, ([k]) => textWidth(k), 0);
  const valueNatural = widest(rows, ([, v]) => lineWidth(v), 1);
  const keyW = Math.min(keyNatural, Math.max(12, Math.floor(available * 0.45)));
  const valueW = Math.max(8, Math.min(valueNatural, available - keyW));
  const box = new Box([keyW, valueW], opts.color);
  const drawn = rows.map(([k, v]) => box.row([k, v]));
  // As in a list: once a row wraps, rules keep each row apart from the next.
  const rule = drawn.some((r) => r.height > 1) ? box.middle() : '';
  return box.top() + drawn.map((r) => r.text).join(rule) + box.bottom();
}
