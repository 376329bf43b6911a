/**
 * The output formats, one formatter each: json, yaml, jsonl, tsv, text and
 * table. A formatter writes a whole answer (`value`), or a listing as it
 * arrives (`begin`, `items` a page at a time, `end`), and it is the one place
 * its format is written: render.ts feeds it a single answer or a paged stream
 * alike. Items come a page at a time because tsv and tables lay out their
 * columns from the first page.
 *
 * `text` is the official CLI's layout (text.ts) and `yaml` the yaml
 * library's: both need the whole answer, so they take only `value`. `tsv` is
 * cdpctl's compact one-row-per-item form. The table and text code, and the
 * yaml library, load only when their format is asked for.
 */
import { visibleValue } from '../core/visible.js';
import { cell, columnsFor, listOf, unwrapped, type Column, type Columns } from './cells.js';

export type OutputFormat = 'json' | 'yaml' | 'table' | 'text' | 'tsv' | 'jsonl';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['json', 'yaml', 'table', 'text', 'tsv', 'jsonl'];

/** Where a listing resumes: the name of the answer's token field and the token, for formats that say it on stderr. */
export interface Resume {
  readonly field: string;
  readonly token?: string;
}

/** A format that writes a listing as it arrives. */
export interface ListingFormatter {
  /** The opening of a listing whose items sit under `key`. */
  begin(key: string): string;
  /** The next items of the listing (a slice of a page, or of all the items of one answer). */
  items(items: readonly unknown[]): string;
  /** Sees each whole page before its slices are written (a table lays itself out from the first). */
  page?(items: readonly unknown[]): void;
  /** The close of the listing: `fields` are the answer's other fields (json keeps them; the others say the token on stderr). */
  end(fields: Readonly<Record<string, unknown>>, resume: Resume): string;
}

export interface Formatter {
  /**
   * Tables carry cdpctl's own styling (their data made visible here) and go
   * through the pager; every other format is written through IO.write.
   */
  readonly styled: boolean;
  /** Writes an answer that holds a list as that list's items (jsonl, tsv, table) rather than whole. */
  readonly byItem: boolean;
  /** A whole answer. */
  value(v: unknown): string | Promise<string>;
  /** A whole answer a part at a time, for a format that can (text): a huge answer never becomes one string. */
  readonly parts?: (v: unknown) => Iterable<string>;
  /** Present when the format can write a listing page by page (json, jsonl, tsv, table). */
  readonly listing?: ListingFormatter;
  /** What to say on stderr once the output is written (columns a table left out, the token to resume from). */
  readonly notes: readonly string[];
}

export interface FormatOptions {
  /** The model's columns for tsv and tables (none for a --query result). */
  readonly columns?: Columns;
  /** The key of the answer's list (none for a --query result). */
  readonly listKey?: string;
  /** --ensure-ascii: JSON with every non-ASCII character escaped. */
  readonly ascii?: boolean;
  /** Tables: the width to fit and whether to colour the headers. */
  readonly width?: number;
  readonly color?: boolean;
  /** Tables: the zone wire times are shown in ($TZ, else the system's, when not given). */
  readonly timeZone?: string;
}

/** JSON as the official CLI's --ensure-ascii writes it: every non-ASCII UTF-16 unit as \\uXXXX. */
export const asciiJson = (text: string): string =>
  text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The stderr line after a listing that stopped early: where to resume. */
const resumeNote = (resume: Resume): string => `${resume.field}: ${resume.token}  (resume with --starting-token ${resume.token})`;

/** Says which columns a table left out to fit the terminal. */
const leftOutNote = (columns: readonly string[], width: number): string =>
  `(${columns.join(', ')} left out to fit ${width} columns; see ${columns.length > 1 ? 'them' : 'it'} with --output json or a wider terminal)`;

/** Indents every line but the first. */
const indented = (text: string, by: string): string => text.replace(/\n/g, `\n${by}`);

/** What JSON.stringify writes around a list under one key at two spaces: what is left is the items, as they sit in the document. */
const LIST_HEAD = '{\n  "x": ['.length;
const LIST_TAIL = '\n  ]\n}'.length;

/**
 * JSON as `JSON.stringify(answer, null, 2)` writes it. A listing is the
 * same document written as it arrives: the list first, then the answer's
 * other fields and the token; its opening goes out with the first page, so
 * a call that fails before any page leaves stdout empty. A page's items are
 * written by one stringify of the page, indented as they sit in the
 * document, rather than item by item and indented again.
 */
function json(opts: FormatOptions): Formatter {
  const out = (text: string): string => (opts.ascii ? asciiJson(text) : text);
  let count = 0;
  return {
    styled: false,
    byItem: false,
    notes: [],
    value: (v) => out(JSON.stringify(v, null, 2) + '\n'),
    listing: {
      begin: (key) => out(`{\n  ${JSON.stringify(key)}: [`),
      items(items) {
        if (items.length === 0) return '';
        const page = JSON.stringify({ x: items }, null, 2);
        const text = (count > 0 ? ',' : '') + page.slice(LIST_HEAD, page.length - LIST_TAIL);
        count += items.length;
        return out(text);
      },
      end(fields, resume) {
        let text = count > 0 ? '\n  ]' : ']';
        for (const [k, v] of Object.entries(fields)) text += `,\n  ${JSON.stringify(k)}: ${indented(JSON.stringify(v, null, 2), '  ')}`;
        if (resume.token !== undefined) text += `,\n  ${JSON.stringify(resume.field)}: ${JSON.stringify(resume.token)}`;
        return out(text + '\n}\n');
      },
    },
  };
}

/** The listing formats that write items only: the answer's other fields are left out, the token said on stderr. */
function itemsOnly(notes: string[], items: (items: readonly unknown[]) => string, close = (): string => ''): ListingFormatter {
  return {
    begin: () => '',
    items,
    end(_fields, resume) {
      const text = close();
      if (resume.token) notes.push(resumeNote(resume));
      return text;
    },
  };
}

/** One compact JSON document a line: an item of a list, or the whole answer. */
function jsonl(opts: FormatOptions): Formatter {
  const out = (text: string): string => (opts.ascii ? asciiJson(text) : text);
  const notes: string[] = [];
  return {
    styled: false,
    byItem: true,
    notes,
    value: (v) => out(JSON.stringify(v) + '\n'),
    listing: itemsOnly(notes, (items) => out(items.map((i) => JSON.stringify(i) + '\n').join(''))),
  };
}

/** Plain text for a non-list value: `path<TAB>value` lines. */
export function textObject(value: unknown, prefix = ''): string {
  if (value === null || typeof value !== 'object') return `${prefix ? prefix + '\t' : ''}${cell(value)}\n`;
  if (Array.isArray(value)) return value.map((v, i) => textObject(v, `${prefix}[${i}]`)).join('');
  return Object.entries(value)
    .map(([k, v]) => textObject(v, prefix ? `${prefix}.${k}` : k))
    .join('');
}

/** Tab-separated rows of the columns the first items have; anything else as `path<TAB>value` lines. */
function tsv(opts: FormatOptions): Formatter {
  const notes: string[] = [];
  let columns: Column[] | undefined;
  return {
    styled: false,
    byItem: true,
    notes,
    value: (v) => textObject(v),
    listing: itemsOnly(notes, (items) => {
      if (items.length === 0) return '';
      columns ??= columnsFor(items, opts.columns);
      const cols = columns;
      return items.map((item) => cols.map((c) => cell(c.get(item)).replace(/[\t\n]/g, ' ')).join('\t') + '\n').join('');
    }),
  };
}

async function yaml(): Promise<Formatter> {
  const { stringify } = await import('yaml');
  return { styled: false, byItem: false, notes: [], value: (v) => stringify(v, { lineWidth: 0 }) };
}

async function text(): Promise<Formatter> {
  const { formatText, textParts } = await import('./text.js');
  return { styled: false, byItem: false, notes: [], value: (v) => formatText(v), parts: textParts };
}

/**
 * Boxed tables (table.ts): a list laid out from its first page and written
 * page by page, a resource as key/value rows. Tables are for reading only, so
 * their data is always shown visible.
 */
async function table(opts: FormatOptions): Promise<Formatter> {
  const { ListTable, recordTable } = await import('./table.js');
  const layout = { width: opts.width ?? 100, color: opts.color ?? false, timeZone: opts.timeZone };
  const notes: string[] = [];
  let list: InstanceType<typeof ListTable> | undefined;
  return {
    styled: true,
    byItem: true,
    notes,
    value(v) {
      const shown = visibleValue(v);
      if (typeof shown !== 'object' || shown === null) return cell(shown) + '\n';
      return recordTable(unwrapped(shown as Record<string, unknown>), layout);
    },
    listing: {
      ...itemsOnly(
        notes,
        (items) => {
          if (items.length === 0) return '';
          const shown = items.map(visibleValue);
          list ??= new ListTable(columnsFor(shown, opts.columns), layout);
          return list.page(shown);
        },
        () => {
          if (list?.leftOut.length) notes.push(leftOutNote(list.leftOut, layout.width));
          return list ? list.end() : '(no items)\n';
        },
      ),
      // The first page lays the table out, a long one by a sample across it rather than by its first slice alone.
      page(items) {
        if (list || items.length === 0) return;
        const sample = sampleOf(items).map(visibleValue);
        list = new ListTable(columnsFor(sample, opts.columns), layout);
        list.plan(sample);
      },
    },
  };
}

/** The formatter of a format, fresh for one answer or one listing. */
export async function formatterFor(format: OutputFormat, opts: FormatOptions = {}): Promise<Formatter> {
  switch (format) {
    case 'json':
      return json(opts);
    case 'jsonl':
      return jsonl(opts);
    case 'tsv':
      return tsv(opts);
    case 'yaml':
      return yaml();
    case 'text':
      return text();
    case 'table':
      return table(opts);
  }
}

/**
 * Items a listing formatter is given at a time. A page of a million items is
 * written in slices, so that its text is never one string, a table is laid
 * out from its first slice, and memory stays near the answer's own size.
 */
export const SLICE = 1000;

/** The items of a list a slice at a time (SLICE). */
export function* slices<T>(items: readonly T[]): Generator<readonly T[]> {
  for (let i = 0; i < items.length; i += SLICE) yield items.length <= SLICE ? items : items.slice(i, i + SLICE);
}

/** A page's items, or for a long one its first SLICE items and SLICE more spread evenly to its end: what a layout needs to see. */
export function sampleOf<T>(items: readonly T[]): readonly T[] {
  if (items.length <= 2 * SLICE) return items;
  const sample = items.slice(0, SLICE);
  const step = (items.length - SLICE) / SLICE;
  for (let i = 1; i <= SLICE; i++) sample.push(items[Math.min(items.length - 1, SLICE - 1 + Math.round(i * step))] as T);
  return sample;
}

/** A whole answer in a format: an answer that holds a list as its items where the format writes items. */
export async function formatValue(
  v: unknown,
  format: OutputFormat,
  opts: FormatOptions = {},
): Promise<{ text: string; notes: readonly string[] }> {
  const { parts, notes } = await formatParts(v, format, opts);
  return { text: [...parts].join(''), notes };
}

/** The same, a part at a time (the notes are complete once the parts are written). */
export async function formatParts(
  v: unknown,
  format: OutputFormat,
  opts: FormatOptions = {},
): Promise<{ parts: Iterable<string>; notes: readonly string[] }> {
  const f = await formatterFor(format, opts);
  const items = f.byItem && f.listing ? listOf(v, opts.listKey) : undefined;
  const listing = f.listing;
  if (items && listing) {
    const parts = function* (): Generator<string> {
      yield listing.begin(opts.listKey ?? '');
      listing.page?.(items);
      for (const slice of slices(items)) yield listing.items(slice);
      yield listing.end({}, { field: '' });
    };
    return { parts: parts(), notes: f.notes };
  }
  return { parts: f.parts ? f.parts(v) : [await f.value(v)], notes: f.notes };
}
